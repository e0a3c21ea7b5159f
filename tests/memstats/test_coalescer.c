/* The coalescing rule: hand-worked warps, and stride sweeps and random
 * warps against a reference that lists every byte's sector and sorts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/mem/coalescer.h"

#define ALL UINT32_MAX
#define BASE UINT64_C(0x7f0000010000)     /* 256-byte aligned, like an allocation */

static void fill(uint64_t addr[32], uint64_t base, uint64_t step)
{
    for (int i = 0; i < 32; i++) addr[i] = base + (uint64_t)i * step;
}

static void expect(const uint64_t addr[32], uint32_t mask, uint32_t size,
                   uint32_t requests, uint32_t sectors, uint32_t lines)
{
    ws_coalesce c;
    ws_coalesce_eval(addr, mask, size, &c);
    if (c.requests != requests || c.sectors != sectors || c.lines != lines)
        fail_msg("size %u mask 0x%08x: got %u requests, %u sectors, %u lines; want %u, %u, %u",
                 size, mask, c.requests, c.sectors, c.lines, requests, sectors, lines);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static uint32_t count_distinct(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof v[0], cmp_u64);
    uint32_t d = 0;
    for (size_t i = 0; i < n; i++) d += i == 0 || v[i] != v[i - 1];
    return d;
}

/* Every byte of every active lane, divided by the granule, sorted, the
 * distinct values counted. */
static uint32_t reference(const uint64_t addr[32], uint32_t mask, uint32_t size, uint32_t granule)
{
    uint64_t v[32 * 16];
    size_t n = 0;
    for (int l = 0; l < 32; l++)
        if (mask >> l & 1)
            for (uint32_t b = 0; b < size; b++) v[n++] = (addr[l] + b) / granule;
    return count_distinct(v, n);
}

static void test_hand_worked(void **state)
{
    (void)state;
    uint64_t a[32];
    fill(a, BASE, 4);           /* 128 contiguous bytes, one aligned line */
    expect(a, ALL, 4, 1, 4, 1);
    fill(a, BASE, 8);           /* 256 bytes, every other float */
    expect(a, ALL, 4, 1, 8, 2);
    fill(a, BASE, 32);          /* one float per sector */
    expect(a, ALL, 4, 1, 32, 8);
    fill(a, BASE, 128);         /* one float per line */
    expect(a, ALL, 4, 1, 32, 32);
    fill(a, BASE, 0);           /* one address */
    expect(a, ALL, 4, 1, 1, 1);
    fill(a, BASE, 4);
    expect(a, 0, 4, 0, 0, 0);   /* no lane: no request */
    expect(a, 0x000000ffu, 4, 1, 1, 1);
    expect(a, 0x80000001u, 4, 1, 2, 1);
}

/* Stride sweep of 4-byte floats: sectors per request against the sorting
 * reference, and the closed form min(32, 4s) lines s for s <= 8 by hand:
 * the warp covers 128*s bytes from an aligned start, and with gaps of
 * 4s <= 32 bytes no sector in between is skipped. */
static void test_stride_sweep(void **state)
{
    (void)state;
    uint64_t a[32];
    for (uint32_t s = 1; s <= 32; s++) {
        fill(a, BASE, 4u * s);
        ws_coalesce c;
        ws_coalesce_eval(a, ALL, 4, &c);
        assert_int_equal(c.requests, 1);
        assert_int_equal(c.sectors, reference(a, ALL, 4, 32));
        assert_int_equal(c.lines, reference(a, ALL, 4, 128));
        if (s <= 8) {
            assert_int_equal(c.sectors, 4 * s);
            assert_int_equal(c.lines, s);
        } else {
            assert_int_equal(c.sectors, 32);
        }
        /* the sector list: ascending, distinct, and holding each lane's sector */
        for (uint32_t i = 1; i < c.sectors; i++) assert_true(c.sector[i - 1] < c.sector[i]);
        for (int l = 0; l < 32; l++) {
            bool found = false;
            for (uint32_t i = 0; i < c.sectors; i++) found |= c.sector[i] == a[l] / 32;
            assert_true(found);
        }
    }
}

static void test_misaligned(void **state)
{
    (void)state;
    uint64_t a[32];
    fill(a, BASE + 4, 4);       /* bytes 4..131: sectors 0-4, lines 0-1 */
    expect(a, ALL, 4, 1, 5, 2);
    fill(a, BASE + 64, 4);      /* bytes 64..191: sectors 2-5, lines 0-1 */
    expect(a, ALL, 4, 1, 4, 2);
    fill(a, BASE + 96, 4);      /* bytes 96..223: sectors 3-6 */
    expect(a, ALL, 4, 1, 4, 2);
    a[0] = BASE + 30;           /* one lane across a sector boundary */
    expect(a, 1, 4, 1, 2, 1);
    a[0] = BASE + 126;          /* and across a line boundary */
    expect(a, 1, 4, 1, 2, 2);
    a[0] = BASE + 120;          /* 16 bytes from 120: sectors 3 and 4, lines 0 and 1 */
    expect(a, 1, 16, 1, 2, 2);
}

