/* PTX instructions refused by name (ptx_unsupported.def). */
#include "ptx_ir.h"

#include <string.h>

/* PTX instructions that are refused by name, with the reason. */
static const struct { const char *name, *why; } unsupported[] = {
#define X(name, why) {name, why},
#include "ptx_unsupported.def"
#undef X
};

const char *ptx_unsupported_why(const char *word)
{
    for (size_t i = 0; word && i < sizeof unsupported / sizeof unsupported[0]; i++)
        if (!strcmp(unsupported[i].name, word))
            return unsupported[i].why;
    return NULL;
}

size_t ptx_unsupported_count(void)
{
    return sizeof unsupported / sizeof unsupported[0];
}

const char *ptx_unsupported_name(size_t i)
{
    return i < ptx_unsupported_count() ? unsupported[i].name : NULL;
}
