/* A window's L2 requests answered by several threads in steps
 * (sim/core/l2_split.h) against the same requests answered one by one in
 * the window's order with ws_l2_read and ws_l2_write: every answer, the
 * counts, and the state left behind (the answers to a second window of
 * reads, one by one on both).
 *
 * The requests are random reads and writes of a few hundred lines from 40
 * SMs over a window of 300 cycles, on an L2 small enough to evict (4
 * slices of 4 KiB, 2 ways; 3 channels; 64 B DRAM reads), so that hits
 * find fills still to be timed, writes land on them, fills are evicted
 * while pending, and slices and channels queue. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/core/l2_split.h"
#include "sim/core/sort_keys.h"

enum { NSM = 40, PER_SM = 400, WINDOW = 300 };

static ws_gpu_config config(void)
{
    return (ws_gpu_config){
        .clockRate = 1000000, .memoryClockRate = 1000000, .memoryBusWidth = 64,
        .latencyL1Hit = 30, .latencyL2Hit = 200, .latencyDram = 500,
        .l2CacheSize = 4 * 4096, .l2Associativity = 2, .l2Slices = 4,
        .l2BytesPerCyclePerSlice = 16, .dramChannels = 3, .dramAccessBytes = 64,
        .l2WriteRequestsPerCycle = 2,
    };
}

static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* What a window's requests are: per hundred entries, how many are atomics
 * on one of the first `hot` lines, and how many atomics on any line; the
 * rest reads and writes. */
typedef struct mix {
    uint32_t hot_atomics, any_atomics, hot;
} mix;

static const mix NO_ATOMICS = {0, 0, 1};

/* Each SM's list: entries one to a cycle or several, 1-4 requests each,
 * in cycle order; some entries merged into a leader (no requests). */
static void fill_sms_mix(ws_sm *sms, uint64_t start, uint64_t seed, mix m)
{
    uint64_t x = seed;
    for (int32_t i = 0; i < NSM; i++) {
        ws_lsu_queue *q = &sms[i].lsu_q;
        q->a = calloc(PER_SM, sizeof *q->a);
        q->req = calloc(PER_SM * 4, sizeof *q->req);
        assert_non_null(q->a);
        assert_non_null(q->req);
        q->n = q->nreq = 0;
        uint64_t cycle = start;
        for (uint32_t k = 0; k < PER_SM && cycle < start + WINDOW; k++) {
            cycle += next_rand(&x) % 3 == 0;
            ws_lsu_pending *e = &q->a[q->n++];
            *e = (ws_lsu_pending){.cycle = cycle, .lead_reg = -1, .first_req = q->nreq};
            if (next_rand(&x) % 10 == 0) {
                e->lead_reg = 0;
                continue;
            }
            uint32_t n = 1 + (uint32_t)(next_rand(&x) % 4), pick = (uint32_t)(next_rand(&x) % 100);
            bool write = next_rand(&x) % 3 == 0;
            uint64_t line = next_rand(&x) % 300;
            uint8_t op = (uint8_t)(write ? WS_I_ST : WS_I_LD);
            if (pick < m.hot_atomics + m.any_atomics) {
                op = WS_I_ATOM;
                if (pick < m.hot_atomics) line = next_rand(&x) % m.hot;
            }
            for (uint32_t r = 0; r < n; r++)
                q->req[q->nreq++] = (ws_l2_request){
                    .sector = line * WS_SECTORS_PER_LINE + (next_rand(&x) + r) % WS_SECTORS_PER_LINE,
                    .start = cycle + 10 + next_rand(&x) % 5, .op = op, .first = r == 0,
                    .serial = 1 + (uint32_t)(next_rand(&x) % 4)};
            e->nreq = n;
        }
    }
}

static void fill_sms(ws_sm *sms, uint64_t start, uint64_t seed)
{
    fill_sms_mix(sms, start, seed, NO_ATOMICS);
}

static void free_sms_n(ws_sm *sms, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        free(sms[i].lsu_q.a);
        free(sms[i].lsu_q.req);
    }
}

static void free_sms(ws_sm *sms)
{
    free_sms_n(sms, NSM);
}

