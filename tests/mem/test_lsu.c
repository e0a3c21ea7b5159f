/* The SM's load/store unit alone (ws_sm_memory, sim/core/sm_lsu.c),
 * driven with hand-built warp accesses on one SM of a small hand-sized
 * memory system, no kernel and no executor: when each access's data is
 * ready, how long it holds the L1 data stage (one wavefront per cycle:
 * bank passes for shared memory, 128 B lines for global), the stall it
 * shows, and what it asks of L1, L2 and DRAM.
 *
 * The memory system: L1 hit 30 cycles, L2 hit 200, DRAM 500; one L2 slice
 * taking a 32 B sector per cycle; one DRAM channel taking a sector per
 * half cycle (so it never queues behind the slice); DRAM reads of one
 * sector.  Shared loads 20 cycles, constant 8.  Each access issues in a
 * cycle of its own, whose end hands the SM's queue to L2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/core/sm.h"
#include "sim/core/sm_shelf.h"
#include "sim/mem/device_memory.h"

typedef struct lsu {
    ws_gpu_config g;
    ws_timing_stats ts;
    ws_tsim s;
    ws_l2_dram l2;
    ws_sm sm;
    ws_subpart sp;
    ws_sm_warp sw;
    ws_insn in;
    ws_step_info info;
    ws_insn_deps deps[2];               /* of pc 0 and 1: destination register 0 and 1 */
    uint64_t reg_ready[2];
} lsu;

static int setup(void **state)
{
    lsu *u = aligned_alloc(_Alignof(lsu), sizeof *u);     /* ws_sm is cache-line aligned */
    assert_non_null(u);
    memset(u, 0, sizeof *u);
    u->g = (ws_gpu_config){
        .clockRate = 1000000, .memoryClockRate = 1000000, .memoryBusWidth = 256,
        .latencyL1Hit = 30, .latencyL2Hit = 200, .latencyDram = 500,
        .l1CacheSize = 4096, .l1Associativity = 4,
        .l2CacheSize = 65536, .l2Associativity = 8, .l2Slices = 1,
        .l2BytesPerCyclePerSlice = 32, .dramChannels = 1, .dramAccessBytes = 32,
    };
    u->s = (ws_tsim){.g = &u->g, .lat_shared = 20, .lat_const = 8, .grid_warps = 2,
                     .ts = &u->ts, .l2 = &u->l2, .deps = u->deps};
    u->deps[0] = (ws_insn_deps){.pipe = WS_PIPE_LSU, .ndst = 1, .dst = {0}};
    u->deps[1] = (ws_insn_deps){.pipe = WS_PIPE_LSU, .ndst = 1, .dst = {1}};
    u->sw.ready = u->reg_ready;
    u->sm.sp = &u->sp;                  /* the warp's sub-partition (spi 0, bit 0) */
    u->sm.nsp = 1;
    assert_true(ws_lsu_queue_init(&u->sm.lsu_q, 1));
    assert_true(ws_l2_init(&u->l2, &u->g));
    assert_true(ws_l1_init(&u->sm.l1, &u->g));
    *state = u;
    return 0;
}

static int teardown(void **state)
{
    lsu *u = *state;
    ws_l1_free(&u->sm.l1);
    ws_l2_free(&u->l2);
    ws_lsu_queue_free(&u->sm.lsu_q);
    free(u);
    return 0;
}

/* One warp-wide access of size bytes per lane: lane l at base + l * stride
 * for the lanes in mask. */
static void warp_access(lsu *u, int cls, int space, uint32_t size, uint32_t mask, uint64_t base,
                   uint64_t stride)
{
    u->in.cls = (uint8_t)cls;
    u->info = (ws_step_info){.mask = mask, .active = mask, .mem = true, .store = cls == WS_I_ST,
                             .space = (uint8_t)space, .size = size, .naccess = 1};
    for (uint32_t l = 0; l < WS_WARP_SIZE; l++) u->info.addr[l] = base + l * stride;
}

/* Times the access at cycle now, as the SM does: its register ready at
 * what ws_sm_memory knows at issue, then later if the end of the cycle
 * says so.  The cycle its data is ready. */
