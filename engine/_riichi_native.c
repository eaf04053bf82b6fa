/* The compiled riichi hand value and settle line (issue 30).
 *
 * hand_value(melds, standing, win, facts, bonus, options): every reading of a winning hand (four sets and a pair,
 * seven distinct pairs, thirteen orphans), its yaku, fu, han and basic points, and the best of them: the same answer
 * as the pure ``pure_hand_value`` (engine/rulesets/riichi/scorer.py and the modules it reads: reading, yaku, fu, dora,
 * points), rule for rule and yaku for yaku in the same order. It answers None for what it does not read (another
 * container, a tile out of range, a fifth copy, a hand of the wrong size, two readings of equal rank with different
 * yaku, whose choice follows the pure path's reading order), and the pure path answers those. The answer: (hu, han,
 * fu, ((yaku key, han), ...), basic points, limit name, reason) with reason 0 (a win or a reading's value), 1 (no
 * winning shape) or 2 (no yaku).
 *
 * settle(request): a decoded settle request of the plain shape, read, scored as above and paid, to its answer text
 * (see its section below); configure(names, reasons) first gives it the yaku names (engine/rulesets/riichi/line.py). */
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
enum { RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI };
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

/* A hand and its situation as read, from the scorer's objects (hand_value) or from a settle request (settle). */
typedef struct {
    Facts facts;
    Group melds[4];
    int nmelds, win;
    int counts[34]; /* the 14 - 3 * nmelds concealed tiles, the winning one included */
    int all[34];    /* every tile of the hand, the melds' too */
    int dora, ura, red_fives, sanbaiman, kiriage;
} Input;

/* The search over the readings of one Input: the yaku every reading shares, the dora, the best value so far. */
typedef struct {
    const Input *in;
    List common, dora;
    int found, tie;
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
    const Facts *f = &h->in->facts;
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
    if (closed && !f->kans) nine_gates(h->in->counts, h->in->win, f, out);
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
    List found = h->common;
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
        for (int i = 0; i < h->dora.n; i++) add(&found, h->dora.entries[i].id, h->dora.entries[i].han);
        v.yaku = found;
        for (int i = 0; i < found.n; i++) v.han += found.entries[i].han;
        v.hu = 1;
        set_points(&v, h->in->sanbaiman, h->in->kiriage);
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
    if (index >= 0 && sets[index].kind == PON) sets[index].concealed = h->in->facts.self_drawn;
    memcpy(sets + nsets, h->in->melds, h->in->nmelds * sizeof(Group));
    List own = {.n = 0};
    standard_yaku(h, sets, pair, wait, &own);
    int pinfu = 0;
    for (int i = 0; i < own.n; i++) pinfu |= own.entries[i].id == PINFU;
    consider(h, &own, standard_fu(&h->in->facts, sets, pair, wait, pinfu));
}

static int chow_wait(int low, int win) {
    if (win == low + 1) return KANCHAN;
    if ((low % 9 == 0 && win == low + 2) || (low % 9 == 6 && win == low)) return PENCHAN;
    return RYANMEN;
}

/* _standard_readings: the pair wait, then each distinct set the winning tile completes. */
static void split_readings(Hand *h, const Group *sets, int nsets, int pair) {
    int win = h->in->win;
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
        int n = h->in->counts[t];
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
        if (h->in->counts[h->in->win] == 2) add(&own, KOKUSHI_13, double_han(&h->in->facts));
        else add(&own, KOKUSHI, 13);
        consider(h, &own, 0);
    }
}

static int dora_of(int indicator) {
    if (indicator < 27) return indicator - indicator % 9 + (indicator % 9 + 1) % 9;
    if (indicator < 31) return 27 + (indicator - 27 + 1) % 4;
    return 31 + (indicator - 31 + 1) % 3;
}

static int dora_count(const int *indicators, int n, const int *all) {
    int count = 0;
    for (int i = 0; i < n; i++) count += all[dora_of(indicators[i])];
    return count;
}

