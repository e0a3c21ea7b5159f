/* The occupancy report in words, in JSON, and as sweeps. */
#include "occupancy_report.h"

#include <stdarg.h>
#include <string.h>

typedef struct sbuf {
    char *p;
    size_t size, len;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
{
    if (b->len >= b->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->size - b->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n < b->size - b->len ? (size_t)n : b->size - b->len - 1;
}

static const char *plural(int32_t n) { return n == 1 ? "" : "s"; }

static unsigned long long ull(uint64_t v) { return (unsigned long long)v; }

/* "9216 B (9 KB)" or "1000 B". */
static const char *bytes(char *buf, size_t size, uint64_t v)
{
    if (v >= 1024 && v % 1024 == 0)
        snprintf(buf, size, "%llu B (%llu KB)", ull(v), ull(v / 1024));
    else
        snprintf(buf, size, "%llu B", ull(v));
    return buf;
}

static void limit_str(char *buf, size_t size, int32_t v)
{
    if (v == WS_OCC_UNLIMITED)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%d", v);
}

/* Why the carve-out is what it is. */
static const char *carveout_why(const ws_gpu_config *g, const ws_occ_input *in,
                                const ws_occ_result *hw, char *buf, size_t size)
{
    uint64_t preferred = ws_occ_carveout_capacity(g, in->carveout);
    if (preferred < hw->smem_per_block)
        snprintf(buf, size, "the %llu KB carve-out step one block needs (the %d %% preference gives only %llu KB)",
                 ull(hw->smem_per_sm / 1024), in->carveout, ull(preferred / 1024));
    else if (in->carveout == WS_OCC_CARVEOUT_DEFAULT)
        snprintf(buf, size, "the %llu KB carve-out (no preference: the largest)", ull(hw->smem_per_sm / 1024));
    else
        snprintf(buf, size, "the %llu KB carve-out step that holds %d %% of %llu KB",
                 ull(hw->smem_per_sm / 1024), in->carveout, ull(g->sharedMemPerMultiprocessor / 1024));
    return buf;
}

static const char *carveout_short(const ws_gpu_config *g, const ws_occ_input *in,
                                  const ws_occ_result *hw)
{
    if (ws_occ_carveout_capacity(g, in->carveout) < hw->smem_per_block)
        return "the carve-out step one block needs";
    return in->carveout == WS_OCC_CARVEOUT_DEFAULT ? "the largest carve-out"
                                                   : "the carve-out step the preference selects";
}

static void resource_detail(sbuf *b, const ws_gpu_config *g, const ws_occ_input *in,
                            const ws_occ_result *r, ws_occ_resource res)
{
    char x[64], y[64];
    switch (res) {
    case WS_OCC_WARPS:
        put(b, "%d warp slots / %d warps per block", r->max_warps, r->warps_per_block);
        if (in->threads % g->warpSize)
            put(b, " (%d threads: the last warp is partial but takes a whole slot)", in->threads);
        break;
    case WS_OCC_REGISTERS:
        if (in->regs == 0)
            put(b, "uses no registers");
        else if (r->rule == WS_OCC_HARDWARE)
            put(b, "%d x %d = %d -> %d regs/warp (unit %d); %d warps/sub-partition x %d = %d warps / %d per block",
                in->regs, g->warpSize, in->regs * g->warpSize, r->regs_per_warp,
                g->regAllocUnitSize, r->warps_per_subpartition, g->subPartitionsPerMultiprocessor,
                r->warps_per_subpartition * g->subPartitionsPerMultiprocessor, r->warps_per_block);
        else
            put(b, "%d regs / (%d x %d threads = %d per block)",
                g->regsPerMultiprocessor, in->regs, in->threads, r->regs_per_block);
        break;
    case WS_OCC_SHARED_MEMORY:
        if (r->smem_per_block == 0)
            put(b, "uses none");
        else if (r->rule == WS_OCC_HARDWARE)
            put(b, "%llu static + %llu dynamic + %llu reserved -> %llu B/block (unit %d B) in %llu KB: %s",
                ull(in->static_smem), ull(in->dynamic_smem), ull(g->reservedSharedMemPerBlock),
                ull(r->smem_per_block), g->sharedMemAllocUnitSize, ull(r->smem_per_sm / 1024),
                carveout_short(g, in, r));
        else
            put(b, "%s / %s per block", bytes(x, sizeof x, r->smem_per_sm),
                bytes(y, sizeof y, r->smem_per_block));
        break;
    default:
        put(b, "block slots per SM (compute capability %d.%d)", g->major, g->minor);
        break;
    }
}

size_t ws_occ_explain_difference(const ws_gpu_config *g, const ws_occ_input *in,
                                 const ws_occ_result *hw, const ws_occ_result *tb,
                                 char *buf, size_t size)
{
    sbuf b = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    if (hw->error != WS_OCC_OK)
        return 0;
    /* A difference matters where it sets the answer of either rule. */
    bool regs = hw->limits[WS_OCC_REGISTERS] != tb->limits[WS_OCC_REGISTERS] &&
                (((hw->limiting | tb->limiting) >> WS_OCC_REGISTERS) & 1);
    bool smem = hw->limits[WS_OCC_SHARED_MEMORY] != tb->limits[WS_OCC_SHARED_MEMORY] &&
                (((hw->limiting | tb->limiting) >> WS_OCC_SHARED_MEMORY) & 1);
    if (!regs && !smem)
        return 0;
    if (hw->blocks_per_sm != tb->blocks_per_sm)
        put(&b, "The rules differ: hardware %d block%s (%.1f %%), textbook %d block%s (%.1f %%).\n",
            hw->blocks_per_sm, plural(hw->blocks_per_sm), 100.0 * hw->occupancy,
            tb->blocks_per_sm, plural(tb->blocks_per_sm), 100.0 * tb->occupancy);
    else
        put(&b, "Both rules give %d blocks, for different reasons.\n", hw->blocks_per_sm);
    char l1[32], l2[32], x[64], y[64], z[160];
    if (regs) {
        limit_str(l1, sizeof l1, hw->limits[WS_OCC_REGISTERS]);
        limit_str(l2, sizeof l2, tb->limits[WS_OCC_REGISTERS]);
        put(&b, "  registers: the hardware allocates registers per warp in units of %d (%d x %d = %d -> %d)"
                " and fits whole warps in each of %d sub-partitions (%d warps each), so %s block%s;"
                " the textbook divides %d by %d x %d = %d registers, so %s block%s.\n",
            g->regAllocUnitSize, in->regs, g->warpSize, in->regs * g->warpSize, hw->regs_per_warp,
            g->subPartitionsPerMultiprocessor, hw->warps_per_subpartition, l1,
            plural(hw->limits[WS_OCC_REGISTERS]), g->regsPerMultiprocessor, in->regs, in->threads,
            tb->regs_per_block, l2, plural(tb->limits[WS_OCC_REGISTERS]));
    }
    if (smem) {
        limit_str(l1, sizeof l1, hw->limits[WS_OCC_SHARED_MEMORY]);
        limit_str(l2, sizeof l2, tb->limits[WS_OCC_SHARED_MEMORY]);
        put(&b, "  shared memory: the hardware counts %s per block (", bytes(x, sizeof x, hw->smem_per_block));
        if (g->reservedSharedMemPerBlock)
            put(&b, "with the %llu B the driver reserves per block, ", ull(g->reservedSharedMemPerBlock));
        put(&b, "rounded up to %d B) in %s, so %s block%s; the textbook divides %s by %s, so %s block%s.\n",
            g->sharedMemAllocUnitSize, carveout_why(g, in, hw, z, sizeof z), l1,
            plural(hw->limits[WS_OCC_SHARED_MEMORY]), bytes(y, sizeof y, tb->smem_per_sm),
            bytes(x, sizeof x, tb->smem_per_block), l2, plural(tb->limits[WS_OCC_SHARED_MEMORY]));
    }
    return b.len;
}

void ws_occ_format_error(const ws_gpu_config *g, const ws_occ_input *in,
                         const ws_occ_result *r, char *buf, size_t size)
{
    sbuf b = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    put(&b, "%s (%s): ", ws_occ_error_cuda_name(r->error), ws_occ_error_cuda_string(r->error));
    switch (r->error) {
    case WS_OCC_OK:
        put(&b, "the block fits");
        break;
    case WS_OCC_ERR_THREADS:
        put(&b, "a block of %d threads; maxThreadsPerBlock is %d", in->threads, g->maxThreadsPerBlock);
        break;
    case WS_OCC_ERR_REGISTERS:
        if (in->regs > g->maxRegsPerThread)
            put(&b, "%d registers per thread; a thread can have at most %d", in->regs, g->maxRegsPerThread);
        else
            put(&b, "%d threads x %d registers take %d registers per warp x %d warps (counted as a multiple of %d sub-partitions); regsPerBlock is %d",
                in->threads, in->regs, r->regs_per_warp, r->warps_per_block,
                g->subPartitionsPerMultiprocessor, g->regsPerBlock);
        break;
    case WS_OCC_ERR_STATIC_SMEM:
        put(&b, "%llu bytes of static shared memory; a kernel can declare at most %llu (use dynamic shared memory with the opt-in for more)",
            ull(in->static_smem), ull(g->sharedMemPerBlock));
        break;
    case WS_OCC_ERR_SHARED_MEMORY:
        put(&b, "%llu static + %llu dynamic bytes of shared memory; the per-block limit is %llu",
            ull(in->static_smem), ull(in->dynamic_smem), ull(r->smem_limit_per_block));
        if (!in->optin)
            put(&b, " without opt-in (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, ...) raises it to %llu: --optin)",
                ull(g->sharedMemPerBlockOptin));
        else
            put(&b, " with opt-in (sharedMemPerBlockOptin)");
        break;
    }
}

void ws_occ_print_report(FILE *out, const ws_gpu_config *g, const char *gpu_label,
                         const ws_occ_input *in, ws_occ_rule shown,
                         const ws_occ_result *hw, const ws_occ_result *tb)
{
    const ws_occ_result *r = shown == WS_OCC_TEXTBOOK ? tb : hw;
    const ws_occ_result *other = shown == WS_OCC_TEXTBOOK ? hw : tb;
    char x[64], y[64];
    /* From the block size, so a block that cannot launch still shows it. */
    int warps = (in->threads + g->warpSize - 1) / g->warpSize;
    fprintf(out, "GPU        %s (%s, sm_%d%d)\n", g->name, gpu_label, g->major, g->minor);
    fprintf(out, "kernel     %d threads/block (%d warp%s), %d registers/thread, %s static + %s dynamic shared memory%s\n",
            in->threads, warps, warps == 1 ? "" : "s", in->regs,
            bytes(x, sizeof x, in->static_smem), bytes(y, sizeof y, in->dynamic_smem),
            in->optin ? " (opt-in)" : "");
    fprintf(out, "rule       %s%s\n\n", ws_occ_rule_name(shown),
            shown == WS_OCC_HARDWARE ? " (as cudaOccupancyMaxActiveBlocksPerMultiprocessor)"
                                     : " (course notes: no allocation units, nothing reserved)");
    if (r->error != WS_OCC_OK) {
        char msg[768];
        ws_occ_format_error(g, in, r, msg, sizeof msg);
        fprintf(out, "cannot launch: %s\n", msg);
        return;
    }
    fprintf(out, "blocks per SM   %d\n", r->blocks_per_sm);
    fprintf(out, "active warps    %d / %d\n", r->active_warps, r->max_warps);
    fprintf(out, "occupancy       %.1f %%\n\n", 100.0 * r->occupancy);
    fprintf(out, "limit from each resource (blocks per SM):\n");
    for (int i = 0; i < WS_OCC_NRESOURCES; i++) {
        char lim[32], detail[512];
        sbuf b = {detail, sizeof detail, 0};
        limit_str(lim, sizeof lim, r->limits[i]);
        resource_detail(&b, g, in, r, (ws_occ_resource)i);
        fprintf(out, "  %-14s %4s   %s%s\n", ws_occ_resource_name((ws_occ_resource)i), lim, detail,
                i == (int)r->limiter ? "   <- limiter"
                : (r->limiting >> i) & 1 ? "   <- also limits" : "");
    }
    fprintf(out, "\n%s rule: %d blocks, %d / %d warps, %.1f %% (limiter: %s)\n",
            shown == WS_OCC_HARDWARE ? "textbook" : "hardware", other->blocks_per_sm,
            other->active_warps, other->max_warps, 100.0 * other->occupancy,
            ws_occ_resource_name(other->limiter));
    char why[2048];
    if (ws_occ_explain_difference(g, in, hw, tb, why, sizeof why))
        fprintf(out, "%s", why);
    else
        fprintf(out, "The two rules give the same answer here.\n");
}

static void json_limit(FILE *out, const char *key, int32_t v, const char *sep)
{
    if (v == WS_OCC_UNLIMITED)
        fprintf(out, "\"%s\": null%s", key, sep);
    else
        fprintf(out, "\"%s\": %d%s", key, v, sep);
}

void ws_occ_print_json(FILE *out, const ws_occ_result *r)
{
    fprintf(out, "{\"blocks_per_sm\": %d, \"active_warps\": %d, \"max_warps\": %d, "
                 "\"occupancy\": %.6g, \"limiter\": \"%s\", \"limits\": {",
            r->blocks_per_sm, r->active_warps, r->max_warps, r->occupancy,
            ws_occ_resource_name(r->limiter));
    for (int i = 0; i < WS_OCC_NRESOURCES; i++)
        json_limit(out, ws_occ_resource_name((ws_occ_resource)i), r->limits[i],
                   i + 1 < WS_OCC_NRESOURCES ? ", " : "");
    fprintf(out, "}, \"rule\": \"%s\"", ws_occ_rule_name(r->rule));
    if (r->regs_estimated)
        fprintf(out, ", \"regs_estimated\": true");
    if (r->error != WS_OCC_OK)
        fprintf(out, ", \"error\": \"%s\", \"message\": \"%s\"",
                ws_occ_error_cuda_name(r->error), ws_occ_error_cuda_string(r->error));
    fprintf(out, "}");
}

const char *ws_occ_sweep_var_name(ws_occ_sweep_var v)
{
    return v == WS_SWEEP_REGS ? "regs" : v == WS_SWEEP_SMEM ? "smem" : "threads";
}

size_t ws_occ_sweep(const ws_gpu_config *g, const ws_occ_input *in, ws_occ_sweep_var var,
                    ws_occ_sweep_point *pts, size_t max)
{
    int64_t lo = 1, hi = g->maxThreadsPerBlock, step = 1;
    if (var == WS_SWEEP_REGS) {
        lo = 0;
        hi = g->maxRegsPerThread;
    } else if (var == WS_SWEEP_SMEM) {
        uint64_t limit = in->optin ? g->sharedMemPerBlockOptin : g->sharedMemPerBlock;
        lo = 0;
        hi = limit > in->static_smem ? (int64_t)(limit - in->static_smem) : 0;
        step = g->sharedMemAllocUnitSize;
    }
    size_t n = 0;
    for (int64_t x = lo; x <= hi; x += step, n++) {
        if (n >= max)
            continue;
        ws_occ_input v = *in;
        if (var == WS_SWEEP_THREADS)
            v.threads = (int32_t)x;
        else if (var == WS_SWEEP_REGS)
            v.regs = (int32_t)x;
        else
            v.dynamic_smem = (uint64_t)x;
        pts[n].x = x;
        ws_occupancy(g, &v, WS_OCC_HARDWARE, &pts[n].hw);
        ws_occupancy(g, &v, WS_OCC_TEXTBOOK, &pts[n].tb);
    }
    return n;
}

static bool same_row(const ws_occ_sweep_point *a, const ws_occ_sweep_point *b)
{
    return a->hw.error == b->hw.error && a->hw.blocks_per_sm == b->hw.blocks_per_sm &&
           a->hw.active_warps == b->hw.active_warps && a->hw.limiter == b->hw.limiter &&
           a->tb.blocks_per_sm == b->tb.blocks_per_sm && a->tb.active_warps == b->tb.active_warps &&
           a->tb.limiter == b->tb.limiter;
}

static void print_cols(FILE *out, const ws_occ_result *r, bool last)
{
    if (r->error != WS_OCC_OK)
        fprintf(out, last ? "  %s" : "  %-38s", ws_occ_error_cuda_name(r->error));
    else
        fprintf(out, last ? "  %6d %5d/%-3d %6.1f%% %s" : "  %6d %5d/%-3d %6.1f%% %-13s",
                r->blocks_per_sm, r->active_warps, r->max_warps, 100.0 * r->occupancy,
                ws_occ_resource_name(r->limiter));
}

void ws_occ_print_sweep(FILE *out, ws_occ_sweep_var var, ws_occ_rule shown,
                        const ws_occ_sweep_point *pts, size_t n)
{
    const char *unit = var == WS_SWEEP_SMEM ? "dynamic smem B" : var == WS_SWEEP_REGS ? "regs/thread" : "threads/block";
    const char *first = ws_occ_rule_name(shown);
    const char *second = ws_occ_rule_name(shown == WS_OCC_HARDWARE ? WS_OCC_TEXTBOOK : WS_OCC_HARDWARE);
    fprintf(out, "%-15s  %-38s  %s\n", "", first, second);
    fprintf(out, "%-15s  %6s %8s  %7s %-13s  %6s %8s  %7s %s\n", unit, "blocks", "warps",
            "occ", "limiter", "blocks", "warps", "occ", "limiter");
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && same_row(&pts[i], &pts[j + 1]))
            j++;
        char range[40];
        if (i == j)
            snprintf(range, sizeof range, "%lld", (long long)pts[i].x);
        else
            snprintf(range, sizeof range, "%lld-%lld", (long long)pts[i].x, (long long)pts[j].x);
        fprintf(out, "%-15s", range);
        const ws_occ_result *a = shown == WS_OCC_HARDWARE ? &pts[i].hw : &pts[i].tb;
        const ws_occ_result *b = shown == WS_OCC_HARDWARE ? &pts[i].tb : &pts[i].hw;
        print_cols(out, a, false);
        print_cols(out, b, true);
        fprintf(out, "\n");
        i = j + 1;
    }
}