static uint64_t issue(lsu *u, uint64_t now, uint8_t *kind)
{
    assert_true(ws_lsu_room(&u->sm.lsu_q));
    u->reg_ready[0] = ws_sm_memory(&u->s, &u->sm, &u->sp, &u->sw, &u->in, &u->info, now, kind);
    ws_sm_end_cycle(&u->s, &u->sm);
    assert_int_equal(u->sm.lsu_q.n, 0);
    return u->reg_ready[0];
}

/* A warp reading 128 consecutive bytes (one line, four sectors) misses
 * everywhere: the sectors leave for L2 at the issue cycle, the slice takes
 * one per cycle, each goes on to DRAM: ready at 100 + 3 + 500.  The same
 * load again while the data is in flight hits L1 and waits for it; later
 * it hits and takes the L1 latency. */
static void test_global_load_miss_then_hit(void **state)
{
    lsu *u = *state;
    uint8_t kind = 0;
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0x1000, 4);
    assert_int_equal(issue(u, 100, &kind), 603);
    assert_int_equal(kind, WS_STALL_LONG_SCOREBOARD);
    assert_int_equal(u->sp.mem_done[0], 603);
    assert_int_equal(u->sm.l1_free, 101);          /* one line: one wavefront */
    assert_int_equal(u->ts.l1_wavefronts, 1);
    assert_int_equal(u->sm.l1.lookups, 4);
    assert_int_equal(u->sm.l1.hits, 0);
    assert_int_equal(u->l2.count.lookups, 4);
    assert_int_equal(u->l2.count.dram_read_sectors, 4);

    assert_int_equal(issue(u, 200, &kind), 603);
    assert_int_equal(issue(u, 1000, &kind), 1030);
    assert_int_equal(u->sm.l1.hits, 8);
    assert_int_equal(u->l2.count.lookups, 4);
}

/* 32 lanes 128 B apart: 32 lines, 32 sectors.  The L1 data stage is held
 * 32 cycles, so a load issued one cycle later starts at 100 + 32; the
 * slice serializes the 32 sectors (the last leaves at 131). */
static void test_global_strided(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0x10000, 128);
    assert_int_equal(issue(u, 100, &kind), 100 + 31 + 500);
    assert_int_equal(u->sm.l1_free, 132);
    assert_int_equal(u->ts.l1_wavefronts, 32);
    assert_int_equal(u->sm.l1.lookups, 32);
    /* one lane, one new sector: waits for the stage (132) and then for the
     * slice, free at 132 too */
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, 1, 0x90000, 0);
    assert_int_equal(issue(u, 101, &kind), 132 + 500);
}

/* Stores write through: no L1 allocation, the write is acknowledged an L2
 * hit latency after the slice takes it, and it leaves the sector valid
 * (dirty) in L2, so a later load misses L1 and hits L2 with no DRAM read. */
static void test_global_store(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    warp_access(u, WS_I_ST, WS_SP_GLOBAL, 4, UINT32_MAX, 0x2000, 4);
    assert_int_equal(issue(u, 2000, &kind), 2000 + 3 + 200);
    assert_int_equal(kind, WS_STALL_LONG_SCOREBOARD);
    assert_int_equal(u->sp.mem_done[0], 2203);
    assert_int_equal(u->sm.l1.lookups, 0);
    assert_int_equal(u->l2.count.dram_read_sectors, 0);
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0x2000, 4);
    assert_int_equal(issue(u, 3000, &kind), 3000 + 3 + 200);
    assert_int_equal(u->sm.l1.hits, 0);
    assert_int_equal(u->l2.count.hits, 4);
    assert_int_equal(u->l2.count.dram_read_sectors, 0);
}

/* 32 lanes adding to one word: one sector, performed at the slice, which
 * it holds 32 cycles (same-address operations serialize); on the SM side
 * the request takes one L1 pass per same-address operation (32, after the
 * load's 1); L1's copy of the sector is dropped, its neighbours stay. */
