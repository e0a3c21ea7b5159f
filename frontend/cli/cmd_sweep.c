/* warpsim sweep: expands a sweep description (configs × programs ×
 * arguments) into independent runs for an existing engine — a job list for
 * GNU parallel on one host, a Slurm job-array script across hosts — and
 * gathers their JSON summaries into one CSV (`--merge`).  warpsim does not
 * schedule the runs itself.  docs/SWEEP.md describes the format. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "sweep_merge.h"
#include "sweep_spec.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: warpsim sweep SPEC [--out DIR]\n"
            "       warpsim sweep --merge DIR [--csv FILE]\n"
            "\n"
            "Expands SPEC (GPU configs x jobs x variable values, docs/SWEEP.md) into one\n"
            "warpsim command per run, for an engine you already have:\n"
            "  DIR/jobs.txt      one shell command per line:  parallel < DIR/jobs.txt\n"
            "  DIR/slurm.sh      a Slurm job array, one task per line:  sbatch DIR/slurm.sh\n"
            "  DIR/manifest.tsv  the GPU and variable values of each run\n"
            "Each run writes its JSON summary to DIR/run-N.json, its output to\n"
            "DIR/run-N.out and .err, and its exit status to DIR/run-N.status.\n"
            "Each run simulates on one thread (the runs go side by side, one a core)\n"
            "unless its job gives --threads.\n"
            "\n"
            "  --out DIR     where the sweep goes (default: sweep-out); must not hold\n"
            "                an earlier sweep\n"
            "  --merge DIR   gather the runs of DIR into one CSV: a row per kernel launch\n"
            "                (a row with its status for a run without launches)\n"
            "  --csv FILE    write the CSV to FILE instead of stdout\n"
            "\n"
            "Exit status: 0 success; 1 --merge found runs that failed or never ran\n"
            "(listed on stderr, the CSV still written); 2 bad usage or spec.\n");
}

/* s in single quotes for sh. */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

/* The threads a run's own options ask for, from its words before exec's
 * "--" (the program's own arguments follow that): the N of "--threads N"
 * or "--threads=N", 1 for --functional (which runs on one thread and
 * takes no --threads), 0 when it says neither. */
static int run_threads(const char *command)
{
    for (const char *p = command;;) {
        p += strspn(p, " \t");
        size_t len = strcspn(p, " \t");
        if (!len || (len == 2 && !strncmp(p, "--", 2))) return 0;
        if (len == 12 && !strncmp(p, "--functional", 12)) return 1;
        if (len >= 9 && !strncmp(p, "--threads", 9) && (len == 9 || p[9] == '=')) {
            const char *v = len == 9 ? p + len + strspn(p + len, " \t") : p + 10;
            long n = strtol(v, NULL, 10);
            return n < 1 ? 1 : n > 64 ? 64 : (int)n;
        }
        p += len;
    }
}

/* The job with the GPU, the summary's destination and, unless it gives its
 * own, one thread put after its subcommand word: run writes its JSON
 * summary to stderr, exec to --summary-out.  One thread, because the runs
 * of a sweep go side by side, one a core (GNU parallel's default, Slurm's
 * one CPU a task); each run taking every core as well would put many
 * threads on each core for no gain (docs/SWEEP.md, "Threads"). */
static void put_job(FILE *f, const char *exe, const char *dir, const sweep_spec *spec, const sweep_run *run, int id)
{
    char base[PATH_MAX + 32];
    snprintf(base, sizeof base, "%s/run-%d", dir, id);
    bool is_exec = !strncmp(run->command, "exec", 4);
    const char *rest = run->command + (is_exec ? 4 : 3);
    fputs("cd ", f);
    put_quoted(f, spec->workdir);
    fputs(" && ", f);
    put_quoted(f, exe);
    fprintf(f, " %s --gpu %s --json", is_exec ? "exec" : "run", spec->gpu.values[run->gpu]);
    if (!run_threads(run->command)) fputs(" --threads 1", f);
    if (is_exec) {
        fprintf(f, " --summary-out ");
        put_quoted(f, base);
        fputs(".json", f);
    }
    fprintf(f, "%s > ", rest);
    put_quoted(f, base);
    fputs(".out 2> ", f);
    put_quoted(f, base);
    fputs(is_exec ? ".err" : ".json", f);
    fputs("; echo $? > ", f);
    put_quoted(f, base);
    fputs(".status\n", f);
}

static void put_manifest(FILE *f, const sweep_spec *spec, const sweep_run *runs, int nruns)
{
    fputs("run\tjob\tgpu", f);
    for (int v = 0; v < spec->nvars; v++) fprintf(f, "\t%s", spec->vars[v].name);
    fputs("\n", f);
    for (int i = 0; i < nruns; i++) {
        fprintf(f, "%d\t%d\t%s", i, runs[i].job + 1, spec->gpu.values[runs[i].gpu]);
        for (int v = 0; v < spec->nvars; v++)
            fprintf(f, "\t%s", runs[i].value_of[v] < 0 ? "" : spec->vars[v].values[runs[i].value_of[v]]);
        fputs("\n", f);
    }
}

/* A Slurm job array: task k runs line k+1 of jobs.txt, on as many CPUs as
 * the runs' most threads.  The folders must be on a file system all nodes
 * share. */