/* Adds a meld's tiles to ``all``. */
static void meld_tiles(const Group *g, int *all) {
    if (g->kind == CHI)
        for (int k = 0; k < 3; k++) all[g->tile + k]++;
    else all[g->tile] += g->kind == KAN ? 4 : 3;
}

/* The counts of a hand whose melds, concealed counts and winning tile are read: ``all``, and 0 for a fifth copy. */
static int count_all(Input *in) {
    memset(in->all, 0, sizeof in->all);
    for (int i = 0; i < in->nmelds; i++) meld_tiles(&in->melds[i], in->all);
    for (int t = 0; t < 34; t++)
        if ((in->all[t] += in->counts[t]) > 4) return 0;
    return 1;
}

/* hand_value of the scorer (scorer.py): the yaku every reading shares, then each reading; 0 for a tie of two
 * readings of equal rank and different yaku, whose choice follows the pure path's reading order. */
static int evaluate(const Input *in, Value *out) {
    Hand h;
    memset(&h, 0, sizeof h);
    h.in = in;
    uint64_t kinds = 0;
    for (int t = 0; t < 34; t++)
        if (in->all[t]) kinds |= BIT(t);
    situation_yaku(&in->facts, &h.common);
    tile_yaku(kinds, &in->facts, &h.common);
    if (in->dora) add(&h.dora, DORA, in->dora);
    if ((in->facts.riichi || in->facts.double_riichi) && in->ura) add(&h.dora, URA_DORA, in->ura);
    if (in->red_fives) add(&h.dora, AKA_DORA, in->red_fives);
    int c[34];
    Group sets[4];
    memcpy(c, in->counts, sizeof c);
    for (int pair = 0; pair < 34; pair++) {
        if (c[pair] < 2) continue;
        c[pair] -= 2;
        splits(&h, c, 0, sets, 0, 4 - in->nmelds, pair);
        c[pair] += 2;
    }
    if (in->nmelds == 0) special_readings(&h);
    if (h.tie) return 0;
    if (h.found) *out = h.best;
    else {
        memset(out, 0, sizeof *out);
        out->reason = 1;
    }
    return 1;
}

static const char *limit_name(const Value *v, char *buffer, size_t size) {
    if (v->limit != YAKUMAN_LIMIT) return LIMIT_NAMES[v->limit];
    if (v->times == 1) return "yakuman";
    snprintf(buffer, size, "%dx yakuman", v->times);
    return buffer;
}

/* --- hand_value: the scorer's objects (engine.notation.Hand's parts, WinFacts, Bonus, Options) ------------------ */

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

/* The melds (engine.notation.Meld: kind chow/pung/kong, tile, offer None for a concealed kong) as groups. */
static int read_meld_objects(PyObject *melds, Input *in) {
    if (!PyTuple_Check(melds) || PyTuple_GET_SIZE(melds) > 4) return 0;
    in->nmelds = (int)PyTuple_GET_SIZE(melds);
    for (int i = 0; i < in->nmelds; i++) {
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
            in->melds[i] = (Group){CHI, t, 0};
        } else if (letter == 'p' || letter == 'k') {
            int kong = letter == 'k';
            in->melds[i] = (Group){kong ? KAN : PON, t, kong && concealed};
        } else return 0;
    }
    return 1;
}

/* The dora an indicator tuple gives the hand, or -1. */
static int dora_of_objects(PyObject *indicators, const int *all) {
    if (!PyTuple_Check(indicators) || PyTuple_GET_SIZE(indicators) > 10) return -1;
    int tiles[10], n = (int)PyTuple_GET_SIZE(indicators);
    for (int i = 0; i < n; i++)
        if ((tiles[i] = tile_of(PyTuple_GET_ITEM(indicators, i))) < 0) return -1;
    return dora_count(tiles, n, all);
}

