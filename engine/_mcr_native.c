/* The compiled MCR fan engine (issue 30): the fans of every winning form (4 sets + pair, concealed or with melds;
 * seven pairs, thirteen orphans, honors and knitted tiles, a knitted straight with a set, nine gates), the same fan
 * counts as the pure scorer's ``hand_fans`` (engine/rulesets/mcr/scorer.py and the modules it reads), rule for rule.
 * It answers None for what it cannot read (a hand with more readings than it keeps, a tile out of range, another
 * container), and the pure path answers those. Fans are counted in an array by fan id; the answer is (fan, count)
 * pairs in fan order, () for a hand with no reading. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "_notation.h"

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

enum {
    BIG_FOUR_WINDS = 1, BIG_THREE_DRAGONS = 2, ALL_GREEN = 3, NINE_GATES = 4, FOUR_KONGS = 5, SEVEN_SHIFTED_PAIRS = 6,
    THIRTEEN_ORPHANS = 7, ALL_TERMINALS = 8,
    LITTLE_FOUR_WINDS = 9, LITTLE_THREE_DRAGONS = 10, ALL_HONORS = 11, FOUR_CONCEALED_PUNGS = 12,
    PURE_TERMINAL_CHOWS = 13, QUADRUPLE_CHOW = 14, FOUR_PURE_SHIFTED_PUNGS = 15, FOUR_PURE_SHIFTED_CHOWS = 16,
    THREE_KONGS = 17, ALL_TERMINALS_AND_HONORS = 18, SEVEN_PAIRS = 19,
    GREATER_HONORS_AND_KNITTED_TILES = 20, ALL_EVEN_PUNGS = 21, FULL_FLUSH = 22, PURE_TRIPLE_CHOW = 23,
    PURE_SHIFTED_PUNGS = 24, UPPER_TILES = 25, MIDDLE_TILES = 26, LOWER_TILES = 27, PURE_STRAIGHT = 28,
    THREE_SUITED_TERMINAL_CHOWS = 29, PURE_SHIFTED_CHOWS = 30, ALL_FIVE = 31, TRIPLE_PUNG = 32,
    THREE_CONCEALED_PUNGS = 33, LESSER_HONORS_AND_KNITTED_TILES = 34, KNITTED_STRAIGHT = 35, UPPER_FOUR = 36,
    LOWER_FOUR = 37, BIG_THREE_WINDS = 38, MIXED_STRAIGHT = 39,
    REVERSIBLE_TILES = 40, MIXED_TRIPLE_CHOW = 41, MIXED_SHIFTED_PUNGS = 42, CHICKEN_HAND = 43, LAST_TILE_DRAW = 44,
    LAST_TILE_CLAIM = 45, OUT_WITH_REPLACEMENT_TILE = 46, ROBBING_THE_KONG = 47, ALL_PUNGS = 48, HALF_FLUSH = 49,
    MIXED_SHIFTED_CHOWS = 50, ALL_TYPES = 51, MELDED_HAND = 52, TWO_CONCEALED_KONGS = 53, TWO_DRAGONS_PUNGS = 54,
    OUTSIDE_HAND = 55, FULLY_CONCEALED_HAND = 56, TWO_MELDED_KONGS = 57, LAST_TILE = 58, DRAGON_PUNG = 59,
    PREVALENT_WIND = 60, SEAT_WIND = 61, CONCEALED_HAND = 62, ALL_CHOWS = 63, TILE_HOG = 64, DOUBLE_PUNG = 65,
    TWO_CONCEALED_PUNGS = 66, CONCEALED_KONG = 67, ALL_SIMPLES = 68, PURE_DOUBLE_CHOW = 69, MIXED_DOUBLE_CHOW = 70,
    SHORT_STRAIGHT = 71, TWO_TERMINAL_CHOWS = 72, PUNG_OF_TERMINALS_OR_HONORS = 73, MELDED_KONG = 74,
    ONE_VOIDED_SUIT = 75, NO_HONORS = 76, EDGE_WAIT = 77, CLOSED_WAIT = 78, SINGLE_WAIT = 79, SELF_DRAWN = 80,
    FLOWER_TILES = 81, CONCEALED_KONG_AND_MELDED_KONG = 82, NFANS = 86, BASE = 8 /* 底分 (ruleset.BASE) */
};

static const int POINTS[NFANS] = {
    0,  88, 88, 88, 88, 88, 88, 88, 64, 64, 64, 64, 64, 64, 48, 48, 32, 32, 32, 24, 24, 24, 24, 24, 24, 24, 24, 24, 16,
    16, 16, 16, 16, 16, 12, 12, 12, 12, 12, 8,  8,  8,  8,  8,  8,  8,  8,  8,  6,  6,  6,  6,  6,  6,  6,  4,  4,  4,
    4,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  5,  8,  8,  8};

/* Tile codes (suit * 16 + rank, 万 条 饼 字; honors E S W N C F P = 0x41-0x47) by engine.tiles id. */
static const int CODE_OF[34] = {0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x31, 0x32, 0x33,
                                0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26,
                                0x27, 0x28, 0x29, 0x41, 0x42, 0x43, 0x44, 0x47, 0x46, 0x45};
enum { NCODES = 0x48, EAST = 0x41, NORTH = 0x44, RED = 0x45, GREEN = 0x46, WHITE = 0x47, MAX_READINGS = 64 };
enum { CHOW_PACK = 1, PUNG_PACK = 2, KONG_PACK = 3 }; /* a meld's kind, as scorer._packs gives it */

#define IS_WIND(c) ((c) >= EAST && (c) <= NORTH)
#define IS_DRAGON(c) ((c) >= RED)
#define IS_TERMINAL(c) ((c) < 0x40 && ((c) & 15) % 8 == 1)

typedef struct {
    int nchows, npungs, pair;
    int chows[4], pungs[4]; /* chow middles, pung tiles: concealed ones, in the order found */
    int key[4];             /* search order of the sets: 2 * first code + (chow) */
} Reading;

typedef struct {
    int cnt[NCODES];   /* concealed tiles by code, winning tile included */
    int held[NCODES];  /* every tile, melds included */
    int win;           /* winning tile code */
    int self_drawn, exhausted_waits;
    int fixed_chows[4], nfixed_chows, fixed_pungs[4], nfixed_pungs;
    int melded_kongs, concealed_kongs, fours;
    int prevalent, seat;
    int common[NFANS];
    int unique; /* -1 unknown */
    Reading readings[MAX_READINGS];
    int nreadings, overflow;
} Summary;

/* ---- tile fans: from the kinds held (traits.tile_fans) ---- */

static int is_reversible(int c) {
    switch (c) {
    case 0x31: case 0x32: case 0x33: case 0x34: case 0x35: case 0x38: case 0x39:
    case 0x22: case 0x24: case 0x25: case 0x26: case 0x28: case 0x29: case WHITE: return 1;
    default: return 0;
    }
}

static int is_green(int c) {
    return c == 0x22 || c == 0x23 || c == 0x24 || c == 0x26 || c == 0x28 || c == GREEN;
}

static void tile_fans(const int *held, int *fans) {
    int suits[4] = {0, 0, 0, 0}, winds = 0, dragons = 0, orphans = 0, reversible = 1, green = 1, terminals_only = 1;
    int ranks = 0;
    for (int c = 0x11; c < NCODES; c++) {
        if (!held[c])
            continue;
        int honor = c > 0x40;
        if (honor) {
            winds |= IS_WIND(c);
            dragons |= IS_DRAGON(c);
            terminals_only = 0;
        } else {
            suits[c >> 4] = 1;
            ranks |= 1 << (c & 15);
            if (!IS_TERMINAL(c))
                terminals_only = 0;
        }
        orphans |= honor || IS_TERMINAL(c);
        reversible &= is_reversible(c);
        green &= is_green(c);
    }
    int numbered = suits[1] + suits[2] + suits[3], honors = winds || dragons;
    if (numbered == 1) {
        fans[honors ? HALF_FLUSH : FULL_FLUSH] = 1;
    } else {
        if (!honors)
            fans[NO_HONORS] = 1;
        if (numbered == 2)
            fans[ONE_VOIDED_SUIT] = 1;
        else if (numbered == 3 && winds && dragons)
            fans[ALL_TYPES] = 1;
    }
    if (!orphans)
        fans[ALL_SIMPLES] = 1;
    if (reversible)
        fans[REVERSIBLE_TILES] = 1;
    if (green)
        fans[ALL_GREEN] = 1;
    if (orphans) {
        if (!numbered)
            fans[ALL_HONORS] = 1;
        else if (terminals_only)
            fans[ALL_TERMINALS] = 1;
        else if (!(ranks & 0x1FC))
            fans[ALL_TERMINALS_AND_HONORS] = 1; /* every numbered tile a terminal, honors present */
    }
    if (!honors) {
        const int low = 0x1E, low3 = 0xE, high = 0x3C0, high3 = 0x380, middle = 0x70;
        if (!(ranks & ~low))
            fans[(ranks & ~low3) ? LOWER_FOUR : LOWER_TILES] = 1;
        else if (!(ranks & ~high))
            fans[(ranks & ~high3) ? UPPER_FOUR : UPPER_TILES] = 1;
        else if (!(ranks & ~middle))
            fans[MIDDLE_TILES] = 1;
    }
}

/* ---- situation (situation.corrected_flags + flag_fans) and concealment ---- */

