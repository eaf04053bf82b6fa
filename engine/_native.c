/* The optional compiled core of the engine (issue 30): the per-line hot paths of the batch CLI for the common valid
 * case only. Each function answers None whenever the input is anything but plainly valid, and the caller then runs
 * the pure-Python path, which names the error; so the results are the pure path's, only sooner. engine/native.py
 * loads it (MJTABLE_PURE=1 keeps it out); tests/engine/test_native.py compares both paths hand by hand. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_notation.h"

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST "" /* setup.py defines it: the sha256 of this file, which engine/native.py checks */
#endif

#define NUM_KINDS 34
#define HAND_SIZE 13

static PyObject *empty_tuple;
static PyObject *key_melds, *key_standing, *key_win_tile, *key_situation, *key_flowers;
static PyObject *key_kind, *key_tile;
static PyObject *small_ints[NUM_KINDS + 9];

/* A known part (meld or situation) looked up in the pure parser's cache of successes; NULL (no error set) if absent. */
static PyObject *cached_part(PyObject *cache, const Py_UCS1 *s, Py_ssize_t n) {
    PyObject *key = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, s, n);
    if (key == NULL) return NULL;
    PyObject *found = PyDict_GetItemWithError(cache, key);
    Py_DECREF(key);
    return found; /* borrowed */
}

/* A frozen dataclass instance with its fields set, as its generated __init__ would set them (object.__setattr__). */
static PyObject *new_hand(PyTypeObject *type, PyObject *melds, PyObject *standing, PyObject *win_tile,
                          PyObject *situation, PyObject *flowers) {
    PyObject *hand = type->tp_new(type, empty_tuple, NULL);
    if (hand == NULL) return NULL;
    PyObject *dict = PyObject_GenericGetDict(hand, NULL);
    if (dict == NULL || PyDict_SetItem(dict, key_melds, melds) < 0 || PyDict_SetItem(dict, key_standing, standing) < 0 ||
        PyDict_SetItem(dict, key_win_tile, win_tile) < 0 || PyDict_SetItem(dict, key_situation, situation) < 0 ||
        PyDict_SetItem(dict, key_flowers, flowers) < 0) {
        Py_XDECREF(dict);
        Py_DECREF(hand);
        return NULL;
    }
    Py_DECREF(dict);
    return hand;
}

/* One line of MCR notation as the pure parser reads it when it is well formed and its melds and situation block are
 * in that parser's caches of successes (``melds``, ``situations``); the parts are borrowed from those caches. */
typedef struct {
    PyObject *melds[4];
    int meld_count;
    int tiles[MAX_TILES];
    Py_ssize_t count; /* the standing tiles, the winning tile last unless ``waiting`` */
    int waiting;
    PyObject *situation, *flowers; /* Py_None when absent */
} Parsed;

/* Reads the ASCII text ``s`` into ``out``: 1 when read, 0 when the pure parser must (anything unusual), -1 on a Python error. */
static int read_hand(const Py_UCS1 *s, Py_ssize_t n, PyObject *meld_cache, PyObject *situation_cache, Parsed *out) {
    out->waiting = n > 0 && s[n - 1] == ' ';
    Py_ssize_t end = out->waiting ? n - 1 : n;
    Py_ssize_t bars[2] = {end, end};
    int sections = 1;
    for (Py_ssize_t i = 0; i < end; i++) {
        if (s[i] == '|') {
            if (sections == 3) return 0;
            bars[sections++ - 1] = i;
        }
    }
    Py_ssize_t tiles_end = bars[0];
    out->meld_count = 0;
    Py_ssize_t position = 0;
    while (position < tiles_end && s[position] == '[') {
        Py_ssize_t close = position + 1;
        while (close < tiles_end && s[close] != ']') close++;
        if (close == tiles_end || out->meld_count == 4) return 0;
        PyObject *meld = cached_part(meld_cache, s + position + 1, close - position - 1);
        if (meld == NULL) return PyErr_Occurred() ? -1 : 0;
        out->melds[out->meld_count++] = meld;
        position = close + 1;
    }
    out->count = read_tiles(s + position, tiles_end - position, out->tiles);
    if (out->count < 0 || (!out->waiting && out->count == 0)) return 0;
    out->situation = out->flowers = Py_None;
    if (sections > 1) {
        Py_ssize_t stop = sections > 2 ? bars[1] : end;
        out->situation = cached_part(situation_cache, s + bars[0] + 1, stop - bars[0] - 1);
        if (out->situation == NULL) return PyErr_Occurred() ? -1 : 0;
    }
    if (sections > 2) {
        if (end - bars[1] != 2 || s[end - 1] < '0' || s[end - 1] > '8') return 0;
        out->flowers = small_ints[s[end - 1] - '0'];
    }
    return 1;
}

