/* Repeated-launch reuse on device memory directly: a "launch" made of
 * reads and writes while recorded, then found again (outputs, statistics
 * and printf output replayed) only when its key and the bytes it read are
 * the same, its outputs still in live allocations. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/core/launch_reuse.h"
#include "sim/core/thread_pool.h"

#define N 1000

typedef struct fixture {
    ws_devmem *mem;
    ws_reuse_cache *cache;
    uint64_t in, out;
    char prog, kern, gpu;       /* their addresses stand for a program, kernel and config */
    uint8_t params[8];
    ws_launch l;
    ws_timing_options t;
    ws_reuse_key key;
    ws_reuse_miss miss;         /* the last find's */
} fixture;

static void setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->mem = ws_devmem_create();
    f->cache = ws_reuse_create();
    f->in = ws_devmem_alloc(f->mem, N);
    f->out = ws_devmem_alloc(f->mem, N);
    uint8_t b[N];
    for (int i = 0; i < N; i++) b[i] = (uint8_t)(i * 3);
    assert_true(ws_devmem_write(f->mem, f->in, b, N));
    memcpy(f->params, &f->in, sizeof f->in);
    f->l = (ws_launch){.grid = {4, 1, 1}, .block = {256, 1, 1}, .params = f->params, .params_size = 8};
    f->t = ws_timing_defaults();
    f->key = (ws_reuse_key){.p = (const ws_program *)(const void *)&f->prog,
                            .k = (const ws_kernel *)(const void *)&f->kern,
                            .gpu = (const ws_gpu_config *)(const void *)&f->gpu, .l = &f->l, .timing = &f->t};
}

static void teardown(fixture *f)
{
    ws_reuse_destroy(f->cache);
    ws_devmem_destroy(f->mem);
}

/* The fixture's cache made anew with these limits. */
static void limit_cache(fixture *f, uint32_t records, uint32_t same_key, uint64_t bytes)
{
    ws_reuse_destroy(f->cache);
    f->cache = ws_reuse_create_limited((ws_reuse_limits){.records = records, .same_key = same_key, .bytes = bytes});
    assert_non_null(f->cache);
}

/* out[i] = in[i] + 1, as a kernel would: reads, then writes. */
static void add_one(fixture *f, uint64_t from, uint64_t to)
{
    uint8_t b[N];
    assert_true(ws_devmem_read(f->mem, from, b, N));
    for (int i = 0; i < N; i++) b[i]++;
    assert_true(ws_devmem_write(f->mem, to, b, N));
}

static void record(fixture *f, uint64_t no, uint64_t from, uint64_t to)
{
    ws_reuse_recorder *r = ws_reuse_record_begin(f->cache, f->mem);
    assert_non_null(r);
    add_one(f, from, to);
    ws_launch_stats st = {.warp_insts = 42 + no};
    ws_timing_stats ts = {.cycles = 1234 + no};
    ws_reuse_record_end(r, true, &f->key, no, &st, &ts, "hi\n", 3, 1, NULL);
}

static uint64_t find(fixture *f, char *printed)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ws_launch_stats st;
    ws_timing_stats ts;
    bool oom = true;
    uint64_t from = ws_reuse_find(f->cache, f->mem, &f->key, out, &st, &ts, &oom, &f->miss);
    fclose(out);
    assert_false(oom);
    if (from) {
        assert_int_equal(st.warp_insts, 42 + from);
        assert_int_equal(ts.cycles, 1234 + from);
    }
    snprintf(printed, 16, "%s", text ? text : "");
    free(text);
    return from;
}

static uint8_t byte_at(fixture *f, uint64_t a)
{
    uint8_t v;
    assert_true(ws_devmem_read(f->mem, a, &v, 1));
    return v;
}

static void test_same_inputs_replayed(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    char printed[16];
    assert_int_equal(find(&f, printed), 0);         /* nothing recorded yet */
    record(&f, 1, f.in, f.out);
    assert_int_equal(byte_at(&f, f.out + 10), 31);
    uint8_t z[N] = {0};
    assert_true(ws_devmem_write(f.mem, f.out, z, N));
    assert_int_equal(find(&f, printed), 1);
    assert_string_equal(printed, "hi\n");
    for (int i = 0; i < N; i += 97) assert_int_equal(byte_at(&f, f.out + (uint64_t)i), (uint8_t)(i * 3 + 1));
    teardown(&f);
}

/* A launch that wrote every other byte of three pages (a strided store):
 * its replay, which puts a made page's bytes in place mask word by mask
 * word, writes those bytes and leaves the others as the host left them
 * since; the pages made before the launch, or by it. */
static void test_sparse_writes_replayed(void **state)
{
    (void)state;
    enum { BIG = 3 * 4096 };
    static uint8_t b[BIG];
    for (int made = 0; made < 2; made++) {
        fixture f;
        setup(&f);
        uint64_t big = ws_devmem_alloc(f.mem, BIG);
        memset(b, 1, BIG);
        if (made) assert_true(ws_devmem_write(f.mem, big, b, BIG));
        ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
        assert_non_null(r);
        assert_true(ws_devmem_read(f.mem, f.in, b, N));
        for (uint64_t i = 0; i < BIG; i += 2) {
            uint8_t v = (uint8_t)(i / 2 + 7);
            assert_true(ws_devmem_write(f.mem, big + i, &v, 1));
        }
        ws_launch_stats st = {.warp_insts = 43};
        ws_timing_stats ts = {.cycles = 1235};
        ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, "hi\n", 3, 1, NULL);
        memset(b, 0xee, BIG);
        assert_true(ws_devmem_write(f.mem, big, b, BIG));
        char printed[16];
        assert_int_equal(find(&f, printed), 1);
        assert_true(ws_devmem_read(f.mem, big, b, BIG));
        for (int i = 0; i < BIG; i++)
            if (b[i] != (i % 2 ? 0xee : (uint8_t)(i / 2 + 7))) fail_msg("made %d: byte %d is %d", made, i, b[i]);
        teardown(&f);
    }
}

