/* PLACEHOLDER until the runtime library work lands in this session. */
#include <stdio.h>
#include "commands.h"
int cli_exec(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpsim: error: 'exec' is not built yet\n");
    return 2;
}