static void put_slurm(FILE *f, const char *dir, const sweep_run *runs, int nruns)
{
    int cpus = 1;
    for (int i = 0; i < nruns; i++) {
        int n = run_threads(runs[i].command);
        if (n > cpus) cpus = n;
    }
    fprintf(f, "#!/bin/bash\n"
               "# A Slurm job array written by 'warpsim sweep': task K runs line K+1 of\n"
               "# jobs.txt.  Submit with: sbatch slurm.sh\n"
               "#SBATCH --job-name=warpsim-sweep\n"
               "#SBATCH --array=0-%d\n"
               "#SBATCH --ntasks=1\n"
               "#SBATCH --cpus-per-task=%d\n",
            nruns - 1, cpus);
    fputs("#SBATCH --output=", f);
    fprintf(f, "%s/slurm-%%A_%%a.log\n", dir);
    fputs("set -eu\njobs=", f);
    char jobs[PATH_MAX + 16];
    snprintf(jobs, sizeof jobs, "%s/jobs.txt", dir);
    put_quoted(f, jobs);
    fputs("\ntask=${SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}\n"
          "line=$(sed -n \"$((task + 1))p\" \"$jobs\")\n"
          "if [ -z \"$line\" ]; then echo \"warpsim sweep: no job $task in $jobs\" >&2; exit 1; fi\n"
          "exec bash -c \"$line\"\n",
          f);
}

static bool write_file(const char *dir, const char *name, void (*put)(FILE *, const void *), const void *ctx)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "warpsim sweep: error: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    put(f, ctx);
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "warpsim sweep: error: cannot write '%s'\n", path);
    return ok;
}

typedef struct sweep_out {
    const char *exe, *dir;
    const sweep_spec *spec;
    const sweep_run *runs;
    int nruns;
} sweep_out;

static void put_jobs_file(FILE *f, const void *ctx)
{
    const sweep_out *o = ctx;
    for (int i = 0; i < o->nruns; i++) put_job(f, o->exe, o->dir, o->spec, &o->runs[i], i);
}
static void put_manifest_file(FILE *f, const void *ctx)
{
    const sweep_out *o = ctx;
    put_manifest(f, o->spec, o->runs, o->nruns);
}
static void put_slurm_file(FILE *f, const void *ctx)
{
    const sweep_out *o = ctx;
    put_slurm(f, o->dir, o->runs, o->nruns);
}

/* DIR made (or found empty of sweeps) and returned absolute. */
static char *prepare_dir(const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "warpsim sweep: error: cannot create '%s': %s\n", dir, strerror(errno));
        return NULL;
    }
    char *abs = realpath(dir, NULL);
    if (!abs) {
        fprintf(stderr, "warpsim sweep: error: cannot use '%s': %s\n", dir, strerror(errno));
        return NULL;
    }
    char manifest[PATH_MAX + 16];
    snprintf(manifest, sizeof manifest, "%s/manifest.tsv", abs);
    if (access(manifest, F_OK) == 0) {
        fprintf(stderr, "warpsim sweep: error: '%s' holds an earlier sweep; remove it or give another --out\n", dir);
        free(abs);
        return NULL;
    }
    return abs;
}

static int expand(const char *spec_path, const char *out_dir)
{
    char err[1024];
    sweep_spec spec;
    if (!sweep_spec_load(spec_path, &spec, err, sizeof err)) {
        fprintf(stderr, "warpsim sweep: error: %s\n", err);
        return 2;
    }
    sweep_run *runs = NULL;
    int nruns = 0;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *dir = NULL;
    int status = 2;
    if (n <= 0) fprintf(stderr, "warpsim sweep: error: cannot find the warpsim executable\n");
    else if (!sweep_expand(&spec, &runs, &nruns, err, sizeof err))
        fprintf(stderr, "warpsim sweep: error: %s: %s\n", spec_path, err);
    else if ((dir = prepare_dir(out_dir))) {
        exe[n] = '\0';
        sweep_out o = {.exe = exe, .dir = dir, .spec = &spec, .runs = runs, .nruns = nruns};
        if (write_file(dir, "jobs.txt", put_jobs_file, &o) && write_file(dir, "manifest.tsv", put_manifest_file, &o) &&
            write_file(dir, "slurm.sh", put_slurm_file, &o)) {
            printf("warpsim sweep: %d runs (%d jobs on %d GPU configs) in %s/\n"
                   "  on this host:  parallel --joblog %s/joblog < %s/jobs.txt\n"
                   "  with Slurm:    sbatch %s/slurm.sh\n"
                   "  then:          warpsim sweep --merge %s --csv results.csv\n",
                   nruns, spec.njobs, spec.gpu.nvalues, out_dir, out_dir, out_dir, out_dir, out_dir);
            status = 0;
        }
    }
    free(dir);
    sweep_runs_free(runs, nruns);
    sweep_spec_free(&spec);
    return status;
}

int cli_sweep(int argc, char **argv)
{
    const char *spec = NULL, *out = "sweep-out", *merge = NULL, *csv = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        const char **value = !strcmp(a, "--out") ? &out : !strcmp(a, "--merge") ? &merge : !strcmp(a, "--csv") ? &csv : NULL;
        if (value) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim sweep: error: %s needs a value\n", a);
                return 2;
            }
            *value = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsim sweep: error: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (spec) {
            fprintf(stderr, "warpsim sweep: error: one SPEC only ('%s' and '%s')\n", spec, a);
            return 2;
        } else {
            spec = a;
        }
    }
    if (merge) {
        if (spec) {
            fprintf(stderr, "warpsim sweep: error: --merge takes no SPEC\n");
            return 2;
        }
        return sweep_merge(merge, csv);
    }
    if (csv) {
        fprintf(stderr, "warpsim sweep: error: --csv goes with --merge\n");
        return 2;
    }
    if (!spec) {
        fprintf(stderr, "warpsim sweep: error: no SPEC file\n");
        usage(stderr);
        return 2;
    }
    return expand(spec, out);
}
