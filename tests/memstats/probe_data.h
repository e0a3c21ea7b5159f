/* What the H200 reported for validation/probes/counter_probe.cu, read from
 * validation/results/h200_counter_probe.csv ("probe","metric","value",
 * "source"; lines starting with # are comments), so that the tests hold
 * warpsim against the file the lead replaces when the probe is re-run. */
#ifndef WARPSIM_TEST_PROBE_DATA_H
#define WARPSIM_TEST_PROBE_DATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_DATA_FILE WARPSIM_SOURCE_DIR "/validation/results/h200_counter_probe.csv"

typedef struct probe_row { char probe[64], metric[96], value[64]; } probe_row;

/* Splits a row of quoted fields; false when it has fewer than three. */
static inline int probe_parse(char *line, probe_row *r)
{
    char *f[4] = {0};
    int n = 0;
    for (char *p = line; n < 4 && (p = strchr(p, '"')); n++) {
        char *end = strchr(p + 1, '"');
        if (!end) break;
        *end = '\0';
        f[n] = p + 1;
        p = end + 1;
    }
    if (n < 3) return 0;
    snprintf(r->probe, sizeof r->probe, "%s", f[0]);
    snprintf(r->metric, sizeof r->metric, "%s", f[1]);
    snprintf(r->value, sizeof r->value, "%s", f[2]);
    return 1;
}

/* Reads every row (the header excluded) into rows[0..max); returns how
 * many, or -1 when the file cannot be read. */
static inline int probe_rows(probe_row *rows, int max)
{
    FILE *fp = fopen(PROBE_DATA_FILE, "r");
    if (!fp) return -1;
    char line[512];
    int n = 0;
    while (n < max && fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || !strncmp(line, "\"probe\"", 7)) continue;
        n += probe_parse(line, &rows[n]);
    }
    fclose(fp);
    return n;
}

/* The value of (probe, metric), or NULL when the file has no such row. */
static inline const char *probe_value(const probe_row *rows, int n, const char *probe,
                                      const char *metric)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].probe, probe) && !strcmp(rows[i].metric, metric)) return rows[i].value;
    return NULL;
}

#endif
