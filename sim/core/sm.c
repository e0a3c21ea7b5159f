/* One SM: block residency, the scoreboard, pipes and issue. */
#include "sm.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "block_sync.h"
#include "own_writes.h"
#include "../base/prefetch.h"
#include "sass_groups.h"
#include "sm_shelf.h"
#include "../mem/coalescer.h"
#include "../mem/shared_banks.h"
#include "trace_issue.h"
#include "../trace/issue_timeline.h"
#include "../trace/trace.h"

/* n zeroed elements on cache lines of their own (SMs run on several threads). */
static void *lines_calloc(size_t n, size_t size)
{
    size_t bytes = n * size > 0 ? (n * size + 63) / 64 * 64 : 64;
    void *p = aligned_alloc(64, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

/* sm's slots as a launch starts: every warp slot free, every block slot
 * unused (the storage a slot kept from an earlier launch kept with it),
 * each sub-partition empty with a new scheduler. */
static void clear_slots(const ws_tsim *s, ws_sm *sm)
{
    memset(sm->slots, 0, sizeof *sm->slots * sm->nslots);
    /* each field but the storage (b, ready, kind), which place_block and
     * begin_block set for a block that starts in the slot */
    for (uint32_t i = 0; i < sm->nblocks; i++) {
        ws_sm_block *b = &sm->blocks[i];
        b->used = false;
        b->running = b->unfinished = b->at_work = 0;
        b->started = b->linear = 0;
    }
    memset(sm->sp, 0, sizeof *sm->sp * sm->nsp);
    for (uint32_t i = 0; i < sm->nsp; i++) {
        ws_sched_init(&sm->sp[i].sched, s->policy, (sm->nslots + sm->nsp - 1 - i) / sm->nsp,
                      s->two_level_active);
        sm->sp[i].blocked_min = sm->sp[i].drain_min = WS_NEVER;
    }
    /* slot i is bit i / nsp of sub-partition i % nsp */
    for (uint32_t i = 0; i < sm->nslots; i++) sm->sp[i % sm->nsp].slot[i / sm->nsp] = &sm->slots[i];
}

bool ws_sm_init(ws_tsim *s, ws_sm *sm, int32_t id)
{
    const ws_gpu_config *g = s->g;
    sm->id = id;
    sm->nsp = (uint32_t)g->subPartitionsPerMultiprocessor;
    sm->nblocks = (uint32_t)s->disp.occ.blocks_per_sm;
    sm->nslots = sm->nblocks * s->nwarps;
    ws_sm_shape shape = ws_sm_shape_of(s);
    if (!ws_sm_shelf_take_slots(s->sm_kept, sm, &shape)) {
        sm->slots = lines_calloc(sm->nslots, sizeof *sm->slots);
        sm->blocks = lines_calloc(sm->nblocks, sizeof *sm->blocks);
        sm->sp = lines_calloc(sm->nsp, sizeof *sm->sp);
        /* a window's ended blocks: those there at its start, and those they
         * made room for */
        sm->reserved = malloc(sizeof *sm->reserved * sm->nblocks);
        sm->freed_at = malloc(sizeof *sm->freed_at * 2 * sm->nblocks);
        sm->placed = malloc(sizeof *sm->placed * sm->nblocks);
        sm->by_start = malloc(sizeof *sm->by_start * sm->nblocks);
        if (!sm->slots || !sm->blocks || !sm->sp || !sm->reserved || !sm->freed_at || !sm->placed || !sm->by_start)
            return false;
    }
    clear_slots(s, sm);
    sm->ready_to_run = true;
    return true;
}

bool ws_sm_run_storage(ws_tsim *s, ws_sm *sm)
{
    if (sm->run_storage) return true;
    if (ws_sm_shelf_take(s->sm_kept, sm, s->g)) return true;     /* sets run_storage */
    if (!ws_l1_init(&sm->l1, s->g)) {
        ws_error_set(s->x.err, WS_ERR_NO_MEMORY, "out of memory for the L1 cache of SM %d", sm->id);
        return false;
    }
    sm->run_storage = true;     /* from here ws_sm_free frees the L1 (or ws_sm_shelf_put_back keeps it) */
    if (!ws_lsu_queue_init(&sm->lsu_q, sm->nsp)) {
        ws_error_set(s->x.err, WS_ERR_NO_MEMORY, "out of memory for the load/store queue of SM %d", sm->id);
        return false;
    }
    return true;
}

void ws_sm_free_slots(ws_sm *sm)
{
    for (uint32_t i = 0; sm->blocks && i < sm->nblocks; i++) {
        ws_sm_block *b = &sm->blocks[i];
        ws_block_free(&b->b);
        free(b->ready); free(b->kind);
    }
    free(sm->slots); free(sm->blocks); free(sm->sp); free(sm->reserved); free(sm->freed_at); free(sm->placed); free(sm->by_start);
    sm->slots = NULL;
    sm->blocks = NULL;
    sm->sp = NULL;
    sm->reserved = sm->freed_at = sm->by_start = NULL;
    sm->placed = NULL;
}

void ws_sm_free(ws_sm *sm)
{
    ws_sm_free_slots(sm);
    if (sm->run_storage) ws_l1_free(&sm->l1);
    ws_lsu_queue_free(&sm->lsu_q);
    free(sm->data.a);
    free(sm->data.rows);
    ws_own_writes_free(sm->data.own);
    free(sm->trace_ev);
    ws_check_buffer_free(&sm->findings);
}

/* A block slot's storage: the executor's, and beside each register the
 * cycle its value is ready and what a warp waiting for it shows. */
static bool block_storage(ws_tsim *s, ws_sm_block *b)
{
    size_t nr = (size_t)ws_kernel_reg_rows(s->x.k) * s->nwarps;
    if (!ws_block_alloc(&b->b, s->x.k, s->nthreads, s->smem)) return false;
    b->ready = malloc(sizeof *b->ready * (nr ? nr : 1));
    b->kind = malloc(nr ? nr : 1);
    return b->ready && b->kind;
}

#define BIT(sw) (UINT64_C(1) << (sw)->bit)

static ws_sm_warp *slot_of(ws_sm *sm, uint32_t spi, uint32_t bit)
{
    return sm->sp[spi].slot[bit];
}

/* With per-line counters, before a change of sw's stall_pc or reason (or
 * its retirement): the cycles they held, from sw->pc_since to the SM's
 * counted_to, added to stall_pc's count for reason.  The SM's own stall
 * counters add the warps per reason times the cycles counted
 * (count_cycles), which credits the state they find for [counted_to, the
 * cycle counted to); a change before the next count takes effect from
 * counted_to, and so the lines get what a walk over the warps at each
 * count would give them, for the cost of a change instead of a walk. */
static __attribute__((noinline)) void credit_line(ws_sm *sm, ws_sm_warp *sw)
{
    if (sw->stall_pc >= 0 && sw->live) sm->pcc[sw->stall_pc].stall[sw->reason] += sm->counted_to - sw->pc_since;
    sw->pc_since = sm->counted_to;
}

/* A change of a resident warp's reason: the SM's count per reason (the
 * stall counters add count * cycles) and the warp's own; its sets are
 * set_reason's, or its caller's. */
static inline __attribute__((always_inline)) void count_reason(ws_sm *sm, ws_sm_warp *sw, uint8_t reason)
{
    if (__builtin_expect(sm->pcc != NULL, 0)) credit_line(sm, sw);
    sm->nreason[sw->reason]--;
    sm->nreason[reason]++;
    sw->reason = reason;
}

/* Any change of a resident warp's reason: its counts, and the long_wait
 * set the two-level scheduler reads and the throttled set a cycle passes
 * over (set_short_reason and the ready pass in subpart_cycle do the same
 * where the reason's kind is known). */
static void set_reason(ws_sm *sm, ws_sm_warp *sw, uint8_t reason)
{
    count_reason(sm, sw, reason);
    ws_subpart *sp = &sm->sp[sw->spi];
    if (reason == WS_STALL_LONG_SCOREBOARD) sp->long_wait |= BIT(sw);
    else sp->long_wait &= ~BIT(sw);
    if (reason == WS_STALL_MATH_PIPE_THROTTLE || reason == WS_STALL_MIO_THROTTLE || reason == WS_STALL_LG_THROTTLE)
        sp->throttled |= BIT(sw);
    else
        sp->throttled &= ~BIT(sw);
}

/* set_reason for a reason that is neither long_scoreboard nor a throttle
 * (throttle false) or is a throttle (true), written out where a cycle
 * sets it warp after warp: a warp ready but for its pipe, and one ready
 * but not picked, flip between the two every cycle the pipe is busy. */
static inline __attribute__((always_inline)) void set_short_reason(ws_sm *sm, ws_subpart *sp, ws_sm_warp *sw,
                                                                   uint8_t reason, bool throttle)
{
    count_reason(sm, sw, reason);
    sp->long_wait &= ~BIT(sw);
    if (throttle) sp->throttled |= BIT(sw);
    else sp->throttled &= ~BIT(sw);
}

/* sw waits at pipe: can_issue found its operands ready. */
static void to_pipe(ws_subpart *sp, ws_sm_warp *sw, uint8_t pipe)
{
    sw->at_pipe = true;
    sw->pipe = pipe;
    sp->at_pipe[pipe] |= BIT(sw);
    sp->pipes_used |= 1u << pipe;
}

static void off_pipe(ws_subpart *sp, ws_sm_warp *sw)
{
    if (!sw->at_pipe) return;
    sw->at_pipe = false;
    if (!(sp->at_pipe[sw->pipe] &= ~BIT(sw))) sp->pipes_used &= ~(1u << sw->pipe);
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* The earliest ws_sm_drained_at of sp's draining warps. */
static uint64_t drain_min(const ws_subpart *sp)
{
    uint64_t t = WS_NEVER;
    for (uint64_t m = sp->draining; m; m &= m - 1)
        t = min64(t, ws_sm_drained_at(sp, (uint32_t)__builtin_ctzll(m)));
    return t;
}

/* Blocked warps whose time has come go back to eval. */
static void unblock(ws_subpart *sp, uint64_t now)
{
    uint64_t t = WS_NEVER;
    for (uint64_t m = sp->blocked; m; m &= m - 1) {
        uint32_t j = (uint32_t)__builtin_ctzll(m);
        uint64_t until = sp->until[j];
        if (until <= now) {
            sp->blocked &= ~(UINT64_C(1) << j);
            sp->eval |= UINT64_C(1) << j;
        } else {
            t = min64(t, until);
        }
    }
    sp->blocked_min = t;
}

bool ws_sm_place_block(ws_tsim *s, ws_sm *sm, uint64_t block, uint64_t now)
{
    if (!sm->ready_to_run && !ws_sm_init(s, sm, sm->id)) return false;
    uint32_t bs = 0;
    while (bs < sm->nblocks && sm->blocks[bs].used) bs++;
    if (bs == sm->nblocks) return false;
    ws_sm_block *b = &sm->blocks[bs];
    b->used = true;
    b->running = b->unfinished = s->nwarps;
    b->started = now;
    b->linear = block;
    s->x.blocks_started++;
    sm->placed[sm->nplaced++] = bs;
    /* blocks start on an SM at cycles that never go back: from the end */
    uint64_t v = ws_sm_by_start(now, bs);
    uint32_t at = sm->nby_start++;
    for (; at > 0 && sm->by_start[at - 1] > v; at--) sm->by_start[at] = sm->by_start[at - 1];
    sm->by_start[at] = v;
    if (sm->next > now) sm->next = now;
    return true;
}

/* A starting block's register rows asked of the host's memory at once: its
 * warps write them in their first instructions, and the rows are cold (a
 * slot's last block used them long before; histogram's blocks then wait
 * tens of thousands of cycles on their atomics), so a miss per row per
 * instruction, one after the other, became misses in flight together
 * (histogram 4194304 4 on one thread, 11 pinned pairs: A/B wall 0.95 with
 * the drain times side by side).  Into the second-level cache, not the
 * first, and at most PREFETCH_ROW_BYTES: a block of many warps has more
 * rows than the first holds, and a big one more than the second. */
#define PREFETCH_ROW_BYTES (64u << 10)

static void prefetch_rows(const ws_block *b, const ws_kernel *k)
{
    const char *p = (const char *)b->regs;
    size_t n = sizeof *b->regs * (size_t)ws_kernel_rows(k) * b->nwarps;
    if (n > PREFETCH_ROW_BYTES) n = PREFETCH_ROW_BYTES;
    for (size_t off = 0; off < n; off += 64) __builtin_prefetch(p + off, 1, 2);
}

/* Asks for the register units the warp's next instruction d names: by
 * the time the warp issues it (a cycle later at the soonest, the SM's other
 * warps in between) they are in the host's caches.  With many SMs the rows
 * a warp used last are seldom still there: matmulTiled16 512^3 on 132 SMs,
 * one thread, 4.34 s without, 3.68 with. */
static void prefetch_units(const ws_warp *w, const ws_insn_deps *d)
{
    for (uint8_t i = 0; i < d->nunits; i++) {
        const char *u = (const char *)w->regs[d->units[i]];
        ws_prefetch(u);
        ws_prefetch(u + 64);
    }
}

/* Whether block slot b holds a block with warps not yet exited.  A block
 * whose warps have all exited only waits to drain: a window retires it
 * from its warps' slots alone, and its prefetch leaves it out
 * (histogramGlobal, most of whose blocks wait for their atomics: one
 * thread 0.65-0.84 -> 0.54 s). */
static bool has_warps_at_work(const ws_sm_block *b)
{
    return b->used && b->ready && b->unfinished;
}

/* Asks for the state a window's cycles read first for every warp: its
 * slot and its blocks' ready times and kinds (a few KiB an SM).  Between
 * two windows of one SM every other SM's window runs, which on a host of
 * small caches leaves none of it there, and can_issue's reads of the ready
 * times stand each on the cycle's critical path. */
void ws_sm_prefetch_window(const ws_tsim *s, const ws_sm *sm)
{
    size_t nr = (size_t)ws_kernel_reg_rows(s->x.k) * s->nwarps;
    for (uint32_t bs = 0; bs < sm->nblocks; bs++) {
        const ws_sm_block *b = &sm->blocks[bs];
        if (!has_warps_at_work(b)) continue;
        for (size_t off = 0; off < sizeof *b->ready * nr; off += 64) ws_prefetch((const char *)b->ready + off);
        for (size_t off = 0; off < nr; off += 64) ws_prefetch(b->kind + off);
        const char *slots = (const char *)&sm->slots[bs * s->nwarps];
        for (size_t off = 0; off < sizeof *sm->slots * s->nwarps; off += 64) ws_prefetch(slots + off);
        for (uint32_t wi = 0; wi < s->nwarps; wi++) {    /* up to the register pointer */
            const ws_warp *w = &b->b.warps[wi];
            for (size_t off = 0; off <= offsetof(ws_warp, regs); off += 64) ws_prefetch((const char *)w + off);
            ws_prefetch(&w->regs);
        }
    }
    /* then, their slots asked for a while ago, the rows each warp's next
     * instruction names: those it last used a window ago are seldom still
     * there (matmulTiled16 512^3 on 132 SMs, one thread: 3.65-3.83 ->
     * 3.38-3.44 s) */
    for (uint32_t bs = 0; bs < sm->nblocks; bs++) {
        const ws_sm_block *b = &sm->blocks[bs];
        if (!has_warps_at_work(b)) continue;
        for (uint32_t wi = 0; wi < s->nwarps; wi++) {
            const ws_sm_warp *sw = &sm->slots[bs * s->nwarps + wi];
            if (!sw->finished && sw->npc >= 0) prefetch_units(&b->b.warps[wi], &s->deps[sw->npc]);
        }
    }
}

/* Block slot bs's block, placed, gets its storage and its warps their
 * slots, from the cycle it started. */
static bool begin_block(ws_tsim *s, ws_sm *sm, uint32_t bs)
{
    ws_sm_block *b = &sm->blocks[bs];
    if (!b->b.warps && !block_storage(s, b)) return false;
    const ws_kernel *k = s->x.k;
    size_t rows = (size_t)ws_kernel_reg_rows(k), nr = rows * s->nwarps;
    uint64_t now = b->started, block = b->linear;
    /* its warps' %warpid: their slots on the SM */
    if (!ws_block_begin(&s->x, &b->b, block, (uint32_t)sm->id, bs * s->nwarps)) return false;
    prefetch_rows(&b->b, k);
    memset(b->ready, 0, sizeof *b->ready * nr);
    memset(b->kind, 0, nr);
    for (uint32_t wi = 0; wi < s->nwarps; wi++) {
        ws_warp *w = &b->b.warps[wi];
        uint32_t slot = bs * s->nwarps + wi;
        ws_sm_warp *sw = &sm->slots[slot];
        *sw = (ws_sm_warp){
            .w = w, .block = (int32_t)bs, .spi = (uint8_t)(slot % sm->nsp), .bit = (uint8_t)(slot / sm->nsp),
            .live = true, .age = block * s->nwarps + wi, .reason = WS_STALL_SELECTED,
            .gwarp = block * s->nwarps + wi,
            .ready = ws_reg_window(b->ready + wi * rows, sizeof *b->ready, k),
            .kind = ws_reg_window(b->kind + wi * rows, sizeof *b->kind, k),
            .next_issue = now, .fetch_reason = WS_STALL_WAIT, .opnd_pc = -1, .stall_pc = -1,
            .wstate = w->state, .npc = ws_warp_next_pc(w),
        };
        sm->nreason[WS_STALL_SELECTED]++;
        ws_subpart *sp = &sm->sp[sw->spi];
        sp->eval |= BIT(sw);
        sp->age[sw->bit] = sw->age;
        sp->until[sw->bit] = 0;
        sp->mem_done[sw->bit] = now;
        sp->npending[sw->bit] = 0;
    }
    b->at_work = 0;
    for (uint32_t wi = 0; wi < s->nwarps; wi++) b->at_work += b->b.warps[wi].state == WS_WARP_READY;
    sm->live += s->nwarps;
    s->x.stats->blocks++;
    s->x.stats->warps += s->nwarps;
    return true;
}

bool ws_sm_begin_placed(ws_tsim *s, ws_sm *sm)
{
    for (uint32_t k = 0; k < sm->nplaced; k++)
        if (!begin_block(s, sm, sm->placed[k])) {
            ws_error_set(s->x.err, WS_ERR_NO_MEMORY, "out of memory");
            return false;
        }
    sm->nplaced = 0;
    return true;
}

bool ws_sm_start_block(ws_tsim *s, ws_sm *sm, uint64_t block, uint64_t now)
{
    return ws_sm_place_block(s, sm, block, now) && ws_sm_begin_placed(s, sm);
}

/* Warp sw leaves its slot: out of every set and count. */
static void leave(ws_sm *sm, ws_sm_warp *sw)
{
    ws_subpart *sp = &sm->sp[sw->spi];
    uint64_t keep = ~BIT(sw);
    bool drained = sp->draining & BIT(sw);
    sp->eval &= keep; sp->blocked &= keep; sp->held &= keep; sp->parked &= keep; sp->draining &= keep;
    sp->finished &= keep; sp->long_wait &= keep; sp->throttled &= keep;
    off_pipe(sp, sw);
    if (drained) sp->drain_min = drain_min(sp);
    if (sm->pcc) credit_line(sm, sw);
    sm->nreason[sw->reason]--;
    sw->live = false;
    sm->live--;
    sm->finished--;
}

/* Block slot bs's block has ended: its warps' slots empty. */
static void block_ends(ws_tsim *s, ws_sm *sm, uint32_t bs)
{
    sm->blocks[bs].used = false;
    uint64_t v = ws_sm_by_start(sm->blocks[bs].started, bs);
    uint32_t at = 0;
    while (sm->by_start[at] != v) at++;
    memmove(&sm->by_start[at], &sm->by_start[at + 1], sizeof *sm->by_start * (sm->nby_start - at - 1));
    sm->nby_start--;
    for (uint32_t w = 0; w < s->nwarps; w++) sm->slots[bs * s->nwarps + w].w = NULL;
}

void ws_sm_block_done(ws_tsim *s, ws_sm *sm, uint64_t at)
{
    ws_dispatcher_retire(&s->disp, sm->id);
    s->x.blocks_done++;
    if (at > s->end) s->end = at;
}

bool ws_sm_fill(ws_tsim *s, ws_sm *sm, uint64_t start)
{
    for (int64_t blk; (blk = ws_dispatcher_place(&s->disp, sm->id)) >= 0;)
        if (!ws_sm_place_block(s, sm, (uint64_t)blk, start)) return false;
    return true;
}

/* Where key ranks among the keys of a's runs: how many are below it. */
static uint32_t aside_rank(const ws_aside *a, uint64_t key)
{
    uint32_t rank = 0;
    for (uint32_t j = 0; j < a->nruns; j++) {
        const uint64_t *run = a->keys + a->run_start[j];
        uint32_t lo = 0, hi = a->run_start[j + 1] - a->run_start[j];
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (run[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        rank += lo;
    }
    return rank;
}

/* In a window, a slot of sm freed at now takes the block set aside for
 * its next key (ws_aside); with none, the window's end fills it. */
static bool start_aside(ws_tsim *s, ws_sm *sm, uint64_t now)
{
    const ws_aside *a = sm->aside;
    if (!a) return true;
    uint32_t first = a->run_start[sm->aside_run], n = a->run_start[sm->aside_run + 1] - first;
    if (sm->nstarted >= n) {
        sm->slot_waited = true;
        return true;
    }
    uint32_t rank = aside_rank(a, a->keys[first + sm->nstarted]);
    if (rank >= a->ntaken) return true;     /* its keys ascend: none after it has a block either */
    sm->reserved[sm->nstarted++] = rank;
    return ws_sm_start_block(s, sm, a->taken[rank], now);
}

/* Warps that are done and drained leave; a block whose warps all left
 * frees its slot, and the dispatcher fills it at once.  In a window of
 * cycles the dispatcher is not at hand: the slot takes the next of the
 * blocks set aside for the SM (start_aside; with none left, the window's
 * end fills it), and the dispatcher hears of both at the window's end. */
bool ws_sm_retire(ws_tsim *s, ws_sm *sm, uint64_t now)
{
    if (now < sm->retire_at) return true;
    sm->pcc = s->x.l->pc_counts;
    uint32_t freed = 0;
    uint64_t next = WS_NEVER;
    for (uint32_t p = 0; sm->finished && p < sm->nsp; p++)
        for (uint64_t m = sm->sp[p].finished; m; m &= m - 1) {
            uint32_t bit = (uint32_t)__builtin_ctzll(m);
            uint64_t drained = ws_sm_drained_at(&sm->sp[p], bit);
            if (drained > now) {
                next = min64(next, drained);
                continue;
            }
            ws_sm_warp *sw = slot_of(sm, p, bit);
            leave(sm, sw);
            ws_sm_block *b = &sm->blocks[sw->block];
            if (--b->running == 0) {
                block_ends(s, sm, (uint32_t)sw->block);
                freed++;
            }
        }
    /* until then no finished warp drains, unless a warp finishes or the
     * memory answers (issue, ws_sm_window_finish, the end of the cycle) */
    sm->retire_at = next;
    if (!freed) return true;
    if (!sm->window_end) {
        for (uint32_t k = 0; k < freed; k++) ws_sm_block_done(s, sm, now);
        if (ws_sm_fill(s, sm, now)) return ws_sm_begin_placed(s, sm);
        ws_error_set(s->x.err, WS_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    for (uint32_t k = 0; k < freed; k++) {
        sm->freed_at[sm->nfreed++] = now;
        if (!start_aside(s, sm, now)) {
            ws_error_set(s->x.err, WS_ERR_NO_MEMORY, "out of memory");
            return false;
        }
    }
    return true;
}

static bool is_branch(const ws_insn *in)
{
    return in->cls == WS_I_BRA || in->cls == WS_I_CALL || in->cls == WS_I_RET;
}

/* The cycle a memory instruction can go to the SM's L1 data stage: the
 * stage is at most lsu_queue cycles behind, and the queue to L2 has room
 * (it empties at the end of the cycle). */
static uint64_t lsu_free(const ws_tsim *s, const ws_sm *sm, uint64_t now)
{
    if (sm->l1_free > now + s->lsu_queue) return sm->l1_free - s->lsu_queue;
    return sm->lsu_q.full ? now + 1 : now;
}

/* Whether sw's pipe and, for a memory instruction, the SM's L1 stage and
 * queue take an instruction at now; if not, its stall reason and *wake. */
static inline __attribute__((always_inline)) bool pipe_ready(ws_tsim *s, ws_sm *sm, ws_subpart *sp,
                                                             ws_sm_warp *sw, uint64_t now, uint64_t *wake)
{
    uint64_t t = sp->pipe_free[sw->pipe];
    if (t <= now && sw->lsu) t = lsu_free(s, sm, now);
    if (t > now) {
        set_short_reason(sm, sp, sw, sw->throttle, true);   /* a throttle, never long_scoreboard */
        *wake = t;
        return false;
    }
    return true;
}

/* Whether sw can issue at now; if not, its stall reason and the cycle it
 * may change (*wake).  A warp found at_pipe stays there, at the same pc
 * with its operands ready, until it issues or its block releases a
 * barrier (both clear at_pipe): then only the pipe check can change. */
static inline __attribute__((always_inline)) bool can_issue(ws_tsim *s, ws_sm *sm, ws_subpart *sp,
                                                            ws_sm_warp *sw, uint64_t now, uint64_t *wake)
{
    if (sw->at_pipe) return pipe_ready(s, sm, sp, sw, now, wake);
    sp->until[sw->bit] = 0;
    if (sw->wstate == WS_WARP_DONE) {
        set_reason(sm, sw, WS_STALL_DRAIN);
        *wake = ws_sm_drained_at(sp, sw->bit);
        return false;
    }
    if (sw->wstate == WS_WARP_BARRIER) {
        set_reason(sm, sw, WS_STALL_BARRIER);
        *wake = WS_NEVER;
        return false;
    }
    if (sw->next_issue > now) {
        set_reason(sm, sw, sw->fetch_reason);
        *wake = sp->until[sw->bit] = sw->next_issue;
        return false;
    }
    int32_t pc = sw->npc;
    if (pc < 0) {      /* no lanes left: the executor retires it */
        *wake = now;
        return true;
    }
    if (sm->pcc && sw->stall_pc != pc) credit_line(sm, sw);
    sw->stall_pc = pc;
    const ws_insn_deps *d = &s->deps[pc];
    /* Only the warp's own issues move its registers' ready times, so the
     * answer for one pc holds until the warp issues again. */
    if (sw->opnd_pc != pc) {
        uint64_t t = 0;
        uint8_t why = WS_STALL_WAIT;
        /* the sources, then the destinations: the first latest one gives why */
        for (uint32_t i = 0; i < d->nsrc; i++) {
            int32_t r = d->src[i];
            if (sw->ready[r] > t) { t = sw->ready[r]; why = sw->kind[r]; }
        }
        for (uint32_t i = 0; i < d->ndst; i++) {
            int32_t r = d->dst[i];
            if (sw->ready[r] > t) { t = sw->ready[r]; why = sw->kind[r]; }
        }
        sw->opnd_pc = pc;
        sw->opnd_ready = t;
        sw->opnd_why = why;
    }
    uint64_t t = sw->opnd_ready;
    uint8_t why = sw->opnd_why;
    if (t > now) {
        set_reason(sm, sw, why);
        *wake = sp->until[sw->bit] = t;
        return false;
    }
    const ws_insn *in = &s->x.p->code[pc];
    to_pipe(sp, sw, d->pipe);
    sw->lsu = d->pipe == WS_PIPE_LSU;
    sw->throttle = !sw->lsu ? WS_STALL_MATH_PIPE_THROTTLE
                 : in->space == WS_SP_SHARED || in->m.space == PTX_SPACE_CONST ||
                   in->space == WS_SP_PARAM ? WS_STALL_MIO_THROTTLE : WS_STALL_LG_THROTTLE;
    return pipe_ready(s, sm, sp, sw, now, wake);
}

/* sw's wstate, as its step or a barrier release left its warp, and its
 * block b's count of warps at work. */
static void set_wstate(ws_sm_block *b, ws_sm_warp *sw, uint8_t state)
{
    b->at_work += (uint32_t)(state == WS_WARP_READY) - (uint32_t)(sw->wstate == WS_WARP_READY);
    sw->wstate = state;
}

/* After a warp of block b reached a barrier or exited: release what can
 * be released; a block whose running warps all wait is deadlocked. */
static bool sync_block(ws_tsim *s, ws_sm *sm, ws_sm_block *b, uint32_t bs, uint64_t now)
{
    if (!ws_block_may_release(&s->x, b->at_work > 0)) return true;
    if (ws_block_release_barriers(&s->x, &b->b) > 0) {
        for (uint32_t w = 0; w < s->nwarps; w++) {
            ws_sm_warp *sw = &sm->slots[bs * s->nwarps + w];
            ws_subpart *sp = &sm->sp[sw->spi];
            off_pipe(sp, sw);
            set_wstate(b, sw, sw->w->state);
            sw->npc = ws_warp_next_pc(sw->w);
            if (sp->parked & BIT(sw)) {     /* its state may have changed: look again */
                sp->parked &= ~BIT(sw);
                sp->eval |= BIT(sw);
            }
            if (sw->w->state == WS_WARP_READY && sw->next_issue <= now) {
                sw->next_issue = now + 1;
                sw->fetch_reason = WS_STALL_BARRIER;
            }
        }
        return true;
    }
    uint32_t waiting = 0, ready = 0;
    for (uint32_t w = 0; w < s->nwarps; w++) {
        waiting += b->b.warps[w].state == WS_WARP_BARRIER;
        ready += b->b.warps[w].state == WS_WARP_READY;
    }
    if (waiting && !ready) {
        ws_block_deadlock(&s->x, &b->b);
        return false;
    }
    return true;
}

/* The issue of pc into the trace, written at the end of the cycle
 * (ws_sm_end_cycle), when the queue's entries from queued on, this
 * instruction's, know when its accesses are done.  False on out of
 * memory (s->x.err filled). */
static bool trace_issue(ws_tsim *s, ws_sm *sm, const ws_block *b, const ws_warp *w, int32_t pc,
                        const ws_step_info *info, uint64_t now, uint64_t ready, uint32_t queued)
{
    if (sm->ntrace_ev == sm->trace_evcap) {
        uint32_t cap = sm->trace_evcap ? 2 * sm->trace_evcap : 16;
        ws_trace_event *ev = realloc(sm->trace_ev, sizeof *ev * cap);
        if (!ev) {
            ws_error_set(s->x.err, WS_ERR_NO_MEMORY, "out of memory for the issue trace");
            return false;
        }
        sm->trace_ev = ev;
        sm->trace_evcap = cap;
    }
    if (!ws_trace_warp_event(s->trace, &s->x, b, w, sm->id, pc, info, now, ready, &sm->trace_ev[sm->ntrace_ev]))
        return true;
    sm->ntrace_ev++;
    for (uint32_t k = queued; k < sm->lsu_q.n; k++) sm->lsu_q.a[k].trace = sm->ntrace_ev;
    return true;
}

static bool issue(ws_tsim *s, ws_sm *sm, ws_subpart *sp, ws_sm_warp *sw, uint64_t now)
{
    ws_warp *w = sw->w;
    ws_sm_block *b = &sm->blocks[sw->block];
    int32_t pc = sw->npc;       /* as the last step or barrier release left it */
    off_pipe(sp, sw);
    ws_step_info info;
    info.mem = false;
    ws_step_result r = ws_warp_step(&s->x, &b->b, w, now, &info);
    set_wstate(b, sw, w->state);
    sw->npc = ws_warp_next_pc(w);
    if (r == WS_STEP_FAULT) return false;
    if (sw->npc >= 0) prefetch_units(w, &s->deps[sw->npc]);
    /* --sass: a PTX access ptxas merged into its group's leader is no SASS
     * instruction (sass_groups.h): it holds no pipe and takes no issue slot */
    bool merged = pc >= 0 && s->x.p->sass_group && s->x.p->sass_group[pc] == WS_SASS_MERGED;
    if (pc >= 0) {     /* an instruction issued (not just an empty stack retired) */
        if (sm->pcc && sw->stall_pc != pc) credit_line(sm, sw);
        sw->stall_pc = pc;
        const ws_insn *in = &s->x.p->code[pc];
        const ws_insn_deps *d = &s->deps[pc];
        uint64_t ready = now + s->latency[d->pipe];
        uint8_t kind = d->pipe == WS_PIPE_SFU ? WS_STALL_SHORT_SCOREBOARD : WS_STALL_WAIT;
        uint32_t queued = sm->lsu_q.n;
        if (d->pipe == WS_PIPE_LSU) {
            ready = ws_sm_memory(s, sm, sp, sw, in, &info, now, &kind);
            if (sm->lsu_q.oom) {
                ws_error_set(s->x.err, WS_ERR_NO_MEMORY, "out of memory for the load/store queue of SM %d", sm->id);
                return false;
            }
        }
        for (uint32_t i = 0; i < d->ndst; i++) {
            sw->ready[d->dst[i]] = ready;
            sw->kind[d->dst[i]] = kind;
        }
        sw->opnd_pc = -1;
        if (s->trace && !trace_issue(s, sm, &b->b, w, pc, &info, now, ready, queued)) return false;
        if (s->timeline) ws_issue_timeline_add(s->timeline, (uint32_t)sm->id, (uint32_t)(sw - sm->slots), now);
        if (!merged) {
            sp->pipe_free[d->pipe] = now + s->interval[d->pipe];
            s->ts->pipe_busy[d->pipe] += s->interval[d->pipe];
        }
        s->ts->pipe_insts[d->pipe]++;
        s->ts->warp_insts++;
        sw->next_issue = now + 1;
        if (is_branch(in)) {
            sw->next_issue = now + s->lat_branch;
            sw->fetch_reason = WS_STALL_BRANCH_RESOLVING;
        }
    }
    if (w->state == WS_WARP_DONE && !sw->finished) {
        sw->finished = true;
        sm->finished++;
        sm->blocks[sw->block].unfinished--;
        ws_sm_note_drain(sm, sw);
        sp->finished |= BIT(sw);
    }
    if (r == WS_STEP_BLOCKED || r == WS_STEP_DONE || w->state != WS_WARP_READY)
        return sync_block(s, sm, b, (uint32_t)sw->block, now);
    if (merged) {      /* the warp's next instruction issues in its place, if it can */
        uint64_t wake;
        sw->next_issue = now;
        if (can_issue(s, sm, sp, sw, now, &wake)) return issue(s, sm, sp, sw, now);
    }
    return true;
}

/* After an evaluation that found sw cannot issue: a warp that waits on
 * its own registers or fetch, at a barrier, or for its memory to drain
 * leaves eval until that changes; the others give the cycle they may
 * change. */
static uint64_t file_waiting(ws_subpart *sp, ws_sm_warp *sw, uint64_t now, uint64_t wake)
{
    if (sw->at_pipe) return wake;       /* ready but for its pipe (no need to read the warp) */
    uint8_t state = sw->wstate;
    uint64_t until = sp->until[sw->bit];
    if (state == WS_WARP_READY && until <= now) return wake;
    sp->eval &= ~BIT(sw);
    if (state == WS_WARP_DONE) {
        sp->draining |= BIT(sw);
        sp->drain_min = min64(sp->drain_min, ws_sm_drained_at(sp, sw->bit));
    } else if (state == WS_WARP_BARRIER) {
        sp->parked |= BIT(sw);
    } else if (until >= WS_WINDOW_PENDING) {
        sp->held |= BIT(sw);
    } else {
        sp->blocked |= BIT(sw);
        sp->blocked_min = min64(sp->blocked_min, until);
    }
    return WS_NEVER;
}

/* Sub-partition p's cycle: the warps in eval evaluated, one picked and
 * issued.  Returns false on a fault; *next: the earliest cycle an
 * evaluated warp may change. */
static bool subpart_cycle(ws_tsim *s, ws_sm *sm, uint32_t p, uint64_t now, uint64_t *next, bool *issued)
{
    ws_subpart *sp = &sm->sp[p];
    if (sp->blocked_min <= now) unblock(sp, now);
    /* The warps found ready but for their pipe, a pipe's set at once: each
     * is ready while its pipe is free and waits for it (its throttle) while
     * busy, as pipe_ready would find it.  Their reason is either not
     * selected or their throttle (the throttled set), so only a warp whose
     * reason changes is touched: a warp at a free pipe not picked stays
     * there cycle after cycle. */
    uint64_t ready = 0, at_pipes = 0;
    for (uint32_t used = sp->pipes_used; used; used &= used - 1) {
        uint32_t q = (uint32_t)__builtin_ctz(used);
        uint64_t set = sp->at_pipe[q] & sp->eval;
        if (!set) continue;
        at_pipes |= set;
        uint64_t wake = sp->pipe_free[q];
        if (wake <= now && q == WS_PIPE_LSU) wake = lsu_free(s, sm, now);
        if (wake > now) {
            for (uint64_t m = set & ~sp->throttled; m; m &= m - 1) {
                ws_sm_warp *sw = slot_of(sm, p, (uint32_t)__builtin_ctzll(m));
                count_reason(sm, sw, sw->throttle);
            }
            sp->throttled |= set;       /* long_wait: already clear for them */
            *next = min64(*next, wake);
        } else {
            for (uint64_t m = set & sp->throttled; m; m &= m - 1)
                count_reason(sm, slot_of(sm, p, (uint32_t)__builtin_ctzll(m)), WS_STALL_NOT_SELECTED);
            ready |= set;
        }
    }
    for (uint64_t m = sp->eval & ~at_pipes; m; m &= m - 1) {
        ws_sm_warp *sw = slot_of(sm, p, (uint32_t)__builtin_ctzll(m));
        uint64_t wake = WS_NEVER;
        if (can_issue(s, sm, sp, sw, now, &wake)) {
            ready |= BIT(sw);
            count_reason(sm, sw, WS_STALL_NOT_SELECTED);
        } else {
            *next = min64(*next, file_waiting(sp, sw, now, wake));
        }
    }
    /* the ready warps' sets as set_short_reason would leave them (not
     * selected is neither long_scoreboard nor a throttle), at once */
    sp->long_wait &= ~ready;
    sp->throttled &= ~ready;
    /* none ready: the scheduler would pick none and keep its last (two_level
     * still reorders its list, so it is asked) */
    if (!ready && sp->sched.policy != WS_SCHED_TWO_LEVEL) return true;
    int32_t j = ws_sched_pick_next(&sp->sched, ready, sp->age, sp->long_wait);
    if (j < 0) return true;
    ws_sm_warp *sw = slot_of(sm, p, (uint32_t)j);
    count_reason(sm, sw, WS_STALL_SELECTED);     /* its sets: as not selected left them */
    *issued = true;
    return issue(s, sm, sp, sw, now);
}

/* Adds the cycles [now, now + weight) of sm's warps to the counters: every
 * warp keeps its reason until the SM's next cycle. */
static void count_cycles(ws_tsim *s, ws_sm *sm, uint64_t weight)
{
    ws_timing_stats *ts = s->ts;
    if (weight == 1)    /* the usual step: adds the compiler vectorizes (no 64-bit multiply in SSE2) */
        for (uint32_t r = 0; r < WS_STALL_COUNT; r++) ts->stall[r] += sm->nreason[r];
    else
        for (uint32_t r = 0; r < WS_STALL_COUNT; r++) ts->stall[r] += (uint64_t)sm->nreason[r] * weight;
    if (sm->live) {
        ts->sm_active_cycles += weight;
        ts->warp_cycles += (uint64_t)sm->live * weight;
        ts->issue_slots += (uint64_t)sm->nsp * weight;
    }
}

void ws_sm_catch_up(ws_tsim *s, ws_sm *sm, uint64_t now)
{
    sm->pcc = s->x.l->pc_counts;
    if (sm->counted_to < now && sm->live) count_cycles(s, sm, now - sm->counted_to);
    if (sm->counted_to < now) sm->counted_to = now;
}

bool ws_sm_cycle(ws_tsim *s, ws_sm *sm, uint64_t now)
{
    uint64_t next = WS_NEVER;
    bool issued = false;
    ws_sm_catch_up(s, sm, now);
    if (sm->window_end) ws_lsu_cycle_begin(&sm->lsu_q);
    s->ts->sm_steps++;
    for (uint32_t p = 0; p < sm->nsp; p++)
        if (!subpart_cycle(s, sm, p, now, &next, &issued)) return false;
    /* waiting warps wake at their set's earliest time */
    for (uint32_t p = 0; p < sm->nsp; p++) {
        const ws_subpart *sp = &sm->sp[p];
        next = min64(next, min64(sp->blocked_min, sp->drain_min));
        if (sp->held) next = min64(next, WS_WINDOW_PENDING);
    }
    if (issued || next <= now) next = now + 1;
    /* the counters up to the next cycle; in a window, no further than its
     * end, which may move the next cycle earlier (ws_sm_window_settled) */
    uint64_t upto = next == WS_NEVER ? now + 1 : next;
    if (sm->window_end && upto > sm->window_end) upto = sm->window_end;
    count_cycles(s, sm, upto - now);
    sm->counted_to = upto;
    sm->next = next;
    return ws_sm_waits_for_something(s, sm);
}

void ws_sm_credit_lines(ws_tsim *s, ws_sm *sm)
{
    sm->pcc = s->x.l->pc_counts;
    for (uint32_t i = 0; sm->pcc && i < sm->nslots; i++)
        if (sm->slots[i].w) credit_line(sm, &sm->slots[i]);
}

bool ws_sm_waits_for_something(ws_tsim *s, const ws_sm *sm)
{
    if (!sm->live || sm->next != WS_NEVER) return true;
    ws_error_set(s->x.err, WS_ERR_KERNEL_FAULT, "internal error: SM %d has warps but nothing to wait for", sm->id);
    return false;
}

void ws_sm_window_settled(ws_sm *sm, uint64_t end)
{
    uint64_t next = sm->next >= WS_WINDOW_PENDING ? WS_NEVER : sm->next;
    for (uint32_t p = 0; p < sm->nsp; p++) {
        ws_subpart *sp = &sm->sp[p];
        if (sp->held) {     /* their registers' times are known now */
            sp->eval |= sp->held;
            sp->held = 0;
            next = min64(next, end);
        }
        uint64_t t = WS_NEVER;
        for (uint64_t m = sp->blocked; m; m &= m - 1)
            t = min64(t, sp->until[__builtin_ctzll(m)]);
        sp->blocked_min = t;
        sp->drain_min = drain_min(sp);
        next = min64(next, min64(t, sp->drain_min));
    }
    sm->next = next;
}
