/* The SM's load/store path in time: shared-memory banks, constant cache,
 * L1 and what lies behind it (l2_dram.h).
 *
 * The L1 data stage serves one wavefront per cycle for the whole SM: a
 * shared access (an atomic too) takes as many as the bank rule gives it
 * passes (shared_banks.h), a global
 * or local access one per 128 B line it touches.  A shared load's data is
 * ready latencySharedLoad cycles after its last pass starts; so a d-way
 * conflict costs d - 1 cycles more than none, and holds the stage d
 * cycles.  Global and local sectors go to L1 and, on a miss, to L2 and
 * DRAM.  Each sub-partition's constant cache serves one distinct address
 * per cycle (broadcast to the lanes that share it) and is assumed to hit;
 * kernel parameters are constant-bank operands and cost only the latency. */
#include "sm.h"

#include <stdlib.h>

#include "sass_groups.h"
#include "../base/cpu_relax.h"
#include "../trace/trace.h"
#include "../mem/coalescer.h"
#include "../mem/shared_banks.h"

#define LOCAL_BASE (UINT64_C(1) << 56)

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The L1 data stage from now for n wavefronts: the cycle it starts. */
static uint64_t l1_stage(ws_tsim *s, ws_sm *sm, uint64_t now, uint32_t n)
{
    uint64_t start = max64(now, sm->l1_free);
    sm->l1_free = start + n;
    s->ts->l1_wavefronts += n;
    return start;
}

/* A shared access holds the L1 data stage for the wavefronts the bank rule
 * gives it.  An atomic is charged the same: 32 lanes adding to one word
 * are one wavefront, as the H200 counts them
 * (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom), not 32 passes. */
static uint64_t shared_access(ws_tsim *s, ws_sm *sm, const ws_mem_resolved *res, const uint64_t *off,
                              uint32_t mask, uint32_t size, bool load, uint64_t now)
{
    ws_bank_access own;
    const ws_bank_access *b = ws_resolved_banks(res, off, mask, size, load, &own);
    uint32_t passes = b->wavefronts ? b->wavefronts : 1;
    uint64_t start = l1_stage(s, sm, now, passes);
    return start + passes - 1 + s->lat_shared;
}

/* For each of co's sectors, the most lanes of mask that share one address
 * in it: the operations an atomic's request for that sector serializes on
 * (serial[i]), and their sum, the passes the atomic takes through the L1
 * data stage: the SM sends a sector's request once per such operation, so
 * 4 addresses in 4 sectors, 8 lanes each, take 32 passes and 32 lanes
 * on 32 addresses of one line take 4 (validation/results/h200_microbench.txt:
 * 31.9 and 5.0 cycles a warp instruction on an H200's SM). */
static uint32_t atomic_serials(const uint64_t *addr, uint32_t mask, const ws_coalesce *co, uint32_t *serial)
{
    /* the lanes' distinct addresses and how many lanes share each (a
     * histogram's few bins) */
    uint64_t at[WS_WARP_SIZE];
    uint32_t lanes[WS_WARP_SIZE], passes = 0;
    uint32_t n = ws_distinct_lanes(addr, mask, at, lanes);
    for (uint32_t i = 0; i < co->sectors; i++) {
        serial[i] = 1;
        for (uint32_t j = 0; j < n; j++)
            if (at[j] / WS_SECTOR_BYTES == co->sector[i] && lanes[j] > serial[i]) serial[i] = lanes[j];
        passes += serial[i];
    }
    return passes;
}

/* What a load does in L1, by its cache operator (PTX ISA, "Cache
 * Operators"): .ca (the default) and ld.global.nc (the read-only path,
 * through L1 on sm_80 and later) allocate; .cs (streaming) and .lu (last
 * use, a .cs on global addresses) allocate as the first to evict, as does
 * .L1::evict_first; .L1::no_allocate does not allocate; .cg (cache in L2,
 * not L1) and .cv (don't cache, fetch again) are served by L2, and so is
 * ld.volatile, a relaxed load at system scope since sm_70 that the
 * non-coherent L1 cannot answer. */
