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

typedef struct ws_l2_dram {
    uint32_t nslices, nchannels;
    ws_sector_cache *slice;
    uint64_t *slice_free, *chan_free;           /* in ticks (1/1024 cycle) */
    uint64_t *atom_free;                        /* each slice's atomic unit, in ticks */
    uint64_t slice_cost, chan_cost;             /* ticks per 32 B sector */
    uint64_t atom_op_cost;                      /* ticks per same-address operation */
    uint64_t write_req_extra;                   /* ticks a write request adds to its first sector */
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
 * acknowledged (the SM's drain waits for it).  first: the first sector of
 * a write request (the sectors of one line that one store writes), which
 * holds the slice at least l2Slices / l2WriteRequestsPerCycle cycles. */
uint64_t ws_l2_write(ws_l2_dram *m, uint64_t sector, bool first, uint64_t t);

/* An atomic request on sector arriving at t whose most-used address takes
 * serial operations: the cycle the results are back at the SM. */
uint64_t ws_l2_atomic(ws_l2_dram *m, uint64_t sector, uint32_t serial, uint64_t t);

/* Counts the dirty sectors left in L2 as written to DRAM (the data the
 * kernel produced leaves the cache eventually; not timed).  The launch's
 * last use of m before ws_l2_free. */
void ws_l2_flush(ws_l2_dram *m);

#endif
