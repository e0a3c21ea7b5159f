/* Grid and block dimensions. */
#ifndef WARPSIM_DIMS_H
#define WARPSIM_DIMS_H

#include <stdint.h>

typedef struct ws_dim3 { uint32_t x, y, z; } ws_dim3;

#endif