static void test_global_atomic(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0x1000, 4);
    assert_int_equal(issue(u, 100, &kind), 603);
    warp_access(u, WS_I_ATOM, WS_SP_GLOBAL, 4, UINT32_MAX, 0x1000, 0);
    assert_int_equal(issue(u, 4000, &kind), 4000 + 32 + 200);
    assert_int_equal(u->ts.l1_wavefronts, 1 + 32);
    /* the slice is busy until 4032 with the atomic */
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0x1000, 4);
    assert_int_equal(issue(u, 4001, &kind), 4032 + 200);
    assert_int_equal(u->sm.l1.lookups, 8);
    assert_int_equal(u->sm.l1.hits, 3);
}

/* A load with .cg (cache in L2, not L1) never hits L1. */
static void test_cache_operator(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    u->in.m.cache = PTX_CACHE_CG;
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, 1, 0x3000, 0);
    assert_int_equal(issue(u, 10, &kind), 510);
    assert_int_equal(issue(u, 1000, &kind), 1200);      /* L2 hit, not L1's 1030 */
    assert_int_equal(u->sm.l1.hits, 0);
    assert_int_equal(u->sm.l1.lookups, 2);
}

/* Shared memory: as many wavefronts as the bank rule gives, ready 20
 * cycles after the last starts; the stage is the L1's, so a global access
 * right after waits for it. */
static void test_shared(void **state)
{
    lsu *u = *state;
    uint8_t kind = 0;
    warp_access(u, WS_I_LD, WS_SP_SHARED, 4, UINT32_MAX, 0, 4);             /* conflict-free */
    assert_int_equal(issue(u, 10, &kind), 10 + 20);
    assert_int_equal(kind, WS_STALL_SHORT_SCOREBOARD);
    assert_int_equal(u->sm.l1_free, 11);
    warp_access(u, WS_I_LD, WS_SP_SHARED, 4, UINT32_MAX, 64, 0);            /* broadcast */
    assert_int_equal(issue(u, 11, &kind), 11 + 20);
    warp_access(u, WS_I_ST, WS_SP_SHARED, 4, UINT32_MAX, 0, 128);           /* 32 words in bank 0 */
    assert_int_equal(issue(u, 12, &kind), 12 + 31 + 20);
    assert_int_equal(u->sm.l1_free, 44);
    assert_int_equal(u->sp.mem_done[0], 63);
    assert_int_equal(u->ts.l1_wavefronts, 34);
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, 1, 0x4000, 0);
    assert_int_equal(issue(u, 13, &kind), 44 + 500);
    /* no memory was touched beyond L1 by the shared accesses */
    assert_int_equal(u->l2.count.lookups, 1);
}

/* Constant loads: the sub-partition's constant cache serves one distinct
 * address per cycle and hits; parameters cost the latency alone. */
static void test_constant_and_param(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    u->in.m.space = PTX_SPACE_CONST;
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0, 0);
    for (uint32_t l = 0; l < WS_WARP_SIZE; l++) u->info.addr[l] = l % 4 * 4;   /* 4 addresses */
    assert_int_equal(issue(u, 10, &kind), 10 + 3 + 8);
    assert_int_equal(kind, WS_STALL_SHORT_SCOREBOARD);
    assert_int_equal(u->sp.const_free, 14);
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0, 0);             /* one address */
    assert_int_equal(issue(u, 11, &kind), 14 + 8);
    u->in.m.space = PTX_SPACE_PARAM;
    warp_access(u, WS_I_LD, WS_SP_PARAM, 4, UINT32_MAX, 0, 0);
    assert_int_equal(issue(u, 11, &kind), 11 + 8);
    assert_int_equal(u->sp.const_free, 15);
    assert_int_equal(u->ts.l1_wavefronts, 0);
    assert_int_equal(u->sm.l1.lookups, 0);
}

/* Local memory is interleaved word by word across the threads of the
 * grid: 32 threads at one local offset make one line; word k of warp w is
 * at line k * (warps of the grid) + w. */
