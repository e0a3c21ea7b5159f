/* Reading a GPU description from an INI file (libinih does the syntax;
 * this file knows the keys, their types and ranges, and what must agree). */
#include "gpu_config.h"

#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WARPSIM_CONFIG_DIR
#define WARPSIM_CONFIG_DIR "configs"
#endif

typedef enum field_kind { F_STR, F_I32, F_U64, F_STEPS_KB, F_SCHED } field_kind;

typedef struct field {
    const char *key;
    field_kind kind;
    size_t offset;
    bool required;
    uint64_t min, max;      /* for numbers */
} field;

#define OFF(m) offsetof(ws_gpu_config, m)
#define GiB (UINT64_C(1) << 30)

static const field fields[] = {
    {"name", F_STR, OFF(name), true, 0, 0},
    {"major", F_I32, OFF(major), true, 1, 99},
    {"minor", F_I32, OFF(minor), true, 0, 9},
    {"multiProcessorCount", F_I32, OFF(multiProcessorCount), true, 1, 4096},
    {"maxThreadsPerMultiProcessor", F_I32, OFF(maxThreadsPerMultiProcessor), true, 1, 65536},
    {"maxThreadsPerBlock", F_I32, OFF(maxThreadsPerBlock), true, 1, 65536},
    {"maxBlocksPerMultiProcessor", F_I32, OFF(maxBlocksPerMultiProcessor), true, 1, 1024},
    /* the executor's warps are 32 lanes (WS_WARP_SIZE); another size would
     * make the occupancy and timing figures describe a different machine */
    {"warpSize", F_I32, OFF(warpSize), true, 32, 32},
    {"regsPerMultiprocessor", F_I32, OFF(regsPerMultiprocessor), true, 1, 1 << 24},
    {"regsPerBlock", F_I32, OFF(regsPerBlock), true, 1, 1 << 24},
    {"sharedMemPerMultiprocessor", F_U64, OFF(sharedMemPerMultiprocessor), true, 1, GiB},
    {"sharedMemPerBlock", F_U64, OFF(sharedMemPerBlock), true, 1, GiB},
    {"sharedMemPerBlockOptin", F_U64, OFF(sharedMemPerBlockOptin), true, 1, GiB},
    {"reservedSharedMemPerBlock", F_U64, OFF(reservedSharedMemPerBlock), true, 0, GiB},
    {"clockRate", F_I32, OFF(clockRate), true, 1, 100000000},
    {"memoryClockRate", F_I32, OFF(memoryClockRate), true, 1, 100000000},
    {"memoryBusWidth", F_I32, OFF(memoryBusWidth), true, 1, 1 << 20},
    {"l2CacheSize", F_U64, OFF(l2CacheSize), true, 0, 1024 * GiB},
    {"totalGlobalMem", F_U64, OFF(totalGlobalMem), true, 1, 1024 * 1024 * GiB},
    {"totalConstMem", F_U64, OFF(totalConstMem), true, 0, GiB},

    {"regAllocUnitSize", F_I32, OFF(regAllocUnitSize), true, 1, 1 << 16},
    {"maxRegsPerThread", F_I32, OFF(maxRegsPerThread), true, 1, 1024},
    {"subPartitionsPerMultiprocessor", F_I32, OFF(subPartitionsPerMultiprocessor), true, 1, 64},
    {"sharedMemAllocUnitSize", F_I32, OFF(sharedMemAllocUnitSize), true, 1, 1 << 20},
    {"carveoutStepsKB", F_STEPS_KB, OFF(carveoutSteps), true, 0, 1 << 20},

    {"fp32LanesPerMultiprocessor", F_I32, OFF(fp32LanesPerMultiprocessor), false, 1, 4096},
    {"latencyFp32", F_I32, OFF(latencyFp32), false, 1, 1000000},
    {"latencySfu", F_I32, OFF(latencySfu), false, 1, 1000000},
    {"latencyFp64", F_I32, OFF(latencyFp64), false, 1, 1000000},
    {"latencySharedLoad", F_I32, OFF(latencySharedLoad), false, 1, 1000000},
    {"latencyL1Hit", F_I32, OFF(latencyL1Hit), false, 1, 1000000},
    {"latencyL2Hit", F_I32, OFF(latencyL2Hit), false, 1, 1000000},
    {"latencyDram", F_I32, OFF(latencyDram), false, 1, 1000000},
    {"intLanesPerMultiprocessor", F_I32, OFF(intLanesPerMultiprocessor), false, 1, 4096},
    {"fp64LanesPerMultiprocessor", F_I32, OFF(fp64LanesPerMultiprocessor), false, 1, 4096},
    {"sfuLanesPerMultiprocessor", F_I32, OFF(sfuLanesPerMultiprocessor), false, 1, 4096},
    {"lsuLanesPerMultiprocessor", F_I32, OFF(lsuLanesPerMultiprocessor), false, 1, 4096},
    {"latencyInt", F_I32, OFF(latencyInt), false, 1, 1000000},
    {"latencyBranch", F_I32, OFF(latencyBranch), false, 1, 1000000},
    {"latencyTensor", F_I32, OFF(latencyTensor), false, 1, 1000000},
    {"tensorIssueInterval", F_I32, OFF(tensorIssueInterval), false, 1, 1000000},
    {"latencyConstant", F_I32, OFF(latencyConstant), false, 1, 1000000},
    {"lsuQueueCycles", F_I32, OFF(lsuQueueCycles), false, 1, 1000000},
    {"launchOverheadCycles", F_I32, OFF(launchOverheadCycles), false, 0, 1000000000},
    {"l1CacheSize", F_U64, OFF(l1CacheSize), false, 128, GiB},
    {"l1Associativity", F_I32, OFF(l1Associativity), false, 1, 1024},
    {"l2Slices", F_I32, OFF(l2Slices), false, 1, 4096},
    {"l2Associativity", F_I32, OFF(l2Associativity), false, 1, 1024},
    {"l2BytesPerCyclePerSlice", F_I32, OFF(l2BytesPerCyclePerSlice), false, 1, 1 << 20},
    {"dramChannels", F_I32, OFF(dramChannels), false, 1, 4096},
    {"dramAccessBytes", F_I32, OFF(dramAccessBytes), false, 32, 128},
    {"dramBytesPerCycle", F_I32, OFF(dramBytesPerCycle), false, 1, 1 << 24},
    {"l2AtomicCyclesPerOp", F_I32, OFF(l2AtomicCyclesPerOp), false, 1, 1 << 16},
    {"l2WriteRequestsPerCycle", F_I32, OFF(l2WriteRequestsPerCycle), false, 1, 1 << 16},
    {"warpScheduler", F_SCHED, OFF(warpScheduler), false, 0, 0},
    {"twoLevelActiveWarps", F_I32, OFF(twoLevelActiveWarps), false, 1, 1024},
};

