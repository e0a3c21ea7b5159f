/* Per-kernel totals over the launches of a program. */
#include "kernel_totals.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

typedef struct kernel_total {
    char *name;
    bool timed;
    uint64_t launches;
    uint64_t reused;        /* of them: timing reused from an earlier launch (docs/REUSE.md) */
    uint64_t reused_other;  /* of those: an earlier launch that read other values */
    uint64_t reused_warp_insts;     /* those launches' warp instructions, not simulated again */
    uint64_t *own;          /* per launch: the kernel's own cycles (timed) or warp instructions */
    uint64_t cap;
    uint64_t cycles, launch_cycles, warp_insts, thread_insts;
    double time_ns;
} kernel_total;

struct ws_kernel_totals {
    kernel_total *k; size_t n, cap;
};

ws_kernel_totals *ws_kernel_totals_create(void)
{
    return calloc(1, sizeof(ws_kernel_totals));
}

void ws_kernel_totals_free(ws_kernel_totals *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->k[i].name);
        free(t->k[i].own);
    }
    free(t->k);
    free(t);
}

static kernel_total *find_or_add(ws_kernel_totals *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->k[i].name, name)) return &t->k[i];
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 8;
        kernel_total *k = realloc(t->k, sizeof *k * cap);
        if (!k) return NULL;
        t->k = k;
        t->cap = cap;
    }
    kernel_total *k = &t->k[t->n];
    memset(k, 0, sizeof *k);
    if (!(k->name = strdup(name))) return NULL;
    t->n++;
    return k;
}

bool ws_kernel_totals_add(ws_kernel_totals *t, const char *kernel, const ws_launch_stats *s,
                          const ws_timing_stats *ts)
{
    kernel_total *k = find_or_add(t, kernel);
    if (!k) return false;
    if (k->launches == k->cap) {
        uint64_t cap = k->cap ? 2 * k->cap : 16;
        uint64_t *own = realloc(k->own, sizeof *own * cap);
        if (!own) return false;
        k->own = own;
        k->cap = cap;
    }
    k->timed = ts != NULL;
    uint64_t own = s->warp_insts;
    if (ts) {
        own = ts->cycles > ts->launch_cycles ? ts->cycles - ts->launch_cycles : 0;
        k->cycles += ts->cycles;
        k->launch_cycles += ts->launch_cycles;
        k->time_ns += ts->time_ns;
    }
    k->own[k->launches++] = own;
    k->warp_insts += s->warp_insts;
    k->thread_insts += s->thread_insts;
    return true;
}

void ws_kernel_totals_mark_reused(ws_kernel_totals *t, const char *kernel, const ws_launch_stats *s,
                                  bool other_inputs)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->k[i].name, kernel)) {
            t->k[i].reused++;
            t->k[i].reused_other += other_inputs;
            t->k[i].reused_warp_insts += s->warp_insts;
        }
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The median of the n values at v (sorted in place): the lower middle one
 * for an even n, so that it is a value some launch had. */
static uint64_t median(uint64_t *v, uint64_t n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[(n - 1) / 2];
}

void ws_kernel_totals_reused_text(FILE *out, uint64_t reused, uint64_t other)
{
    if (reused && !other)
        fprintf(out, " (%" PRIu64 " of them with the timing of an identical earlier launch, not simulated again)",
                reused);
    else if (reused)
        fprintf(out, " (%" PRIu64 " of them with the timing of an earlier launch, not simulated again: %" PRIu64
                " identical, %" PRIu64 " reading other values, run functionally)", reused, reused - other, other);
}

void ws_kernel_totals_text(FILE *out, const ws_kernel_totals *t)
{
    if (!t || !t->n) return;
    fprintf(out, "kernels over the whole program:\n");
    for (size_t i = 0; i < t->n; i++) {
        kernel_total *k = &t->k[i];
        uint64_t med = median(k->own, k->launches);
        fprintf(out, "  %s: %" PRIu64 " launch%s", k->name, k->launches, k->launches == 1 ? "" : "es");
        ws_kernel_totals_reused_text(out, k->reused, k->reused_other);
        fprintf(out, "; %s per launch min %" PRIu64 " / median %" PRIu64 " / max %" PRIu64 "; total ",
                k->timed ? "the kernel's own cycles" : "warp instructions", k->own[0], med,
                k->own[k->launches - 1]);
        if (k->timed)
            fprintf(out, "%" PRIu64 " cycles (%" PRIu64 " of them launch overhead), %.3f us, ", k->cycles,
                    k->launch_cycles, k->time_ns / 1000.0);
        fprintf(out, "%" PRIu64 " warp instructions", k->warp_insts);
        if (k->reused) fprintf(out, " (%" PRIu64 " of them simulated)", k->warp_insts - k->reused_warp_insts);
        fprintf(out, ", SIMD efficiency %.1f%%\n",
                k->warp_insts ? (double)k->thread_insts / (32.0 * (double)k->warp_insts) * 100.0 : 0.0);
    }
    if (t->n < 2) return;
    uint64_t launches = 0, reused = 0, insts = 0, reused_insts = 0;
    for (size_t i = 0; i < t->n; i++) {
        launches += t->k[i].launches;
        reused += t->k[i].reused;
        insts += t->k[i].warp_insts;
        reused_insts += t->k[i].reused_warp_insts;
    }
    fprintf(out, "  all %zu kernels: %" PRIu64 " launches", t->n, launches);
    if (reused) fprintf(out, " (%" PRIu64 " of them not simulated again)", reused);
    fprintf(out, ", %" PRIu64 " warp instructions", insts);
    if (reused) fprintf(out, " (%" PRIu64 " of them simulated)", insts - reused_insts);
    fputc('\n', out);
}

void ws_kernel_totals_json(FILE *out, const ws_kernel_totals *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        kernel_total *k = &t->k[i];
        uint64_t med = median(k->own, k->launches);
        const char *own = k->timed ? "kernel_cycles" : "warp_instructions";
        fputs("{\"totals\":", out);
        ws_json_string(out, k->name);
        fprintf(out, ",\"launches\":%" PRIu64 ",\"%s_min\":%" PRIu64 ",\"%s_median\":%" PRIu64
                ",\"%s_max\":%" PRIu64, k->launches, own, k->own[0], own, med, own, k->own[k->launches - 1]);
        if (k->timed)
            fprintf(out, ",\"cycles\":%" PRIu64 ",\"launch_cycles\":%" PRIu64 ",\"time_ns\":%.6g"
                    ",\"launches_reused\":%" PRIu64 ",\"launches_reused_other_inputs\":%" PRIu64
                    ",\"warp_instructions_simulated\":%" PRIu64, k->cycles,
                    k->launch_cycles, k->time_ns, k->reused, k->reused_other, k->warp_insts - k->reused_warp_insts);
        fprintf(out, ",\"warp_instructions\":%" PRIu64 ",\"thread_instructions\":%" PRIu64 "}\n",
                k->warp_insts, k->thread_insts);
    }
}
