/* Device memory: sparseness, bounds, guard gaps, page crossings, and a
 * randomized comparison against plain host arrays. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/mem/device_memory.h"

#define KiB UINT64_C(1024)
#define MiB (KiB * 1024)
#define GiB (MiB * 1024)

static void test_sparse_large_allocation(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t a = ws_devmem_alloc(m, 4 * GiB);
    assert_true(a >= WS_GLOBAL_BASE);
    assert_int_equal(ws_devmem_resident_bytes(m), 0);

    uint8_t *buf = malloc(MiB);
    for (uint64_t i = 0; i < MiB; i++)
        buf[i] = (uint8_t)(i * 7 + 1);
    uint64_t at = a + 3 * GiB + 12345;
    assert_true(ws_devmem_write(m, at, buf, MiB));
    uint64_t res = ws_devmem_resident_bytes(m);
    assert_true(res >= MiB);
    assert_true(res <= MiB + 128 * KiB);    /* at most one partial page each side */

    uint8_t *back = malloc(MiB);
    assert_true(ws_devmem_read(m, at, back, MiB));
    assert_memory_equal(buf, back, MiB);

    /* untouched bytes read as zero, on touched and untouched pages */
    uint8_t z[64];
    memset(z, 0xcc, sizeof z);
    assert_true(ws_devmem_read(m, at - 64, z, 64));
    for (int i = 0; i < 64; i++)
        assert_int_equal(z[i], 0);
    memset(z, 0xcc, sizeof z);
    assert_true(ws_devmem_read(m, a + 4 * GiB - 64, z, 64));
    for (int i = 0; i < 64; i++)
        assert_int_equal(z[i], 0);

    /* the last byte of the allocation is usable, the next is not */
    uint8_t one = 0x5a;
    assert_true(ws_devmem_write(m, a + 4 * GiB - 1, &one, 1));
    assert_false(ws_devmem_write(m, a + 4 * GiB, &one, 1));

    assert_true(ws_devmem_free(m, a));
    assert_int_equal(ws_devmem_resident_bytes(m), 0);
    free(buf);
    free(back);
    ws_devmem_destroy(m);
}

/* Freeing an allocation with many resident pages among others' pages. */
static void test_free_many_pages(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t small1 = ws_devmem_alloc(m, 64);
    uint64_t big = ws_devmem_alloc(m, 1 * GiB);
    uint64_t small2 = ws_devmem_alloc(m, 64);
    uint32_t v1 = 111, v2 = 222, r = 0;
    assert_true(ws_devmem_write(m, small1, &v1, 4));
    for (uint64_t p = 0; p < 3000; p++) {
        uint8_t b = (uint8_t)(p | 1);
        assert_true(ws_devmem_write(m, big + p * 64 * KiB * 3 % GiB, &b, 1));
    }
    assert_true(ws_devmem_write(m, small2, &v2, 4));
    assert_true(ws_devmem_resident_bytes(m) >= 3000 * 64 * KiB);
    assert_true(ws_devmem_free(m, big));
    assert_true(ws_devmem_resident_bytes(m) <= 2 * 64 * KiB);
    assert_true(ws_devmem_read(m, small1, &r, 4));
    assert_int_equal(r, 111);
    assert_true(ws_devmem_read(m, small2, &r, 4));
    assert_int_equal(r, 222);
    assert_true(ws_devmem_free(m, small1));
    assert_true(ws_devmem_free(m, small2));
    assert_int_equal(ws_devmem_resident_bytes(m), 0);
    ws_devmem_destroy(m);
}

