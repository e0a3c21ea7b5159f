/* tex, tld4 and txq on texture objects, against values worked by hand from
 * the CUDA C++ Programming Guide's "Texture Fetching" appendix: addressing
 * (clamp, border, wrap, mirror), nearest-point and linear filtering with
 * 9-bit fixed-point weights, format conversion, and the faults a bad
 * texture object gives. */
#include "core_util.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

/* Each thread fetches at (coords[2i], coords[2i+1]) and stores the four
 * channels; the integer kernels the same with .s32 results. */
static const char *const kernels = HDR
    ".visible .entry tex2d(.param .u64 t, .param .u64 out, .param .u64 coords)\n{\n"
    "  .reg .b64 %rd<8>; .reg .f32 %f<8>; .reg .b32 %r<2>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out]; ld.param.u64 %rd3, [coords];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r1, 8; add.s64 %rd5, %rd3, %rd4;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd5];\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  mul.wide.u32 %rd6, %r1, 16; add.s64 %rd7, %rd2, %rd6;\n"
    "  st.global.v4.f32 [%rd7], {%f3, %f4, %f5, %f6};\n  ret;\n}\n"
    ".visible .entry tex2d_int(.param .u64 t, .param .u64 out, .param .u64 coords)\n{\n"
    "  .reg .b64 %rd<8>; .reg .f32 %f<3>; .reg .b32 %r<6>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out]; ld.param.u64 %rd3, [coords];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r1, 8; add.s64 %rd5, %rd3, %rd4;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd5];\n"
    "  tex.2d.v4.s32.f32 {%r2, %r3, %r4, %r5}, [%rd1, {%f1, %f2}];\n"
    "  mul.wide.u32 %rd6, %r1, 16; add.s64 %rd7, %rd2, %rd6;\n"
    "  st.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};\n  ret;\n}\n"
    ".visible .entry fetch1d(.param .u64 t, .param .u64 out)\n{\n"
    "  .reg .b64 %rd<5>; .reg .b32 %r<7>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x; add.s32 %r6, %r1, -2;\n"         /* texels -2, -1, 0, ... */
    "  tex.1d.v4.s32.s32 {%r2, %r3, %r4, %r5}, [%rd1, {%r6}];\n"
    "  mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r2;\n  ret;\n}\n"
    ".visible .entry gather(.param .u64 t, .param .u64 out, .param .f32 x, .param .f32 y)\n{\n"
    "  .reg .b64 %rd<3>; .reg .f32 %f<7>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out];\n"
    "  ld.param.f32 %f1, [x]; ld.param.f32 %f2, [y];\n"
    "  tld4.g.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  st.global.v4.f32 [%rd2], {%f3, %f4, %f5, %f6};\n  ret;\n}\n"
    ".visible .entry tex3d(.param .u64 t, .param .u64 out, .param .f32 x, .param .f32 y, .param .f32 z)\n{\n"
    "  .reg .b64 %rd<3>; .reg .f32 %f<8>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out];\n"
    "  ld.param.f32 %f1, [x]; ld.param.f32 %f2, [y]; ld.param.f32 %f3, [z];\n"
    "  tex.3d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1, %f2, %f3, %f3}];\n"
    "  st.global.f32 [%rd2], %f4;\n  ret;\n}\n"
    ".visible .entry query(.param .u64 t, .param .u64 out)\n{\n"
    "  .reg .b64 %rd<3>; .reg .b32 %r<6>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out];\n"
    "  txq.width.b32 %r1, [%rd1]; txq.height.b32 %r2, [%rd1]; txq.depth.b32 %r3, [%rd1];\n"
    "  txq.normalized_coords.b32 %r4, [%rd1]; txq.filter_mode.b32 %r5, [%rd1];\n"
    "  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n"
    "  st.global.u32 [%rd2+16], %r5;\n  ret;\n}\n";

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* A 2D texture over w x h texels of the given format at device address base. */
static ws_texture tex2(uint64_t base, uint32_t w, uint32_t h, ws_tex_kind kind, int channels, int bytes)
{
    ws_texture t = {.live = true, .dims = 2, .kind = (uint8_t)kind, .channels = (uint8_t)channels,
                    .channel_bytes = (uint8_t)bytes, .base = base, .width = w, .height = h,
                    .address = {WS_TEX_CLAMP, WS_TEX_CLAMP, WS_TEX_CLAMP}};
    t.pitch = (uint64_t)w * (uint64_t)(channels * bytes);
    return t;
}

