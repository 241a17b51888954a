/*
 * bones.fast._playout: random playouts of dominoes hands and games in C.
 *
 * This is bones/fast/pure.py written again in C, step for step, so that both play the
 * same game for the same seed as the checked engine (bones/fast/reference.py). Its own
 * copy of CPython's Mersenne Twister starts from the words of random.Random.getstate()
 * and hands its words back, so the caller's RNG ends exactly where the engine would have
 * left it. Only random.Random's shuffle() and choice() are replayed, through _randbelow():
 *
 *     k = n.bit_length(); r = getrandbits(k); while r >= n: r = getrandbits(k)
 *
 * where getrandbits(k <= 32) is genrand_uint32() >> (32 - k).
 *
 * Tiles are indices into bones.engine.tiles.full_set(top); option codes, move codes and
 * the layout of the totals are those of bones/fast/params.py and results.py.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- options (the order of params.FIELDS) ---------------------------------------------- */

enum {
    O_SET, O_PLAYERS, O_DEALT, O_SIDES, O_PARTNERSHIPS, O_DRAW, O_RESERVE, O_CALL_BLOCK,
    O_LEAD, O_OPENING, O_NO_DOUBLE, O_NEXT_LEAD, O_SPINNER, O_SCORE, O_TARGET, O_ANTE,
    O_POOL, O_POOL_TIE, N_OPTIONS
};
enum { LEAD_LOTS = 0, LEAD_HIGHEST_DOUBLE = 1, LEAD_HEAVIEST = 2 };
enum { OPENING_ANY = 0, OPENING_HIGHEST_DOUBLE = 1, OPENING_TOP_DOUBLE = 2 };
enum { NO_DOUBLE_REDEAL = 0, NO_DOUBLE_HEAVIEST = 1 };
enum { NEXT_LEFT = 0, NEXT_WINNER = 1, NEXT_SAME = 2 };
enum { SCORE_OTHERS_MINUS_OWN = 0, SCORE_OTHERS = 1 };
enum { POOL_TIE_SPLIT = 0, POOL_TIE_CARRY = 1 };
/* How a hand ended, in a raw trace: bones.engine.scoring's OUT and BLOCKED (the module exports
 * these as OUT and BLOCKED, and bones.fast.paths uses it only when they agree). */
enum { END_OUT = 1, END_BLOCKED = 2 };
enum { MOVE_FIRST = 4, MOVE_DRAW = 5, MOVE_PASS = 6 };

/* The scalars at the head of the totals, in results.Totals field order. */
enum {
    T_HANDS, T_GAMES, T_OUT, T_BLOCKED, T_TIED, T_PLAYS, T_DRAWS, T_PASSES, T_GAME_HANDS,
    T_LONGEST, T_POOL, N_HEAD
};

#define MAX_TOP 18
#define MAX_NUMBERS (MAX_TOP + 1)
#define MAX_TILES ((MAX_TOP + 1) * (MAX_TOP + 2) / 2)
/* The bytes kept for one seat's hand: a whole set, and slack so that a hand can be moved in
 * fixed 8-byte steps (see move8). */
#define ROW(tiles) ((size_t)(tiles) + 8)
/* Hands between checks for Ctrl-C, with the GIL released in between. */
#define BATCH 8192

/* ---- the Mersenne Twister, as CPython's _randommodule.c --------------------------------- */

#define MT_N 624
#define MT_M 397

/* `mt` and `index` are random.Random's state; `out[i]` is mt[i] tempered, worked out for the
 * whole block at each refill (a loop the compiler vectorises), so a draw is one load. */
typedef struct {
    uint32_t mt[MT_N];
    uint32_t out[MT_N];
    int index;
} Twister;

static void
twister_temper(Twister *tw)
{
    for (int i = 0; i < MT_N; i++) {
        uint32_t y = tw->mt[i];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        tw->out[i] = y;
    }
}

/* One step of the recurrence, with the table lookup of mag01[y & 1] written as a mask so
 * that the compiler can vectorise the refill. */
#define TWIST(upper, lower, far) \
    ((far) ^ ((((upper) & 0x80000000U) | ((lower) & 0x7fffffffU)) >> 1) \
     ^ ((0U - ((lower) & 1U)) & 0x9908b0dfU))