static void test_wide(void **state)
{
    (void)state;
    uint64_t a[32];
    fill(a, BASE, 8);           /* 256 bytes */
    expect(a, ALL, 8, 1, 8, 2);
    fill(a, BASE, 16);          /* 512 bytes */
    expect(a, ALL, 16, 1, 16, 4);
    fill(a, BASE, 32);          /* 16 bytes in each of 32 sectors */
    expect(a, ALL, 16, 1, 32, 8);
    fill(a, BASE, 1);           /* 32 bytes */
    expect(a, ALL, 1, 1, 1, 1);
    fill(a, BASE, 2);
    expect(a, ALL, 2, 1, 2, 1);
    fill(a, BASE + 31 * 16, -(uint64_t)16);     /* lanes in descending order */
    expect(a, ALL, 16, 1, 16, 4);
}

static uint64_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* The sectors a cache model takes next: the reference's, ascending and
 * distinct. */
static void expect_sector_list(const ws_coalesce *c, const uint64_t addr[32], uint32_t mask, uint32_t size, int iter)
{
    uint64_t v[32 * 16];
    size_t n = 0;
    for (int l = 0; l < 32; l++)
        if (mask >> l & 1)
            for (uint32_t b = 0; b < size; b++) v[n++] = (addr[l] + b) / 32;
    qsort(v, n, sizeof v[0], cmp_u64);
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || v[i] != v[i - 1]) {
            if (k >= c->sectors || c->sector[k] != v[i])
                fail_msg("iteration %d: sector %u of the list is %llu, want %llu", iter, k,
                         k < c->sectors ? (unsigned long long)c->sector[k] : 0ull, (unsigned long long)v[i]);
            k++;
        }
}

static void test_random_against_reference(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {1, 2, 4, 8, 16};
    uint64_t seed = 777;
    for (int iter = 0; iter < 20000; iter++) {
        uint32_t size = sizes[rng(&seed) % 5];
        /* up to 32 KiB apart; now and then 2^40 bytes, past the 2^31
         * sectors a warp's lanes are ranked within */
        uint64_t span = iter % 50 == 7 ? UINT64_C(1) << 40 : (uint64_t)64 << (rng(&seed) % 10);
        uint32_t mask = (uint32_t)rng(&seed) | (uint32_t)(rng(&seed) << 16);
        if (iter % 4 == 0) mask = ALL;
        if (iter % 97 == 0) mask = 0;
        bool aligned = iter % 3 != 0;
        uint64_t a[32];
        for (int i = 0; i < 32; i++) {
            a[i] = BASE + ((rng(&seed) << 31) ^ rng(&seed)) % span;
            if (aligned) a[i] = a[i] / size * size;
        }
        ws_coalesce c;
        ws_coalesce_eval(a, mask, size, &c);
        uint32_t s = reference(a, mask, size, 32), l = reference(a, mask, size, 128);
        if (c.requests != (mask != 0) || c.sectors != s || c.lines != l)
            fail_msg("iteration %d size %u: got %u/%u/%u, reference %u/%u/%u", iter, size,
                     c.requests, c.sectors, c.lines, mask != 0, s, l);
        expect_sector_list(&c, a, mask, size, iter);
    }
}

/* A full warp whose lanes make one run (lane l at a0 + l * size) or all
 * read one address, or whose two halves each do (a 16x16 block's warp:
 * two rows reading a tile's row or column, at bases before, after, over or
 * next to one another), where most lanes fall in the sector of the lane
 * before (which the rule passes over at once): its sectors, in order, and
 * lines must be those of the same lanes taken apart (the warp without its
 * first lane, and that lane alone). */
static void test_runs_and_broadcasts(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {1, 2, 4, 8, 16};
    uint64_t seed = 99;
    for (int iter = 0; iter < 4000; iter++) {
        uint32_t size = sizes[rng(&seed) % 5];
        bool broadcast = iter % 3 == 0, halves = iter % 5 >= 3;
        uint64_t a[32], base = BASE + rng(&seed) % 4096;
        if (iter % 2) base = base / size * size;
        for (uint32_t i = 0; i < 32; i++) a[i] = broadcast ? base : base + i * size;
        if (halves) {       /* the second half its own run or address, near the first */
            bool run = rng(&seed) % 2;
            uint64_t b = base + rng(&seed) % (48 * size) - 16 * size;
            if (iter % 2) b = b / size * size;
            for (uint32_t i = 16; i < 32; i++) a[i] = run ? b + (i - 16) * size : b;
        }
        ws_coalesce c, rest, one;
        ws_coalesce_eval(a, ALL, size, &c);
        ws_coalesce_eval(a, ALL & ~UINT32_C(1), size, &rest);
        ws_coalesce_eval(a, 1, size, &one);
        /* the union of the two, sorted and without repeats */
        uint64_t want[2 * WS_COALESCE_MAX_SECTORS];
        uint32_t n = 0;
        for (uint32_t i = 0; i < rest.sectors; i++) want[n++] = rest.sector[i];
        for (uint32_t i = 0; i < one.sectors; i++) {
            bool have = false;
            for (uint32_t j = 0; j < n; j++) have |= want[j] == one.sector[i];
            if (!have) want[n++] = one.sector[i];
        }
        for (uint32_t i = 1; i < n; i++)
            for (uint32_t j = i; j > 0 && want[j - 1] > want[j]; j--) {
                uint64_t t = want[j]; want[j] = want[j - 1]; want[j - 1] = t;
            }
        uint32_t s = reference(a, ALL, size, 32), l = reference(a, ALL, size, 128);
        if (c.sectors != n || c.sectors != s || c.lines != l || memcmp(c.sector, want, n * sizeof *want))
            fail_msg("iteration %d size %u base %llu %s: %u sectors, %u lines; want %u (%u), %u", iter, size,
                     (unsigned long long)base, broadcast ? "one address" : "a run", c.sectors, c.lines, n, s, l);
    }
}

