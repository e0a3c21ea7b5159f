/* Each launch's host time (host_times.h). */
#include "host_times.h"

#include <inttypes.h>

#include "json_out.h"
#include "../core/sm_team.h"

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
    if (s > 0 && !t->reused) fprintf(out, "%.0f}\n", (double)t->warp_insts / s);
    else fputs("null}\n", out);
    fflush(out);
}
