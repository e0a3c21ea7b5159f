/* ws_kernel_regs_resolve with a module's ptxas cache (what `warpsim exec`
 * passes): every kernel of the module gets the numbers it gets without the
 * cache (what `warpsim run` and `warpsim occupancy` do), from one ptxas
 * run; a failing ptxas is run once too and gives the same estimate and
 * reason.  Skipped without ptxas (the CUDA toolkit). */
#include "core_util.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontend/ptx/ptxas_info.h"
#include "sim/core/kernel_regs.h"

#define CONVOLUTION WARPSIM_SOURCE_DIR "/kernels/ptx/sm_90/convolution.ptx"

static const char *const kernels[] = {
    "_Z11conv3dTiledPKfPfiii", "_Z11conv3dNaivePKfPfiii", "_Z11conv2dTiledPKfPfii",
    "_Z11conv2dNaivePKfPfii",  "_Z11conv1dTiledPKfPfi",   "_Z11conv1dNaivePKfPfi",
};
#define NKERNELS (sizeof kernels / sizeof kernels[0])

static void skip_without_ptxas(void)
{
    char ptxas[1024];
    if (ptx_find_ptxas(ptxas, sizeof ptxas) != 0) skip();
}

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *text = malloc(*len);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, *len, f), *len);
    fclose(f);
    return text;
}

/* Each kernel resolved alone and through one cache: the same numbers. */
static void resolve_all_and_compare(const tctx *t, ws_regs_request rq, ws_ptxas_cache *cache)
{
    for (size_t i = 0; i < NKERNELS; i++) {
        const ws_kernel *k = ws_program_kernel(t->p, kernels[i]);
        assert_non_null(k);
        ws_kernel_regs alone, cached;
        rq.ptxas_cache = NULL;
        ws_kernel_regs_resolve(t->p, k, &rq, &alone);
        rq.ptxas_cache = cache;
        ws_kernel_regs_resolve(t->p, k, &rq, &cached);
        assert_int_equal(cached.regs, alone.regs);
        assert_int_equal(cached.source, alone.source);
        assert_int_equal(cached.have_ptxas_smem, alone.have_ptxas_smem);
        assert_int_equal(cached.ptxas_smem, alone.ptxas_smem);
        assert_string_equal(cached.why, alone.why);
    }
}

static void test_one_run_per_module(void **state)
{
    (void)state;
    skip_without_ptxas();
    tctx t;
    t_load_path(&t, CONVOLUTION);
    ws_ptxas_cache cache = {0};
    ws_regs_request rq = {.ptx_path = CONVOLUTION, .gpu_major = 9, .gpu_minor = 0};
    resolve_all_and_compare(&t, rq, &cache);
    assert_int_equal(cache.runs, 1);

    /* what ptxas says, kernel by kernel (its smem is the kernel's static shared memory) */
    ws_kernel_regs r;
    rq.ptxas_cache = &cache;
    ws_kernel_regs_resolve(t.p, ws_program_kernel(t.p, "_Z11conv3dTiledPKfPfiii"), &rq, &r);
    assert_int_equal(r.source, WS_REGS_PTXAS);
    assert_true(r.have_ptxas_smem);
    assert_int_equal(r.ptxas_smem, 2048);
    ws_kernel_regs_resolve(t.p, ws_program_kernel(t.p, "_Z11conv3dNaivePKfPfiii"), &rq, &r);
    assert_int_equal(r.source, WS_REGS_PTXAS);
    assert_int_equal(r.ptxas_smem, 0);
    assert_int_equal(cache.runs, 1);

    /* another architecture is another compile: the cache keeps the latest */
    rq.gpu_major = 10;
    ws_kernel_regs_resolve(t.p, ws_program_kernel(t.p, "_Z11conv3dTiledPKfPfiii"), &rq, &r);
    assert_int_equal(cache.runs, 2);
    assert_int_equal(cache.major, 10);
    ws_ptxas_cache_free(&cache);
    assert_null(cache.out);
    assert_false(cache.ran);
    t_free(&t);
}

/* The runtime's way: the PTX text, written to a temporary file once. */
static void test_one_run_from_text(void **state)
{
    (void)state;
    skip_without_ptxas();
    tctx t;
    t_load_path(&t, CONVOLUTION);
    size_t len;
    char *text = read_text(CONVOLUTION, &len);
    ws_ptxas_cache cache = {0};
    ws_regs_request rq = {.ptx_text = text, .ptx_len = len, .gpu_major = 9, .gpu_minor = 0};
    resolve_all_and_compare(&t, rq, &cache);
    assert_int_equal(cache.runs, 1);
    assert_true(cache.ok);
    ws_ptxas_cache_free(&cache);
    free(text);
    t_free(&t);
}

/* A ptxas that fails: every kernel's estimate and reason as without the
 * cache, from one run. */