static ws_l1_policy l1_policy(const ws_insn *in)
{
    if (in->m.flags & PTX_F_VOLATILE) return WS_L1_BYPASS;
    switch (in->m.cache) {
    case PTX_CACHE_CG: case PTX_CACHE_CV: return WS_L1_BYPASS;
    case PTX_CACHE_CS: case PTX_CACHE_LU: case PTX_CACHE_L1_EVICT_FIRST: return WS_L1_EVICT_FIRST;
    case PTX_CACHE_L1_NO_ALLOCATE: return WS_L1_NO_ALLOCATE;
    default: return WS_L1_ALLOCATE;
    }
}

bool ws_lsu_queue_init(ws_lsu_queue *q, uint32_t nsp)
{
    q->alloc = WS_LSU_INSN_ENTRIES;     /* room for one instruction (ws_lsu_storage_room) */
    q->depalloc = q->reqalloc = WS_LSU_INSN_REQUESTS;
    q->a = malloc(sizeof *q->a * q->alloc);
    q->req = malloc(sizeof *q->req * q->reqalloc);
    q->dep = malloc(sizeof *q->dep * q->depalloc);
    ws_lsu_queue_init_on(q, nsp);
    return q->a && q->req && q->dep;
}

void ws_lsu_queue_init_on(ws_lsu_queue *q, uint32_t nsp)
{
    q->cap = nsp * WS_LSU_ENTRIES_PER_SUBPART;
    q->reqcap = nsp * WS_LSU_INSN_REQUESTS;
    q->n = q->nreq = q->ndep = q->n0 = q->nreq0 = q->ndep0 = q->natomic = 0;
    q->full = q->oom = false;
    atomic_init(&q->lock, false);
}

/* The storage for need elements: twice as many as before, until enough. */
static uint32_t grown(uint32_t alloc, uint32_t need)
{
    uint32_t n = alloc ? alloc : 16;
    while (n < need) n *= 2;
    return n;
}

#define GROW(arr, alloc, need) do { \
        if ((need) > (alloc)) { \
            uint32_t n_ = grown(alloc, need); \
            void *a_ = realloc(arr, sizeof *(arr) * n_); \
            if (!a_) return false; \
            (arr) = a_; \
            (alloc) = n_; \
        } \
    } while (0)

static bool grow(ws_lsu_queue *q)
{
    GROW(q->a, q->alloc, q->n + WS_LSU_INSN_ENTRIES);
    GROW(q->req, q->reqalloc, q->nreq + WS_LSU_INSN_REQUESTS);
    GROW(q->dep, q->depalloc, q->ndep + WS_LSU_INSN_REQUESTS);
    return true;
}

bool ws_lsu_queue_grow(ws_lsu_queue *q)
{
    ws_lsu_queue_lock(q);
    bool ok = grow(q);
    ws_lsu_queue_unlock(q);
    return ok;
}

void ws_lsu_queue_lock(ws_lsu_queue *q)
{
    while (atomic_exchange_explicit(&q->lock, true, memory_order_acquire))
        while (atomic_load_explicit(&q->lock, memory_order_relaxed)) ws_cpu_relax();
}

void ws_lsu_queue_unlock(ws_lsu_queue *q)
{
    atomic_store_explicit(&q->lock, false, memory_order_release);
}

void ws_lsu_queue_clear(ws_lsu_queue *q)
{
    q->n = q->nreq = q->ndep = q->n0 = q->nreq0 = q->ndep0 = q->natomic = 0;
    q->full = false;
}

void ws_lsu_queue_free(ws_lsu_queue *q)
{
    free(q->a);
    free(q->req);
    free(q->dep);
    q->a = NULL;
    q->req = NULL;
    q->dep = NULL;
}

