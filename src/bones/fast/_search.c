/*
 * bones.fast._search: the expert bot's evaluation of one sampled deal, in C.
 *
 * This is bones.ai.position.Position (play, undo, moves) and bones.ai.expert.Judge (value,
 * playout, solve) written again in C, so that the expert can evaluate many more deals in its
 * budget. For every root move it does what ExpertBot.choose does for one deal: play the
 * move, solve the rest exactly while `exact` holds (a solve that runs out of nodes turns
 * `exact` off for the later root moves too), else play it out heavy-tile-first, and undo.
 * evaluate_sights does the same a few of the bot's turns further on, and sums the values
 * over deals by what the bot will have seen (Sights), so that it chooses its later plays
 * without seeing the deal.
 *
 * Agreement with the Python code is exact where the Python code is deterministic:
 *   - moves are generated in Position's order (for arm 0..3, tiles ascending; the first
 *     tile of a hand uses arm 0 and the opening rule), so the search visits the same nodes;
 *   - the transposition table keeps every entry of a solve, as Judge's dict does (it grows
 *     instead of replacing), so node counts, and with them `steps` and the node-limit
 *     fallbacks, are the same; it is keyed by a 64-bit Zobrist hash of the Python key
 *     (hands, arms, spinner, waiting, to_move, drawn) rather than the key itself;
 *   - values are computed with the same floating-point operations in the same order.
 * Playouts break ties between equally heavy plays with their own generator (xoshiro256**
 * seeded from `seed` by splitmix64), so they agree with Judge.playout only on deals where
 * no tie arises.
 *
 * The opponent model is Judge's: per seat a beta and a double bonus, a play scored
 * beta * pips (+ the bonus for a double), and a play whose weight exp(score - best score) is
 * below MIN_WEIGHT (Judge's NEGLIGIBLE) neither searched nor weighed. A solve that runs out of nodes leaves the position as it found it, as
 * Judge.solve does, so the playout that replaces it starts from the root move's position.
 *
 * The search runs without the GIL, on state allocated per call (no globals, so calls from
 * several threads at once are safe). A line deeper than MAX_DEPTH moves counts as running
 * out of nodes: a guard for the C stack, far beyond the length of any hand worth solving.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAX_TOP 18
#define MAX_TILES ((MAX_TOP + 1) * (MAX_TOP + 2) / 2)
#define MAX_WORDS ((MAX_TILES + 63) / 64)
/* Every seat holds at least one tile when dealt. */
#define MAX_SEATS MAX_TILES
/* Plays of one seat at most: every tile of the set on every arm. */
#define MAX_MOVES (4 * MAX_TILES)
#define MAX_DEPTH 10000
/* A child of an opponent's turn lighter than this (relative to its heaviest play) is left
 * out of the expectation: it could move the value by at most this much per unit weight. */
#define MIN_WEIGHT 1e-6
/* First sizes of the table (entries, a power of two) and of the move stack (at least
 * MAX_MOVES); both grow as needed. Build with smaller ones to exercise the growing. */
#ifndef TABLE_START
#define TABLE_START 1024
#endif
#ifndef MOVE_STACK
#define MOVE_STACK (8 * MAX_MOVES)
#endif

enum { DRAW = -1, PASS = -2 };
/* How a hand stands (Position.status): bones.engine.scoring's PLAYING, OUT and BLOCKED (the
 * module exports these, and bones.fast.search uses it only when they agree). */
enum { PLAYING = 0, OUT = 1, BLOCKED = 2 };
enum { SCORE_OTHERS_MINUS_OWN = 0, SCORE_OTHERS = 1 };
enum { ABORT_NONE = 0, ABORT_NODES = 1, ABORT_STUCK = 2, ABORT_MEMORY = 3 };

/* ---- the constants of one decision (an immutable Python object) ------------------------- */

typedef struct {
    PyObject_HEAD
    int top, tiles, nw, players, n_sides, side;
    int draw, reserve, call_block, first_double, score_kind, model;
    long long target, node_limit;
    double points_weight, game_weight;
    int side_of[MAX_SEATS];
    long long scores[MAX_SEATS];  /* per side */
    double betas[MAX_SEATS];      /* per seat */
    double doubles[MAX_SEATS];    /* per seat: the log-odds bonus for playing a double */
    uint8_t high[MAX_TILES], low[MAX_TILES], pips[MAX_TILES];
    uint64_t showing[MAX_TOP + 1][MAX_WORDS];  /* per number, the tiles showing it */
} Spec;

static PyTypeObject SpecType;

/* ---- a position (Position's fields, hands as words of tile bits) ------------------------- */

typedef struct {
    int arms[4];
    int spinner, waiting, to_move, drawn, status, winner;
    int passes;       /* consecutive passes: `players` of them means the hand cannot end */
    uint64_t zh;      /* Zobrist hash of the hands */
    uint64_t placed[MAX_WORDS];
    int count[MAX_SEATS];                  /* pips in each hand */
    uint64_t hands[MAX_SEATS][MAX_WORDS];
} Pos;

/* What play() changes that undo() cannot work out again. */
typedef struct {
    int move, seat, arms[4], spinner, waiting, status, drawn, winner, passes;
} Undo;

typedef struct {
    uint64_t key;
    double value;
    int32_t kind;   /* 0 exact, 1 lower bound, -1 upper bound */
    uint32_t full;  /* 1 once stored: a zeroed slot is empty */
} Entry;

typedef struct {
    const Spec *s;
    int opening, n_bone;
    uint8_t bone[MAX_TILES];
    Pos pos, scratch;
    /* the exact search */
    long long nodes;
    int abort;
    Entry *table;
    size_t cap, used;
    int16_t *mv;     /* the moves of every node on the current line, stacked */
    size_t mv_cap, mv_top;
    /* playouts */
    uint64_t rng[4];
    long long steps;
    long long budget;  /* evaluate_sights: steps after which it stops solving */
} Ctx;

/* ---- small helpers ---------------------------------------------------------------------- */

static inline int
ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* The splitmix64 finaliser: a bijection of 64-bit words that scatters nearby inputs. */
static inline uint64_t
mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The Zobrist key of `tile` in `seat`'s hand. */
static inline uint64_t
zobrist(int seat, int tile)
{
    return mix64(((uint64_t)seat << 8 | (uint64_t)tile) + 0x9e3779b97f4a7c15ULL);
}

