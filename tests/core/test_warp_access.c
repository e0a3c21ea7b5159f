/* Loads, stores and atomics of a whole warp at the edges of the executor's
 * one-range path (exec_mem.c): accesses across a backing page, into
 * never-written pages, through generic addresses into shared, local and
 * global memory, sign-extended narrow loads, lanes on one address, and
 * warps where several lanes fault (the first in lane order is reported,
 * and the lanes before it have stored), and shared words read and
 * written a warp at once, below shared memory and where lanes meet too,
 * lanes below local memory, and global words read a warp at once, in
 * halves of either step and at the edges of their allocation.  Expected
 * values are computed here on the CPU from the kernels' PTX. */
#include "core_util.h"

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"
#define PAGE 65536u

static const char ptx[] = HDR
    ".visible .entry bytes(.param .u64 p0, .param .u64 p1)\n{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
    " mov.u32 %r1, %tid.x;\n cvt.u64.u32 %rd3, %r1;\n add.s64 %rd4, %rd1, %rd3;\n"
    " ld.global.s8 %r2, [%rd4];\n ld.global.u8 %r3, [%rd4];\n"
    " mul.wide.u32 %rd5, %r1, 8;\n add.s64 %rd6, %rd2, %rd5;\n"
    " st.global.v2.u32 [%rd6], {%r2, %r3};\n ret;\n}\n"

    ".visible .entry pages(.param .u64 p0, .param .u64 p1)\n{\n"
    " .reg .b32 %r<6>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 8;\n add.s64 %rd4, %rd1, %rd3;\n"
    " ld.global.v2.u32 {%r2, %r3}, [%rd4];\n add.s64 %rd5, %rd2, %rd3;\n"
    " st.global.v2.u32 [%rd5], {%r3, %r2};\n ret;\n}\n"

    /* lane i at p + i * 8200 (a column: the lanes on 4 backing pages),
     * the first 29 lanes, a pair loaded and stored swapped */
    ".visible .entry column(.param .u64 p0, .param .u64 p1)\n{\n"
    " .reg .b32 %r<6>;\n .reg .b64 %rd<8>;\n .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
    " mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 29;\n"
    " mul.wide.u32 %rd3, %r1, 8200;\n add.s64 %rd4, %rd1, %rd3;\n"
    " @%p1 ld.global.v2.u32 {%r2, %r3}, [%rd4];\n add.s64 %rd5, %rd2, %rd3;\n"
    " @%p1 st.global.v2.u32 [%rd5], {%r3, %r2};\n ret;\n}\n"

    ".visible .entry gen(.param .u64 p0)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<12>;\n"
    " .shared .align 4 .b8 sh[256];\n .local .align 4 .b8 loc[16];\n"
    " ld.param.u64 %rd1, [p0];\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
    " mov.u64 %rd3, sh;\n cvta.shared.u64 %rd4, %rd3;\n add.s64 %rd5, %rd4, %rd2;\n"
    " mul.lo.u32 %r2, %r1, 3;\n st.u32 [%rd5], %r2;\n bar.sync 0;\n"
    " add.u32 %r3, %r1, 1;\n and.b32 %r3, %r3, 63;\n mul.wide.u32 %rd6, %r3, 4;\n"
    " add.s64 %rd7, %rd4, %rd6;\n ld.u32 %r4, [%rd7];\n"
    " mov.u64 %rd8, loc;\n cvta.local.u64 %rd9, %rd8;\n add.u32 %r6, %r4, %r1;\n"
    " st.u32 [%rd9+4], %r6;\n ld.u32 %r5, [%rd9+4];\n"
    " add.s64 %rd10, %rd1, %rd2;\n st.u32 [%rd10], %r5;\n ret;\n}\n"

    ".visible .entry same(.param .u64 p0)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n"
    " .shared .align 4 .b32 cnt;\n"
    " ld.param.u64 %rd1, [p0];\n mov.u32 %r1, %tid.x;\n add.u32 %r2, %r1, 100;\n"
    " st.global.v2.u32 [%rd1], {%r1, %r2};\n"
    " setp.eq.u32 %p1, %r1, 0;\n @%p1 st.shared.u32 [cnt], 0;\n bar.sync 0;\n"
    " atom.shared.add.u32 %r3, [cnt], 1;\n bar.sync 0;\n"
    " ld.shared.u32 %r4, [cnt];\n st.global.u32 [%rd1+8], %r4;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3+16], %r3;\n ret;\n}\n"

    ".visible .entry sel(.param .u64 p0, .param .u64 p1)\n{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 8;\n add.s64 %rd4, %rd1, %rd3;\n"
    " ld.global.u64 %rd5, [%rd4];\n add.s64 %rd6, %rd2, %rd5;\n add.u32 %r2, %r1, 1000;\n"
    " st.global.u32 [%rd6], %r2;\n ld.global.u32 %r3, [%rd6];\n ret;\n}\n";

