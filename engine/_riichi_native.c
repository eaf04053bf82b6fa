/* The compiled riichi hand value (issue 30): every reading of a winning hand (four sets and a pair, seven distinct
 * pairs, thirteen orphans), its yaku, fu, han and basic points, and the best of them: the same answer as the pure
 * ``pure_hand_value`` (engine/rulesets/riichi/scorer.py and the modules it reads: reading, yaku, fu, dora, points),
 * rule for rule and yaku for yaku in the same order. It answers None for what it does not read (another container,
 * a tile out of range, a fifth copy, a hand of the wrong size, two readings of equal rank with different yaku, whose
 * choice follows the pure path's reading order), and the pure path answers those.
 *
 * The answer: (hu, han, fu, ((yaku key, han), ...), basic points, limit name, reason) with reason 0 (a win or a
 * reading's value), 1 (no winning shape) or 2 (no yaku). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

enum {
    RIICHI, DOUBLE_RIICHI, IPPATSU, MENZEN_TSUMO, RINSHAN, CHANKAN, HAITEI, HOUTEI, TENHOU, CHIIHOU, RENHOU_YAKUMAN,
    RENHOU, TANYAO, HONITSU, CHINITSU, TSUUIISOU, CHINROUTOU, HONROUTOU, RYUUIISOU, KOKUSHI_13, KOKUSHI, CHIITOITSU,
    PINFU, RYANPEIKOU, IIPEIKOU, HAKU, HATSU, CHUN, SEAT_WIND, ROUND_WIND, SANSHOKU_DOUJUN, ITTSU, CHANTA, JUNCHAN,
    TOITOI, SUUANKOU_TANKI, SUUANKOU, SANANKOU, SANSHOKU_DOUKOU, SANKANTSU, SUUKANTSU, DAISANGEN, SHOUSANGEN,
    DAISUUSHII, SHOUSUUSHII, JUNSEI_CHUUREN, CHUUREN, DORA, URA_DORA, AKA_DORA, YAKU_COUNT
};

static const char *const KEYS[YAKU_COUNT] = {
    "riichi", "double_riichi", "ippatsu", "menzen_tsumo", "rinshan", "chankan", "haitei", "houtei", "tenhou",
    "chiihou", "renhou_yakuman", "renhou", "tanyao", "honitsu", "chinitsu", "tsuuiisou", "chinroutou", "honroutou",
    "ryuuiisou", "kokushi_13", "kokushi", "chiitoitsu", "pinfu", "ryanpeikou", "iipeikou", "haku", "hatsu", "chun",
    "seat_wind", "round_wind", "sanshoku_doujun", "ittsu", "chanta", "junchan", "toitoi", "suuankou_tanki",
    "suuankou", "sanankou", "sanshoku_doukou", "sankantsu", "suukantsu", "daisangen", "shousangen", "daisuushii",
    "shousuushii", "junsei_chuuren", "chuuren", "dora", "ura_dora", "aka_dora"};

static PyObject *KEY_OBJECTS[YAKU_COUNT];

static int is_yakuman(int id) {
    switch (id) {
    case TENHOU: case CHIIHOU: case RENHOU_YAKUMAN: case TSUUIISOU: case CHINROUTOU: case RYUUIISOU: case KOKUSHI_13:
    case KOKUSHI: case SUUANKOU_TANKI: case SUUANKOU: case SUUKANTSU: case DAISANGEN: case DAISUUSHII:
    case SHOUSUUSHII: case JUNSEI_CHUUREN: case CHUUREN:
        return 1;
    default:
        return 0;
    }
}

#define WHITE 31
#define EAST 27
#define BIT(t) ((uint64_t)1 << (t))
#define HONORS (BIT(34) - BIT(27))
#define WINDS (BIT(31) - BIT(27))
#define DRAGONS (BIT(34) - BIT(31))
#define TERMINALS (BIT(0) | BIT(8) | BIT(9) | BIT(17) | BIT(18) | BIT(26))
#define SIMPLES ((BIT(27) - 1) & ~TERMINALS)
#define GREENS (BIT(19) | BIT(20) | BIT(21) | BIT(23) | BIT(25) | BIT(32))
#define SUIT_MASK(s) ((BIT(9) - 1) << (9 * (s)))

enum { CHI, PON, KAN };
enum { RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI, KOKUSHI_WAIT };
enum { STANDARD, CHIITOI, KOKUSHI_FORM };
enum { NO_LIMIT, MANGAN, HANEMAN, BAIMAN, SANBAIMAN, COUNTED_YAKUMAN, YAKUMAN_LIMIT };
static const char *const LIMIT_NAMES[] = {"", "mangan", "haneman", "baiman", "sanbaiman", "counted yakuman"};

typedef struct { int kind, tile, concealed; } Group;
typedef struct { int id, han; } Entry;
typedef struct { Entry entries[32]; int n; } List;

/* WinFacts, field by field (engine/rulesets/riichi/yaku.py; its order is this struct's). */
typedef struct {
    int closed, self_drawn, seat_wind, round_wind, dealer, riichi, double_riichi, ippatsu, rinshan, chankan,
        last_tile, first_turn, kans, open_tanyao, double_yakuman, renhou; /* renhou: 0 none, 1 yakuman, 2 5 han */
} Facts;