static void test_out_of_range_and_freed(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t a = ws_devmem_alloc(m, 100);
    uint32_t v = 0xdeadbeef, r = 0;

    assert_true(ws_devmem_write(m, a + 96, &v, 4));
    assert_true(ws_devmem_read(m, a + 96, &r, 4));
    assert_int_equal(r, 0xdeadbeef);
    assert_false(ws_devmem_write(m, a + 97, &v, 4));   /* straddles the end */
    assert_false(ws_devmem_read(m, a + 100, &r, 1));
    assert_false(ws_devmem_read(m, a - 1, &r, 1));
    assert_false(ws_devmem_read(m, a - 1, &r, 2));      /* starts before, ends inside */
    assert_false(ws_devmem_read(m, 0, &r, 4));
    assert_false(ws_devmem_read(m, UINT64_MAX - 1, &r, 4)); /* would wrap */
    assert_false(ws_devmem_read(m, a, &r, UINT64_MAX));
    assert_false(ws_devmem_valid(m, a, 101));
    assert_true(ws_devmem_valid(m, a, 100));

    /* a failed write changes nothing */
    uint8_t big[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    assert_false(ws_devmem_write(m, a + 96, big, 8));
    assert_true(ws_devmem_read(m, a + 96, &r, 4));
    assert_int_equal(r, 0xdeadbeef);

    assert_false(ws_devmem_free(m, a + 4));     /* not the start */
    assert_true(ws_devmem_free(m, a));
    assert_false(ws_devmem_free(m, a));         /* twice */
    assert_false(ws_devmem_read(m, a + 96, &r, 4));
    assert_false(ws_devmem_write(m, a, &v, 4));
    assert_false(ws_devmem_valid(m, a, 1));
    ws_devmem_destroy(m);
}

static void test_cross_page(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t a = ws_devmem_alloc(m, 1 * MiB);
    /* find a 64 KiB boundary inside the allocation */
    uint64_t boundary = (a + 64 * KiB) & ~(64 * KiB - 1);
    uint8_t w[300], r[300];
    for (int i = 0; i < 300; i++)
        w[i] = (uint8_t)(255 - i);
    assert_true(ws_devmem_write(m, boundary - 150, w, 300));
    assert_true(ws_devmem_read(m, boundary - 150, r, 300));
    assert_memory_equal(w, r, 300);
    /* a read that starts on the written part and ends past it */
    memset(r, 0xee, sizeof r);
    assert_true(ws_devmem_read(m, boundary + 100, r, 100));
    assert_memory_equal(w + 250, r, 50);
    for (int i = 50; i < 100; i++)
        assert_int_equal(r[i], 0);
    /* an 8-byte value split 4/4 over the boundary */
    uint64_t x = UINT64_C(0x0123456789abcdef), y = 0;
    assert_true(ws_devmem_write(m, boundary - 4, &x, 8));
    assert_true(ws_devmem_read(m, boundary - 4, &y, 8));
    assert_true(x == y);
    /* spanning three pages */
    uint8_t *big = malloc(150 * KiB), *big2 = malloc(150 * KiB);
    for (uint64_t i = 0; i < 150 * KiB; i++)
        big[i] = (uint8_t)(i ^ (i >> 8));
    assert_true(ws_devmem_write(m, boundary - 10, big, 150 * KiB));
    assert_true(ws_devmem_read(m, boundary - 10, big2, 150 * KiB));
    assert_memory_equal(big, big2, 150 * KiB);
    free(big);
    free(big2);
    ws_devmem_destroy(m);
}

static void test_guard_gap_and_alignment(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t prev = 0, prev_size = 0;
    uint64_t sizes[] = {1, 100, 255, 256, 257, 4096, 65536, 3};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint64_t a = ws_devmem_alloc(m, sizes[i]);
        assert_true(a != 0);
        assert_int_equal(a % 256, 0);
        if (prev) {
            assert_true(a > prev + prev_size);
            /* every byte between the end of one and the start of the next faults,
             * and there are at least 256 of them */
            assert_true(a - (prev + prev_size) >= 256);
            for (uint64_t x = prev + prev_size; x < a; x++)
                assert_false(ws_devmem_valid(m, x, 1));
            assert_true(ws_devmem_valid(m, prev + prev_size - 1, 1));
            assert_true(ws_devmem_valid(m, a, 1));
        }
        prev = a;
        prev_size = sizes[i];
    }
    ws_devmem_destroy(m);
}

