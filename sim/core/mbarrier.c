/* mbarrier objects: arrival counting and phases (PTX ISA, "Parallel
 * Synchronization and Communication Instructions: mbarrier").  The word's
 * layout is warpsim's own (see warp_ops.h); the phase completes when its
 * pending arrivals reach zero, which is all a program can observe. */
#include "warp_ops.h"

#define PENDING_SHIFT 0
#define EXPECTED_SHIFT 20
#define PHASE_SHIFT 40
#define COUNT_MASK UINT64_C(0xFFFFF)
#define PHASE_MASK UINT64_C(0x7FFFFF)

static uint32_t field(uint64_t w, int shift, uint64_t mask) { return (uint32_t)((w >> shift) & mask); }

static uint64_t make(uint32_t phase, uint32_t expected, uint32_t pending)
{
    return ((uint64_t)phase & PHASE_MASK) << PHASE_SHIFT |
           ((uint64_t)expected & COUNT_MASK) << EXPECTED_SHIFT |
           ((uint64_t)pending & COUNT_MASK) << PENDING_SHIFT;
}

uint64_t ws_mbar_init(uint32_t count) { return make(0, count, count); }

bool ws_mbar_valid(uint64_t word) { return field(word, EXPECTED_SHIFT, COUNT_MASK) != 0; }

bool ws_mbar_arrive(uint64_t *word, uint32_t count, bool drop, uint64_t *state)
{
    uint32_t phase = field(*word, PHASE_SHIFT, PHASE_MASK);
    uint32_t expected = field(*word, EXPECTED_SHIFT, COUNT_MASK);
    uint32_t pending = field(*word, PENDING_SHIFT, COUNT_MASK);
    if (count > pending || (drop && count > expected)) return false;
    *state = make(phase, 0, pending);      /* the phase and count before the arrival */
    pending -= count;
    if (drop) expected -= count;
    *word = pending == 0 ? make(phase + 1, expected, expected) : make(phase, expected, pending);
    return true;
}

bool ws_mbar_phase_done(uint64_t word, uint64_t state, bool parity)
{
    uint32_t now = field(word, PHASE_SHIFT, PHASE_MASK);
    if (parity) return (now & 1u) != (uint32_t)(state & 1u);
    return now != field(state, PHASE_SHIFT, PHASE_MASK);
}

uint32_t ws_mbar_pending(uint64_t state) { return field(state, PENDING_SHIFT, COUNT_MASK); }