static inline uint64_t
splitmix64(uint64_t *x)
{
    *x += 0x9e3779b97f4a7c15ULL;
    return mix64(*x);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** */
static inline uint64_t
next_random(uint64_t *s)
{
    const uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1, without bias. */
static inline int
random_below(uint64_t *s, int n)
{
    const uint64_t bound = (uint64_t)n, threshold = (0 - bound) % bound;
    for (;;) {
        uint64_t r = next_random(s);
        if (r >= threshold)
            return (int)(r % bound);
    }
}

/* ---- Position ---------------------------------------------------------------------------- */

static inline int
hand_empty(const Spec *s, const Pos *p, int seat)
{
    for (int w = 0; w < s->nw; w++)
        if (p->hands[seat][w])
            return 0;
    return 1;
}

/* Position.plays, or else the forced draw or pass, into `out`; returns how many. */
static int
gen_moves(const Ctx *c, const Pos *p, int16_t *out)
{
    const Spec *s = c->s;
    const uint64_t *hand = p->hands[p->to_move];
    int n = 0;
    if (p->arms[0] < 0) {
        if (c->opening >= 0) {
            if (hand[c->opening >> 6] >> (c->opening & 63) & 1)
                out[n++] = (int16_t)(c->opening * 4);
        } else {
            for (int w = 0; w < s->nw; w++)
                for (uint64_t m = hand[w]; m; m &= m - 1)
                    out[n++] = (int16_t)((w * 64 + ctz64(m)) * 4);
        }
    } else {
        for (int arm = 0; arm < 4; arm++) {
            const int number = p->arms[arm];
            if (number < 0)
                continue;
            for (int w = 0; w < s->nw; w++)
                for (uint64_t m = hand[w] & s->showing[number][w]; m; m &= m - 1)
                    out[n++] = (int16_t)((w * 64 + ctz64(m)) * 4 + arm);
        }
    }
    if (n)
        return n;
    out[0] = (int16_t)(s->draw && c->n_bone - p->drawn > s->reserve ? DRAW : PASS);
    return 1;
}

/* Position._dead: no tile showing an open number is left off the layout. */
static int
dead(const Spec *s, const Pos *p)
{
    for (int arm = 0; arm < 4; arm++) {
        const int a = p->arms[arm];
        if (a < 0)
            continue;
        for (int w = 0; w < s->nw; w++)
            if (s->showing[a][w] & ~p->placed[w])
                return 0;
    }
    return 1;
}

/* Position._check_blocked. */
static void
check_blocked(const Ctx *c, Pos *p)
{
    const Spec *s = c->s;
    uint64_t reach[MAX_WORDS] = {0};
    if (s->draw && c->n_bone - p->drawn > s->reserve)
        return;
    for (int arm = 0; arm < 4; arm++)
        if (p->arms[arm] >= 0)
            for (int w = 0; w < s->nw; w++)
                reach[w] |= s->showing[p->arms[arm]][w];
    for (int seat = 0; seat < s->players; seat++)
        for (int w = 0; w < s->nw; w++)
            if (p->hands[seat][w] & reach[w])
                return;
    p->status = BLOCKED;
}

/* Position.play: apply a legal move, saving in `u` what undo() needs. */
static void
play(const Ctx *c, Pos *p, int move, Undo *u)
{
    const Spec *s = c->s;
    const int seat = p->to_move;
    u->move = move;
    u->seat = seat;
    memcpy(u->arms, p->arms, sizeof u->arms);
    u->spinner = p->spinner;
    u->waiting = p->waiting;
    u->status = p->status;
    u->drawn = p->drawn;
    u->winner = p->winner;
    u->passes = p->passes;
    if (move == DRAW) {
        const int t = c->bone[p->drawn];
        p->hands[seat][t >> 6] |= 1ULL << (t & 63);
        p->count[seat] += s->pips[t];
        p->zh ^= zobrist(seat, t);
        p->drawn++;
        p->passes = 0;
        check_blocked(c, p);
        return;
    }
    if (move == PASS) {
        p->to_move = (seat + 1) % s->players;
        p->passes++;
        return;
    }
    const int tile = move >> 2, arm = move & 3;
    const int high = s->high[tile], low = s->low[tile];
    p->hands[seat][tile >> 6] &= ~(1ULL << (tile & 63));
    p->placed[tile >> 6] |= 1ULL << (tile & 63);
    p->count[seat] -= s->pips[tile];
    p->zh ^= zobrist(seat, tile);
    if (p->arms[0] < 0) {
        p->arms[0] = high;
        p->arms[1] = low;
        if (s->first_double && high == low) {
            p->spinner = high;
            p->waiting = 3;
        }
    } else {
        const int number = p->arms[arm];
        p->arms[arm] = high == number ? low : high;
        if (p->spinner >= 0 && (p->waiting & (1 << arm))) {
            p->waiting &= ~(1 << arm);
            if (!p->waiting)
                p->arms[2] = p->arms[3] = p->spinner;
        } else if (p->spinner < 0 && s->first_double && high == low) {
            p->spinner = high;
            p->waiting = 1 << arm;
        }
    }
    p->to_move = (seat + 1) % s->players;
    p->passes = 0;
    if (hand_empty(s, p, seat)) {
        p->status = OUT;
        p->winner = seat;
    } else if (s->call_block && dead(s, p)) {
        p->status = BLOCKED;
    } else {
        check_blocked(c, p);
    }
}

/* Position.undo of the move saved in `u`. */
static void
undo(const Ctx *c, Pos *p, const Undo *u)
{
    const Spec *s = c->s;
    const int seat = u->seat;
    memcpy(p->arms, u->arms, sizeof p->arms);
    p->spinner = u->spinner;
    p->waiting = u->waiting;
    p->status = u->status;
    p->drawn = u->drawn;
    p->winner = u->winner;
    p->passes = u->passes;
    p->to_move = seat;
    if (u->move == DRAW) {
        const int t = c->bone[p->drawn];
        p->hands[seat][t >> 6] &= ~(1ULL << (t & 63));
        p->count[seat] -= s->pips[t];
        p->zh ^= zobrist(seat, t);
    } else if (u->move != PASS) {
        const int tile = u->move >> 2;
        p->hands[seat][tile >> 6] |= 1ULL << (tile & 63);
        p->placed[tile >> 6] &= ~(1ULL << (tile & 63));
        p->count[seat] += s->pips[tile];
        p->zh ^= zobrist(seat, tile);
    }
}

static void
copy_pos(const Spec *s, Pos *to, const Pos *from)
{
    memcpy(to, from, offsetof(Pos, count));
    memcpy(to->count, from->count, sizeof(int) * (size_t)s->players);
    memcpy(to->hands, from->hands, sizeof from->hands[0] * (size_t)s->players);
}

/* ---- Judge ------------------------------------------------------------------------------- */

/* Judge.value of a finished hand. */
static double
value(const Spec *s, const Pos *p)
{
    int counts[MAX_SEATS], winner, total = 0;
    memset(counts, 0, sizeof(int) * (size_t)s->n_sides);
    for (int seat = 0; seat < s->players; seat++)
        counts[s->side_of[seat]] += p->count[seat];
    if (p->status == OUT) {
        winner = s->side_of[p->winner];
    } else {
        int low = counts[0], ties = 1;
        winner = 0;
        for (int k = 1; k < s->n_sides; k++) {
            if (counts[k] < low) {
                low = counts[k];
                winner = k;
                ties = 1;
            } else if (counts[k] == low) {
                ties++;
            }
        }
        if (ties > 1)
            return 0.0;
    }
    for (int k = 0; k < s->n_sides; k++)
        total += counts[k];
    int points = total - counts[winner];
    if (s->score_kind == SCORE_OTHERS_MINUS_OWN) {
        points = total - 2 * counts[winner];
        if (points < 0)
            points = 0;
    }
    const double sign = winner == s->side ? 1.0 : -1.0;
    double v = sign * (1.0 + s->points_weight * (double)points);
    if (s->scores[winner] + points >= s->target)
        v += sign * s->game_weight;
    return v;
}

/* Judge.playout from c->pos (left as it was): every seat lays a heaviest playable tile. */
static double
playout(Ctx *c)
{
    const Spec *s = c->s;
    Pos *p = &c->scratch;
    int16_t moves[MAX_MOVES];
    long long depth = 0;
    Undo u;
    copy_pos(s, p, &c->pos);
    while (p->status == PLAYING) {
        if (p->passes >= s->players) {
            c->abort = ABORT_STUCK;
            return 0.0;
        }
        int n = gen_moves(c, p, moves), move = moves[0];
        if (n > 1) {
            int heaviest = -1, tied = 0;
            for (int i = 0; i < n; i++) {
                const int pips = s->pips[moves[i] >> 2];
                if (pips > heaviest) {
                    heaviest = pips;
                    tied = 0;
                }
                if (pips == heaviest)
                    moves[tied++] = moves[i];
            }
            move = tied == 1 ? moves[0] : moves[random_below(c->rng, tied)];
        }
        play(c, p, move, &u);
        depth++;
    }
    c->steps += depth + 1;
    return value(s, p);
}

/* -- the transposition table: open addressing, grown (never overwritten) like a dict -- */

static Entry *
slot(const Ctx *c, uint64_t key)
{
    const size_t mask = c->cap - 1;
    size_t i = (size_t)key & mask;
    while (c->table[i].full && c->table[i].key != key)
        i = (i + 1) & mask;
    return &c->table[i];
}

static int
table_grow(Ctx *c)
{
    const size_t old_cap = c->cap;
    Entry *old = c->table, *fresh = PyMem_RawCalloc(old_cap * 2, sizeof(Entry));
    if (fresh == NULL)
        return -1;
    c->table = fresh;
    c->cap = old_cap * 2;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].full)
            *slot(c, old[i].key) = old[i];
    PyMem_RawFree(old);
    return 0;
}

