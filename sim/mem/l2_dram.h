/* The L2 cache in slices and the DRAM channels behind it.
 *
 * Each slice is a sectored write-back cache (l2CacheSize / l2Slices bytes)
 * that serves l2BytesPerCyclePerSlice; the DRAM channels share
 * dramBytesPerCycle equally (measured; the peak memoryClockRate and
 * memoryBusWidth give, double data rate, when the config lacks it).  A
 * slice and a channel are queues: a sector starts when it arrives and the
 * unit is free, and holds it for its bytes' worth of cycles, so a kernel
 * that moves more bytes than the bandwidth allows waits in these queues
 * and is bound by bandwidth.  A sector's write-back to DRAM takes its
 * channel's time when the sector becomes dirty (the L2 writes back while
 * the kernel runs; each dirty sector is paid for once, however often it is
 * written); the counters still count it when it leaves the cache.  A write
 * request (the sectors of one line one store writes) holds its slice for
 * at least l2Slices / l2WriteRequestsPerCycle cycles, however few bytes it
 * carries: stores that scatter 4 bytes to each of 32 lines are bound by
 * the L2's request rate, not its bytes.
 * Latencies are round trips from the SM: latencyL2Hit for an L2 hit,
 * latencyDram for a miss that starts at an idle channel.
 *
 * Lines map to slices, and 256 B chunks to channels, by their number
 * folded with higher address bits (a hash, as GPUs use, so that strides do
 * not pile onto one slice; below 2^11 lines it is plain modulo).  Atomics
 * execute at the slice, in its atomic unit: a request (one sector of a
 * warp's atomic) holds the unit l2AtomicCyclesPerOp for each operation on
 * its most-used address: same-address operations serialize, different
 * addresses of the request proceed in parallel, and requests to one slice
 * take the unit one after another. */
#ifndef WARPSIM_L2_DRAM_H
#define WARPSIM_L2_DRAM_H

#include "../base/gpu_config.h"
#include "sector_cache.h"

/* The L2's counts, in sectors: lookups (reads, writes, atomics), hits,
 * and DRAM reads and writes. */
typedef struct ws_l2_tally {
    uint64_t lookups, hits, dram_read_sectors, dram_write_sectors;
} ws_l2_tally;

/* A slice: its cache, and when its queue and its atomic unit are free
 * (in ticks, 1/1024 cycle); a channel: when it is free.  Each on cache
 * lines of its own: a launch on several threads gives the slices and the
 * channels to different threads (sim/core/l2_split.h), and neighbours
 * sharing a line would make every request a miss on another core's line. */
typedef struct ws_l2_slice {
    _Alignas(64) ws_sector_cache cache;
    uint64_t free_at, atom_free_at;
} ws_l2_slice;

typedef struct ws_l2_channel {
    _Alignas(64) uint64_t free_at;
} ws_l2_channel;

typedef struct ws_l2_dram {
    uint32_t nslices, nchannels;
    ws_l2_slice *slice;
    ws_l2_channel *chan;
    uint64_t slice_cost, chan_cost;             /* ticks per 32 B sector */
    uint64_t atom_op_cost;                      /* ticks per same-address operation */
    uint64_t write_req_extra;                   /* ticks a write request adds to its first sector */
    uint32_t lat_l2, lat_dram;
    uint32_t fetch_sectors;                     /* sectors one DRAM read brings (aligned group) */
    uint64_t slice_bytes;                       /* each slice's capacity */
    uint32_t ways;                              /* its associativity */
    ws_l2_tally count;
} ws_l2_dram;

bool ws_l2_init(ws_l2_dram *m, const ws_gpu_config *g);

/* m, from an earlier launch (or zeroed), as ws_l2_init makes it for g:
 * when its slices have g's shape they are reset (ws_scache_reset, which
 * costs nothing) and keep their pages, else made anew.  A launch after
 * another with large arrays then takes no page faults in its L2 (on
 * several threads each first write to a page is one, and the first read
 * before it another).  False when out of memory. */
bool ws_l2_init_again(ws_l2_dram *m, const ws_gpu_config *g);
void ws_l2_free(ws_l2_dram *m);

/* A sector read that leaves the SM at cycle t: the cycle its data is back. */
uint64_t ws_l2_read(ws_l2_dram *m, uint64_t sector, uint64_t t);

/* A sector written through from L1 at t: the cycle the write is
 * acknowledged (the SM's drain waits for it).  first: the first sector of
 * a write request (the sectors of one line that one store writes), which
 * holds the slice at least l2Slices / l2WriteRequestsPerCycle cycles. */