static void situation_fans(int self_drawn, int last_tile, int wall_last, int kong, int in_standing, int in_melds,
                           int has_kong, int infer_last_tile, int *fans) {
    last_tile = last_tile && in_standing == 1;
    if (infer_last_tile && in_melds == 3)
        last_tile = 1;
    if (kong && self_drawn)
        kong = has_kong;
    else if (kong)
        kong = in_melds == 0 && in_standing == 1;
    int any = 0;
    if (self_drawn) {
        if (wall_last)
            fans[LAST_TILE_DRAW] = any = 1;
        if (kong)
            fans[OUT_WITH_REPLACEMENT_TILE] = any = 1;
        if (!any)
            fans[SELF_DRAWN] = 1;
    } else {
        if (wall_last)
            fans[LAST_TILE_CLAIM] = 1;
        if (kong)
            fans[ROBBING_THE_KONG] = 1;
    }
    if (last_tile && !(kong && !self_drawn))
        fans[LAST_TILE] = 1;
}

/* ---- readings: the concealed tiles as sets + one pair, in the reference's search order ---- */

static void search(Summary *s, int *cnt, Reading *r, int from, int last_key, int pair) {
    int c = from;
    while (c < NCODES && !cnt[c])
        c++;
    if (c == NCODES) {
        if (!pair)
            return;
        if (s->nreadings == MAX_READINGS) {
            s->overflow = 1;
            return;
        }
        Reading *out = &s->readings[s->nreadings++];
        *out = *r;
        out->pair = pair;
        return;
    }
    /* Each reading is found once: its parts are taken in nondecreasing order (pair, pung, chow at a code). */
    if (!pair && cnt[c] >= 2 && 3 * c >= last_key) {
        cnt[c] -= 2;
        search(s, cnt, r, c, 3 * c, c);
        cnt[c] += 2;
    }
    if (cnt[c] >= 3 && 3 * c + 1 >= last_key && r->npungs + r->nchows < 4) {
        cnt[c] -= 3;
        r->key[r->npungs + r->nchows] = 2 * c;
        r->pungs[r->npungs++] = c;
        search(s, cnt, r, c, 3 * c + 1, pair);
        r->npungs--;
        cnt[c] += 3;
    }
    if (c < 0x40 && (c & 15) <= 7 && cnt[c + 1] && cnt[c + 2] && 3 * c + 2 >= last_key && r->npungs + r->nchows < 4) {
        cnt[c]--, cnt[c + 1]--, cnt[c + 2]--;
        r->key[r->npungs + r->nchows] = 2 * c + 1;
        r->chows[r->nchows++] = c + 1;
        search(s, cnt, r, c, 3 * c + 2, pair);
        r->nchows--;
        cnt[c]++, cnt[c + 1]++, cnt[c + 2]++;
    }
}

static int key_cmp(const Reading *a, const Reading *b) {
    int n = a->npungs + a->nchows;
    for (int i = 0; i < n; i++)
        if (a->key[i] != b->key[i])
            return a->key[i] - b->key[i];
    return 0;
}

static void find_readings(Summary *s) {
    int cnt[NCODES];
    Reading r;
    memcpy(cnt, s->cnt, sizeof cnt);
    memset(&r, 0, sizeof r);
    s->nreadings = s->overflow = 0;
    search(s, cnt, &r, 0x11, 0, 0);
    for (int i = 0; i < s->nreadings; i++) { /* sort the set keys within each, then the readings (insertion) */
        Reading *x = &s->readings[i];
        int n = x->npungs + x->nchows;
        for (int a = 1; a < n; a++)
            for (int b = a; b > 0 && x->key[b - 1] > x->key[b]; b--) {
                int t = x->key[b];
                x->key[b] = x->key[b - 1];
                x->key[b - 1] = t;
            }
    }
    for (int i = 1; i < s->nreadings; i++)
        for (int j = i; j > 0 && key_cmp(&s->readings[j - 1], &s->readings[j]) > 0; j--) {
            Reading t = s->readings[j];
            s->readings[j] = s->readings[j - 1];
            s->readings[j - 1] = t;
        }
}

/* ---- the unique-wait test (waiting.unique_wait): no other tile completes the concealed tiles ---- */

static int group_complete(int *cnt, int lo, int hi, int chows, int pair) {
    int c = lo;
    while (c < hi && !cnt[c])
        c++;
    if (c == hi)
        return !pair;
    int ok = 0;
    if (pair && cnt[c] >= 2) {
        cnt[c] -= 2;
        ok = group_complete(cnt, c, hi, chows, 0);
        cnt[c] += 2;
    }
    if (!ok && cnt[c] >= 3) {
        cnt[c] -= 3;
        ok = group_complete(cnt, c, hi, chows, pair);
        cnt[c] += 3;
    }
    if (!ok && chows && c + 2 < hi && cnt[c + 1] && cnt[c + 2]) {
        cnt[c]--, cnt[c + 1]--, cnt[c + 2]--;
        ok = group_complete(cnt, c, hi, chows, pair);
        cnt[c]++, cnt[c + 1]++, cnt[c + 2]++;
    }
    return ok;
}

static int complete(int *cnt) {
    int pairs = 0;
    for (int g = 1; g <= 4; g++) {
        int lo = g * 16 + 1, hi = g * 16 + (g == 4 ? 8 : 10), total = 0;
        for (int c = lo; c < hi; c++)
            total += cnt[c];
        if (total % 3 == 1)
            return 0;
        pairs += total % 3 == 2;
        if (pairs > 1 || !group_complete(cnt, lo, hi, g != 4, total % 3 == 2))
            return 0;
    }
    return pairs == 1;
}

static int seven_pairs_wait(const int *rest) {
    int pairs = 0, single = -1;
    for (int i = 0; i < 34; i++) {
        int n = rest[CODE_OF[i]];
        if (n) {
            pairs += n != 3 ? n >> 1 : 1;
            if ((n & 1) && single < 0)
                single = CODE_OF[i];
        }
    }
    return pairs == 6 ? single : -1;
}

/* Whether ``rest`` (concealed tiles without the winning tile, which ``win`` completes) waits on ``win`` alone:
 * no other tile completes it (a tile held four times is no wait unless ``exhausted``), seven pairs' wait counted. */
static int waits_alone(int *rest, int win, const int *held, int exhausted) {
    int total = 0;
    for (int c = 0; c < NCODES; c++)
        total += rest[c];
    for (int i = 0; i < 34; i++) {
        int c = CODE_OF[i], completes;
        if (c == win || (!exhausted && held[c] == 4))
            continue;
        rest[c]++;
        completes = complete(rest);
        rest[c]--;
        if (completes)
            return 0;
    }
    if (total == 13) {
        int tile = seven_pairs_wait(rest);
        if (tile >= 0 && tile != win && (exhausted || held[tile] != 4))
            return 0;
    }
    return 1;
}

static int unique_wait(Summary *s) {
    if (s->unique < 0) {
        int rest[NCODES];
        memcpy(rest, s->cnt, sizeof rest);
        rest[s->win]--;
        s->unique = waits_alone(rest, s->win, s->held, s->exhausted_waits);
    }
    return s->unique;
}

/* 边张 / 嵌张 / 单钓 of a reading whose winning tile is ``win`` (waiting.waiting_form_fan), 0 for none: the first
 * concealed chow with the tile at an end gives 边张, else a chow around it 嵌张, else the pair 单钓. */
static int waiting_form_fan(const Reading *r, int win) {
    int closed = 0;
    for (int i = 0; i < r->nchows; i++) {
        int mid = r->chows[i];
        if (mid == win)
            closed = 1;
        else if (mid + 1 == win || mid - 1 == win)
            return EDGE_WAIT;
    }
    return closed ? CLOSED_WAIT : r->pair == win ? SINGLE_WAIT : 0;
}

/* The ranks of three suited tiles in ascending order, for the fans of sets in three suits. */
static void sorted_ranks(int t0, int t1, int t2, int r[3]) {
    r[0] = t0 & 15;
    r[1] = t1 & 15;
    r[2] = t2 & 15;
    for (int a = 1; a < 3; a++)
        for (int b = a; b > 0 && r[b - 1] > r[b]; b--) {
            int t = r[b];
            r[b] = r[b - 1];
            r[b - 1] = t;
        }
}

/* ---- pungs (pungs.py) ---- */

static int three_pungs_fan(int t0, int t1, int t2) {
    if (t0 < 0x40 && t1 < 0x40 && t2 < 0x40) {
        int s0 = t0 >> 4, s1 = t1 >> 4, s2 = t2 >> 4;
        if (s0 != s1 && s0 != s2 && s1 != s2) {
            int r[3];
            sorted_ranks(t0, t1, t2, r);
            if (r[0] + 1 == r[1] && r[1] + 1 == r[2])
                return MIXED_SHIFTED_PUNGS;
            return r[0] == r[2] ? TRIPLE_PUNG : 0;
        }
        return t0 + 1 == t1 && t1 + 1 == t2 ? PURE_SHIFTED_PUNGS : 0;
    }
    if (IS_WIND(t0) && IS_WIND(t1) && IS_WIND(t2))
        return BIG_THREE_WINDS;
    return IS_DRAGON(t0) && IS_DRAGON(t1) && IS_DRAGON(t2) ? BIG_THREE_DRAGONS : 0;
}

static int two_pungs_fan(int t0, int t1) {
    if (t0 < 0x40 && t1 < 0x40)
        return (t0 & 15) == (t1 & 15) ? DOUBLE_PUNG : 0;
    return IS_DRAGON(t0) && IS_DRAGON(t1) ? TWO_DRAGONS_PUNGS : 0;
}

