/* PLACEHOLDER until the owning work lands in this session. */
#include <stdio.h>
#include "commands.h"
int cli_run(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpsim: error: 'run' is not built yet\n");
    return 2;
}