/* Distinct addresses: hand-worked cases, then random lanes drawn from a
 * few values (many repeats) or many (few), under random masks, against a
 * count that sorts the addresses. */
static uint32_t distinct_by_sorting(const uint64_t addr[32], uint32_t mask)
{
    uint64_t v[32];
    uint32_t n = 0, d = 0;
    for (int l = 0; l < 32; l++)
        if (mask >> l & 1) v[n++] = addr[l];
    qsort(v, n, sizeof *v, cmp_u64);
    for (uint32_t i = 0; i < n; i++) d += i == 0 || v[i] != v[i - 1];
    return d;
}

static void test_distinct_addresses(void **state)
{
    (void)state;
    uint64_t a[32];
    for (int l = 0; l < 32; l++) a[l] = 0x1000;
    assert_int_equal(ws_distinct_addresses(a, 0), 0);
    assert_int_equal(ws_distinct_addresses(a, UINT32_MAX), 1);
    a[31] = 0x1004;
    assert_int_equal(ws_distinct_addresses(a, UINT32_MAX), 2);
    assert_int_equal(ws_distinct_addresses(a, 0x7FFFFFFFu), 1);     /* lane 31 off */
    for (int l = 0; l < 32; l++) a[l] = 0x1000 + 4 * (uint64_t)(l % 7);
    assert_int_equal(ws_distinct_addresses(a, UINT32_MAX), 7);
    uint64_t seed = 99;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t values = 1 + (uint32_t)(seed >> 59), mask = i % 3 ? (uint32_t)(seed >> 13) : UINT32_MAX;
        for (int l = 0; l < 32; l++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            a[l] = 0x2000 + 8 * ((seed >> 33) % values);
        }
        assert_int_equal(ws_distinct_addresses(a, mask), distinct_by_sorting(a, mask));
    }
}

/* A full warp of two strided halves given by its shape (ws_coalesce_halves,
 * as the executor knows it from fetching the lanes' bytes): the same sectors,
 * in order, and lines as ws_coalesce_eval reading every lane, and as the
 * byte-wise reference, for steps of 0 or the lanes' word and sizes from
 * that word up to 16 (a merged SASS access covers several words). */
static void test_halves_by_shape(void **state)
{
    (void)state;
    static const uint32_t words[] = {1, 2, 4, 8, 16};
    uint64_t seed = 4242;
    for (int iter = 0; iter < 20000; iter++) {
        uint32_t word = words[rng(&seed) % 5], size = word << (rng(&seed) % 3);
        if (size > 16) size = 16;
        uint64_t step = rng(&seed) % 3 == 0 ? 0 : word;
        uint64_t a0 = (BASE + rng(&seed) % 8192) / word * word;
        uint64_t a16 = iter % 4 == 0 ? a0 : (a0 + rng(&seed) % (64 * word) - 32 * word) / word * word;
        uint64_t a[32];
        for (uint32_t i = 0; i < 16; i++) {
            a[i] = a0 + i * step;
            a[16 + i] = a16 + i * step;
        }
        ws_coalesce fast, slow;
        ws_coalesce_halves(a0, a16, step, size, &fast);
        ws_coalesce_eval(a, ALL, size, &slow);
        uint32_t s = reference(a, ALL, size, 32), l = reference(a, ALL, size, 128);
        if (fast.requests != 1 || fast.sectors != slow.sectors || fast.lines != slow.lines ||
            fast.sectors != s || fast.lines != l || memcmp(fast.sector, slow.sector, fast.sectors * sizeof *fast.sector))
            fail_msg("iteration %d size %u step %llu: %u sectors, %u lines; reading the lanes %u, %u; reference %u, %u",
                     iter, size, (unsigned long long)step, fast.sectors, fast.lines, slow.sectors, slow.lines, s, l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_stride_sweep),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_wide),
        cmocka_unit_test(test_random_against_reference),
        cmocka_unit_test(test_runs_and_broadcasts),
        cmocka_unit_test(test_halves_by_shape),
        cmocka_unit_test(test_distinct_addresses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