static void pung_fans(const int *t, int n, int *fans) {
    for (int i = 0; i < n; i++) {
        if (IS_DRAGON(t[i]))
            fans[DRAGON_PUNG]++;
        else if (IS_TERMINAL(t[i]) || IS_WIND(t[i]))
            fans[PUNG_OF_TERMINALS_OR_HONORS]++;
    }
    if (n == 4) {
        if (t[0] < 0x40 && t[0] + 1 == t[1] && t[1] + 1 == t[2] && t[2] + 1 == t[3]) {
            fans[FOUR_PURE_SHIFTED_PUNGS] = 1;
            return;
        }
        if (t[0] == EAST && t[1] == EAST + 1 && t[2] == EAST + 2 && t[3] == NORTH) {
            fans[BIG_FOUR_WINDS] = 1;
            return;
        }
        for (int free = 3; free >= 0; free--) {
            int g[3], k = 0;
            for (int i = 0; i < 4; i++)
                if (i != free)
                    g[k++] = t[i];
            int fan = three_pungs_fan(g[0], g[1], g[2]);
            if (fan) {
                fans[fan] = 1;
                for (int i = 0; i < 3; i++) {
                    int pair = two_pungs_fan(g[i], t[free]);
                    if (pair) {
                        fans[pair]++;
                        break;
                    }
                }
                return;
            }
        }
    } else if (n == 3) {
        int fan = three_pungs_fan(t[0], t[1], t[2]);
        if (fan) {
            fans[fan] = 1;
            return;
        }
    }
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            int fan = two_pungs_fan(t[a], t[b]);
            if (fan)
                fans[fan]++;
        }
}

static void kong_fans(int concealed_pungs, int melded_kongs, int concealed_kongs, int *fans) {
    int kongs = melded_kongs + concealed_kongs;
    if (kongs == 3)
        fans[THREE_KONGS] = 1;
    else if (kongs == 4)
        fans[FOUR_KONGS] = 1;
    else if (kongs) {
        static const int by[3][3] = {{0, CONCEALED_KONG, TWO_CONCEALED_KONGS},
                                     {MELDED_KONG, CONCEALED_KONG_AND_MELDED_KONG, 0},
                                     {TWO_MELDED_KONGS, 0, 0}};
        fans[by[melded_kongs][concealed_kongs]] = 1;
    }
    int hidden = concealed_pungs + concealed_kongs;
    if (hidden >= 2 && hidden <= 4)
        fans[hidden == 2 ? TWO_CONCEALED_PUNGS : hidden == 3 ? THREE_CONCEALED_PUNGS : FOUR_CONCEALED_PUNGS] = 1;
}

/* ---- chows (chows.py) ---- */

static int three_chows_fan(int t0, int t1, int t2) {
    int s0 = t0 >> 4, s1 = t1 >> 4, s2 = t2 >> 4;
    if (s0 != s1 && s0 != s2 && s1 != s2) {
        int r[3];
        sorted_ranks(t0, t1, t2, r);
        if (r[0] + 1 == r[1] && r[1] + 1 == r[2])
            return MIXED_SHIFTED_CHOWS;
        if (r[0] == r[2])
            return MIXED_TRIPLE_CHOW;
        return r[0] == 2 && r[1] == 5 && r[2] == 8 ? MIXED_STRAIGHT : 0;
    }
    if (t0 + 3 == t1 && t1 + 3 == t2)
        return PURE_STRAIGHT;
    if ((t0 + 2 == t1 && t1 + 2 == t2) || (t0 + 1 == t1 && t1 + 1 == t2))
        return PURE_SHIFTED_CHOWS;
    return t0 == t1 && t1 == t2 ? PURE_TRIPLE_CHOW : 0;
}

static int two_chows_fan(int t0, int t1) {
    if (t0 >> 4 != t1 >> 4)
        return (t0 & 15) == (t1 & 15) ? MIXED_DOUBLE_CHOW : 0;
    if (t0 + 3 == t1 || t1 + 3 == t0)
        return SHORT_STRAIGHT;
    int r0 = t0 & 15, r1 = t1 & 15;
    if ((r0 == 2 && r1 == 8) || (r0 == 8 && r1 == 2))
        return TWO_TERMINAL_CHOWS;
    return t0 == t1 ? PURE_DOUBLE_CHOW : 0;
}

static const int PAIR_FANS_ORDER[4] = {PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS};

/* 套算一次: keep at most ``limit`` of the 1-fan chow pairs, cutting repeats first, from 老少副 back. */
static void account_once(const int *found, int count, int limit, int *fans) {
    int table[4] = {0, 0, 0, 0};
    for (int i = 0; i < count; i++)
        for (int k = 0; k < 4; k++)
            table[k] += found[i] == PAIR_FANS_ORDER[k];
    for (int keep = 1; count > limit && keep >= 0; keep--)
        for (int k = 3; k >= 0; k--)
            while (table[k] > keep && count > limit) {
                table[k]--;
                count--;
            }
    for (int k = 0; k < 4; k++)
        fans[PAIR_FANS_ORDER[k]] += table[k];
}

static void chow_fans(const int *m, int n, int *fans) {
    if (n == 4) {
        if ((m[0] + 2 == m[1] && m[1] + 2 == m[2] && m[2] + 2 == m[3]) ||
            (m[0] + 1 == m[1] && m[1] + 1 == m[2] && m[2] + 1 == m[3])) {
            fans[FOUR_PURE_SHIFTED_CHOWS] = 1;
            return;
        }
        if (m[0] == m[1] && m[1] == m[2] && m[2] == m[3]) {
            fans[QUADRUPLE_CHOW] = 1;
            return;
        }
        static const int trios[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
        for (int t = 0; t < 4; t++) {
            const int *q = trios[t];
            int fan = three_chows_fan(m[q[0]], m[q[1]], m[q[2]]);
            if (fan) {
                fans[fan] = 1;
                int found[3];
                for (int i = 0; i < 3; i++)
                    found[i] = two_chows_fan(m[q[i]], m[q[3]]);
                for (int k = 0; k < 4; k++)
                    if (found[0] == PAIR_FANS_ORDER[k] || found[1] == PAIR_FANS_ORDER[k] ||
                        found[2] == PAIR_FANS_ORDER[k]) {
                        fans[PAIR_FANS_ORDER[k]] = 1;
                        break;
                    }
                return;
            }
        }
        int found[6], count = 0, related = 0;
        for (int a = 0; a < 4; a++)
            for (int b = a + 1; b < 4; b++) {
                int fan = two_chows_fan(m[a], m[b]);
                if (fan) {
                    found[count++] = fan;
                    related |= 1 << a | 1 << b;
                }
            }
        int limit = __builtin_popcount(related) - 1;
        if (limit > 0)
            account_once(found, count, limit, fans);
        return;
    }
    if (n == 3) {
        int fan = three_chows_fan(m[0], m[1], m[2]);
        if (fan) {
            fans[fan] = 1;
            return;
        }
        int found[3], count = 0;
        for (int a = 0; a < 3; a++)
            for (int b = a + 1; b < 3; b++)
                if ((fan = two_chows_fan(m[a], m[b])))
                    found[count++] = fan;
        account_once(found, count, 2, fans);
        return;
    }
    if (n == 2) {
        int fan = two_chows_fan(m[0], m[1]);
        if (fan)
            fans[fan]++;
    }
}

static int terminal_chows_fan(const int *m, int pair) {
    if (pair >= 0x40 || (pair & 15) != 5)
        return 0;
    int same = 1, low = 0;
    for (int i = 0; i < 4; i++) {
        if ((m[i] & 15) != 2 && (m[i] & 15) != 8)
            return 0;
        same &= m[i] >> 4 == pair >> 4;
        low += (m[i] & 15) == 2;
    }
    if (same)
        return low == 2 ? PURE_TERMINAL_CHOWS : 0;
    int o0 = pair >> 4 == 1 ? 2 : 1, o1 = pair >> 4 == 3 ? 2 : 3; /* the two other suits, ascending */
    int want[4] = {o0 * 16 + 2, o0 * 16 + 8, o1 * 16 + 2, o1 * 16 + 8};
    for (int i = 0; i < 4; i++)
        if (m[i] != want[i])
            return 0;
    return THREE_SUITED_TERMINAL_CHOWS;
}

/* ---- one reading (scorer.reading_fans) ---- */

static void sort_small(int *v, int n) {
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
            int t = v[b];
            v[b] = v[b - 1];
            v[b - 1] = t;
        }
}

static void pack_traits(int c, int chow, int *outside, int *five, int *even) {
    int rank = c & 15;
    if (chow) {
        *outside += rank == 2 || rank == 8;
        *five += rank >= 4 && rank <= 6;
        return;
    }
    if (c > 0x40 || rank == 1 || rank == 9)
        ++*outside;
    else if (rank == 5)
        ++*five;
    else if (!(rank & 1))
        ++*even;
}