static void test_local_interleaved(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    warp_access(u, WS_I_LD, WS_SP_LOCAL, 4, UINT32_MAX, 0, 0);
    assert_int_equal(issue(u, 0, &kind), 3 + 500);
    assert_int_equal(kind, WS_STALL_LONG_SCOREBOARD);
    assert_int_equal(u->ts.l1_wavefronts, 1);
    assert_int_equal(u->sm.l1.lookups, 4);
    assert_int_equal(issue(u, 1000, &kind), 1030);      /* the same four sectors */
    u->sw.gwarp = 1;
    assert_int_equal(issue(u, 2000, &kind), 2000 + 3 + 500);
    assert_int_equal(u->l2.count.dram_read_sectors, 8);
    /* the next word of warp 0 comes after that word of both warps (of the
     * grid's two): a third line, not warp 1's */
    u->sw.gwarp = 0;
    warp_access(u, WS_I_LD, WS_SP_LOCAL, 4, UINT32_MAX, 4, 0);
    assert_int_equal(issue(u, 3000, &kind), 3000 + 3 + 500);
    assert_int_equal(u->l2.count.dram_read_sectors, 12);
}

/* A generic access split by window: lanes 0-15 in shared memory take one
 * wavefront, lanes 16-31 in global memory (two sectors of one line) the
 * next; the warp waits for the global part. */
static void test_generic_split(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    warp_access(u, WS_I_LD, WS_SP_GENERIC, 4, UINT32_MAX, WS_SHARED_WINDOW, 4);
    for (uint32_t l = 16; l < WS_WARP_SIZE; l++) u->info.addr[l] = 0x5000 + l * 4;
    assert_int_equal(issue(u, 50, &kind), 51 + 1 + 500);
    assert_int_equal(kind, WS_STALL_LONG_SCOREBOARD);
    assert_int_equal(u->ts.l1_wavefronts, 2);
    assert_int_equal(u->sm.l1.lookups, 2);
}

/* No lane active (a guard false everywhere): no port, no traffic. */
static void test_no_lane(void **state)
{
    lsu *u = *state;
    uint8_t kind = 0;
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, 0, 0x1000, 4);
    assert_int_equal(issue(u, 7, &kind), 8);
    assert_int_equal(kind, WS_STALL_SHORT_SCOREBOARD);
    assert_int_equal(u->ts.l1_wavefronts, 0);
    assert_int_equal(u->sm.l1.lookups, 0);
}

/* The queue to L2, two loads of one line in one cycle on an SM of two
 * sub-partitions.  The first misses: its four sectors become requests and
 * fill L1 with markers of them; L2 is not asked until the end of the
 * cycle, so at issue its registers are known only to be ready after the
 * cycle.  The second (one wavefront later on the L1 stage) hits those
 * sectors and waits for the first's requests: known at issue as its L1
 * hit (101 + 30), ready with the data at the end of the cycle (603, as in
 * test_global_load_miss_then_hit). */
static void test_queue_to_l2(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    ws_lsu_queue_free(&u->sm.lsu_q);
    assert_true(ws_lsu_queue_init(&u->sm.lsu_q, 2));
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0x1000, 4);
    u->info.pc = 0;
    u->reg_ready[0] = ws_sm_memory(&u->s, &u->sm, &u->sp, &u->sw, &u->in, &u->info, 100, &kind);
    assert_int_equal(u->reg_ready[0], 101);
    assert_int_equal(u->l2.count.lookups, 0);
    assert_int_equal(u->sm.lsu_q.nreq, 4);
    assert_true(ws_lsu_room(&u->sm.lsu_q));
    u->info.pc = 1;
    u->reg_ready[1] = ws_sm_memory(&u->s, &u->sm, &u->sp, &u->sw, &u->in, &u->info, 100, &kind);
    assert_int_equal(u->reg_ready[1], 131);
    assert_int_equal(u->sm.lsu_q.nreq, 4);
    assert_int_equal(u->sm.lsu_q.ndep, 4);
    ws_sm_end_cycle(&u->s, &u->sm);
    assert_int_equal(u->reg_ready[0], 603);
    assert_int_equal(u->reg_ready[1], 603);
    assert_int_equal(u->sp.mem_done[0], 603);
    assert_int_equal(u->l2.count.lookups, 4);
    assert_int_equal(u->sm.lsu_q.n + u->sm.lsu_q.nreq + u->sm.lsu_q.ndep, 0);
}