typedef struct { int hu, han, fu, basic, limit, times, reason; List yaku; } Value;

typedef struct {
    const Facts *facts;
    const List *common, *dora;
    int counts[34]; /* the 14 concealed tiles, the winning one included */
    Group melds[4];
    int nmelds, win, sanbaiman, kiriage, found, tie;
    Value best;
} Hand;

static void add(List *list, int id, int han) {
    list->entries[list->n].id = id;
    list->entries[list->n++].han = han;
}

static int double_han(const Facts *f) { return f->double_yakuman ? 26 : 13; }

static void situation_yaku(const Facts *f, List *out) {
    if (f->double_riichi) add(out, DOUBLE_RIICHI, 2);
    else if (f->riichi) add(out, RIICHI, 1);
    if (f->ippatsu) add(out, IPPATSU, 1);
    if (f->self_drawn && f->closed) add(out, MENZEN_TSUMO, 1);
    if (f->rinshan) add(out, RINSHAN, 1);
    if (f->chankan) add(out, CHANKAN, 1);
    if (f->last_tile) add(out, f->self_drawn ? HAITEI : HOUTEI, 1);
    if (f->first_turn && f->closed && f->kans == 0) {
        if (f->self_drawn) add(out, f->dealer ? TENHOU : CHIIHOU, 13);
        else if (!f->dealer && f->renhou) {
            if (f->renhou == 1) add(out, RENHOU_YAKUMAN, 13);
            else add(out, RENHOU, 5);
        }
    }
}

static void tile_yaku(uint64_t kinds, const Facts *f, List *out) {
    uint64_t honors = kinds & HONORS;
    int suits = 0;
    for (int s = 0; s < 3; s++) suits += (kinds & SUIT_MASK(s)) != 0;
    int outside = !(kinds & SIMPLES);
    if (!honors && !(kinds & TERMINALS) && (f->closed || f->open_tanyao)) add(out, TANYAO, 1);
    if (suits == 1) {
        if (honors) add(out, HONITSU, f->closed ? 3 : 2);
        else add(out, CHINITSU, f->closed ? 6 : 5);
    }
    if (!suits) add(out, TSUUIISOU, 13);
    else if (outside && !honors) add(out, CHINROUTOU, 13);
    else if (outside) add(out, HONROUTOU, 2);
    if (!(kinds & ~GREENS)) add(out, RYUUIISOU, 13);
}

static int is_outside(int tile) { return tile >= 27 || (BIT(tile) & TERMINALS); }

static void outside_yaku(const Group *sets, int pair, int closed, List *out) {
    int honors = 0;
    for (int i = 0; i < 4; i++) {
        int tile = sets[i].tile;
        if (tile >= 27) honors = 1;
        else if (sets[i].kind == CHI ? (tile % 9 != 0 && tile % 9 != 6) : !(BIT(tile) & TERMINALS)) return;
    }
    if (pair >= 27) honors = 1;
    else if (!(BIT(pair) & TERMINALS)) return;
    if (honors) add(out, CHANTA, closed ? 2 : 1);
    else add(out, JUNCHAN, closed ? 3 : 2);
}