static void test_changes_refused(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    char printed[16];
    record(&f, 1, f.in, f.out);
    uint8_t z[N] = {0}, v = 99;
    assert_true(ws_devmem_write(f.mem, f.out, z, N));
    /* another argument byte */
    f.params[7] ^= 1;
    assert_int_equal(find(&f, printed), 0);
    assert_int_equal(f.miss.launch_no, 0);          /* no record of that key */
    f.params[7] ^= 1;
    /* another grid */
    f.l.grid.x = 5;
    assert_int_equal(find(&f, printed), 0);
    f.l.grid.x = 4;
    /* one input byte changed: not reused, and nothing written */
    assert_true(ws_devmem_write(f.mem, f.in + 999, &v, 1));
    assert_int_equal(find(&f, printed), 0);
    assert_string_equal(printed, "");
    assert_int_equal(byte_at(&f, f.out + 5), 0);
    assert_int_equal(f.miss.launch_no, 1);          /* why: that byte */
    assert_int_equal(f.miss.addr, f.in + 999);
    assert_false(f.miss.freed);
    /* as it was: reused */
    v = (uint8_t)(999 * 3);
    assert_true(ws_devmem_write(f.mem, f.in + 999, &v, 1));
    assert_int_equal(find(&f, printed), 1);
    assert_int_equal(f.miss.launch_no, 0);
    /* the output freed: its bytes cannot be written, not reused */
    assert_true(ws_devmem_free(f.mem, f.out));
    assert_int_equal(find(&f, printed), 0);
    assert_int_equal(f.miss.launch_no, 1);
    assert_int_equal(f.miss.addr, f.out);
    assert_true(f.miss.freed);
    teardown(&f);
}

static void test_in_place(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    char printed[16];
    /* reads in, writes in + 1: the next launch reads what this one wrote */
    record(&f, 1, f.in, f.in);
    assert_int_equal(byte_at(&f, f.in + 10), 31);
    assert_int_equal(find(&f, printed), 0);
    /* the bytes it read (at its start) back: reused, in + 1 written again */
    uint8_t b[N];
    for (int i = 0; i < N; i++) b[i] = (uint8_t)(i * 3);
    assert_true(ws_devmem_write(f.mem, f.in, b, N));
    assert_int_equal(find(&f, printed), 1);
    assert_int_equal(byte_at(&f, f.in + 10), 31);
    teardown(&f);
}

static void test_failed_launch_not_kept(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    char printed[16];
    ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
    add_one(&f, f.in, f.out);
    ws_launch_stats st = {.warp_insts = 1};
    ws_timing_stats ts = {.cycles = 1};
    ws_reuse_record_end(r, false, &f.key, 1, &st, &ts, NULL, 0, 1, NULL);
    assert_int_equal(find(&f, printed), 0);
    /* nor after the cache is cleared */
    record(&f, 2, f.in, f.out);
    ws_reuse_clear(f.cache);
    assert_int_equal(find(&f, printed), 0);
    teardown(&f);
}

/* Accesses of a few bytes (as a lane's 1, 2, 4 and 8 bytes, and 3)
 * count exactly their bytes: a change next to one that was read still
 * reuses, a change inside one does not; a replay writes exactly the bytes
 * that were written. */
static void test_small_pieces(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    char printed[16];
    static const uint32_t read_at[] = {3, 6, 12, 24, 33}, read_n[] = {1, 2, 4, 8, 3};
    static const uint32_t write_at[] = {5, 10, 20, 40}, write_n[] = {1, 2, 4, 8};
    uint8_t b[8], ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
    for (int i = 0; i < 5; i++) assert_true(ws_devmem_read(f.mem, f.in + read_at[i], b, read_n[i]));
    for (int i = 0; i < 4; i++) assert_true(ws_devmem_write(f.mem, f.out + write_at[i], ones, write_n[i]));
    ws_launch_stats st = {.warp_insts = 43};
    ws_timing_stats ts = {.cycles = 1235};
    ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, "hi\n", 3, 1, NULL);

    uint8_t z[N] = {0};
    assert_true(ws_devmem_write(f.mem, f.out, z, N));
    assert_int_equal(find(&f, printed), 1);
    for (uint32_t a = 0; a < 64; a++) {
        bool written = false;
        for (int i = 0; i < 4; i++) written |= a >= write_at[i] && a < write_at[i] + write_n[i];
        assert_int_equal(byte_at(&f, f.out + a), written ? 1 : 0);
    }
    for (uint32_t a = 0; a < 64; a++) {
        bool read = false;
        for (int i = 0; i < 5; i++) read |= a >= read_at[i] && a < read_at[i] + read_n[i];
        uint8_t was = byte_at(&f, f.in + a), other = (uint8_t)(was + 1);
        assert_true(ws_devmem_write(f.mem, f.in + a, &other, 1));
        assert_int_equal(find(&f, printed), read ? 0 : 1);
        assert_true(ws_devmem_write(f.mem, f.in + a, &was, 1));
    }
    teardown(&f);
}

/* Runs of bytes across the mask's 64-bit words, its 256-byte chunks and
 * whole pages: an allocation of three pages and a half (its first and last
 * pages shared with other allocations, the middle ones its own) read and
 * written but for holes at word and chunk edges; each byte read, changed
 * alone, refuses the record and is the one named; each byte outside the
 * runs changes nothing; the replay writes exactly the bytes written. */