/* Addresses without a register: one address for every lane (a module of
 * its own: its variable would move the other kernels' allocations). */
static const char uni_ptx[] = HDR
    ".global .align 4 .b8 gbytes[4] = {128, 127, 255, 1};\n"
    ".visible .entry uni(.param .u64 p0)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [p0];\n mov.u32 %r1, %tid.x;\n"
    " ld.global.s8 %r2, [gbytes];\n ld.global.s8 %r3, [gbytes+1];\n ld.global.u16 %r4, [gbytes+2];\n"
    " setp.lt.u32 %p1, %r1, 5;\n @%p1 ld.global.s8 %r4, [gbytes+2];\n"
    " mul.wide.u32 %rd2, %r1, 16;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r1};\n ret;\n}\n";

/* A 16x2 block: each warp is two rows of 16 threads.  Loads of one word
 * per row (a[ty * 64]), of the same 16 words in both rows (a[tx]), of a
 * row each (a[ty * 64 + tx]), and of two words each (a v2 at
 * a[ty * 64 + 2 * tx]), from global and from shared memory. */
static const char halves_ptx[] = HDR
    ".visible .entry halves(.param .u64 p0, .param .u64 p1)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<24>;\n .reg .b64 %rd<16>;\n .shared .align 8 .b8 sh[1024];\n"
    " ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %tid.y;\n shl.b32 %r3, %r2, 6;\n"
    /* shared a[i] = 1000 + i for i < 256, written by thread (tx, ty) at 16 ty + tx, +32, ... */
    " mad.lo.u32 %r4, %r2, 16, %r1;\n mov.u32 %r5, %r4;\n"
    "$fill:\n add.u32 %r6, %r5, 1000;\n shl.b32 %r7, %r5, 2;\n mov.u32 %r8, sh;\n add.u32 %r8, %r8, %r7;\n"
    " st.shared.u32 [%r8], %r6;\n add.u32 %r5, %r5, 32;\n setp.lt.u32 %p1, %r5, 256;\n @%p1 bra $fill;\n"
    " bar.sync 0;\n"
    " mul.wide.u32 %rd3, %r3, 4;\n add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r9, [%rd4];\n"
    " mul.wide.u32 %rd5, %r1, 4;\n add.s64 %rd6, %rd1, %rd5;\n ld.global.u32 %r10, [%rd6];\n"
    " add.s64 %rd7, %rd4, %rd5;\n ld.global.u32 %r11, [%rd7];\n"
    " add.s64 %rd8, %rd7, %rd5;\n ld.global.v2.u32 {%r12, %r13}, [%rd8];\n"
    " mov.u32 %r14, sh;\n shl.b32 %r15, %r3, 2;\n add.u32 %r16, %r14, %r15;\n ld.shared.u32 %r17, [%r16];\n"
    " shl.b32 %r18, %r1, 2;\n add.u32 %r19, %r14, %r18;\n ld.shared.u32 %r20, [%r19];\n"
    " add.u32 %r21, %r16, %r18;\n ld.shared.u32 %r22, [%r21];\n"
    " add.u32 %r23, %r21, %r18;\n ld.shared.v2.u32 {%r5, %r6}, [%r23];\n"
    " mul.wide.u32 %rd9, %r4, 40;\n add.s64 %rd10, %rd2, %rd9;\n"
    " st.global.v2.u32 [%rd10], {%r9, %r10};\n st.global.v2.u32 [%rd10+8], {%r11, %r12};\n"
    " st.global.v2.u32 [%rd10+16], {%r13, %r17};\n st.global.v2.u32 [%rd10+24], {%r20, %r22};\n"
    " st.global.v2.u32 [%rd10+32], {%r5, %r6};\n ret;\n}\n";