/* parse_hand(text, melds, situations, hand_type) -> Hand | None: engine.notation.parse_hand for a well-formed hand
 * whose melds and situation block the pure parser has met before (``melds``, ``situations``: its caches). */
static PyObject *parse_hand(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyUnicode_Check(args[0]) || !PyDict_Check(args[1]) || !PyDict_Check(args[2]) ||
        !PyType_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "parse_hand(text, melds, situations, hand_type)");
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(args[0])) Py_RETURN_NONE;
    Parsed parsed;
    int read = read_hand(PyUnicode_1BYTE_DATA(args[0]), PyUnicode_GET_LENGTH(args[0]), args[1], args[2], &parsed);
    if (read < 0) return NULL;
    if (read == 0) Py_RETURN_NONE;
    Py_ssize_t count = parsed.count, standing_count = parsed.waiting ? count : count - 1;
    PyObject *meld_tuple = PyTuple_New(parsed.meld_count);
    PyObject *standing = PyTuple_New(standing_count);
    PyObject *hand = NULL;
    if (meld_tuple != NULL && standing != NULL) {
        for (int i = 0; i < parsed.meld_count; i++) {
            Py_INCREF(parsed.melds[i]);
            PyTuple_SET_ITEM(meld_tuple, i, parsed.melds[i]);
        }
        for (Py_ssize_t i = 0; i < standing_count; i++) {
            Py_INCREF(small_ints[parsed.tiles[i]]);
            PyTuple_SET_ITEM(standing, i, small_ints[parsed.tiles[i]]);
        }
        PyObject *win_tile = parsed.waiting ? Py_None : small_ints[parsed.tiles[count - 1]];
        hand = new_hand((PyTypeObject *)args[3], meld_tuple, standing, win_tile, parsed.situation, parsed.flowers);
    }
    Py_XDECREF(meld_tuple);
    Py_XDECREF(standing);
    return hand;
}

/* A small int attribute of ``object`` in [0, limit), or -1 (no error set) for anything else. */
static int int_attribute(PyObject *object, PyObject *name, int limit) {
    PyObject *value = PyObject_GetAttr(object, name);
    if (value == NULL) return -2;
    int result = -1;
    if (PyLong_CheckExact(value)) {
        long v = PyLong_AsLong(value);
        if (v >= 0 && v < limit) result = (int)v;
    }
    Py_DECREF(value);
    return result;
}

/* Adds the tiles of one declared meld (kind "chow", "pung" or "kong" from its lowest tile) to ``used``; -1 when it
 * is none of these or holds a tile past the playing kinds, -2 on a Python error. */
static int add_meld(PyObject *meld, int *used) {
    int tile = int_attribute(meld, key_tile, NUM_KINDS);
    if (tile < 0) return tile;
    PyObject *kind = PyObject_GetAttr(meld, key_kind);
    if (kind == NULL) return -2;
    int result = 0;
    if (!PyUnicode_Check(kind)) {
        result = -1;
    } else if (PyUnicode_CompareWithASCIIString(kind, "chow") == 0) {
        if (tile + 2 >= NUM_KINDS) result = -1;
        else used[tile]++, used[tile + 1]++, used[tile + 2]++;
    } else if (PyUnicode_CompareWithASCIIString(kind, "pung") == 0) {
        used[tile] += 3;
    } else if (PyUnicode_CompareWithASCIIString(kind, "kong") == 0) {
        used[tile] += 4;
    } else {
        result = -1;
    }
    Py_DECREF(kind);
    return result;
}

/* concealed_counts(hand, flower_limit) -> list[int] | None: engine.rulesets.handcheck.concealed_counts for a set
 * of four copies of each playing kind and ``flower_limit`` flowers, when the hand passes every check. */
