/* Per-source-line counters: the kernels' per-pc counters, summed per line. */
#include "lines.h"
#include "json_out.h"
#include "../base/stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Where one pc came from, copied out of the program. */
typedef struct pc_line {
    int32_t line;           /* the .cu line, else the PTX line; 0 = none */
    int32_t file;           /* index into the kernel's files; -1 = none */
} pc_line;

typedef struct kernel_pcs {
    const ws_program *p;    /* a key only: never followed after ws_lines_counters */
    char *kernel;
    uint32_t ncode;
    ws_pc_counts *pcs;
    pc_line *src;
    char **files; int32_t nfiles;
    bool cu;                /* the PTX has .loc line info: lines are .cu lines */
} kernel_pcs;

struct ws_lines {
    kernel_pcs *k; size_t nk, cap;
};

/* One source line's counters. */
typedef struct line_row {
    int32_t file, line;
    ws_pc_counts c;
    uint64_t stride_weight;     /* global sectors of the pc whose stride c holds */
    double cost;
} line_row;

static const char *const op_name[3] = {"ld", "st", "atom"};

ws_lines *ws_lines_create(void)
{
    return calloc(1, sizeof(ws_lines));
}

static void kernel_free(kernel_pcs *k)
{
    free(k->kernel);
    free(k->pcs);
    free(k->src);
    for (int32_t i = 0; i < k->nfiles; i++) free(k->files[i]);
    free(k->files);
}

void ws_lines_free(ws_lines *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->nk; i++) kernel_free(&l->k[i]);
    free(l->k);
    free(l);
}

/* The index of path in k's files, added if new; -1 when out of memory. */
static int32_t file_index(kernel_pcs *k, const char *path)
{
    for (int32_t i = 0; i < k->nfiles; i++)
        if (!strcmp(k->files[i], path)) return i;
    char **f = realloc(k->files, sizeof *f * (size_t)(k->nfiles + 1));
    if (!f) return -1;
    k->files = f;
    if (!(f[k->nfiles] = strdup(path))) return -1;
    return k->nfiles++;
}

/* Copies where each pc of p came from: .cu lines when any pc has one. */
static bool copy_sources(kernel_pcs *k, const ws_program *p)
{
    ws_pc_source s;
    for (uint32_t pc = 0; pc < k->ncode && !k->cu; pc++) {
        ws_program_pc_source(p, pc, &s);
        k->cu = s.cu_line > 0;
    }
    const char *ptx = ws_program_path(p);
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        ws_program_pc_source(p, pc, &s);
        k->src[pc].file = -1;
        k->src[pc].line = 0;
        if (k->cu && s.cu_line > 0) {
            k->src[pc].file = file_index(k, s.cu_file);
            k->src[pc].line = s.cu_line;
        } else if (!k->cu && s.ptx_line > 0) {
            k->src[pc].file = file_index(k, ptx ? ptx : "<ptx>");
            k->src[pc].line = s.ptx_line;
        }
        if (k->src[pc].line && k->src[pc].file < 0) return false;
    }
    return true;
}

ws_pc_counts *ws_lines_counters(ws_lines *l, const ws_program *p, const char *kernel)
{
    uint32_t n = ws_program_code_size(p);
    for (size_t i = 0; i < l->nk; i++)
        if (l->k[i].p == p && l->k[i].ncode == n && !strcmp(l->k[i].kernel, kernel)) return l->k[i].pcs;
    if (l->nk == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        kernel_pcs *k = realloc(l->k, sizeof *k * cap);
        if (!k) return NULL;
        l->k = k;
        l->cap = cap;
    }
    kernel_pcs *k = &l->k[l->nk];
    memset(k, 0, sizeof *k);
    k->p = p;
    k->ncode = n;
    k->kernel = strdup(kernel);
    k->pcs = calloc(n ? n : 1, sizeof *k->pcs);
    k->src = calloc(n ? n : 1, sizeof *k->src);
    if (!k->kernel || !k->pcs || !k->src || !copy_sources(k, p)) {
        kernel_free(k);
        return NULL;
    }
    l->nk++;
    return k->pcs;
}

