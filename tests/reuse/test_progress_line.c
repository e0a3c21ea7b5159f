/* The progress line with a fake clock: nothing before the show time, a
 * drawing then, no redraw within a quarter second, erased at the end; and
 * the text of the line (blocks, percentage, cycles, rate, ETA) worked out
 * by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/core/progress_line.h"

static uint64_t fake_now(void *ctx)
{
    return *(const uint64_t *)ctx;
}

static void test_format(void **state)
{
    (void)state;
    char buf[256];
    /* 100 of 400 blocks in 10 s: 300 more at that rate, 30 s */
    ws_progress_state s = {.blocks_done = 100, .blocks_total = 400, .cycles = 2500000, .warp_insts = 30000000};
    ws_progress_line_format(buf, sizeof buf, "k", true, &s, 10.0);
    assert_string_equal(buf, "warpsim: k  blocks 100/400 (25%)  2.50M cycles  3.00M warp insts/s  ETA 0:30");
    /* functional: no cycles; no block done yet: no ETA */
    s = (ws_progress_state){.blocks_done = 0, .blocks_total = 7, .cycles = 0, .warp_insts = 5000};
    ws_progress_line_format(buf, sizeof buf, "k", false, &s, 2.0);
    assert_string_equal(buf, "warpsim: k  blocks 0/7 (0%)  2500 warp insts/s  ETA ?");
    /* 1 of 3 blocks in 50 s: 100 s left */
    s = (ws_progress_state){.blocks_done = 1, .blocks_total = 3, .cycles = 12345, .warp_insts = 1000};
    ws_progress_line_format(buf, sizeof buf, "k", true, &s, 50.0);
    assert_string_equal(buf, "warpsim: k  blocks 1/3 (33%)  12.3k cycles  20 warp insts/s  ETA 1:40");
}

static void test_drawing(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    uint64_t now = 5000000000u;
    ws_progress_line *p = ws_progress_line_create(out, WS_PROGRESS_SHOW_AFTER_NS, fake_now, &now);
    assert_non_null(p);
    ws_progress_state s = {.blocks_done = 1, .blocks_total = 2, .cycles = 10, .warp_insts = 100};

    /* a launch shorter than the show time leaves nothing behind */
    ws_progress_line_begin(p, "short", true);
    now += 900000000u;
    ws_progress_line_poll(p, &s);
    ws_progress_line_end(p);
    fflush(out);
    assert_int_equal(len, 0);

    ws_progress_line_begin(p, "long", true);
    now += 1000000000u;                 /* 1 s in: drawn */
    ws_progress_line_poll(p, &s);
    fflush(out);
    assert_string_equal(text, "\rwarpsim: long  blocks 1/2 (50%)  10 cycles  100 warp insts/s  ETA 0:01\033[K");
    size_t first = len;
    now += 200000000u;                  /* 0.2 s later: not redrawn */
    ws_progress_line_poll(p, &s);
    fflush(out);
    assert_int_equal(len, first);
    now += 100000000u;                  /* 0.3 s after the drawing: redrawn */
    ws_progress_line_poll(p, &s);
    fflush(out);
    assert_true(len > first);
    assert_memory_equal(text + first, "\rwarpsim: long  blocks 1/2", 26);
    size_t second = len;
    ws_progress_line_end(p);            /* erased */
    fflush(out);
    assert_string_equal(text + second, "\r\033[K");
    ws_progress_line_end(p);            /* once only */
    fflush(out);
    assert_int_equal(len, second + 4);

    ws_progress_line_free(p);
    fclose(out);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_drawing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