static void
twister_refill(Twister *tw)
{
    uint32_t *mt = tw->mt;
    int kk;
    for (kk = 0; kk < MT_N - MT_M; kk++)
        mt[kk] = TWIST(mt[kk], mt[kk + 1], mt[kk + MT_M]);
    for (; kk < MT_N - 1; kk++)
        mt[kk] = TWIST(mt[kk], mt[kk + 1], mt[kk + (MT_M - MT_N)]);
    mt[MT_N - 1] = TWIST(mt[MT_N - 1], mt[0], mt[MT_M - 1]);
    twister_temper(tw);
}

/* genrand_uint32(). Callers keep the index in a local (`*at`) so that stores into tile
 * arrays, which may alias anything, do not force it back to memory on every draw. */
static inline uint32_t
next_word(Twister *tw, int *at)
{
    if (*at >= MT_N) {
        twister_refill(tw);
        *at = 0;
    }
    return tw->out[(*at)++];
}

static inline int
bit_length(uint32_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    return n ? 32 - __builtin_clz(n) : 0;
#else
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
#endif
}

/* random.Random._randbelow(n), n >= 1. (Tried and measured slower: testing the next eight
 * words at once to avoid the mispredicted rejections; a branch-free word-by-word loop.) */
static inline int
randbelow(Twister *tw, int *at, int n)
{
    const int shift = 32 - bit_length((uint32_t)n);
    uint32_t r;
    do {
        r = next_word(tw, at) >> shift;
    } while (r >= (uint32_t)n);
    return (int)r;
}

/* random.Random.shuffle(x): for j from len-1 down to 1, swap x[j] with x[randbelow(j+1)].
 *
 * Written in two passes, for speed: first the swap partner of every j, then the swaps.
 * While n = j+1 keeps its bit length the shift is fixed, so each word is tested against j
 * by a subtraction instead of a branch the predictor would miss on every rejection; a
 * rejected word's partner is overwritten by the next word's. */
static void
shuffle(Twister *tw, uint8_t *x, int len)
{
    uint8_t partner[MAX_TILES];
    int at = tw->index, j = len - 1;
    while (j > 0) {
        const int k = bit_length((uint32_t)j + 1), shift = 32 - k;
        const int last = (1 << (k - 1)) - 1; /* the lowest j with this bit length of j+1 */
        while (j >= last) {
            if (at >= MT_N) {
                twister_refill(tw);
                at = 0;
            }
            const uint32_t r = tw->out[at++] >> shift;
            partner[j] = (uint8_t)r;
            j -= (int)(r <= (uint32_t)j);
        }
    }
    for (j = len - 1; j > 0; j--) {
        uint8_t t = x[j];
        x[j] = x[partner[j]];
        x[partner[j]] = t;
    }
    tw->index = at;
}

/* ---- one run ---------------------------------------------------------------------------- */

typedef struct {
    long long o[N_OPTIONS];
    char *block;            /* the one allocation behind the per-seat and per-side arrays */
    int tiles, dealt_all;
    /* per tile, by index into full_set(top) */
    uint8_t high[MAX_TILES], low[MAX_TILES], pips[MAX_TILES];
    uint32_t bits[MAX_TILES];  /* 1 << high | 1 << low */
    int rank[MAX_TILES];       /* position in the "heavier" order, heavier higher */
    uint8_t by_weight[MAX_TILES];
    Twister tw;

    /* the game in play */
    long long *scores;      /* per side */
    long long pool;
    int hand_index;         /* hands already played in this game */
    int prev_leader, prev_winner_seat; /* prev_leader < 0: no hand played yet */

    /* the hand in play */
    uint8_t order[MAX_TILES + 8], lots[MAX_TILES]; /* order: slack for move8 */
    int where[MAX_TILES];   /* position of each tile in order */
    uint8_t *hand;          /* players rows of ROW(tiles) tile indices */
    int *fits;              /* (index in hand) << 2 | arm */

    /* what the hand came to */
    int leader, end, out_seat, winner;
    int *counts;            /* per seat */
    long long *chips;       /* per seat */
    int *side_counts, *points, *tied; /* per side */
    int *moves, n_moves, cap_moves; /* the move codes, when tracing */
    int tracing;

    /* totals */
    long long head[N_HEAD];
    long long *side_hands, *side_points, *side_games, *side_count_sum;
    long long *seat_out, *seat_leads, *seat_chips;
} Run;

static inline int tile_index(int a, int b) { return a * (a + 1) / 2 + b; }

static int
heavier(const Run *r, int a, int b)
{
    int pa = r->pips[a], pb = r->pips[b];
    if (pa != pb)
        return pa > pb;
    int da = r->high[a] == r->low[a], db = r->high[b] == r->low[b];
    if (da != db)
        return da > db;
    return r->high[a] > r->high[b];
}