static int
table_store(Ctx *c, uint64_t key, double v, int kind)
{
    Entry *e = slot(c, key);
    if (!e->full) {
        if ((c->used + 1) * 2 > c->cap) {
            if (table_grow(c) < 0)
                return -1;
            e = slot(c, key);
        }
        c->used++;
        e->full = 1;
        e->key = key;
    }
    e->value = v;
    e->kind = kind;
    return 0;
}

/* Room on the move stack for one more node's moves; -1 without memory. */
static int
reserve_moves(Ctx *c)
{
    if (c->mv_top + MAX_MOVES <= c->mv_cap)
        return 0;
    size_t cap = c->mv_cap * 2;
    int16_t *grown = PyMem_RawRealloc(c->mv, cap * sizeof(int16_t));
    if (grown == NULL)
        return -1;
    c->mv = grown;
    c->mv_cap = cap;
    return 0;
}

/* The Python key's fields other than the hands, packed one-to-one into 45 bits. */
static inline uint64_t
state_key(const Pos *p)
{
    uint64_t k = 0;
    for (int arm = 0; arm < 4; arm++)
        k = k << 5 | (uint64_t)(p->arms[arm] + 1);
    k = k << 5 | (uint64_t)(p->spinner + 1);
    k = k << 4 | (uint64_t)p->waiting;
    k = k << 8 | (uint64_t)p->to_move;
    k = k << 8 | (uint64_t)p->drawn;
    return p->zh ^ mix64(k);
}

static double search(Ctx *c, double alpha, double beta, int depth);

/* How the seat to move scores a play under its model: beta * pips, plus its double bonus
 * for a double. Its weight among n plays is exp(score - the best score). */
static inline double
play_score(const Spec *s, int seat, int move)
{
    const int t = move >> 2;
    return s->betas[seat] * (double)s->pips[t] + (s->high[t] == s->low[t] ? s->doubles[seat] : 0.0);
}

/* Judge._expected: an opponent's turn as the mean of its plays, weighted by
 * exp(beta[seat] * (pips - heaviest)), each with a full window; light plays left out. */
static double
expected(Ctx *c, int depth)
{
    const Spec *s = c->s;
    Pos *p = &c->pos;
    Undo u;
    if (reserve_moves(c) < 0) {
        c->abort = ABORT_MEMORY;
        return 0.0;
    }
    /* The moves are read by index: deeper nodes may move the stack when they grow it. */
    const size_t base = c->mv_top;
    const int n = gen_moves(c, p, c->mv + base);
    if (n == 1) {
        play(c, p, c->mv[base], &u);
        const double v = search(c, -INFINITY, INFINITY, depth + 1);
        undo(c, p, &u);
        return v;
    }
    c->mv_top += (size_t)n;
    const int seat = p->to_move;
    double top = -INFINITY;
    for (int i = 0; i < n; i++) {
        const double score = play_score(s, seat, c->mv[base + i]);
        if (score > top)
            top = score;
    }
    double total = 0.0, weight_sum = 0.0;
    for (int i = 0; i < n; i++) {
        const int move = c->mv[base + i];
        const double weight = exp(play_score(s, seat, move) - top);
        if (weight < MIN_WEIGHT)
            continue;
        play(c, p, move, &u);
        const double v = search(c, -INFINITY, INFINITY, depth + 1);
        undo(c, p, &u);
        if (c->abort)
            break;
        total += weight * v;
        weight_sum += weight;
    }
    c->mv_top -= (size_t)n;
    return c->abort ? 0.0 : total / weight_sum;
}

/* Judge._search: fail-soft alpha-beta with the table's (value, kind). Sets c->abort and
 * returns 0 on running out of nodes (the position is unwound as it returns). */
