/* The main loop's agenda of SMs (sim/core/sm_queue.h) against a plain
 * reference: an array of each SM's next cycle, the earliest found by a
 * scan and its SMs listed by index.  Random runs of the loop's pattern
 * (take the earliest cycle's SMs, file each again later or never), with
 * SM counts across the ring's word boundary and delays within the ring,
 * at its edge, and far past it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "sim/core/sm_queue.h"

#define NEVER UINT64_MAX

static uint64_t lcg(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    return *seed >> 33;
}

/* A delay the loop may see: mostly the next few cycles, some at the
 * ring's edge (WS_AGENDA_CYCLES - 1, WS_AGENDA_CYCLES), some far. */
static uint64_t delay(uint64_t *seed)
{
    uint64_t r = lcg(seed) % 100;
    if (r < 50) return 1;
    if (r < 75) return 1 + lcg(seed) % 8;
    if (r < 85) return WS_AGENDA_CYCLES - 1 + lcg(seed) % 3;
    if (r < 95) return 1 + lcg(seed) % (3 * WS_AGENDA_CYCLES);
    return 100000 + lcg(seed) % 5000000;
}

static void run(int32_t nsm, uint64_t seed, int steps)
{
    uint64_t *ref = malloc(sizeof *ref * (size_t)nsm);
    int32_t *due = malloc(sizeof *due * (size_t)nsm);
    ws_sm_agenda a = {.later = {.heap = malloc(sizeof(ws_sm_entry) * (size_t)nsm)},
                      .ring = calloc(WS_AGENDA_CYCLES * WS_AGENDA_WORDS(nsm), sizeof(uint64_t)),
                      .nw = (uint32_t)WS_AGENDA_WORDS(nsm)};
    assert_non_null(ref);
    assert_non_null(due);
    assert_non_null(a.later.heap);
    assert_non_null(a.ring);
    /* the loop's start: every SM at a small cycle, some never */
    for (int32_t i = 0; i < nsm; i++) {
        ref[i] = lcg(&seed) % 7 == 0 ? NEVER : lcg(&seed) % 5;
        if (ref[i] != NEVER) ws_sm_queue_push(&a.later, (ws_sm_entry){.next = ref[i], .id = i});
    }
    int taken = 0;
    for (int step = 0; step < steps; step++) {
        uint64_t first = NEVER;
        for (int32_t i = 0; i < nsm; i++) first = ref[i] < first ? ref[i] : first;
        assert_int_equal(ws_sm_agenda_empty(&a), first == NEVER);
        if (first == NEVER) break;
        assert_int_equal(ws_sm_agenda_first(&a), first);
        int32_t n = ws_sm_agenda_take(&a, first, due);
        int32_t k = 0;
        for (int32_t i = 0; i < nsm; i++) {
            if (ref[i] != first) continue;
            assert_true(k < n);
            assert_int_equal(due[k++], i);
        }
        assert_int_equal(n, k);
        taken += n;
        for (int32_t j = 0; j < n; j++) {
            int32_t i = due[j];
            /* an SM finished now and then; the rest come back */
            ref[i] = lcg(&seed) % 5000 == 0 ? NEVER : first + delay(&seed);
            if (ref[i] != NEVER) ws_sm_agenda_put(&a, i, ref[i]);
        }
    }
    assert_true(taken >= 1000);
    free(ref);
    free(due);
    free(a.later.heap);
    free(a.ring);
}

static void test_agenda_matches_a_scan(void **state)
{
    (void)state;
    const int32_t counts[] = {1, 2, 8, 63, 64, 65, 132, 200};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) run(counts[c], 11 + c, 20000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agenda_matches_a_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