static void test_long_runs(void **state)
{
    (void)state;
    enum { BIG = 3 * 4096 + 2048 };
    fixture f;
    setup(&f);
    char printed[16];
    uint64_t a = ws_devmem_alloc(f.mem, BIG), o = ws_devmem_alloc(f.mem, BIG);
    uint8_t *b = malloc(BIG), *z = calloc(BIG, 1);
    assert_non_null(b);
    assert_non_null(z);
    for (int i = 0; i < BIG; i++) b[i] = (uint8_t)(i * 7 + 1);
    assert_true(ws_devmem_write(f.mem, a, b, BIG));
    /* the runs: [from[i], to[i]) */
    static const uint32_t from[] = {0, 64, 200, 4095, 9000}, to[] = {63, 190, 4000, 8193, BIG - 1};
    enum { RUNS = sizeof from / sizeof from[0] };
    ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
    assert_non_null(r);
    for (int i = 0; i < RUNS; i++) {
        assert_true(ws_devmem_read(f.mem, a + from[i], b + from[i], to[i] - from[i]));
        assert_true(ws_devmem_write(f.mem, o + from[i], b + from[i], to[i] - from[i]));
    }
    ws_launch_stats st = {.warp_insts = 43};
    ws_timing_stats ts = {.cycles = 1235};
    ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, "hi\n", 3, 1, NULL);

    assert_true(ws_devmem_write(f.mem, o, z, BIG));
    assert_int_equal(find(&f, printed), 1);
    uint8_t *got = malloc(BIG);
    assert_non_null(got);
    assert_true(ws_devmem_read(f.mem, o, got, BIG));
    for (uint32_t i = 0; i < BIG; i++) {
        bool in_run = false;
        for (int k = 0; k < RUNS; k++) in_run |= i >= from[k] && i < to[k];
        assert_int_equal(got[i], in_run ? b[i] : 0);
    }
    static const uint32_t probe[] = {0, 1, 62, 63, 64, 127, 128, 189, 190, 199, 200, 255, 256, 3999, 4000,
                                     4094, 4095, 4096, 8191, 8192, 8193, 8999, 9000, 12288, BIG - 2, BIG - 1};
    for (size_t j = 0; j < sizeof probe / sizeof probe[0]; j++) {
        uint32_t i = probe[j];
        bool in_run = false;
        for (int k = 0; k < RUNS; k++) in_run |= i >= from[k] && i < to[k];
        uint8_t other = (uint8_t)(b[i] + 1);
        assert_true(ws_devmem_write(f.mem, a + i, &other, 1));
        assert_int_equal(find(&f, printed), in_run ? 0 : 1);
        if (in_run) assert_int_equal(f.miss.addr, a + i);
        assert_true(ws_devmem_write(f.mem, a + i, b + i, 1));
    }
    /* the outputs' allocation freed: the record is not taken, and the
     * first byte it wrote is named */
    assert_true(ws_devmem_free(f.mem, o));
    assert_int_equal(find(&f, printed), 0);
    assert_true(f.miss.freed);
    assert_int_equal(f.miss.addr, o + from[0]);
    free(b);
    free(z);
    free(got);
    teardown(&f);
}

/* A launch that touches more than 256 MiB (65536 pages of 4 KiB) is not
 * kept; one that touches exactly that is. */
static void test_page_limit(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    char printed[16];
    uint64_t big = ws_devmem_alloc(f.mem, (UINT64_C(65536) + 1) * 4096);
    for (uint64_t pages = 65536; pages <= 65537; pages++) {
        ws_reuse_clear(f.cache);
        ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
        uint8_t v;
        for (uint64_t p = 0; p < pages; p++) assert_true(ws_devmem_read(f.mem, big + p * 4096, &v, 1));
        ws_launch_stats st = {.warp_insts = 43};
        ws_timing_stats ts = {.cycles = 1235};
        ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, NULL, 0, 1, NULL);
        assert_int_equal(find(&f, printed), pages == 65536 ? 1 : 0);
    }
    teardown(&f);
}

/* A launch whose SMs run on several threads reads on all of them: each
 * quarter of the input is read by a thread of its own while recorded, and
 * a byte any one of them read, changed, keeps the launch from reuse. */
typedef struct quarter {
    fixture *f;
    int q;
} quarter;

static void *read_quarter(void *arg)
{
    const quarter *a = arg;
    uint8_t b[N / 4];
    for (int rep = 0; rep < 50; rep++)     /* long enough for the threads to overlap */
        if (!ws_devmem_read(a->f->mem, a->f->in + (uint64_t)a->q * (N / 4), b, N / 4)) return NULL;
    return arg;
}