static void apply_exclusions(int *f) {
    static const int rows[][6] = {
        {BIG_FOUR_WINDS, ALL_PUNGS, PUNG_OF_TERMINALS_OR_HONORS},
        {BIG_THREE_DRAGONS, DRAGON_PUNG},
        {ALL_GREEN, HALF_FLUSH, ONE_VOIDED_SUIT},
        {FOUR_KONGS, SINGLE_WAIT},
        {ALL_TERMINALS, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, NO_HONORS, DOUBLE_PUNG},
        {LITTLE_FOUR_WINDS, PUNG_OF_TERMINALS_OR_HONORS},
        {LITTLE_THREE_DRAGONS, DRAGON_PUNG},
        {ALL_HONORS, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, ONE_VOIDED_SUIT},
        {FOUR_CONCEALED_PUNGS, ALL_PUNGS, CONCEALED_HAND},
        {PURE_TERMINAL_CHOWS, FULL_FLUSH, ALL_CHOWS, NO_HONORS},
        {FOUR_PURE_SHIFTED_PUNGS, ALL_PUNGS},
        {ALL_TERMINALS_AND_HONORS, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS},
        {ALL_EVEN_PUNGS, ALL_PUNGS, ALL_SIMPLES, NO_HONORS},
        {UPPER_TILES, NO_HONORS},
        {MIDDLE_TILES, ALL_SIMPLES, NO_HONORS},
        {LOWER_TILES, NO_HONORS},
        {THREE_SUITED_TERMINAL_CHOWS, ALL_CHOWS, NO_HONORS},
        {ALL_FIVE, ALL_SIMPLES, NO_HONORS},
        {UPPER_FOUR, NO_HONORS},
        {LOWER_FOUR, NO_HONORS},
        {REVERSIBLE_TILES, ONE_VOIDED_SUIT},
        {LAST_TILE_DRAW, SELF_DRAWN},
        {OUT_WITH_REPLACEMENT_TILE, SELF_DRAWN},
        {MELDED_HAND, SINGLE_WAIT},
        {TWO_DRAGONS_PUNGS, DRAGON_PUNG},
        {TWO_CONCEALED_KONGS, TWO_CONCEALED_PUNGS},
        {FULLY_CONCEALED_HAND, SELF_DRAWN},
        {ALL_CHOWS, NO_HONORS},
        {ALL_SIMPLES, NO_HONORS},
    };
    if (f[FOUR_CONCEALED_PUNGS] && f[FULLY_CONCEALED_HAND]) {
        f[FULLY_CONCEALED_HAND] = 0;
        f[SELF_DRAWN] = 1;
    }
    int present[NFANS];
    memcpy(present, f, sizeof present); /* the table is read on the fans present before any removal */
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        if (present[rows[r][0]])
            for (int k = 1; k < 6 && rows[r][k]; k++)
                f[rows[r][k]] = 0;
    if (f[BIG_THREE_WINDS] && f[PUNG_OF_TERMINALS_OR_HONORS]) {
        int left = f[PUNG_OF_TERMINALS_OR_HONORS] - 3;
        f[PUNG_OF_TERMINALS_OR_HONORS] = left > 0 ? left : 0;
    }
}

static void wind_fans(const int *pungs, int n, const Summary *s, int *f) {
    if (f[BIG_FOUR_WINDS])
        return;
    int absorbed = f[BIG_THREE_WINDS] || f[ALL_TERMINALS_AND_HONORS] || f[ALL_HONORS] || f[LITTLE_FOUR_WINDS];
    for (int i = 0; i < n; i++) {
        int tile = pungs[i], deduct = 0;
        if (!IS_WIND(tile))
            continue;
        if (tile == s->prevalent)
            f[PREVALENT_WIND] = deduct = 1;
        if (tile == s->seat)
            f[SEAT_WIND] = deduct = 1;
        if (deduct && !absorbed && f[PUNG_OF_TERMINALS_OR_HONORS])
            f[PUNG_OF_TERMINALS_OR_HONORS]--;
    }
}

static int reading_fans(Summary *s, const Reading *r, int *f) {
    int win = s->win, chows[4], pungs[4], nchows = r->nchows, npungs = r->npungs, pair = r->pair;
    int concealed_pungs = npungs;
    if (!s->self_drawn) {
        int in_pung = 0, in_chow = 0;
        for (int i = 0; i < npungs; i++)
            in_pung |= r->pungs[i] == win;
        for (int i = 0; i < nchows; i++)
            in_chow |= r->chows[i] - 1 <= win && win <= r->chows[i] + 1;
        concealed_pungs -= in_pung && !in_chow;
    }
    memcpy(chows, r->chows, sizeof chows);
    memcpy(pungs, r->pungs, sizeof pungs);
    for (int i = 0; i < s->nfixed_chows; i++)
        chows[nchows++] = s->fixed_chows[i];
    for (int i = 0; i < s->nfixed_pungs; i++)
        pungs[npungs++] = s->fixed_pungs[i];
    sort_small(chows, nchows);
    sort_small(pungs, npungs);
    memcpy(f, s->common, sizeof(int) * NFANS);
    int kongs = s->melded_kongs + s->concealed_kongs;
    if (npungs) {
        kong_fans(concealed_pungs, s->melded_kongs, s->concealed_kongs, f);
        if (npungs == 4 && !f[FOUR_KONGS] && !f[FOUR_CONCEALED_PUNGS])
            f[ALL_PUNGS] = 1;
    }
    /* shape_fans */
    pung_fans(pungs, npungs, f);
    int terminal = nchows == 4 ? terminal_chows_fan(chows, pair) : 0;
    if (terminal)
        f[terminal] = 1;
    else
        chow_fans(chows, nchows, f);
    if (nchows == 4) {
        if (pair < 0x40)
            f[ALL_CHOWS] = 1;
    } else if (f[TWO_DRAGONS_PUNGS]) {
        if (IS_DRAGON(pair)) {
            f[LITTLE_THREE_DRAGONS] = 1;
            f[TWO_DRAGONS_PUNGS] = 0;
        }
    } else if (f[BIG_THREE_WINDS] && IS_WIND(pair)) {
        f[LITTLE_FOUR_WINDS] = 1;
        f[BIG_THREE_WINDS] = 0;
    }
    int outside = 0, five = 0, even = 0;
    for (int i = 0; i < nchows; i++)
        pack_traits(chows[i], 1, &outside, &five, &even);
    for (int i = 0; i < npungs; i++)
        pack_traits(pungs[i], 0, &outside, &five, &even);
    pack_traits(pair, 0, &outside, &five, &even);
    if (outside == 5)
        f[OUTSIDE_HAND] = 1;
    else if (five == 5)
        f[ALL_FIVE] = 1;
    else if (even == 5)
        f[ALL_EVEN_PUNGS] = 1;
    /* the rest of reading_fans */
    if (!f[QUADRUPLE_CHOW] && s->fours > kongs)
        f[TILE_HOG] = s->fours - kongs;
    if (!f[MELDED_HAND] && !f[FOUR_KONGS]) {
        int fan = waiting_form_fan(r, win);
        if (fan && unique_wait(s))
            f[fan] = 1;
    }
    /* _finish */
    apply_exclusions(f);
    if (npungs && pungs[npungs - 1] >= EAST)
        wind_fans(pungs, npungs, s, f);
    int total = 0;
    for (int i = 1; i < NFANS; i++)
        total += POINTS[i] * f[i];
    if (!total) {
        f[CHICKEN_HAND] = 1;
        total = POINTS[CHICKEN_HAND];
    }
    return total;
}

/* ---- the special forms (special.py, knitted.py), tried as scorer._special_fans tries them ---- */

/* The six 组合龙: the suit (1-3) holding ranks 147, 258 and 369 (codes.KNITTED_STRAIGHTS). */
static const int KNITTED[6][3] = {{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}};

/* The tile code of the ``step``-th (0-2) rank of the ``i``-th (0-2: ranks 147, 258, 369) part of 组合龙 ``p``. */
static int knitted_code(int p, int i, int step) {
    return KNITTED[p][i] * 16 + 1 + i + 3 * step;
}

/* Whether every numbered tile held lies in one 组合龙. */
static int within_knitted(const Summary *s) {
    for (int p = 0; p < 6; p++) {
        int inside = 1;
        for (int c = 0x11; c < 0x40 && inside; c++)
            if (s->cnt[c] && KNITTED[p][((c & 15) - 1) % 3] != c >> 4)
                inside = 0;
        if (inside)
            return 1;
    }
    return 0;
}

/* 全不靠 (+ 组合龙) / 七星不靠, else 十三幺, into ``f``; 0 when the concealed hand is neither. */
static int honors_or_orphans(const Summary *s, int *f) {
    int kinds = 0, numbered = 0, orphans = 0;
    for (int c = 0; c < NCODES; c++)
        if (s->cnt[c]) {
            kinds++;
            numbered += c < 0x40;
            orphans += c >= 0x40 || IS_TERMINAL(c);
        }
    if (kinds == 14 && numbered >= 7 && numbered <= 9 && within_knitted(s)) {
        if (numbered == 7)
            f[GREATER_HONORS_AND_KNITTED_TILES] = 1;
        else {
            f[LESSER_HONORS_AND_KNITTED_TILES] = 1;
            f[KNITTED_STRAIGHT] = numbered == 9;
        }
        return 1;
    }
    if (kinds == 13 && orphans == 13) {
        f[THIRTEEN_ORPHANS] = 1;
        return 1;
    }
    return 0;
}

/* The first 组合龙 whose nine tiles ``cnt`` all hold, or -1 (knitted.holds_knitted_straight). */
static int held_knitted(const int *cnt) {
    for (int p = 0; p < 6; p++) {
        int all = 1;
        for (int i = 0; i < 3 && all; i++)
            for (int step = 0; step < 3; step++)
                all &= cnt[knitted_code(p, i, step)] > 0;
        if (all)
            return p;
    }
    return -1;
}

/* 组合龙 with the one set and the pair beside it (knitted.knitted_straight_fans; the situation fans and
 * scorer._finish are the caller's): its fans into ``f`` and the fourth set's pung tile (0 for a chow) in
 * ``*pung``; 0 when the tiles beside the knitted straight read other than one way. */