/* T[y][x] = x + 10 y, one float channel, 4 x 3 texels. */
static uint64_t grid_texels(tctx *t)
{
    float v[12];
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) v[y * 4 + x] = (float)(x + 10 * y);
    return t_alloc(t, v, sizeof v);
}

/* Fetches at n coordinate pairs through texture 1 of t; out[i][0..3]. */
static void fetch2d(tctx *t, const char *kernel, const float *xy, int n, uint32_t (*out)[4])
{
    uint64_t c = t_alloc(t, xy, (size_t)n * 8), o = t_alloc(t, NULL, (size_t)n * 16);
    t->nparams = 0;
    t_p64(t, 1);
    t_p64(t, o);
    t_p64(t, c);
    if (!t_run(t, kernel, D3(1, 1, 1), D3((uint32_t)n, 1, 1), 0, NULL, 0)) fail_msg("%s", t->err.msg);
    assert_true(ws_devmem_read(t->mem, o, out, (size_t)n * 16));
}

static float f0(const uint32_t v[4]) { float f; memcpy(&f, &v[0], 4); return f; }

static void test_point_clamp_border(void **state)
{
    (void)state;
    tctx t;
    assert_true(t_load(&t, kernels, "tex.ptx"));
    ws_texture tx = tex2(grid_texels(&t), 4, 3, WS_TEX_FLOAT, 1, 4);
    tx.border[0] = fbits(-7.0f);
    t.textures = &tx;
    t.ntextures = 1;
    const float xy[] = {1.5f, 2.2f, 0.0f, 0.0f, -1.0f, 0.5f, 3.99f, 2.99f, 4.0f, 0.0f, 2.0f, -0.01f};
    uint32_t out[6][4];
    fetch2d(&t, "tex2d", xy, 6, out);
    assert_true(f0(out[0]) == 21.0f);      /* texel (1, 2) */
    assert_true(f0(out[1]) == 0.0f);
    assert_true(f0(out[2]) == 0.0f);       /* x = -1 clamps to 0 */
    assert_true(f0(out[3]) == 23.0f);
    assert_true(f0(out[4]) == 3.0f);       /* x = 4 clamps to 3 */
    assert_true(f0(out[5]) == 2.0f);       /* y = -0.01 clamps to row 0 */
    /* one channel: the rest read 0, alpha 1 */
    assert_int_equal(out[0][1], 0);
    assert_int_equal(out[0][2], 0);
    assert_int_equal(out[0][3], fbits(1.0f));
    tx.address[0] = tx.address[1] = WS_TEX_BORDER;
    fetch2d(&t, "tex2d", xy, 6, out);
    assert_true(f0(out[0]) == 21.0f);
    assert_true(f0(out[2]) == -7.0f);      /* outside: the border colour */
    assert_true(f0(out[4]) == -7.0f);
    assert_true(f0(out[5]) == -7.0f);
    t_free(&t);
}

