/* What the timing model needs to know of a decoded instruction: the
 * registers it reads and writes (for the scoreboard) and the execution
 * pipe that runs it (for latency and issue interval, looked up in the GPU
 * config by pipe class, never by mnemonic). */
#ifndef WARPSIM_INSN_DEPS_H
#define WARPSIM_INSN_DEPS_H

#include "program.h"

#define WS_DEPS_MAX 48
#define WS_DEPS_UNITS 6

typedef struct ws_insn_deps {
    uint8_t pipe;                   /* ws_pipe, as decode resolved it (ws_insn.pipe) */
    uint8_t ndst, nsrc;
    /* The 128-byte units of a warp's register storage the instruction's
     * guard and operands name (a wide row two), up to WS_DEPS_UNITS of
     * them: what the timing model asks the host's caches for when a
     * warp's next instruction is this one. */
    uint8_t nunits;
    int32_t units[WS_DEPS_UNITS];
    int32_t dst[WS_DEPS_MAX];       /* program register indices */
    int32_t src[WS_DEPS_MAX];       /* guard, operands, address bases, vector elements */
} ws_insn_deps;

void ws_insn_deps_of(const ws_program *p, const ws_insn *in, ws_insn_deps *d);

#endif