static const char *const sched_names[] = {"lrr", "gto", "two_level"};

#define NFIELDS (sizeof fields / sizeof fields[0])

typedef struct parse_ctx {
    ws_gpu_config *cfg;
    bool seen[NFIELDS];
    bool failed;
    char msg[384];
} parse_ctx;

static bool fail(parse_ctx *c, const char *fmt, ...)
{
    if (!c->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->msg, sizeof c->msg, fmt, ap);
        va_end(ap);
        c->failed = true;
    }
    return false;
}

/* A plain decimal number with no sign and nothing after it. */
static bool parse_u64(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static bool set_steps(parse_ctx *c, const field *f, const char *value)
{
    ws_gpu_config *cfg = c->cfg;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", value);
    int32_t n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ' || *tok == '\t')
            tok++;
        size_t len = strlen(tok);
        while (len && (tok[len - 1] == ' ' || tok[len - 1] == '\t'))
            tok[--len] = '\0';
        uint64_t kb;
        if (!parse_u64(tok, &kb) || kb > f->max)
            return fail(c, "'%s' is not a list of sizes in KB (\"0, 8, 16\"): '%s'", f->key, tok);
        if (n == WS_GPU_MAX_CARVEOUTS)
            return fail(c, "'%s' has more than %d steps", f->key, WS_GPU_MAX_CARVEOUTS);
        if (n > 0 && kb * 1024 <= cfg->carveoutSteps[n - 1])
            return fail(c, "'%s' must be in ascending order", f->key);
        cfg->carveoutSteps[n++] = kb * 1024;
    }
    if (n == 0)
        return fail(c, "'%s' is empty", f->key);
    cfg->numCarveoutSteps = n;
    return true;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    parse_ctx *c = user;
    if (c->failed)
        return 1;   /* the first error is the one reported */
    if (*section && strcmp(section, "device") && strcmp(section, "occupancy") &&
        strcmp(section, "timing"))
        return fail(c, "unknown section [%s] (expected [device], [occupancy] or [timing])", section);
    size_t i = 0;
    while (i < NFIELDS && strcmp(fields[i].key, key))
        i++;
    if (i == NFIELDS)
        return fail(c, "unknown key '%s'", key);
    const field *f = &fields[i];
    if (c->seen[i])
        return fail(c, "key '%s' given twice", key);
    c->seen[i] = true;
    char *dst = (char *)c->cfg + f->offset;
    if (f->kind == F_STR) {
        if (!*value || strlen(value) >= WS_GPU_NAME_MAX)
            return fail(c, "'%s' must be 1 to %d characters", key, WS_GPU_NAME_MAX - 1);
        memcpy(dst, value, strlen(value) + 1);
        return 1;
    }
    if (f->kind == F_STEPS_KB)
        return set_steps(c, f, value);
    if (f->kind == F_SCHED) {
        for (int32_t s = 0; s < (int32_t)(sizeof sched_names / sizeof sched_names[0]); s++)
            if (!strcmp(value, sched_names[s])) {
                memcpy(dst, &s, sizeof s);
                return 1;
            }
        return fail(c, "'%s' must be lrr, gto or two_level, not '%s'", key, value);
    }
    uint64_t v;
    if (!parse_u64(value, &v))
        return fail(c, "'%s' must be a non-negative whole number, not '%s'", key, value);
    if (v < f->min || v > f->max)
        return fail(c, "'%s' = %llu is out of range [%llu, %llu]", key,
                    (unsigned long long)v, (unsigned long long)f->min,
                    (unsigned long long)f->max);
    if (f->kind == F_I32) {
        int32_t x = (int32_t)v;
        memcpy(dst, &x, sizeof x);
    } else {
        memcpy(dst, &v, sizeof v);
    }
    return 1;
}