static double
search(Ctx *c, double alpha, double beta, int depth)
{
    const Spec *s = c->s;
    Pos *p = &c->pos;
    Undo u;
    if (p->status != PLAYING)
        return value(s, p);
    if (++c->nodes > s->node_limit || depth > MAX_DEPTH) {
        c->abort = ABORT_NODES;
        return 0.0;
    }
    if (p->passes >= s->players) {
        c->abort = ABORT_STUCK;
        return 0.0;
    }
    const int maximise = s->side_of[p->to_move] == s->side;
    /* An opponent's turn that is an expectation is not stored (storing it costs more time
     * than the nodes it saves), so it is not looked up either: the lookup could not hit. */
    if (!maximise && s->model)
        return expected(c, depth);
    const uint64_t key = state_key(p);
    const Entry *e = slot(c, key);
    if (e->full) {
        const double v = e->value;
        if (e->kind == 0 || (e->kind > 0 && v >= beta) || (e->kind < 0 && v <= alpha))
            return v;
    }
    if (reserve_moves(c) < 0) {
        c->abort = ABORT_MEMORY;
        return 0.0;
    }
    const size_t base = c->mv_top;  /* (read by index, as in expected()) */
    const int n = gen_moves(c, p, c->mv + base);
    c->mv_top += (size_t)n;
    double a = alpha, b = beta, best = maximise ? -INFINITY : INFINITY;
    for (int i = 0; i < n; i++) {
        play(c, p, c->mv[base + i], &u);
        const double v = search(c, a, b, depth + 1);
        undo(c, p, &u);
        if (c->abort)
            break;
        if (maximise) {
            if (v > best)
                best = v;
            if (best > a)
                a = best;
        } else {
            if (v < best)
                best = v;
            if (best < b)
                b = best;
        }
        if (a >= b)
            break;
    }
    c->mv_top -= (size_t)n;
    if (c->abort)
        return 0.0;
    const int kind = best <= alpha ? -1 : best >= beta ? 1 : 0;
    if (table_store(c, key, best, kind) < 0)
        c->abort = ABORT_MEMORY;
    return best;
}

/* Judge.solve from c->pos: 0 with the value, or -1 with c->abort set (c->pos unwound). */
static int
solve(Ctx *c, double *out)
{
    if (c->table == NULL) {
        c->cap = TABLE_START;
        c->table = PyMem_RawCalloc(c->cap, sizeof(Entry));
        c->mv_cap = MOVE_STACK;
        c->mv = PyMem_RawMalloc(c->mv_cap * sizeof(int16_t));
        if (c->table == NULL || c->mv == NULL) {
            c->abort = ABORT_MEMORY;
            return -1;
        }
        /* One table serves every solve of the call, that is of one deal: a position's value
         * does not depend on the line that reached it, and the candidates' lines cross. */
        c->used = 0;
    }
    c->nodes = 0;
    c->mv_top = 0;
    *out = search(c, -INFINITY, INFINITY, 0);
    c->steps += c->nodes;
    return c->abort ? -1 : 0;
}

/* The loop body of ExpertBot.choose for one deal: values[i] for moves[i]. Returns whether
 * `exact` still holds at the end (no solve ran out of nodes). */
static int
evaluate_moves(Ctx *c, const int16_t *moves, int n, int exact, double *values)
{
    Undo u;
    for (int i = 0; i < n; i++) {
        double v = 0.0;
        int solved = 0;
        play(c, &c->pos, moves[i], &u);
        if (exact && c->steps >= c->budget)
            exact = 0;  /* the caller's budget is spent: play the rest out, which is cheap */
        if (exact) {
            solved = solve(c, &v) == 0;
            if (!solved) {
                if (c->abort != ABORT_NODES)
                    return exact;
                exact = 0;
                c->abort = ABORT_NONE;
            }
        }
        if (!solved) {
            v = playout(c);
            if (c->abort)
                return exact;
        }
        undo(c, &c->pos, &u);
        values[i] = v;
    }
    return exact;
}

/* ---- what the bot will have seen, summed over deals (a trie of sights) ----------------- */

/* The bot's information sets after each root move, grown deal by deal. A node is a
 * sequence of things the bot sees (public moves, its own draws with their tiles); a
 * decision node is one where the bot chooses, and its children are its moves. A node's
 * worth is its own leaf sum (hands that ended there, or the values of moves solved per
 * deal from there) plus, at a decision, its best child's worth, else all its children's:
 * the bot picks one move per thing it has seen, not per deal. Roots 0..n-1 are the root
 * moves. */

/* Symbols: a move as it is (PASS, DRAW, plays), the bot's own draw as OWN_DRAW + tile. */
#define OWN_DRAW 2048
/* The steps one walked position costs: it takes about twice the time of a node of a solve
 * (it finds or makes its sight in the trie). */
#define WALK_STEPS 2

typedef struct {
    int32_t first, next;   /* first child, next sibling (-1: none) */
    int32_t decision;      /* the bot chooses here: children are its moves */
    double leaf;
} SightNode;

typedef struct {
    uint64_t key;          /* (parent + 1) << 16 | (symbol + 4), 0 for an empty slot */
    int32_t node;
} SightSlot;

typedef struct {
    PyObject_HEAD
    int roots;
    SightNode *nodes;
    size_t n, cap;
    SightSlot *slots;
    size_t slot_cap;       /* a power of two, at least twice n */
} Sights;

static PyTypeObject SightsType;

static int
sights_reserve(Sights *t)
{
    if (t->n == t->cap) {
        const size_t cap = t->cap ? 2 * t->cap : 256;
        SightNode *grown = PyMem_RawRealloc(t->nodes, cap * sizeof(SightNode));
        if (grown == NULL)
            return -1;
        t->nodes = grown;
        t->cap = cap;
    }
    if (2 * (t->n + 1) > t->slot_cap) {
        const size_t cap = t->slot_cap ? 2 * t->slot_cap : 512;
        SightSlot *slots = PyMem_RawCalloc(cap, sizeof(SightSlot));
        if (slots == NULL)
            return -1;
        for (size_t i = 0; i < t->slot_cap; i++) {
            if (!t->slots[i].key)
                continue;
            size_t k = mix64(t->slots[i].key) & (cap - 1);
            while (slots[k].key)
                k = (k + 1) & (cap - 1);
            slots[k] = t->slots[i];
        }
        PyMem_RawFree(t->slots);
        t->slots = slots;
        t->slot_cap = cap;
    }
    return 0;
}

static int32_t
sights_new_node(Sights *t)
{
    SightNode *node = &t->nodes[t->n];
    node->first = node->next = -1;
    node->decision = 0;
    node->leaf = 0.0;
    return (int32_t)t->n++;
}

/* The child of `parent` by `symbol`, made if new; -1 out of memory. */
static int32_t
sights_child(Sights *t, int32_t parent, int symbol)
{
    if (sights_reserve(t) < 0)
        return -1;
    const uint64_t key = ((uint64_t)(parent + 1) << 16) | (uint64_t)(symbol + 4);
    size_t k = mix64(key) & (t->slot_cap - 1);
    while (t->slots[k].key) {
        if (t->slots[k].key == key)
            return t->slots[k].node;
        k = (k + 1) & (t->slot_cap - 1);
    }
    const int32_t child = sights_new_node(t);
    t->slots[k].key = key;
    t->slots[k].node = child;
    t->nodes[child].next = t->nodes[parent].first;
    t->nodes[parent].first = child;
    return child;
}

static double
sights_worth(const Sights *t, int32_t node)
{
    const SightNode *x = &t->nodes[node];
    double total = x->leaf, best = -INFINITY;
    for (int32_t c = x->first; c >= 0; c = t->nodes[c].next) {
        const double v = sights_worth(t, c);
        if (x->decision) {
            if (v > best)
                best = v;
        } else {
            total += v;
        }
    }
    return x->decision && x->first >= 0 ? total + best : total;
}