static void record_on_threads(fixture *f, uint64_t no)
{
    ws_reuse_recorder *r = ws_reuse_record_begin(f->cache, f->mem);
    assert_non_null(r);
    pthread_t th[4];
    quarter q[4];
    for (int i = 0; i < 4; i++) {
        q[i] = (quarter){f, i};
        assert_int_equal(pthread_create(&th[i], NULL, read_quarter, &q[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        void *ok;
        pthread_join(th[i], &ok);
        assert_ptr_equal(ok, &q[i]);
    }
    add_one(f, f->in, f->out);      /* the writes, on the calling thread */
    ws_launch_stats st = {.warp_insts = 42 + no};
    ws_timing_stats ts = {.cycles = 1234 + no};
    ws_reuse_record_end(r, true, &f->key, no, &st, &ts, NULL, 0, 4, NULL);
}

static void test_reads_on_threads(void **state)
{
    (void)state;
    for (int q = 0; q < 4; q++) {
        fixture f;
        setup(&f);
        char printed[16];
        /* the calling thread reads nothing, so that only the threads' reads guard */
        f.l.grid.x = 7;
        ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
        pthread_t th;
        quarter a = {&f, q};
        assert_int_equal(pthread_create(&th, NULL, read_quarter, &a), 0);
        pthread_join(th, NULL);
        ws_launch_stats st = {.warp_insts = 43};
        ws_timing_stats ts = {.cycles = 1235};
        ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, NULL, 0, 1, NULL);
        assert_int_equal(find(&f, printed), 1);
        uint64_t at = f.in + (uint64_t)q * (N / 4) + 17;
        uint8_t v = (uint8_t)(byte_at(&f, at) + 1);
        assert_true(ws_devmem_write(f.mem, at, &v, 1));
        assert_int_equal(find(&f, printed), 0);
        teardown(&f);
    }
    fixture f;
    setup(&f);
    char printed[16];
    record_on_threads(&f, 1);
    assert_int_equal(byte_at(&f, f.out + 10), 31);
    assert_int_equal(find(&f, printed), 1);
    uint8_t v = 7;
    assert_true(ws_devmem_write(f.mem, f.in + 3 * (N / 4) + 5, &v, 1));
    assert_int_equal(find(&f, printed), 0);
    teardown(&f);
}

/* A record of thousands of pages is copied on several threads: for 1, 3
 * and 8 of them, and 3 and 8 of one pool's (thread_pool.h), a launch that
 * reads 12 MiB, writes 8 MiB elsewhere and changes some pages it read in
 * place is replayed exactly (the outputs and the in-place pages as the
 * launch left them, checked against the bytes computed here) once its
 * input holds the values it read again, and not when a byte of it read on
 * the last page differs. */
#define BIG_IN (3000 * 4096)
#define BIG_OUT (2000 * 4096)

static uint8_t big_byte(uint64_t i) { return (uint8_t)(i * 7 + i / 4096); }

static void test_big_record_on_threads(void **state)
{
    (void)state;
    static const int32_t threads[] = {1, 3, 8, 3, 8};
    enum { POOLED_FROM = 3, CASES = 5 };
    ws_thread_pool *pool = ws_thread_pool_create();
    uint8_t *host = malloc(BIG_IN), *got = malloc(BIG_IN);
    assert_non_null(pool);
    assert_non_null(host);
    assert_non_null(got);
    for (int t = 0; t < CASES; t++) {
        fixture f;
        setup(&f);
        char printed[16];
        uint64_t in = ws_devmem_alloc(f.mem, BIG_IN), out = ws_devmem_alloc(f.mem, BIG_OUT);
        for (uint64_t i = 0; i < BIG_IN; i++) host[i] = big_byte(i);
        assert_true(ws_devmem_write(f.mem, in, host, BIG_IN));
        ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
        assert_non_null(r);
        assert_true(ws_devmem_read(f.mem, in, got, BIG_IN));
        for (uint64_t i = 0; i < BIG_OUT; i++) got[i]++;
        assert_true(ws_devmem_write(f.mem, out, got, BIG_OUT));
        for (uint64_t pg = 100; pg < 3000; pg += 37) {      /* in place: after it was read */
            uint8_t v = (uint8_t)(big_byte(pg * 4096 + 9) + 2);
            assert_true(ws_devmem_write(f.mem, in + pg * 4096 + 9, &v, 1));
        }
        ws_launch_stats st = {.warp_insts = 43};
        ws_timing_stats ts = {.cycles = 1235};
        ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, NULL, 0, threads[t], t >= POOLED_FROM ? pool : NULL);
        /* the inputs as they were, the outputs gone: replayed */
        assert_true(ws_devmem_write(f.mem, in, host, BIG_IN));
        memset(got, 0, BIG_OUT);
        assert_true(ws_devmem_write(f.mem, out, got, BIG_OUT));
        assert_int_equal(find(&f, printed), 1);
        assert_true(ws_devmem_read(f.mem, out, got, BIG_OUT));
        for (uint64_t i = 0; i < BIG_OUT; i++)
            if (got[i] != (uint8_t)(big_byte(i) + 1))
                fail_msg("%d threads: output byte %llu is %u, want %u", threads[t], (unsigned long long)i, got[i],
                         (uint8_t)(big_byte(i) + 1));
        assert_true(ws_devmem_read(f.mem, in, got, BIG_IN));
        for (uint64_t i = 0; i < BIG_IN; i++) {
            uint64_t pg = i / 4096;
            bool changed = pg >= 100 && (pg - 100) % 37 == 0 && i % 4096 == 9;
            if (got[i] != (uint8_t)(big_byte(i) + (changed ? 2 : 0)))
                fail_msg("%d threads: input byte %llu is %u after the replay", threads[t], (unsigned long long)i, got[i]);
        }
        /* a byte read on the last page, changed: simulated again */
        assert_true(ws_devmem_write(f.mem, in, host, BIG_IN));
        uint8_t v = (uint8_t)(host[BIG_IN - 3] + 1);
        assert_true(ws_devmem_write(f.mem, in + BIG_IN - 3, &v, 1));
        assert_int_equal(find(&f, printed), 0);
        teardown(&f);
    }
    /* the pooled copies took the pool's threads: 7 for 8, started once */
    assert_int_equal(ws_thread_pool_size(pool), 7);
    ws_thread_pool_free(pool);
    free(host);
    free(got);
}

/* Writes a window puts off, told ahead by the threads that captured them
 * (ws_devmem_tell_ahead) and made later without a note: in[0..4) += 1 in
 * two windows, told in window 1 by one thread and in window 2 by another,
 * either of them the first to tell the recorder anything.  The copy of
 * the page it keeps as read is the one from window 1, before any write,
 * not the later one. */
typedef struct ahead_run {
    fixture *f;
    pthread_barrier_t *steps;
    bool first;         /* which of the two threads */
    bool table_first;   /* its table made first */
} ahead_run;

/* in[off..off + 4) += 1, as a window's end makes put-off writes: no note. */
static void add_one_untold(fixture *f, uint64_t off)
{
    uint8_t *h = ws_devmem_write_span(f->mem, f->in + off, 4);
    assert_non_null(h);
    for (int i = 0; i < 4; i++) h[i]++;
}

static void *tell_in_turn(void *arg)
{
    const ahead_run *a = arg;
    ws_devmem *m = a->f->mem;
    uint64_t in = a->f->in;
    if (a->table_first) ws_devmem_tell_ahead(m, in + 500, 1, false);
    pthread_barrier_wait(a->steps);
    if (!a->table_first) ws_devmem_tell_ahead(m, in + 600, 1, false);
    pthread_barrier_wait(a->steps);
    if (a->first) {                         /* window 1 */
        ws_devmem_tell_ahead(m, in, 4, false);
        ws_devmem_tell_ahead(m, in, 4, true);
    }
    pthread_barrier_wait(a->steps);
    pthread_barrier_wait(a->steps);         /* window 1's writes */
    if (!a->first) {                        /* window 2 */
        ws_devmem_tell_ahead(m, in, 4, false);
        ws_devmem_tell_ahead(m, in, 4, true);
    }
    pthread_barrier_wait(a->steps);
    return NULL;
}

static void test_writes_told_ahead(void **state)
{
    (void)state;
    for (int later_table_first = 0; later_table_first < 2; later_table_first++) {
        fixture f;
        setup(&f);
        char printed[16];
        pthread_barrier_t steps;
        pthread_barrier_init(&steps, NULL, 3);
        ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
        assert_non_null(r);
        pthread_t th[2];
        ahead_run run[2] = {{&f, &steps, true, !later_table_first}, {&f, &steps, false, later_table_first}};
        for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&th[i], NULL, tell_in_turn, &run[i]), 0);
        pthread_barrier_wait(&steps);
        pthread_barrier_wait(&steps);
        pthread_barrier_wait(&steps);
        add_one_untold(&f, 0);                  /* window 1's end */
        pthread_barrier_wait(&steps);
        pthread_barrier_wait(&steps);
        add_one_untold(&f, 0);                  /* window 2's end */
        for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
        pthread_barrier_destroy(&steps);
        ws_launch_stats st = {.warp_insts = 43};
        ws_timing_stats ts = {.cycles = 1235};
        ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, NULL, 0, 1, NULL);
        /* as the launch left them: not what it read */
        assert_int_equal(find(&f, printed), 0);
        /* as before the launch: replayed, and the launch's writes made again */
        uint8_t before[4];
        for (int i = 0; i < 4; i++) before[i] = (uint8_t)(i * 3);
        assert_true(ws_devmem_write(f.mem, f.in, before, 4));
        assert_int_equal(find(&f, printed), 1);
        for (int i = 0; i < 4; i++) assert_int_equal(byte_at(&f, f.in + (uint64_t)i), (uint8_t)(i * 3 + 2));
        teardown(&f);
    }
}

