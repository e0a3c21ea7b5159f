/* The host allocator's settings (sim/base/host_malloc.h): applied unless
 * the user's GLIBC_TUNABLES sets malloc's own, and, once applied, a block
 * of a few MiB freed at the top of the heap stays with the process (the
 * program break does not move back), where glibc's defaults would give it
 * back at once. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sim/base/host_malloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* A user's malloc settings win: nothing is applied. */
static void test_user_tunables_win(void **state)
{
    (void)state;
    assert_int_equal(setenv("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=4096", 1), 0);
    assert_false(ws_host_malloc_tune());
    /* tunables of other parts of the library are not malloc's (under
     * AddressSanitizer its own allocator answers mallopt, with a no) */
    assert_int_equal(setenv("GLIBC_TUNABLES", "glibc.cpu.hwcaps=-AVX512F", 1), 0);
#if defined(__GLIBC__) && !defined(UNDER_ASAN)
    assert_true(ws_host_malloc_tune());
#endif
    unsetenv("GLIBC_TUNABLES");
}

/* Applied: a 4 MiB block (under the 32 MiB from which malloc maps its
 * own) comes from the heap, and freeing it leaves the break where it was
 * (glibc's default would map the block apart, or trim 128 KiB and more). */
static void test_freed_top_stays(void **state)
{
    (void)state;
    unsetenv("GLIBC_TUNABLES");
#if defined(__GLIBC__) && !defined(UNDER_ASAN)
    assert_true(ws_host_malloc_tune());
    size_t size = (size_t)4 << 20;
    char *p = malloc(size);
    assert_non_null(p);
    memset(p, 1, size);
    char *brk_with = sbrk(0);
    assert_true(p < brk_with);      /* from the heap, not a mapping of its own */
    free(p);
    assert_ptr_equal(sbrk(0), brk_with);
#else
    skip();
#endif
}

/* The settings for a program still to start (warpsim exec): the same
 * numbers as GLIBC_TUNABLES, with huge pages, after the caller's own; none
 * when the caller sets malloc's own. */
static void test_tunables_for_a_program(void **state)
{
    (void)state;
    const char *ours = "glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=1073741824:"
                       "glibc.malloc.top_pad=67108864:glibc.malloc.mmap_threshold=33554432";
    char out[512], want[512];
    assert_true(ws_host_malloc_tunables_for(NULL, out, sizeof out));
    assert_string_equal(out, ours);
    assert_true(ws_host_malloc_tunables_for("", out, sizeof out));
    assert_string_equal(out, ours);
    assert_true(ws_host_malloc_tunables_for("glibc.cpu.x86_ibt=off", out, sizeof out));
    snprintf(want, sizeof want, "glibc.cpu.x86_ibt=off:%s", ours);
    assert_string_equal(out, want);
    assert_false(ws_host_malloc_tunables_for("glibc.cpu.x86_ibt=off:glibc.malloc.arena_max=2", out, sizeof out));
    assert_false(ws_host_malloc_tunables_for(NULL, out, 40));        /* too small */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_user_tunables_win),
        cmocka_unit_test(test_freed_top_stays),
        cmocka_unit_test(test_tunables_for_a_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