/* The window's requests one by one: by cycle, then SM, then their order. */
static void one_by_one(ws_l2_dram *l2, ws_sm *sms, uint64_t start)
{
    for (uint64_t c = start; c <= start + WINDOW; c++)
        for (int32_t i = 0; i < NSM; i++) {
            ws_lsu_queue *q = &sms[i].lsu_q;
            for (uint32_t k = 0; k < q->n; k++) {
                const ws_lsu_pending *e = &q->a[k];
                if (e->cycle != c || e->lead_reg >= 0) continue;
                for (uint32_t r = e->first_req; r < e->first_req + e->nreq; r++) {
                    ws_l2_request *rq = &q->req[r];
                    rq->done = rq->op == WS_I_LD   ? ws_l2_read(l2, rq->sector, rq->start)
                               : rq->op == WS_I_ST ? ws_l2_write(l2, rq->sector, rq->first, rq->start)
                                                   : ws_l2_atomic(l2, rq->sector, rq->serial, rq->start);
                }
            }
        }
}

typedef struct runner {
    ws_l2_split *sp;
    int32_t index;
} runner;

static void *run_one(void *arg)
{
    runner *r = arg;
    ws_l2_split_run(r->sp, r->index);
    return NULL;
}

/* The window on nthreads threads; the result of ws_l2_split_end. */
static ws_l2_split_result on_threads(ws_l2_dram *l2, ws_sm *sms, const int32_t *due, uint64_t start,
                                     int32_t nthreads)
{
    ws_l2_split *sp = ws_l2_split_create(nthreads);
    assert_non_null(sp);
    assert_true(ws_l2_split_fits(NSM, start, start + WINDOW + 1));
    ws_l2_split_begin(sp, sms, due, NSM, start, start + WINDOW + 1, l2);
    pthread_t th[8];
    runner r[8];
    for (int32_t k = 1; k < nthreads; k++) {
        r[k] = (runner){.sp = sp, .index = k};
        assert_int_equal(pthread_create(&th[k], NULL, run_one, &r[k]), 0);
    }
    ws_l2_split_run(sp, 0);
    for (int32_t k = 1; k < nthreads; k++) pthread_join(th[k], NULL);
    ws_l2_split_result res = ws_l2_split_end(sp);
    ws_l2_split_free(sp);
    return res;
}

static void same_counts(const ws_l2_dram *a, const ws_l2_dram *b)
{
    assert_int_equal(a->count.lookups, b->count.lookups);
    assert_int_equal(a->count.hits, b->count.hits);
    assert_int_equal(a->count.dram_read_sectors, b->count.dram_read_sectors);
    assert_int_equal(a->count.dram_write_sectors, b->count.dram_write_sectors);
}

/* Every request of a window answered the same in a and b. */
static void same_answers(const ws_sm *a, const ws_sm *b)
{
    for (int32_t i = 0; i < NSM; i++)
        for (uint32_t r = 0; r < a[i].lsu_q.nreq; r++)
            assert_int_equal(b[i].lsu_q.req[r].done, a[i].lsu_q.req[r].done);
}

/* The state split and one were left in: the answers to reads of every
 * sector at cycle at, one by one on both, and the counts after them. */
static void same_state(ws_l2_dram *one, ws_l2_dram *split, uint64_t at)
{
    for (uint64_t s = 0; s < 300 * WS_SECTORS_PER_LINE; s++)
        assert_int_equal(ws_l2_read(split, s, at), ws_l2_read(one, s, at));
    same_counts(one, split);
}

static void test_as_one_by_one(void **state)
{
    (void)state;
    ws_gpu_config g = config();
    int32_t due[NSM];
    for (int32_t i = 0; i < NSM; i++) due[i] = i;
    static const int32_t threads[] = {1, 2, 3, 5};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        ws_l2_dram one, split;
        assert_true(ws_l2_init(&one, &g));
        assert_true(ws_l2_init(&split, &g));
        ws_sm *a = calloc(NSM, sizeof *a), *b = calloc(NSM, sizeof *b);
        assert_non_null(a);
        assert_non_null(b);
        /* three windows in a row, then reads of every line */
        for (uint64_t w = 0; w < 3; w++) {
            uint64_t start = 1000 + w * (WINDOW + 1);
            fill_sms(a, start, 77 + w);
            fill_sms(b, start, 77 + w);
            one_by_one(&one, a, start);
            assert_int_equal(on_threads(&split, b, due, start, threads[t]), WS_L2_SPLIT_ANSWERED);
            same_answers(a, b);
            same_counts(&one, &split);
            free_sms(a);
            free_sms(b);
        }
        same_state(&one, &split, 5000);
        free(a);
        free(b);
        ws_l2_free(&one);
        ws_l2_free(&split);
    }
}