static void triplet_yaku(const Group *sets, int wait, const Facts *f, List *out) {
    int triplets = 0, concealed = 0;
    uint64_t suited = 0;
    for (int i = 0; i < 4; i++) {
        if (sets[i].kind == CHI) continue;
        triplets++;
        concealed += sets[i].concealed;
        if (sets[i].tile < 27) suited |= BIT(sets[i].tile);
    }
    if (triplets == 4) add(out, TOITOI, 2);
    if (concealed == 4 && f->closed) {
        if (wait == TANKI) add(out, SUUANKOU_TANKI, double_han(f));
        else add(out, SUUANKOU, 13);
    } else if (concealed == 3) add(out, SANANKOU, 2);
    for (int rank = 0; rank < 9; rank++)
        if ((suited & BIT(rank)) && (suited & BIT(rank + 9)) && (suited & BIT(rank + 18))) {
            add(out, SANSHOKU_DOUKOU, 2);
            break;
        }
    if (f->kans == 3) add(out, SANKANTSU, 2);
    else if (f->kans == 4) add(out, SUUKANTSU, 13);
}

static void honor_set_yaku(uint64_t triplet_tiles, int pair, const Facts *f, List *out) {
    int dragons = __builtin_popcountll(triplet_tiles & DRAGONS), winds = __builtin_popcountll(triplet_tiles & WINDS);
    if (dragons == 3) {
        add(out, DAISANGEN, 13);
        return;
    }
    if (dragons == 2 && (BIT(pair) & DRAGONS)) add(out, SHOUSANGEN, 2);
    if (winds == 4) add(out, DAISUUSHII, double_han(f));
    else if (winds == 3 && (BIT(pair) & WINDS)) add(out, SHOUSUUSHII, 13);
}

static void nine_gates(const int *counts, int win, const Facts *f, List *out) {
    static const int base[9] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
    if (!f->closed || f->kans || win >= 27) return;
    int suit = win / 9, in_suit = 0, total = 0;
    for (int t = 0; t < 34; t++) total += counts[t];
    for (int r = 0; r < 9; r++) {
        in_suit += counts[9 * suit + r];
        if (counts[9 * suit + r] < base[r]) return;
    }
    if (in_suit != 14 || total != 14) return;
    int held = counts[win];
    if (held == 2 || held == 4) add(out, JUNSEI_CHUUREN, double_han(f));
    else add(out, CHUUREN, 13);
}

/* reading_yaku of a standard reading: ``sets`` are the four sets (concealed first, then the melds). */
static void standard_yaku(const Hand *h, const Group *sets, int pair, int wait, List *out) {
    const Facts *f = h->facts;
    int closed = f->closed, chows = 0, triplets = 0, lows[34] = {0};
    uint64_t low_mask = 0, triplet_tiles = 0;
    for (int i = 0; i < 4; i++) {
        if (sets[i].kind == CHI) {
            chows++;
            lows[sets[i].tile]++;
            low_mask |= BIT(sets[i].tile);
        } else {
            triplets++;
            triplet_tiles |= BIT(sets[i].tile);
        }
    }
    int valued = (BIT(pair) & DRAGONS) || pair == f->seat_wind || pair == f->round_wind;
    if (closed && chows == 4 && !valued && wait == RYANMEN) add(out, PINFU, 1);
    if (closed && chows >= 2) {
        int doubles = 0;
        for (int t = 0; t < 27; t++) doubles += lows[t] / 2;
        if (doubles >= 2) add(out, RYANPEIKOU, 3);
        else if (doubles == 1) add(out, IIPEIKOU, 1);
    }
    int honors = (triplet_tiles & HONORS) != 0;
    if (honors) {
        for (int d = 0; d < 3; d++)
            if (triplet_tiles & BIT(WHITE + d)) add(out, HAKU + d, 1);
        if (triplet_tiles & BIT(f->seat_wind)) add(out, SEAT_WIND, 1);
        if (triplet_tiles & BIT(f->round_wind)) add(out, ROUND_WIND, 1);
    }
    if (chows >= 3) {
        for (int rank = 0; rank < 7; rank++)
            if ((low_mask & BIT(rank)) && (low_mask & BIT(rank + 9)) && (low_mask & BIT(rank + 18))) {
                add(out, SANSHOKU_DOUJUN, closed ? 2 : 1);
                break;
            }
        for (int s = 0; s < 3; s++)
            if ((low_mask & BIT(9 * s)) && (low_mask & BIT(9 * s + 3)) && (low_mask & BIT(9 * s + 6))) {
                add(out, ITTSU, closed ? 2 : 1);
                break;
            }
    }
    if (chows) outside_yaku(sets, pair, closed, out);
    if (triplets) triplet_yaku(sets, wait, f, out);
    if (honors) honor_set_yaku(triplet_tiles, pair, f, out);
    if (closed && !f->kans) nine_gates(h->counts, h->win, f, out);
}