static PyObject *concealed_counts(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "concealed_counts(hand, flower_limit)");
        return NULL;
    }
    PyObject *hand = args[0];
    long flower_limit = PyLong_AsLong(args[1]);
    int concealed[NUM_KINDS] = {0}, used[NUM_KINDS];
    PyObject *result = Py_None;
    PyObject *flowers = PyObject_GetAttr(hand, key_flowers);
    PyObject *win_tile = PyObject_GetAttr(hand, key_win_tile);
    PyObject *standing = PyObject_GetAttr(hand, key_standing);
    PyObject *melds = PyObject_GetAttr(hand, key_melds);
    if (flowers == NULL || win_tile == NULL || standing == NULL || melds == NULL) {
        result = NULL;
        goto done;
    }
    long flower_count = flowers == Py_None ? 0 : PyLong_CheckExact(flowers) ? PyLong_AsLong(flowers) : -1;
    if (flower_count < 0 || flower_count > flower_limit || !PyLong_CheckExact(win_tile) || !PyTuple_CheckExact(standing) ||
        !PyTuple_CheckExact(melds) || PyTuple_GET_SIZE(standing) + 3 * PyTuple_GET_SIZE(melds) != HAND_SIZE)
        goto done;
    Py_ssize_t standing_count = PyTuple_GET_SIZE(standing);
    for (Py_ssize_t i = 0; i <= standing_count; i++) {
        PyObject *item = i < standing_count ? PyTuple_GET_ITEM(standing, i) : win_tile;
        long tile = PyLong_CheckExact(item) ? PyLong_AsLong(item) : -1;
        if (tile < 0 || tile >= NUM_KINDS) goto done;
        concealed[tile]++;
    }
    memcpy(used, concealed, sizeof used);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(melds); i++) {
        int added = add_meld(PyTuple_GET_ITEM(melds, i), used);
        if (added == -2) {
            result = NULL;
            goto done;
        }
        if (added < 0) goto done;
    }
    for (int k = 0; k < NUM_KINDS; k++) {
        if (used[k] > 4) goto done;
    }
    result = PyList_New(NUM_KINDS);
    if (result != NULL) {
        for (int k = 0; k < NUM_KINDS; k++) {
            Py_INCREF(small_ints[concealed[k]]);
            PyList_SET_ITEM(result, k, small_ints[concealed[k]]);
        }
        goto done_owned;
    }
done:
    Py_XINCREF(result);
done_owned:
    Py_XDECREF(flowers);
    Py_XDECREF(win_tile);
    Py_XDECREF(standing);
    Py_XDECREF(melds);
    return result;
}

/* Shape switches of engine.analysis.ShapeRules, packed by ShapeRules.native_code. */
enum {
    STANDARD = 1 << 0,
    SEVEN_PAIRS = 1 << 1,
    QUADS = 1 << 2,
    ORPHANS = 1 << 3,
    HONORS_KNITTED = 1 << 4,
    KNITTED_STRAIGHT = 1 << 5,
    ANY_PAIR = 1 << 6,
    PAIR_RANKS = 7, /* bit 7 + r: a suited pair of rank index r is allowed */
};

/* Whether ``c`` (``size`` kinds, chows allowed or not) splits into sets alone. */
static int sets_only(int *c, int size, int chows) {
    int i = 0;
    while (i < size && c[i] == 0) i++;
    if (i == size) return 1;
    int found = 0;
    if (c[i] >= 3) {
        c[i] -= 3;
        found = sets_only(c, size, chows);
        c[i] += 3;
    }
    if (!found && chows && i + 2 < size && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        found = sets_only(c, size, chows);
        c[i]++, c[i + 1]++, c[i + 2]++;
    }
    return found;
}

/* One group's completion: -1 none, 0 sets alone, else a mask of the pair rank indexes that leave sets (bit r). */
static int group_pairs(int *c, int size, int chows) {
    int total = 0;
    for (int i = 0; i < size; i++) total += c[i];
    if (total % 3 == 0) return sets_only(c, size, chows) ? 0 : -1;
    if (total % 3 == 1) return -1;
    int pairs = 0;
    for (int r = 0; r < size; r++) {
        if (c[r] >= 2) {
            c[r] -= 2;
            if (sets_only(c, size, chows)) pairs |= 1 << r;
            c[r] += 2;
        }
    }
    return pairs ? pairs : -1;
}

/* engine.analysis.standard.is_standard: sets and exactly one allowed pair. */
static int standard(int *c, int rules) {
    int with_pair = 0, suit_pairs = 0;
    for (int g = 0; g < 4; g++) {
        int found = group_pairs(c + 9 * g, g < 3 ? 9 : 7, g < 3);
        if (found < 0) return 0;
        if (found > 0) {
            with_pair++;
            if (g < 3) suit_pairs |= found;
        }
    }
    if (with_pair != 1) return 0;
    return (rules & ANY_PAIR) || (suit_pairs & (rules >> PAIR_RANKS));
}