/* Relations between keys that the occupancy rule relies on. */
static bool check_consistency(parse_ctx *c)
{
    const ws_gpu_config *g = c->cfg;
    if (g->maxThreadsPerMultiProcessor % g->warpSize)
        return fail(c, "maxThreadsPerMultiProcessor must be a multiple of warpSize");
    if (g->maxThreadsPerBlock > g->maxThreadsPerMultiProcessor)
        return fail(c, "maxThreadsPerBlock exceeds maxThreadsPerMultiProcessor");
    if (g->regsPerBlock > g->regsPerMultiprocessor)
        return fail(c, "regsPerBlock exceeds regsPerMultiprocessor");
    /* the timing model keeps each sub-partition's warps in 64-bit sets */
    int32_t warps = g->maxThreadsPerMultiProcessor / g->warpSize, nsp = g->subPartitionsPerMultiprocessor;
    if ((warps + nsp - 1) / nsp > 64)
        return fail(c, "at most 64 warps a sub-partition: maxThreadsPerMultiProcessor / warpSize (%d warps) "
                       "needs subPartitionsPerMultiprocessor >= %d", warps, (warps + 63) / 64);
    if (g->regsPerMultiprocessor % g->subPartitionsPerMultiprocessor)
        return fail(c, "regsPerMultiprocessor must divide evenly among subPartitionsPerMultiprocessor");
    if (g->sharedMemPerBlock > g->sharedMemPerBlockOptin)
        return fail(c, "sharedMemPerBlock exceeds sharedMemPerBlockOptin");
    if (g->sharedMemPerBlockOptin + g->reservedSharedMemPerBlock > g->sharedMemPerMultiprocessor)
        return fail(c, "sharedMemPerBlockOptin + reservedSharedMemPerBlock exceeds sharedMemPerMultiprocessor");
    if (g->carveoutSteps[g->numCarveoutSteps - 1] != g->sharedMemPerMultiprocessor)
        return fail(c, "the last of carveoutStepsKB must equal sharedMemPerMultiprocessor (%llu bytes)",
                    (unsigned long long)g->sharedMemPerMultiprocessor);
    return true;
}