static void
make_tables(Run *r)
{
    int top = (int)r->o[O_SET], n = 0;
    for (int a = 0; a <= top; a++)
        for (int b = 0; b <= a; b++, n++) {
            r->high[n] = (uint8_t)a;
            r->low[n] = (uint8_t)b;
            r->pips[n] = (uint8_t)(a + b);
            r->bits[n] = (1U << a) | (1U << b);
        }
    r->tiles = n;
    /* insertion sort, heaviest first */
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && heavier(r, i, r->by_weight[j - 1])) {
            r->by_weight[j] = r->by_weight[j - 1];
            j--;
        }
        r->by_weight[j] = (uint8_t)i;
    }
    for (int i = 0; i < n; i++)
        r->rank[r->by_weight[i]] = n - 1 - i;
}

static int
push_move(Run *r, int code)
{
    if (r->n_moves == r->cap_moves) {
        int cap = r->cap_moves * 2;
        int *grown = PyMem_RawRealloc(r->moves, sizeof(int) * (size_t)cap);
        if (grown == NULL)
            return -1;
        r->moves = grown;
        r->cap_moves = cap;
    }
    r->moves[r->n_moves++] = code;
    return 0;
}

/* ---- the deal and the lead (engine.game.deal, engine.lead.decide) ----------------------- */

static int
holder(const Run *r, int t)
{
    int at = r->where[t];
    return at < r->dealt_all ? at / (int)r->o[O_DEALT] : -1;
}

static int
highest_double_dealt(const Run *r)
{
    for (int n = (int)r->o[O_SET]; n >= 0; n--) {
        int d = tile_index(n, n);
        if (r->where[d] < r->dealt_all)
            return d;
    }
    return -1;
}

static int
heaviest_dealt(const Run *r)
{
    for (int i = 0; i < r->tiles; i++)
        if (r->where[r->by_weight[i]] < r->dealt_all)
            return r->by_weight[i];
    return -1; /* not reached: at least one tile is dealt */
}

/* A needed double was not dealt: 0 to redeal, or the heaviest tile's holder leads. */
static int
no_double(const Run *r, int forced, int *leader, int *opening)
{
    if (r->o[O_NO_DOUBLE] == NO_DOUBLE_REDEAL)
        return 0;
    int t = heaviest_dealt(r);
    *leader = holder(r, t);
    *opening = forced ? t : -1;
    return 1;
}

/* engine.lead.decide: 1 with the leader (-1: by lots) and opening tile (-1: any), or 0 to
 * redeal. */
static int
decide(Run *r, int *leader, int *opening)
{
    const long long *o = r->o;
    int needs_where = o[O_OPENING] != OPENING_ANY
        || ((r->prev_leader < 0 || o[O_NEXT_LEAD] == NEXT_SAME) && o[O_LEAD] != LEAD_LOTS);
    *opening = -1;
    if (needs_where)
        for (int i = 0; i < r->tiles; i++)
            r->where[r->order[i]] = i;
    if (o[O_OPENING] != OPENING_ANY) {
        int t = o[O_OPENING] == OPENING_TOP_DOUBLE
            ? tile_index((int)o[O_SET], (int)o[O_SET]) : highest_double_dealt(r);
        if (t >= 0 && holder(r, t) >= 0) {
            *leader = holder(r, t);
            *opening = t;
            return 1;
        }
        return no_double(r, 1, leader, opening);
    }
    if (r->prev_leader < 0 || o[O_NEXT_LEAD] == NEXT_SAME) {
        if (o[O_LEAD] == LEAD_LOTS) {
            *leader = -1;
        } else if (o[O_LEAD] == LEAD_HIGHEST_DOUBLE) {
            int d = highest_double_dealt(r);
            if (d < 0)
                return no_double(r, 0, leader, opening);
            *leader = holder(r, d);
        } else {
            *leader = holder(r, heaviest_dealt(r));
        }
        return 1;
    }
    if (o[O_NEXT_LEAD] == NEXT_WINNER && r->prev_winner_seat >= 0)
        *leader = r->prev_winner_seat;
    else
        *leader = (r->prev_leader + 1) % (int)o[O_PLAYERS];
    return 1;
}