/* The L2 and DRAM part of a sector request: the cycle L2 answers. */
static uint64_t l2_answer(ws_tsim *s, const ws_l2_request *r)
{
    if (r->op == WS_I_LD) return ws_l2_read(s->l2, r->sector, r->start);
    if (r->op == WS_I_ST) return ws_l2_write(s->l2, r->sector, r->first, r->start);
    return ws_l2_atomic(s->l2, r->sector, r->serial, r->start);
}

/* sw's last memory access completes no earlier than t (its mem_done). */
static void note_mem_done(ws_sm *sm, const ws_sm_warp *sw, uint64_t t)
{
    uint64_t *done = &sm->sp[sw->spi].mem_done[sw->bit];
    *done = max64(*done, t);
}

/* One access's sectors through L1, of an instruction issued at now, from
 * the cycle start its L1 data-stage passes begin, as an entry of the SM's
 * queue: what goes on to L2 (load misses, stores, atomics) becomes its
 * requests, and a load's miss fills L1 with a time still to come
 * (WS_L1_PENDING + its request's index), which a later hit in the cycle
 * (window) waits for (a dep).  serial: per sector, atomics only.  Returns
 * the cycle the access is ready at the earliest (its L1 hits), or in a
 * window WS_WINDOW_PENDING when it waits for L2. */
static uint64_t queue_access(ws_sm *sm, ws_sm_warp *sw, int32_t pc, const uint64_t *sector,
                             const uint32_t *serial, uint32_t n, int op, ws_l1_policy policy, uint64_t now,
                             uint64_t start)
{
    ws_lsu_queue *q = &sm->lsu_q;
    ws_lsu_pending e = {.sw = sw, .pc = pc, .lead_reg = -1, .cycle = now, .first_req = q->nreq,
                        .first_dep = q->ndep};
    uint64_t ready = start;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t sec = sector[i], r;
        ws_l2_request req = {.sector = sec, .start = start, .op = (uint8_t)op};
        if (op == WS_I_LD) {
            if (ws_l1_load(&sm->l1, sec, start, policy, &r)) {
                if (r >= WS_L1_PENDING) {       /* on its way from an L2 request of this cycle (window) */
                    q->dep[q->ndep++] = (uint32_t)(r - WS_L1_PENDING);
                    r = start + sm->l1.latency;
                }
                ready = max64(ready, r);
                continue;
            }
            ws_l1_fill(&sm->l1, sec, WS_L1_PENDING + q->nreq, policy);
        } else if (op == WS_I_ST) {
            ws_l1_store(&sm->l1, sec, start);
            req.first = i == 0 || sector[i - 1] / WS_SECTORS_PER_LINE != sec / WS_SECTORS_PER_LINE;
        } else {
            ws_l1_atomic(&sm->l1, sec);
            req.serial = serial[i];
            q->natomic++;
        }
        q->req[q->nreq++] = req;
    }
    e.known = ready;
    e.nreq = q->nreq - e.first_req;
    e.ndep = q->ndep - e.first_dep;
    /* in a window what waits for L2 is known at its end, which no answer
     * comes before (the window is no longer than an L2 hit's latency) */
    e.wait = sm->window_end && (e.nreq || e.ndep);
    sm->sp[sw->spi].npending[sw->bit] += e.wait;
    q->a[q->n++] = e;
    q->full = !ws_lsu_room(q);
    note_mem_done(sm, sw, ready);
    return e.wait ? WS_WINDOW_PENDING : ready;
}

static uint64_t global_access(ws_tsim *s, ws_sm *sm, ws_sm_warp *sw, int32_t pc, const ws_mem_resolved *res,
                              const uint64_t *addr, uint32_t mask, uint32_t size, int op,
                              ws_l1_policy policy, uint64_t now)
{
    ws_coalesce own;
    const ws_coalesce *co = ws_resolved_coalesce(res, addr, mask, size, &own);
    if (co->sectors == 0) return now + 1;
    uint32_t serial[WS_COALESCE_MAX_SECTORS], wavefronts = co->lines ? co->lines : 1;
    if (op == WS_I_ATOM) wavefronts = atomic_serials(addr, mask, co, serial);
    uint64_t start = l1_stage(s, sm, now, wavefronts);
    return queue_access(sm, sw, pc, co->sector, serial, co->sectors, op, policy, now, start);
}