static const int orphans[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
static const int knitted_starts[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* Whether pattern ``k`` (knitted_starts) is held whole; if so its nine tiles are taken out of ``c``. */
static int take_knitted(int *c, int k) {
    for (int suit = 0; suit < 3; suit++) {
        for (int rank = knitted_starts[k][suit]; rank < 9; rank += 3) {
            if (!c[9 * suit + rank]) return 0;
        }
    }
    for (int suit = 0; suit < 3; suit++) {
        for (int rank = knitted_starts[k][suit]; rank < 9; rank += 3) c[9 * suit + rank]--;
    }
    return 1;
}

/* engine.analysis.special.special_win. */
static int special(int *c, int size, int rules) {
    if (size != 14 && size != 11) return 0;
    int kinds = 0, honor_kinds = 0, ones = 0, honors = 0;
    for (int k = 0; k < NUM_KINDS; k++) {
        kinds += c[k] > 0;
        ones += c[k] == 1;
    }
    for (int k = 27; k < NUM_KINDS; k++) honor_kinds += c[k] > 0, honors += c[k];
    if (size == 14 && kinds <= 7) {
        if (!(rules & SEVEN_PAIRS)) return 0;
        int pairs = 0;
        for (int k = 0; k < NUM_KINDS; k++) {
            if (c[k] & 1 || (c[k] > 2 && !(rules & QUADS))) return 0;
            pairs += c[k] >> 1;
        }
        return pairs == 7;
    }
    if (size == 14 && kinds >= 13 && honor_kinds >= 5) {
        if ((rules & ORPHANS) && honor_kinds == 7) {
            int held = 0, doubled = 1;
            for (int i = 0; i < 13; i++) {
                int n = c[orphans[i]];
                if (n == 0 || n > 2) doubled = 0;
                held += n;
            }
            if (doubled && held == 14) return 1;
        }
        if ((rules & HONORS_KNITTED) && ones == 14) {
            for (int k = 0; k < 6; k++) {
                int in_pattern = 0;
                for (int suit = 0; suit < 3; suit++) {
                    for (int rank = knitted_starts[k][suit]; rank < 9; rank += 3) in_pattern += c[9 * suit + rank];
                }
                if (in_pattern + honors == 14) return 1;
            }
        }
    }
    if ((rules & KNITTED_STRAIGHT) && kinds - honor_kinds >= 9) {
        for (int k = 0; k < 6; k++) {
            int rest[NUM_KINDS];
            memcpy(rest, c, sizeof rest);
            if (take_knitted(rest, k) && standard(rest, rules)) return 1;
        }
    }
    return 0;
}

/* Reads ``args`` (counts, rules): 34 counts of at most ``most`` copies into ``c`` and the rules into ``*rules``; the
 * number of tiles, -1 for counts of any other kind, -2 on a Python error. */
static int read_counts(PyObject *const *args, Py_ssize_t nargs, int most, int *c, int *rules) {
    if (nargs != 2 || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "expected (counts, rules)");
        return -2;
    }
    PyObject *counts = args[0];
    if (!(PyList_CheckExact(counts) || PyTuple_CheckExact(counts)) || PySequence_Fast_GET_SIZE(counts) != NUM_KINDS)
        return -1;
    *rules = (int)PyLong_AsLong(args[1]);
    PyObject **items = PySequence_Fast_ITEMS(counts);
    int size = 0;
    for (int k = 0; k < NUM_KINDS; k++) {
        long n = PyLong_CheckExact(items[k]) ? PyLong_AsLong(items[k]) : -1;
        if (n < 0 || n > most) return -1;
        c[k] = (int)n;
        size += c[k];
    }
    return size;
}

/* is_win(counts, rules) -> bool | None: engine.analysis.fast.is_win for 34 counts of at most 14 tiles (``rules``:
 * ShapeRules.native_code); None for anything else. */
static PyObject *is_win(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    int c[NUM_KINDS], rules, size = read_counts(args, nargs, 14, c, &rules);
    if (size == -2) return NULL;
    if (size < 0) Py_RETURN_NONE;
    if (size > 14) Py_RETURN_NONE;
    if (size % 3 != 2) Py_RETURN_FALSE;
    if ((rules & STANDARD) && standard(c, rules)) Py_RETURN_TRUE;
    return PyBool_FromLong(special(c, size, rules));
}

/* Shanten (engine.analysis.shanten): the fewest tiles a hand lacks to be complete, minus one. A target is a complete
 * hand with at most ``caps`` copies of each tile; its cost is the number of its tiles the hand does not hold. */
#define INF 99

/* The cheapest cost of one group (``size`` ranks) completed into k sets and p pairs, at out[2k + p], with blocks
 * placed on held tiles only (shanten.py's _choices: a block covering nothing is a free block, added by ``finish``):
 * a rank-by-rank programme over (chows started one and two ranks back, sets, pair). */
static void compute_group(const int *held, const int *caps, const int *pairs, int size, int chows, int *out) {
    /* costs[c1][c2][2k + p]: chows started one and two ranks back (c1 + c2 <= 4), k sets and p pairs so far */
    int costs[2][5][5][10];
    int now = 0, reach1 = 0, reach2 = 0; /* the most chows started one and two ranks back */
    for (int i = 0; i < 10; i++) costs[0][0][0][i] = INF;
    costs[0][0][0][0] = 0;
    /* ranks two or more before the first held one or after the last leave the costs as they are: nothing is placed */
    int first = 0, last = size - 1;
    while (first < size && held[first] == 0) first++;
    while (last >= first && held[last] == 0) last--;
    int from_rank = first > 2 ? first - 2 : 0, to_rank = last + 3 < size ? last + 3 : size;
    for (int r = from_rank; r < to_rank; r++) {
        int next = 1 - now, h = held[r];
        int chow_limit = 0;
        if (chows && r + 2 < size) {
            chow_limit = h > held[r + 1] ? h : held[r + 1];
            if (held[r + 2] > chow_limit) chow_limit = held[r + 2];
        }
        if (chow_limit > 4) chow_limit = 4;
        for (int n = 0; n <= chow_limit; n++)
            for (int c1 = 0; c1 <= reach1 && n + c1 <= 4; c1++)
                for (int i = 0; i < 10; i++) costs[next][n][c1][i] = INF;
        int pungs = h ? 1 : 0, pair_room = pairs[r] && h;
        for (int c1 = 0; c1 <= reach1; c1++)
            for (int c2 = 0; c2 <= reach2 && c1 + c2 <= 4; c2++) {
                const int *from = costs[now][c1][c2];
                for (int n = 0; n <= chow_limit && n + c1 <= 4; n++)
                    for (int pung = 0; pung <= pungs; pung++)
                        for (int pair = 0; pair <= pair_room; pair++) {
                            int used = c1 + c2 + n + 3 * pung + 2 * pair, sets = n + pung;
                            if (used > caps[r] || sets > 4) continue;
                            int extra = used > h ? used - h : 0, *to = costs[next][n][c1];
                            for (int k = 0; k + sets <= 4; k++)
                                for (int p = 0; p + pair <= 1; p++) {
                                    if (from[2 * k + p] >= INF) continue;
                                    int cost = from[2 * k + p] + extra, *slot = &to[2 * (k + sets) + p + pair];
                                    if (cost < *slot) *slot = cost;
                                }
                        }
            }
        reach2 = reach1, reach1 = chow_limit, now = next;
    }
    memcpy(out, costs[now][0][0], sizeof costs[now][0][0]);
}

/* Group costs met before, direct-mapped by (counts, caps, pair flags): a batch meets the same suits again and again. */
#define GROUP_BITS 16
#define GROUP_SLOTS (1 << GROUP_BITS)
static struct {
    uint64_t tag;
    signed char costs[10];
} group_cache[GROUP_SLOTS];

/* ``compute_group`` through the cache; ``variant`` names the caps (0: four of each, 1-3: a knitted series taken).
 * A group read backwards has the same costs where its caps and pairs read the same backwards (chows are symmetric):
 * the lesser of the two readings is looked up, which nearly halves the groups a batch meets for the first time. */
static void group_costs(const int *held, const int *caps, int variant, const int *pairs, int size, int chows, int *out) {
    int mirrored[9], backwards = 0, symmetric = variant == 0;
    for (int r = 0; r < size; r++) {
        mirrored[r] = held[size - 1 - r];
        symmetric &= pairs[r] == pairs[size - 1 - r];
        if (backwards == 0 && mirrored[r] != held[r]) backwards = mirrored[r] < held[r] ? 1 : -1;
    }
    if (symmetric && backwards > 0) held = mirrored;
    uint64_t tag = 0;
    for (int r = 0; r < size; r++) tag = tag * 5 + (uint64_t)held[r];
    for (int r = 0; r < size; r++) tag = tag * 2 + (uint64_t)pairs[r];
    tag = ((tag * 4 + (uint64_t)variant) * 2 + (uint64_t)chows) * 16 + (uint64_t)size + 1; /* never 0: empty slot */
    uint64_t mixed = tag * 0x9E3779B97F4A7C15ull;
    size_t slot = (size_t)(mixed >> (64 - GROUP_BITS));
    if (group_cache[slot].tag == tag) {
        for (int i = 0; i < 10; i++) out[i] = group_cache[slot].costs[i];
        return;
    }
    compute_group(held, caps, pairs, size, chows, out);
    group_cache[slot].tag = tag;
    for (int i = 0; i < 10; i++) group_cache[slot].costs[i] = (signed char)out[i];
}

/* shanten.py's _fold: the cheapest costs of two groups together, up to 4 sets and one pair. */
static void fold(const int *a, const int *b, int *out) {
    for (int i = 0; i < 10; i++) out[i] = INF;
    for (int i = 0; i < 5; i++)
        for (int j = 0; i + j < 5; j++) {
            int k = 2 * (i + j), alone = a[2 * i] + b[2 * j];
            int paired = a[2 * i] + b[2 * j + 1] < a[2 * i + 1] + b[2 * j] ? a[2 * i] + b[2 * j + 1] : a[2 * i + 1] + b[2 * j];
            if (alone < out[k]) out[k] = alone;
            if (paired < out[k + 1]) out[k + 1] = paired;
        }
}

/* shanten.py's _with_free_blocks: exactly ``sets`` sets and a pair from the groups' costs ``costs[4]``, filled up
 * with free sets (3 tiles) and a free pair (``free_pair``). */
static int finish(int costs[4][10], int sets, int free_pair) {
    int ab[10], abc[10], total[10], best = INF;
    fold(costs[0], costs[1], ab);
    fold(ab, costs[2], abc);
    fold(abc, costs[3], total);
    for (int m = 0; m <= sets; m++) {
        int with_pair = total[2 * m + 1] < total[2 * m] + free_pair ? total[2 * m + 1] : total[2 * m] + free_pair;
        if (with_pair + 3 * (sets - m) < best) best = with_pair + 3 * (sets - m);
    }
    return best;
}

static const int four_caps[9] = {4, 4, 4, 4, 4, 4, 4, 4, 4};

/* The fewest tiles 34 counts of at most four copies (``size`` of them, 14-3k or 13-3k) lack to complete a shape
 * ``rules`` allows (shanten + 1), or INF when none fits. */
static int shanten_best(const int *c, int size, int rules) {
    int melds = (14 - size) / 3;
    int pairs[4][9] = {{0}};
    for (int g = 0; g < 4; g++) {
        for (int r = 0; r < (g < 3 ? 9 : 7); r++) {
            pairs[g][r] = (rules & ANY_PAIR) || (g < 3 && (rules >> (PAIR_RANKS + r)) & 1);
        }
    }
    int costs[4][10], best = INF;
    int free_pair = INF;
    for (int g = 0; g < 4; g++) {
        group_costs(c + 9 * g, four_caps, 0, pairs[g], g < 3 ? 9 : 7, g < 3, costs[g]);
        for (int r = 0; r < 9; r++) free_pair = pairs[g][r] ? 2 : free_pair;
    }
    if (rules & STANDARD) best = finish(costs, 4 - melds, free_pair);
    if (melds == 0) {
        int ones = 0, twos = 0, threes = 0, fours = 0, orphans_lacking = 0, orphan_pair = 0, honors_lacking = 0;
        for (int k = 0; k < NUM_KINDS; k++) {
            ones += c[k] == 1, twos += c[k] == 2, threes += c[k] == 3, fours += c[k] == 4;
        }
        for (int i = 0; i < 13; i++) orphans_lacking += c[orphans[i]] == 0, orphan_pair |= c[orphans[i]] >= 2;
        for (int k = 27; k < NUM_KINDS; k++) honors_lacking += c[k] == 0;
        if (rules & SEVEN_PAIRS) {
            int quads = rules & QUADS;
            int held = quads ? twos + threes + 2 * fours : twos + threes + fours, singles = quads ? ones + threes : ones;
            int short_ = held < 7 ? 7 - held : 0;
            int cost = short_ + (short_ > singles ? short_ - singles : 0);
            if (cost < best) best = cost;
        }
        if ((rules & ORPHANS) && 1 + orphans_lacking - orphan_pair < best) best = 1 + orphans_lacking - orphan_pair;
        if (rules & HONORS_KNITTED) {
            int missing = INF;
            for (int k = 0; k < 6; k++) {
                int lacking = 0;
                for (int suit = 0; suit < 3; suit++)
                    for (int rank = knitted_starts[k][suit]; rank < 9; rank += 3) lacking += c[9 * suit + rank] == 0;
                if (lacking < missing) missing = lacking;
            }
            int held = 7 - honors_lacking + 9 - missing;
            int cost = 14 - (held < 14 ? held : 14);
            if (cost < best) best = cost;
        }
    }
    if ((rules & KNITTED_STRAIGHT) && melds <= 1) {
        for (int k = 0; k < 6; k++) {
            /* the series tiles lacking bound the pattern's cost from below: most patterns end here, unsplit */
            int lacking = 0;
            for (int suit = 0; suit < 3; suit++)
                for (int rank = knitted_starts[k][suit]; rank < 9; rank += 3) lacking += c[9 * suit + rank] == 0;
            if (lacking >= best) continue;
            int rest[4][10];
            for (int suit = 0; suit < 3; suit++) {
                int key[9], caps[9];
                for (int rank = 0; rank < 9; rank++) {
                    int series = (rank - knitted_starts[k][suit]) % 3 == 0;
                    key[rank] = c[9 * suit + rank] - (series && c[9 * suit + rank] > 0);
                    caps[rank] = series ? 3 : 4;
                }
                group_costs(key, caps, 1 + knitted_starts[k][suit], pairs[suit], 9, 1, rest[suit]);
            }
            memcpy(rest[3], costs[3], sizeof rest[3]);
            int cost = lacking + finish(rest, 1 - melds, free_pair);
            if (cost < best) best = cost;
        }
    }
    return best;
}

/* shanten(counts, rules) -> int | None: engine.analysis.shanten.shanten for 34 counts of at most four copies and
 * 14-3k or 13-3k tiles that some allowed shape fits; None for anything else (the pure path raises). */
static PyObject *shanten(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    int c[NUM_KINDS], rules, size = read_counts(args, nargs, 4, c, &rules);
    if (size == -2) return NULL;
    if (size < 0) Py_RETURN_NONE;
    if (size % 3 == 0 || size < 1 || size > 14) Py_RETURN_NONE;
    int best = shanten_best(c, size, rules);
    if (best >= INF) Py_RETURN_NONE;
    return PyLong_FromLong(best - 1);
}

/* The tiles held at most three times that complete 34 counts of at most four copies and ``size`` = 13-3k tiles, into
 * ``found`` (ascending); their number. The suits the added tile leaves alone are split once; the special shapes are
 * tried only where the kinds held allow one. */
static int wait_tiles(int *c, int size, int rules, int *found) {
    int base[4], kinds = 0, suited_kinds = 0, count = 0;
    for (int g = 0; g < 4; g++) base[g] = group_pairs(c + 9 * g, g < 3 ? 9 : 7, g < 3);
    for (int k = 0; k < NUM_KINDS; k++) kinds += c[k] > 0, suited_kinds += k < 27 && c[k] > 0;
    int specials = (size == 13 && (kinds <= 7 || kinds >= 12)) ||
                   ((rules & KNITTED_STRAIGHT) && (size == 13 || size == 10) && suited_kinds >= 8);
    for (int t = 0; t < NUM_KINDS; t++) {
        if (c[t] > 3) continue;
        int g = t / 9 < 3 ? t / 9 : 3, won = 0;
        c[t]++;
        if (rules & STANDARD) {
            int with_pair = 0, suit_pairs = 0, complete = 1;
            for (int h = 0; h < 4 && complete; h++) {
                int pairs = h == g ? group_pairs(c + 9 * h, h < 3 ? 9 : 7, h < 3) : base[h];
                if (pairs < 0) complete = 0;
                else if (pairs > 0) with_pair++, suit_pairs |= h < 3 ? pairs : 0;
            }
            won = complete && with_pair == 1 && ((rules & ANY_PAIR) || (suit_pairs & (rules >> PAIR_RANKS)));
        }
        if (!won && specials) won = special(c, size + 1, rules);
        c[t]--;
        if (won) found[count++] = t;
    }
    return count;
}

/* waits(counts, rules) -> list[int] | None: engine.analysis.fast.waits for 34 counts of at most four copies and
 * 13-3k tiles; None for anything else. */
static PyObject *waits(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    int c[NUM_KINDS], rules, size = read_counts(args, nargs, 4, c, &rules);
    if (size == -2) return NULL;
    if (size < 0 || size % 3 != 1 || size > 13) Py_RETURN_NONE;
    int found[NUM_KINDS], count = wait_tiles(c, size, rules, found);
    PyObject *list = PyList_New(count);
    if (list == NULL) return NULL;
    for (int i = 0; i < count; i++) {
        Py_INCREF(small_ints[found[i]]);
        PyList_SET_ITEM(list, i, small_ints[found[i]]);
    }
    return list;
}

/* ``mjtable waits``'s answer to one line (controller/cli.py's waits_line and _dump, Ruleset.waits_of over four copies
 * of each playing kind) written into ``answer``: its length, 0 when the pure path must answer, -1 on a Python error.
 * A hand that is not ready (shanten above 0) has no wait, so the waits are searched for ready hands alone. */
static Py_ssize_t waits_answer(PyObject *line, int rules, PyObject *meld_cache, PyObject *situation_cache, char *answer) {
    if (!PyUnicode_Check(line) || !PyUnicode_IS_ASCII(line)) return 0;
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(line);
    Py_ssize_t n = PyUnicode_GET_LENGTH(line);
    while (n > 0 && s[n - 1] == '\r') n--; /* the batch's line.rstrip("\r") */
    Parsed parsed;
    int read = read_hand(s, n, meld_cache, situation_cache, &parsed);
    if (read <= 0) return read;
    if (parsed.count != HAND_SIZE - 3 * parsed.meld_count) return 0;
    int c[NUM_KINDS] = {0}, used[NUM_KINDS];
    for (Py_ssize_t i = 0; i < parsed.count; i++) c[parsed.tiles[i]]++;
    memcpy(used, c, sizeof used);
    for (int i = 0; i < parsed.meld_count; i++) {
        int added = add_meld(parsed.melds[i], used);
        if (added < 0) return added == -2 ? -1 : 0;
    }
    for (int k = 0; k < NUM_KINDS; k++) {
        if (used[k] > 4) return 0;
    }
    int best = shanten_best(c, (int)parsed.count, rules);
    if (best >= INF) return 0;
    int found[NUM_KINDS], count = best == 1 ? wait_tiles(c, (int)parsed.count, rules, found) : 0;
    static const char head[] = "{\"waits\": [", tail[] = "], \"shanten\": ";
    char *at = answer + sizeof head - 1;
    memcpy(answer, head, sizeof head - 1);
    for (int i = 0, listed = 0; i < count; i++) {
        int t = found[i];
        if (used[t] >= 4) continue; /* every copy is in this hand: the wait cannot come */
        if (listed++) *at++ = ',', *at++ = ' ';
        *at++ = '"', *at++ = (char)('1' + t % 9), *at++ = "mpsz"[t / 9], *at++ = '"';
    }
    memcpy(at, tail, sizeof tail - 1);
    at += sizeof tail - 1;
    int steps = best - 1; /* 0 to 13: 13 - 3k tiles are never complete */
    if (steps >= 10) *at++ = (char)('0' + steps / 10);
    *at++ = (char)('0' + steps % 10), *at++ = '}';
    return at - answer;
}

/* waits_answers(lines, rules, melds, situations) -> list[str | None]: ``mjtable waits``'s answer to each line of a
 * batch under ShapeRules.native_code ``rules``, None where the pure path must answer (any error, anything unusual);
 * ``melds``, ``situations``: the pure parser's caches, as for parse_hand. */
static PyObject *waits_answers(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyList_Check(args[0]) || !PyLong_Check(args[1]) || !PyDict_Check(args[2]) ||
        !PyDict_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "waits_answers(lines, rules, melds, situations)");
        return NULL;
    }
    int rules = (int)PyLong_AsLong(args[1]);
    Py_ssize_t size = PyList_GET_SIZE(args[0]);
    PyObject *answers = PyList_New(size);
    if (answers == NULL) return NULL;
    char answer[40 + 6 * NUM_KINDS];
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_ssize_t length = waits_answer(PyList_GET_ITEM(args[0], i), rules, args[2], args[3], answer);
        PyObject *text = length > 0 ? PyUnicode_FromStringAndSize(answer, length) : length == 0 ? Py_NewRef(Py_None) : NULL;
        if (text == NULL) {
            Py_DECREF(answers);
            return NULL;
        }
        PyList_SET_ITEM(answers, i, text);
    }
    return answers;
}