static int knitted_fans(const Summary *s, int pattern, int body_waits, int *f, int *pung) {
    static Summary part; /* the readings of the tiles beside the knitted straight (the GIL is held) */
    int rest[NCODES], scratch[NCODES];
    memcpy(rest, s->cnt, sizeof rest);
    for (int i = 0; i < 3; i++)
        for (int step = 0; step < 3; step++)
            rest[knitted_code(pattern, i, step)]--;
    memcpy(scratch, rest, sizeof scratch);
    Reading r;
    memset(&r, 0, sizeof r);
    part.nreadings = part.overflow = 0;
    search(&part, scratch, &r, 0x11, 0, 0);
    if (part.overflow || part.nreadings != 1)
        return 0;
    const Reading *only = &part.readings[0];
    int pair = only->pair, kind, tile, melded = 0;
    if (s->nfixed_chows)
        kind = CHOW_PACK, tile = s->fixed_chows[0], melded = 1;
    else if (s->nfixed_pungs) {
        kind = s->melded_kongs + s->concealed_kongs ? KONG_PACK : PUNG_PACK, tile = s->fixed_pungs[0];
        melded = kind == PUNG_PACK || s->melded_kongs;
    } else if (only->nchows)
        kind = CHOW_PACK, tile = only->chows[0];
    else
        kind = PUNG_PACK, tile = only->pungs[0];
    f[KNITTED_STRAIGHT] = 1;
    if (kind == CHOW_PACK) { /* _fourth_set_fans */
        f[ALL_CHOWS] = pair < 0x40;
        f[TILE_HOG] = s->held[pair] == 4;
    } else if (IS_WIND(tile)) {
        f[PUNG_OF_TERMINALS_OR_HONORS] = 1;
        f[ALL_TYPES] = IS_DRAGON(pair);
    } else if (IS_DRAGON(tile)) {
        f[DRAGON_PUNG] = 1;
        f[ALL_TYPES] = IS_WIND(pair);
    } else {
        f[PUNG_OF_TERMINALS_OR_HONORS] = IS_TERMINAL(tile);
        f[NO_HONORS] = pair < 0x40;
        f[TILE_HOG] = kind != KONG_PACK && s->held[tile] == 4;
    }
    if (melded)
        f[MELDED_KONG] = kind == KONG_PACK;
    else {
        f[CONCEALED_KONG] = kind == KONG_PACK;
        f[s->self_drawn ? FULLY_CONCEALED_HAND : CONCEALED_HAND] = 1;
    }
    int win = s->win;
    int in_pattern = win < 0x40 && KNITTED[pattern][((win & 15) - 1) % 3] == win >> 4;
    if ((body_waits || !in_pattern) && rest[win] > 0) {
        rest[win]--;
        if (waits_alone(rest, win, s->held, s->exhausted_waits)) {
            int fan = waiting_form_fan(only, win);
            if (fan)
                f[fan] = 1;
        }
    }
    *pung = kind == CHOW_PACK ? 0 : tile;
    return 1;
}

/* 九莲宝灯 (special.nine_gates): 1112345678999 of one suit and any tile of it, with what the winning tile's rank adds
 * (the fans of the reading it completes that the form does not imply). */
static int nine_gates(const Summary *s, int *f) {
    static const int gates[10] = {0, 3, 1, 1, 1, 1, 1, 1, 1, 3};
    if (s->win >= 0x40)
        return 0;
    int base = s->win & 0xF0, total = 0;
    for (int r = 1; r <= 9; r++)
        total += s->cnt[base + r];
    if (total != 14)
        return 0;
    for (int r = 1; r <= 9; r++)
        if (s->cnt[base + r] - (base + r == s->win) != gates[r])
            return 0;
    f[NINE_GATES] = 1;
    switch (s->win & 15) {
    case 1:
    case 9:
        f[PURE_STRAIGHT] = f[TILE_HOG] = 1;
        break;
    case 2:
    case 8:
        f[TWO_CONCEALED_PUNGS] = f[SHORT_STRAIGHT] = f[PUNG_OF_TERMINALS_OR_HONORS] = 1;
        break;
    case 5:
        f[TWO_CONCEALED_PUNGS] = f[PUNG_OF_TERMINALS_OR_HONORS] = 1;
        break;
    default:
        f[SHORT_STRAIGHT] = 1;
    }
    return 1;
}

/* Whether the concealed tiles are seven pairs (a kind held four times is two). */
static int all_pairs(const Summary *s) {
    for (int c = 0; c < NCODES; c++)
        if (s->cnt[c] & 1)
            return 0;
    return 1;
}

/* 七对's fans, or 连七对's, into ``f`` (special.seven_pairs_family and the scorer's tile fans and 四归一 for 七对);
 * 1 for 连七对, which no reading may beat. */
static int seven_pairs_fans(const Summary *s, int *f) {
    if (s->win < 0x40) {
        int base = s->win & 0xF0, kinds = 0, low = 10, high = 0, twos = 1;
        for (int c = 0; c < NCODES; c++)
            if (s->cnt[c]) {
                kinds++;
                twos &= s->cnt[c] == 2 && (c & 0xF0) == base;
                low = (c & 15) < low ? c & 15 : low;
                high = (c & 15) > high ? c & 15 : high;
            }
        if (kinds == 7 && twos && high - low == 6) {
            f[SEVEN_SHIFTED_PAIRS] = 1;
            f[ALL_SIMPLES] = low == 2;
            return 1;
        }
    }
    f[SEVEN_PAIRS] = 1;
    tile_fans(s->held, f);
    for (int c = 0; c < NCODES; c++)
        f[TILE_HOG] += s->cnt[c] == 4;
    return 0;
}

enum { NO_FORM, FORM_ALONE, FORM_SEVEN_PAIRS };

/* The special forms in the scorer's order (scorer._special_fans), their fans into ``f`` with the situation's (still
 * alone in ``s->common``): FORM_ALONE for a form that is the answer, FORM_SEVEN_PAIRS for 七对 (the readings may
 * beat it), NO_FORM (``f`` untouched) when the hand takes none. */
static int special_form(const Summary *s, int nmelds, int body_waits, int *f) {
    int form = NO_FORM, pattern, pung = 0;
    if (!nmelds && all_pairs(s))
        form = seven_pairs_fans(s, f) ? FORM_ALONE : FORM_SEVEN_PAIRS;
    else if (!nmelds && honors_or_orphans(s, f))
        form = FORM_ALONE;
    else if ((pattern = held_knitted(s->cnt)) >= 0 && knitted_fans(s, pattern, body_waits, f, &pung))
        form = FORM_ALONE;
    else {
        memset(f, 0, NFANS * sizeof *f);
        if (!nmelds && nine_gates(s, f))
            form = FORM_ALONE;
    }
    if (form == NO_FORM)
        return form;
    for (int i = 1; i < NFANS; i++)
        if (s->common[i])
            f[i] = s->common[i];
    apply_exclusions(f);
    if (pung >= EAST)
        wind_fans(&pung, 1, s, f);
    return form;
}

/* ---- the entry point ---- */