static void test_normalized_wrap_mirror(void **state)
{
    (void)state;
    tctx t;
    assert_true(t_load(&t, kernels, "tex.ptx"));
    ws_texture tx = tex2(grid_texels(&t), 4, 3, WS_TEX_FLOAT, 1, 4);
    tx.normalized_coords = true;
    tx.address[0] = tx.address[1] = WS_TEX_WRAP;
    t.textures = &tx;
    t.ntextures = 1;
    /* x 1.25 -> 5 texels -> wrap 1, mirror 2; x -0.1 -> -0.4 -> texel -1 -> wrap 3, mirror 0;
     * y 0.5 -> 1.5 -> row 1; y 0.1 -> 0.3 -> row 0 */
    const float xy[] = {1.25f, 0.5f, -0.1f, 0.1f, 0.5f, 0.5f};
    uint32_t out[3][4];
    fetch2d(&t, "tex2d", xy, 3, out);
    assert_true(f0(out[0]) == 11.0f);
    assert_true(f0(out[1]) == 3.0f);
    assert_true(f0(out[2]) == 12.0f);      /* (0.5 * 4, 0.5 * 3) = texel (2, 1) */
    tx.address[0] = tx.address[1] = WS_TEX_MIRROR;
    fetch2d(&t, "tex2d", xy, 3, out);
    assert_true(f0(out[0]) == 12.0f);
    assert_true(f0(out[1]) == 0.0f);
    t_free(&t);
}

static void test_linear_filtering(void **state)
{
    (void)state;
    tctx t;
    assert_true(t_load(&t, kernels, "tex.ptx"));
    ws_texture tx = tex2(grid_texels(&t), 4, 3, WS_TEX_FLOAT, 1, 4);
    tx.filter_linear = true;
    t.textures = &tx;
    t.ntextures = 1;
    /* (1.0, 0.5): texels x 0 and 1 at alpha 0.5, row 0 -> 0.5.
     * (2.3, 1.5): x - 0.5 = 1.8 -> alpha 0.8 held as 205/256; row 1 -> 11 + 205/256.
     * (2.0, 2.0): x 1.5 -> (1, 2) at 1/2; y 1.5 -> rows 1, 2 at 1/2 -> 16.5.
     * (0.25, 0.5): x -0.25 -> texels -1 (clamped to 0) and 0 -> 0. */
    const float xy[] = {1.0f, 0.5f, 2.3f, 1.5f, 2.0f, 2.0f, 0.25f, 0.5f};
    uint32_t out[4][4];
    fetch2d(&t, "tex2d", xy, 4, out);
    assert_true(f0(out[0]) == 0.5f);
    assert_true(f0(out[1]) == 11.0f + 205.0f / 256.0f);
    assert_true(f0(out[2]) == 16.5f);
    assert_true(f0(out[3]) == 0.0f);
    /* border 100 outside: at x 0.25 texel -1 (the border) weighs 1 - 0.75 -> 25 */
    tx.address[0] = tx.address[1] = WS_TEX_BORDER;
    tx.border[0] = fbits(100.0f);
    fetch2d(&t, "tex2d", xy + 6, 1, out);
    assert_true(f0(out[0]) == 25.0f);
    t_free(&t);
}

static void test_formats(void **state)
{
    (void)state;
    tctx t;
    assert_true(t_load(&t, kernels, "tex.ptx"));
    const uint8_t u8[4] = {255, 0, 128, 64};
    const int8_t s8[4] = {-128, 127, -64, 0};
    const int16_t s16[2] = {-5, 7};
    const _Float16 h[1] = {(_Float16)1.5f};
    ws_texture tx[4] = {tex2(t_alloc(&t, u8, 4), 1, 1, WS_TEX_UNSIGNED, 4, 1),
                        tex2(t_alloc(&t, s8, 4), 1, 1, WS_TEX_SIGNED, 4, 1),
                        tex2(t_alloc(&t, s16, 4), 1, 1, WS_TEX_SIGNED, 2, 2),
                        tex2(t_alloc(&t, h, 2), 1, 1, WS_TEX_FLOAT, 1, 2)};
    tx[0].read_normalized = tx[1].read_normalized = true;
    t.ntextures = 1;
    const float xy[] = {0.5f, 0.5f};
    uint32_t out[1][4];
    float f[4];
    t.textures = &tx[0];
    fetch2d(&t, "tex2d", xy, 1, out);
    memcpy(f, out[0], 16);
    assert_true(f[0] == 1.0f && f[1] == 0.0f && f[2] == 128.0f / 255.0f && f[3] == 64.0f / 255.0f);
    t.textures = &tx[1];
    fetch2d(&t, "tex2d", xy, 1, out);
    memcpy(f, out[0], 16);
    assert_true(f[0] == -1.0f && f[1] == 1.0f && f[2] == -64.0f / 127.0f && f[3] == 0.0f);
    t.textures = &tx[2];
    fetch2d(&t, "tex2d_int", xy, 1, out);
    assert_int_equal((int32_t)out[0][0], -5);
    assert_int_equal(out[0][1], 7);
    assert_int_equal(out[0][3], 1);        /* absent alpha of an integer texture */
    t.textures = &tx[3];
    fetch2d(&t, "tex2d", xy, 1, out);
    assert_true(f0(out[0]) == 1.5f);
    t_free(&t);
}