/* The bot's last turn walked: each of its moves valued as evaluate_moves() does and added,
 * times `chance`, to the move's child of the decision `node`. 0, or -1 with c->abort set.
 * (A function of its own, so that the values are not on the stack of every walk level.) */
static int
value_moves(Ctx *c, Sights *t, int32_t node, const int16_t *moves, int n, double chance,
            int *exact)
{
    double values[MAX_MOVES];
    *exact = evaluate_moves(c, moves, n, *exact, values);
    if (c->abort)
        return -1;
    t->nodes[node].decision = 1;
    for (int i = 0; i < n; i++) {
        const int32_t child = sights_child(t, node, moves[i]);
        if (child < 0) {
            c->abort = ABORT_MEMORY;
            return -1;
        }
        t->nodes[child].leaf += chance * values[i];
    }
    return 0;
}

/* From c->pos (the sight `node`), follow the deal through the bot's next `depth` turns on
 * which it plays, as the bot will meet them without seeing the deal: draws and passes as
 * they come, other seats' choices weighed as in expected() (each child's chance times
 * theirs), the bot's own draws seen with their tiles. On its last such turn every move is
 * valued as evaluate_moves() does (solved per deal, or played out) and added, times
 * `chance`, to that move's child; on earlier ones each move is followed in turn. A hand
 * that ends on the way adds its value to the sight where it ended. Every position walked
 * costs WALK_STEPS, and once the caller's budget is spent the walk branches no more: the
 * bot's moves are valued where it stands, and another seat's choice is played out. (A walk
 * through two of the bot's turns can be far larger than any budget: while it can only
 * pass, the other seat plays on.) -1 on failure (c->abort set); c->pos is left as it
 * was. */
static int
walk(Ctx *c, Sights *t, int32_t node, double chance, int *exact, int depth)
{
    const Spec *s = c->s;
    Pos *p = &c->pos;
    Undo u;
    int16_t moves[MAX_MOVES];
    c->steps += WALK_STEPS;
    if (p->status != PLAYING) {
        t->nodes[node].leaf += chance * value(s, p);
        return 0;
    }
    if (p->passes >= s->players) {
        c->abort = ABORT_STUCK;
        return -1;
    }
    const int n = gen_moves(c, p, moves);
    const int mine = s->side_of[p->to_move] == s->side;
    if (depth > 1 && c->steps >= c->budget)
        depth = 1;  /* the caller's budget is spent: value the moves here, go no deeper */
    if (mine && moves[0] >= 0) {
        /* A turn on which the bot plays: its last to follow, or one to follow each move of
         * (a choice of one play is no choice, but it is one of the turns). */
        if (depth == 1)
            return value_moves(c, t, node, moves, n, chance, exact);
        if (n > 1)
            t->nodes[node].decision = 1;
        for (int i = 0; i < n; i++) {
            const int32_t child = sights_child(t, node, moves[i]);
            if (child < 0) {
                c->abort = ABORT_MEMORY;
                return -1;
            }
            play(c, p, moves[i], &u);
            const int r = walk(c, t, child, chance, exact, depth - 1);
            undo(c, p, &u);
            if (r < 0)
                return -1;
        }
        return 0;
    }
    if (n > 1 && c->steps >= c->budget) {
        /* The budget is spent: play the rest out here rather than branch again (while the
         * bot can only pass, another seat's plays could branch on for many turns). */
        *exact = 0;
        t->nodes[node].leaf += chance * playout(c);
        return c->abort ? -1 : 0;
    }
    double scores[MAX_MOVES], top = -INFINITY, weight_sum = 0.0;
    if (n > 1) {
        for (int i = 0; i < n; i++) {
            scores[i] = play_score(s, p->to_move, moves[i]);
            if (scores[i] > top)
                top = scores[i];
        }
        for (int i = 0; i < n; i++) {
            scores[i] = exp(scores[i] - top);
            if (scores[i] >= MIN_WEIGHT)
                weight_sum += scores[i];
        }
    } else {
        scores[0] = weight_sum = 1.0;
    }
    for (int i = 0; i < n; i++) {
        if (scores[i] < MIN_WEIGHT)
            continue;
        int32_t child = sights_child(t, node, moves[i]);
        if (child >= 0 && moves[i] == DRAW && mine)  /* the bot sees the tile it draws */
            child = sights_child(t, child, OWN_DRAW + c->bone[p->drawn]);
        if (child < 0) {
            c->abort = ABORT_MEMORY;
            return -1;
        }
        play(c, p, moves[i], &u);
        const int r = walk(c, t, child, chance * scores[i] / weight_sum, exact, depth);
        undo(c, p, &u);
        if (r < 0)
            return -1;
    }
    return 0;
}

/* ---- from Python ------------------------------------------------------------------------- */

/* An int in [lo, hi] (TypeError for a non-int, ValueError out of range). */
static int
read_int(PyObject *o, const char *name, long long lo, long long hi, long long *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", name, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be from %lld to %lld, not %R", name, lo, hi, o);
        return -1;
    }
    *out = v;
    return 0;
}

