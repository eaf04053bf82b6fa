/* MCR notation's tiles and melds read in C, shared by the compiled cores (engine/_native.c, engine/_mcr_native.c):
 * the common valid text only; anything else is -1 and the caller leaves the line to the pure parser
 * (engine/notation.py), which names the fault. Tile ids are engine.tiles': 0-8 m, 9-17 p, 18-26 s, 27-33 ESWNPFC.
 * setup.py and engine/native.py fold this file into each core's source digest. */
#ifndef MJTABLE_NOTATION_H
#define MJTABLE_NOTATION_H

#include <Python.h>

#define MAX_TILES 64

/* The engine id of an honor letter (ESWNPFC = 1z-7z), or -1. */
static inline int honor_tile(Py_UCS1 c) {
    static const char letters[] = "ESWNPFC";
    for (int i = 0; i < 7; i++) {
        if (letters[i] == c) return 27 + i;
    }
    return -1;
}

/* The tiles of MCR notation (digits + m/p/s/z, honor letters) into ``tiles``; -1 on anything else. */
static inline Py_ssize_t read_tiles(const Py_UCS1 *s, Py_ssize_t n, int *tiles) {
    Py_ssize_t count = 0, digits_from = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS1 c = s[i];
        if (c >= '1' && c <= '9') {
            if (digits_from < 0) digits_from = i;
            continue;
        }
        int base, size;
        switch (c) {
        case 'm': base = 0, size = 9; break;
        case 'p': base = 9, size = 9; break;
        case 's': base = 18, size = 9; break;
        case 'z': base = 27, size = 7; break;
        default: {
            int honor = honor_tile(c);
            if (honor < 0 || digits_from >= 0 || count >= MAX_TILES) return -1;
            tiles[count++] = honor;
            continue;
        }
        }
        if (digits_from < 0) return -1;
        for (Py_ssize_t j = digits_from; j < i; j++) {
            int rank = s[j] - '0';
            if (rank > size || count >= MAX_TILES) return -1;
            tiles[count++] = base + rank - 1;
        }
        digits_from = -1;
    }
    return digits_from >= 0 ? -1 : count;
}

enum { MELD_CHOW = 1, MELD_PUNG = 2, MELD_KONG = 3 };

/* One meld's text between its brackets (engine.notation._parse_meld): its kind, lowest tile and offer (0 for none);
 * 1 when read, -1 for anything the pure parser must read (or refuse). */
static inline int read_meld(const Py_UCS1 *s, Py_ssize_t n, int *kind, int *tile, int *offer) {
    Py_ssize_t body = 0;
    while (body < n && s[body] != ',') body++;
    *offer = 0;
    if (body < n) {
        if (n - body != 2 || s[body + 1] < '1' || s[body + 1] > '7') return -1;
        *offer = s[body + 1] - '0';
    }
    int tiles[MAX_TILES];
    Py_ssize_t count = read_tiles(s, body, tiles);
    if (count < 3 || count > 4) return -1;
    int low = tiles[0], high = tiles[0], same = 1;
    for (Py_ssize_t i = 1; i < count; i++) {
        low = tiles[i] < low ? tiles[i] : low, high = tiles[i] > high ? tiles[i] : high;
        same &= tiles[i] == tiles[0];
    }
    if (same) {
        *kind = count == 4 ? MELD_KONG : MELD_PUNG;
    } else {
        int middle = tiles[0] + tiles[1] + tiles[2] - low - high;
        if (count != 3 || low >= 27 || high != low + 2 || middle != low + 1 || low / 9 != high / 9) return -1;
        *kind = MELD_CHOW;
    }
    if (*kind != MELD_KONG && *offer > 3) return -1;
    *tile = low;
    return 1;
}

#endif
