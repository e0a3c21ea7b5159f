/* ptxas outputs on disk (ptxas_store.h). */
/* stat's st_mtim, mkstemp, fdopen */
#define _POSIX_C_SOURCE 200809L
#include "ptxas_store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Two 64-bit hashes of the text (FNV-1a, and a multiply-rotate over its
 * words), 128 bits between them: two PTX texts that share a name are not
 * to be met in practice, and the entry's first line also holds the
 * length. */
static void text_hashes(const char *text, size_t len, uint64_t *h1, uint64_t *h2)
{
    uint64_t a = UINT64_C(0xcbf29ce484222325), b = UINT64_C(0x9e3779b97f4a7c15) ^ len;
    for (size_t i = 0; i < len; i++) {
        a ^= (unsigned char)text[i];
        a *= UINT64_C(0x100000001b3);
        b = ((b ^ (unsigned char)text[i]) * UINT64_C(0xff51afd7ed558ccd));
        b = b << 23 | b >> 41;
    }
    *h1 = a;
    *h2 = b;
}

bool ptx_ptxas_key_of(const char *ptxas, const char *text, size_t len, int32_t major, int32_t minor,
                      ptx_ptxas_key *key)
{
    struct stat st;
    if (!text || stat(ptxas, &st) != 0) return false;
    uint64_t h1, h2;
    text_hashes(text, len, &h1, &h2);
    int n = snprintf(key->file, sizeof key->file, "sm%d%d-%016llx.txt", (int)major, (int)minor,
                     (unsigned long long)h1);
    int m = snprintf(key->line, sizeof key->line,
                     "warpsim ptxas output 1: sm_%d%d, PTX of %zu bytes, %016llx %016llx, %s of %lld bytes "
                     "modified %lld.%09ld", (int)major, (int)minor, len, (unsigned long long)h1,
                     (unsigned long long)h2, ptxas, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                     (long)st.st_mtim.tv_nsec);
    return n > 0 && (size_t)n < sizeof key->file && m > 0 && (size_t)m < sizeof key->line;
}

bool ptx_ptxas_store_dir(char *dir, size_t size)
{
    const char *own = getenv("WARPSIM_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (own && *own) {
        if (strcmp(own, "off") == 0) return false;
        n = snprintf(dir, size, "%s/ptxas", own);
    } else if (xdg && xdg[0] == '/') {
        n = snprintf(dir, size, "%s/warpsim/ptxas", xdg);
    } else if (home && *home) {
        n = snprintf(dir, size, "%s/.cache/warpsim/ptxas", home);
    } else {
        return false;
    }
    return n > 0 && (size_t)n < size;
}

/* dir and the folders above it, made where missing. */
static bool make_dirs(char *dir)
{
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char c = *p;
        *p = '\0';
        bool ok = mkdir(dir, 0700) == 0 || errno == EEXIST;
        *p = c;
        if (!ok) return false;
        if (c == '\0') return true;
    }
}

char *ptx_read_whole_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *all = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (all = malloc((size_t)size + 1)) &&
        fread(all, 1, (size_t)size, f) == (size_t)size) {
        all[size] = '\0';
        *len = (size_t)size;
    } else {
        free(all);
        all = NULL;
    }
    fclose(f);
    return all;
}

char *ptx_ptxas_stored(const ptx_ptxas_key *key)
{
    char dir[1024], path[1200];
    if (!ptx_ptxas_store_dir(dir, sizeof dir) ||
        (size_t)snprintf(path, sizeof path, "%s/%s", dir, key->file) >= sizeof path)
        return NULL;
    size_t size = 0, n = strlen(key->line);
    char *all = ptx_read_whole_file(path, &size);
    if (!all || strlen(all) != size || size <= n || strncmp(all, key->line, n) != 0 || all[n] != '\n') {
        free(all);
        return NULL;
    }
    memmove(all, all + n + 1, size - n);   /* the output, with its '\0' */
    return all;
}

void ptx_ptxas_store(const ptx_ptxas_key *key, const char *output)
{
    char dir[1024], tmp[1200], path[1200];
    if (!output || !ptx_ptxas_store_dir(dir, sizeof dir) || !make_dirs(dir) ||
        (size_t)snprintf(tmp, sizeof tmp, "%s/.entry-XXXXXX", dir) >= sizeof tmp ||
        (size_t)snprintf(path, sizeof path, "%s/%s", dir, key->file) >= sizeof path)
        return;
    int fd = mkstemp(tmp);
    if (fd < 0) return;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        return;
    }
    bool ok = fprintf(f, "%s\n%s", key->line, output) >= 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) unlink(tmp);
}
