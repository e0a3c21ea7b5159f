/* Fuzz target: the fat-binary reader (frontend/cudart/fatbin.h).  Lists
 * the entries of any bytes, decompresses every entry, and extracts the PTX
 * for an sm_90 GPU as `warpsim exec` does.  A damaged binary must give an
 * error, never a read outside the buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/cudart/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly size bytes, so that AddressSanitizer sees any read
     * past the end (the fuzzer's own buffer is exact too; the replay
     * driver's is not necessarily). */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    if (size)
        memcpy(copy, data, size);
    char err[256];
    (void)ws_fatbin_size(copy, size);
    ws_fatbin_entry entries[16];
    int n = ws_fatbin_list(copy, size, entries, 16, err, sizeof err);
    for (int i = 0; i < n && i < 16; i++) {
        char *text = NULL;
        size_t len = 0;
        if (ws_fatbin_payload(&entries[i], &text, &len, err, sizeof err) == 0)
            free(text);
    }
    char *text = NULL;
    size_t len = 0;
    uint32_t arch = 0;
    if (ws_fatbin_extract_ptx(copy, size, 90, &text, &len, &arch, err, sizeof err) == 0)
        free(text);
    free(copy);
    return 0;
}
