/* Small pieces of JSON output shared by the summary and trace writers. */
#ifndef WARPSIM_JSON_OUT_H
#define WARPSIM_JSON_OUT_H

#include <stdio.h>

/* Writes s as a JSON string, quoted and escaped; NULL as "". */
void ws_json_string(FILE *out, const char *s);

#endif