/* The L2's answers to queue entry k's requests, in the order they were
 * made (the L2 is the GPU's: one thread, in the order of docs/THREADS.md). */
static void answer(ws_tsim *s, ws_lsu_queue *q, ws_pc_counts *pcc, uint32_t k)
{
    const ws_lsu_pending *e = &q->a[k];
    if (e->lead_reg >= 0) return;
    uint64_t l2_lookups = s->l2->count.lookups, l2_hits = s->l2->count.hits;
    for (uint32_t j = e->first_req; j < e->first_req + e->nreq; j++) q->req[j].done = l2_answer(s, &q->req[j]);
    if (pcc) {      /* the L2 counters this access moved: its pc's share */
        pcc[e->pc].l2_sectors += s->l2->count.lookups - l2_lookups;
        pcc[e->pc].l2_hit_sectors += s->l2->count.hits - l2_hits;
    }
}

/* Queue entry k of sm once its requests are answered: a load's answers
 * settle the L1 fills it made, and its destination registers get the
 * cycle its data is ready (the SM's own state: its thread may do it). */
static void finish(ws_tsim *s, ws_sm *sm, uint32_t k)
{
    ws_lsu_queue *q = &sm->lsu_q;
    const ws_lsu_pending *e = &q->a[k];
    ws_sm_warp *sw = e->sw;
    uint64_t ready = e->known;
    if (e->lead_reg >= 0) {
        ready = sw->ready[e->lead_reg];
    } else {
        for (uint32_t j = e->first_req; j < e->first_req + e->nreq; j++) {
            const ws_l2_request *r = &q->req[j];
            if (r->op == WS_I_LD) ws_l1_settle(&sm->l1, r->sector, WS_L1_PENDING + j, r->done);
            ready = max64(ready, r->done);
        }
        /* the L1 hits wait for earlier requests, answered by now */
        for (uint32_t j = 0; j < e->ndep; j++) ready = max64(ready, q->req[q->dep[e->first_dep + j]].done);
        note_mem_done(sm, sw, ready);
    }
    const ws_insn_deps *d = &s->deps[e->pc];
    for (uint32_t i = 0; i < d->ndst; i++) {
        uint64_t *r = &sw->ready[d->dst[i]];
        *r = *r >= WS_WINDOW_PENDING ? ready : max64(*r, ready);
    }
    if (e->wait) {      /* its warp sees the times from now on */
        sm->sp[sw->spi].npending[sw->bit]--;
        sw->opnd_pc = -1;
    }
    ws_sm_note_drain(sm, sw);
    if (e->trace) {     /* in a window its event was issued with WS_WINDOW_PENDING */
        uint64_t *done = &sm->trace_ev[e->trace - 1].done;
        if (*done >= WS_WINDOW_PENDING || *done < ready) *done = ready;
    }
}

static ws_pc_counts *pc_counts(ws_tsim *s)
{
    return s->x.l && s->x.l->pc_counts ? s->x.l->pc_counts : NULL;
}

void ws_sm_end_cycle(ws_tsim *s, ws_sm *sm)
{
    ws_lsu_queue *q = &sm->lsu_q;
    ws_pc_counts *pcc = pc_counts(s);
    for (uint32_t k = 0; k < q->n; k++) {
        answer(s, q, pcc, k);
        finish(s, sm, k);
    }
    ws_lsu_queue_clear(q);
    for (uint32_t i = 0; i < sm->ntrace_ev; i++) ws_trace_issue(s->trace, &sm->trace_ev[i]);
    sm->ntrace_ev = 0;
}