/* engine.game.draw_lots: each seat draws one tile of a freshly shuffled set. */
static int
draw_lots(Run *r)
{
    int best = 0;
    for (int i = 0; i < r->tiles; i++)
        r->lots[i] = (uint8_t)i;
    shuffle(&r->tw, r->lots, r->tiles);
    for (int i = 1; i < r->o[O_PLAYERS]; i++)
        if (r->rank[r->lots[i]] > r->rank[r->lots[best]])
            best = i;
    return best;
}

/* ---- one hand of random legal moves (pure._play) ----------------------------------------- */

/* Copy 8 bytes; a fixed size compiles to one load and one store, where the short loops it
 * replaces were turned into calls to memmove. */
static inline void
move8(uint8_t *to, const uint8_t *from)
{
    uint64_t w;
    memcpy(&w, from, 8);
    memcpy(to, &w, 8);
}

/* Remove the tile at `i` from a hand of `n`, keeping the others in order. */
static inline void
take(uint8_t *hand, int i, int n)
{
    for (i++; i < n; i += 8)
        move8(hand + i - 1, hand + i);
}

/* Deal and play one hand of random legal moves as pure._play does. Fills in the leader, the
 * seats' counts, how the hand ended and who went out; with `tracing`, the move codes. Every
 * hot value lives in a local: stores into the byte arrays of tiles may alias anything, and
 * would otherwise send each one back to memory on every move. -1: no memory for the trace. */