static int read_objects(PyObject *const *args, Input *in) {
    PyObject *standing = args[1], *bonus = args[4], *options = args[5];
    in->win = tile_of(args[2]);
    if (in->win < 0 || !PyTuple_Check(standing) || !read_facts(args[3], &in->facts) ||
        !read_meld_objects(args[0], in) || !PyTuple_Check(bonus) || PyTuple_GET_SIZE(bonus) != 3 ||
        !PyTuple_Check(options) || PyTuple_GET_SIZE(options) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(options, 0)))
        return 0;
    if (PyTuple_GET_SIZE(standing) + 1 != 14 - 3 * in->nmelds) return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(standing); i++) {
        int t = tile_of(PyTuple_GET_ITEM(standing, i));
        if (t < 0) return 0;
        in->counts[t]++;
    }
    in->counts[in->win]++;
    if (!count_all(in)) return 0;
    PyObject *red = PyTuple_GET_ITEM(bonus, 2);
    in->dora = dora_of_objects(PyTuple_GET_ITEM(bonus, 0), in->all);
    in->ura = dora_of_objects(PyTuple_GET_ITEM(bonus, 1), in->all);
    long red_fives = PyLong_Check(red) ? PyLong_AsLong(red) : -1;
    in->kiriage = PyObject_IsTrue(PyTuple_GET_ITEM(options, 1));
    in->sanbaiman = PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(options, 0), "sanbaiman") == 0;
    in->red_fives = (int)red_fives;
    return in->dora >= 0 && in->ura >= 0 && red_fives >= 0 && red_fives <= 4 && in->kiriage >= 0;
}

/* (hu, han, fu, ((yaku key, han), ...), basic points, limit name, reason). */
static PyObject *value_tuple(const Value *v) {
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
    const char *limit = limit_name(v, name, sizeof name);
    return Py_BuildValue("(OiiNisi)", v->hu ? Py_True : Py_False, v->han, v->fu, yaku, v->basic, limit, v->reason);
}

/* hand_value(melds, standing, win, facts, bonus, options): see the file's comment. */
static PyObject *hand_value(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "hand_value(melds, standing, win, facts, bonus, options)");
        return NULL;
    }
    Input in;
    memset(&in, 0, sizeof in);
    Value v;
    if (read_objects(args, &in) && evaluate(&in, &v)) return value_tuple(&v);
    if (PyErr_Occurred()) PyErr_Clear();
    Py_RETURN_NONE;
}

/* --- settle: a whole decoded ``mjtable settle`` request of the plain shape, to its answer text --------------------
 * The plain shape: rules "riichi", the query score (or none), the scoring options alone (open_tanyao, red_fives,
 * double_yakuman, counted_yakuman, kiriage, renhou), the hand, melds and winning tile as runs of ranks and a suit
 * letter, and the situation keys of a win (no pao, no table keys, honba and sticks below a million). Anything else,
 * and anything the pure path refuses (every check of engine/settle/request.py, melds.py, engine/rulesets/terms.py
 * WinContext, riichi/answer.py with_red_fives and riichi/situation.py), is declined: None, and the pure path answers
 * it. The text is byte for byte json.dumps(settle_object(request), ensure_ascii=False) (engine/settle/answer.py). */

#define MAX_COUNTER 1000000
#define MAX_INDICATORS 5

static PyObject *NAME_TEXTS[YAKU_COUNT][2]; /* each yaku's name_ja and name_en as JSON strings (configure) */
static PyObject *REASON_TEXTS[2];           /* no winning shape, no yaku: JSON strings */

static const char *const TOP_KEYS[] = {"rules", "options", "hand", "melds", "win_tile", "situation", "query"};
enum { K_RULES, K_OPTIONS, K_HAND, K_MELDS, K_WIN, K_SITUATION, K_QUERY, TOP_COUNT };
static const char *const OPTION_KEYS[] = {"open_tanyao", "red_fives", "double_yakuman", "counted_yakuman",
                                          "kiriage", "renhou"};
