/* Repeated-launch reuse (docs/REUSE.md): a timed launch identical to an
 * earlier one is not simulated again.
 *
 * The timed simulator is deterministic: what a launch does (every
 * instruction, address, value, cycle and counter) is a function of its key
 * (program, kernel, grid, block, dynamic shared size, argument bytes, GPU
 * config and timing options) and of the bytes of device memory it reads.
 * While a timed launch runs, a recorder watches device memory
 * (ws_devmem_watch) and keeps, per 4 KiB page, which bytes it read (their
 * values at the launch's start, or, for a byte the launch wrote before it
 * first read it, possibly the value it wrote) and which it wrote (their
 * values at its end).  A later launch with an equal key, whose read
 * bytes hold the recorded values now and whose written bytes all lie in
 * live allocations, would do exactly what the recorded one did: its outputs
 * are the recorded written bytes, its statistics the recorded ones, its
 * device printf output the recorded text.  Those are replayed, and the
 * launch is reported as reusing the timing of the recorded one.
 *
 * Induction on the launch's steps: a read returns either a byte as it was
 * at the start (recorded and compared equal) or one an earlier step of
 * the same launch wrote (equal by induction), so each step does the same
 * as in the recorded launch.  (A byte kept with the value the launch
 * wrote was read only after that write: comparing it is more than the
 * induction needs, never less.)  L1 and L2 start empty at every timed
 * launch (timing.c), so no cache state carries over.  Values are compared byte
 * for byte (no hash). */
#ifndef WARPSIM_LAUNCH_REUSE_H
#define WARPSIM_LAUNCH_REUSE_H

#include <stdbool.h>
#include <stdio.h>
#include "../base/gpu_config.h"
#include "sim.h"
#include "timing.h"

typedef struct ws_reuse_cache ws_reuse_cache;

/* What a cache keeps: at most records records (up to
 * WS_REUSE_MAX_RECORDS), same_key of any one key, and bytes of records
 * and their page copies (a copy records share counted once); past these
 * the records least recently made or reused go first. */
typedef struct ws_reuse_limits {
    uint32_t records, same_key;
    uint64_t bytes;
} ws_reuse_limits;
#define WS_REUSE_MAX_RECORDS 1024
ws_reuse_limits ws_reuse_default_limits(void);

ws_reuse_cache *ws_reuse_create(void);     /* with the default limits */
ws_reuse_cache *ws_reuse_create_limited(ws_reuse_limits limits);
void ws_reuse_destroy(ws_reuse_cache *c);
/* Forgets every record: the programs and kernels they name are freed. */
void ws_reuse_clear(ws_reuse_cache *c);

/* Everything besides the bytes it reads that a timed launch depends on. */
typedef struct ws_reuse_key {
    const ws_program *p;
    const ws_kernel *k;
    const ws_gpu_config *gpu;
    const ws_launch *l;             /* grid, block, dynamic smem, params, limits */
    const ws_timing_options *timing;
} ws_reuse_key;

/* Why a launch cannot take part (recorded or reused), or NULL when it
 * can: it is checked (racecheck...), traced, or reads textures (whose
 * descriptors live outside device memory).  A launch with an issue
 * timeline (t->timeline, the HTML report's) takes part: the report shows
 * each kernel's first launch and any longer one after it, and a reused
 * launch has the cycles of a launch of its kernel before it, so its
 * timeline, not recorded, is never shown.  A launch counted per
 * instruction (l->pc_counts) takes part with launches counted so alone:
 * a record keeps the counters the recorded launch added (its key's
 * l->pc_counts, when recorded, holds just those), and a reuse adds them
 * to its own key's. */
const char *ws_reuse_refusal(const ws_launch *l, const ws_timing_options *t);

/* Looks for an earlier launch with key's identity whose read bytes hold the
 * same values in mem now and whose written bytes lie in live allocations.
 * When found: writes its outputs into mem and its printf output to out,
 * adds its per-instruction counters to key->l->pc_counts, copies its
 * statistics to *st and *ts, and returns its launch number;
 * else 0 and nothing changed.  *oom is set when the host ran out of memory
 * while writing the outputs (returning 0, the outputs partly written: the
 * launch cannot be simulated now, its inputs may have changed). */
typedef struct ws_reuse_miss {
    uint64_t launch_no;     /* 0: no record of the key */
    uint64_t addr;          /* the first byte it read that holds another value now (or lies in no
                             * live allocation), or the first it wrote that lies in none */
    bool freed;             /* addr is a byte written */
} ws_reuse_miss;
/* ... and when none is found and miss is not NULL: why the newest record
 * of the key (if any) was not taken. */
uint64_t ws_reuse_find(ws_reuse_cache *c, ws_devmem *mem, const ws_reuse_key *key, FILE *out,
                       ws_launch_stats *st, ws_timing_stats *ts, bool *oom, ws_reuse_miss *miss);

/* A launch that reads other values than every record of its key:
 * where its kernel's timing cannot depend on them (value_steer.h), the
 * newest record of the key whose threads passed no values to one another
 * through device memory (no byte both read and written, read after it was
 * written or written twice) and used no atomic, and which printed
 * nothing and was not checked: its statistics into *st and *ts, and its
 * launch number returned (it becomes the newest record); else 0.  Its
 * outputs are the caller's to make (a functional run: ws_run_reusing),
 * and so is the look for values passed through shared memory, unless
 * *shared_ordered: a look at an earlier launch it lent its timing to
 * found none (ws_reuse_note_shared_ordered). */
uint64_t ws_reuse_find_timing(ws_reuse_cache *c, const ws_reuse_key *key, ws_launch_stats *st,
                              ws_timing_stats *ts, bool *shared_ordered);
/* The functional run of a launch that took launch_no's timing found no
 * values passed through shared memory but in the order barriers give
 * (racecheck and synccheck, run quietly): where no value read steers a
 * branch, guard or address, its shared accesses and barriers are the
 * key's, the same in every launch of it, and so is what the look finds. */
void ws_reuse_note_shared_ordered(ws_reuse_cache *c, uint64_t launch_no);
/* Adds the per-instruction counters the recorded launch launch_no added
 * (a launch counted per instruction, as the key of one that takes its
 * timing is) to to; nothing when to is NULL or no record has the number. */
void ws_reuse_lend_lines(const ws_reuse_cache *c, uint64_t launch_no, ws_pc_counts *to);

/* The 4 KiB page copies c's records hold, a copy that records share
 * counted once. */
size_t ws_reuse_page_copies(const ws_reuse_cache *c);

/* Recording a launch: from begin on, mem's accesses are watched, until
 * end, which stops watching and, when keep (the launch succeeded), files
 * the record under key and launch_no with the launch's statistics and
 * printf output, copying its pages on up to nthreads threads: pool's
 * (thread_pool.h), the launch's, or, where pool is NULL, threads started
 * for the copy.  begin returns NULL (nothing watched) when out of memory. */
typedef struct ws_reuse_recorder ws_reuse_recorder;
struct ws_thread_pool;
ws_reuse_recorder *ws_reuse_record_begin(ws_reuse_cache *c, ws_devmem *mem);
void ws_reuse_record_end(ws_reuse_recorder *r, bool keep, const ws_reuse_key *key, uint64_t launch_no,
                         const ws_launch_stats *st, const ws_timing_stats *ts,
                         const char *printed, size_t nprinted, int32_t nthreads, struct ws_thread_pool *pool);

#endif