static int
play_hand(Run *r)
{
    const long long *o = r->o;
    const int players = (int)o[O_PLAYERS], dealt = (int)o[O_DEALT], top = (int)o[O_SET];
    const int tiles = r->tiles, dealt_all = r->dealt_all, tracing = r->tracing;
    const int call_block = o[O_DRAW] && o[O_CALL_BLOCK];
    const int drawable = o[O_DRAW] ? tiles - dealt_all - (int)o[O_RESERVE] : 0;
    const uint8_t *high = r->high, *low = r->low;
    const uint32_t *bits = r->bits;
    uint8_t *order = r->order;
    int *fits = r->fits;
    Twister *tw = &r->tw;
    /* held[n]: tiles in anyone's hand that show n; unlaid[n]: those not on the layout */
    int held[MAX_NUMBERS] = {0}, unlaid[MAX_NUMBERS], hlen[MAX_TILES], ends[4];
    int leader, opening, drawn = 0, seat, t, i, at, arms, waiting, spinner_free, status = 0;
    int plays = 0, passes = 0;

    for (i = 0; i < tiles; i++)
        order[i] = (uint8_t)i;
    do {
        shuffle(tw, order, tiles);
    } while (!decide(r, &leader, &opening));
    if (leader < 0)
        leader = draw_lots(r);
    r->leader = leader;

    for (int s = 0; s < players; s++) {
        uint8_t *hand = r->hand + (size_t)s * ROW(tiles);
        for (i = 0; i < dealt; i += 8)
            move8(hand + i, order + s * dealt + i);
        hlen[s] = dealt;
    }
    for (i = 0; i < dealt_all; i++) {
        t = order[i];
        held[high[t]]++;
        if (low[t] != high[t])
            held[low[t]]++;
    }
    for (int n = 0; n <= top; n++)
        unlaid[n] = top + 1;
    r->n_moves = 0;
    r->out_seat = -1;
    at = tw->index;

#define HAND(seat) (r->hand + (size_t)(seat) * ROW(tiles))
#define LOG(code)                                     \
    do {                                              \
        if (tracing && push_move(r, (code)) < 0) {    \
            status = -1;                              \
            goto done;                                \
        }                                             \
    } while (0)
#define NOBODY_HOLDS() \
    (!held[ends[0]] && !held[ends[1]] && (arms == 2 || (!held[ends[2]] && !held[ends[3]])))
#define LAYOUT_DEAD() \
    (!unlaid[ends[0]] && !unlaid[ends[1]] && (arms == 2 || (!unlaid[ends[2]] && !unlaid[ends[3]])))

    /* The first tile: choice() over the opening tile alone, or over the whole hand. */
    seat = leader;
    {
        uint8_t *hand = HAND(seat);
        if (opening >= 0) {
            (void)randbelow(tw, &at, 1);
            for (i = 0; hand[i] != opening; i++)
                ;
        } else {
            i = randbelow(tw, &at, hlen[seat]);
        }
        t = hand[i];
        take(hand, i, hlen[seat]--);
    }
    ends[0] = ends[2] = ends[3] = high[t];
    ends[1] = low[t];
    arms = 2;
    waiting = o[O_SPINNER] && high[t] == low[t] ? 3 : 0;
    spinner_free = o[O_SPINNER] && !waiting;
    LOG(seat << 16 | t << 3 | MOVE_FIRST);

    for (;;) {
        /* `t` has just been played by `seat`. */
        plays++;
        held[high[t]]--;
        unlaid[high[t]]--;
        if (low[t] != high[t]) {
            held[low[t]]--;
            unlaid[low[t]]--;
        }
        if (hlen[seat] == 0) {
            r->end = END_OUT;
            r->out_seat = seat;
            break;
        }
        if ((call_block && LAYOUT_DEAD()) || (drawn >= drawable && NOBODY_HOLDS())) {
            r->end = END_BLOCKED;
            break;
        }
        seat = seat + 1 < players ? seat + 1 : 0;

        int n_fits;
        uint8_t *hand;
        for (;;) {
            const int n = hlen[seat];
            hand = HAND(seat);
            /* written without a branch per tile and arm: whether a tile fits is a coin toss
             * the branch predictor would lose */
            n_fits = 0;
            if (arms == 2) {
                for (i = 0; i < n; i++) {
                    const uint32_t b = bits[hand[i]];
                    fits[n_fits] = i << 2;
                    n_fits += (int)(b >> ends[0] & 1U);
                    fits[n_fits] = i << 2 | 1;
                    n_fits += (int)(b >> ends[1] & 1U);
                }
            } else {
                for (i = 0; i < n; i++) {
                    const uint32_t b = bits[hand[i]];
                    for (int a = 0; a < 4; a++) {
                        fits[n_fits] = i << 2 | a;
                        n_fits += (int)(b >> ends[a] & 1U);
                    }
                }
            }
            if (n_fits)
                break;
            if (drawn < drawable) {
                t = order[dealt_all + drawn++];
                hand[hlen[seat]++] = (uint8_t)t;
                held[high[t]]++;
                if (low[t] != high[t])
                    held[low[t]]++;
                LOG(seat << 16 | t << 3 | MOVE_DRAW);
                if (drawn >= drawable && NOBODY_HOLDS()) {
                    r->end = END_BLOCKED;
                    goto done;
                }
                continue;
            }
            passes++;
            LOG(seat << 16 | MOVE_PASS);
            seat = seat + 1 < players ? seat + 1 : 0;
        }
        const int move = fits[randbelow(tw, &at, n_fits)], a = move & 3;
        i = move >> 2;
        t = hand[i];
        take(hand, i, hlen[seat]--);
        ends[a] = high[t] == ends[a] ? low[t] : high[t];
        if (waiting) {
            if (waiting >> a & 1) {
                waiting &= ~(1 << a);
                if (!waiting)
                    arms = 4;
            }
        } else if (spinner_free && high[t] == low[t]) {
            spinner_free = 0;
            waiting = 1 << a;
            ends[2] = ends[3] = high[t];
        }
        LOG(seat << 16 | t << 3 | a);
    }
done:
    tw->index = at;
    r->head[T_PLAYS] += plays;
    r->head[T_DRAWS] += drawn;
    r->head[T_PASSES] += passes;
    for (int s = 0; s < players; s++) {
        const uint8_t *hand = HAND(s);
        int count = 0;
        for (i = 0; i < hlen[s]; i++)
            count += r->pips[hand[i]];
        r->counts[s] = count;
    }
    return status;
#undef HAND
#undef LOG
#undef NOBODY_HOLDS
#undef LAYOUT_DEAD
}

/* ---- scoring, the pool and the game (engine.scoring, engine.pool, engine.game._settle) --- */

/* engine.pool.share: the pool split equally among the seats of `sides`; the remainder stays. */
static void
share(Run *r, const int *sides, int n_sides)
{
    const int per_side = r->o[O_PARTNERSHIPS] ? 2 : 1;
    const long long each = r->pool / (n_sides * per_side);
    for (int k = 0; k < n_sides; k++) {
        r->chips[sides[k]] += each;
        if (per_side == 2)
            r->chips[sides[k] + 2] += each;
    }
    r->pool -= each * n_sides * per_side;
}