/* ld.shared.u32 from a 32-thread block's shared words a[i] = 1000 + i:
 * each lane's offset from its thread index (kernel parameter p1: how),
 * read at +64 bytes or (p2 1) at -8, below the block's shared memory for
 * lanes 0 and 1.  how 0: a word a lane (two halves stepping by 4), 1:
 * lanes 0-15 a word each, 16-31 all at offset 80 (halves stepping
 * differently), 2: every other word (a stride of 8).  Then a v2 load of
 * a pair a lane (p2 2: at -16 bytes, lanes 0 and 1 below). */
static const char edges_ptx[] = HDR
    ".visible .entry edges(.param .u64 p0, .param .u32 p1, .param .u32 p2)\n{\n"
    " .reg .pred %p<4>;\n .reg .b32 %r<16>;\n .reg .b64 %rd<4>;\n .shared .align 8 .b8 sh[512];\n"
    " ld.param.u64 %rd1, [p0];\n ld.param.u32 %r10, [p1];\n ld.param.u32 %r11, [p2];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, sh;\n"
    " shl.b32 %r3, %r1, 2;\n add.u32 %r4, %r1, 1000;\n add.u32 %r5, %r2, %r3;\n st.shared.u32 [%r5], %r4;\n"
    " add.u32 %r4, %r4, 32;\n st.shared.u32 [%r5+128], %r4;\n"
    " add.u32 %r4, %r4, 32;\n st.shared.u32 [%r5+256], %r4;\n"
    " add.u32 %r4, %r4, 32;\n st.shared.u32 [%r5+384], %r4;\n bar.sync 0;\n"
    " mov.u32 %r6, %r3;\n"
    " setp.eq.u32 %p1, %r10, 1;\n setp.ge.u32 %p2, %r1, 16;\n and.pred %p3, %p1, %p2;\n"
    " @%p3 mov.u32 %r6, 80;\n"
    " setp.eq.u32 %p1, %r10, 2;\n @%p1 shl.b32 %r6, %r1, 3;\n"
    " add.u32 %r7, %r2, %r6;\n"
    " shl.b32 %r12, %r1, 3;\n add.u32 %r13, %r2, %r12;\n"
    " setp.eq.u32 %p1, %r11, 1;\n @%p1 bra $neg1;\n ld.shared.u32 %r8, [%r7+64];\n bra $pair;\n"
    "$neg1:\n ld.shared.u32 %r8, [%r7+-8];\n"
    "$pair:\n setp.eq.u32 %p1, %r11, 2;\n @%p1 bra $neg2;\n ld.shared.v2.u32 {%r14, %r15}, [%r13];\n bra $out;\n"
    "$neg2:\n ld.shared.v2.u32 {%r14, %r15}, [%r13+-16];\n"
    "$out:\n mul.wide.u32 %rd2, %r1, 12;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r8;\n st.global.u32 [%rd3+4], %r14;\n st.global.u32 [%rd3+8], %r15;\n ret;\n}\n";

/* Stores of a word a lane where lanes meet: each half on one word (words
 * 120 and 121) and both halves on words 0-15; then read back. */
static const char meet_ptx[] = HDR
    ".visible .entry meet(.param .u64 p0)\n{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<4>;\n .shared .align 4 .b8 sh[512];\n"
    " ld.param.u64 %rd1, [p0];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, sh;\n add.u32 %r3, %r1, 5000;\n"
    " shr.u32 %r4, %r1, 4;\n shl.b32 %r5, %r4, 2;\n add.u32 %r6, %r2, %r5;\n st.shared.u32 [%r6+480], %r3;\n"
    " and.b32 %r7, %r1, 15;\n shl.b32 %r8, %r7, 2;\n add.u32 %r9, %r2, %r8;\n st.shared.u32 [%r9], %r3;\n"
    " bar.sync 0;\n ld.shared.u32 %r10, [%r9];\n ld.shared.u32 %r11, [%r6+480];\n"
    " mul.wide.u32 %rd2, %r1, 8;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r10;\n st.global.u32 [%rd3+4], %r11;\n ret;\n}\n";

/* Local words at alternating offsets 0 and 4, read at -4 bytes: the even
 * lanes' words lie below the thread's local memory. */