static void test_failed_run_kept(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/warpsim-test-ptxas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    char fake[1100];
    snprintf(fake, sizeof fake, "%s/ptxas", dir);
    FILE *f = fopen(fake, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\necho \"ptxas: refused by the test\" >&2\nexit 1\n", f);
    fclose(f);
    assert_int_equal(chmod(fake, 0755), 0);
    const char *old = getenv("PATH");
    char *saved = strdup(old ? old : "");
    char path[16384];
    snprintf(path, sizeof path, "%s:%s", dir, saved);
    setenv("PATH", path, 1);

    tctx t;
    t_load_path(&t, CONVOLUTION);
    ws_ptxas_cache cache = {0};
    ws_regs_request rq = {.ptx_path = CONVOLUTION, .gpu_major = 9, .gpu_minor = 0};
    resolve_all_and_compare(&t, rq, &cache);
    assert_int_equal(cache.runs, 1);
    assert_true(cache.ran);
    assert_false(cache.ok);
    ws_kernel_regs r;
    rq.ptxas_cache = &cache;
    ws_kernel_regs_resolve(t.p, ws_program_kernel(t.p, kernels[0]), &rq, &r);
    assert_int_equal(r.source, WS_REGS_ESTIMATED);
    char want[1300];
    snprintf(want, sizeof want, "%s -arch=sm_90 failed: ptxas: refused by the test", fake);
    assert_string_equal(r.why, want);     /* ptxas's lines on one */
    assert_int_equal(cache.runs, 1);

    /* the same, started ahead */
    ws_ptxas_cache ahead = {0};
    size_t len;
    char *text = read_text(CONVOLUTION, &len);
    ws_ptxas_start_ahead(&ahead, text, len, 9, 0);
    ws_regs_request rt = {.ptx_text = text, .ptx_len = len, .gpu_major = 9, .gpu_minor = 0, .ptxas_cache = &ahead};
    ws_kernel_regs ra;
    ws_kernel_regs_resolve(t.p, ws_program_kernel(t.p, kernels[0]), &rt, &ra);
    assert_int_equal(ra.source, WS_REGS_ESTIMATED);
    assert_string_equal(ra.why, want);
    assert_int_equal(ahead.runs, 1);
    ws_ptxas_cache_free(&ahead);
    free(text);

    setenv("PATH", saved, 1);
    free(saved);
    ws_ptxas_cache_free(&cache);
    t_free(&t);
    unlink(fake);
    rmdir(dir);
}

/* A private TMPDIR for the test, so that what ptxas runs leave there can
 * be counted; restored and removed by tmpdir_end. */
