/* Fuzz target: the PTX front end.  Any bytes go through the parser; a
 * module that parses is decoded and loaded as `warpsim check` does
 * (ws_program_load into a fresh device memory).  Bad input must give an
 * error, never a crash, a leak or a hang. */
#include <stddef.h>
#include <stdint.h>
#include "frontend/ptx/ptx_parse.h"
#include "sim/core/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_error err;
    ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", &err);
    if (!m)
        return 0;
    ws_devmem *mem = ws_devmem_create();
    ws_error lerr;
    ws_program *prog = mem ? ws_program_load(m, mem, &lerr) : NULL;
    ws_program_free(prog);
    ws_devmem_destroy(mem);
    ptx_module_free(m);
    return 0;
}
