/* Helpers for the ALU tests: build a ptx_mods, run one lane, bit casts. */
#ifndef WARPSIM_ALU_TEST_UTIL_H
#define WARPSIM_ALU_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stdio.h>
#include <cmocka.h>
#include "sim/core/alu.h"

static inline ptx_mods mods(ptx_opcode op, ptx_type t0, ptx_type t1, int rnd, uint32_t flags)
{
    ptx_mods m;
    memset(&m, 0, sizeof m);
    m.op = op;
    m.types[0] = t0;
    m.types[1] = t1;
    m.ntypes = t1 == PTX_T_NONE ? 1 : 2;
    m.rounding = (uint8_t)rnd;
    m.flags = flags;
    return m;
}

/* Runs m on lane 7 only and returns dst[0]; *q and *cc (when not NULL)
 * carry the second predicate and the carry flag in and out. */
static inline uint64_t run_lane(const ptx_mods *m, uint64_t a, uint64_t b, uint64_t c,
                                uint64_t e, uint64_t *q, uint64_t *cc)
{
    char why[128] = "";
    if (!ws_alu_supports(m, why, sizeof why))
        fail_msg("unexpectedly unsupported: %s", why);
    uint64_t rows[4][WS_WARP_SIZE], d[WS_WARP_SIZE], qq[WS_WARP_SIZE], ccr[WS_WARP_SIZE];
    uint64_t vals[4] = { a, b, c, e };
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < WS_WARP_SIZE; i++)
            rows[r][i] = vals[r];
    for (int i = 0; i < WS_WARP_SIZE; i++) {
        d[i] = 0xDEADBEEFull;
        qq[i] = 0xDEADBEEFull;
        ccr[i] = cc ? *cc : 0;
    }
    uint64_t *const dst[2] = { d, q ? qq : NULL };
    const uint64_t *const src[4] = { rows[0], rows[1], rows[2], rows[3] };
    ws_alu_exec(m, 1u << 7, dst, src, cc ? ccr : NULL);
    /* inactive lanes are never written */
    assert_int_equal(d[6], 0xDEADBEEFull);
    assert_int_equal(d[8], 0xDEADBEEFull);
    if (q) *q = qq[7];
    if (cc) *cc = ccr[7];
    return d[7];
}

static inline uint64_t run3(ptx_mods m, uint64_t a, uint64_t b, uint64_t c)
{
    return run_lane(&m, a, b, c, 0, NULL, NULL);
}

static inline uint64_t run2(ptx_mods m, uint64_t a, uint64_t b) { return run3(m, a, b, 0); }
static inline uint64_t run1(ptx_mods m, uint64_t a) { return run3(m, a, 0, 0); }

static inline uint64_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bf(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t db(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double bd(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static inline bool unsupported(ptx_mods m, const char *expect_why)
{
    char why[128] = "";
    bool ok = ws_alu_supports(&m, why, sizeof why);
    if (!ok && expect_why)
        assert_string_equal(why, expect_why);
    return !ok;
}

#endif