static void test_zero_size_allocation(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t a = ws_devmem_alloc(m, 0);
    uint64_t b = ws_devmem_alloc(m, 0);
    assert_true(a != 0 && b != 0 && a != b);
    assert_int_equal(a % 256, 0);
    uint8_t x = 1;
    assert_false(ws_devmem_read(m, a, &x, 1));
    assert_false(ws_devmem_write(m, a, &x, 1));
    assert_true(ws_devmem_read(m, a, &x, 0));
    assert_true(ws_devmem_valid(m, a, 0));
    assert_true(ws_devmem_free(m, a));
    assert_false(ws_devmem_valid(m, a, 0));
    assert_true(ws_devmem_free(m, b));
    ws_devmem_destroy(m);
}

static void test_fill(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t a = ws_devmem_alloc(m, 1 * GiB);
    /* zeroing untouched memory creates nothing */
    assert_true(ws_devmem_fill(m, a, 0, 1 * GiB));
    assert_int_equal(ws_devmem_resident_bytes(m), 0);
    assert_true(ws_devmem_fill(m, a + 1000, 0xab, 200 * KiB));
    uint8_t r[16];
    assert_true(ws_devmem_read(m, a + 998, r, 16));
    assert_int_equal(r[0], 0);
    assert_int_equal(r[1], 0);
    for (int i = 2; i < 16; i++)
        assert_int_equal(r[i], 0xab);
    assert_true(ws_devmem_fill(m, a + 1000, 0, 4));
    assert_true(ws_devmem_read(m, a + 998, r, 8));
    for (int i = 0; i < 6; i++)
        assert_int_equal(r[i], 0);
    assert_int_equal(r[6], 0xab);
    assert_false(ws_devmem_fill(m, a + 1 * GiB - 2, 1, 3));
    ws_devmem_destroy(m);
}

static void test_small_allocations_share_pages(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t addr[100];
    for (int i = 0; i < 100; i++) {
        addr[i] = ws_devmem_alloc(m, 16);
        uint32_t v = (uint32_t)i + 1;
        assert_true(ws_devmem_write(m, addr[i], &v, 4));
    }
    assert_true(ws_devmem_resident_bytes(m) <= 16 * 64 * KiB);
    /* freeing one clears only its own bytes */
    assert_true(ws_devmem_free(m, addr[50]));
    for (int i = 0; i < 100; i++) {
        uint32_t v = 0;
        if (i == 50)
            continue;
        assert_true(ws_devmem_read(m, addr[i], &v, 4));
        assert_int_equal(v, (uint32_t)i + 1);
    }
    ws_devmem_destroy(m);
}

static void test_exhaustion_and_reuse(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t a = ws_devmem_alloc(m, 600 * GiB);
    assert_true(a != 0);
    assert_int_equal(ws_devmem_alloc(m, 600 * GiB), 0);   /* the range is 1 TiB */
    assert_int_equal(ws_devmem_alloc(m, UINT64_MAX), 0);
    uint64_t x = 0x1122334455667788u;
    assert_true(ws_devmem_write(m, a + 8, &x, 8));
    assert_true(ws_devmem_free(m, a));
    /* no fresh space left: the freed range is reused, and reads as zero */
    uint64_t b = ws_devmem_alloc(m, 500 * GiB);
    assert_int_equal(b, a);
    uint64_t y = 1;
    assert_true(ws_devmem_read(m, b + 8, &y, 8));
    assert_true(y == 0);
    ws_devmem_destroy(m);
}

/* A freed allocation's address is given again to the next allocation of
 * the same size (as the CUDA driver does), zeroed; other sizes get fresh
 * addresses, and a stale pointer into their freed range is still told as
 * freed. */