/* ---- summing per line --------------------------------------------------- */

static uint64_t stall_total(const ws_pc_counts *c)
{
    uint64_t t = 0;
    for (int i = 0; i < WS_PC_STALL_KINDS; i++) t += c->stall[i];
    return t;
}

static void add_counts(line_row *r, const ws_pc_counts *c)
{
    ws_pc_counts *a = &r->c;
    uint64_t sectors = c->global_sectors[0] + c->global_sectors[1] + c->global_sectors[2];
    ws_pc_counts_add(a, c, 1, false);
    /* the stride that explains the line: that of its busiest global access */
    if (c->stride_known && sectors > r->stride_weight) {
        r->stride_weight = sectors;
        a->stride_known = 1;
        a->lane_stride = c->lane_stride;
        a->access_size = c->access_size;
    }
}

static int by_cost(const void *a, const void *b)
{
    const line_row *x = a, *y = b;
    if (x->cost != y->cost) return x->cost < y->cost ? 1 : -1;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static bool has_work(const ws_pc_counts *c)
{
    return c->warp_insts || stall_total(c);
}

/* The rows of k, one per source line with work, most costly first; NULL
 * (and *n 0) when there are none or memory ran out. */
static line_row *sum_lines(const kernel_pcs *k, bool timed, size_t *n)
{
    line_row *rows = NULL;
    size_t nrows = 0, cap = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        if (!has_work(&k->pcs[pc])) continue;
        const pc_line *s = &k->src[pc];
        size_t i = 0;
        while (i < nrows && (rows[i].file != s->file || rows[i].line != s->line)) i++;
        if (i == nrows) {
            if (nrows == cap) {
                cap = cap ? 2 * cap : 16;
                line_row *r = realloc(rows, sizeof *r * cap);
                if (!r) { free(rows); *n = 0; return NULL; }
                rows = r;
            }
            memset(&rows[nrows], 0, sizeof rows[nrows]);
            rows[nrows].file = s->file;
            rows[nrows].line = s->line;
            nrows++;
        }
        add_counts(&rows[i], &k->pcs[pc]);
    }
    for (size_t i = 0; i < nrows; i++)
        rows[i].cost = timed ? (double)stall_total(&rows[i].c) : (double)rows[i].c.warp_insts;
    if (nrows) qsort(rows, nrows, sizeof *rows, by_cost);
    *n = nrows;
    return rows;
}

/* ---- source text -------------------------------------------------------- */

/* Line `line` of the file at path into buf, leading blanks dropped; ""
 * when the file or the line is not there. */
static void source_text(const char *path, int32_t line, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = path && line > 0 ? fopen(path, "r") : NULL;
    if (!f) return;
    char text[1024];
    for (int32_t i = 1; fgets(text, sizeof text, f); ) {
        size_t len = strlen(text);
        bool whole = len && text[len - 1] == '\n';
        if (i == line) {
            while (len && (text[len - 1] == '\n' || text[len - 1] == '\r')) text[--len] = '\0';
            size_t skip = strspn(text, " \t");
            snprintf(buf, size, "%s", text + skip);
            break;
        }
        if (whole) i++;
    }
    fclose(f);
}

/* ---- what a line's numbers mean ---------------------------------------- */

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* "n-way": wavefronts per wavefront needed. */
static double conflict_ways(const ws_pc_counts *c, int o)
{
    return ratio(c->shared_wavefronts[o], c->shared_wavefronts[o] - c->shared_bank_conflicts[o]);
}

static bool far_from_ideal_sectors(const ws_pc_counts *c, int o)
{
    double have = ratio(c->global_sectors[o], c->global_requests[o]);
    double ideal = ratio(c->global_ideal_sectors[o], c->global_requests[o]);
    return c->global_requests[o] && have >= ideal * 1.25 && have - ideal >= 1.0;
}