/* Score the hand just played, pay the pool and add it all to the totals. */
static void
settle(Run *r)
{
    const long long *o = r->o;
    const int players = (int)o[O_PLAYERS], sides = (int)o[O_SIDES];
    const int pships = (int)o[O_PARTNERSHIPS];
    const long long ante = o[O_ANTE] && (!o[O_POOL] || r->hand_index == 0) ? o[O_ANTE] : 0;
    int winner = -1, winner_seat = -1, n_tied = 0, total = 0;

    for (int s = 0; s < players; s++)
        r->chips[s] = -ante;
    r->pool += ante * players;
    for (int side = 0; side < sides; side++) {
        r->side_counts[side] = pships ? r->counts[side] + r->counts[side + 2] : r->counts[side];
        r->points[side] = 0;
        total += r->side_counts[side];
    }
    if (r->end == END_OUT) {
        winner = pships ? r->out_seat % 2 : r->out_seat;
        winner_seat = r->out_seat;
    } else {
        int low = r->side_counts[0];
        for (int side = 1; side < sides; side++)
            if (r->side_counts[side] < low)
                low = r->side_counts[side];
        for (int side = 0; side < sides; side++)
            if (r->side_counts[side] == low)
                r->tied[n_tied++] = side;
        if (n_tied == 1) {
            winner = winner_seat = r->tied[0];
            n_tied = 0;
            if (pships) {
                /* the partner with the lower count, else the earlier from the leader */
                int a = winner, b = winner + 2;
                int ka = (a - r->leader + players) % players;
                int kb = (b - r->leader + players) % players;
                if (r->counts[b] < r->counts[a] || (r->counts[b] == r->counts[a] && kb < ka))
                    winner_seat = b;
            }
        }
    }
    if (winner >= 0) {
        int others = total - r->side_counts[winner];
        int points = o[O_SCORE] == SCORE_OTHERS ? others : others - r->side_counts[winner];
        r->points[winner] = points > 0 ? points : 0;
        r->scores[winner] += r->points[winner];
        if (o[O_ANTE] && (!o[O_POOL] || r->scores[winner] >= o[O_TARGET]))
            share(r, &winner, 1);
    } else if (o[O_ANTE] && !o[O_POOL] && o[O_POOL_TIE] == POOL_TIE_SPLIT) {
        share(r, r->tied, n_tied);
    }

    r->head[T_HANDS]++;
    r->head[r->end == END_OUT ? T_OUT : T_BLOCKED]++;
    r->head[T_TIED] += n_tied > 0;
    for (int side = 0; side < sides; side++) {
        r->side_count_sum[side] += r->side_counts[side];
        r->side_points[side] += r->points[side];
    }
    for (int s = 0; s < players; s++)
        r->seat_chips[s] += r->chips[s];
    r->seat_leads[r->leader]++;
    if (r->end == END_OUT)
        r->seat_out[r->out_seat]++;
    r->winner = winner;
    r->hand_index++;
    r->prev_leader = r->leader;
    r->prev_winner_seat = winner_seat;
    if (winner < 0)
        return;
    r->side_hands[winner]++;
    if (r->scores[winner] < o[O_TARGET])
        return;
    /* the game is won: the next hand starts a new one */
    r->head[T_GAMES]++;
    r->side_games[winner]++;
    r->head[T_GAME_HANDS] += r->hand_index;
    if (r->hand_index > r->head[T_LONGEST])
        r->head[T_LONGEST] = r->hand_index;
    r->head[T_POOL] += r->pool;
    for (int side = 0; side < sides; side++)
        r->scores[side] = 0;
    r->pool = 0;
    r->hand_index = 0;
    r->prev_leader = -1;
    r->prev_winner_seat = -1;
}

/* ---- from and to Python ----------------------------------------------------------------- */

