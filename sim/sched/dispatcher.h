/* The block dispatcher: which block of the grid goes to which SM, when.
 *
 * How many blocks one SM holds at once is the occupancy rule's answer
 * (ws_occupancy, hardware rule): the dispatcher never re-derives it.  At
 * launch the blocks are dealt round-robin to the SMs in linear block order
 * (block 0 to SM 0, block 1 to SM 1, ...) until every SM is full or the
 * grid is placed; afterwards each block that finishes frees its slot and
 * the next block in order goes to that SM.  A grid larger than the GPU
 * holds therefore runs in waves, and a last partial wave is the tail. */
#ifndef WARPSIM_DISPATCHER_H
#define WARPSIM_DISPATCHER_H

#include <stdbool.h>
#include <stdint.h>
#include "occupancy.h"

typedef struct ws_dispatcher {
    uint64_t nblocks, next;     /* blocks of the grid; the next to place */
    /* Blocks below next set aside and given back (ws_dispatcher_take),
     * ascending in backlog[head, nbacklog) (room for backlogcap): they go
     * first. */
    uint64_t *backlog;
    uint64_t head, nbacklog, backlogcap;
    int32_t nsm;
    int32_t *resident;          /* blocks on each SM now */
    ws_occ_result occ;          /* the rule's answer for this kernel */
} ws_dispatcher;

/* Applies the occupancy rule to in on g.  False, with a message in err,
 * when the block cannot launch at all (the CUDA error the runtime would
 * give) or on out of memory. */
bool ws_dispatcher_init(ws_dispatcher *d, const ws_gpu_config *g, const ws_occ_input *in,
                        uint64_t nblocks, char *err, size_t errsize);
void ws_dispatcher_free(ws_dispatcher *d);

/* Places the next block of the grid on sm if it has room: returns the
 * block's linear index, or -1 when sm is full or no block is left. */
int64_t ws_dispatcher_place(ws_dispatcher *d, int32_t sm);

/* A block on sm finished: its slot is free again. */
void ws_dispatcher_retire(ws_dispatcher *d, int32_t sm);

/* Sets the lowest block not yet placed aside for an SM that may free a
 * slot soon (a timed launch's window, timing_window.h): returns it, or -1
 * when none is left.  The SM's slot count is the caller's to move
 * (ws_dispatcher_started). */
int64_t ws_dispatcher_take(ws_dispatcher *d);

/* Whether a block of the grid is left to place or set aside. */
bool ws_dispatcher_left(const ws_dispatcher *d);

/* A block set aside with ws_dispatcher_take started on sm. */
void ws_dispatcher_started(ws_dispatcher *d, int32_t sm);

/* Blocks set aside and not needed (n of them, ascending) go back: they are
 * placed before any other.  False on out of memory. */
bool ws_dispatcher_give_back(ws_dispatcher *d, const uint64_t *blocks, uint64_t n);

/* Blocks one wave holds: blocks_per_sm * SMs. */
uint64_t ws_dispatcher_wave_size(const ws_dispatcher *d);

#endif