/* A window with an atomic whose sector is not in the L2 (here an empty
 * one) is left alone: nothing answered, nothing changed. */
static void test_atomics_left_alone(void **state)
{
    (void)state;
    ws_gpu_config g = config();
    int32_t due[NSM];
    for (int32_t i = 0; i < NSM; i++) due[i] = i;
    ws_l2_dram l2;
    assert_true(ws_l2_init(&l2, &g));
    ws_sm *sms = calloc(NSM, sizeof *sms);
    assert_non_null(sms);
    fill_sms(sms, 1000, 5);
    ws_lsu_queue *q = &sms[NSM - 1].lsu_q;
    q->req[q->nreq - 1].op = WS_I_ATOM;
    assert_int_equal(on_threads(&l2, sms, due, 1000, 3), WS_L2_SPLIT_NOT_SPLIT);
    assert_int_equal(l2.count.lookups, 0);
    for (uint64_t s = 0; s < 300 * WS_SECTORS_PER_LINE; s++) {
        uint64_t ready;
        assert_false(ws_scache_lookup(&l2.slice[ws_l2_slice_of(&l2, s)].cache, s, &ready));
    }
    free_sms(sms);
    free(sms);
    ws_l2_free(&l2);
}

/* Windows with atomics, on hot lines (warmed: present, some dirty) and
 * on any line, among random reads and writes, on an L2 of 16 ways and on
 * the small one of 2: each window is either answered on the threads with
 * every answer and count of the window one by one, or left alone as it
 * was, and then answered one by one on both.  The state is compared at
 * the end as in test_as_one_by_one.  Both outcomes must occur: windows
 * whose atomics all find their sectors (the hot lines, used again and
 * again) and windows the check refuses (a miss, or a line that other
 * lines of its slice may evict first). */
static void test_atomics_as_one_by_one(void **state)
{
    (void)state;
    int32_t due[NSM];
    for (int32_t i = 0; i < NSM; i++) due[i] = i;
    static const int32_t threads[] = {1, 2, 3, 5};
    static const uint32_t ways[] = {16, 2};
    static const mix mixes[] = {{70, 0, 2}, {10, 0, 4}, {60, 0, 8}, {90, 0, 1}, {5, 1, 8}};
    uint32_t answered = 0, refused = 0;
    for (size_t wi = 0; wi < sizeof ways / sizeof ways[0]; wi++)
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            ws_gpu_config g = config();
            g.l2Associativity = (int32_t)ways[wi];
            g.l2CacheSize = 4 * 4096 * (int32_t)ways[wi];
            ws_l2_dram one, split;
            assert_true(ws_l2_init(&one, &g));
            assert_true(ws_l2_init(&split, &g));
            /* the hot lines in the L2, half of them dirty */
            for (uint64_t s = 0; s < 8 * WS_SECTORS_PER_LINE; s++) {
                assert_int_equal(ws_l2_read(&split, s, 100), ws_l2_read(&one, s, 100));
                if (s % 8 < 4) assert_int_equal(ws_l2_atomic(&split, s, 1, 200), ws_l2_atomic(&one, s, 1, 200));
            }
            ws_sm *a = calloc(NSM, sizeof *a), *b = calloc(NSM, sizeof *b);
            assert_non_null(a);
            assert_non_null(b);
            for (uint64_t w = 0; w < 10; w++) {
                uint64_t start = 1000 + w * (WINDOW + 1);
                mix m = mixes[w % 5];
                fill_sms_mix(a, start, 91 + w + 10 * t, m);
                fill_sms_mix(b, start, 91 + w + 10 * t, m);
                one_by_one(&one, a, start);
                ws_l2_split_result r = on_threads(&split, b, due, start, threads[t]);
                assert_true(r == WS_L2_SPLIT_ANSWERED || r == WS_L2_SPLIT_NOT_SPLIT);
                if (r == WS_L2_SPLIT_NOT_SPLIT) {
                    refused++;
                    one_by_one(&split, b, start);
                } else {
                    answered++;
                }
                same_answers(a, b);
                same_counts(&one, &split);
                free_sms(a);
                free_sms(b);
            }
            same_state(&one, &split, 9000);
            free(a);
            free(b);
            ws_l2_free(&one);
            ws_l2_free(&split);
        }
    assert_true(answered > 0);
    assert_true(refused > 0);
}

