/* Default GPU configs by PTX target (target_gpu.h). */
#include "target_gpu.h"

#include <stddef.h>
#include <string.h>

const char *cli_gpu_for_target(const char *target)
{
    static const struct { const char *target, *gpu; } map[] = {
        {"sm_75", "rtx2080ti"}, {"sm_80", "a100"}, {"sm_89", "rtx4090"},
        {"sm_90", "h100"}, {"sm_90a", "h100"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(map[i].target, target))
            return map[i].gpu;
    return NULL;
}