static void test_same_size_address_again(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t a = ws_devmem_alloc(m, 1000), b = ws_devmem_alloc(m, 500);
    uint32_t v = 0xdeadbeef, r = 1;
    assert_true(ws_devmem_write(m, a + 8, &v, 4));
    assert_true(ws_devmem_free(m, a));
    uint64_t c = ws_devmem_alloc(m, 1000);
    assert_int_equal(c, a);
    assert_true(ws_devmem_read(m, c + 8, &r, 4));
    assert_int_equal(r, 0);
    /* a loop that allocates and frees one size: one address */
    uint64_t first = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t q = ws_devmem_alloc(m, 12345);
        if (i == 0) first = q;
        assert_int_equal(q, first);
        assert_true(ws_devmem_free(m, q));
    }
    /* another size: a fresh address; the freed b described as freed */
    assert_true(ws_devmem_free(m, b));
    uint64_t d = ws_devmem_alloc(m, 400);
    assert_true(d != b);
    char s[160], want[160];
    ws_devmem_describe(m, b + 4, s, sizeof s);
    snprintf(want, sizeof want, "inside the 500-byte allocation at 0x%llx, which was freed", (unsigned long long)b);
    assert_string_equal(s, want);
    /* of two freed of one size, the most recently freed first */
    uint64_t e = ws_devmem_alloc(m, 500), f = ws_devmem_alloc(m, 500);
    assert_int_equal(e, b);
    assert_true(ws_devmem_free(m, e));
    assert_true(ws_devmem_free(m, f));
    assert_int_equal(ws_devmem_alloc(m, 500), f);
    assert_int_equal(ws_devmem_alloc(m, 500), e);
    ws_devmem_destroy(m);
}

/* Randomized: allocations of assorted sizes, writes and reads of random
 * ranges, frees and new allocations, all mirrored in host arrays. */
typedef struct shadow { uint64_t addr, size; uint8_t *bytes; } shadow;

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void test_random_against_host_arrays(void **state)
{
    (void)state;
    enum { N = 24, OPS = 4000 };
    uint64_t seed = 42;
    ws_devmem *m = ws_devmem_create();
    shadow sh[N];
    for (int i = 0; i < N; i++) {
        sh[i].size = rng_next(&seed) % (300 * KiB);
        sh[i].addr = ws_devmem_alloc(m, sh[i].size);
        sh[i].bytes = calloc(1, sh[i].size + 1);
        assert_true(sh[i].addr != 0);
    }
    uint8_t *tmp = malloc(300 * KiB), *tmp2 = malloc(300 * KiB);
    for (int op = 0; op < OPS; op++) {
        shadow *s = &sh[rng_next(&seed) % N];
        uint64_t kind = rng_next(&seed) % 10;
        uint64_t off = s->size ? rng_next(&seed) % s->size : 0;
        uint64_t len = rng_next(&seed) % 4 == 0 ? rng_next(&seed) % (s->size - off + 1)
                                                 : rng_next(&seed) % 17;
        bool fits = off + len <= s->size;
        if (kind < 4) {
            for (uint64_t i = 0; i < len; i++)
                tmp[i] = (uint8_t)rng_next(&seed);
            assert_int_equal(ws_devmem_write(m, s->addr + off, tmp, len), fits);
            if (fits)
                memcpy(s->bytes + off, tmp, len);
        } else if (kind < 5) {
            uint8_t b = (uint8_t)(rng_next(&seed) & 1 ? rng_next(&seed) : 0);
            assert_int_equal(ws_devmem_fill(m, s->addr + off, b, len), fits);
            if (fits)
                memset(s->bytes + off, b, len);
        } else if (kind < 9) {
            assert_int_equal(ws_devmem_read(m, s->addr + off, tmp2, len), fits);
            if (fits)
                assert_memory_equal(tmp2, s->bytes + off, len);
        } else {
            assert_true(ws_devmem_free(m, s->addr));
            assert_false(ws_devmem_valid(m, s->addr, 1));
            free(s->bytes);
            s->size = rng_next(&seed) % (300 * KiB);
            s->addr = ws_devmem_alloc(m, s->size);
            s->bytes = calloc(1, s->size + 1);
            assert_true(s->addr != 0);
        }
    }
    /* final full comparison */
    for (int i = 0; i < N; i++) {
        assert_true(ws_devmem_read(m, sh[i].addr, tmp2, sh[i].size));
        assert_memory_equal(tmp2, sh[i].bytes, sh[i].size);
        assert_true(ws_devmem_free(m, sh[i].addr));
        free(sh[i].bytes);
    }
    assert_int_equal(ws_devmem_resident_bytes(m), 0);
    free(tmp);
    free(tmp2);
    ws_devmem_destroy(m);
}