static int as_int(PyObject *o, long lo, long hi, long *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* The fans counted in ``f`` as a tuple of (fan, count) pairs in fan order. */
static PyObject *fan_pairs(const int *f) {
    int n = 0;
    for (int i = 1; i < NFANS; i++)
        n += f[i] > 0;
    PyObject *out = PyTuple_New(n);
    if (!out)
        return NULL;
    for (int i = 1, k = 0; i < NFANS; i++)
        if (f[i] > 0) {
            PyObject *item = Py_BuildValue("(ii)", i, f[i]);
            if (!item) {
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(out, k++, item);
        }
    return out;
}

typedef struct {
    int kind, code, exposed; /* a declared meld as scorer._packs gives it: kind 1-3, tile code (a chow's middle) */
} PackIn;

typedef struct {
    int self_drawn, last_tile, wall_last, kong; /* situation.WinFlags */
    int prevalent, seat;                        /* 0-3 = E S W N */
    int infer_last_tile, knitted_body_waits, exhausted_waits; /* ScoringOptions */
} Situation;

/* The fans of the best reading of a hand into ``best`` (by fan id, flowers not included): ``standing`` the concealed
 * tile ids but the winning one, ``packs`` the melds. 1 when answered (``*found`` 0: no reading), 0 when the pure path
 * must answer (a pack it cannot read, a fifth copy among the concealed tiles, more readings than it keeps). */
static int count_fans(const int *standing, int nstanding, int win_id, const PackIn *packs, int nmelds,
                      const Situation *at, int *best, int *found) {
    static Summary summary;
    Summary *s = &summary;
    memset(s, 0, offsetof(Summary, readings));
    s->unique = -1;
    if (nmelds > 4 || nstanding + 1 + 3 * nmelds != 14)
        return 0;
    s->win = CODE_OF[win_id];
    s->cnt[s->win] = 1;
    for (int i = 0; i < nstanding; i++)
        if (++s->cnt[CODE_OF[standing[i]]] > 4)
            return 0;
    memcpy(s->held, s->cnt, sizeof s->held);
    int melded = 0;
    for (int i = 0; i < nmelds; i++) {
        int kind = packs[i].kind, code = packs[i].code, exposed = packs[i].exposed;
        melded += exposed;
        if (kind == CHOW_PACK) {
            if (code > 0x40 || (code & 15) < 2 || (code & 15) > 8)
                return 0;
            s->held[code - 1]++, s->held[code]++, s->held[code + 1]++;
            s->fixed_chows[s->nfixed_chows++] = code;
        } else {
            if ((code & 15) == 0 || (code < 0x40 && (code & 15) > 9))
                return 0;
            s->held[code] += kind == KONG_PACK ? 4 : 3;
            s->fixed_pungs[s->nfixed_pungs++] = code;
            if (kind == KONG_PACK) {
                s->melded_kongs += exposed;
                s->concealed_kongs += !exposed;
            }
        }
    }
    s->self_drawn = at->self_drawn;
    s->exhausted_waits = at->exhausted_waits;
    s->prevalent = EAST + at->prevalent;
    s->seat = EAST + at->seat;
    for (int c = 0; c < NCODES; c++)
        s->fours += s->held[c] == 4;
    int in_standing = s->cnt[s->win];
    situation_fans(at->self_drawn, at->last_tile, at->wall_last, at->kong, in_standing, s->held[s->win] - in_standing,
                   s->melded_kongs + s->concealed_kongs > 0, at->infer_last_tile, s->common);
    int fans[NFANS], best_total = 0;
    memset(best, 0, NFANS * sizeof *best);
    *found = 0;
    int form = nmelds <= 1 ? special_form(s, nmelds, at->knitted_body_waits, best) : NO_FORM;
    if (form == FORM_ALONE)
        return *found = 1;
    if (form == FORM_SEVEN_PAIRS) { /* the first best; a reading as good takes its place (scorer.hand_fans) */
        for (int i = 1; i < NFANS; i++)
            best_total += POINTS[i] * best[i];
        *found = 1;
    }
    find_readings(s);
    if (s->overflow)
        return 0;
    if (!melded)
        s->common[at->self_drawn ? FULLY_CONCEALED_HAND : CONCEALED_HAND] = 1;
    else if (melded == 4 && !at->self_drawn)
        s->common[MELDED_HAND] = 1;
    else if (at->self_drawn)
        s->common[SELF_DRAWN] = 1;
    tile_fans(s->held, s->common);
    for (int i = 0; i < s->nreadings; i++) {
        int points = reading_fans(s, &s->readings[i], fans);
        if (!*found || points > best_total ||
            (points == best_total && (fans[PURE_TRIPLE_CHOW] == 1 || fans[TRIPLE_PUNG] || form == FORM_SEVEN_PAIRS))) {
            memcpy(best, fans, sizeof fans);
            best_total = points;
            *found = 1;
        }
    }
    return 1;
}

/* hand_fans(standing, win, packs, self_drawn, last_tile, wall_last, kong, prevalent, seat, infer_last_tile,
 * knitted_body_waits, exhausted_waits) (the flags, the winds, then ``ScoringOptions`` in its order): ``standing`` a
 * tuple of tile ids, ``packs`` the melds as (kind 1-3 chow/pung/kong, tile code (a chow's middle), exposed) tuples
 * (scorer's ``Pack``); winds 0-3. (fan, count) pairs, () if no reading, or None when the pure path is to answer. */
static PyObject *hand_fans(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "hand_fans takes 12 arguments");
        return NULL;
    }
    if (!PyTuple_Check(args[0]) || !PyTuple_Check(args[2]))
        Py_RETURN_NONE; /* standing tiles or melds in another container: the pure path reads those */
    long v[12];
    static const long high[12] = {0, 33, 0, 1, 1, 1, 1, 3, 3, 1, 1, 1};
    for (int i = 1; i < 12; i++)
        if (i != 2 && !as_int(args[i], 0, high[i], &v[i]))
            Py_RETURN_NONE;
    Py_ssize_t nstanding = PyTuple_GET_SIZE(args[0]), nmelds = PyTuple_GET_SIZE(args[2]);
    if (nmelds > 4 || nstanding > 13)
        Py_RETURN_NONE;
    int standing[13];
    PackIn packs[4];
    for (Py_ssize_t i = 0; i < nstanding; i++) {
        long tile;
        if (!as_int(PyTuple_GET_ITEM(args[0], i), 0, 33, &tile))
            Py_RETURN_NONE;
        standing[i] = (int)tile;
    }
    for (Py_ssize_t i = 0; i < nmelds; i++) {
        PyObject *pack = PyTuple_GET_ITEM(args[2], i);
        long kind, code, exposed;
        if (!PyTuple_Check(pack) || PyTuple_GET_SIZE(pack) != 3 || !as_int(PyTuple_GET_ITEM(pack, 0), 1, 3, &kind) ||
            !as_int(PyTuple_GET_ITEM(pack, 1), 0x11, 0x47, &code) || !as_int(PyTuple_GET_ITEM(pack, 2), 0, 1, &exposed))
            Py_RETURN_NONE;
        packs[i] = (PackIn){(int)kind, (int)code, (int)exposed};
    }
    Situation at = {(int)v[3], (int)v[4], (int)v[5], (int)v[6], (int)v[7], (int)v[8], (int)v[9], (int)v[10], (int)v[11]};
    int best[NFANS], found;
    if (!count_fans(standing, (int)nstanding, (int)v[1], packs, (int)nmelds, &at, best, &found))
        Py_RETURN_NONE;
    return found ? fan_pairs(best) : PyTuple_New(0);
}

/* ---- McrRuleset.evaluate's fans, from its Hand (engine/rulesets/mcr/ruleset.py) ---- */

static PyObject *score_fields[9]; /* Score's fields in their order, interned */
static PyObject *name_standing, *name_win_tile, *name_melds, *name_flowers, *name_kind, *name_tile, *name_offer;

/* A field of a Hand or a Meld, borrowed from its instance dict (a frozen dataclass keeps its fields there, and the
 * object keeps the dict); NULL when it is not there (an error set only if the lookup itself failed). */
static PyObject *field_of(PyObject *object, PyObject *name) {
    PyObject *dict = PyObject_GenericGetDict(object, NULL);
    if (dict == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *value = PyDict_GetItemWithError(dict, name);
    Py_DECREF(dict);
    return value;
}

/* An int in [lo, hi] held by ``o``, else -1 (no error set). */
static int small_int(PyObject *o, int lo, int hi) {
    if (o == NULL || !PyLong_CheckExact(o))
        return -1;
    long v = PyLong_AsLong(o);
    return v < lo || v > hi ? (PyErr_Clear(), -1) : (int)v;
}

/* A declared meld (engine.notation.Meld: ``kinds`` = MeldKind's CHOW, PUNG, KONG) as a pack; its tiles counted in
 * ``used``; 0 for anything the pure path must read. */
static int meld_pack(PyObject *meld, PyObject *kinds, PackIn *pack, int *used) {
    PyObject *kind = field_of(meld, name_kind), *offer = field_of(meld, name_offer);
    int tile = small_int(field_of(meld, name_tile), 0, 33);
    if (kind == NULL || offer == NULL || tile < 0)
        return 0;
    int code = CODE_OF[tile];
    if (kind == PyTuple_GET_ITEM(kinds, 0)) {
        if (tile >= 27 || tile % 9 > 6)
            return 0;
        *pack = (PackIn){CHOW_PACK, code + 1, 1};
        used[tile]++, used[tile + 1]++, used[tile + 2]++;
    } else if (kind == PyTuple_GET_ITEM(kinds, 1) || kind == PyTuple_GET_ITEM(kinds, 2)) {
        int kong = kind == PyTuple_GET_ITEM(kinds, 2);
        *pack = (PackIn){kong ? KONG_PACK : PUNG_PACK, code, !kong || offer != Py_None};
        used[tile] += kong ? 4 : 3;
    } else {
        return 0;
    }
    return 1;
}

/* engine.settlement.competition_payments(winner, discarder, total, 8) into ``paid`` by seat: on a self-draw
 * (``discarder`` -1) each other seat pays 8 + total, on a discard the discarder 8 + total and the others 8. */
static void win_payments(int winner, int discarder, long total, long *paid) {
    paid[winner] = 0;
    for (int seat = 0; seat < 4; seat++)
        if (seat != winner) {
            long amount = BASE + (discarder < 0 || seat == discarder ? total : 0);
            paid[seat] = -amount, paid[winner] += amount;
        }
}

/* The answer's fan entries for the fans counted in ``f`` and ``flowers`` 花牌, in fan order, taken from
 * ``entries`` (by fan id, then count 1-8: McrRuleset's FanEntry objects); NULL with an error on a failure, and
 * Py_None (a new reference) for a count the table does not hold. */
static PyObject *fan_entries(const int *f, int flowers, PyObject *entries) {
    int n = flowers > 0;
    for (int i = 1; i < NFANS; i++) {
        if (f[i] > 8)
            Py_RETURN_NONE;
        n += f[i] > 0;
    }
    PyObject *list = PyTuple_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 1, k = 0; i < NFANS; i++) {
        int count = i == FLOWER_TILES ? flowers : f[i];
        if (count > 0)
            PyTuple_SET_ITEM(list, k++, Py_NewRef(PyTuple_GET_ITEM(PyTuple_GET_ITEM(entries, i), count)));
    }
    return list;
}

/* What hand_score builds a Score from, read from its ``config`` tuple (borrowed from it). */
typedef struct {
    PyObject *score_type, *kinds, *entries, *no_shape_reason;
    long minimum, penalty, options[3];
} ScoreConfig;

/* ``config`` = (Score, MeldKind's (CHOW, PUNG, KONG), the fan entries by id and count (NFANS rows of 9), the
 * no-shape reason, minimum, false-win penalty, infer_last_tile, knitted_body_waits, exhausted_waits); 0 with a
 * TypeError for anything else. */
static int read_score_config(PyObject *config, ScoreConfig *c) {
    if (!PyTuple_Check(config) || PyTuple_GET_SIZE(config) != 9)
        goto bad;
    c->score_type = PyTuple_GET_ITEM(config, 0), c->kinds = PyTuple_GET_ITEM(config, 1);
    c->entries = PyTuple_GET_ITEM(config, 2), c->no_shape_reason = PyTuple_GET_ITEM(config, 3);
    if (!PyType_Check(c->score_type) || !PyTuple_Check(c->kinds) || PyTuple_GET_SIZE(c->kinds) != 3 ||
        !PyUnicode_Check(c->no_shape_reason) || !PyTuple_Check(c->entries) || PyTuple_GET_SIZE(c->entries) != NFANS)
        goto bad;
    static PyObject *checked_entries; /* the last table found whole, held: a ruleset hands the same one each time */
    if (c->entries != checked_entries) {
        for (int i = 0; i < NFANS; i++) {
            PyObject *row = PyTuple_GET_ITEM(c->entries, i);
            if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 9)
                goto bad;
        }
        Py_XSETREF(checked_entries, Py_NewRef(c->entries));
    }
    long *numbers[5] = {&c->minimum, &c->penalty, &c->options[0], &c->options[1], &c->options[2]};
    static const long high[5] = {1000, 1000000, 1, 1, 1};
    for (int i = 0; i < 5; i++)
        if (!as_int(PyTuple_GET_ITEM(config, 4 + i), 0, high[i], numbers[i]))
            goto bad;
    return 1;
