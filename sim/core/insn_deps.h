/* What the timing model needs to know of a decoded instruction: the
 * registers it reads and writes (for the scoreboard) and the execution
 * pipe that runs it (for latency and issue interval, looked up in the GPU
 * config by pipe class, never by mnemonic). */
#ifndef WARPSIM_INSN_DEPS_H
#define WARPSIM_INSN_DEPS_H

#include "program.h"

#define WS_DEPS_MAX 48

typedef struct ws_insn_deps {
    uint8_t pipe;                   /* ptx_pipe */
    uint8_t ndst, nsrc;
    int32_t dst[WS_DEPS_MAX];       /* program register indices */
    int32_t src[WS_DEPS_MAX];       /* guard, operands, address bases, vector elements */
} ws_insn_deps;

/* The pipe class of in: the opcode table's default refined by type
 * (f64 -> FP64, f32/f16 -> FP32, integer types -> INT; wmma -> tensor for
 * mma, LSU for its loads and stores; SFU stays SFU except in f64). */
ptx_pipe ws_insn_pipe(const ws_insn *in);

void ws_insn_deps_of(const ws_program *p, const ws_insn *in, ws_insn_deps *d);

#endif