static void test_many_allocations(void **state)
{
    (void)state;
    enum { N = 20000 };
    ws_devmem *m = ws_devmem_create();
    uint64_t *addr = malloc(N * sizeof *addr);
    for (uint32_t i = 0; i < N; i++) {
        addr[i] = ws_devmem_alloc(m, 4 + (i % 7) * 100);
        assert_true(addr[i] != 0);
        assert_true(ws_devmem_write(m, addr[i], &i, 4));
    }
    for (uint32_t i = 0; i < N; i += 2)
        assert_true(ws_devmem_free(m, addr[i]));
    for (uint32_t i = 0; i < N; i++) {
        uint32_t v = 0;
        bool ok = ws_devmem_read(m, addr[i], &v, 4);
        assert_int_equal(ok, i % 2 == 1);
        if (ok)
            assert_int_equal(v, i);
    }
    free(addr);
    ws_devmem_destroy(m);
}

static void test_generic_classify(void **state)
{
    (void)state;
    uint64_t off;
    assert_int_equal(ws_generic_classify(WS_SHARED_WINDOW + 12, &off), WS_GEN_SHARED);
    assert_int_equal(off, 12);
    assert_int_equal(ws_generic_classify(WS_LOCAL_WINDOW + WS_WINDOW_SIZE - 1, &off), WS_GEN_LOCAL);
    assert_int_equal(ws_generic_classify(WS_GLOBAL_BASE, &off), WS_GEN_GLOBAL);
}

/* Fault messages say where an address lies: past an allocation, before
 * one, or in memory that was freed. */
static void test_describe(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t a = ws_devmem_alloc(m, 4000), b = ws_devmem_alloc(m, 100);
    char s[160], want[160];
    ws_devmem_describe(m, a + 4000, s, sizeof s);
    snprintf(want, sizeof want, "0 bytes after the end of the 4000-byte allocation at 0x%llx", (unsigned long long)a);
    assert_string_equal(s, want);
    ws_devmem_describe(m, a - 8, s, sizeof s);
    snprintf(want, sizeof want, "8 bytes before the 4000-byte allocation at 0x%llx", (unsigned long long)a);
    assert_string_equal(s, want);
    assert_true(ws_devmem_free(m, a));
    ws_devmem_describe(m, a + 12, s, sizeof s);
    snprintf(want, sizeof want, "inside the 4000-byte allocation at 0x%llx, which was freed", (unsigned long long)a);
    assert_string_equal(s, want);
    ws_devmem_describe(m, b + 100, s, sizeof s);
    snprintf(want, sizeof want, "0 bytes after the end of the 100-byte allocation at 0x%llx", (unsigned long long)b);
    assert_string_equal(s, want);
    ws_devmem_destroy(m);
}

/* initcheck's record of written bytes against a plain host array of
 * flags: random writes, fills and marks in two allocations that share a
 * page, whole pages and page-crossing ranges; freeing one leaves the
 * other's record as it was, and a fresh allocation starts unwritten. */