bad:
    PyErr_SetString(PyExc_TypeError, "hand_score: config is (Score, kinds, entries, reason, minimum, penalty, "
                                     "infer_last_tile, knitted_body_waits, exhausted_waits)");
    return 0;
}

/* The Hand's concealed tiles and melds as count_fans reads them, when it passes every check of the 144-tile set
 * (14 tiles, four copies at most, a flower count of 0-8): 1, else 0 (-1 with an error set). */
static int read_hand_object(PyObject *hand, PyObject *kinds, int *tiles, int *nstanding, int *win, PackIn *packs,
                            int *nmelds) {
    PyObject *standing = field_of(hand, name_standing), *melds = field_of(hand, name_melds);
    PyObject *flowers = field_of(hand, name_flowers);
    *win = small_int(field_of(hand, name_win_tile), 0, 33);
    if (PyErr_Occurred())
        return -1;
    if (standing == NULL || melds == NULL || flowers == NULL || *win < 0 || !PyTuple_CheckExact(standing) ||
        !PyTuple_CheckExact(melds) || (flowers != Py_None && small_int(flowers, 0, 8) < 0))
        return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(standing), m = PyTuple_GET_SIZE(melds);
    if (m > 4 || n + 3 * m != 13)
        return 0;
    int used[34] = {0};
    used[*win]++;
    for (Py_ssize_t i = 0; i < n; i++) {
        if ((tiles[i] = small_int(PyTuple_GET_ITEM(standing, i), 0, 33)) < 0)
            return 0;
        used[tiles[i]]++;
    }
    for (Py_ssize_t i = 0; i < m; i++)
        if (!meld_pack(PyTuple_GET_ITEM(melds, i), kinds, &packs[i], used))
            return 0;
    for (int k = 0; k < 34; k++)
        if (used[k] > 4)
            return 0;
    *nstanding = (int)n, *nmelds = (int)m;
    return 1;
}

/* A Score (``type``) with its fields set as its __init__ sets them: ``payments`` a new dict by seat, ``extra`` a
 * read-only view of a new dict. Steals every reference passed; NULL on an error. */
static PyObject *new_score(PyObject *type, int hu, int shape_ok, long total, long without, PyObject *fans,
                           const long *paid, PyObject *reason, PyObject *extra) {
    PyObject *score = NULL, *dict = NULL, *payments = PyDict_New(), *view = NULL;
    PyObject *values[9] = {NULL};
    if (payments == NULL || fans == NULL || reason == NULL || extra == NULL)
        goto done;
    for (int seat = 0; seat < 4; seat++) {
        PyObject *key = PyLong_FromLong(seat), *amount = PyLong_FromLong(paid[seat]);
        int failed = key == NULL || amount == NULL || PyDict_SetItem(payments, key, amount) < 0;
        Py_XDECREF(key);
        Py_XDECREF(amount);
        if (failed)
            goto done;
    }
    if ((view = PyDictProxy_New(extra)) == NULL)
        goto done;
    score = ((PyTypeObject *)type)->tp_alloc((PyTypeObject *)type, 0);
    if (score == NULL || (dict = PyObject_GenericGetDict(score, NULL)) == NULL)
        goto done;
    values[0] = PyBool_FromLong(hu), values[1] = PyBool_FromLong(shape_ok), values[2] = PyLong_FromLong(total);
    values[3] = PyLong_FromLong(without), values[4] = PyBool_FromLong(hu), values[5] = Py_NewRef(fans);
    values[6] = Py_NewRef(payments), values[7] = Py_NewRef(reason), values[8] = Py_NewRef(view);
    for (int i = 0; i < 9; i++)
        if (values[i] == NULL || PyDict_SetItem(dict, score_fields[i], values[i]) < 0) {
            Py_CLEAR(score);
            break;
        }
done:
    for (int i = 0; i < 9; i++)
        Py_XDECREF(values[i]);
    Py_XDECREF(dict);
    Py_XDECREF(view);
    Py_XDECREF(payments);
    Py_XDECREF(fans);
    Py_XDECREF(reason);
    Py_XDECREF(extra);
    return score;
}

/* hand_score(hand, config, flowers, self_drawn, last_tile, wall_last, kong, prevalent, seat, winner, discarder):
 * McrRuleset.evaluate's Score for a hand that passes every check of the 144-tile set (``read_hand_object``):
 * its fans' entries (``flowers`` 花牌 among them), the verdict, the 8 + F settlement or the false win's penalty,
 * the reason. ``discarder`` a seat or None; ``seat`` the winner's seat wind. None for anything else, which the pure
 * path checks and names. */
static PyObject *hand_score(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    ScoreConfig c;
    if (nargs != 11 || !read_score_config(args[1], &c))
        return nargs != 11 ? (PyErr_SetString(PyExc_TypeError, "hand_score takes 11 arguments"), NULL) : NULL;
    int v[11];
    for (int i = 2; i < 11; i++) {
        PyObject *o = args[i];
        int high = i == 2 ? 8 : i >= 7 ? 3 : 1;
        v[i] = o == Py_True ? 1 : o == Py_False ? 0 : i == 10 && o == Py_None ? -1 : small_int(o, 0, high);
        if (v[i] < 0 && !(i == 10 && o == Py_None))
            Py_RETURN_NONE;
    }
    int tiles[13], nstanding, win, nmelds, winner = v[9], discarder = v[10];
    PackIn packs[4];
    int read = read_hand_object(args[0], c.kinds, tiles, &nstanding, &win, packs, &nmelds);
    if (read <= 0)
        return read < 0 ? NULL : Py_NewRef(Py_None);
    Situation at = {v[3], v[4], v[5], v[6], v[7], v[8], (int)c.options[0], (int)c.options[1], (int)c.options[2]};
    int best[NFANS], found;
    if (!count_fans(tiles, nstanding, win, packs, nmelds, &at, best, &found) || discarder == winner)
        Py_RETURN_NONE;
    long paid[4], without = 0, flowers = v[2];
    int meets = 0;
    for (int i = 1; i < NFANS; i++)
        without += POINTS[i] * best[i];
    if (found && (meets = without >= c.minimum)) {
        win_payments(winner, discarder, without + flowers, paid);
    } else { /* 诈和: the declarer pays the penalty to each other seat */
        for (int seat = 0; seat < 4; seat++)
            paid[seat] = seat == winner ? -3 * c.penalty : c.penalty;
    }
    if (!found)
        return new_score(c.score_type, 0, 0, 0, 0, PyTuple_New(0), paid, Py_NewRef(c.no_shape_reason), PyDict_New());
    PyObject *fans = fan_entries(best, (int)flowers, c.entries);
    if (fans == Py_None)
        return fans;
    PyObject *reason = meets ? Py_NewRef(Py_None)
                             : PyUnicode_FromFormat("%ld fans without flowers, below the minimum %ld", without, c.minimum);
    PyObject *extra = Py_BuildValue("{sl}", "total_without_flowers", without);
    return new_score(c.score_type, meets, 1, without + flowers, without, fans, paid, reason, extra);
}

/* ---- a whole `mjtable score --rules mcr` line (engine/rulesets/mcr/line.py) ---- */

/* What score_lines writes an answer from, read from its ``config`` tuple once a call (borrowed from it). */
typedef struct {
    const char *heads[NFANS]; /* a fan entry's JSON text up to its count: '{"id": 59, ..., "count": ' */
    Py_ssize_t head_sizes[NFANS];
    PyObject *no_shape[4];    /* the whole answer (str) to a hand with no winning shape, by the declarer's seat */
    const char *false_win[4]; /* the payments' JSON text of a false win, by the declarer's seat */
    Py_ssize_t false_win_sizes[4];
    long minimum, infer_last_tile, knitted_body_waits, exhausted_waits, flowers;
} LineConfig;

/* The UTF-8 text of a str, or NULL (error set) for anything else. */
static const char *utf8_of(PyObject *text, Py_ssize_t *size) {
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "score_lines: config texts must be str");
        return NULL;
    }
    return PyUnicode_AsUTF8AndSize(text, size);
}

/* ``config`` = (fan heads (NFANS str, index 0 unused), no-shape answers (4 str), false-win payments (4 str), minimum,
 * infer_last_tile, knitted_body_waits, exhausted_waits, flowers) into ``c``; 0 with a TypeError for anything else. */
static int read_config(PyObject *config, LineConfig *c) {
    if (!PyTuple_Check(config) || PyTuple_GET_SIZE(config) != 8) {
        PyErr_SetString(PyExc_TypeError, "score_lines: config is an 8-tuple");
        return 0;
    }
    PyObject *heads = PyTuple_GET_ITEM(config, 0), *no_shape = PyTuple_GET_ITEM(config, 1);
    PyObject *false_win = PyTuple_GET_ITEM(config, 2);
    if (!PyTuple_Check(heads) || PyTuple_GET_SIZE(heads) != NFANS || !PyTuple_Check(no_shape) ||
        PyTuple_GET_SIZE(no_shape) != 4 || !PyTuple_Check(false_win) || PyTuple_GET_SIZE(false_win) != 4) {
        PyErr_SetString(PyExc_TypeError, "score_lines: config's texts have the wrong shape");
        return 0;
    }
    for (int i = 0; i < NFANS; i++)
        if ((c->heads[i] = utf8_of(PyTuple_GET_ITEM(heads, i), &c->head_sizes[i])) == NULL || c->head_sizes[i] > 200)
            return PyErr_Occurred() ? 0 : (PyErr_SetString(PyExc_ValueError, "score_lines: a fan head too long"), 0);
    for (int i = 0; i < 4; i++) {
        c->no_shape[i] = PyTuple_GET_ITEM(no_shape, i);
        if (!PyUnicode_Check(c->no_shape[i]) ||
            (c->false_win[i] = utf8_of(PyTuple_GET_ITEM(false_win, i), &c->false_win_sizes[i])) == NULL ||
            c->false_win_sizes[i] > 200)
            return PyErr_Occurred() ? 0 : (PyErr_SetString(PyExc_TypeError, "score_lines: bad seat texts"), 0);
    }
    long *numbers[5] = {&c->minimum, &c->infer_last_tile, &c->knitted_body_waits, &c->exhausted_waits, &c->flowers};
    for (int i = 0; i < 5; i++)
        if (!as_int(PyTuple_GET_ITEM(config, 3 + i), 0, i ? 1 : 1000, numbers[i])) {
            PyErr_SetString(PyExc_TypeError, "score_lines: config's numbers out of range");
            return 0;
        }
    return 1;
}