/* Eight threads, each running tell (eighth: which of them, k), tell
 * ahead at once in one window of a recorded launch of the reads and
 * writes of one buffer of 64 pages; the writes are made after, all bytes
 * + 1, untold.  The record holds every byte as read (the copies from
 * before the writes) and as written: it is not found on the buffer as the
 * launch left it, and, found on the buffer as it was, replays the
 * launch's output byte for byte. */
#define SHARED_BYTES (64 * 4096)

typedef struct eighth {
    fixture *f;
    uint64_t buf;
    int k;
} eighth;

static void eight_threads_at_once(void *(*tell)(void *))
{
    fixture f;
    setup(&f);
    char printed[16];
    uint64_t buf = ws_devmem_alloc(f.mem, SHARED_BYTES);
    uint8_t *host = malloc(SHARED_BYTES);
    assert_non_null(host);
    for (uint64_t i = 0; i < SHARED_BYTES; i++) host[i] = (uint8_t)(i * 5 + i / 4096);
    assert_true(ws_devmem_write(f.mem, buf, host, SHARED_BYTES));
    ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
    assert_non_null(r);
    pthread_t th[8];
    eighth e[8];
    for (int k = 0; k < 8; k++) {
        e[k] = (eighth){&f, buf, k};
        assert_int_equal(pthread_create(&th[k], NULL, tell, &e[k]), 0);
    }
    for (int k = 0; k < 8; k++) pthread_join(th[k], NULL);
    for (uint64_t at = 0; at < SHARED_BYTES; at += 256) {     /* the window's end, untold */
        uint8_t *h = ws_devmem_write_span(f.mem, buf + at, 256);
        assert_non_null(h);
        for (int i = 0; i < 256; i++) h[i]++;
    }
    ws_launch_stats st = {.warp_insts = 43};
    ws_timing_stats ts = {.cycles = 1235};
    ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, NULL, 0, 4, NULL);
    assert_int_equal(find(&f, printed), 0);
    assert_true(ws_devmem_write(f.mem, buf, host, SHARED_BYTES));
    assert_int_equal(find(&f, printed), 1);
    uint8_t *got = malloc(SHARED_BYTES);
    assert_non_null(got);
    assert_true(ws_devmem_read(f.mem, buf, got, SHARED_BYTES));
    for (uint64_t i = 0; i < SHARED_BYTES; i++)
        if (got[i] != (uint8_t)(host[i] + 1))
            fail_msg("byte %llu is %u after the replay, want %u", (unsigned long long)i, got[i], (uint8_t)(host[i] + 1));
    free(got);
    free(host);
    teardown(&f);
}

/* Each thread every eighth byte, read and written, so that they claim the
 * pages and set bits of one mask byte together. */
static void *tell_eighth(void *arg)
{
    const eighth *e = arg;
    for (uint64_t i = (uint64_t)e->k; i < SHARED_BYTES; i += 8) {
        ws_devmem_tell_ahead(e->f->mem, e->buf + i, 1, false);
        ws_devmem_tell_ahead(e->f->mem, e->buf + i, 1, true);
    }
    return NULL;
}

static void test_writes_told_ahead_at_once(void **state)
{
    (void)state;
    eight_threads_at_once(tell_eighth);
}

/* Thread 2j tells of writes to the bytes j, j + 4, j + 8..., thread 2j + 1
 * of reads of the same bytes, so that a page becomes read and written by
 * whichever note comes second, a read or a write, on any thread: the copy
 * that note makes must hold the bytes as the reads saw them. */
static void *tell_half(void *arg)
{
    const eighth *e = arg;
    for (uint64_t i = (uint64_t)(e->k / 2); i < SHARED_BYTES; i += 4)
        ws_devmem_tell_ahead(e->f->mem, e->buf + i, 1, e->k % 2 == 0);
    return NULL;
}

static void test_read_and_written_by_others(void **state)
{
    (void)state;
    eight_threads_at_once(tell_half);
}

