/* Registers of 32 bits or fewer live in rows of 4-byte lanes, 64-bit ones
 * in rows of 8 (reg_rows.c, warp.h).  One kernel crosses between the two
 * in every way the executor has, and each thread's results are checked
 * against the same arithmetic done on the CPU: a carry out of a 32-bit
 * add into a 32-bit register; mul.wide from 32 bits to 64 and cvt back,
 * cut; mov.b64 packing two 32-bit registers and unpacking a shifted pair;
 * a guarded add and a selp under a predicate that splits the warp (4-byte
 * rows written in some lanes only); a 64-bit compare into a predicate;
 * half precision through the general ALU path; a shuffle; f32 arithmetic
 * on its 4-byte form; a 32-bit shared-memory address. */
#include "core_util.h"

enum { THREADS = 64, OUTS = 12 };

static const char narrow_ptx[] =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry mix(.param .u64 pout)\n{\n"
    " .reg .pred %p<4>;\n .reg .b16 %h<3>;\n .reg .b32 %r<20>;\n .reg .f32 %f<3>;\n .reg .b64 %rd<8>;\n"
    " .shared .align 4 .b32 sh[64];\n"
    " ld.param.u64 %rd1, [pout];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mad.lo.u32 %r2, %r1, 3, 0xFFFFFFF0;\n"        /* wraps for t >= 6 */
    " add.cc.u32 %r3, %r2, 32;\n"
    " addc.u32 %r4, 0, 0;\n"                         /* the carry out */
    " mul.wide.u32 %rd2, %r2, 65536;\n"
    " shr.u64 %rd3, %rd2, 20;\n"
    " cvt.u32.u64 %r5, %rd3;\n"
    " mov.b64 %rd4, {%r1, %r2};\n"
    " shl.b64 %rd5, %rd4, 8;\n"
    " mov.b64 {%r6, %r7}, %rd5;\n"
    " and.b32 %r8, %r1, 1;\n"
    " setp.eq.u32 %p1, %r8, 1;\n"
    " mov.u32 %r9, 100;\n"
    " @%p1 add.u32 %r9, %r9, %r1;\n"
    " not.pred %p2, %p1;\n"
    " selp.u32 %r10, 7, 9, %p2;\n"
    " cvt.rn.f16.u32 %h1, %r1;\n"
    " add.f16 %h2, %h1, %h1;\n"
    " cvt.rzi.u32.f16 %r11, %h2;\n"
    " shfl.sync.bfly.b32 %r12, %r1, 1, 31, -1;\n"
    " cvt.rn.f32.u32 %f1, %r1;\n"
    " fma.rn.f32 %f2, %f1, 0f40000000, 0f3F800000;\n"
    " cvt.rzi.u32.f32 %r13, %f2;\n"
    " setp.gt.u64 %p3, %rd2, 0x0000FFFF00000000;\n"
    " selp.u32 %r14, 1, 0, %p3;\n"
    " mov.u32 %r15, sh;\n"
    " shl.b32 %r16, %r1, 2;\n"
    " add.u32 %r17, %r15, %r16;\n"
    " st.shared.u32 [%r17], %r9;\n"
    " bar.sync 0;\n"
    " xor.b32 %r18, %r16, 4;\n"
    " add.u32 %r18, %r15, %r18;\n"
    " ld.shared.u32 %r19, [%r18];\n"
    " mul.wide.u32 %rd6, %r1, 48;\n"                /* OUTS words a thread */
    " add.u64 %rd7, %rd1, %rd6;\n"
    " st.global.u32 [%rd7], %r3;\n st.global.u32 [%rd7+4], %r4;\n st.global.u32 [%rd7+8], %r5;\n"
    " st.global.u32 [%rd7+12], %r6;\n st.global.u32 [%rd7+16], %r7;\n st.global.u32 [%rd7+20], %r9;\n"
    " st.global.u32 [%rd7+24], %r10;\n st.global.u32 [%rd7+28], %r11;\n st.global.u32 [%rd7+32], %r12;\n"
    " st.global.u32 [%rd7+36], %r13;\n st.global.u32 [%rd7+40], %r14;\n st.global.u32 [%rd7+44], %r19;\n"
    " mul.wide.u32 %rd6, %r1, 8;\n"
    " add.u64 %rd7, %rd1, %rd6;\n"
    " st.global.u64 [%rd7+3072], %rd5;\n"           /* after every thread's words */
    " ret;\n}\n";

/* What thread t writes, worked out on the CPU. */
static void expect(uint32_t t, uint32_t out[OUTS], uint64_t *wide)
{
    uint32_t r2 = 0xFFFFFFF0u + 3 * t;
    uint64_t rd2 = (uint64_t)r2 * 65536, rd5 = (((uint64_t)r2 << 32) | t) << 8;
    uint32_t r9 = t & 1 ? 100 + t : 100, partner = t ^ 1;
    out[0] = r2 + 32;
    out[1] = (uint64_t)r2 + 32 > 0xFFFFFFFFu;
    out[2] = (uint32_t)(rd2 >> 20);
    out[3] = (uint32_t)rd5;
    out[4] = (uint32_t)(rd5 >> 32);
    out[5] = r9;
    out[6] = t & 1 ? 9 : 7;
    out[7] = 2 * t;
    out[8] = partner;
    out[9] = 2 * t + 1;
    out[10] = rd2 > UINT64_C(0x0000FFFF00000000);
    out[11] = partner & 1 ? 100 + partner : 100;
    *wide = rd5;
}

static void test_mixed_widths(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, narrow_ptx, "narrow_rows.ptx")) fail_msg("load: %s", t.err.msg);
    uint32_t out[THREADS * OUTS];
    uint64_t wides[THREADS];
    uint64_t a = t_alloc(&t, NULL, sizeof out + sizeof wides);
    t.nparams = 0;
    t_p64(&t, a);
    if (!t_run(&t, "mix", D3(1, 1, 1), D3(THREADS, 1, 1), 0, NULL, 0)) fail_msg("mix: %s", t.err.msg);
    assert_true(ws_devmem_read(t.mem, a, out, sizeof out));
    assert_true(ws_devmem_read(t.mem, a + sizeof out, wides, sizeof wides));
    for (uint32_t i = 0; i < THREADS; i++) {
        uint32_t want[OUTS];
        uint64_t wide;
        expect(i, want, &wide);
        for (int k = 0; k < OUTS; k++)
            if (out[i * OUTS + k] != want[k])
                fail_msg("thread %u, value %d: 0x%08x, expected 0x%08x", i, k, out[i * OUTS + k], want[k]);
        if (wides[i] != wide)
            fail_msg("thread %u: 64-bit 0x%016llx, expected 0x%016llx", i, (unsigned long long)wides[i],
                     (unsigned long long)wide);
    }
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_widths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
