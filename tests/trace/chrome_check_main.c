/* chrome_check FILE [MIN_SLICES]: the structural check of chrome_check.h
 * on a trace file; exit 0 when it passes with at least MIN_SLICES slices
 * (default 1), else 1 with the first problem on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include "chrome_check.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: chrome_check FILE [MIN_SLICES]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0, n;
    do {
        if (len + 65536 > cap) {
            cap = (cap + 65536) * 2;
            char *p = realloc(text, cap);
            if (!p) { free(text); fclose(f); return 1; }
            text = p;
        }
        n = fread(text + len, 1, 65536, f);
        len += n;
    } while (n > 0);
    fclose(f);
    chrome_report r;
    chrome_check(text, len, &r);
    free(text);
    unsigned long long min = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    printf("%s: %llu slices on %llu tracks of %llu processes, %llu problems\n", argv[1],
           (unsigned long long)r.slices, (unsigned long long)r.tracks, (unsigned long long)r.processes,
           (unsigned long long)r.problems);
    if (r.problems) fprintf(stderr, "%s: %s\n", argv[1], r.first);
    else if (r.slices < min) fprintf(stderr, "%s: fewer than %llu slices\n", argv[1], min);
    return r.problems || r.slices < min ? 1 : 0;
}