/* One SM's window of the given requests (op and sector each), a cycle
 * apart from start. */
static void one_sm_window(ws_sm *sm, uint64_t start, const uint8_t *op, const uint64_t *sector, uint32_t n)
{
    ws_lsu_queue *q = &sm->lsu_q;
    q->a = calloc(n, sizeof *q->a);
    q->req = calloc(n, sizeof *q->req);
    assert_non_null(q->a);
    assert_non_null(q->req);
    q->n = q->nreq = n;
    for (uint32_t k = 0; k < n; k++) {
        q->a[k] = (ws_lsu_pending){.cycle = start + k, .lead_reg = -1, .first_req = k, .nreq = 1};
        q->req[k] = (ws_l2_request){.sector = sector[k], .start = start + k + 10, .op = op[k], .first = true,
                                    .serial = 2};
    }
}

/* The check's bound, at its edge, on two ways: line a the most recent of
 * its set and x the other.  A miss on a third line b of the set evicts x,
 * and an atomic on a after it is answered on the threads as one by one;
 * in the next window a hit on b (now above a) and a miss on a fourth line
 * c evict a, and the check must refuse the atomic after them (others 2,
 * one way older than a). */
static void test_atomic_check_bound(void **state)
{
    (void)state;
    ws_gpu_config g = config();
    ws_l2_dram one, split;
    assert_true(ws_l2_init(&one, &g));
    assert_true(ws_l2_init(&split, &g));
    /* four lines of one slice and set */
    uint64_t line[4] = {5}, a = line[0] * WS_SECTORS_PER_LINE;
    uint32_t slice = ws_l2_slice_of(&one, a), nsets = one.slice[slice].cache.nsets;
    for (uint32_t n = 1, l = 6; n < 4; l++)
        if (ws_l2_slice_of(&one, (uint64_t)l * WS_SECTORS_PER_LINE) == slice && l % nsets == line[0] % nsets)
            line[n++] = l;
    uint64_t x = line[1] * WS_SECTORS_PER_LINE, b = line[2] * WS_SECTORS_PER_LINE, c = line[3] * WS_SECTORS_PER_LINE;
    ws_l2_dram *both[2] = {&one, &split};
    for (int i = 0; i < 2; i++) {
        ws_l2_read(both[i], a, 10);
        ws_l2_read(both[i], x, 20);
        ws_l2_atomic(both[i], a, 1, 30);    /* a the most recent, dirty */
    }
    int32_t due[1] = {0};
    static const uint8_t ops[] = {WS_I_LD, WS_I_ATOM};
    static const uint8_t ops3[] = {WS_I_LD, WS_I_LD, WS_I_ATOM};
    ws_sm s1[1], s2[1];
    memset(s1, 0, sizeof s1);
    memset(s2, 0, sizeof s2);
    uint64_t first[] = {b, a};
    one_sm_window(s1, 1000, ops, first, 2);
    one_sm_window(s2, 1000, ops, first, 2);
    for (uint32_t k = 0; k < 2; k++) s1->lsu_q.req[k].done = k == 0 ? ws_l2_read(&one, b, 1010) : ws_l2_atomic(&one, a, 2, 1011);
    ws_l2_split *sp = ws_l2_split_create(1);
    assert_non_null(sp);
    ws_l2_split_begin(sp, s2, due, 1, 1000, 1100, &split);
    ws_l2_split_run(sp, 0);
    assert_int_equal(ws_l2_split_end(sp), WS_L2_SPLIT_ANSWERED);
    for (uint32_t k = 0; k < 2; k++) assert_int_equal(s2->lsu_q.req[k].done, s1->lsu_q.req[k].done);
    same_counts(&one, &split);
    free_sms_n(s1, 1);
    free_sms_n(s2, 1);
    uint64_t second[] = {b, c, a};
    one_sm_window(s2, 2000, ops3, second, 3);
    ws_l2_split_begin(sp, s2, due, 1, 2000, 2100, &split);
    ws_l2_split_run(sp, 0);
    assert_int_equal(ws_l2_split_end(sp), WS_L2_SPLIT_NOT_SPLIT);
    same_counts(&one, &split);
    uint64_t ready;
    assert_true(ws_scache_lookup(&split.slice[slice].cache, a, &ready));     /* still there: nothing changed */
    free_sms_n(s2, 1);
    ws_l2_split_free(sp);
    ws_l2_free(&one);
    ws_l2_free(&split);
}

