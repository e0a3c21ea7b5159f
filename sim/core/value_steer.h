/* Whether the values a kernel reads from memory can steer its timing.
 *
 * The timing model looks at a warp's instructions, their active lanes and
 * their addresses, never at the values its registers hold.  Those follow
 * from the launch's key (kernel, grid, block, arguments) alone, unless a
 * value read from memory flows into a branch, a guard or an address.  This
 * analysis follows every value a load returns through the kernel's code
 * (over every path: a register is marked once any instruction may write it
 * from a marked one) and names the first place where a marked value steers
 * anything, or another reason the kernel's values could depend on the
 * timing or on where its blocks ran (docs/REUSE.md, "Other inputs"),
 * but for values passed through memory, which only a run can tell. */
#ifndef WARPSIM_VALUE_STEER_H
#define WARPSIM_VALUE_STEER_H

#include <stdint.h>
#include "program.h"

/* NULL when no value k reads from memory can steer its instructions,
 * active lanes or addresses, and its values depend on neither timing nor
 * placement; else why not (a static string), with *pc the instruction
 * (-1 when it is out of memory for the analysis, or the kernel as a whole). */
const char *ws_kernel_steered_by_values(const ws_program *p, const ws_kernel *k, int32_t *pc);

#endif