/* The queue is bounded: room for one memory instruction's most requests
 * (WS_LSU_INSN_REQUESTS) per sub-partition a cycle.  With one
 * sub-partition, a store of one sector leaves no room for another
 * instruction until the end of the cycle empties the queue; shared and
 * constant accesses never use it. */
static void test_queue_bounded(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    assert_int_equal(u->sm.lsu_q.reqcap, WS_LSU_INSN_REQUESTS);
    warp_access(u, WS_I_LD, WS_SP_SHARED, 4, UINT32_MAX, 0, 4);
    ws_sm_memory(&u->s, &u->sm, &u->sp, &u->sw, &u->in, &u->info, 10, &kind);
    assert_true(ws_lsu_room(&u->sm.lsu_q));
    warp_access(u, WS_I_ST, WS_SP_GLOBAL, 4, 1, 0x2000, 0);
    ws_sm_memory(&u->s, &u->sm, &u->sp, &u->sw, &u->in, &u->info, 11, &kind);
    assert_int_equal(u->sm.lsu_q.nreq, 1);
    assert_false(ws_lsu_room(&u->sm.lsu_q));
    ws_sm_end_cycle(&u->s, &u->sm);
    assert_true(ws_lsu_room(&u->sm.lsu_q));
    assert_int_equal(u->l2.count.lookups, 1);
}

/* A wmma.load-like instruction makes eight accesses, an entry each: on an
 * SM of two sub-partitions (room for 16 entries) a one-access load and
 * such an instruction leave no room for another instruction (it could
 * need eight more), however few requests they made. */
static void test_queue_entries_bounded(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    ws_lsu_queue_free(&u->sm.lsu_q);
    assert_true(ws_lsu_queue_init(&u->sm.lsu_q, 2));
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, 1, 0x4000, 0);
    ws_sm_memory(&u->s, &u->sm, &u->sp, &u->sw, &u->in, &u->info, 10, &kind);
    assert_true(ws_lsu_room(&u->sm.lsu_q));
    u->info.naccess = WS_STEP_MAX_ACCESSES;
    for (uint32_t k = 0; k < WS_STEP_MAX_ACCESSES; k++) u->info.addr[k * WS_WARP_SIZE] = 0x4000 + 128 * k;
    ws_sm_memory(&u->s, &u->sm, &u->sp, &u->sw, &u->in, &u->info, 10, &kind);
    assert_int_equal(u->sm.lsu_q.n, 1 + WS_STEP_MAX_ACCESSES);
    assert_int_equal(u->sm.lsu_q.nreq, WS_STEP_MAX_ACCESSES);      /* its first access hits the load's sector */
    assert_false(ws_lsu_room(&u->sm.lsu_q));
    ws_sm_end_cycle(&u->s, &u->sm);
    assert_true(ws_lsu_room(&u->sm.lsu_q));
}

/* In a window the queue holds every request of the window's cycles: 80
 * stores of a warp whose lanes each write a sector of their own, one a
 * cycle and no cycle's end between them (as in a window), hold 2,560
 * requests, five times the room the queue of a four-sub-partition SM
 * starts with and more than a cycle may add (2,048).  The storage grows
 * as they come (ASan would see a write past it), each request stays
 * where it was made, and the storage stays within twice what the queue
 * holds plus one more instruction's most, not a whole cycle's. */
static void test_queue_grows_with_what_it_holds(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    ws_lsu_queue *q = &u->sm.lsu_q;
    ws_lsu_queue_free(q);
    assert_true(ws_lsu_queue_init(q, 4));
    assert_true(q->reqalloc < 2560);
    for (uint32_t k = 0; k < 80; k++) {
        ws_lsu_cycle_begin(q);
        assert_true(ws_lsu_room(q));
        warp_access(u, WS_I_ST, WS_SP_GLOBAL, 4, UINT32_MAX, 0x100000 + (uint64_t)k * 32 * 64, 64);
        ws_sm_memory(&u->s, &u->sm, &u->sp, &u->sw, &u->in, &u->info, 10 + k, &kind);
        assert_false(q->oom);
    }
    assert_int_equal(q->n, 80);
    assert_int_equal(q->nreq, 80 * 32);
    for (uint32_t r = 0; r < q->nreq; r++) assert_int_equal(q->req[r].sector, (0x100000 + (uint64_t)r * 64) / 32);
    for (uint32_t k = 0; k < 80; k++) {
        assert_int_equal(q->a[k].first_req, k * 32);
        assert_int_equal(q->a[k].nreq, 32);
    }
    assert_true(q->reqalloc < 2 * (q->nreq + WS_LSU_INSN_REQUESTS));
    assert_true(q->alloc < 2 * (q->n + WS_LSU_INSN_ENTRIES));
    ws_sm_end_cycle(&u->s, &u->sm);
    assert_int_equal(q->n, 0);
    assert_int_equal(u->l2.count.lookups, 80 * 32);
}