static int standard_fu(const Facts *f, const Group *sets, int pair, int wait, int pinfu) {
    int fu = (wait == KANCHAN || wait == PENCHAN || wait == TANKI) ? 2 : 0;
    if (BIT(pair) & DRAGONS) fu += 2;
    fu += 2 * (pair == f->seat_wind) + 2 * (pair == f->round_wind);
    for (int i = 0; i < 4; i++) {
        if (sets[i].kind == CHI) continue;
        int value = 2 * (1 + sets[i].concealed) * (1 + is_outside(sets[i].tile));
        fu += sets[i].kind == KAN ? value * 4 : value;
    }
    if (f->self_drawn && !pinfu) fu += 2;
    if (!f->closed && fu == 0) fu = 2;
    int base = (f->self_drawn || !f->closed) ? 20 : 30;
    return (base + fu + 9) / 10 * 10;
}

/* basic_points below a yakuman (points.py). */
static void set_points(Value *v, int sanbaiman, int kiriage) {
    int han = v->han;
    if (han >= 13) {
        v->basic = sanbaiman ? 6000 : 8000;
        v->limit = sanbaiman ? SANBAIMAN : COUNTED_YAKUMAN;
    } else if (han >= 11) { v->basic = 6000; v->limit = SANBAIMAN; }
    else if (han >= 8) { v->basic = 4000; v->limit = BAIMAN; }
    else if (han >= 6) { v->basic = 3000; v->limit = HANEMAN; }
    else if (han >= 5 || (kiriage && ((han == 4 && v->fu == 30) || (han == 3 && v->fu == 60)))) {
        v->basic = 2000; v->limit = MANGAN;
    } else {
        long basic = (long)v->fu << (han + 2);
        v->basic = basic > 2000 ? 2000 : (int)basic;
        v->limit = basic > 2000 ? MANGAN : NO_LIMIT;
    }
}

static int rank_order(int a, int b) { return (a > b) - (a < b); }

/* _value: the reading's yaku (common + its own) with its fu become a value; the best so far is kept. */
static void consider(Hand *h, const List *own, int fu) {
    Value v;
    memset(&v, 0, sizeof v);
    v.fu = fu;
    List found = *h->common;
    for (int i = 0; i < own->n; i++) add(&found, own->entries[i].id, own->entries[i].han);
    for (int i = 0; i < found.n; i++)
        if (is_yakuman(found.entries[i].id)) {
            add(&v.yaku, found.entries[i].id, found.entries[i].han);
            v.han += found.entries[i].han;
        }
    if (v.yaku.n) {
        v.hu = 1;
        v.times = v.han / 13 > 1 ? v.han / 13 : 1;
        v.basic = 8000 * v.times;
        v.limit = YAKUMAN_LIMIT;
    } else if (!found.n) {
        v.reason = 2;
    } else {
        for (int i = 0; i < h->dora->n; i++) add(&found, h->dora->entries[i].id, h->dora->entries[i].han);
        v.yaku = found;
        for (int i = 0; i < found.n; i++) v.han += found.entries[i].han;
        v.hu = 1;
        set_points(&v, h->sanbaiman, h->kiriage);
    }
    if (h->found) {
        const Value *b = &h->best;
        int order = rank_order(v.basic, b->basic);
        if (!order) order = rank_order(v.times > 0, b->times > 0);
        if (!order) order = rank_order(v.han, b->han);
        if (!order) order = rank_order(v.fu, b->fu);
        if (order < 0) return;
        if (order == 0) {
            if (v.yaku.n != b->yaku.n || memcmp(v.yaku.entries, b->yaku.entries, v.yaku.n * sizeof(Entry)) != 0)
                h->tie = 1;
            return;
        }
    }
    h->best = v;
    h->found = 1;
    h->tie = 0;
}