static const char below_ptx[] = HDR
    ".visible .entry below(.param .u64 p0)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .local .align 4 .b8 loc[128];\n"
    " ld.param.u64 %rd1, [p0];\n mov.u32 %r1, %tid.x;\n and.b32 %r2, %r1, 1;\n mul.wide.u32 %rd2, %r2, 4;\n"
    " mov.u64 %rd4, loc;\n add.s64 %rd5, %rd4, %rd2;\n st.local.u32 [%rd5], %r1;\n ld.local.u32 %r5, [%rd5+-4];\n"
    " mul.wide.u32 %rd6, %r1, 4;\n add.s64 %rd3, %rd1, %rd6;\n st.global.u32 [%rd3], %r5;\n ret;\n}\n";

/* A store and an atomic of a word a lane at -8 bytes: lanes 0 and 1 below
 * the block's shared memory. */
static const char write_below_ptx[] = HDR
    ".visible .entry st_below()\n{\n"
    " .reg .b32 %r<8>;\n .shared .align 4 .b8 sh[256];\n"
    " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n mov.u32 %r3, sh;\n add.u32 %r4, %r3, %r2;\n"
    " st.shared.u32 [%r4+-8], %r1;\n ret;\n}\n"
    ".visible .entry atom_below()\n{\n"
    " .reg .b32 %r<8>;\n .shared .align 4 .b8 sh[256];\n"
    " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n mov.u32 %r3, sh;\n add.u32 %r4, %r3, %r2;\n"
    " atom.shared.add.u32 %r5, [%r4+-8], %r1;\n ret;\n}\n";

/* ld.global.u32 of a word a lane from src + off + 4 * idx: idx the lane
 * (how 0: two halves of consecutive words), lane & 15 (1: both halves on
 * the same 16 words), 16 * (lane >> 4) (2: a word for each half), 0 for
 * lanes 0-15 and the lane for the others (3: halves of different steps),
 * or the lane for lanes 0-15 and 16 for the others (4: the same, the
 * other way round), into dst[lane]. */
static const char gwords_ptx[] = HDR
    ".visible .entry gwords(.param .u64 p0, .param .u64 p1, .param .u32 p2, .param .u64 p3)\n{\n"
    " .reg .pred %p<4>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<10>;\n"
    " ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n ld.param.u32 %r1, [p2];\n ld.param.u64 %rd3, [p3];\n"
    " mov.u32 %r2, %tid.x;\n mov.u32 %r3, %r2;\n"
    " setp.eq.u32 %p1, %r1, 1;\n @%p1 and.b32 %r3, %r2, 15;\n"
    " setp.eq.u32 %p2, %r1, 2;\n shr.u32 %r4, %r2, 4;\n @%p2 shl.b32 %r3, %r4, 4;\n"
    " setp.eq.u32 %p1, %r1, 3;\n setp.lt.u32 %p2, %r2, 16;\n and.pred %p3, %p1, %p2;\n @%p3 mov.u32 %r3, 0;\n"
    " setp.eq.u32 %p1, %r1, 4;\n setp.ge.u32 %p2, %r2, 16;\n and.pred %p3, %p1, %p2;\n @%p3 mov.u32 %r3, 16;\n"
    " mul.wide.u32 %rd4, %r3, 4;\n add.s64 %rd5, %rd2, %rd4;\n add.s64 %rd6, %rd5, %rd3;\n"
    " ld.global.u32 %r5, [%rd6];\n"
    " mul.wide.u32 %rd7, %r2, 4;\n add.s64 %rd8, %rd1, %rd7;\n st.global.u32 [%rd8], %r5;\n ret;\n}\n";

static void load(tctx *t)
{
    if (!t_load(t, ptx, "warp_access.ptx")) fail_msg("%s", t->err.msg);
}