/* A page written (in[0..4) + 1, told ahead in window 1, made at its end),
 * then read (in[0..8), window 2), then written again (in[4..8) + 1,
 * window 3): its copy, made in window 2, holds in[0..4) as the launch
 * wrote them, which its own reads returned (whatever they were before),
 * and in[4..8) as at the start.  Not found on the buffer as the launch
 * left it (in[4..8) are not what it read); found with in[4..8) as at the
 * start, in[0..4) as left; not with in[5] changed as well. */
static void test_read_after_written(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    char printed[16];
    ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
    assert_non_null(r);
    ws_devmem_tell_ahead(f.mem, f.in, 4, true);     /* window 1 */
    add_one_untold(&f, 0);
    ws_devmem_tell_ahead(f.mem, f.in, 8, false);    /* window 2 */
    ws_devmem_tell_ahead(f.mem, f.in + 4, 4, true); /* window 3 */
    add_one_untold(&f, 4);
    ws_launch_stats st = {.warp_insts = 43};
    ws_timing_stats ts = {.cycles = 1235};
    ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, NULL, 0, 1, NULL);
    assert_int_equal(find(&f, printed), 0);
    uint8_t start[4];
    for (int i = 0; i < 4; i++) start[i] = (uint8_t)((4 + i) * 3);
    assert_true(ws_devmem_write(f.mem, f.in + 4, start, 4));
    assert_int_equal(find(&f, printed), 1);
    for (int i = 0; i < 8; i++) assert_int_equal(byte_at(&f, f.in + (uint64_t)i), (uint8_t)(i * 3 + 1));
    assert_true(ws_devmem_write(f.mem, f.in + 4, start, 4));
    uint8_t v = (uint8_t)(start[1] + 1);
    assert_true(ws_devmem_write(f.mem, f.in + 5, &v, 1));
    assert_int_equal(find(&f, printed), 0);
    /* in[0..4), written by writes told ahead, stay compared: a window's
     * reads are told before its writes are made, and which of them came
     * first is not kept (stricter than needed, never less) */
    uint8_t zero[4] = {0};
    assert_true(ws_devmem_write(f.mem, f.in, zero, 4));
    assert_true(ws_devmem_write(f.mem, f.in + 4, start, 4));
    assert_int_equal(find(&f, printed), 0);
    teardown(&f);
}

/* Bytes a launch reads only after writes made now (a launch run cycle by
 * cycle, its writes made at each cycle's end) are not compared: in[0..2)
 * read, in[0..4) written, in[2..8) read, in[4..8) written.  Found with
 * in[2..4) zero, the others as at the start, and then written as the
 * launch wrote them; not with in[0..2) zero, nor with in[5] changed. */
static void test_read_after_made(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    char printed[16];
    ws_reuse_recorder *r = ws_reuse_record_begin(f.cache, f.mem);
    assert_non_null(r);
    uint8_t b[8];
    assert_true(ws_devmem_read(f.mem, f.in, b, 2));
    b[2] = 2 * 3;
    b[3] = 3 * 3;
    for (int i = 0; i < 4; i++) b[i]++;
    assert_true(ws_devmem_write(f.mem, f.in, b, 4));
    assert_true(ws_devmem_read(f.mem, f.in + 2, b, 6));
    for (int i = 2; i < 6; i++) b[i]++;
    assert_true(ws_devmem_write(f.mem, f.in + 4, b + 2, 4));
    ws_launch_stats st = {.warp_insts = 43};
    ws_timing_stats ts = {.cycles = 1235};
    ws_reuse_record_end(r, true, &f.key, 1, &st, &ts, NULL, 0, 1, NULL);
    uint8_t start[8], zero[2] = {0};
    for (int i = 0; i < 8; i++) start[i] = (uint8_t)(i * 3);
    assert_true(ws_devmem_write(f.mem, f.in, start, 8));
    assert_true(ws_devmem_write(f.mem, f.in + 2, zero, 2));    /* read only after written */
    assert_int_equal(find(&f, printed), 1);
    for (int i = 0; i < 8; i++) assert_int_equal(byte_at(&f, f.in + (uint64_t)i), (uint8_t)(i * 3 + 1));
    assert_true(ws_devmem_write(f.mem, f.in, zero, 2));        /* read at the start: compared */
    assert_int_equal(find(&f, printed), 0);
    assert_true(ws_devmem_write(f.mem, f.in, start, 8));
    uint8_t v = (uint8_t)(start[5] + 1);
    assert_true(ws_devmem_write(f.mem, f.in + 5, &v, 1));
    assert_int_equal(find(&f, printed), 0);
    teardown(&f);
}

/* The recorder's table, kept from one recorded launch to the next, holds
 * nothing of the last one: a launch that reads in2 alone, recorded after
 * one that read in, is found again with in changed; so is one recorded
 * once 16 MiB of device memory hold bytes (its table made anew, in huge
 * pages where the system gives them). */
static void test_table_kept(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    char printed[16];
    uint64_t in2 = ws_devmem_alloc(f.mem, N), out2 = ws_devmem_alloc(f.mem, N);
    uint8_t b[N];
    for (int i = 0; i < N; i++) b[i] = (uint8_t)(i * 5 + 1);
    assert_true(ws_devmem_write(f.mem, in2, b, N));
    record(&f, 1, f.in, f.out);
    f.params[7] ^= 1;
    record(&f, 2, in2, out2);
    uint8_t v = (uint8_t)(byte_at(&f, f.in + 10) + 1);
    assert_true(ws_devmem_write(f.mem, f.in + 10, &v, 1));
    assert_int_equal(find(&f, printed), 2);
    uint64_t big = (uint64_t)16 << 20, at = ws_devmem_alloc(f.mem, big);
    assert_true(ws_devmem_fill(f.mem, at, 7, big));
    f.params[7] ^= 2;
    record(&f, 3, in2, out2);
    v = (uint8_t)(byte_at(&f, f.in + 11) + 1);
    assert_true(ws_devmem_write(f.mem, f.in + 11, &v, 1));
    assert_int_equal(find(&f, printed), 3);
    f.params[7] ^= 2;
    assert_int_equal(find(&f, printed), 2);
    teardown(&f);
}