static void test_fetch_gather_3d_query(void **state)
{
    (void)state;
    tctx t;
    assert_true(t_load(&t, kernels, "tex.ptx"));
    int32_t lin[5] = {10, 11, 12, 13, 14};
    ws_texture tx = {.live = true, .linear = true, .dims = 1, .kind = WS_TEX_SIGNED, .channels = 1,
                     .channel_bytes = 4, .base = t_alloc(&t, lin, sizeof lin), .width = 5};
    t.textures = &tx;
    t.ntextures = 1;
    uint64_t o = t_alloc(&t, NULL, 8 * 4);
    t_p64(&t, 1);
    t_p64(&t, o);
    assert_true(t_run(&t, "fetch1d", D3(1, 1, 1), D3(8, 1, 1), 0, NULL, 0));
    int32_t got[8];
    assert_true(ws_devmem_read(t.mem, o, got, sizeof got));
    const int32_t want[8] = {0, 0, 10, 11, 12, 13, 14, 0};   /* outside [0, 5): 0 */
    assert_memory_equal(got, want, sizeof want);

    /* tld4.g at (2.0, 1.0) on T[y][x] = x + 10 y: i = 1, j = 0 ->
     * (i, j+1), (i+1, j+1), (i+1, j), (i, j) = 11, 12, 2, 1 */
    float quad[4] = {0, 0, 0, 0};
    float texels[12][2];
    for (int k = 0; k < 12; k++) {
        texels[k][0] = 0.0f;
        texels[k][1] = (float)(k % 4 + 10 * (k / 4));   /* the G channel holds the values */
    }
    ws_texture g = tex2(t_alloc(&t, texels, sizeof texels), 4, 3, WS_TEX_FLOAT, 2, 4);
    t.textures = &g;
    o = t_alloc(&t, NULL, 32);
    t.nparams = 0;
    t_p64(&t, 1);
    t_p64(&t, o);
    float x = 2.0f, y = 1.0f;
    t_param(&t, &x, 4);
    t_param(&t, &y, 4);
    assert_true(t_run(&t, "gather", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0));
    assert_true(ws_devmem_read(t.mem, o, quad, sizeof quad));
    assert_true(quad[0] == 11.0f && quad[1] == 12.0f && quad[2] == 2.0f && quad[3] == 1.0f);

    /* 3D, 2 x 2 x 2 texels of value x + 2y + 4z, trilinear at the centre
     * (1, 1, 1): all eight weigh 1/8 -> the mean, 3.5 */
    float cube[8];
    for (int k = 0; k < 8; k++) cube[k] = (float)k;
    ws_texture c = {.live = true, .dims = 3, .kind = WS_TEX_FLOAT, .channels = 1, .channel_bytes = 4,
                    .base = t_alloc(&t, cube, sizeof cube), .pitch = 8, .slice = 16,
                    .width = 2, .height = 2, .depth = 2, .filter_linear = true,
                    .address = {WS_TEX_CLAMP, WS_TEX_CLAMP, WS_TEX_CLAMP}};
    t.textures = &c;
    float r;
    float at[3][3] = {{1.0f, 1.0f, 1.0f}, {0.5f, 0.5f, 1.5f}, {1.5f, 0.5f, 0.5f}};
    const float want3[3] = {3.5f, 4.0f, 1.0f};      /* texel (0,0,1) = 4; (1,0,0) = 1 */
    for (int k = 0; k < 3; k++) {
        t.nparams = 0;
        t_p64(&t, 1);
        t_p64(&t, o);
        for (int d = 0; d < 3; d++) t_param(&t, &at[k][d], 4);
        assert_true(t_run(&t, "tex3d", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0));
        assert_true(ws_devmem_read(t.mem, o, &r, 4));
        assert_true(r == want3[k]);
    }

    c.normalized_coords = true;
    t.nparams = 0;
    t_p64(&t, 1);
    t_p64(&t, o);
    assert_true(t_run(&t, "query", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0));
    uint32_t q[5];
    assert_true(ws_devmem_read(t.mem, o, q, sizeof q));
    const uint32_t wantq[5] = {2, 2, 2, 1, 1};
    assert_memory_equal(q, wantq, sizeof wantq);
    t_free(&t);
}