int ws_gpu_config_load_string(const char *text, const char *origin,
                              ws_gpu_config *cfg, char *err, size_t errsize)
{
    parse_ctx c;
    memset(&c, 0, sizeof c);
    memset(cfg, 0, sizeof *cfg);
    c.cfg = cfg;
    int line = ini_parse_string(text, on_key, &c);
    if (line > 0) {
        /* inih reports the first bad line but keeps going; re-reading just
         * the lines up to it tells a key error there from a syntax error. */
        char *prefix = strdup(text);
        if (!prefix) {
            snprintf(err, errsize, "%s: out of memory", origin);
            return -1;
        }
        char *p = prefix;
        for (int n = 0; n < line && p; n++) {
            p = strchr(p, '\n');
            if (p)
                p++;
        }
        if (p)
            *p = '\0';
        parse_ctx c2;
        memset(&c2, 0, sizeof c2);
        c2.cfg = cfg;
        ini_parse_string(prefix, on_key, &c2);
        free(prefix);
        snprintf(err, errsize, "%s:%d: error: %s", origin, line,
                 c2.failed ? c2.msg : "expected 'key = value', '[section]' or a ';' comment");
        return -1;
    }
    if (line < 0) {
        snprintf(err, errsize, "%s: error: cannot read it", origin);
        return -1;
    }
    for (size_t i = 0; i < NFIELDS; i++)
        if (fields[i].required && !c.seen[i]) {
            snprintf(err, errsize, "%s: error: missing key '%s'", origin, fields[i].key);
            return -1;
        }
    if (!check_consistency(&c)) {
        snprintf(err, errsize, "%s: error: %s", origin, c.msg);
        return -1;
    }
    return 0;
}

int ws_gpu_config_load_file(const char *path, ws_gpu_config *cfg, char *err, size_t errsize)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsize, "%s: error: cannot open GPU config: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *t = realloc(text, cap);
            if (!t) {
                free(text);
                fclose(f);
                snprintf(err, errsize, "%s: error: out of memory", path);
                return -1;
            }
            text = t;
        }
        size_t n = fread(text + len, 1, 4096, f);
        len += n;
        if (n < 4096)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        snprintf(err, errsize, "%s: error: cannot read GPU config", path);
        return -1;
    }
    text[len] = '\0';
    int rc = ws_gpu_config_load_string(text, path, cfg, err, errsize);
    free(text);
    return rc;
}

const char *ws_gpu_config_dir(void)
{
    return WARPSIM_CONFIG_DIR;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void ws_gpu_config_list(const char *dir, char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    DIR *d = opendir(dir);
    if (!d)
        return;
    char names[64][64];
    const char *sorted[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        size_t len = strlen(e->d_name);
        if (len > 4 && len < 64 && !strcmp(e->d_name + len - 4, ".ini")) {
            memcpy(names[n], e->d_name, len - 4);
            names[n][len - 4] = '\0';
            sorted[n] = names[n];
            n++;
        }
    }
    closedir(d);
    qsort(sorted, (size_t)n, sizeof sorted[0], cmp_str);
    size_t used = 0;
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", sorted[i]);
}

static bool is_path(const char *s)
{
    size_t len = strlen(s);
    return strchr(s, '/') || (len > 4 && !strcmp(s + len - 4, ".ini"));
}

int ws_gpu_config_load_in(const char *dir, const char *name_or_path,
                          ws_gpu_config *cfg, char *err, size_t errsize)
{
    if (is_path(name_or_path))
        return ws_gpu_config_load_file(name_or_path, cfg, err, errsize);
    bool plain = *name_or_path != '\0';
    for (const char *p = name_or_path; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            plain = false;
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s.ini", dir, name_or_path);
    FILE *probe = plain && n > 0 && (size_t)n < sizeof path ? fopen(path, "rb") : NULL;
    if (!probe) {
        char known[1024];
        ws_gpu_config_list(dir, known, sizeof known);
        snprintf(err, errsize, "error: unknown GPU '%s' (known: %s; or give the path of a .ini file)",
                 name_or_path, *known ? known : "none found");
        return -1;
    }
    fclose(probe);
    return ws_gpu_config_load_file(path, cfg, err, errsize);
}

int ws_gpu_config_load(const char *name_or_path, ws_gpu_config *cfg, char *err, size_t errsize)
{
    return ws_gpu_config_load_in(ws_gpu_config_dir(), name_or_path, cfg, err, errsize);
}