static int
read_options(Run *r, PyObject *params)
{
    /* the lowest and highest value each option may take (tiles-dependent ones checked below) */
    static const long long lo[N_OPTIONS] = {0, 2, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    static const long long hi[N_OPTIONS] = {
        MAX_TOP, MAX_TILES, MAX_TILES, MAX_TILES, 1, 1, MAX_TILES, 1, 2, 2, 1, 2, 1, 1,
        (1LL << 62), (1LL << 31) - 1, 1, 1};
    long long *o = r->o;
    if (PyTuple_GET_SIZE(params) != N_OPTIONS) {
        PyErr_Format(PyExc_ValueError, "params must hold %d options", N_OPTIONS);
        return -1;
    }
    for (int k = 0; k < N_OPTIONS; k++) {
        o[k] = PyLong_AsLongLong(PyTuple_GET_ITEM(params, k));
        if (o[k] == -1 && PyErr_Occurred())
            return -1;
        if (o[k] < lo[k] || o[k] > hi[k]) {
            PyErr_Format(PyExc_ValueError, "params[%d] = %lld is out of range", k, o[k]);
            return -1;
        }
    }
    make_tables(r);
    r->dealt_all = (int)(o[O_PLAYERS] * o[O_DEALT]);
    if (r->dealt_all > r->tiles || o[O_SIDES] != (o[O_PARTNERSHIPS] ? 2 : o[O_PLAYERS])
        || (o[O_PARTNERSHIPS] && o[O_PLAYERS] != 4)
        || (o[O_DRAW] && o[O_RESERVE] > r->tiles - r->dealt_all)) {
        PyErr_SetString(PyExc_ValueError, "params describe rules that cannot be dealt");
        return -1;
    }
    return 0;
}

static int
read_state(Twister *tw, PyObject *state)
{
    if (PyTuple_GET_SIZE(state) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "the state must be random.Random's 625 words");
        return -1;
    }
    for (int i = 0; i <= MT_N; i++) {
        unsigned long w = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
        if (w == (unsigned long)-1 && PyErr_Occurred())
            return -1;
        if (w > 0xffffffffUL || (i == MT_N && w > MT_N)) {
            PyErr_SetString(PyExc_ValueError, "the state is not a Mersenne Twister state");
            return -1;
        }
        if (i < MT_N)
            tw->mt[i] = (uint32_t)w;
        else
            tw->index = (int)w;
    }
    twister_temper(tw);
    return 0;
}

static PyObject *
state_tuple(const Twister *tw)
{
    PyObject *t = PyTuple_New(MT_N + 1);
    if (t == NULL)
        return NULL;
    for (int i = 0; i <= MT_N; i++) {
        PyObject *w = i < MT_N ? PyLong_FromUnsignedLong(tw->mt[i]) : PyLong_FromLong(tw->index);
        if (w == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, w);
    }
    return t;
}

/* A tuple of n integers read by `get(items, i)`. */
#define INT_TUPLE(out, n, expr)                          \
    do {                                                 \
        (out) = PyTuple_New(n);                          \
        for (int i = 0; (out) != NULL && i < (n); i++) { \
            PyObject *v_ = PyLong_FromLongLong(expr);    \
            if (v_ == NULL) {                            \
                Py_CLEAR(out);                           \
                break;                                   \
            }                                            \
            PyTuple_SET_ITEM((out), i, v_);              \
        }                                                \
    } while (0)

/* The raw hand of results.RawHand for the hand just settled. */
static PyObject *
raw_hand(const Run *r)
{
    const int players = (int)r->o[O_PLAYERS], sides = (int)r->o[O_SIDES];
    PyObject *order, *moves, *counts, *points, *chips;
    INT_TUPLE(order, r->tiles, r->order[i]);
    INT_TUPLE(moves, r->n_moves, r->moves[i]);
    INT_TUPLE(counts, players, r->counts[i]);
    INT_TUPLE(points, sides, r->points[i]);
    INT_TUPLE(chips, players, r->chips[i]);
    if (!order || !moves || !counts || !points || !chips) {
        Py_XDECREF(order);
        Py_XDECREF(moves);
        Py_XDECREF(counts);
        Py_XDECREF(points);
        Py_XDECREF(chips);
        return NULL;
    }
    return Py_BuildValue("(NiNiiNNN)", order, r->leader, moves, r->end, r->winner, counts,
                         points, chips);
}

static PyObject *
totals_tuple(const Run *r)
{
    const int players = (int)r->o[O_PLAYERS], sides = (int)r->o[O_SIDES];
    const long long *per_side[] = {r->side_hands, r->side_points, r->side_games,
                                   r->side_count_sum};
    const long long *per_seat[] = {r->seat_out, r->seat_leads, r->seat_chips};
    const int n = N_HEAD + 4 * sides + 3 * players;
    long long *flat = PyMem_RawMalloc(sizeof(long long) * (size_t)n);
    PyObject *out;
    int at = 0;
    if (flat == NULL)
        return PyErr_NoMemory();
    for (int k = 0; k < N_HEAD; k++)
        flat[at++] = r->head[k];
    for (int f = 0; f < 4; f++)
        for (int k = 0; k < sides; k++)
            flat[at++] = per_side[f][k];
    for (int f = 0; f < 3; f++)
        for (int k = 0; k < players; k++)
            flat[at++] = per_seat[f][k];
    INT_TUPLE(out, n, flat[i]);
    PyMem_RawFree(flat);
    return out;
}

static void
free_run(Run *r)
{
    if (r == NULL)
        return;
    PyMem_RawFree(r->block);
    PyMem_RawFree(r->moves);
    PyMem_RawFree(r);
}