static uint64_t lcg(uint64_t *s)
{
    *s = *s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return *s >> 33;
}

static void check_init_against(const ws_devmem *m, uint64_t base, const uint8_t *ref, uint64_t size,
                               uint64_t *seed)
{
    for (int k = 0; k < 64; k++) {
        uint64_t off = lcg(seed) % size, n = 1 + lcg(seed) % (k < 32 ? 16 : 70000);
        if (n > size - off) n = size - off;
        uint64_t want = UINT64_MAX, first = 0;
        for (uint64_t i = off; i < off + n && want == UINT64_MAX; i++)
            if (!ref[i]) want = base + i;
        bool ok = ws_devmem_initialized(m, base + off, n, &first);
        assert_int_equal(ok, want == UINT64_MAX);
        if (!ok) assert_int_equal(first, want);
    }
}

static void test_init_tracking(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    assert_non_null(m);
    uint64_t first = 0, size_a = 3 * 65536 + 1000, size_b = 3000;
    uint64_t a = ws_devmem_alloc(m, size_a);
    /* not tracking: everything counts as written */
    assert_true(ws_devmem_initialized(m, a, 16, &first));
    ws_devmem_track_init(m);
    uint64_t b = ws_devmem_alloc(m, size_b);
    assert_true(a && b);
    assert_true((b >> 16) == ((a + size_a - 1) >> 16));     /* they share a's last page */
    uint8_t *ref_a = calloc(size_a, 1), *ref_b = calloc(size_b, 1), *buf = malloc(70000);
    assert_true(ref_a && ref_b && buf);
    memset(buf, 0, 70000);      /* zeros count as written too */
    uint64_t seed = 42;
    for (int op = 0; op < 400; op++) {
        bool in_a = lcg(&seed) % 4 != 0;
        uint64_t base = in_a ? a : b, size = in_a ? size_a : size_b;
        uint8_t *ref = in_a ? ref_a : ref_b;
        uint64_t off = lcg(&seed) % size, n = 1 + lcg(&seed) % (op % 3 ? 64 : 70000);
        if (n > size - off) n = size - off;
        switch (lcg(&seed) % 3) {
        case 0: assert_true(ws_devmem_write(m, base + off, buf, n)); break;
        case 1: assert_true(ws_devmem_fill(m, base + off, (uint8_t)op, n)); break;
        default: assert_true(ws_devmem_mark_init(m, base + off, n)); break;
        }
        memset(ref + off, 1, n);
        check_init_against(m, a, ref_a, size_a, &seed);
        check_init_against(m, b, ref_b, size_b, &seed);
    }
    /* whole of a written, then b freed: a stays written, a new b is not */
    assert_true(ws_devmem_fill(m, a, 1, size_a));
    memset(ref_a, 1, size_a);
    assert_true(ws_devmem_free(m, b));
    check_init_against(m, a, ref_a, size_a, &seed);
    uint64_t c = ws_devmem_alloc(m, size_b);
    assert_false(ws_devmem_initialized(m, c + 5, 4, &first));
    assert_int_equal(first, c + 5);
    assert_true(ws_devmem_free(m, a));
    assert_true(ws_devmem_free(m, c));
    free(ref_a);
    free(ref_b);
    free(buf);
    ws_devmem_destroy(m);
}

static bool all_zero(const uint8_t *p, uint64_t n)
{
    for (uint64_t k = 0; k < n; k++)
        if (p[k]) return false;
    return true;
}

/* The watcher of the read-span test: the reads it was told of. */
typedef struct told {
    uint64_t reads, bytes;
} told;

static void count_reads(void *ctx, uint64_t addr, uint64_t size, bool write, bool ahead)
{
    (void)addr;
    (void)ahead;
    told *t = ctx;
    if (!write) {
        t->reads++;
        t->bytes += size;
    }
}

