/* The fat-binary reader on fat binaries nvcc built at build time from
 * data/fatbin_kernel.cu: zstd (nvcc 13's default), LZ4 (--compress-mode=
 * speed), uncompressed, and one with PTX for two architectures (compute_75
 * and compute_80). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/cudart/fatbin.h"

typedef struct blob { uint8_t *data; size_t size; } blob;

static blob load(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", WARPSIM_FATBIN_DIR, name);
    FILE *f = fopen(path, "rb");
    blob b = {NULL, 0};
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    assert_true(n > 0);
    b.data = malloc((size_t)n);
    assert_non_null(b.data);
    b.size = (size_t)n;
    assert_int_equal(fread(b.data, 1, b.size, f), b.size);
    fclose(f);
    return b;
}

/* The PTX text into *text, which the caller owns (a local of this function
 * whose address the library received would look dangling to gcc -O3's
 * -Wdangling-pointer once inlined). */
static void ptx_of(const blob *b, uint32_t max_arch, uint32_t *arch, char **text)
{
    char err[512];
    size_t len = 0;
    *text = NULL;
    if (ws_fatbin_extract_ptx(b->data, b->size, max_arch, text, &len, arch, err, sizeof err) != 0)
        fail_msg("extract: %s", err);
    assert_int_equal(strlen(*text), len);
}

static void check_ptx_text(const char *text)
{
    assert_non_null(strstr(text, ".version "));
    assert_non_null(strstr(text, ".target sm_80"));
    assert_non_null(strstr(text, ".entry _Z15fatbinTestSaxpyfPKfPfi("));
    assert_non_null(strstr(text, ".entry _Z14fatbinTestFillPii("));
    assert_non_null(strstr(text, "fatbinTestScale[32]"));
}

/* One ELF for sm_80 and one PTX for compute_80, compressed with codec. */
static void check_single(const char *name, ws_fatbin_codec codec)
{
    blob b = load(name);
    assert_int_equal(ws_fatbin_size(b.data, b.size), b.size);
    ws_fatbin_entry e[8];
    char err[512];
    int n = ws_fatbin_list(b.data, b.size, e, 8, err, sizeof err);
    assert_int_equal(n, 2);
    int ptx = e[0].kind == WS_FATBIN_PTX ? 0 : 1;
    assert_int_equal(e[ptx].kind, WS_FATBIN_PTX);
    assert_int_equal(e[1 - ptx].kind, WS_FATBIN_ELF);
    assert_int_equal(e[ptx].arch, 80);
    assert_int_equal(e[1 - ptx].arch, 80);
    assert_int_equal(e[ptx].codec, codec);
    if (codec != WS_CODEC_NONE) assert_true(e[ptx].payload_size < e[ptx].uncompressed_size);
    uint32_t arch = 0;
    char *text;
    ptx_of(&b, 80, &arch, &text);
    assert_int_equal(arch, 80);
    check_ptx_text(text);
    free(text);
    ptx_of(&b, 90, &arch, &text);   /* a newer GPU runs the compute_80 PTX */
    assert_int_equal(arch, 80);
    free(text);
    free(b.data);
}

static void zstd_default(void **state) { (void)state; check_single("zstd.fatbin", WS_CODEC_ZSTD); }
static void lz4_speed(void **state) { (void)state; check_single("lz4.fatbin", WS_CODEC_LZ4); }
static void uncompressed(void **state) { (void)state; check_single("none.fatbin", WS_CODEC_NONE); }

static void codecs_agree(void **state)
{
    (void)state;
    blob z = load("zstd.fatbin"), l = load("lz4.fatbin"), u = load("none.fatbin");
    char *tz, *tl, *tu;
    ptx_of(&z, 80, NULL, &tz);
    ptx_of(&l, 80, NULL, &tl);
    ptx_of(&u, 80, NULL, &tu);
    assert_string_equal(tz, tu);
    assert_string_equal(tl, tu);
    free(tz); free(tl); free(tu);
    free(z.data); free(l.data); free(u.data);
}

static void picks_highest_fitting_arch(void **state)
{
    (void)state;
    blob b = load("multi.fatbin");
    uint32_t arch = 0;
    char *t;
    ptx_of(&b, 79, &arch, &t);
    assert_int_equal(arch, 75);
    assert_non_null(strstr(t, ".target sm_75"));
    free(t);
    ptx_of(&b, 80, &arch, &t);
    assert_int_equal(arch, 80);
    free(t);
    ptx_of(&b, 120, &arch, &t);
    assert_int_equal(arch, 80);
    free(t);
    char err[512], *text = NULL;
    size_t len;
    assert_int_equal(ws_fatbin_extract_ptx(b.data, b.size, 61, &text, &len, &arch, err, sizeof err), -1);
    assert_null(text);
    assert_non_null(strstr(err, "no PTX for compute_61"));
    assert_non_null(strstr(err, "compute_75"));
    free(b.data);
}

/* Damaged input gives an error, never a read outside the buffer (run
 * under the sanitizers) or a crash. */
static void damaged_input(void **state)
{
    (void)state;
    blob b = load("zstd.fatbin");
    char err[512], *text;
    size_t len;
    uint32_t arch;
    for (size_t n = 0; n < b.size; n++) {
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, b.data, n);
        int r = ws_fatbin_extract_ptx(copy, n, 80, &text, &len, &arch, err, sizeof err);
        assert_int_equal(r, -1);
        assert_true(err[0] != '\0');
        free(copy);
    }
    uint8_t *bad = malloc(b.size);
    memcpy(bad, b.data, b.size);
    bad[0] ^= 0xff;
    assert_int_equal(ws_fatbin_extract_ptx(bad, b.size, 80, &text, &len, &arch, err, sizeof err), -1);
    assert_non_null(strstr(err, "magic"));
    /* scramble the compressed PTX: an error or some text, never a crash */
    ws_fatbin_entry e[8];
    memcpy(bad, b.data, b.size);
    int n = ws_fatbin_list(bad, b.size, e, 8, err, sizeof err);
    assert_int_equal(n, 2);
    for (int i = 0; i < n; i++) {
        if (e[i].kind != WS_FATBIN_PTX) continue;
        uint8_t *p = bad + (e[i].payload - bad);
        for (uint64_t k = 4; k < e[i].payload_size; k += 7) p[k] ^= 0x5a;
        if (ws_fatbin_payload(&e[i], &text, &len, err, sizeof err) == 0) free(text);
        /* an absurd uncompressed size is refused before allocating */
        e[i].uncompressed_size = UINT64_C(1) << 40;
        assert_int_equal(ws_fatbin_payload(&e[i], &text, &len, err, sizeof err), -1);
        /* as is one below the absolute limit but more than the codec can
         * expand its compressed bytes to (found by tests/fuzz: a 1.3 KB
         * binary made the reader allocate 2 GiB) */
        e[i].uncompressed_size = e[i].payload_size * 2000;
        assert_int_equal(ws_fatbin_payload(&e[i], &text, &len, err, sizeof err), -1);
        assert_non_null(strstr(err, "damaged"));
    }
    free(bad);
    free(b.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zstd_default),
        cmocka_unit_test(lz4_speed),
        cmocka_unit_test(uncompressed),
        cmocka_unit_test(codecs_agree),
        cmocka_unit_test(picks_highest_fitting_arch),
        cmocka_unit_test(damaged_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