static void test_bad_texture_objects(void **state)
{
    (void)state;
    tctx t;
    assert_true(t_load(&t, kernels, "tex.ptx"));
    ws_texture tx = tex2(grid_texels(&t), 4, 3, WS_TEX_FLOAT, 1, 4);
    tx.live = false;                       /* destroyed before the launch */
    t.textures = &tx;
    t.ntextures = 1;
    const float xy[] = {0.5f, 0.5f};
    uint64_t c = t_alloc(&t, xy, 8), o = t_alloc(&t, NULL, 16);
    t_p64(&t, 1);
    t_p64(&t, o);
    t_p64(&t, c);
    assert_false(t_run(&t, "tex2d", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0));
    assert_non_null(strstr(t.err.msg, "Invalid texture object 1"));
    assert_non_null(strstr(t.err.msg, "tex.2d.v4.f32.f32"));
    /* a texture over memory that is not there */
    tx = tex2(UINT64_C(0x7000000000), 4, 3, WS_TEX_FLOAT, 1, 4);
    assert_false(t_run(&t, "tex2d", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0));
    assert_non_null(strstr(t.err.msg, "Invalid __global__ read of size 4 at 0x7000000000"));
    /* linear memory with float coordinates */
    tx = tex2(grid_texels(&t), 4, 3, WS_TEX_FLOAT, 1, 4);
    tx.linear = true;
    assert_false(t_run(&t, "tex2d", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0));
    assert_non_null(strstr(t.err.msg, "only tex1Dfetch"));
    t_free(&t);
}

static void load_fails(const char *body, const char *want)
{
    char src[1024];
    snprintf(src, sizeof src, HDR ".visible .entry k(.param .u64 t)\n{\n"
             "  .reg .b64 %%rd<2>; .reg .f32 %%f<8>; .reg .b32 %%r<3>;\n  ld.param.u64 %%rd1, [t];\n"
             "  %s\n  ret;\n}\n", body);
    tctx t;
    assert_false(t_load(&t, src, "bad.ptx"));
    if (!strstr(t.err.msg, want)) fail_msg("message '%s' lacks '%s'", t.err.msg, want);
    assert_non_null(strstr(t.err.msg, "bad.ptx:8:"));
    t_free(&t);
}

static void test_unsupported_forms(void **state)
{
    (void)state;
    load_fails("tex.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f7}];",
               "only 1d, 2d and 3d textures");
    load_fails("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];", "one coordinate per dimension");
    load_fails("tld4.r.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];", "tld4 is supported on 2d");
    load_fails("txq.channel_order.b32 %r1, [%rd1];", "txq answers .width");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_clamp_border),
        cmocka_unit_test(test_normalized_wrap_mirror),
        cmocka_unit_test(test_linear_filtering),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_fetch_gather_3d_query),
        cmocka_unit_test(test_bad_texture_objects),
        cmocka_unit_test(test_unsupported_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