static void standard_reading(Hand *h, const Group *concealed, int nsets, int pair, int index, int wait) {
    Group sets[4];
    memcpy(sets, concealed, nsets * sizeof(Group));
    if (index >= 0 && sets[index].kind == PON) sets[index].concealed = h->facts->self_drawn;
    memcpy(sets + nsets, h->melds, h->nmelds * sizeof(Group));
    List own = {.n = 0};
    standard_yaku(h, sets, pair, wait, &own);
    int pinfu = 0;
    for (int i = 0; i < own.n; i++) pinfu |= own.entries[i].id == PINFU;
    consider(h, &own, standard_fu(h->facts, sets, pair, wait, pinfu));
}

static int chow_wait(int low, int win) {
    if (win == low + 1) return KANCHAN;
    if ((low % 9 == 0 && win == low + 2) || (low % 9 == 6 && win == low)) return PENCHAN;
    return RYANMEN;
}

/* _standard_readings: the pair wait, then each distinct set the winning tile completes. */
static void split_readings(Hand *h, const Group *sets, int nsets, int pair) {
    int win = h->win;
    if (pair == win) standard_reading(h, sets, nsets, pair, -1, TANKI);
    for (int i = 0; i < nsets; i++) {
        int chow = sets[i].kind == CHI, tile = sets[i].tile, seen = 0;
        if (chow ? !(tile <= win && win <= tile + 2) : win != tile) continue;
        for (int j = 0; j < i; j++) seen |= sets[j].kind == sets[i].kind && sets[j].tile == tile;
        if (!seen) standard_reading(h, sets, nsets, pair, i, chow ? chow_wait(tile, win) : SHANPON);
    }
}

/* Every distinct split of ``c`` from tile ``from`` on into sets: at the lowest tile left, k pungs (0 or 1) and
 * the rest of its copies as chows starting there. */
static void splits(Hand *h, int *c, int from, Group *sets, int n, int need, int pair) {
    while (from < 34 && !c[from]) from++;
    if (from == 34) {
        if (n == need) split_readings(h, sets, n, pair);
        return;
    }
    int t = from;
    for (int pungs = c[t] >= 3 ? 1 : 0; pungs >= 0; pungs--) {
        int chows = c[t] - 3 * pungs;
        if (n + pungs + chows > need) continue;
        if (chows && (t >= 27 || t % 9 > 6 || c[t + 1] < chows || c[t + 2] < chows)) continue;
        int m = n;
        if (pungs) sets[m++] = (Group){PON, t, 1};
        for (int k = 0; k < chows; k++) sets[m++] = (Group){CHI, t, 1};
        c[t] -= 3 * pungs + chows;
        if (chows) c[t + 1] -= chows, c[t + 2] -= chows;
        splits(h, c, t, sets, m, need, pair);
        c[t] += 3 * pungs + chows;
        if (chows) c[t + 1] += chows, c[t + 2] += chows;
    }
}

/* Seven distinct pairs, then thirteen orphans (each orphan once or twice, nothing else): 14 concealed tiles. */
static void special_readings(Hand *h) {
    int pairs = 0, singles = 0, orphans = 1;
    for (int t = 0; t < 34; t++) {
        int n = h->counts[t];
        pairs += n == 2;
        singles += n && n != 2;
        orphans &= is_outside(t) ? n == 1 || n == 2 : n == 0;
    }
    List own = {.n = 0};
    if (pairs == 7 && !singles) {
        add(&own, CHIITOITSU, 2);
        consider(h, &own, 25);
    }
    if (orphans) {
        own.n = 0;
        if (h->counts[h->win] == 2) add(&own, KOKUSHI_13, double_han(h->facts));
        else add(&own, KOKUSHI, 13);
        consider(h, &own, 0);
    }
}

static int tile_of(PyObject *obj) {
    long tile = PyLong_Check(obj) ? PyLong_AsLong(obj) : -1;
    return tile >= 0 && tile < 34 ? (int)tile : -1;
}

static int read_flag(PyObject *tuple, Py_ssize_t index) { return PyObject_IsTrue(PyTuple_GET_ITEM(tuple, index)); }

