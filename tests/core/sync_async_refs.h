/* What the kernels of tests/ptx/data/src/warp_sync_ops.cu and
 * async_copy.cu write, computed on the CPU: the references of
 * test_sync_async_kernels.c, and of sync_async_probe.cu, which runs the
 * same kernels on a GPU.  Plain C that a C++ compiler also takes. */
#ifndef WARPSIM_TEST_SYNC_ASYNC_REFS_H
#define WARPSIM_TEST_SYNC_ASYNC_REFS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define NT 64           /* one block of 64 threads: two warps */
#define NOUT (8 * NT)

static void make_input(int32_t in[2 * NT])
{
    uint32_t s = 2463534242u;
    for (int i = 0; i < 2 * NT; i++) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        in[i] = (int32_t)(s % 2001) - 1000;
    }
    in[7] = in[9];              /* a value repeated inside warp 0 */
}

/* ---- warp_sync_ops.cu ------------------------------------------------- */

static void ref_redux(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int w = 0; w < NT / 32; w++) {
        uint32_t sum = 0, mn = UINT32_MAX, an = UINT32_MAX, orr = 0, xr = 0, part = 0;
        int32_t mx = INT32_MIN;
        for (int j = 32 * w; j < 32 * w + 32; j++) {
            uint32_t u = (uint32_t)in[j];
            sum += u;
            mn = u < mn ? u : mn;
            mx = in[j] > mx ? in[j] : mx;
            an &= u; orr |= u; xr ^= u;
            if (j - 32 * w < 20) part += u;
        }
        for (int t = 32 * w; t < 32 * w + 32; t++) {
            uint32_t v[] = {sum, mn, (uint32_t)mx, an, orr, xr};
            for (int k = 0; k < 6; k++) want[k * NT + t] = (int32_t)v[k];
            if (t - 32 * w < 20) want[6 * NT + t] = (int32_t)part;
        }
    }
}

static void ref_match(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int t = 0; t < NT; t++) {
        int w = t / 32 * 32;
        uint32_t mod5 = 0, low2 = 0;
        bool all = true;
        for (int j = w; j < w + 32; j++) {
            if (in[j] % 5 == in[t] % 5) mod5 |= 1u << (j - w);
            if ((in[j] & 3) == (in[t] & 3)) low2 |= 1u << (j - w);
            all = all && in[j] == in[t];
        }
        want[0 * NT + t] = (int32_t)mod5;
        want[1 * NT + t] = (int32_t)low2;
        want[2 * NT + t] = -1;          /* the whole warp: 0xffffffff */
        want[3 * NT + t] = 1;
        want[4 * NT + t] = all ? -1 : 0;
        want[5 * NT + t] = all;
    }
}

/* fns by listing the set bits in the direction of the search. */
static uint32_t fns_listing(uint32_t mask, int base, int offset)
{
    int found[32], n = 0;
    if (offset == 0) return (mask >> base) & 1 ? (uint32_t)base : UINT32_MAX;
    for (int p = base; p >= 0 && p < 32; p += offset > 0 ? 1 : -1)
        if ((mask >> p) & 1) found[n++] = p;
    int want = offset > 0 ? offset : -offset;
    return want <= n ? (uint32_t)found[want - 1] : UINT32_MAX;
}

/* bmsk bit by bit, after the mode's treatment of position and width. */
static uint32_t bmsk_bits(uint32_t pos, uint32_t width, bool clamp)
{
    uint32_t r = 0;
    if (!clamp) { pos &= 31; width &= 31; }
    for (uint32_t i = pos; i < 32 && i - pos < width; i++) r |= 1u << i;
    return r;
}

static void ref_bits(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int t = 0; t < NT; t++) {
        uint32_t v = (uint32_t)in[t];
        want[t] = (int32_t)fns_listing(v, t % 32, t % 9 - 4);
        want[NT + t] = (int32_t)bmsk_bits(v & 63, (uint32_t)t, true);
        want[2 * NT + t] = (int32_t)bmsk_bits(v & 63, (uint32_t)t, false);
    }
}

static void ref_shfl_pred_scan(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int t = 0; t < NT; t++) {
        int32_t s = 0;
        for (int j = t / 32 * 32; j <= t; j++) s += in[j];
        want[t] = s;
        want[NT + t] = (in[t] < 0) | (in[t] >= 0) << 1;
        want[2 * NT + t] = 32;
    }
}

static void ref_cg_tiles(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int t = 0; t < NT; t++) {
        int32_t s8 = 0, mx = INT32_MIN, scan = 0;
        for (int j = t / 8 * 8; j < t / 8 * 8 + 8; j++) s8 += in[j];
        for (int j = t / 32 * 32; j < t / 32 * 32 + 32; j++) {
            mx = in[j] > mx ? in[j] : mx;
            if (j <= t) scan += in[j];
        }
        want[t] = s8;
        want[NT + t] = mx;
        want[2 * NT + t] = scan;
    }
}

/* ---- async_copy.cu ---------------------------------------------------- */

static void ref_pipeline_copies(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int t = 0; t < NT; t++) {
        want[t] = in[NT - 1 - t];
        want[NT + t] = in[t];
        want[2 * NT + 4 * t + 0] = in[(t % 16) * 4];       /* 8 source bytes ... */
        want[2 * NT + 4 * t + 1] = in[(t % 16) * 4 + 1];
        want[2 * NT + 4 * t + 2] = 0;                       /* ... then zeros */
        want[2 * NT + 4 * t + 3] = 0;
    }
}

static void ref_cg_copy(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int t = 0; t < NT; t++) want[t] = in[(t + 5) % NT];
}

static void ref_barrier_copy(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int t = 0; t < NT; t++) want[t] = 3 * in[NT - 1 - t];
}

static void ref_pipeline_stages(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int t = 0; t < NT; t++) want[t] = in[t] + in[NT + t];
}

/* out[0..63], the pending counts of phase 0 before each warp's arrivals:
 * the lanes of a warp arrive together (as on an H200), so the warp that
 * arrives first sees 64 and the other 32, in an order that depends on the
 * schedule: the reference puts them in order and the test sorts what the
 * kernel wrote. */
static void ref_mbarrier(const int32_t in[2 * NT], int32_t want[NOUT])
{
    for (int t = 0; t < NT; t++) {
        want[t] = t < NT / 2 ? NT / 2 : NT;
        want[NT + t] = in[NT - 1 - t] ^ 0x5a5a;
        want[2 * NT + t] = 4;      /* phase 0 open, phase 1 open, phase 2 done */
    }
}

static int cmp_int(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

#endif