void ws_sm_answer(ws_tsim *s, ws_sm *sm, uint32_t *k, uint64_t cycle)
{
    ws_sm_answer_of(s, sm, k, cycle, sm->lsu_q.n);
}

uint64_t ws_sm_answer_of(ws_tsim *s, ws_sm *sm, uint32_t *k, uint64_t cycle, uint32_t n)
{
    ws_lsu_queue *q = &sm->lsu_q;
    ws_pc_counts *pcc = pc_counts(s);
    for (; *k < n && q->a[*k].cycle == cycle; ++*k) answer(s, q, pcc, *k);
    return *k < n ? q->a[*k].cycle : WS_NEVER;
}

void ws_sm_finish_answered(ws_tsim *s, ws_sm *sm, uint32_t n)
{
    for (uint32_t k = 0; k < n && k < sm->lsu_q.n; k++) finish(s, sm, k);
}

void ws_sm_window_finish(ws_tsim *s, ws_sm *sm)
{
    ws_lsu_queue *q = &sm->lsu_q;
    for (uint32_t k = 0; k < q->n; k++) finish(s, sm, k);
    ws_lsu_queue_clear(q);
    ws_sm_window_settled(sm, sm->window_end);
}

/* One warp-wide access (addr[lane] for the lanes in mask) of a memory
 * instruction: the cycle its data is ready. */
/* The lanes of a generic or local access split by the space each
 * address falls in: shared offsets into off, the global addresses local
 * memory and global memory take into gaddr. */
static void split_lanes(const ws_tsim *s, const ws_sm_warp *sw, const ws_step_info *info, const uint64_t *addr,
                        uint64_t *off, uint32_t *smask, uint64_t *gaddr, uint32_t *gmask)
{
    for (uint32_t m = info->mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = addr[lane], o = a;
        int space = info->space;
        if (space == WS_SP_GENERIC) {
            ws_generic_space g = ws_generic_classify(a, &o);
            space = g == WS_GEN_SHARED ? WS_SP_SHARED : g == WS_GEN_LOCAL ? WS_SP_LOCAL : WS_SP_GLOBAL;
        }
        if (space == WS_SP_SHARED) {
            off[lane] = o;
            *smask |= UINT32_C(1) << lane;
        } else {
            /* local memory interleaves threads word by word, as the
             * hardware lays it out, so equal offsets coalesce */
            gaddr[lane] = space == WS_SP_LOCAL
                ? LOCAL_BASE + ((o / 4 * s->grid_warps + sw->gwarp) * WS_WARP_SIZE + (uint64_t)lane) * 4 + o % 4
                : a;
            *gmask |= UINT32_C(1) << lane;
        }
    }
}

static uint64_t one_access(ws_tsim *s, ws_sm *sm, ws_sm_warp *sw, const ws_insn *in,
                           const ws_step_info *info, const ws_mem_resolved *res, const uint64_t *addr,
                           uint32_t size, uint64_t now, uint8_t *kind)
{
    /* a shared or global access's lanes are all in its space, at their
     * addresses; a generic or local one's are split */
    uint64_t off_lanes[WS_WARP_SIZE], gaddr_lanes[WS_WARP_SIZE];
    const uint64_t *off = addr, *gaddr = addr;
    uint32_t smask = 0, gmask = 0;
    if (info->space == WS_SP_SHARED) {
        smask = info->mask;
    } else if (info->space == WS_SP_GLOBAL) {
        gmask = info->mask;
    } else {
        split_lanes(s, sw, info, addr, off_lanes, &smask, gaddr_lanes, &gmask);
        off = off_lanes;
        gaddr = gaddr_lanes;
    }
    int op = in->cls == WS_I_ATOM ? WS_I_ATOM : info->store ? WS_I_ST : WS_I_LD;
    uint64_t ready = now + 1;
    if (smask) {
        uint64_t r = shared_access(s, sm, res, off, smask, size, op == WS_I_LD, now);
        note_mem_done(sm, sw, r);
        ready = max64(ready, r);
    }
    if (gmask) {
        ready = max64(ready, global_access(s, sm, sw, info->pc, res, gaddr, gmask, size, op, l1_policy(in), now));
        *kind = WS_STALL_LONG_SCOREBOARD;
    }
    return ready;
}