/* sm given slots of its own (as ws_sm_init makes them): two block slots
 * of two warps, one sub-partition. */
static void make_slots(ws_sm *sm)
{
    sm->nblocks = 2;
    sm->nslots = 4;
    sm->slots = calloc(4, sizeof *sm->slots);
    sm->blocks = calloc(2, sizeof *sm->blocks);
    sm->sp = calloc(1, sizeof *sm->sp);
    sm->reserved = calloc(2, sizeof *sm->reserved);
    sm->freed_at = calloc(4, sizeof *sm->freed_at);
    sm->by_start = calloc(2, sizeof *sm->by_start);
    sm->placed = calloc(2, sizeof *sm->placed);
    assert_true(sm->slots && sm->blocks && sm->sp && sm->reserved && sm->freed_at && sm->by_start && sm->placed);
}

/* An SM's L1 and queue kept on a shelf for the next launch (sm_shelf.h)
 * answer it as new ones do: after a launch whose load brought a line into
 * L1 and whose queue grew, the next launch (its L2 reset, its SM new but
 * for what the shelf hands back: the same storage) misses L1 on that line
 * as test_global_load_miss_then_hit's first load does.  The shelf grows
 * to the SM's index, and keeps nothing for an L1 of another shape. */
static void test_shelf_is_new(void **state)
{
    lsu *u = *state;
    uint8_t kind;
    ws_lsu_queue *q = &u->sm.lsu_q;
    ws_sm_shelf shelf = {0};
    u->sm.id = 5;
    u->sm.run_storage = true;                       /* setup made them */
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0x1000, 4);
    assert_int_equal(issue(u, 100, &kind), 603);
    for (uint32_t k = 0; k < 40; k++) {             /* a queue grown past its first storage */
        warp_access(u, WS_I_ST, WS_SP_GLOBAL, 4, UINT32_MAX, 0x100000 + (uint64_t)k * 32 * 64, 64);
        ws_sm_memory(&u->s, &u->sm, &u->sp, &u->sw, &u->in, &u->info, 700 + k, &kind);
    }
    ws_sm_end_cycle(&u->s, &u->sm);
    uint32_t grown = q->reqalloc;
    assert_true(grown > WS_LSU_INSN_REQUESTS);
    const uint64_t *tags = u->sm.l1.tags.tag;
    /* the same SM's slots, kept beside its L1 and queue */
    static ws_sm slotted;
    memset(&slotted, 0, sizeof slotted);
    slotted.id = 5;
    make_slots(&slotted);
    ws_sm_shape shape = {.nblocks = 2, .nsp = 1, .nwarps = 2, .nthreads = 64};
    ws_sm_shelf_put_back_slots(&shelf, &slotted, &shape);
    ws_sm_shelf_put_back(&shelf, &u->sm);
    assert_non_null(shelf.kept[5].slots.slots);
    assert_int_equal(shelf.n, 6);
    assert_false(u->sm.run_storage);
    assert_null(q->a);
    assert_null(u->sm.l1.tags.tag);

    /* the next launch */
    assert_true(ws_l2_init_again(&u->l2, &u->g));
    memset(&u->ts, 0, sizeof u->ts);
    u->sm.l1_free = 0;
    u->sp.mem_done[0] = 0;
    assert_true(ws_sm_shelf_take(&shelf, &u->sm, &u->g));
    assert_non_null(shelf.kept[5].slots.slots);     /* the slots stay for their launch */
    assert_true(u->sm.run_storage);
    assert_ptr_equal(u->sm.l1.tags.tag, tags);
    assert_int_equal(q->reqalloc, grown);
    assert_int_equal(q->n, 0);
    assert_int_equal(q->nreq, 0);
    assert_int_equal(q->cap, WS_LSU_ENTRIES_PER_SUBPART);
    warp_access(u, WS_I_LD, WS_SP_GLOBAL, 4, UINT32_MAX, 0x1000, 4);
    assert_int_equal(issue(u, 100, &kind), 603);
    assert_int_equal(u->sm.l1.lookups, 4);
    assert_int_equal(u->sm.l1.hits, 0);
    assert_int_equal(u->l2.count.dram_read_sectors, 4);
    assert_int_equal(issue(u, 1000, &kind), 1030);

    ws_sm_shelf_put_back(&shelf, &u->sm);
    u->g.l1Associativity = 8;                       /* another shape: nothing to take */
    assert_false(ws_sm_shelf_take(&shelf, &u->sm, &u->g));
    assert_false(u->sm.run_storage);
    ws_sm_shelf_free(&shelf);
}