static PyMethodDef methods[] = {
    {"parse_hand", (PyCFunction)(void (*)(void))parse_hand, METH_FASTCALL, "MCR notation's common valid hand, or None."},
    {"concealed_counts", (PyCFunction)(void (*)(void))concealed_counts, METH_FASTCALL,
     "The concealed count vector of a hand that passes every check, or None."},
    {"is_win", (PyCFunction)(void (*)(void))is_win, METH_FASTCALL, "Whether 34 counts are a winning shape, or None."},
    {"shanten", (PyCFunction)(void (*)(void))shanten, METH_FASTCALL, "Shanten of 34 counts, or None."},
    {"waits", (PyCFunction)(void (*)(void))waits, METH_FASTCALL, "The waits of 34 counts, or None."},
    {"waits_answers", (PyCFunction)(void (*)(void))waits_answers, METH_FASTCALL,
     "mjtable waits's answer text to each line, or None where the pure path must answer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "engine._native", NULL, -1, methods};

PyMODINIT_FUNC PyInit__native(void) {
    empty_tuple = PyTuple_New(0);
    key_melds = PyUnicode_InternFromString("melds");
    key_standing = PyUnicode_InternFromString("standing");
    key_win_tile = PyUnicode_InternFromString("win_tile");
    key_situation = PyUnicode_InternFromString("situation");
    key_flowers = PyUnicode_InternFromString("flowers");
    key_kind = PyUnicode_InternFromString("kind");
    key_tile = PyUnicode_InternFromString("tile");
    if (empty_tuple == NULL || key_melds == NULL || key_standing == NULL || key_win_tile == NULL ||
        key_situation == NULL || key_flowers == NULL || key_kind == NULL || key_tile == NULL)
        return NULL;
    for (int i = 0; i < NUM_KINDS + 9; i++) {
        small_ints[i] = PyLong_FromLong(i);
        if (small_ints[i] == NULL) return NULL;
    }
    PyObject *module = PyModule_Create(&module_def);
    if (module != NULL && PyModule_AddStringConstant(module, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
