/* Each launch's host time (host_times.h). */
#include "host_times.h"

#include <inttypes.h>

#include "json_out.h"
#include "../core/sm_team.h"
#include "../core/timing_window.h"

void ws_host_time_write(FILE *out, const ws_host_time *t)
{
    double s = (double)t->host_ns / 1e9;
    fputs("{\"kernel\":", out);
    ws_json_string(out, t->kernel);
    fprintf(out,
            ",\"launch\":%" PRIu64 ",\"threads\":%" PRId32 ",\"how\":\"%s\",\"host_s\":%.9f"
            ",\"warp_instructions\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"warp_instructions_per_s\":",
            t->launch_no, t->functional ? 1 : ws_threads_or_cores(t->threads),
            t->reused ? "reused" : t->functional ? "functional" : "timed", s, t->warp_insts,
            t->functional ? 0 : t->cycles);
    if (s > 0 && !t->reused) fprintf(out, "%.0f", (double)t->warp_insts / s);
    else fputs("null", out);
    const ws_window_times *w = t->windows;
    if (w && !t->reused && !t->functional) {
        fprintf(out,
                ",\"windows\":{\"on_threads\":%" PRIu64 ",\"sms_s\":%.6f,\"busiest_sm_s\":%.6f"
                ",\"sm_windows_s\":%.6f,\"ends_s\":%.6f,\"settle_s\":%.6f,\"end_wait_s\":%.6f"
                ",\"alone\":%" PRIu64 ",\"alone_s\":%.6f,\"window_cycles\":%" PRIu32 ",\"shortened\":%" PRIu64,
                w->windows, (double)w->sms_ns / 1e9, (double)w->busiest_ns / 1e9, (double)w->sm_windows_ns / 1e9,
                (double)w->ends_ns / 1e9, (double)w->settle_ns / 1e9, (double)w->end_wait_ns / 1e9, w->alone_windows,
                (double)w->alone_ns / 1e9, w->window_cycles, w->shortened);
        if (w->window_cycles == 1) {
            char why[320];
            ws_window_reason_text(t->program, w->cycle_by_cycle, why, sizeof why);
            fputs(",\"cycle_by_cycle\":", out);
            ws_json_string(out, why);
        }
        fputc('}', out);
    }
    fputs("}\n", out);
    fflush(out);
}
