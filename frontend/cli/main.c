/* warpsim: the command line.  Dispatches to one subcommand. */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "sim/base/host_malloc.h"

typedef struct subcommand {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} subcommand;

static const subcommand subcommands[] = {
    {"run", cli_run, "run one kernel of a PTX file and show what it computed"},
    {"check", cli_check, "parse and validate a PTX file; list its kernels"},
    {"exec", cli_exec, "run a CUDA program with every kernel simulated"},
    {"nvcc", cli_nvcc, "run nvcc with the flags warpsim exec needs (-cudart shared)"},
    {"occupancy", cli_occupancy, "blocks per SM, occupancy and the limiting resource"},
    {"sweep", cli_sweep, "expand configs x programs x arguments into runs for GNU parallel or Slurm"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: warpsim COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(out, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\n'warpsim COMMAND --help' describes one command.\n");
}

int main(int argc, char **argv)
{
    ws_host_malloc_tune();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (!strcmp(argv[1], subcommands[i].name))
            return subcommands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "warpsim: error: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