/* An SM's slots kept on the shelf (sm_shelf.h) go to the next launch of
 * their shape only: one of another shape takes none and the shelf frees
 * them (as it does before such a launch, ws_sm_shelf_fit_slots); taking
 * or putting back the L1 and queue leaves them where they are.  (Leaks
 * show under the sanitizers.) */
static void test_shelf_slots_by_shape(void **state)
{
    (void)state;
    static ws_sm sm;
    ws_sm_shelf shelf = {0};
    ws_sm_shape a = {.nblocks = 2, .nsp = 1, .nwarps = 2, .nthreads = 64, .smem = 256, .rows = 7, .reg_rows = 7};
    ws_sm_shape b = a;
    b.smem = 512;
    memset(&sm, 0, sizeof sm);
    sm.id = 3;
    make_slots(&sm);
    ws_sm_warp *slots = sm.slots;
    ws_sm_shelf_put_back_slots(&shelf, &sm, &a);
    assert_int_equal(shelf.n, 4);
    assert_null(sm.slots);
    assert_null(sm.blocks);
    assert_int_equal(sm.nblocks, 0);
    assert_false(ws_sm_shelf_take(&shelf, &sm, &(ws_gpu_config){.l1CacheSize = 1024, .l1Associativity = 4}));
    assert_non_null(shelf.kept[3].slots.slots);     /* no L1 kept, the slots still there */
    assert_true(ws_sm_shelf_take_slots(&shelf, &sm, &a));
    assert_ptr_equal(sm.slots, slots);
    assert_null(shelf.kept[3].slots.slots);
    assert_false(ws_sm_shelf_take_slots(&shelf, &sm, &a));     /* lent: nothing left */

    ws_sm_shelf_put_back_slots(&shelf, &sm, &a);
    assert_false(ws_sm_shelf_take_slots(&shelf, &sm, &b));
    assert_null(shelf.kept[3].slots.slots);         /* freed */
    make_slots(&sm);
    ws_sm_shelf_put_back_slots(&shelf, &sm, &a);
    ws_sm_shelf_fit_slots(&shelf, &a);
    assert_non_null(shelf.kept[3].slots.slots);
    ws_sm_shelf_fit_slots(&shelf, &b);
    assert_null(shelf.kept[3].slots.slots);
    make_slots(&sm);
    ws_sm_shelf_put_back_slots(&shelf, &sm, &b);
    ws_sm_shelf_free(&shelf);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shelf_slots_by_shape),
        T(test_global_load_miss_then_hit),
        T(test_global_strided),
        T(test_global_store),
        T(test_global_atomic),
        T(test_cache_operator),
        T(test_shared),
        T(test_constant_and_param),
        T(test_local_interleaved),
        T(test_generic_split),
        T(test_no_lane),
        T(test_queue_to_l2),
        T(test_queue_bounded),
        T(test_queue_entries_bounded),
        T(test_queue_grows_with_what_it_holds),
        T(test_shelf_is_new),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
