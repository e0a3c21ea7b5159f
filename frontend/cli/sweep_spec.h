/* A sweep description: GPU configs × jobs × values of variables, expanded
 * into independent warpsim runs (docs/SWEEP.md).
 *
 *   # comment
 *   gpu = a100 h200                       configs: names or paths (required)
 *   n   = 256 512 1024                    a variable and its values
 *   job = exec -- ./matmul {n} {n} {n}    a warpsim run or exec command
 *   workdir = labs                        where the jobs run (default: the
 *                                         spec's folder)
 *
 * A job is expanded for every GPU and every combination of the variables it
 * names; variables a job does not name do not multiply it. */
#ifndef WARPSIM_SWEEP_SPEC_H
#define WARPSIM_SWEEP_SPEC_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sweep_var {
    char *name;
    char **values;
    int nvalues;
} sweep_var;

typedef struct sweep_job {
    char *text;     /* as written, with {name} placeholders */
    int line, col;  /* where the text starts in the spec */
} sweep_job;

typedef struct sweep_spec {
    char *workdir;  /* absolute */
    sweep_var gpu;
    sweep_var *vars;
    int nvars;
    sweep_job *jobs;
    int njobs;
} sweep_spec;

/* One expanded run: job `job` on GPU value `gpu`, with value_of[v] the index
 * of variable v's value, or -1 when the job does not name v. */
typedef struct sweep_run {
    int job, gpu;
    int *value_of;
    char *command;  /* the job with its placeholders replaced */
} sweep_run;

/* Parses the file at path; on failure writes "path:line:col: error: ..." to
 * err and returns false. */
bool sweep_spec_load(const char *path, sweep_spec *spec, char *err, size_t errsize);
void sweep_spec_free(sweep_spec *spec);

/* Every run of the spec, in job, GPU, then variable order. */
bool sweep_expand(const sweep_spec *spec, sweep_run **runs, int *nruns, char *err, size_t errsize);
void sweep_runs_free(sweep_run *runs, int nruns);

#endif
