/* ptxas outputs kept on disk (ptxas_store.h): where the store lies, which
 * key an output is filed under, and that an entry is used only for exactly
 * its key: the same PTX text, architecture and ptxas (a ptxas that
 * changed, an entry cut short or another text under the same file name
 * give nothing).  A file of the test's own stands in for ptxas: only its
 * path, size and time count. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "frontend/ptx/ptxas_store.h"

typedef struct scratch {
    char dir[1024], ptxas[1100];
} scratch;

static void scratch_begin(scratch *s)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(s->dir, sizeof s->dir, "%s/warpsim-test-store-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(s->dir));
    snprintf(s->ptxas, sizeof s->ptxas, "%s/fake-ptxas", s->dir);
    FILE *f = fopen(s->ptxas, "w");
    assert_non_null(f);
    fputs("a stand-in for ptxas\n", f);
    fclose(f);
    assert_int_equal(setenv("WARPSIM_CACHE_DIR", s->dir, 1), 0);
}

static void scratch_end(scratch *s)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    assert_int_equal(system(cmd), 0);
    unsetenv("WARPSIM_CACHE_DIR");
}

static void test_store_dir(void **state)
{
    (void)state;
    char dir[1024];
    assert_int_equal(setenv("WARPSIM_CACHE_DIR", "/somewhere/mine", 1), 0);
    assert_true(ptx_ptxas_store_dir(dir, sizeof dir));
    assert_string_equal(dir, "/somewhere/mine/ptxas");
    assert_int_equal(setenv("WARPSIM_CACHE_DIR", "off", 1), 0);
    assert_false(ptx_ptxas_store_dir(dir, sizeof dir));

    unsetenv("WARPSIM_CACHE_DIR");
    char *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("XDG_CACHE_HOME", "/xdg/cache", 1);
    setenv("HOME", "/home/student", 1);
    assert_true(ptx_ptxas_store_dir(dir, sizeof dir));
    assert_string_equal(dir, "/xdg/cache/warpsim/ptxas");
    setenv("XDG_CACHE_HOME", "relative/is/ignored", 1);
    assert_true(ptx_ptxas_store_dir(dir, sizeof dir));
    assert_string_equal(dir, "/home/student/.cache/warpsim/ptxas");
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    assert_false(ptx_ptxas_store_dir(dir, sizeof dir));
    if (xdg) setenv("XDG_CACHE_HOME", xdg, 1);
    if (home) setenv("HOME", home, 1);
    free(xdg);
    free(home);
}

/* Keys differ with the text, its length and the architecture. */
static void test_keys(void **state)
{
    (void)state;
    scratch s;
    scratch_begin(&s);
    ptx_ptxas_key a, b, c, d;
    assert_true(ptx_ptxas_key_of(s.ptxas, "abc", 3, 9, 0, &a));
    assert_true(ptx_ptxas_key_of(s.ptxas, "abd", 3, 9, 0, &b));
    assert_true(ptx_ptxas_key_of(s.ptxas, "abc", 3, 8, 0, &c));
    assert_true(ptx_ptxas_key_of(s.ptxas, "abc", 2, 9, 0, &d));
    assert_string_not_equal(a.file, b.file);
    assert_string_not_equal(a.file, c.file);
    assert_string_not_equal(a.line, d.line);
    assert_non_null(strstr(a.line, s.ptxas));
    assert_false(ptx_ptxas_key_of("/no/such/ptxas", "abc", 3, 9, 0, &a));
    scratch_end(&s);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_round_trip(void **state)
{
    (void)state;
    scratch s;
    scratch_begin(&s);
    const char *text = ".version 8.0\n.target sm_90\n", *out = "ptxas info    : Used 12 registers\n";
    ptx_ptxas_key key;
    assert_true(ptx_ptxas_key_of(s.ptxas, text, strlen(text), 9, 0, &key));
    assert_null(ptx_ptxas_stored(&key));            /* nothing filed yet */
    ptx_ptxas_store(&key, out);
    char *got = ptx_ptxas_stored(&key);
    assert_non_null(got);
    assert_string_equal(got, out);
    free(got);

    /* another text whose entry has the same file name: not this one's */
    ptx_ptxas_key other = key;
    other.line[strlen(other.line) - 1] ^= 1;
    assert_null(ptx_ptxas_stored(&other));

    /* an entry cut to its first line, or with another first line */
    char path[1200];
    snprintf(path, sizeof path, "%s/ptxas/%s", s.dir, key.file);
    write_file(path, key.line);
    assert_null(ptx_ptxas_stored(&key));
    write_file(path, "warpsim ptxas output 0\nptxas info    : Used 99 registers\n");
    assert_null(ptx_ptxas_stored(&key));

    /* filed again, then ptxas changes (a new toolkit): its key differs */
    ptx_ptxas_store(&key, out);
    assert_non_null(got = ptx_ptxas_stored(&key));
    free(got);
    FILE *f = fopen(s.ptxas, "a");
    assert_non_null(f);
    fputs("a newer ptxas\n", f);
    fclose(f);
    ptx_ptxas_key newer;
    assert_true(ptx_ptxas_key_of(s.ptxas, text, strlen(text), 9, 0, &newer));
    assert_string_equal(newer.file, key.file);
    assert_null(ptx_ptxas_stored(&newer));

    /* the store off: nothing read or filed */
    setenv("WARPSIM_CACHE_DIR", "off", 1);
    assert_null(ptx_ptxas_stored(&key));
    scratch_end(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_dir),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