static void advise_shared(FILE *out, const ws_pc_counts *c, int o)
{
    if (!c->shared_requests[o] || conflict_ways(c, o) < 1.5) return;
    const char *verb = o == 0 ? "read" : o == 1 ? "write" : "update";
    fprintf(out, "      => %.1f-way bank conflict on shared %s: lanes of a warp reach different addresses in "
            "the same bank (as when they %s a column of a 32x32 float tile, tile[threadIdx.x][k]); "
            "pad each row by one element (tile[32][33]) or let consecutive threads %s consecutive "
            "words\n", conflict_ways(c, o), o == 0 ? "loads" : o == 1 ? "stores" : "atomics", verb, verb);
}

static void advise_global(FILE *out, const ws_pc_counts *c, int o)
{
    if (!far_from_ideal_sectors(c, o)) return;
    double have = ratio(c->global_sectors[o], c->global_requests[o]);
    double ideal = ratio(c->global_ideal_sectors[o], c->global_requests[o]);
    const char *verb = o == 0 ? "read" : o == 1 ? "write" : "update";
    fprintf(out, "      => %.1f sectors per request where %.1f would do: ", have, ideal);
    int64_t stride = c->lane_stride < 0 ? -c->lane_stride : c->lane_stride;
    if (c->stride_known && stride > (int64_t)c->access_size)
        fprintf(out, "neighbouring threads %s addresses %" PRId64 " B apart (strided access); let "
                "consecutive threads %s consecutive words\n", verb, stride, verb);
    else if (c->stride_known && stride == (int64_t)c->access_size)
        fprintf(out, "the warp's addresses are consecutive but do not start on a 32 B sector; align "
                "each warp's first address (e.g. pad rows to a multiple of 32 B)\n");
    else
        fprintf(out, "the lanes %s scattered addresses (a gather); arrange the data so that "
                "neighbouring threads %s neighbouring elements\n", verb, verb);
}

static bool lanes_poor(const ws_pc_counts *c);

static void advise_lanes(FILE *out, const ws_pc_counts *c)
{
    if (c->branches && c->divergent_branches * 10 >= c->branches)
        fprintf(out, "      => %.0f%% of the branches here diverge: lanes of a warp take different paths; a "
                "condition that is the same for the 32 lanes of a warp (e.g. on threadIdx.x / 32) "
                "does not split it\n", ratio(c->divergent_branches, c->branches) * 100.0);
    else if (c->warp_insts && ratio(c->thread_insts, c->warp_insts) < 24.0)
        fprintf(out, "      => only %.1f of 32 lanes active on average: the line runs under a divergent "
                "condition, or in partial warps (a block size that is not a multiple of 32)\n",
                ratio(c->thread_insts, c->warp_insts));
}

/* A sentence for the stall that dominates a costly line. */
static void advise_stall(FILE *out, const ws_pc_counts *c, uint64_t kernel_total)
{
    uint64_t total = stall_total(c);
    int top = -1;
    for (int i = WS_STALL_NOT_SELECTED; i < WS_PC_STALL_KINDS; i++)
        if (top < 0 || c->stall[i] > c->stall[top]) top = i;
    if (top < 0 || total * 10 < kernel_total || c->stall[top] * 2 < total) return;
    const char *why = NULL;
    switch (top) {
    case WS_STALL_LONG_SCOREBOARD:
        why = "warps mostly wait here for global memory; more warps in flight (occupancy) or more "
              "independent loads per thread hide the latency, fewer sectors per request shorten it";
        break;
    case WS_STALL_BARRIER:
        why = "warps mostly wait at the barrier: the block's warps reach it at different times (uneven "
              "work before __syncthreads)";
        break;
    case WS_STALL_MIO_THROTTLE:
    case WS_STALL_SHORT_SCOREBOARD:
        why = c->shared_bank_conflicts[0] + c->shared_bank_conflicts[1] + c->shared_bank_conflicts[2]
                  ? "warps mostly wait for shared memory, whose pipe the bank conflicts above keep busy"
                  : "warps mostly wait for shared memory: many shared accesses per result keep its pipe "
                    "busy (keep values a thread reuses in registers)";
        break;
    case WS_STALL_LG_THROTTLE:
        why = "the load/store unit is full of global accesses; wider (vector) accesses issue fewer";
        break;
    default: return;
    }
    fprintf(out, "      => %s\n", why);
}