/* A line of MCR notation as score reads it (engine.notation.parse_hand): 1 when read, 0 for anything but the
 * common valid text (a waiting hand, flower letters, an error), which the pure path then answers. */
typedef struct {
    int standing[13], nstanding, win, npacks, flowers;
    PackIn packs[4];
    int used[34]; /* every playing tile, melds included */
    Situation at;
} Line;

static int read_line(const Py_UCS1 *s, Py_ssize_t n, const LineConfig *c, Line *out) {
    while (n > 0 && s[n - 1] == '\r') n--; /* the batch's line.rstrip("\r") */
    if (n == 0 || s[n - 1] == ' ')
        return 0;
    Py_ssize_t bars[2] = {n, n};
    int sections = 1;
    for (Py_ssize_t i = 0; i < n; i++)
        if (s[i] == '|') {
            if (sections == 3)
                return 0;
            bars[sections++ - 1] = i;
        }
    memset(out->used, 0, sizeof out->used);
    out->npacks = 0;
    Py_ssize_t at = 0, end = bars[0];
    while (at < end && s[at] == '[') {
        Py_ssize_t close = at + 1;
        while (close < end && s[close] != ']')
            close++;
        int kind, tile, offer;
        if (close == end || out->npacks == 4 || read_meld(s + at + 1, close - at - 1, &kind, &tile, &offer) < 0)
            return 0;
        int code = CODE_OF[tile];
        out->packs[out->npacks++] = kind == MELD_CHOW   ? (PackIn){CHOW_PACK, code + 1, 1}
                                    : kind == MELD_PUNG ? (PackIn){PUNG_PACK, code, 1}
                                                        : (PackIn){KONG_PACK, code, offer != 0};
        for (int k = 0; k < (kind == MELD_KONG ? 4 : 3); k++)
            out->used[tile + (kind == MELD_CHOW ? k : 0)]++;
        at = close + 1;
    }
    int tiles[MAX_TILES];
    Py_ssize_t count = read_tiles(s + at, end - at, tiles);
    if (count != 14 - 3 * out->npacks)
        return 0;
    out->nstanding = (int)count - 1;
    out->win = tiles[count - 1];
    for (Py_ssize_t i = 0; i < count; i++) {
        if (i < count - 1)
            out->standing[i] = tiles[i];
        out->used[tiles[i]]++;
    }
    for (int k = 0; k < 34; k++)
        if (out->used[k] > 4)
            return 0;
    Situation *w = &out->at;
    *w = (Situation){0, 0, 0, 0, 0, 0, (int)c->infer_last_tile, (int)c->knitted_body_waits, (int)c->exhausted_waits};
    if (sections > 1) {
        const Py_UCS1 *b = s + bars[0] + 1;
        if ((sections > 2 ? bars[1] : n) - bars[0] - 1 != 6)
            return 0;
        const char *winds = "ESWN";
        const char *prevalent = memchr(winds, b[0], 4), *seat = memchr(winds, b[1], 4);
        if (prevalent == NULL || seat == NULL)
            return 0;
        for (int i = 2; i < 6; i++)
            if (b[i] != '0' && b[i] != '1')
                return 0;
        /* Situation(prevalent, seat, self_drawn, fourth_tile, last_tile, kong_related) read as WinFlags */
        w->prevalent = (int)(prevalent - winds), w->seat = (int)(seat - winds);
        w->self_drawn = b[2] == '1', w->last_tile = b[3] == '1', w->wall_last = b[4] == '1', w->kong = b[5] == '1';
    }
    out->flowers = 0;
    if (sections > 2) {
        if (n - bars[1] != 2 || s[n - 1] < '0' || s[n - 1] > '8')
            return 0;
        out->flowers = s[n - 1] - '0';
        if (out->flowers && !c->flowers)
            return 0;
    }
    return 1;
}

/* Appends ``size`` bytes; the buffer is sized for the longest answer (every head is at most 200 bytes). */
#define PUT(at, text, size) (memcpy(at, text, size), at += (size))
#define PUTS(at, literal) PUT(at, literal, sizeof literal - 1)

/* The answer to a winning shape (McrRuleset.evaluate, controller.scoretext) into ``out``; its length. */
static Py_ssize_t write_answer(const LineConfig *c, const Line *line, const int *fans, char *out) {
    int without = 0;
    for (int i = 1; i < NFANS; i++)
        without += POINTS[i] * fans[i];
    int total = without + line->flowers, meets = without >= c->minimum, winner = line->at.seat;
    char *at = out;
    at += sprintf(at, "{\"hu\": %s, \"total\": %d, \"fans\": [", meets ? "true" : "false", total);
    for (int i = 1, listed = 0; i < NFANS; i++) {
        int count = i == FLOWER_TILES ? line->flowers : fans[i];
        if (count <= 0)
            continue;
        if (listed++)
            PUTS(at, ", ");
        PUT(at, c->heads[i], c->head_sizes[i]);
        at += sprintf(at, "%d}", count);
    }
    PUTS(at, "], \"payments\": ");
    if (meets) {
        long paid[4];
        win_payments(winner, line->at.self_drawn ? -1 : (winner + 3) % 4, total, paid);
        at += sprintf(at, "{\"0\": %ld, \"1\": %ld, \"2\": %ld, \"3\": %ld}", paid[0], paid[1], paid[2], paid[3]);
        PUTS(at, ", \"shape_ok\": true, \"meets_minimum\": true");
    } else {
        PUT(at, c->false_win[winner], c->false_win_sizes[winner]);
        at += sprintf(at, ", \"shape_ok\": true, \"meets_minimum\": false, \"reason\": \"%d fans without flowers, below "
                          "the minimum %ld\"", without, c->minimum);
    }
    at += sprintf(at, ", \"total_without_flowers\": %d}", without);
    return at - out;
}

/* One line's answer: a new str, Py_None (a new reference) for the pure path, NULL on a Python error. */
static PyObject *score_line(PyObject *text, const LineConfig *c) {
    Line line;
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text) ||
        !read_line(PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text), c, &line))
        Py_RETURN_NONE;
    int fans[NFANS], found;
    if (!count_fans(line.standing, line.nstanding, line.win, line.packs, line.npacks, &line.at, fans, &found))
        Py_RETURN_NONE;
    if (!found)
        return Py_NewRef(c->no_shape[line.at.seat]);
    char out[NFANS * 220 + 512];
    Py_ssize_t size = write_answer(c, &line, fans, out);
    return PyUnicode_DecodeUTF8(out, size, NULL);
}

/* score_lines(lines, config) -> list[str | None]: ``mjtable score --rules mcr``'s answer text to each line (parse,
 * the 144-tile checks, the fans, the 8 + F settlement, the answer), None where the pure path must answer. */
static PyObject *score_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    LineConfig c;
    if (nargs != 2 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "score_lines(lines, config)");
        return NULL;
    }
    if (!read_config(args[1], &c))
        return NULL;
    Py_ssize_t size = PyList_GET_SIZE(args[0]);
    PyObject *answers = PyList_New(size);
    if (answers == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *answer = score_line(PyList_GET_ITEM(args[0], i), &c);
        if (answer == NULL) {
            Py_DECREF(answers);
            return NULL;
        }
        PyList_SET_ITEM(answers, i, answer);
    }
    return answers;
}

static PyMethodDef METHODS[] = {
    {"hand_fans", (PyCFunction)(void (*)(void))hand_fans, METH_FASTCALL,
     "The MCR fans of a standard hand as (fan, count) pairs, () if no reading, None to leave it to the pure path."},
    {"hand_score", (PyCFunction)(void (*)(void))hand_score, METH_FASTCALL,
     "McrRuleset.evaluate's Score of a Hand that passes every check, or None to leave it to the pure path."},
    {"score_lines", (PyCFunction)(void (*)(void))score_lines, METH_FASTCALL,
     "mjtable score --rules mcr's answer text to each line, or None where the pure path must answer."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "engine._mcr_native", NULL, -1, METHODS,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__mcr_native(void) {
    PyObject **names[] = {&name_standing, &name_win_tile, &name_melds, &name_flowers, &name_kind, &name_tile, &name_offer};
    const char *texts[] = {"standing", "win_tile", "melds", "flowers", "kind", "tile", "offer"};
    for (int i = 0; i < 7; i++)
        if ((*names[i] = PyUnicode_InternFromString(texts[i])) == NULL)
            return NULL;
    const char *fields[9] = {"hu", "shape_ok", "total", "total_without_flowers", "meets_minimum", "fans", "payments",
                             "reason", "extra"};
    for (int i = 0; i < 9; i++)
        if ((score_fields[i] = PyUnicode_InternFromString(fields[i])) == NULL)
            return NULL;
    PyObject *module = PyModule_Create(&MODULE);
    if (module && PyModule_AddStringConstant(module, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