/* Records share the copies of pages whose bytes are the same: a second
 * launch (another key) that reads the same input and writes the same
 * output makes no copy; one that read another byte makes its own.  Each
 * record replays its own bytes, and the copies outlive the older records
 * that shared them (dropped when the cache is full) until the last goes. */
static void test_copies_shared(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    limit_cache(&f, 16, 16, UINT64_C(1) << 30);     /* 16 records at most, as the loop below needs */
    char printed[16];
    uint8_t z[N] = {0};
    record(&f, 1, f.in, f.out);
    size_t one = ws_reuse_page_copies(f.cache);
    assert_true(one >= 1);
    f.params[7] ^= 1;       /* another key: the same bytes read and written */
    record(&f, 2, f.in, f.out);
    assert_int_equal(ws_reuse_page_copies(f.cache), one);
    assert_true(ws_devmem_write(f.mem, f.out, z, N));
    assert_int_equal(find(&f, printed), 2);
    assert_int_equal(byte_at(&f, f.out + 10), 31);
    f.params[7] ^= 1;
    assert_int_equal(find(&f, printed), 1);
    /* a third key reading one other byte: copies of its own, and its
     * replay writes its output, not the others' */
    uint8_t v = 200;
    assert_true(ws_devmem_write(f.mem, f.in + 999, &v, 1));
    f.params[6] ^= 1;
    record(&f, 3, f.in, f.out);
    assert_true(ws_reuse_page_copies(f.cache) > one);
    assert_true(ws_devmem_write(f.mem, f.out, z, N));
    assert_int_equal(find(&f, printed), 3);
    assert_int_equal(byte_at(&f, f.out + 999), 201);
    assert_int_equal(byte_at(&f, f.out + 10), 31);
    f.params[6] ^= 1;
    assert_int_equal(find(&f, printed), 0);    /* key 1 read 999 * 3 there */
    /* more records of the same bytes push the first ones out */
    f.params[6] ^= 1;
    for (uint32_t k = 0; k < 16; k++) {
        f.l.grid.x = 10 + k;
        record(&f, 10 + k, f.in, f.out);
    }
    f.l.grid.x = 4;
    assert_true(ws_devmem_write(f.mem, f.out, z, N));
    assert_int_equal(find(&f, printed), 0);    /* key 3's record was dropped */
    f.l.grid.x = 25;
    assert_int_equal(find(&f, printed), 25);
    assert_int_equal(byte_at(&f, f.out + 999), 201);
    assert_int_equal(byte_at(&f, f.out + 10), 31);
    ws_reuse_clear(f.cache);
    assert_int_equal(ws_reuse_page_copies(f.cache), 0);
    teardown(&f);
}

/* Records a launch of key grid.x gx whose input starts with byte v. */
static void record_input(fixture *f, uint32_t gx, uint8_t v, uint64_t no)
{
    assert_true(ws_devmem_write(f->mem, f->in, &v, 1));
    f->l.grid.x = gx;
    record(f, no, f->in, f->out);
}

/* The launch found for key grid.x gx with input byte v (0: none). */
static uint64_t find_input(fixture *f, uint32_t gx, uint8_t v)
{
    char printed[16];
    uint8_t z[N] = {0};
    assert_true(ws_devmem_write(f->mem, f->in, &v, 1));
    assert_true(ws_devmem_write(f->mem, f->out, z, N));
    f->l.grid.x = gx;
    uint64_t from = find(f, printed);
    if (from) assert_int_equal(byte_at(f, f->out), (uint8_t)(v + 1));
    return from;
}

/* A sequence of launches longer than the old limit of 16 records is kept
 * whole (a radix sort's 24 launches a sort); of one key, the newest 16
 * records (an in-place kernel whose inputs change every launch). */
static void test_many_records(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    for (uint32_t k = 0; k < 200; k++) record_input(&f, 100 + k, 7, 100 + k);
    for (uint32_t k = 0; k < 200; k++) assert_int_equal(find_input(&f, 100 + k, 7), 100 + k);
    for (uint32_t k = 0; k < 20; k++) record_input(&f, 4, (uint8_t)k, 400 + k);
    for (uint32_t k = 0; k < 20; k++) assert_int_equal(find_input(&f, 4, (uint8_t)k), k < 4 ? 0 : 400 + k);
    assert_int_equal(find_input(&f, 100, 7), 100);     /* other keys' records stay */
    teardown(&f);
}

/* Past the limit of records, or of bytes, the least recently made or
 * reused go first; copies that records share count once against the
 * bytes. */
static void test_record_limits(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    limit_cache(&f, 5, 16, UINT64_C(1) << 30);
    for (uint32_t k = 0; k < 8; k++) record_input(&f, 10 + k, 7, 10 + k);
    for (uint32_t k = 0; k < 8; k++) assert_int_equal(find_input(&f, 10 + k, 7), k < 3 ? 0 : 10 + k);
    /* a record reused is kept over those reused or made since: A, B, C;
     * A reused; D made: B goes */
    limit_cache(&f, 3, 16, UINT64_C(1) << 30);
    for (uint32_t k = 0; k < 3; k++) record_input(&f, 60 + k, 7, 60 + k);
    assert_int_equal(find_input(&f, 60, 7), 60);
    record_input(&f, 63, 7, 63);
    assert_int_equal(find_input(&f, 61, 7), 0);
    assert_int_equal(find_input(&f, 60, 7), 60);
    assert_int_equal(find_input(&f, 62, 7), 62);
    assert_int_equal(find_input(&f, 63, 7), 63);
    /* about three records of two page copies each (the input read, the
     * output written) */
    const uint64_t limit = 30000;
    limit_cache(&f, 100, 100, limit);
    for (uint32_t k = 0; k < 10; k++) {
        record_input(&f, 4, (uint8_t)k, 20 + k);
        assert_true(ws_reuse_page_copies(f.cache) * 4096 <= limit);
    }
    assert_int_equal(find_input(&f, 4, 9), 29);
    assert_int_equal(find_input(&f, 4, 8), 28);
    assert_int_equal(find_input(&f, 4, 0), 0);
    assert_int_equal(find_input(&f, 4, 5), 0);
    /* ten keys reading the same input and writing the same output share
     * two copies: all ten fit */
    ws_reuse_clear(f.cache);
    for (uint32_t k = 0; k < 10; k++) record_input(&f, 40 + k, 3, 40 + k);
    assert_int_equal(ws_reuse_page_copies(f.cache), 2);
    for (uint32_t k = 0; k < 10; k++) assert_int_equal(find_input(&f, 40 + k, 3), 40 + k);
    /* a record alone past the limit is not kept */
    limit_cache(&f, 100, 100, 4096);
    record_input(&f, 4, 1, 50);
    assert_int_equal(ws_reuse_page_copies(f.cache), 0);
    assert_int_equal(find_input(&f, 4, 1), 0);
    teardown(&f);
}