static int read_facts(PyObject *obj, Facts *f) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 16) return 0;
    int *flags[] = {&f->closed, &f->self_drawn, NULL, NULL, &f->dealer, &f->riichi, &f->double_riichi, &f->ippatsu,
                    &f->rinshan, &f->chankan, &f->last_tile, &f->first_turn, NULL, &f->open_tanyao,
                    &f->double_yakuman};
    for (int i = 0; i < 15; i++)
        if (flags[i] && (*flags[i] = read_flag(obj, i)) < 0) return 0;
    f->seat_wind = tile_of(PyTuple_GET_ITEM(obj, 2));
    f->round_wind = tile_of(PyTuple_GET_ITEM(obj, 3));
    PyObject *kans = PyTuple_GET_ITEM(obj, 12), *renhou = PyTuple_GET_ITEM(obj, 15);
    if (f->seat_wind < EAST || f->seat_wind >= WHITE || f->round_wind < EAST || f->round_wind >= WHITE) return 0;
    if (!PyLong_Check(kans) || !PyUnicode_Check(renhou)) return 0;
    f->kans = (int)PyLong_AsLong(kans);
    if (f->kans < 0 || f->kans > 4) return 0;
    f->renhou = PyUnicode_CompareWithASCIIString(renhou, "none") == 0      ? 0
                : PyUnicode_CompareWithASCIIString(renhou, "yakuman") == 0 ? 1
                                                                            : 2;
    return 1;
}

/* The melds (engine.notation.Meld: kind chow/pung/kong, tile, offer None for a concealed kong) as groups, their
 * tiles added to ``all``. */
static int read_melds(PyObject *melds, Hand *h, int *all) {
    if (!PyTuple_Check(melds) || PyTuple_GET_SIZE(melds) > 4) return 0;
    h->nmelds = (int)PyTuple_GET_SIZE(melds);
    for (int i = 0; i < h->nmelds; i++) {
        PyObject *meld = PyTuple_GET_ITEM(melds, i);
        PyObject *kind = PyObject_GetAttrString(meld, "kind"), *tile = PyObject_GetAttrString(meld, "tile");
        PyObject *offer = PyObject_GetAttrString(meld, "offer");
        int ok = kind && tile && offer && PyUnicode_Check(kind) && PyUnicode_GET_LENGTH(kind) > 0;
        int t = ok ? tile_of(tile) : -1;
        Py_UCS4 letter = ok ? PyUnicode_READ_CHAR(kind, 0) : 0;
        int concealed = offer == Py_None;
        Py_XDECREF(kind);
        Py_XDECREF(tile);
        Py_XDECREF(offer);
        if (t < 0) return 0;
        if (letter == 'c') {
            if (t >= 27 || t % 9 > 6) return 0;
            h->melds[i] = (Group){CHI, t, 0};
            for (int k = 0; k < 3; k++) all[t + k]++;
        } else if (letter == 'p' || letter == 'k') {
            int kong = letter == 'k';
            h->melds[i] = (Group){kong ? KAN : PON, t, kong && concealed};
            all[t] += kong ? 4 : 3;
        } else return 0;
    }
    return 1;
}

static int dora_of(int indicator) {
    if (indicator < 27) return indicator - indicator % 9 + (indicator % 9 + 1) % 9;
    if (indicator < 31) return 27 + (indicator - 27 + 1) % 4;
    return 31 + (indicator - 31 + 1) % 3;
}

static int dora_count(PyObject *indicators, const int *all) {
    if (!PyTuple_Check(indicators)) return -1;
    int count = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(indicators); i++) {
        int t = tile_of(PyTuple_GET_ITEM(indicators, i));
        if (t < 0) return -1;
        count += all[dora_of(t)];
    }
    return count;
}

static PyObject *answer(const Value *v) {
    PyObject *yaku = PyTuple_New(v->yaku.n);
    if (!yaku) return NULL;
    for (int i = 0; i < v->yaku.n; i++) {
        PyObject *entry = Py_BuildValue("(Oi)", KEY_OBJECTS[v->yaku.entries[i].id], v->yaku.entries[i].han);
        if (!entry) {
            Py_DECREF(yaku);
            return NULL;
        }
        PyTuple_SET_ITEM(yaku, i, entry);
    }
    char name[32];
    if (v->limit == YAKUMAN_LIMIT) {
        if (v->times == 1) snprintf(name, sizeof name, "yakuman");
        else snprintf(name, sizeof name, "%dx yakuman", v->times);
    } else snprintf(name, sizeof name, "%s", LIMIT_NAMES[v->limit]);
    return Py_BuildValue("(OiiNisi)", v->hu ? Py_True : Py_False, v->han, v->fu, yaku, v->basic, name, v->reason);
}

