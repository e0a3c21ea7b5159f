/* Per-kernel summary writers. */
#include "summary.h"

#include <inttypes.h>

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

void ws_summary_text(FILE *out, const ws_summary_info *k, const ws_launch_stats *s)
{
    double simd = s->warp_insts ? (double)s->thread_insts / (double)s->warp_insts : 0.0;
    fprintf(out, "kernel %s  grid (%u,%u,%u)  block (%u,%u,%u)  dynamic smem %u B\n",
            k->kernel, k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z,
            k->dynamic_smem);
    fprintf(out, "  smsp__inst_executed.sum          %" PRIu64 "  (warp instructions)\n", s->warp_insts);
    fprintf(out, "  smsp__thread_inst_executed.sum   %" PRIu64 "  (thread instructions)\n", s->thread_insts);
    fprintf(out, "  SIMD efficiency                  %.1f of 32 lanes active on average\n", simd);
    fprintf(out, "  branches                         %" PRIu64 " (%" PRIu64 " divergent)\n",
            s->branches, s->divergent_branches);
    fprintf(out, "  blocks, warps                    %" PRIu64 ", %" PRIu64 "\n", s->blocks, s->warps);
}

void ws_summary_json(FILE *out, const ws_summary_info *k, const ws_launch_stats *s)
{
    fprintf(out, "{\"kernel\":");
    json_string(out, k->kernel);
    fprintf(out, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"dynamic_smem\":%u",
            k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z, k->dynamic_smem);
    fprintf(out, ",\"warp_instructions\":%" PRIu64 ",\"thread_instructions\":%" PRIu64
            ",\"branches\":%" PRIu64 ",\"divergent_branches\":%" PRIu64
            ",\"blocks\":%" PRIu64 ",\"warps\":%" PRIu64 "}\n",
            s->warp_insts, s->thread_insts, s->branches, s->divergent_branches, s->blocks, s->warps);
}