enum { O_OPEN_TANYAO, O_RED_FIVES, O_DOUBLE_YAKUMAN, O_COUNTED, O_KIRIAGE, O_RENHOU, OPTION_COUNT };
static const char *const SITUATION_KEYS[] = {
    "winner", "dealer", "discarder", "round_wind", "after_kong", "robbing_kong", "last_tile", "first_turn",
    "riichi", "double_riichi", "ippatsu", "honba", "riichi_sticks", "dora_indicators", "ura_dora_indicators"};
enum {
    S_WINNER, S_DEALER, S_DISCARDER, S_ROUND, S_AFTER_KONG, S_ROBBING_KONG, S_LAST_TILE, S_FIRST_TURN, S_RIICHI,
    S_DOUBLE_RIICHI, S_IPPATSU, S_HONBA, S_STICKS, S_DORA, S_URA, SITUATION_COUNT
};

/* Each value of ``dict`` (an exact dict) by its key's index in ``names``, NULL where absent; 0 for another key. */
static int read_keys(PyObject *dict, const char *const *names, int n, PyObject **values) {
    if (!PyDict_CheckExact(dict)) return 0;
    memset(values, 0, n * sizeof *values);
    Py_ssize_t pos = 0, size;
    PyObject *key, *value;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        const char *text = PyUnicode_CheckExact(key) ? PyUnicode_AsUTF8AndSize(key, &size) : NULL;
        int found = -1;
        for (int i = 0; text && i < n && found < 0; i++)
            if ((Py_ssize_t)strlen(names[i]) == size && memcmp(text, names[i], size) == 0) found = i;
        if (found < 0) return 0;
        values[found] = value;
    }
    return 1;
}

/* A JSON true/false, ``fallback`` when absent; -1 for anything else. */
static int boolean(PyObject *value, int fallback) {
    if (!value) return fallback;
    return value == Py_True ? 1 : value == Py_False ? 0 : -1;
}

/* An exact int in [0, most], ``fallback`` when absent (or null where ``fallback`` >= 0); -1 for anything else. */
static long whole(PyObject *value, long most, long fallback) {
    if (!value || (value == Py_None && fallback >= 0)) return fallback;
    if (!PyLong_CheckExact(value)) return -1;
    int overflow;
    long n = PyLong_AsLongAndOverflow(value, &overflow);
    return overflow || n < 0 || n > most ? -1 : n;
}

/* The exact str ``value``'s ASCII text, or NULL. */
static const char *ascii(PyObject *value, Py_ssize_t *size) {
    if (!value || !PyUnicode_CheckExact(value) || !PyUnicode_IS_ASCII(value)) return NULL;
    *size = PyUnicode_GET_LENGTH(value);
    return (const char *)PyUnicode_DATA(value);
}

static int equals(const char *text, Py_ssize_t size, const char *word) {
    return (Py_ssize_t)strlen(word) == size && memcmp(text, word, size) == 0;
}

/* Whether ``value`` is the exact str ``word``. */
static int is_word(PyObject *value, const char *word) {
    Py_ssize_t size;
    const char *text = ascii(value, &size);
    return text && equals(text, size, word);
}

/* Tiles of runs of ranks and a suit letter (``123m0p77z``), at most ``most``; rank 0 a red five, counted per suit
 * in ``red``. -1 for any other text (read_riichi_tiles then reads it whole, or refuses it). */
static int read_tiles(const char *text, Py_ssize_t size, int *tiles, int most, int *red) {
    int n = 0;
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        char c = text[i];
        if (c >= '0' && c <= '9') continue;
        const char *letter = c ? strchr("mpsz", c) : NULL;
        if (!letter || i == start) return -1;
        int suit = (int)(letter - "mpsz");
        for (Py_ssize_t j = start; j < i; j++) {
            int rank = text[j] - '0';
            if ((suit == 3 && (rank < 1 || rank > 7)) || n == most) return -1;
            red[suit] += rank == 0;
            tiles[n++] = 9 * suit + (rank ? rank : 5) - 1;
        }
        start = i + 1;
    }
    return start == size ? n : -1;
}

