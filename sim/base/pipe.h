/* Execution pipes: the timing model looks latency and issue interval up by
 * pipe in the GPU config, never by mnemonic.  Decode resolves each
 * instruction's pipe (ws_insn.pipe) from its opcode's row in
 * isa/ptx_opcodes.def and its type. */
#ifndef WARPSIM_PIPE_H
#define WARPSIM_PIPE_H

typedef enum ws_pipe {
    WS_PIPE_INT, WS_PIPE_FP32, WS_PIPE_FP64, WS_PIPE_SFU,
    WS_PIPE_TENSOR, WS_PIPE_LSU, WS_PIPE_BRANCH, WS_PIPE_COUNT
} ws_pipe;

#endif
