/* The L2 cache in slices and the DRAM channels behind it.
 *
 * Each slice is a sectored write-back cache (l2CacheSize / l2Slices bytes)
 * that serves l2BytesPerCyclePerSlice; each DRAM channel serves an equal
 * share of the bandwidth memoryClockRate and memoryBusWidth give (double
 * data rate).  A slice and a channel are queues: a sector starts when it
 * arrives and the unit is free, and holds it for its bytes' worth of
 * cycles, so a kernel that moves more bytes than the bandwidth allows
 * waits in these queues and is bound by bandwidth.  Latencies are round
 * trips from the SM: latencyL2Hit for an L2 hit, latencyDram for a miss
 * that starts at an idle channel.
 *
 * Lines map to slices, and 256 B chunks to channels, by their number
 * folded with higher address bits (a hash, as GPUs use, so that strides do
 * not pile onto one slice; below 2^11 lines it is plain modulo).  Atomics
 * execute at the slice: a sector's atomics hold it one cycle per operation
 * on its most-used address (same-address operations serialize, different
 * addresses proceed in parallel). */
#ifndef WARPSIM_L2_DRAM_H
#define WARPSIM_L2_DRAM_H

#include "../core/gpu_config.h"
#include "sector_cache.h"

typedef struct ws_l2_dram {
    uint32_t nslices, nchannels;
    ws_sector_cache *slice;
    uint64_t *slice_free, *chan_free;           /* in ticks (1/1024 cycle) */
    uint64_t slice_cost, chan_cost;             /* ticks per 32 B sector */
    uint32_t lat_l2, lat_dram;
    uint32_t fetch_sectors;                     /* sectors one DRAM read brings (aligned group) */
    uint64_t lookups, hits;                     /* sectors */
    uint64_t dram_read_sectors, dram_write_sectors;
} ws_l2_dram;

bool ws_l2_init(ws_l2_dram *m, const ws_gpu_config *g);
void ws_l2_free(ws_l2_dram *m);

/* A sector read that leaves the SM at cycle t: the cycle its data is back. */
uint64_t ws_l2_read(ws_l2_dram *m, uint64_t sector, uint64_t t);

/* A sector written through from L1 at t: the cycle the write is
 * acknowledged (the SM's drain waits for it). */
uint64_t ws_l2_write(ws_l2_dram *m, uint64_t sector, uint64_t t);

/* serial atomic operations on sector arriving at t: the cycle the results
 * are back at the SM. */
uint64_t ws_l2_atomic(ws_l2_dram *m, uint64_t sector, uint32_t serial, uint64_t t);

/* Counts the dirty sectors left in L2 as written to DRAM (the data the
 * kernel produced leaves the cache eventually; not timed). */
void ws_l2_flush(ws_l2_dram *m);

#endif
