/* Fuzz target: the GPU config loader (sim/base/gpu_config.h) on any INI
 * text, as `warpsim run --gpu FILE.ini` reads it.  Missing, malformed or
 * absurd values must give an error naming the line and key, never a crash
 * or a config that later divides by zero. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sim/base/gpu_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ws_gpu_config cfg;
    char err[512];
    (void)ws_gpu_config_load_string(text, "fuzz.ini", &cfg, err, sizeof err);
    free(text);
    return 0;
}