/* ---- text ---------------------------------------------------------------- */

static void stall_text(FILE *out, const ws_pc_counts *c)
{
    uint64_t total = stall_total(c);
    fprintf(out, ", %" PRIu64 " warp-cycles", total);
    bool used[WS_PC_STALL_KINDS] = {false};
    for (int shown = 0; shown < 3; shown++) {
        int top = -1;
        for (int i = 0; i < WS_PC_STALL_KINDS; i++)
            if (!used[i] && c->stall[i] && (top < 0 || c->stall[i] > c->stall[top])) top = i;
        if (top < 0) break;
        used[top] = true;
        fprintf(out, "%s%s %.0f%%", shown ? ", " : " (", ws_stall_name((ws_stall)top),
                ratio(c->stall[top], total) * 100.0);
    }
    if (total) fputc(')', out);
}

static void memory_text(FILE *out, const ws_pc_counts *c)
{
    for (int o = 0; o < 3; o++) {
        if (!c->shared_requests[o]) continue;
        fprintf(out, "      shared %-4s %8" PRIu64 " requests, %" PRIu64 " wavefronts, %" PRIu64
                " bank conflicts", op_name[o], c->shared_requests[o], c->shared_wavefronts[o],
                c->shared_bank_conflicts[o]);
        if (c->shared_bank_conflicts[o]) fprintf(out, " (%.1f-way)", conflict_ways(c, o));
        fputc('\n', out);
    }
    for (int o = 0; o < 3; o++) {
        if (!c->global_requests[o]) continue;
        fprintf(out, "      global %-4s %8" PRIu64 " requests, %" PRIu64 " sectors: %.1f per request "
                "(ideal %.1f)\n", op_name[o], c->global_requests[o], c->global_sectors[o],
                ratio(c->global_sectors[o], c->global_requests[o]),
                ratio(c->global_ideal_sectors[o], c->global_requests[o]));
    }
    if (c->l1_sectors || c->l2_sectors)
        fprintf(out, "      L1 hit rate %.1f%% of %" PRIu64 " sectors, L2 hit rate %.1f%% of %" PRIu64
                " sectors\n", ratio(c->l1_hit_sectors, c->l1_sectors) * 100.0, c->l1_sectors,
                ratio(c->l2_hit_sectors, c->l2_sectors) * 100.0, c->l2_sectors);
}

/* The line and its source text. */
static void row_head(FILE *out, const kernel_pcs *k, const line_row *r)
{
    const char *path = r->file >= 0 ? k->files[r->file] : NULL;
    const char *base = path && strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char text[512];
    source_text(path, r->line, text, sizeof text);
    if (r->line) fprintf(out, "  %s:%d  %s\n", base, r->line, text);
    else fprintf(out, "  (no source line)\n");
}

static void row_numbers(FILE *out, const line_row *r, bool timed)
{
    const ws_pc_counts *c = &r->c;
    fprintf(out, "      %" PRIu64 " warp instructions, SIMD efficiency %.1f%%", c->warp_insts,
            ratio(c->thread_insts, 32 * c->warp_insts) * 100.0);
    if (c->branches)
        fprintf(out, ", %" PRIu64 " branches (%" PRIu64 " divergent)", c->branches, c->divergent_branches);
    if (timed) stall_text(out, c);
    fputc('\n', out);
    memory_text(out, c);
}

static bool lanes_poor(const ws_pc_counts *c)
{
    return (c->branches && c->divergent_branches * 10 >= c->branches) ||
           (c->warp_insts && ratio(c->thread_insts, c->warp_insts) < 24.0);
}