static void test_narrow_signed_loads(void **state)
{
    (void)state;
    tctx t;
    load(&t);
    uint8_t src[64];
    for (int i = 0; i < 64; i++) src[i] = (uint8_t)(i * 37 + 101);
    uint64_t s = t_alloc(&t, src, sizeof src), d = t_alloc(&t, NULL, 64 * 8);
    t_p64(&t, s); t_p64(&t, d);
    if (!t_run(&t, "bytes", D3(1, 1, 1), D3(64, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t out[128];
    assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
    for (int i = 0; i < 64; i++) {
        assert_int_equal(out[2 * i], (uint32_t)(int32_t)(int8_t)src[i]);
        assert_int_equal(out[2 * i + 1], src[i]);
    }
    t_free(&t);
}

/* A warp's 256 bytes across the boundary of two backing pages, and into a
 * page never written (zeros); the destination pages are created by the
 * stores. */
static void test_across_pages(void **state)
{
    (void)state;
    tctx t;
    load(&t);
    uint64_t s = t_alloc(&t, NULL, 3 * PAGE), d = t_alloc(&t, NULL, 64 * 8);
    assert_int_equal(s % PAGE, 0);      /* the offsets below are page offsets */
    uint32_t *pat = malloc(PAGE + 256);
    assert_non_null(pat);
    for (uint32_t i = 0; i < (PAGE + 256) / 4; i++) pat[i] = i * 2654435761u + 7;
    assert_true(ws_devmem_write(t.mem, s, pat, PAGE + 256));
    static const uint32_t starts[] = {PAGE - 128, 2 * PAGE - 64};
    for (int run = 0; run < 2; run++) {
        t.nparams = 0;
        t_p64(&t, s + starts[run]); t_p64(&t, d);
        if (!t_run(&t, "pages", D3(1, 1, 1), D3(64, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
        uint32_t out[128];
        assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
        for (uint32_t i = 0; i < 128; i++) {
            uint32_t word = starts[run] / 4 + (i ^ 1);      /* the pair swapped */
            uint32_t want = word < (PAGE + 256) / 4 ? pat[word] : 0;
            if (out[i] != want) fail_msg("start %u word %u: %u, want %u", starts[run], i, out[i], want);
        }
    }
    free(pat);
    t_free(&t);
}

/* A warp whose lanes are too far apart for one host range (a column of a
 * matrix: every lane 8200 bytes after the one before, over four backing
 * pages), guarded off in its last three lanes: loaded and stored lane by
 * lane from host memory, into destination pages the first run creates
 * and the second finds. */
static void test_column(void **state)
{
    (void)state;
    tctx t;
    load(&t);
    uint32_t n = 32 * 8200 / 4;
    uint64_t s = t_alloc(&t, NULL, 4 * n), d = t_alloc(&t, NULL, 4 * n);
    uint32_t *pat = malloc(4 * n), *out = malloc(4 * n);
    assert_non_null(pat);
    assert_non_null(out);
    for (int run = 0; run < 2; run++) {
        for (uint32_t i = 0; i < n; i++) pat[i] = i * 2654435761u + 11 + (uint32_t)run;
        assert_true(ws_devmem_write(t.mem, s, pat, 4 * n));
        t.nparams = 0;
        t_p64(&t, s); t_p64(&t, d);
        if (!t_run(&t, "column", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
        assert_true(ws_devmem_read(t.mem, d, out, 4 * n));
        for (uint32_t lane = 0; lane < 32; lane++) {
            uint32_t w = lane * 8200 / 4;
            uint32_t want0 = lane < 29 ? pat[w + 1] : 0, want1 = lane < 29 ? pat[w] : 0;
            if (out[w] != want0 || out[w + 1] != want1)
                fail_msg("run %d lane %u: %u %u, want %u %u", run, lane, out[w], out[w + 1], want0, want1);
        }
    }
    free(pat);
    free(out);
    t_free(&t);
}

static void test_generic_spaces(void **state)
{
    (void)state;
    tctx t;
    load(&t);
    uint64_t d = t_alloc(&t, NULL, 64 * 4);
    t_p64(&t, d);
    if (!t_run(&t, "gen", D3(1, 1, 1), D3(64, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t out[64];
    assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
    for (uint32_t i = 0; i < 64; i++) assert_int_equal(out[i], 3 * ((i + 1) % 64) + i);
    t_free(&t);
}

/* Lanes on one address: the last lane's store stays; an atomic serializes
 * the lanes in lane order. */
static void test_one_address(void **state)
{
    (void)state;
    tctx t;
    load(&t);
    uint64_t d = t_alloc(&t, NULL, 48 * 4);
    t_p64(&t, d);
    if (!t_run(&t, "same", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t out[48];
    assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
    assert_int_equal(out[2], 32);
    for (uint32_t i = 0; i < 32; i++) assert_int_equal(out[4 + i], i);
    /* the vector store's two words are lane 31's */
    assert_int_equal(out[0], 31);
    assert_int_equal(out[1], 131);
    t_free(&t);
}

/* Loads whose address has no register (a variable and an offset) give
 * every lane the same value, sign-extended for .s8, in a full warp, a
 * partial last warp and under a guard that keeps threads 0 to 4. */
static void test_uniform_address(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, uni_ptx, "uniform.ptx")) fail_msg("%s", t.err.msg);
    uint64_t d = t_alloc(&t, NULL, 40 * 16);
    t_p64(&t, d);
    if (!t_run(&t, "uni", D3(1, 1, 1), D3(40, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t out[40][4];
    assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
    for (uint32_t i = 0; i < 40; i++) {
        assert_int_equal(out[i][0], 0xffffff80u);
        assert_int_equal(out[i][1], 0x7fu);
        assert_int_equal(out[i][2], i < 5 ? 0xffffffffu : 0x1ffu);
        assert_int_equal(out[i][3], i);
    }
    t_free(&t);
}

/* Each thread's ten values are those of its row and column, from global
 * (a[i] = 7 i + 3) and shared memory (1000 + i). */
static void test_half_warp_rows(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, halves_ptx, "halves.ptx")) fail_msg("%s", t.err.msg);
    uint32_t a[256];
    for (uint32_t i = 0; i < 256; i++) a[i] = 7 * i + 3;
    uint64_t src = t_alloc(&t, a, sizeof a), d = t_alloc(&t, NULL, 32 * 40);
    t_p64(&t, src); t_p64(&t, d);
    if (!t_run(&t, "halves", D3(1, 1, 1), D3(16, 2, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t out[32][10];
    assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
    for (uint32_t ty = 0; ty < 2; ty++)
        for (uint32_t tx = 0; tx < 16; tx++) {
            const uint32_t *o = out[ty * 16 + tx];
            uint32_t row = 64 * ty;
            uint32_t want[10] = {a[row], a[tx], a[row + tx], a[row + 2 * tx], a[row + 2 * tx + 1],
                                 1000 + row, 1000 + tx, 1000 + row + tx, 1000 + row + 2 * tx,
                                 1000 + row + 2 * tx + 1};
            for (int k = 0; k < 10; k++)
                if (o[k] != want[k]) fail_msg("thread (%u,%u) value %d: %u, want %u", tx, ty, k, o[k], want[k]);
        }
    t_free(&t);
}

/* Shared words read by a warp in the patterns of edges_ptx: the values
 * of a CPU reading of the same words; at a negative offset, the first
 * lane below shared memory reported as the lanes alone would be. */
static void test_shared_word_edges(void **state)
{
    (void)state;
    for (uint32_t how = 0; how < 3; how++) {
        tctx t;
        if (!t_load(&t, edges_ptx, "edges.ptx")) fail_msg("%s", t.err.msg);
        uint64_t d = t_alloc(&t, NULL, 32 * 12);
        t_p64(&t, d); t_p32(&t, how); t_p32(&t, 0);
        if (!t_run(&t, "edges", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
        uint32_t out[32][3];
        assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
        for (uint32_t lane = 0; lane < 32; lane++) {
            uint32_t off = how == 2 ? 8 * lane : how == 1 && lane >= 16 ? 80 : 4 * lane;
            uint32_t want[3] = {1000 + (off + 64) / 4, 1000 + 2 * lane, 1000 + 2 * lane + 1};
            for (int k = 0; k < 3; k++)
                if (out[lane][k] != want[k])
                    fail_msg("how %u lane %u value %d: %u, want %u", how, lane, k, out[lane][k], want[k]);
        }
        t_free(&t);

        for (uint32_t neg = 1; neg <= (how == 0 ? 2u : 1u); neg++) {
            if (!t_load(&t, edges_ptx, "edges.ptx")) fail_msg("%s", t.err.msg);
            d = t_alloc(&t, NULL, 32 * 12);
            t_p64(&t, d); t_p32(&t, how); t_p32(&t, neg);
            assert_false(t_run(&t, "edges", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0));
            const char *want = neg == 1 ? "Invalid __shared__ read of size 4 at 0xfffffffffffffff8"
                                        : "Invalid __shared__ read of size 8 at 0xfffffffffffffff0";
            if (!strstr(t.err.msg, want) || !strstr(t.err.msg, "by thread (0,0,0)"))
                fail_msg("how %u neg %u: %s", how, neg, t.err.msg);
            assert_int_equal(t.err.kind, WS_ERR_ILLEGAL_ADDRESS);
            t_free(&t);
        }
    }
}

/* A store's and an atomic's lanes below shared memory are reported, and
 * nothing is written below the block's shared bytes. */
static void test_shared_writes_below(void **state)
{
    (void)state;
    static const char *const kernels[2] = {"st_below", "atom_below"};
    static const char *const want[2] = {"Invalid __shared__ write of size 4 at 0xfffffffffffffff8",
                                        "Invalid __shared__ atomic of size 4 at 0xfffffffffffffff8"};
    for (int k = 0; k < 2; k++) {
        tctx t;
        if (!t_load(&t, write_below_ptx, "write_below.ptx")) fail_msg("%s", t.err.msg);
        assert_false(t_run(&t, kernels[k], D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0));
        if (!strstr(t.err.msg, want[k]) || !strstr(t.err.msg, "by thread (0,0,0)"))
            fail_msg("%s: %s", kernels[k], t.err.msg);
        assert_int_equal(t.err.kind, WS_ERR_ILLEGAL_ADDRESS);
        t_free(&t);
    }
}

/* Lanes near each other whose addresses wrap around below local memory
 * (a negative offset) are reported, not read from below the thread's
 * local bytes. */
static void test_local_below(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, below_ptx, "below.ptx")) fail_msg("%s", t.err.msg);
    uint64_t d = t_alloc(&t, NULL, 32 * 4);
    t_p64(&t, d);
    assert_false(t_run(&t, "below", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0));
    if (!strstr(t.err.msg, "Invalid __local__ read of size 4 at 0xfffffffffffffffc") ||
        !strstr(t.err.msg, "by thread (0,0,0)"))
        fail_msg("%s", t.err.msg);
    assert_int_equal(t.err.kind, WS_ERR_ILLEGAL_ADDRESS);
    t_free(&t);
}

/* Global words read by a warp (gwords_ptx): the values of a CPU reading
 * of the same words for each shape; misaligned, below an allocation, past
 * its end and wrapped around below address 0, the first lane that faults
 * reported as the lanes alone would be. */
static void test_global_word_edges(void **state)
{
    (void)state;
    uint32_t a[256];
    for (uint32_t i = 0; i < 256; i++) a[i] = 11 * i + 5;
    for (uint32_t how = 0; how < 5; how++) {
        tctx t;
        if (!t_load(&t, gwords_ptx, "gwords.ptx")) fail_msg("%s", t.err.msg);
        uint64_t src = t_alloc(&t, a, sizeof a), d = t_alloc(&t, NULL, 32 * 4);
        t_p64(&t, d); t_p64(&t, src); t_p32(&t, how); t_p64(&t, 12);
        if (!t_run(&t, "gwords", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
        uint32_t out[32];
        assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
        for (uint32_t lane = 0; lane < 32; lane++) {
            uint32_t idx = how == 0 ? lane : how == 1 ? lane & 15 : how == 2 ? 16 * (lane >> 4)
                         : how == 3 ? (lane < 16 ? 0 : lane) : (lane < 16 ? lane : 16);
            if (out[lane] != a[3 + idx]) fail_msg("how %u lane %u: %u, want %u", how, lane, out[lane], a[3 + idx]);
        }
        t_free(&t);
    }
    struct {
        int64_t off;        /* from src; INT64_MIN: to address -8 */
        uint32_t how, lane;
        const char *what;
        ws_error_kind kind;
    } bad[] = {
        {2, 0, 0, "Misaligned __global__ read of size 4", WS_ERR_MISALIGNED},
        {2, 1, 0, "Misaligned __global__ read of size 4", WS_ERR_MISALIGNED},
        {-8, 0, 0, "Invalid __global__ read of size 4", WS_ERR_ILLEGAL_ADDRESS},
        {-8, 2, 0, "Invalid __global__ read of size 4", WS_ERR_ILLEGAL_ADDRESS},
        {1024 - 64, 0, 16, "Invalid __global__ read of size 4", WS_ERR_ILLEGAL_ADDRESS},
        {1024 - 64, 2, 16, "Invalid __global__ read of size 4", WS_ERR_ILLEGAL_ADDRESS},
        {INT64_MIN, 0, 0, "Invalid __global__ read of size 4", WS_ERR_ILLEGAL_ADDRESS},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tctx t;
        if (!t_load(&t, gwords_ptx, "gwords.ptx")) fail_msg("%s", t.err.msg);
        uint64_t src = t_alloc(&t, a, sizeof a), d = t_alloc(&t, NULL, 32 * 4);
        uint64_t off = bad[i].off == INT64_MIN ? (uint64_t)0 - src - 8 : (uint64_t)bad[i].off;
        t_p64(&t, d); t_p64(&t, src); t_p32(&t, bad[i].how); t_p64(&t, off);
        assert_false(t_run(&t, "gwords", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0));
        uint64_t at = src + off;    /* lane 0's, or lane 16's 64 bytes on */
        if (bad[i].lane == 16) at += 64;
        char want[160], who[64];
        snprintf(want, sizeof want, "%s at 0x%llx", bad[i].what, (unsigned long long)at);
        snprintf(who, sizeof who, "by thread (%u,0,0)", bad[i].lane);
        if (!strstr(t.err.msg, want) || !strstr(t.err.msg, who))
            fail_msg("case %zu: got %s\nwant %s %s", i, t.err.msg, want, who);
        assert_int_equal(t.err.kind, bad[i].kind);
        t_free(&t);
    }
}

/* Where a warp's lanes store to one word, the last lane in lane order
 * wins; where its halves store to the same words, the second half. */
static void test_shared_stores_meet(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, meet_ptx, "meet.ptx")) fail_msg("%s", t.err.msg);
    uint64_t d = t_alloc(&t, NULL, 32 * 8);
    t_p64(&t, d);
    if (!t_run(&t, "meet", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t out[32][2];
    assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
    for (uint32_t lane = 0; lane < 32; lane++) {
        assert_int_equal(out[lane][0], 5000 + 16 + (lane & 15));
        assert_int_equal(out[lane][1], lane < 16 ? 5015 : 5031);
    }
    t_free(&t);
}

/* Lane l stores at buf + off[l]: the first faulting lane in lane order is
 * reported, with the message it gets alone, and the lanes before it have
 * stored. */
static void expect_first_fault(const uint64_t bad[2][2], const char *what, int lane, uint64_t at,
                               ws_error_kind kind)
{
    tctx t;
    load(&t);
    uint64_t off[32];
    for (int i = 0; i < 32; i++) off[i] = 4 * (uint64_t)i;
    for (int k = 0; k < 2; k++) off[bad[k][0]] = bad[k][1];
    uint64_t table = t_alloc(&t, off, sizeof off), buf = t_alloc(&t, NULL, 128);
    t_p64(&t, table); t_p64(&t, buf);
    assert_false(t_run(&t, "sel", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0));
    char want[200], thread[64];
    snprintf(want, sizeof want, "%s __global__ write of size 4 at 0x%llx", what,
             (unsigned long long)(buf + at));
    snprintf(thread, sizeof thread, "by thread (%d,0,0) in block (0,0,0)", lane);
    if (!strstr(t.err.msg, want) || !strstr(t.err.msg, thread))
        fail_msg("got: %s\nwant: %s ... %s", t.err.msg, want, thread);
    assert_int_equal(t.err.kind, kind);
    uint32_t mem[32];
    assert_true(ws_devmem_read(t.mem, buf, mem, sizeof mem));
    for (int i = 0; i < 32; i++) assert_int_equal(mem[i], i < lane ? 1000u + (uint32_t)i : 0u);
    t_free(&t);
}

static void test_first_fault_in_lane_order(void **state)
{
    (void)state;
    const uint64_t oob_first[2][2] = {{3, 4096}, {5, 22}};
    expect_first_fault(oob_first, "Invalid", 3, 4096, WS_ERR_ILLEGAL_ADDRESS);
    const uint64_t misaligned_first[2][2] = {{2, 9}, {7, 8192}};
    expect_first_fault(misaligned_first, "Misaligned", 2, 9, WS_ERR_MISALIGNED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_narrow_signed_loads),
        cmocka_unit_test(test_across_pages),
        cmocka_unit_test(test_column),
        cmocka_unit_test(test_generic_spaces),
        cmocka_unit_test(test_one_address),
        cmocka_unit_test(test_uniform_address),
        cmocka_unit_test(test_half_warp_rows),
        cmocka_unit_test(test_shared_word_edges),
        cmocka_unit_test(test_shared_stores_meet),
        cmocka_unit_test(test_global_word_edges),
        cmocka_unit_test(test_shared_writes_below),
        cmocka_unit_test(test_local_below),
        cmocka_unit_test(test_first_fault_in_lane_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