static int
read_small(PyObject *o, const char *name, int lo, int hi, int *out)
{
    long long v;
    if (read_int(o, name, lo, hi, &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

/* A mask of tiles: a non-negative int below 2 ** tiles, split into words. */
static int
read_mask(const Spec *s, PyObject *o, const char *name, uint64_t *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int mask of tiles, not %.100s", name,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *rest = Py_NewRef(o), *shift = NULL;
    int ok = 1;
    for (int w = 0; w < s->nw - 1 && ok; w++) {
        out[w] = PyLong_AsUnsignedLongLongMask(rest);
        if (shift == NULL)
            shift = PyLong_FromLong(64);
        PyObject *next = shift ? PyNumber_Rshift(rest, shift) : NULL;
        Py_DECREF(rest);
        rest = next;
        ok = rest != NULL && !PyErr_Occurred();
    }
    Py_XDECREF(shift);
    if (!ok) {
        Py_XDECREF(rest);
        return -1;
    }
    /* Negative masks stay negative under >>, so this also rejects them. */
    out[s->nw - 1] = PyLong_AsUnsignedLongLong(rest);
    Py_DECREF(rest);
    if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_OverflowError))
        return -1;
    const int spare = s->nw * 64 - s->tiles, overflow = PyErr_Occurred() != NULL;
    PyErr_Clear();
    if (overflow || (spare && out[s->nw - 1] >> (64 - spare))) {
        PyErr_Format(PyExc_ValueError, "%s must be a mask of the %d tiles of double-%d, "
                     "not %R", name, s->tiles, s->top, o);
        return -1;
    }
    return 0;
}

/* A tuple of the items of a sequence (its own copy, which Python code cannot change). */
static PyObject *
read_sequence(PyObject *o, const char *name, Py_ssize_t lo, Py_ssize_t hi)
{
    if (!PySequence_Check(o) || PyUnicode_Check(o) || PyBytes_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be a sequence, not %.100s", name,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    PyObject *t = PySequence_Tuple(o);
    if (t == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    if (n < lo || n > hi) {
        PyErr_Format(PyExc_ValueError, "%s must have from %zd to %zd items, not %zd", name, lo,
                     hi, n);
        Py_DECREF(t);
        return NULL;
    }
    return t;
}

static int
read_double(PyObject *o, const char *name, double lo, double *out)
{
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
        return -1;
    if (!isfinite(v) || v < lo) {
        /* PyErr_Format has no %g (Python 3.13 raises SystemError on it), so the bound is
           shown through a float object's repr. */
        PyObject *bound = PyFloat_FromDouble(lo);
        if (bound != NULL) {
            PyErr_Format(PyExc_ValueError, "%s must be a finite number of at least %R, not %R",
                         name, bound, o);
            Py_DECREF(bound);
        }
        return -1;
    }
    *out = v;
    return 0;
}

static void
make_tables(Spec *s)
{
    int n = 0;
    memset(s->showing, 0, sizeof s->showing);
    for (int a = 0; a <= s->top; a++)
        for (int b = 0; b <= a; b++, n++) {
            s->high[n] = (uint8_t)a;
            s->low[n] = (uint8_t)b;
            s->pips[n] = (uint8_t)(a + b);
            s->showing[a][n >> 6] |= 1ULL << (n & 63);
            s->showing[b][n >> 6] |= 1ULL << (n & 63);
        }
    s->tiles = n;
    s->nw = (n + 63) / 64;
}

static PyObject *
spec_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {
        "top", "sides", "side", "draw", "reserve", "call_block", "first_double",
        "score_kind", "scores", "target", "points_weight", "game_weight", "model_opponents",
        "betas", "node_limit", "doubles", NULL};
    int top, side, draw, reserve, call_block, first_double, score_kind, model;
    long long target, node_limit;
    double points_weight, game_weight;
    PyObject *sides_arg, *scores_arg, *betas_arg, *doubles_arg = NULL, *sides = NULL,
             *scores = NULL, *betas = NULL, *doubles = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOipippiOLddpOL|O:Spec", keywords, &top,
                                     &sides_arg, &side, &draw, &reserve, &call_block,
                                     &first_double, &score_kind, &scores_arg, &target,
                                     &points_weight, &game_weight, &model, &betas_arg,
                                     &node_limit, &doubles_arg))
        return NULL;
    if (top < 0 || top > MAX_TOP) {
        PyErr_Format(PyExc_ValueError, "top must be from 0 to %d, not %d", MAX_TOP, top);
        return NULL;
    }
    if (reserve < 0 || score_kind < 0 || score_kind > 1 || node_limit < 0
        || !isfinite(points_weight) || !isfinite(game_weight)) {
        PyErr_SetString(PyExc_ValueError, "reserve and node_limit must be at least 0, "
                        "score_kind 0 or 1, and the weights finite");
        return NULL;
    }
    Spec *s = (Spec *)type->tp_alloc(type, 0);
    if (s == NULL)
        return NULL;
    s->top = top;
    make_tables(s);
    s->side = side;
    s->draw = draw;
    s->reserve = reserve;
    s->call_block = draw && call_block;  /* as Position.use_call_block */
    s->first_double = first_double;
    s->score_kind = score_kind;
    s->target = target;
    s->points_weight = points_weight;
    s->game_weight = game_weight;
    s->model = model;
    s->node_limit = node_limit;
    sides = read_sequence(sides_arg, "sides", 1, MAX_SEATS);
    scores = read_sequence(scores_arg, "scores", 1, MAX_SEATS);
    if (sides == NULL || scores == NULL)
        goto fail;
    s->players = (int)PyTuple_GET_SIZE(sides);
    s->n_sides = (int)PyTuple_GET_SIZE(scores);
    betas = read_sequence(betas_arg, "betas", s->players, s->players);
    if (betas == NULL)
        goto fail;
    if (doubles_arg != NULL) {
        doubles = read_sequence(doubles_arg, "doubles", s->players, s->players);
        if (doubles == NULL)
            goto fail;
    }
    if (side < 0 || side >= s->n_sides) {
        PyErr_Format(PyExc_ValueError, "side must be from 0 to %d, not %d", s->n_sides - 1,
                     side);
        goto fail;
    }
    for (int k = 0; k < s->n_sides; k++)
        if (read_int(PyTuple_GET_ITEM(scores, k), "a score", -(1LL << 62), 1LL << 62,
                     &s->scores[k]) < 0)
            goto fail;
    for (int seat = 0; seat < s->players; seat++)
        if (read_small(PyTuple_GET_ITEM(sides, seat), "a seat's side", 0, s->n_sides - 1,
                       &s->side_of[seat]) < 0
            || read_double(PyTuple_GET_ITEM(betas, seat), "a beta", 0.0, &s->betas[seat]) < 0
            || (doubles != NULL && read_double(PyTuple_GET_ITEM(doubles, seat),
                                               "a double bonus", 0.0,
                                               &s->doubles[seat]) < 0))
            goto fail;
    Py_DECREF(sides);
    Py_DECREF(scores);
    Py_DECREF(betas);
    Py_XDECREF(doubles);
    return (PyObject *)s;

fail:
    Py_XDECREF(sides);
    Py_XDECREF(scores);
    Py_XDECREF(betas);
    Py_XDECREF(doubles);
    Py_DECREF(s);
    return NULL;
}

PyDoc_STRVAR(spec_doc,
"Spec(top, sides, side, draw, reserve, call_block, first_double, score_kind, scores,\n"
"     target, points_weight, game_weight, model_opponents, betas, node_limit,\n"
"     doubles=None)\n\n"
"The constants of one decision, checked and laid out once: the set's top number, each\n"
"seat's side, the bot's side, the rules that decide moves, the value of a hand (score\n"
"rule 0 others-minus-own or 1 others, each side's game score, the target, the weights),\n"
"the opponent model (per-seat betas and double bonuses, zero by default) and the node limit of one exact solve.");

static PyTypeObject SpecType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bones.fast._search.Spec",
    .tp_basicsize = sizeof(Spec),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = spec_doc,
    .tp_new = spec_new,
};

static void
free_ctx(Ctx *c)
{
    if (c == NULL)
        return;
    PyMem_RawFree(c->table);
    PyMem_RawFree(c->mv);
    PyMem_RawFree(c);
}

/* Fill c->pos and c->bone from the arguments, checking that they describe a position
 * whose tiles are each in one place. */
