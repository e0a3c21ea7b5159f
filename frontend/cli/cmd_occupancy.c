/* PLACEHOLDER until the owning work lands in this session. */
#include <stdio.h>
#include "commands.h"
int cli_occupancy(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpsim: error: 'occupancy' is not built yet\n");
    return 2;
}