/* A launch's accesses, each kind a recorded launch's threads may make,
 * for the timing lent to other inputs (ws_reuse_find_timing). */
typedef enum lend_case {
    LEND_APART,             /* in read, out written: nothing passed */
    LEND_IN_PLACE,          /* in read, then written */
    LEND_TOLD_TWICE,        /* a byte of out told ahead as written by two stores */
    LEND_MADE_TWICE,        /* a byte of out written twice, now */
    LEND_TOLD_THEN_MADE,    /* one store told ahead, then made: nothing passed */
    LEND_READ_MADE,         /* a byte of out written, then read */
    LEND_SHARED_STORE,      /* apart, its statistics with a store to shared memory (the caller checks those) */
    LEND_SHARED_ATOMIC,     /* apart, but its statistics have an atomic in shared memory */
    LEND_PRINTED,           /* apart, but it printed */
} lend_case;

/* Records launch no with the accesses of c; nothing printed but for
 * LEND_PRINTED. */
static void record_case(fixture *f, uint64_t no, lend_case c)
{
    ws_reuse_recorder *r = ws_reuse_record_begin(f->cache, f->mem);
    assert_non_null(r);
    uint8_t b[N];
    assert_true(ws_devmem_read(f->mem, f->in, b, N));
    uint64_t to = c == LEND_IN_PLACE ? f->in : f->out;
    if (c == LEND_TOLD_TWICE || c == LEND_TOLD_THEN_MADE) {
        ws_devmem_tell_ahead(f->mem, to + 8, 4, true);
        if (c == LEND_TOLD_TWICE) ws_devmem_tell_ahead(f->mem, to + 10, 4, true);
    }
    assert_true(ws_devmem_write(f->mem, to, b, N));
    if (c == LEND_MADE_TWICE) assert_true(ws_devmem_write(f->mem, to + 500, b, 1));
    if (c == LEND_READ_MADE) assert_true(ws_devmem_read(f->mem, to + 7, b, 1));
    ws_launch_stats st = {.warp_insts = 42 + no};
    if (c == LEND_SHARED_STORE) st.shared_st.requests = 1;
    if (c == LEND_SHARED_ATOMIC) st.shared_atom.requests = 1;
    ws_timing_stats ts = {.cycles = 1234 + no};
    ws_reuse_record_end(r, true, &f->key, no, &st, &ts, "hi\n", c == LEND_PRINTED ? 3 : 0, 1, NULL);
}

static void test_timing_lent(void **state)
{
    (void)state;
    static const struct { lend_case c; bool lends; } cases[] = {
        {LEND_APART, true}, {LEND_IN_PLACE, false}, {LEND_TOLD_TWICE, false}, {LEND_MADE_TWICE, false},
        {LEND_TOLD_THEN_MADE, true}, {LEND_READ_MADE, false}, {LEND_SHARED_STORE, true}, {LEND_SHARED_ATOMIC, false},
        {LEND_PRINTED, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fixture f;
        setup(&f);
        record_case(&f, 1, cases[i].c);
        uint8_t other = 99;
        assert_true(ws_devmem_write(f.mem, f.in + 3, &other, 1));     /* other inputs */
        char printed[16];
        assert_int_equal(find(&f, printed), 0);
        ws_launch_stats st;
        ws_timing_stats ts;
        bool ordered = true;
        uint64_t from = ws_reuse_find_timing(f.cache, &f.key, &st, &ts, &ordered);
        if (from != (cases[i].lends ? 1u : 0u)) fail_msg("case %zu: lent by launch %llu", i, (unsigned long long)from);
        if (from) {
            assert_int_equal(st.warp_insts, 43);
            assert_int_equal(ts.cycles, 1235);
            /* shared memory looked at once: the record remembers it */
            assert_false(ordered);
            ws_reuse_note_shared_ordered(f.cache, from);
            assert_int_equal(ws_reuse_find_timing(f.cache, &f.key, &st, &ts, &ordered), from);
            assert_true(ordered);
        }
        /* another key: nothing to lend */
        f.params[0] ^= 1;
        assert_int_equal(ws_reuse_find_timing(f.cache, &f.key, &st, &ts, &ordered), 0);
        teardown(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_inputs_replayed),
        cmocka_unit_test(test_sparse_writes_replayed),
        cmocka_unit_test(test_changes_refused),
        cmocka_unit_test(test_in_place),
        cmocka_unit_test(test_failed_launch_not_kept),
        cmocka_unit_test(test_small_pieces),
        cmocka_unit_test(test_long_runs),
        cmocka_unit_test(test_page_limit),
        cmocka_unit_test(test_reads_on_threads),
        cmocka_unit_test(test_big_record_on_threads),
        cmocka_unit_test(test_writes_told_ahead),
        cmocka_unit_test(test_writes_told_ahead_at_once),
        cmocka_unit_test(test_read_and_written_by_others),
        cmocka_unit_test(test_read_after_written),
        cmocka_unit_test(test_read_after_made),
        cmocka_unit_test(test_table_kept),
        cmocka_unit_test(test_copies_shared),
        cmocka_unit_test(test_many_records),
        cmocka_unit_test(test_record_limits),
        cmocka_unit_test(test_timing_lent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