/* One allocation for every per-seat and per-side array. */
static int
alloc_run(Run *r)
{
    const size_t players = (size_t)r->o[O_PLAYERS], sides = (size_t)r->o[O_SIDES];
    const size_t tiles = (size_t)r->tiles;
    const size_t lls = sides * 5 + players * 4, ints = players + sides * 3 + tiles * 4;
    char *p = PyMem_RawCalloc(1, lls * sizeof(long long) + ints * sizeof(int) + players * ROW(tiles));
    if (p == NULL)
        return -1;
    r->block = p;
    long long *ll = (long long *)p;
    r->scores = ll, ll += sides;
    r->side_hands = ll, ll += sides;
    r->side_points = ll, ll += sides;
    r->side_games = ll, ll += sides;
    r->side_count_sum = ll, ll += sides;
    r->chips = ll, ll += players;
    r->seat_out = ll, ll += players;
    r->seat_leads = ll, ll += players;
    r->seat_chips = ll, ll += players;
    int *in = (int *)ll;
    r->counts = in, in += players;
    r->side_counts = in, in += sides;
    r->points = in, in += sides;
    r->tied = in, in += sides;
    r->fits = in, in += tiles * 4;
    r->hand = (uint8_t *)in;
    r->cap_moves = 64;
    r->moves = PyMem_RawMalloc(sizeof(int) * (size_t)r->cap_moves);
    return r->moves == NULL ? -1 : 0;
}

PyDoc_STRVAR(run_doc,
"run(params, state, count, by_hands, trace) -> (state, totals, raw_hands)\n\n"
"Play random hands from the Mersenne Twister words `state` (random.Random.getstate()[1])\n"
"until `count` games are won (or, with `by_hands`, `count` hands are played). Returns the\n"
"words after the run, the flat totals of results.Totals and, with `trace`, a list of\n"
"results.RawHand (else None). `params` is bones.fast.params.params(rules).");

static PyObject *
playout_run(PyObject *module, PyObject *args)
{
    PyObject *params, *state, *raws = NULL, *words = NULL, *totals = NULL;
    long long count;
    int by_hands, trace, unit;
    Run *r;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!Lpp:run", &PyTuple_Type, &params, &PyTuple_Type, &state,
                          &count, &by_hands, &trace))
        return NULL;
    r = PyMem_RawCalloc(1, sizeof(Run));
    if (r == NULL)
        return PyErr_NoMemory();
    if (read_options(r, params) < 0 || read_state(&r->tw, state) < 0)
        goto fail;
    if (alloc_run(r) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    r->tracing = trace;
    r->prev_leader = r->prev_winner_seat = -1;
    if (trace) {
        raws = PyList_New(0);
        if (raws == NULL)
            goto fail;
    }
    unit = by_hands ? T_HANDS : T_GAMES;
    while (r->head[unit] < count) {
        if (trace) {
            if (play_hand(r) < 0) {
                PyErr_NoMemory();
                goto fail;
            }
            settle(r);
            PyObject *hand = raw_hand(r);
            if (hand == NULL || PyList_Append(raws, hand) < 0) {
                Py_XDECREF(hand);
                goto fail;
            }
            Py_DECREF(hand);
        } else {
            Py_BEGIN_ALLOW_THREADS
            for (int k = 0; k < BATCH && r->head[unit] < count; k++) {
                (void)play_hand(r); /* cannot fail without a trace */
                settle(r);
            }
            Py_END_ALLOW_THREADS
        }
        if (PyErr_CheckSignals() < 0)
            goto fail;
    }
    r->head[T_POOL] += r->pool;
    words = state_tuple(&r->tw);
    totals = totals_tuple(r);
    if (words == NULL || totals == NULL)
        goto fail;
    free_run(r);
    return Py_BuildValue("(NNN)", words, totals, raws ? raws : Py_NewRef(Py_None));

fail:
    Py_XDECREF(words);
    Py_XDECREF(totals);
    Py_XDECREF(raws);
    free_run(r);
    return NULL;
}

static PyMethodDef playout_methods[] = {
    {"run", playout_run, METH_VARARGS, run_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef playout_module = {
    PyModuleDef_HEAD_INIT,
    "bones.fast._playout",
    "Random playouts of dominoes games in C; see bones/fast/_playout.c and bones.fast.",
    -1,
    playout_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__playout(void)
{
    PyObject *m = PyModule_Create(&playout_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "OUT", END_OUT) < 0
        || PyModule_AddIntConstant(m, "BLOCKED", END_BLOCKED) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