/* How far a line is from ideal, in extra passes: bank conflicts, sectors
 * beyond the ideal, warp instructions' worth of idle lanes; 0 when the
 * line is close enough to ideal that no sentence explains it. */
static double problem_weight(const ws_pc_counts *c)
{
    double w = 0;
    for (int o = 0; o < 3; o++) {
        if (c->shared_requests[o] && conflict_ways(c, o) >= 1.5) w += (double)c->shared_bank_conflicts[o];
        if (far_from_ideal_sectors(c, o))
            w += (double)(c->global_sectors[o] - c->global_ideal_sectors[o]);
    }
    if (lanes_poor(c)) w += (double)(32 * c->warp_insts - c->thread_insts) / 32.0;
    return w;
}

static void row_advice(FILE *out, const ws_pc_counts *c)
{
    for (int o = 0; o < 3; o++) advise_shared(out, c, o);
    for (int o = 0; o < 3; o++) advise_global(out, c, o);
    advise_lanes(out, c);
}

static int by_problem(const void *a, const void *b)
{
    double x = problem_weight(&((const line_row *)a)->c), y = problem_weight(&((const line_row *)b)->c);
    return x < y ? 1 : x > y ? -1 : by_cost(a, b);
}

/* The lines far from ideal, worst first, each with why and what fixes it. */
static void problems_text(FILE *out, const kernel_pcs *k, const line_row *rows, size_t n)
{
    line_row *worst = malloc(sizeof *worst * (n ? n : 1));
    size_t nw = 0;
    for (size_t j = 0; worst && j < n; j++)
        if (problem_weight(&rows[j].c) > 0) worst[nw++] = rows[j];
    if (nw) {
        qsort(worst, nw, sizeof *worst, by_problem);
        fprintf(out, " far from ideal, worst first:\n");
    }
    for (size_t j = 0; j < nw; j++) {
        row_head(out, k, &worst[j]);
        memory_text(out, &worst[j].c);
        row_advice(out, &worst[j].c);
    }
    free(worst);
}

/* The file of the costliest line, for the header. */
static const char *main_file(const kernel_pcs *k, const line_row *rows, size_t n)
{
    return n && rows[0].file >= 0 ? k->files[rows[0].file] : "?";
}