static char *tmpdir_begin(char *dir, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    char *saved = tmp ? strdup(tmp) : NULL;
    snprintf(dir, size, "%s/warpsim-test-ahead-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    setenv("TMPDIR", dir, 1);
    return saved;
}

static int files_in(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int n = -1;
    assert_int_equal(fscanf(p, "%d", &n), 1);
    pclose(p);
    return n;
}

static void tmpdir_end(const char *dir, char *saved)
{
    assert_int_equal(files_in(dir), 0);     /* no temporary file left */
    if (saved) setenv("TMPDIR", saved, 1);
    else unsetenv("TMPDIR");
    free(saved);
    assert_int_equal(rmdir(dir), 0);
}

/* ptxas started ahead (the runtime starts it when the program registers
 * its module): the first resolve of that architecture waits for it, and
 * every kernel gets the numbers of a run of its own; a resolve for
 * another architecture runs ptxas again; a run never asked for is stopped
 * when the cache is freed.  No temporary file is left either way. */
static void test_started_ahead(void **state)
{
    (void)state;
    skip_without_ptxas();
    char dir[1024];
    char *saved = tmpdir_begin(dir, sizeof dir);
    tctx t;
    t_load_path(&t, CONVOLUTION);
    size_t len;
    char *text = read_text(CONVOLUTION, &len);
    ws_regs_request rq = {.ptx_text = text, .ptx_len = len, .gpu_major = 9, .gpu_minor = 0};

    /* a GPU older than the PTX's .target (sm_90): ptxas compiles for the target */
    ws_ptxas_cache cache = {0};
    ws_ptxas_start_ahead(&cache, text, len, 8, 0);
    assert_true(cache.started);
    assert_int_equal(cache.runs, 1);
    resolve_all_and_compare(&t, rq, &cache);
    assert_false(cache.started);
    assert_int_equal(cache.runs, 1);
    assert_true(cache.ok);
    assert_int_equal(cache.major, 9);
    ws_ptxas_cache_free(&cache);

    /* started for sm_100, asked for sm_90: a second run */
    ws_ptxas_start_ahead(&cache, text, len, 10, 0);
    resolve_all_and_compare(&t, rq, &cache);
    assert_int_equal(cache.runs, 2);
    assert_int_equal(cache.major, 9);
    ws_ptxas_cache_free(&cache);

    /* reaped by the program before it was asked for (its wait()): run again */
    ws_ptxas_start_ahead(&cache, text, len, 9, 0);
    assert_int_equal(waitpid((pid_t)cache.job.pid, NULL, 0), (pid_t)cache.job.pid);
    resolve_all_and_compare(&t, rq, &cache);
    assert_int_equal(cache.runs, 2);
    assert_true(cache.ok);
    ws_ptxas_cache_free(&cache);

    /* never asked for */
    ws_ptxas_start_ahead(&cache, text, len, 9, 0);
    assert_true(cache.started);
    ws_ptxas_cache_free(&cache);
    assert_false(cache.started);
    assert_false(cache.ran);

    free(text);
    t_free(&t);
    tmpdir_end(dir, saved);
}

/* Outputs kept on disk (ptxas_store.h), as `warpsim exec` and the
 * commands use them: the first compile of a text is filed, and a cache
 * that asks again for it (started ahead, from the text, or from the PTX
 * file) gets it without running ptxas, with every kernel's numbers as a
 * run's; another architecture compiles and is filed beside it; a spoilt
 * entry compiles again and is filed anew; with the store off nothing is
 * read or filed. */
static int entries(const char *dir)
{
    char sub[1100];
    snprintf(sub, sizeof sub, "%s/ptxas", dir);
    return access(sub, F_OK) == 0 ? files_in(sub) : 0;
}

static void test_kept_on_disk(void **state)
{
    (void)state;
    skip_without_ptxas();
    const char *tmp = getenv("TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/warpsim-test-kept-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    assert_int_equal(setenv("WARPSIM_CACHE_DIR", dir, 1), 0);
    tctx t;
    t_load_path(&t, CONVOLUTION);
    size_t len;
    char *text = read_text(CONVOLUTION, &len);
    ws_regs_request rq = {.ptx_text = text, .ptx_len = len, .gpu_major = 9, .gpu_minor = 0};

    ws_ptxas_cache first = {.disk = true};
    ws_ptxas_start_ahead(&first, text, len, 9, 0);
    assert_true(first.started);
    resolve_all_and_compare(&t, rq, &first);
    assert_int_equal(first.runs, 1);
    assert_int_equal(entries(dir), 1);
    ws_ptxas_cache_free(&first);
    assert_true(first.disk);

    ws_ptxas_cache again = {.disk = true};
    ws_ptxas_start_ahead(&again, text, len, 9, 0);
    assert_false(again.started);
    assert_true(again.ran && again.ok);
    resolve_all_and_compare(&t, rq, &again);
    assert_int_equal(again.runs, 0);
    ws_ptxas_cache_free(&again);

    ws_ptxas_cache from_text = {.disk = true}, from_file = {.disk = true};
    resolve_all_and_compare(&t, rq, &from_text);
    assert_int_equal(from_text.runs, 0);
    ws_regs_request by_path = {.ptx_path = CONVOLUTION, .gpu_major = 9, .gpu_minor = 0};
    resolve_all_and_compare(&t, by_path, &from_file);
    assert_int_equal(from_file.runs, 0);
    ws_ptxas_cache_free(&from_text);
    ws_ptxas_cache_free(&from_file);

    ws_ptxas_cache newer = {.disk = true};
    rq.gpu_major = 10;
    resolve_all_and_compare(&t, rq, &newer);
    assert_int_equal(newer.runs, 1);
    assert_int_equal(entries(dir), 2);
    ws_ptxas_cache_free(&newer);
    rq.gpu_major = 9;

    /* every entry spoilt: compiled again, and filed anew */
    char cmd[1300];
    snprintf(cmd, sizeof cmd, "for f in '%s'/ptxas/*; do echo spoilt > \"$f\"; done", dir);
    assert_int_equal(system(cmd), 0);
    ws_ptxas_cache spoilt = {.disk = true}, mended = {.disk = true};
    resolve_all_and_compare(&t, rq, &spoilt);
    assert_int_equal(spoilt.runs, 1);
    resolve_all_and_compare(&t, rq, &mended);
    assert_int_equal(mended.runs, 0);
    ws_ptxas_cache_free(&spoilt);
    ws_ptxas_cache_free(&mended);

    /* the store off */
    setenv("WARPSIM_CACHE_DIR", "off", 1);
    ws_ptxas_cache off = {.disk = true};
    resolve_all_and_compare(&t, rq, &off);
    assert_int_equal(off.runs, 1);
    ws_ptxas_cache_free(&off);

    unsetenv("WARPSIM_CACHE_DIR");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(text);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_run_per_module),
        cmocka_unit_test(test_one_run_from_text),
        cmocka_unit_test(test_failed_run_kept),
        cmocka_unit_test(test_started_ahead),
        cmocka_unit_test(test_kept_on_disk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