static int cmp_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* a[0, n) sorted by ws_sort_keys_from from bit `from` on comes out as
 * qsort orders the whole keys. */
static void assert_sorts_as_whole_keys(uint64_t *a, uint32_t n, uint32_t from)
{
    uint64_t *tmp = malloc(sizeof *tmp * (n ? n : 1)), *want = malloc(sizeof *want * (n ? n : 1));
    assert_non_null(tmp);
    assert_non_null(want);
    memcpy(want, a, sizeof *a * n);
    qsort(want, n, sizeof *want, cmp_keys);
    ws_sort_keys_from(a, tmp, n, from);
    assert_memory_equal(a, want, sizeof *a * n);
    free(tmp);
    free(want);
}

/* Keys sorted by their high 32 bits only come out in the order of the
 * whole keys when each value of the high bits has its low bits in order
 * (as the slices' lists have each SM's requests): lists of 1 to 5000 such
 * keys, several threads' runs one after another, against qsort. */
static void test_sort_by_high_bits(void **state)
{
    (void)state;
    uint64_t seed = 11;
    for (uint32_t n = 1; n <= 5000; n = n * 3 + 1) {
        uint64_t *a = malloc(sizeof *a * n);
        assert_non_null(a);
        uint32_t next_low[64] = {0};    /* per high value: its next low bits */
        for (uint32_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            uint32_t high = (uint32_t)(seed >> 58);     /* 64 values: cycles and SMs */
            uint64_t h = (uint64_t)(high * 0x01010101u + 0x100) << 32;
            next_low[high] += 1 + (uint32_t)(seed >> 40) % 300;
            a[i] = h | next_low[high];
        }
        assert_sorts_as_whole_keys(a, n, 32);
        free(a);
    }
}

/* Whole keys, random and with many equal (a window's blocks by the cycle
 * they started, their slot and SM), sorted from bit 0: lists of 1 to 5000,
 * short ones merged and long ones by bytes, against qsort. */
static void test_sort_whole_keys(void **state)
{
    (void)state;
    uint64_t seed = 3;
    for (uint32_t n = 1; n <= 5000; n = n * 2 + 1) {
        uint64_t *a = malloc(sizeof *a * n);
        assert_non_null(a);
        for (uint32_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            uint64_t started = 1000000 + (seed >> 60) * 253, slot = (seed >> 40) % 8, sm = (seed >> 20) % 132;
            a[i] = i % 2 ? seed : started << 22 | slot << 12 | sm;
        }
        assert_sorts_as_whole_keys(a, n, 0);
        free(a);
    }
}

/* The slices' lists as the route makes them: SM by SM, each SM's
 * requests in its list's order (cycles ascending, indices ascending), the
 * key (cycle << 44 | SM << 32 | index) of l2_split.c.  Sorted by the
 * cycle's bits alone they come out in the order of the whole keys:
 * windows of 1 to 300 cycles (one byte of cycles and two), 1 to 132 SMs,
 * against qsort. */
static void test_sort_by_cycle(void **state)
{
    (void)state;
    uint64_t seed = 5;
    for (uint32_t window = 1; window <= 300; window = window * 4 + 3) {
        for (uint32_t nsm = 1; nsm <= 132; nsm = nsm * 3 + 1) {
            uint32_t cap = nsm * 64, n = 0;
            uint64_t *a = malloc(sizeof *a * cap);
            assert_non_null(a);
            for (uint32_t j = 0; j < nsm; j++) {
                uint64_t cycle = 0, index = 0;
                for (uint32_t k = 0; k < 64; k++) {
                    seed = seed * 6364136223846793005u + 1442695040888963407u;
                    cycle += (seed >> 60) % 3 == 0;     /* several requests a cycle */
                    index += 1 + (seed >> 50) % 4;
                    if (cycle >= window) break;
                    a[n++] = cycle << 44 | (uint64_t)j << 32 | index;
                }
            }
            assert_sorts_as_whole_keys(a, n, 44);
            free(a);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_as_one_by_one),
        cmocka_unit_test(test_atomics_as_one_by_one),
        cmocka_unit_test(test_atomics_left_alone),
        cmocka_unit_test(test_atomic_check_bound),
        cmocka_unit_test(test_sort_by_high_bits),
        cmocka_unit_test(test_sort_whole_keys),
        cmocka_unit_test(test_sort_by_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
