/* The GPU config a command simulates when --gpu is not given. */
#ifndef WARPSIM_CLI_TARGET_GPU_H
#define WARPSIM_CLI_TARGET_GPU_H

/* The config that a PTX .target suggests ("sm_80" -> "a100", "sm_90" ->
 * "h100"), or NULL for a target no config stands for. */
const char *cli_gpu_for_target(const char *target);

#endif
