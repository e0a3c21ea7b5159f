/* Each launch's host time (host_times.h). */
#include "host_times.h"

#include <inttypes.h>
#include <string.h>

#include "json_out.h"

void ws_host_time_write(FILE *out, const ws_host_time *t)
{
    double s = (double)t->host_ns / 1e9;
    fputs("{\"kernel\":", out);
    ws_json_string(out, t->kernel);
    fprintf(out,
            ",\"launch\":%" PRIu64 ",\"threads\":%" PRId32 ",\"how\":\"%s\",\"host_s\":%.9f"
            ",\"warp_instructions\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"warp_instructions_per_s\":",
            t->launch_no, t->threads, t->how, s, t->warp_insts, t->cycles);
    if (s > 0 && strcmp(t->how, "reused") != 0) fprintf(out, "%.0f}\n", (double)t->warp_insts / s);
    else fputs("null}\n", out);
    fflush(out);
}