static int
read_position(Ctx *c, PyObject *const *args)
{
    const Spec *s = c->s;
    Pos *p = &c->pos;
    PyObject *hands = NULL, *bone = NULL, *arms = NULL;
    uint64_t seen[MAX_WORDS] = {0};
    int ok = 0;
    hands = read_sequence(args[1], "hands", s->players, s->players);
    bone = read_sequence(args[2], "boneyard", 0, s->tiles);
    arms = read_sequence(args[5], "arms", 4, 4);
    if (hands == NULL || bone == NULL || arms == NULL)
        goto done;
    c->n_bone = (int)PyTuple_GET_SIZE(bone);
    for (int i = 0; i < c->n_bone; i++) {
        int t;
        if (read_small(PyTuple_GET_ITEM(bone, i), "a boneyard tile", 0, s->tiles - 1, &t) < 0)
            goto done;
        c->bone[i] = (uint8_t)t;
    }
    if (read_small(args[3], "drawn", 0, c->n_bone, &p->drawn) < 0
        || read_small(args[4], "to_move", 0, s->players - 1, &p->to_move) < 0
        || read_small(args[6], "spinner", -1, s->top, &p->spinner) < 0
        || read_small(args[7], "waiting", 0, 15, &p->waiting) < 0
        || read_mask(s, args[8], "placed", p->placed) < 0
        || read_small(args[9], "opening", -1, s->tiles - 1, &c->opening) < 0
        || read_small(args[10], "status", PLAYING, BLOCKED, &p->status) < 0)
        goto done;
    if (p->status == OUT) {
        PyErr_SetString(PyExc_ValueError, "status must be PLAYING (0) or BLOCKED (2): a hand "
                        "someone went out of has no winner seat here");
        goto done;
    }
    for (int arm = 0; arm < 4; arm++)
        if (read_small(PyTuple_GET_ITEM(arms, arm), "an arm", -1, s->top, &p->arms[arm]) < 0)
            goto done;
    memcpy(seen, p->placed, sizeof seen);
    p->zh = 0;
    for (int seat = 0; seat < s->players; seat++) {
        if (read_mask(s, PyTuple_GET_ITEM(hands, seat), "a hand", p->hands[seat]) < 0)
            goto done;
        p->count[seat] = 0;
        for (int w = 0; w < s->nw; w++) {
            if (seen[w] & p->hands[seat][w]) {
                PyErr_SetString(PyExc_ValueError, "a tile is in two hands, or in a hand and "
                                "on the layout");
                goto done;
            }
            seen[w] |= p->hands[seat][w];
            for (uint64_t m = p->hands[seat][w]; m; m &= m - 1) {
                const int t = w * 64 + ctz64(m);
                p->count[seat] += s->pips[t];
                p->zh ^= zobrist(seat, t);
            }
        }
    }
    for (int i = p->drawn; i < c->n_bone; i++) {
        const int t = c->bone[i];
        if (seen[t >> 6] >> (t & 63) & 1) {
            PyErr_SetString(PyExc_ValueError, "a tile still in the boneyard is also in a "
                            "hand, on the layout or twice in the boneyard");
            goto done;
        }
        seen[t >> 6] |= 1ULL << (t & 63);
    }
    p->winner = -1;
    p->passes = 0;
    ok = 1;
done:
    Py_XDECREF(hands);
    Py_XDECREF(bone);
    Py_XDECREF(arms);
    return ok ? 0 : -1;
}

PyDoc_STRVAR(evaluate_doc,
"evaluate(spec, hands, boneyard, drawn, to_move, arms, spinner, waiting, placed, opening,\n"
"         status, moves, exact, seed) -> (values, steps, exact)\n\n"
"For each root move (Position's int moves, each legal in the position): play it, solve\n"
"the rest exactly while `exact` holds (running out of spec's node limit turns it off for\n"
"the later moves), else play it out heavy-tile-first with ties broken by a generator\n"
"seeded with `seed`; undo. Returns the values (for spec's side) and the steps: the nodes\n"
"of every solve, failed ones included, plus moves + 1 for every playout, and whether\n"
"`exact` still holds (no solve ran out of nodes). The position's\n"
"fields are those of bones.ai.position.Position, hands and placed as int masks.");

/* The arguments common to evaluate and evaluate_sights, checked: a context holding the
 * position, with its generator seeded, and the given moves (each legal there). NULL with
 * an exception set on bad input. */
static Ctx *
prepare(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t wanted, const char *name,
        int16_t *given, int *n_out, int *exact_out)
{
    if (nargs != wanted) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd arguments, not %zd", name, wanted, nargs);
        return NULL;
    }
    if (!PyObject_TypeCheck(args[0], &SpecType)) {
        PyErr_Format(PyExc_TypeError, "spec must be a bones.fast._search.Spec, not %.100s",
                     Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    const Spec *s = (const Spec *)args[0];
    PyObject *moves_arg = NULL;
    int16_t root[MAX_MOVES];
    int exact = PyObject_IsTrue(args[12]);
    if (exact < 0)
        return NULL;
    if (!PyLong_Check(args[13])) {
        PyErr_Format(PyExc_TypeError, "seed must be an int, not %.100s",
                     Py_TYPE(args[13])->tp_name);
        return NULL;
    }
    const uint64_t seed = PyLong_AsUnsignedLongLongMask(args[13]);
    if (PyErr_Occurred())
        return NULL;
    Ctx *c = PyMem_RawMalloc(sizeof(Ctx));
    if (c == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    c->s = s;
    c->table = NULL;
    c->mv = NULL;
    c->abort = ABORT_NONE;
    c->steps = 0;
    c->budget = LLONG_MAX;  /* evaluate has none; evaluate_sights reads its own */
    if (read_position(c, args) < 0)
        goto fail;
    moves_arg = read_sequence(args[11], "moves", 0, MAX_MOVES);
    if (moves_arg == NULL)
        goto fail;
    const int n = (int)PyTuple_GET_SIZE(moves_arg), n_root = gen_moves(c, &c->pos, root);
    for (int i = 0; i < n; i++) {
        int move, legal = 0;
        if (read_small(PyTuple_GET_ITEM(moves_arg, i), "a move", PASS, 4 * MAX_TILES, &move) < 0)
            goto fail;
        for (int k = 0; k < n_root && !legal; k++)
            legal = root[k] == move;
        if (!legal) {
            PyErr_Format(PyExc_ValueError, "move %d is not legal in the position", move);
            goto fail;
        }
        given[i] = (int16_t)move;
    }
    Py_DECREF(moves_arg);
    uint64_t x = seed;
    for (int k = 0; k < 4; k++)
        c->rng[k] = splitmix64(&x);
    *n_out = n;
    *exact_out = exact;
    return c;

fail:
    Py_XDECREF(moves_arg);
    free_ctx(c);
    return NULL;
}

/* The error for a search that stopped on bad input or memory, or 0 if it did not. */
static int
search_failed(const Ctx *c)
{
    if (c->abort == ABORT_MEMORY) {
        PyErr_NoMemory();
        return -1;
    }
    if (c->abort == ABORT_STUCK) {
        PyErr_SetString(PyExc_ValueError, "the hand cannot end: every seat passes in turn "
                        "(the position should have been blocked)");
        return -1;
    }
    return 0;
}

static PyObject *
search_evaluate(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int16_t given[MAX_MOVES];
    double values[MAX_MOVES];
    int n, exact;
    PyObject *values_out = NULL;
    Ctx *c = prepare(args, nargs, 14, "evaluate", given, &n, &exact);
    if (c == NULL)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    exact = evaluate_moves(c, given, n, exact, values);
    Py_END_ALLOW_THREADS
    if (search_failed(c) < 0)
        goto fail;
    values_out = PyTuple_New(n);
    if (values_out == NULL)
        goto fail;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyFloat_FromDouble(values[i]);
        if (v == NULL)
            goto fail;
        PyTuple_SET_ITEM(values_out, i, v);
    }
    const long long steps = c->steps;
    free_ctx(c);
    return Py_BuildValue("(NLN)", values_out, steps, PyBool_FromLong(exact));

fail:
    Py_XDECREF(values_out);
    free_ctx(c);
    return NULL;
}

/* ---- Sights from Python ---------------------------------------------------------------- */

static PyObject *
sights_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"roots", NULL};
    int roots;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i:Sights", names, &roots))
        return NULL;
    if (roots < 1 || roots > MAX_MOVES) {
        PyErr_Format(PyExc_ValueError, "roots must be 1 to %d, not %d", MAX_MOVES, roots);
        return NULL;
    }
    Sights *t = (Sights *)type->tp_alloc(type, 0);
    if (t == NULL)
        return NULL;
    t->roots = roots;
    for (int i = 0; i < roots; i++) {
        if (sights_reserve(t) < 0) {
            Py_DECREF(t);
            return PyErr_NoMemory();
        }
        sights_new_node(t);
    }
    return (PyObject *)t;
}