uint64_t ws_sm_memory(ws_tsim *s, ws_sm *sm, ws_subpart *sp, ws_sm_warp *sw, const ws_insn *in,
                      const ws_step_info *info, uint64_t now, uint8_t *kind)
{
    *kind = WS_STALL_SHORT_SCOREBOARD;
    if (!info->mem || !info->mask) return now + 1;   /* fence, membar, wmma.mma, or no lane active */
    uint32_t mask = info->mask;
    /* kernel parameters are constant-bank operands: the latency, no port */
    if (info->space == WS_SP_PARAM) return now + s->lat_const;
    if (in->m.space == PTX_SPACE_CONST) {
        uint32_t n = ws_distinct_addresses(info->addr, mask);
        uint64_t start = max64(now, sp->const_free);
        sp->const_free = start + n;
        return start + n - 1 + s->lat_const;
    }
    /* the queue's storage, before this instruction adds to it (the caller
     * stops the launch on oom) */
    if (!ws_lsu_storage_room(&sm->lsu_q)) {
        sm->lsu_q.oom = true;
        return now + 1;
    }
    /* --sass: where ptxas merged several accesses into one wide one
     * (sass_groups.h), the group's leader makes it with its own addresses
     * and the group's bytes per lane; the followers make no request, and
     * their registers are ready with the leader's */
    uint32_t size = info->size;
    const ws_program *p = s->x.p;
    if (p && p->sass_group && p->sass_group[info->pc]) {
        uint8_t g = p->sass_group[info->pc];
        if (g == WS_SASS_MERGED) {
            const ws_insn_deps *lead = &s->deps[p->sass_lead[info->pc]];
            if (!lead->ndst) return now + 1;
            *kind = sw->kind[lead->dst[0]];
            /* the leader's time may be known only at the end of the cycle (window) */
            bool wait = sw->ready[lead->dst[0]] >= WS_WINDOW_PENDING;
            sp->npending[sw->bit] += wait;
            sm->lsu_q.a[sm->lsu_q.n++] = (ws_lsu_pending){.sw = sw, .pc = info->pc, .lead_reg = lead->dst[0],
                                                          .wait = wait, .cycle = now,
                                                          .first_req = sm->lsu_q.nreq,
                                                          .first_dep = sm->lsu_q.ndep};
            sm->lsu_q.full = !ws_lsu_room(&sm->lsu_q);
            return max64(now + 1, sw->ready[lead->dst[0]]);
        }
        size *= g;
    }
    /* a wmma.load or wmma.store makes several accesses, one after another
     * through the L1 data stage; the registers are ready with the last */
    uint64_t ready = now + 1;
    uint64_t l1_lookups = sm->l1.lookups, l1_hits = sm->l1.hits;
    const ws_mem_resolved *res = ws_step_resolved(info, in);     /* the first access's, from the executor */
    for (uint32_t k = 0; k < info->naccess; k++)
        ready = max64(ready, one_access(s, sm, sw, in, info, k == 0 ? res : NULL,
                                        info->addr + (size_t)k * WS_WARP_SIZE, size, now, kind));
    /* the L1 counters moved by this instruction alone: its pc's share (the
     * L2's are counted at the end of the cycle) */
    ws_pc_counts *pcc = s->x.l && s->x.l->pc_counts ? &s->x.l->pc_counts[info->pc] : NULL;
    if (pcc) {
        pcc->l1_sectors += sm->l1.lookups - l1_lookups;
        pcc->l1_hit_sectors += sm->l1.hits - l1_hits;
    }
    return ready;
}