/* hand_value(melds, standing, win, facts, bonus, options): see the file's comment. */
static PyObject *hand_value(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "hand_value(melds, standing, win, facts, bonus, options)");
        return NULL;
    }
    PyObject *standing = args[1], *bonus = args[4], *options = args[5];
    Hand h;
    memset(&h, 0, sizeof h);
    Facts facts;
    int all[34] = {0};
    h.win = tile_of(args[2]);
    if (h.win < 0 || !PyTuple_Check(standing) || !read_facts(args[3], &facts) || !read_melds(args[0], &h, all) ||
        !PyTuple_Check(bonus) || PyTuple_GET_SIZE(bonus) != 3 || !PyTuple_Check(options) ||
        PyTuple_GET_SIZE(options) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(options, 0)))
        goto decline;
    h.facts = &facts;
    if (PyTuple_GET_SIZE(standing) + 1 != 14 - 3 * h.nmelds) goto decline;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(standing); i++) {
        int t = tile_of(PyTuple_GET_ITEM(standing, i));
        if (t < 0) goto decline;
        h.counts[t]++;
    }
    h.counts[h.win]++;
    uint64_t kinds = 0;
    for (int t = 0; t < 34; t++) {
        all[t] += h.counts[t];
        if (all[t] > 4) goto decline;
        if (all[t]) kinds |= BIT(t);
    }
    PyObject *red = PyTuple_GET_ITEM(bonus, 2);
    int dora = dora_count(PyTuple_GET_ITEM(bonus, 0), all), ura = dora_count(PyTuple_GET_ITEM(bonus, 1), all);
    long red_fives = PyLong_Check(red) ? PyLong_AsLong(red) : -1;
    int kiriage = PyObject_IsTrue(PyTuple_GET_ITEM(options, 1));
    if (dora < 0 || ura < 0 || red_fives < 0 || red_fives > 4 || kiriage < 0) goto decline;
    h.sanbaiman = PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(options, 0), "sanbaiman") == 0;
    h.kiriage = kiriage;
    List common = {.n = 0}, dora_list = {.n = 0};
    situation_yaku(&facts, &common);
    tile_yaku(kinds, &facts, &common);
    if (dora) add(&dora_list, DORA, dora);
    if ((facts.riichi || facts.double_riichi) && ura) add(&dora_list, URA_DORA, ura);
    if (red_fives) add(&dora_list, AKA_DORA, (int)red_fives);
    h.common = &common;
    h.dora = &dora_list;
    int c[34];
    Group sets[4];
    memcpy(c, h.counts, sizeof c);
    for (int pair = 0; pair < 34; pair++) {
        if (c[pair] < 2) continue;
        c[pair] -= 2;
        splits(&h, c, 0, sets, 0, 4 - h.nmelds, pair);
        c[pair] += 2;
    }
    if (h.nmelds == 0) special_readings(&h);
    if (h.tie) goto decline;
    if (!h.found) {
        Value none;
        memset(&none, 0, sizeof none);
        none.reason = 1;
        return answer(&none);
    }
    return answer(&h.best);
decline:
    if (PyErr_Occurred()) PyErr_Clear();
    Py_RETURN_NONE;
}

static PyMethodDef METHODS[] = {
    {"hand_value", (PyCFunction)(void (*)(void))hand_value, METH_FASTCALL,
     "The best reading's (hu, han, fu, yaku, basic, limit name, reason) of a riichi hand, None for the pure path."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "engine._riichi_native", NULL, -1, METHODS,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__riichi_native(void) {
    PyObject *module = PyModule_Create(&MODULE);
    if (!module) return NULL;
    for (int i = 0; i < YAKU_COUNT; i++)
        if (!(KEY_OBJECTS[i] = PyUnicode_InternFromString(KEYS[i]))) goto fail;
    if (PyModule_AddStringConstant(module, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) goto fail;
    return module;
fail:
    Py_DECREF(module);
    return NULL;
}