/* ws_devmem_read_span with its memo gives the span the page table gives
 * (ws_devmem_write_span: the same host bytes, or none), however the memo was filled before: random
 * ranges over small allocations that share pages (so a memo entry must
 * keep to its allocation), allocations larger than a page, written and
 * never-written pages, ranges that leave an allocation or cross a page;
 * where the table has no page yet, a span of zeros for a range in one
 * allocation and one page; and it tells the watcher of each read it
 * serves.  A page written after its zeros were read is then read. */
static void test_read_span_memo(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    uint64_t base[12], size[12];
    for (int i = 0; i < 12; i++) {
        size[i] = i % 3 == 0 ? 100 * KiB + 40 : 300 + 97 * (uint64_t)i;     /* pages are 64 KiB */
        base[i] = ws_devmem_alloc(m, size[i]);
        assert_true(base[i] != 0);
        if (i % 4 != 3) assert_true(ws_devmem_fill(m, base[i], (uint8_t)(i + 1), size[i]));    /* else never written */
    }
    ws_span_memo memo;
    memset(&memo, 0, sizeof memo);
    told t = {0};
    uint64_t seed = 5, served = 0, zeros = 0, bytes = 0;
    for (int iter = 0; iter < 200000; iter++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        int i = (int)((seed >> 33) % 12);
        uint64_t off = (seed >> 13) % (size[i] + 64), n = 1 + (seed >> 45) % 160;
        uint64_t addr = base[i] + off - (iter % 7 == 0 ? 32 : 0);
        uint8_t *want = ws_devmem_write_span(m, addr, n);
        bool inside = addr >= base[i] && addr + n <= base[i] + size[i] && (addr >> 16) == ((addr + n - 1) >> 16);
        ws_devmem_watch(m, count_reads, &t);
        uint8_t *got = ws_devmem_read_span(m, &memo, addr, n);
        ws_devmem_watch(m, NULL, NULL);
        if (want ? got != want : inside ? !got || !all_zero(got, n) : got != NULL)
            fail_msg("iteration %d: allocation %d offset %lld, %llu bytes: %p, want %p%s", iter, i,
                     (long long)(addr - base[i]), (unsigned long long)n, (void *)got, (void *)want,
                     !want && inside ? " (zeros)" : "");
        if (got) {
            served++;
            zeros += !want;
            bytes += n;
        }
    }
    assert_true(served > 1000);
    assert_true(zeros > 1000);
    assert_int_equal(t.reads, served);
    assert_int_equal(t.bytes, bytes);
    /* a page inside a new allocation read, then written: its bytes now */
    uint64_t fresh = ws_devmem_alloc(m, 300 * KiB), mid = fresh + 128 * KiB;
    assert_null(ws_devmem_write_span(m, mid, 4));
    uint8_t *before = ws_devmem_read_span(m, &memo, mid, 4);
    assert_non_null(before);
    assert_true(ws_devmem_fill(m, mid, 7, 16));
    uint8_t *after = ws_devmem_read_span(m, &memo, mid, 4);
    assert_ptr_equal(after, ws_devmem_write_span(m, mid, 4));
    assert_int_equal(after[0], 7);
    assert_int_equal(before[0], 0);
    ws_devmem_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_large_allocation),
        cmocka_unit_test(test_free_many_pages),
        cmocka_unit_test(test_out_of_range_and_freed),
        cmocka_unit_test(test_cross_page),
        cmocka_unit_test(test_guard_gap_and_alignment),
        cmocka_unit_test(test_zero_size_allocation),
        cmocka_unit_test(test_fill),
        cmocka_unit_test(test_small_allocations_share_pages),
        cmocka_unit_test(test_exhaustion_and_reuse),
        cmocka_unit_test(test_same_size_address_again),
        cmocka_unit_test(test_random_against_host_arrays),
        cmocka_unit_test(test_many_allocations),
        cmocka_unit_test(test_generic_classify),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_init_tracking),
        cmocka_unit_test(test_read_span_memo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