static void
sights_dealloc(Sights *t)
{
    PyMem_RawFree(t->nodes);
    PyMem_RawFree(t->slots);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyObject *
sights_totals(Sights *t, PyObject *unused)
{
    (void)unused;
    PyObject *out = PyTuple_New(t->roots);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < t->roots; i++) {
        PyObject *v = PyFloat_FromDouble(sights_worth(t, i));
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

static Py_ssize_t
sights_len(Sights *t)
{
    return (Py_ssize_t)t->n;
}

static PyMethodDef sights_methods[] = {
    {"totals", (PyCFunction)sights_totals, METH_NOARGS,
     "totals() -> each root move's worth: per sight, the bot's best move summed over deals."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods sights_as_sequence = {
    .sq_length = (lenfunc)sights_len,
};

PyDoc_STRVAR(sights_doc,
"Sights(roots): what the bot will have seen after each of `roots` root moves, with the\n"
"values of its moves there summed over the deals evaluate_sights() adds; len() is the\n"
"number of sights held.");

static PyTypeObject SightsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bones.fast._search.Sights",
    .tp_basicsize = sizeof(Sights),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = sights_doc,
    .tp_new = sights_new,
    .tp_dealloc = (destructor)sights_dealloc,
    .tp_methods = sights_methods,
    .tp_as_sequence = &sights_as_sequence,
};

PyDoc_STRVAR(evaluate_sights_doc,
"evaluate_sights(spec, hands, boneyard, drawn, to_move, arms, spinner, waiting, placed,\n"
"                opening, status, moves, exact, seed, budget, sights, weight, depth)\n"
"    -> (steps, exact)\n\n"
"For each root move (index i of `moves`, one root of `sights` each): play it, then follow\n"
"the deal through the next `depth` (at least 1) turns on which spec's side plays: forced\n"
"draws and passes as they come, other sides' choices weighed as the exact search weighs\n"
"them (betas and double bonuses). On the last such turn each legal move is valued as\n"
"evaluate does, and the value, times `weight` and the chance of the way there, is added\n"
"to `sights` under what the side will have seen (the moves on the way, its own draws with\n"
"their tiles); on earlier ones each move is followed in turn. steps and exact are as for\n"
"evaluate, except that every position walked costs two steps and once `budget` steps are\n"
"spent the walk neither solves nor branches (the side's moves are valued where it stands,\n"
"another side's choice is played out) and exact comes back false, so one call cannot run\n"
"far past the caller's budget. The GIL is held throughout, since the call writes into\n"
"`sights`; after an error `sights` may hold part of the deal.");

static PyObject *
search_evaluate_sights(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int16_t given[MAX_MOVES];
    int n, exact;
    long long depth;
    double weight;
    if (nargs != 18) {
        PyErr_Format(PyExc_TypeError, "evaluate_sights takes 18 arguments, not %zd", nargs);
        return NULL;
    }
    if (!PyObject_TypeCheck(args[15], &SightsType)) {
        PyErr_Format(PyExc_TypeError, "sights must be a bones.fast._search.Sights, not %.100s",
                     Py_TYPE(args[15])->tp_name);
        return NULL;
    }
    Sights *t = (Sights *)args[15];
    if (read_double(args[16], "weight", 0.0, &weight) < 0
        || read_int(args[17], "depth", 1, MAX_DEPTH, &depth) < 0)
        return NULL;
    Ctx *c = prepare(args, 15, 15, "evaluate_sights", given, &n, &exact);
    if (c == NULL)
        return NULL;
    if (n != t->roots) {
        PyErr_Format(PyExc_ValueError, "sights has %d roots but %d moves were given",
                     t->roots, n);
        free_ctx(c);
        return NULL;
    }
    if (read_int(args[14], "budget", 0, 1LL << 62, &c->budget) < 0) {
        free_ctx(c);
        return NULL;
    }
    Undo u;
    for (int i = 0; i < n; i++) {
        play(c, &c->pos, given[i], &u);
        const int r = walk(c, t, i, weight, &exact, (int)depth);
        undo(c, &c->pos, &u);
        if (r < 0)
            break;
    }
    const long long steps = c->steps;
    const int failed = search_failed(c);
    free_ctx(c);
    if (failed < 0)
        return NULL;
    return Py_BuildValue("(LN)", steps, PyBool_FromLong(exact));
}

static PyMethodDef search_methods[] = {
    {"evaluate", (PyCFunction)(void (*)(void))search_evaluate, METH_FASTCALL, evaluate_doc},
    {"evaluate_sights", (PyCFunction)(void (*)(void))search_evaluate_sights, METH_FASTCALL,
     evaluate_sights_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef search_module = {
    PyModuleDef_HEAD_INIT,
    "bones.fast._search",
    "The expert bot's evaluation of one sampled deal in C; see bones/fast/_search.c and "
    "bones.fast.search.",
    -1,
    search_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__search(void)
{
    if (PyType_Ready(&SpecType) < 0 || PyType_Ready(&SightsType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&search_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Spec", (PyObject *)&SpecType) < 0
        || PyModule_AddObjectRef(m, "Sights", (PyObject *)&SightsType) < 0
        || PyModule_AddIntConstant(m, "PLAYING", PLAYING) < 0
        || PyModule_AddIntConstant(m, "OUT", OUT) < 0
        || PyModule_AddIntConstant(m, "BLOCKED", BLOCKED) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
