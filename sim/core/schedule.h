/* Instruction scheduling of a decoded function, as ptxas schedules the
 * machine code it makes of PTX: within each basic block, loads and the
 * address arithmetic they need move ahead of other instructions (a list
 * schedule, loads first), so that a warp issues its loads before the
 * arithmetic that waits for them.  nvcc's PTX interleaves loads with their
 * uses (ld, ld, fma, ld, ld, fma, ...); executed in that order by an
 * in-order warp, every fma would wait a full memory latency, where the GPU,
 * running ptxas's schedule, waits about once for all of them.  An
 * instruction moves up only a few places (schedule.c), as register pressure
 * limits ptxas too.
 *
 * The results are those of the PTX's own order: an instruction never
 * passes one it shares a register with (read after write, write after read
 * or write), and memory writes, barriers, fences, calls, carry-flag
 * arithmetic, clock reads and the block's last instruction keep their order
 * among themselves and with every load; plain loads may pass one another, as
 * ptxas's do (schedule.c).  Branch targets and reconvergence points stay
 * where they are. */
#ifndef WARPSIM_SCHEDULE_H
#define WARPSIM_SCHEDULE_H

#include "program.h"

/* Reorders p->code[start..end) (one function, end its WS_I_FEND) block by
 * block. */
void ws_schedule_loads(ws_program *p, int32_t start, int32_t end);

#endif