uint64_t ws_l2_write(ws_l2_dram *m, uint64_t sector, bool first, uint64_t t);

/* An atomic request on sector arriving at t whose most-used address takes
 * serial operations: the cycle the results are back at the SM. */
uint64_t ws_l2_atomic(ws_l2_dram *m, uint64_t sector, uint32_t serial, uint64_t t);

/* A window's requests answered in three steps, on several threads, with
 * the answers and state ws_l2_read and ws_l2_write give taking them one by
 * one in the window's order (docs/THREADS.md):
 *  1. each slice its own requests, in that order (ws_l2_slice_part): its
 *     queue, tags and counts.  A miss's DRAM read and a write's first
 *     write-back become work for a channel, and the sectors the miss fills
 *     stand in the slice as WS_L2_PENDING + the caller's ticket for it; a
 *     hit on such a sector waits for that fill.
 *  2. each channel its work, in the same order (ws_l2_channel_part): a
 *     miss's answer.
 *  3. the hits that waited take the later of their own time and the fill's,
 *     and the fills their times in the slices (ws_l2_settle).
 * Step 1 touches only slices, step 2 only channels: different slices
 * (channels) may go on different threads.  A hit's own time is never later
 * than a fill it waits for would be without it, and a write over a pending
 * sector keeps the pending time (every later request of the slice starts
 * after the write: the same answers).  Not for atomics. */
#define WS_L2_PENDING (UINT64_C(1) << 62)
#define WS_L2_NO_TICKET UINT64_MAX

/* A request's slice part: its answer (a hit that waits: at least that),
 * and the channel work it left. */
typedef struct ws_l2_part {
    uint64_t done;
    uint64_t wait;          /* the ticket of the fill a hit waits for, or WS_L2_NO_TICKET */
    uint64_t chan_t;        /* channel work: from this cycle, ... */
    uint64_t chan_cost;     /* ... this many ticks (0: none) */
    uint32_t channel;
    bool read;              /* the work is this request's miss: its answer is the channel's */
} ws_l2_part;

/* The slice a sector's line lies in (the step-1 thread that owns it). */
uint32_t ws_l2_slice_of(const ws_l2_dram *m, uint64_t sector);

/* Step 1 for a read (write false) or a write's sector (first: as
 * ws_l2_write's), with ticket < WS_L2_PENDING naming it; counts into
 * *tally.  (ws_l2_read and ws_l2_write are this with no ticket: the
 * channel taken at once, no work left for it.) */
void ws_l2_slice_part(ws_l2_dram *m, ws_l2_tally *tally, bool write, bool first, uint64_t sector, uint64_t t,
                      uint64_t ticket, ws_l2_part *out);

/* Step 1 for an atomic (ws_l2_atomic's work) whose sector is valid with
 * its time known (no fill of it waits): the slice's queue and atomic unit,
 * the sector dirty from the unit's end, and, when it was not dirty, its
 * write-back left as channel work as a write's is.  False, nothing
 * changed, when the sector is not so (a miss, or a fill on its way: their
 * unit's start would wait for step 2). */
bool ws_l2_slice_atomic(ws_l2_dram *m, ws_l2_tally *tally, uint64_t sector, uint32_t serial, uint64_t t,
                        ws_l2_part *out);

/* Whether sector is valid now with its time known (read only), and then
 * in *older how many uses of other lines of its set its line outlives
 * (ws_scache_older_ways): a window's atomic on it finds it so at its turn
 * when no more requests to other lines of its slice come before it. */
bool ws_l2_atomic_known(const ws_l2_dram *m, uint64_t sector, uint32_t *older);

/* Step 2: a request's channel work; for a miss the cycle its data is back
 * at the SM. */
uint64_t ws_l2_channel_part(ws_l2_dram *m, const ws_l2_part *p);

/* Step 3 for a miss: the sectors its fill made (ws_l2_slice_part with
 * ticket) have their data at ready, unless something came over them. */
void ws_l2_settle(ws_l2_dram *m, uint64_t sector, uint64_t ticket, uint64_t ready);

/* Asks the host for what a lookup of sector will read (ws_scache_prefetch),
 * some requests ahead of it. */
void ws_l2_prefetch(const ws_l2_dram *m, uint64_t sector);

/* A step-1 thread's counts into m's (m->count). */
void ws_l2_tally_add(ws_l2_dram *m, const ws_l2_tally *tally);

/* Counts the dirty sectors left in L2 as written to DRAM (the data the
 * kernel produced leaves the cache eventually; not timed).  The launch's
 * last use of m before ws_l2_free. */
void ws_l2_flush(ws_l2_dram *m);

#endif
