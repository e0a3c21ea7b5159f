/* ptxas -v's outputs kept on disk from one run of warpsim to the next, as
 * the CUDA driver keeps the PTX it compiles: a lab program run again skips
 * the tens of milliseconds each of its modules' compiles takes.
 *
 * An output is filed under its PTX text, the architecture it was compiled
 * for and the ptxas that compiled it (its path, size and modification
 * time: a new toolkit compiles again), in the folder
 *   $WARPSIM_CACHE_DIR, else $XDG_CACHE_HOME/warpsim, else
 *   $HOME/.cache/warpsim;
 * WARPSIM_CACHE_DIR=off turns the store off.  Only successful compiles are
 * kept.  An entry is written to a temporary file and renamed into place,
 * so that programs running at once never read half of one; an entry that
 * does not name exactly the key asked for is not used. */
#ifndef WARPSIM_PTXAS_STORE_H
#define WARPSIM_PTXAS_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ptx_ptxas_key {
    char file[64];          /* the entry's file name */
    char line[1200];        /* what the entry's first line must say */
} ptx_ptxas_key;

/* The key of ptxas's compile of text (len bytes) for sm_MAJORMINOR; false
 * when ptxas cannot be looked at. */
bool ptx_ptxas_key_of(const char *ptxas, const char *text, size_t len, int32_t major, int32_t minor,
                      ptx_ptxas_key *key);

/* The folder of the store into dir; false when it is off or has no place
 * (no HOME). */
bool ptx_ptxas_store_dir(char *dir, size_t size);

/* The output filed under key (malloc'd: the caller frees it), or NULL. */
char *ptx_ptxas_stored(const ptx_ptxas_key *key);

/* Files output under key; quietly nothing when the folder cannot be made
 * or written (the next run compiles again). */
void ptx_ptxas_store(const ptx_ptxas_key *key, const char *output);

/* The whole file at path, '\0'-terminated (malloc'd: the caller frees it),
 * its length in *len; NULL when it cannot be read.  (A PTX file's text,
 * for its key; an entry's.) */
char *ptx_read_whole_file(const char *path, size_t *len);

#endif
