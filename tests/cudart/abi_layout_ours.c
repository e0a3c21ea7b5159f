/* The runtime's struct layouts as warpsim's cudart_abi.h lays them out. */
#include <stddef.h>
#include "frontend/cudart/cudart_abi.h"
#include "abi_fields.h"

void abi_layout_ours(size_t *out, int *n)
{
    int i = 0;
#define S(s) out[i++] = sizeof(struct s);
    ABI_STRUCTS(S)
#undef S
    out[i++] = sizeof(dim3);
    out[i++] = sizeof(cudaError_t);
    out[i++] = sizeof(cudaTextureObject_t);
#define X(s, f) out[i++] = offsetof(struct s, f);
    ABI_FIELDS(X)
#undef X
    *n = i;
}