static int compare_ints(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* One meld string kind:tiles:origin (engine/settle/melds.py) as a group; 0 for anything melds.py refuses or
 * anything else. */
static int read_meld(PyObject *item, Group *g, int *red) {
    Py_ssize_t size;
    const char *text = ascii(item, &size);
    const char *first = text ? memchr(text, ':', size) : NULL;
    const char *second = first ? memchr(first + 1, ':', size - (first + 1 - text)) : NULL;
    if (!second || memchr(second + 1, ':', size - (second + 1 - text))) return 0;
    Py_ssize_t kind_size = first - text, tiles_size = second - first - 1, origin_size = size - (second + 1 - text);
    const char *origin = second + 1;
    int kind = equals(text, kind_size, "chi") ? 0 : equals(text, kind_size, "pon") ? 1
               : equals(text, kind_size, "kan") ? 2 : equals(text, kind_size, "kakan") ? 3 : -1;
    if (kind < 0) return 0;
    int tiles[4], n = read_tiles(first + 1, tiles_size, tiles, 4, red), want = kind < 2 ? 3 : 4;
    if (n != want) return 0;
    qsort(tiles, n, sizeof *tiles, compare_ints);
    int concealed = kind == 2 && equals(origin, origin_size, "concealed");
    int left = equals(origin, origin_size, "from=left");
    int other = equals(origin, origin_size, "from=opposite") || equals(origin, origin_size, "from=right");
    if (!concealed && !left && !other) return 0;
    if (kind == 0) {
        if (!left || tiles[0] >= 27 || tiles[0] % 9 > 6 || tiles[1] != tiles[0] + 1 || tiles[2] != tiles[0] + 2)
            return 0;
        *g = (Group){CHI, tiles[0], 0};
        return 1;
    }
    for (int i = 1; i < n; i++)
        if (tiles[i] != tiles[0]) return 0;
    *g = (Group){kind == 1 ? PON : KAN, tiles[0], concealed};
    return 1;
}

/* The seats and counters of the answer's payments. */
typedef struct { int winner, dealer, discarder; long honba, sticks; } Table;

/* The request's hand, situation and options into ``in`` and ``table``: 0 for anything the plain shape is not. */
static int read_request(PyObject *data, Input *in, Table *table) {
    PyObject *top[TOP_COUNT], *opt[OPTION_COUNT] = {NULL}, *sit[SITUATION_COUNT];
    Py_ssize_t size;
    const char *text;
    if (!read_keys(data, TOP_KEYS, TOP_COUNT, top) || !is_word(top[K_RULES], "riichi") ||
        (top[K_QUERY] && !is_word(top[K_QUERY], "score")) ||
        (top[K_OPTIONS] && !read_keys(top[K_OPTIONS], OPTION_KEYS, OPTION_COUNT, opt)) || !top[K_SITUATION] ||
        !read_keys(top[K_SITUATION], SITUATION_KEYS, SITUATION_COUNT, sit))
        return 0;
    /* the options */
    Facts *f = &in->facts;
    int red_option = boolean(opt[O_RED_FIVES], 0);
    f->open_tanyao = boolean(opt[O_OPEN_TANYAO], 1);
    f->double_yakuman = boolean(opt[O_DOUBLE_YAKUMAN], 0);
    in->kiriage = boolean(opt[O_KIRIAGE], 0);
    if (red_option < 0 || f->open_tanyao < 0 || f->double_yakuman < 0 || in->kiriage < 0) return 0;
    PyObject *counted = opt[O_COUNTED], *renhou = opt[O_RENHOU];
    in->sanbaiman = counted && is_word(counted, "sanbaiman");
    if (counted && !in->sanbaiman && !is_word(counted, "yakuman")) return 0;
    f->renhou = !renhou ? 0 : is_word(renhou, "yakuman") ? 1 : is_word(renhou, "han5") ? 2 : 0;
    if (renhou && !f->renhou && !is_word(renhou, "none")) return 0;
    /* the tiles: hand, melds, winning tile */
    int red[4] = {0}, standing[14], win[2], n;
    if (top[K_HAND]) {
        if (!(text = ascii(top[K_HAND], &size)) || (n = read_tiles(text, size, standing, 13, red)) < 0) return 0;
    } else n = 0;
    PyObject *melds = top[K_MELDS];
    if (melds && (!PyList_CheckExact(melds) || PyList_GET_SIZE(melds) > 4)) return 0;
    in->nmelds = melds ? (int)PyList_GET_SIZE(melds) : 0;
    int kans = 0, closed = 1;
    for (int i = 0; i < in->nmelds; i++) {
        if (!read_meld(PyList_GET_ITEM(melds, i), &in->melds[i], red)) return 0;
        kans += in->melds[i].kind == KAN;
        closed &= in->melds[i].kind == KAN && in->melds[i].concealed;
    }
    if (!(text = ascii(top[K_WIN], &size)) || read_tiles(text, size, win, 1, red) != 1) return 0;
    if (n != 13 - 3 * in->nmelds) return 0;
    for (int i = 0; i < n; i++) in->counts[standing[i]]++;
    in->win = win[0];
    in->counts[in->win]++;
    if (!count_all(in)) return 0;
    for (int s = 0; s < 3; s++) {
        if (red[s] > 1) return 0;
        in->red_fives += red[s];
    }
    if (red[3] || (in->red_fives && !red_option)) return 0;
    /* the situation */
    table->winner = (int)whole(sit[S_WINNER], 3, -1);
    table->dealer = (int)whole(sit[S_DEALER], 3, -1);
    table->discarder = (int)whole(sit[S_DISCARDER], 3, 4);
    table->honba = whole(sit[S_HONBA], MAX_COUNTER, 0);
    table->sticks = whole(sit[S_STICKS], MAX_COUNTER, 0);
    if (table->winner < 0 || table->dealer < 0 || table->discarder < 0 || table->discarder == table->winner ||
        table->honba < 0 || table->sticks < 0)
        return 0;
    if (table->discarder == 4) table->discarder = -1;
    int round = 0;
    if (sit[S_ROUND]) {
        if ((text = ascii(sit[S_ROUND], &size))) {
            const char *letter = size == 1 && text[0] ? strchr("ESWN", text[0]) : NULL;
            if (!letter) return 0;
            round = (int)(letter - "ESWN");
        } else if ((round = (int)whole(sit[S_ROUND], 3, -1)) < 0) return 0;
    }
    int riichi = boolean(sit[S_RIICHI], 0), double_riichi = boolean(sit[S_DOUBLE_RIICHI], 0);
    f->ippatsu = boolean(sit[S_IPPATSU], 0);
    f->rinshan = boolean(sit[S_AFTER_KONG], 0);
    f->chankan = boolean(sit[S_ROBBING_KONG], 0);
    f->last_tile = boolean(sit[S_LAST_TILE], 0);
    f->first_turn = boolean(sit[S_FIRST_TURN], 0);
    if (riichi < 0 || double_riichi < 0 || f->ippatsu < 0 || f->rinshan < 0 || f->chankan < 0 || f->last_tile < 0 ||
        f->first_turn < 0)
        return 0;
    f->closed = closed;
    f->self_drawn = table->discarder < 0;
    f->kans = kans;
    f->seat_wind = EAST + (table->winner - table->dealer + 4) % 4;
    f->round_wind = EAST + round;
    f->dealer = table->winner == table->dealer;
    f->riichi = riichi && !double_riichi;
    f->double_riichi = double_riichi;
    if ((riichi || double_riichi) && !closed) return 0;
    if (f->ippatsu && !(riichi || double_riichi)) return 0;
    if (f->rinshan && (!f->self_drawn || !kans)) return 0;
    if (f->last_tile && (f->rinshan || f->chankan)) return 0;
    if (f->chankan && f->self_drawn) return 0;
    /* the indicators, each counted against the hand's copies */
    int dora[MAX_INDICATORS], ura[MAX_INDICATORS], nd = 0, nu = 0, seen[34], ignored[4] = {0};
    if (sit[S_DORA] && (!(text = ascii(sit[S_DORA], &size)) ||
                        (nd = read_tiles(text, size, dora, MAX_INDICATORS, ignored)) < 0))
        return 0;
    if (sit[S_URA] && (!(text = ascii(sit[S_URA], &size)) ||
                       (nu = read_tiles(text, size, ura, MAX_INDICATORS, ignored)) < 0))
        return 0;
    if (nu && !(riichi || double_riichi)) return 0;
    memcpy(seen, in->all, sizeof seen);
    for (int i = 0; i < nd + nu; i++)
        if (++seen[i < nd ? dora[i] : ura[i - nd]] > 4) return 0;
    in->dora = dora_count(dora, nd, in->all);
    in->ura = dora_count(ura, nu, in->all);
    return 1;
}

/* The answer text, built in a fixed buffer: ``full`` when it did not fit (the line is then declined). */
typedef struct { char data[16384]; size_t n; int full; } Text;

static void put(Text *t, const char *s, size_t n) {
    if (t->n + n > sizeof t->data) {
        t->full = 1;
        return;
    }
    memcpy(t->data + t->n, s, n);
    t->n += n;
}

static void put_text(Text *t, const char *s) { put(t, s, strlen(s)); }

static void put_object(Text *t, PyObject *text) {
    Py_ssize_t size;
    const char *s = PyUnicode_AsUTF8AndSize(text, &size);
    if (s) put(t, s, size);
    else t->full = 1;
}

static void put_int(Text *t, long n) {
    char digits[24];
    put(t, digits, snprintf(digits, sizeof digits, "%ld", n));
}

static void put_seats(Text *t, const long *amounts) {
    for (int seat = 0; seat < 4; seat++) {
        char key[8];
        put(t, key, snprintf(key, sizeof key, seat ? ", \"%d\": " : "{\"%d\": ", seat));
        put_int(t, amounts[seat]);
    }
    put_text(t, "}");
}

static long up(long points) { return (points + 99) / 100 * 100; }

/* The hand, honba and riichi-stick parts of a win's payments (riichi/answer.py _parts, points.py hand_payments). */
static void payments(const Table *table, int basic, long hand[4], long honba[4], long sticks[4]) {
    int winner = table->winner, dealer = table->dealer;
    for (int seat = 0; seat < 4; seat++) {
        int pays = table->discarder < 0 ? seat != winner : seat == table->discarder;
        long owed = 0, extra = 0;
        if (pays && table->discarder >= 0) {
            owed = up((long)basic * (winner == dealer ? 6 : 4));
            extra = 300 * table->honba;
        } else if (pays) {
            owed = up((long)basic * (dealer == winner || dealer == seat ? 2 : 1));
            extra = 100 * table->honba;
        }
        hand[seat] -= owed;
        hand[winner] += owed;
        honba[seat] -= extra;
        honba[winner] += extra;
    }
    sticks[winner] = 1000 * table->sticks;
}

static void write_answer(Text *t, const Value *v, const Table *table) {
    long hand[4] = {0}, honba[4] = {0}, sticks[4] = {0}, total[4];
    put_text(t, v->hu ? "{\"hu\": true, \"payments\": " : "{\"hu\": false, \"payments\": null");
    if (v->hu) {
        payments(table, v->basic, hand, honba, sticks);
        for (int seat = 0; seat < 4; seat++) total[seat] = hand[seat] + honba[seat] + sticks[seat];
        put_seats(t, total);
    }
    put_text(t, ", \"total\": ");
    put_int(t, v->han);
    put_text(t, ", \"fans\": [");
    for (int i = 0; i < v->yaku.n; i++) {
        put_text(t, i ? ", {\"name_zh\": " : "{\"name_zh\": ");
        put_object(t, NAME_TEXTS[v->yaku.entries[i].id][0]);
        put_text(t, ", \"value\": ");
        put_int(t, v->yaku.entries[i].han);
        put_text(t, "}");
    }
    put_text(t, "]");
    if (v->reason) {
        put_text(t, ", \"reason\": ");
        put_object(t, REASON_TEXTS[v->reason - 1]);
    }
    put_text(t, ", \"han\": ");
    put_int(t, v->han);
    put_text(t, ", \"fu\": ");
    put_int(t, v->fu);
    put_text(t, ", \"yaku\": [");
    for (int i = 0; i < v->yaku.n; i++) {
        int id = v->yaku.entries[i].id;
        put_text(t, i ? ", {\"key\": \"" : "{\"key\": \"");
        put_text(t, KEYS[id]);
        put_text(t, "\", \"name_ja\": ");
        put_object(t, NAME_TEXTS[id][0]);
        put_text(t, ", \"name_en\": ");
        put_object(t, NAME_TEXTS[id][1]);
        put_text(t, ", \"han\": ");
        put_int(t, v->yaku.entries[i].han);
        put_text(t, "}");
    }
    char name[32];
    put_text(t, "], \"limit\": \"");
    put_text(t, limit_name(v, name, sizeof name));
    put_text(t, "\", \"basic_points\": ");
    put_int(t, v->basic);
    if (v->hu) {
        put_text(t, ", \"breakdown\": {\"hand\": ");
        put_seats(t, hand);
        put_text(t, ", \"honba\": ");
        put_seats(t, honba);
        put_text(t, ", \"riichi_sticks\": ");
        put_seats(t, sticks);
        put_text(t, "}");
    }
    put_text(t, "}");
}

/* settle(request): the answer text of a decoded request of the plain shape, None for the pure path. */
static PyObject *settle(PyObject *self, PyObject *data) {
    (void)self;
    Input in;
    Table table;
    Value v;
    static Text text;
    memset(&in, 0, sizeof in);
    text.n = 0;
    text.full = 0;
    if (REASON_TEXTS[0] && read_request(data, &in, &table) && evaluate(&in, &v)) {
        write_answer(&text, &v, &table);
        if (!text.full) return PyUnicode_DecodeUTF8(text.data, (Py_ssize_t)text.n, NULL);
    }
    if (PyErr_Occurred()) PyErr_Clear();
    Py_RETURN_NONE;
}

/* configure(names, reasons): each yaku key's (name_ja, name_en) and the two reasons of a no-win, as JSON strings
 * (engine/rulesets/riichi/line.py gives them from the yaku table, so they are written here once, never copied). */
static PyObject *configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *names;
    if (!PyArg_ParseTuple(args, "O!(UU)", &PyDict_Type, &names, &REASON_TEXTS[0], &REASON_TEXTS[1])) return NULL;
    Py_INCREF(REASON_TEXTS[0]);
    Py_INCREF(REASON_TEXTS[1]);
    for (int i = 0; i < YAKU_COUNT; i++) {
        PyObject *pair = PyDict_GetItemString(names, KEYS[i]);
        if (!pair || !PyArg_ParseTuple(pair, "UU", &NAME_TEXTS[i][0], &NAME_TEXTS[i][1])) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_KeyError, "no names of the yaku %s", KEYS[i]);
            REASON_TEXTS[0] = NULL;
            return NULL;
        }
        Py_INCREF(NAME_TEXTS[i][0]);
        Py_INCREF(NAME_TEXTS[i][1]);
    }
    Py_RETURN_NONE;
}

static PyMethodDef METHODS[] = {
    {"hand_value", (PyCFunction)(void (*)(void))hand_value, METH_FASTCALL,
     "The best reading's (hu, han, fu, yaku, basic, limit name, reason) of a riichi hand, None for the pure path."},
    {"settle", settle, METH_O, "A decoded settle request's answer text, None for the pure path."},
    {"configure", configure, METH_VARARGS, "The yaku names and no-win reasons as JSON strings, for settle."},
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