void ws_lines_text(FILE *out, const ws_lines *l, bool timed)
{
    for (size_t i = 0; i < l->nk; i++) {
        const kernel_pcs *k = &l->k[i];
        size_t n;
        line_row *rows = sum_lines(k, timed, &n);
        uint64_t total = 0;
        for (size_t j = 0; j < n; j++) total += timed ? stall_total(&rows[j].c) : rows[j].c.warp_insts;
        fprintf(out, "source lines of kernel %s (%s)\n", k->kernel,
                k->cu ? main_file(k, rows, n)
                      : "PTX lines: the PTX has no .loc line info; compile with -lineinfo for .cu lines");
        problems_text(out, k, rows, n);
        fprintf(out, " every line with work, most costly first (%s):\n",
                timed ? "warp-cycles spent at the line" : "warp instructions");
        for (size_t j = 0; j < n; j++) {
            row_head(out, k, &rows[j]);
            row_numbers(out, &rows[j], timed);
            if (timed) advise_stall(out, &rows[j].c, total);
        }
        free(rows);
    }
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_u64(FILE *out, const char *key, uint64_t v)
{
    fprintf(out, ",\"%s\":%" PRIu64, key, v);
}

static void row_json(FILE *out, const kernel_pcs *k, const line_row *r, bool timed)
{
    const ws_pc_counts *c = &r->c;
    char key[64], text[512];
    const char *path = r->file >= 0 ? k->files[r->file] : NULL;
    source_text(path, r->line, text, sizeof text);
    fprintf(out, "{\"kernel\":");
    ws_json_string(out, k->kernel);
    fprintf(out, ",\"file\":");
    ws_json_string(out, path);
    fprintf(out, ",\"line\":%d,\"line_info\":\"%s\",\"source\":", r->line, k->cu ? "cu" : "ptx");
    ws_json_string(out, text);
    json_u64(out, "warp_instructions", c->warp_insts);
    json_u64(out, "thread_instructions", c->thread_insts);
    fprintf(out, ",\"simd_efficiency\":%.6g", ratio(c->thread_insts, 32 * c->warp_insts));
    json_u64(out, "branches", c->branches);
    json_u64(out, "divergent_branches", c->divergent_branches);
    for (int o = 0; o < 3; o++) {
        snprintf(key, sizeof key, "shared_requests_%s", op_name[o]);
        json_u64(out, key, c->shared_requests[o]);
        snprintf(key, sizeof key, "shared_wavefronts_%s", op_name[o]);
        json_u64(out, key, c->shared_wavefronts[o]);
        snprintf(key, sizeof key, "shared_bank_conflicts_%s", op_name[o]);
        json_u64(out, key, c->shared_bank_conflicts[o]);
    }
    for (int o = 0; o < 3; o++) {
        snprintf(key, sizeof key, "global_%s_requests", op_name[o]);
        json_u64(out, key, c->global_requests[o]);
        snprintf(key, sizeof key, "global_%s_sectors", op_name[o]);
        json_u64(out, key, c->global_sectors[o]);
        snprintf(key, sizeof key, "global_%s_ideal_sectors", op_name[o]);
        json_u64(out, key, c->global_ideal_sectors[o]);
    }
    if (timed) {
        json_u64(out, "l1_sectors", c->l1_sectors);
        json_u64(out, "l1_hit_sectors", c->l1_hit_sectors);
        json_u64(out, "l2_sectors", c->l2_sectors);
        json_u64(out, "l2_hit_sectors", c->l2_hit_sectors);
        fprintf(out, ",\"l1_hit_rate\":%.6g,\"l2_hit_rate\":%.6g", ratio(c->l1_hit_sectors, c->l1_sectors),
                ratio(c->l2_hit_sectors, c->l2_sectors));
        json_u64(out, "stall_cycles", stall_total(c));
        for (int i = 0; i < WS_PC_STALL_KINDS; i++) {
            snprintf(key, sizeof key, "stall_%s", ws_stall_name((ws_stall)i));
            json_u64(out, key, c->stall[i]);
        }
    }
    fputs("}\n", out);
}

void ws_lines_json(FILE *out, const ws_lines *l, bool timed)
{
    for (size_t i = 0; i < l->nk; i++) {
        size_t n;
        line_row *rows = sum_lines(&l->k[i], timed, &n);
        for (size_t j = 0; j < n; j++) row_json(out, &l->k[i], &rows[j], timed);
        free(rows);
    }
}

/* ---- for other reports --------------------------------------------------- */

size_t ws_lines_kernel_count(const ws_lines *l) { return l->nk; }
const char *ws_lines_kernel_name(const ws_lines *l, size_t i) { return l->k[i].kernel; }
bool ws_lines_kernel_cu(const ws_lines *l, size_t i) { return l->k[i].cu; }

ws_line_sum *ws_lines_sums(const ws_lines *l, size_t i, bool timed, size_t *n)
{
    const kernel_pcs *k = &l->k[i];
    line_row *rows = sum_lines(k, timed, n);
    ws_line_sum *out = *n ? malloc(sizeof *out * *n) : NULL;
    for (size_t j = 0; out && j < *n; j++)
        out[j] = (ws_line_sum){.file = rows[j].file >= 0 ? k->files[rows[j].file] : NULL,
                               .line = rows[j].line, .c = rows[j].c};
    if (!out) *n = 0;
    free(rows);
    return out;
}

void ws_lines_advice(FILE *out, const ws_pc_counts *c, uint64_t kernel_total, bool timed)
{
    row_advice(out, c);
    if (timed) advise_stall(out, c, kernel_total);
}
