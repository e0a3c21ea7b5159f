/* Per-kernel summary writers. */
#include "summary.h"
#include "json_out.h"

#include <inttypes.h>
#include <string.h>

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* One metric: its name, its value, what it means. */
static void metric(FILE *out, const char *name, uint64_t v, const char *gloss)
{
    fprintf(out, "  %-58s %12" PRIu64 "%s%s\n", name, v, *gloss ? "  " : "", gloss);
}

/* "n-way": the wavefronts an access took per wavefront it needed. */
static double ways(const ws_shared_counts *c)
{
    return ratio(c->wavefronts, c->wavefronts - c->bank_conflicts);
}

static void shared_text(FILE *out, const ws_launch_stats *s)
{
    static const char *const op[] = {"ld", "st", "atom"};
    static const char *const what[] = {"loads", "stores", "atomics"};
    const ws_shared_counts *c[] = {&s->shared_ld, &s->shared_st, &s->shared_atom};
    ws_shared_counts all = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        all.requests += c[i]->requests;
        all.wavefronts += c[i]->wavefronts;
        all.bank_conflicts += c[i]->bank_conflicts;
    }
    fprintf(out, "  shared memory: %" PRIu64 " wavefronts (ld %" PRIu64 ", st %" PRIu64,
            all.wavefronts, s->shared_ld.wavefronts, s->shared_st.wavefronts);
    if (s->shared_atom.requests) fprintf(out, ", atom %" PRIu64, s->shared_atom.wavefronts);
    fprintf(out, "), bank conflicts %" PRIu64, all.bank_conflicts);
    if (all.wavefronts) fprintf(out, ": %.1f-way on average", ways(&all));
    fputc('\n', out);
    for (int i = 0; i < 3; i++) {
        if (i == 2 && !c[i]->requests) continue;
        char name[96], gloss[128];
        snprintf(name, sizeof name, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum", op[i]);
        snprintf(gloss, sizeof gloss, "passes through the 32 banks by %" PRIu64 " warp-level %s",
                 c[i]->requests, what[i]);
        metric(out, name, c[i]->wavefronts, gloss);
        snprintf(name, sizeof name, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum", op[i]);
        snprintf(gloss, sizeof gloss, "passes beyond the least needed: %.1f-way on average", ways(c[i]));
        metric(out, name, c[i]->bank_conflicts, c[i]->wavefronts ? gloss : "");
    }
}

static void global_text(FILE *out, const ws_launch_stats *s)
{
    static const char *const op[] = {"ld", "st", "atom"};
    static const char *const what[] = {"loads", "stores", "atomics"};
    const ws_global_counts *c[] = {&s->global_ld, &s->global_st, &s->global_atom};
    fprintf(out, "  global memory:");
    for (int i = 0; i < 3; i++) {
        if (i == 2 && !c[i]->requests) continue;
        fprintf(out, "%s %s %" PRIu64 " requests, %" PRIu64 " sectors, %" PRIu64 " lines",
                i ? ";" : "", what[i], c[i]->requests, c[i]->sectors, c[i]->lines);
    }
    fputc('\n', out);
    for (int i = 0; i < 3; i++) {
        if (i == 2 && !c[i]->requests) continue;
        char name[96], gloss[128];
        snprintf(name, sizeof name, "l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum", op[i]);
        snprintf(gloss, sizeof gloss, "warp-level %s", what[i]);
        metric(out, name, c[i]->requests, gloss);
        snprintf(name, sizeof name, "l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum", op[i]);
        snprintf(gloss, sizeof gloss, "32 B sectors, %.1f per request", ratio(c[i]->sectors, c[i]->requests));
        metric(out, name, c[i]->sectors, gloss);
        snprintf(name, sizeof name, "global %s: 128 B lines (transactions)", what[i]);
        snprintf(gloss, sizeof gloss, "%.1f per request", ratio(c[i]->lines, c[i]->requests));
        metric(out, name, c[i]->lines, gloss);
    }
}

static uint64_t kernel_cycles(const ws_timing_stats *t)
{
    return t->cycles > t->launch_cycles ? t->cycles - t->launch_cycles : 0;
}

bool ws_summary_parse_mode(const char *s, ws_summary_mode *mode)
{
    static const char *const names[] = {"full", "short", "none"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *mode = (ws_summary_mode)i;
            return true;
        }
    return false;
}

void ws_summary_short(FILE *out, const ws_summary_info *k, const ws_launch_stats *s)
{
    fprintf(out, "kernel %s  grid (%u,%u,%u)  block (%u,%u,%u):", k->kernel, k->grid.x, k->grid.y,
            k->grid.z, k->block.x, k->block.y, k->block.z);
    if (k->timing)
        fprintf(out, " %" PRIu64 " cycles (kernel %" PRIu64 " + launch %" PRIu64 "), %.3f us on %s,",
                k->timing->cycles, kernel_cycles(k->timing), k->timing->launch_cycles,
                k->timing->time_ns / 1000.0, k->gpu ? k->gpu : "?");
    if (k->timing && k->reused_from)
        fprintf(out, " timing reused from launch %" PRIu64 "%s,", k->reused_from,
                k->reused_other_inputs ? " (other inputs, run functionally)" : "");
    else if (k->timing && k->reuse_missed)
        fprintf(out, " not reused (launch %" PRIu64 " %s 0x%" PRIx64 "),", k->reuse_missed,
                k->reuse_missed_freed ? "wrote memory freed since, at" : "read another value at",
                k->reuse_missed_addr);
    uint64_t conflicts = s->shared_ld.bank_conflicts + s->shared_st.bank_conflicts + s->shared_atom.bank_conflicts;
    uint64_t req = s->global_ld.requests + s->global_st.requests + s->global_atom.requests;
    uint64_t sec = s->global_ld.sectors + s->global_st.sectors + s->global_atom.sectors;
    fprintf(out, " %" PRIu64 " warp instructions, SIMD %.1f%%, %" PRIu64 " bank conflicts, %.1f sectors per "
            "global request\n", s->warp_insts, ratio(s->thread_insts, 32 * s->warp_insts) * 100.0,
            conflicts, ratio(sec, req));
}

static void timing_text(FILE *out, const char *gpu, const ws_timing_stats *t)
{
    char gloss[160];
    snprintf(gloss, sizeof gloss, "cycles on %s: %.3f us at its clock, launch overhead included",
             gpu, t->time_ns / 1000.0);
    metric(out, "gpc__cycles_elapsed.max", t->cycles, gloss);
    metric(out, "  the kernel's own cycles", kernel_cycles(t), "first block's start to the last block's end");
    metric(out, "  launch overhead", t->launch_cycles, "the config's fixed cost of a launch");
    fprintf(out, "  %-58s %12.3f  warp instructions per cycle per active SM (%.2f for the GPU)\n",
            "sm__inst_executed.avg.per_cycle_active", t->ipc, t->ipc_total);
    fprintf(out, "  %-58s %11.1f%%  of max warps, averaged over active cycles\n",
            "sm__warps_active.avg.pct_of_peak_sustained_active", t->occupancy_achieved * 100.0);
    fprintf(out, "  %-58s %11.1f%%  %d blocks/SM at %d registers/thread%s; %.2f waves\n",
            "theoretical occupancy", t->occupancy_theoretical * 100.0, t->blocks_per_sm,
            t->regs_per_thread, t->regs_estimated ? " (estimated from the PTX)" : "", t->waves);
    fprintf(out, "  %-58s %11.1f%%  of %" PRIu64 " sectors looked up\n", "l1tex__t_sector_hit_rate.pct",
            t->l1_hit_rate * 100.0, t->l1_sectors);
    fprintf(out, "  %-58s %11.1f%%  of %" PRIu64 " sectors\n", "lts__t_sector_hit_rate.pct",
            t->l2_hit_rate * 100.0, t->l2_sectors);
    metric(out, "dram__bytes_read.sum", t->dram_bytes_read, "");
    metric(out, "dram__bytes_write.sum", t->dram_bytes_written, "");
    uint64_t total = 0;
    for (int i = 0; i < WS_STALL_COUNT; i++) total += t->stall[i];
    fprintf(out, "  where the warps' cycles went (warp-cycles, Nsight Compute's stall reasons):\n");
    for (int i = 0; i < WS_STALL_COUNT; i++) {
        if (!t->stall[i]) continue;
        fprintf(out, "    %-56s %12" PRIu64 "  %5.1f%%\n", ws_stall_metric((ws_stall)i), t->stall[i],
                ratio(t->stall[i], total) * 100.0);
    }
}

void ws_summary_text(FILE *out, const ws_summary_info *k, const ws_launch_stats *s)
{
    double lanes = ratio(s->thread_insts, s->warp_insts);
    char gloss[128];
    fprintf(out, "kernel %s  grid (%u,%u,%u)  block (%u,%u,%u)  dynamic smem %u B\n",
            k->kernel, k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z,
            k->dynamic_smem);
    if (k->timing && k->reused_from && k->reused_other_inputs)
        fprintf(out, "  timing reused from launch %" PRIu64 ": the same launch reading other values, which steer "
                "none of its branches, guards or addresses, not simulated again (outputs from a functional run, "
                "counters and cycles that launch's; docs/REUSE.md)\n", k->reused_from);
    else if (k->timing && k->reused_from)
        fprintf(out, "  timing reused from launch %" PRIu64 ": the same launch reading the same bytes, not "
                "simulated again (outputs and counters are that launch's; docs/REUSE.md)\n", k->reused_from);
    else if (k->timing && k->reuse_missed) {
        fprintf(out, "  simulated: launch %" PRIu64 " had the same kernel, grid, block and arguments, but %s "
                "0x%" PRIx64, k->reuse_missed,
                k->reuse_missed_freed ? "the memory it wrote has been freed since, at"
                                      : "a byte it read holds another value now, at",
                k->reuse_missed_addr);
        if (k->reuse_missed_size)
            fprintf(out, " (byte %" PRIu64 " of the %" PRIu64 "-byte allocation at 0x%" PRIx64 ")",
                    k->reuse_missed_addr - k->reuse_missed_base, k->reuse_missed_size, k->reuse_missed_base);
        else
            fprintf(out, " (in memory freed since)");
        fprintf(out, "; docs/REUSE.md\n");
    }
    if (k->timing) timing_text(out, k->gpu ? k->gpu : "?", k->timing);
    if (k->sass) fprintf(out, "  counters: SASS-informed (%s): memory accesses as ptxas made them\n", k->sass);
    else fprintf(out, "  counters: PTX-exact\n");
    metric(out, "smsp__inst_executed.sum", s->warp_insts, "warp instructions");
    metric(out, "smsp__thread_inst_executed.sum", s->thread_insts, "thread instructions");
    fprintf(out, "  %-58s %12.1f  of 32 lanes active on average (SIMD efficiency %.1f%%)\n",
            "smsp__thread_inst_executed_per_inst_executed.ratio", lanes, lanes / 32.0 * 100.0);
    snprintf(gloss, sizeof gloss, "%" PRIu64 " divergent", s->divergent_branches);
    metric(out, "branches", s->branches, gloss);
    snprintf(gloss, sizeof gloss, "%" PRIu64 " warps", s->warps);
    metric(out, "blocks", s->blocks, gloss);
    shared_text(out, s);
    global_text(out, s);
    if (s->const_requests) {
        snprintf(gloss, sizeof gloss, "ld.const; %.1f distinct addresses per request (serialized)",
                 ratio(s->const_addresses, s->const_requests));
        metric(out, "constant requests", s->const_requests, gloss);
    }
}

static void json_u64(FILE *out, const char *key, uint64_t v)
{
    fprintf(out, ",\"%s\":%" PRIu64, key, v);
}

void ws_summary_json(FILE *out, const ws_summary_info *k, const ws_launch_stats *s)
{
    static const char *const op[] = {"ld", "st", "atom"};
    const ws_shared_counts *sc[] = {&s->shared_ld, &s->shared_st, &s->shared_atom};
    const ws_global_counts *gc[] = {&s->global_ld, &s->global_st, &s->global_atom};
    char key[64];
    fprintf(out, "{\"kernel\":");
    ws_json_string(out, k->kernel);
    fprintf(out, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"dynamic_smem\":%u",
            k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z, k->dynamic_smem);
    if (k->sass) {      /* without the key the counters are PTX-exact */
        fprintf(out, ",\"counters\":\"sass\",\"sass\":");
        ws_json_string(out, k->sass);
    }
    json_u64(out, "warp_instructions", s->warp_insts);
    json_u64(out, "thread_instructions", s->thread_insts);
    fprintf(out, ",\"simd_efficiency\":%.6g,\"active_lanes_avg\":%.6g",
            ratio(s->thread_insts, s->warp_insts) / 32.0, ratio(s->thread_insts, s->warp_insts));
    json_u64(out, "branches", s->branches);
    json_u64(out, "divergent_branches", s->divergent_branches);
    json_u64(out, "blocks", s->blocks);
    json_u64(out, "warps", s->warps);
    for (int i = 0; i < 3; i++) {
        snprintf(key, sizeof key, "shared_requests_%s", op[i]);
        json_u64(out, key, sc[i]->requests);
        snprintf(key, sizeof key, "shared_wavefronts_%s", op[i]);
        json_u64(out, key, sc[i]->wavefronts);
        snprintf(key, sizeof key, "shared_bank_conflicts_%s", op[i]);
        json_u64(out, key, sc[i]->bank_conflicts);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(key, sizeof key, "global_%s_requests", op[i]);
        json_u64(out, key, gc[i]->requests);
        snprintf(key, sizeof key, "global_%s_sectors", op[i]);
        json_u64(out, key, gc[i]->sectors);
        snprintf(key, sizeof key, "global_%s_lines", op[i]);
        json_u64(out, key, gc[i]->lines);
    }
    json_u64(out, "const_requests", s->const_requests);
    json_u64(out, "const_addresses", s->const_addresses);
    const ws_timing_stats *t = k->timing;
    if (t) {
        fprintf(out, ",\"gpu\":");
        ws_json_string(out, k->gpu ? k->gpu : "");
        json_u64(out, "cycles", t->cycles);
        json_u64(out, "launch_cycles", t->launch_cycles);
        json_u64(out, "kernel_cycles", kernel_cycles(t));
        fprintf(out, ",\"time_ns\":%.6g,\"ipc\":%.6g,\"ipc_total\":%.6g", t->time_ns, t->ipc, t->ipc_total);
        fprintf(out, ",\"regs_per_thread\":%d,\"regs_estimated\":%s,\"blocks_per_sm\":%d",
                t->regs_per_thread, t->regs_estimated ? "true" : "false", t->blocks_per_sm);
        fprintf(out, ",\"occupancy_theoretical\":%.6g,\"occupancy_achieved\":%.6g,\"waves\":%.6g",
                t->occupancy_theoretical, t->occupancy_achieved, t->waves);
        fprintf(out, ",\"issue_slot_utilization\":%.6g", t->issue_slot_utilization);
        json_u64(out, "l1_sectors", t->l1_sectors);
        json_u64(out, "l1_hit_sectors", t->l1_hit_sectors);
        json_u64(out, "l2_sectors", t->l2_sectors);
        json_u64(out, "l2_hit_sectors", t->l2_hit_sectors);
        fprintf(out, ",\"l1_hit_rate\":%.6g,\"l2_hit_rate\":%.6g", t->l1_hit_rate, t->l2_hit_rate);
        json_u64(out, "dram_bytes_read", t->dram_bytes_read);
        json_u64(out, "dram_bytes_written", t->dram_bytes_written);
        for (int i = 0; i < WS_STALL_COUNT; i++) {
            snprintf(key, sizeof key, "stall_%s", ws_stall_name((ws_stall)i));
            json_u64(out, key, t->stall[i]);
        }
        /* numbered launches (warpsim exec's) can reuse an earlier one's timing */
        if (k->reused_from) {
            json_u64(out, "timing_reused_from", k->reused_from);
            fprintf(out, ",\"timing_reused_inputs\":\"%s\"", k->reused_other_inputs ? "other" : "same");
        } else if (k->launch_no) {
            fputs(",\"timing_reused_from\":null", out);
        }
        if (!k->reused_from && k->reuse_missed) {
            json_u64(out, "reuse_missed", k->reuse_missed);
            json_u64(out, "reuse_missed_address", k->reuse_missed_addr);
        }
    }
    if (k->launch_no) json_u64(out, "launch", k->launch_no);
    fputs("}\n", out);
}

void ws_summary_write(FILE *out, ws_summary_mode mode, bool json, const ws_summary_info *k,
                      const ws_launch_stats *s)
{
    if (mode == WS_SUMMARY_NONE || !out)
        return;
    fflush(stdout);
    if (json)
        ws_summary_json(out, k, s);
    else if (mode == WS_SUMMARY_SHORT)
        ws_summary_short(out, k, s);
    else
        ws_summary_text(out, k, s);
    fflush(out);
}
