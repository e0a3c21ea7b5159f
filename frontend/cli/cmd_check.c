/* PLACEHOLDER until the owning work lands in this session. */
#include <stdio.h>
#include "commands.h"
int cli_check(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpsim: error: 'check' is not built yet\n");
    return 2;
}
