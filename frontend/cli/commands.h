/* The warpsim subcommands; each returns the process exit status.
 * argv[0] is the subcommand name. */
#ifndef WARPSIM_COMMANDS_H
#define WARPSIM_COMMANDS_H

int cli_run(int argc, char **argv);        /* cmd_run.c */
int cli_check(int argc, char **argv);      /* cmd_check.c */
int cli_occupancy(int argc, char **argv);  /* cmd_occupancy.c */
int cli_exec(int argc, char **argv);       /* cmd_exec.c */
int cli_nvcc(int argc, char **argv);       /* cmd_nvcc.c */
int cli_sweep(int argc, char **argv);      /* cmd_sweep.c */

#endif
