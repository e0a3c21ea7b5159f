/* One SM: block residency, the scoreboard, pipes and issue. */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

#include "block_sync.h"
#include "sass_groups.h"
#include "../mem/coalescer.h"
#include "../mem/shared_banks.h"
#include "trace_issue.h"
#include "../trace/issue_timeline.h"

bool ws_sm_init(ws_tsim *s, ws_sm *sm, int32_t id)
{
    const ws_gpu_config *g = s->g;
    sm->id = id;
    sm->nsp = (uint32_t)g->subPartitionsPerMultiprocessor;
    sm->nblocks = (uint32_t)s->disp.occ.blocks_per_sm;
    sm->nslots = sm->nblocks * s->nwarps;
    sm->slots = calloc(sm->nslots, sizeof *sm->slots);
    sm->blocks = calloc(sm->nblocks, sizeof *sm->blocks);
    sm->sp = calloc(sm->nsp, sizeof *sm->sp);
    if (!sm->slots || !sm->blocks || !sm->sp || !ws_l1_init(&sm->l1, g)) return false;
    for (uint32_t i = 0; i < sm->nsp; i++)
        ws_sched_init(&sm->sp[i].sched, s->policy, (sm->nslots + sm->nsp - 1 - i) / sm->nsp,
                      s->two_level_active);
    sm->ready_to_run = true;
    return true;
}

void ws_sm_free(ws_tsim *s, ws_sm *sm)
{
    for (uint32_t i = 0; sm->blocks && i < sm->nblocks; i++) {
        ws_sm_block *b = &sm->blocks[i];
        for (uint32_t w = 0; b->b.warps && w < s->nwarps; w++) ws_warp_free(&b->b.warps[w]);
        free(b->b.warps); free(b->regs); free(b->ready); free(b->kind);
        free(b->b.shared); free(b->b.local); free(b->b.tparam);
        ws_race_free(&b->b.race);
        ws_init_free(&b->b.init);
    }
    if (sm->ready_to_run) ws_l1_free(&sm->l1);
    free(sm->slots); free(sm->blocks); free(sm->sp);
}

static bool block_storage(ws_tsim *s, ws_sm_block *b)
{
    const ws_program *p = s->x.p;
    size_t nr = (size_t)p->nregs * s->nwarps;
    b->b.warps = calloc(s->nwarps, sizeof *b->b.warps);
    b->regs = malloc(sizeof *b->regs * (nr ? nr : 1));
    b->ready = malloc(sizeof *b->ready * (nr ? nr : 1));
    b->kind = malloc(nr ? nr : 1);
    b->b.shared = malloc(s->smem ? s->smem : 1);
    b->b.local = malloc((size_t)p->local_size * s->nthreads + 1);
    b->b.tparam = malloc((size_t)p->tparam_size * s->nthreads + 1);
    return b->b.warps && b->regs && b->ready && b->kind && b->b.shared && b->b.local && b->b.tparam;
}

bool ws_sm_start_block(ws_tsim *s, ws_sm *sm, uint64_t block, uint64_t now)
{
    if (!sm->ready_to_run && !ws_sm_init(s, sm, sm->id)) return false;
    uint32_t bs = 0;
    while (bs < sm->nblocks && sm->blocks[bs].used) bs++;
    if (bs == sm->nblocks) return false;
    ws_sm_block *b = &sm->blocks[bs];
    if (!b->b.warps && !block_storage(s, b)) return false;
    const ws_launch *l = s->x.l;
    const ws_program *p = s->x.p;
    size_t nr = (size_t)p->nregs * s->nwarps;
    b->used = true;
    b->running = s->nwarps;
    s->x.blocks_started++;
    b->b.idx = (ws_dim3){(uint32_t)(block % l->grid.x), (uint32_t)(block / l->grid.x % l->grid.y),
                         (uint32_t)(block / ((uint64_t)l->grid.x * l->grid.y))};
    b->b.nthreads = s->nthreads;
    b->b.nwarps = s->nwarps;
    b->b.smid = (uint32_t)sm->id;
    b->b.warpid0 = bs * s->nwarps;      /* its warps' slots on the SM */
    b->b.shared_size = s->smem;
    memset(b->regs, 0, sizeof *b->regs * nr);
    memset(b->ready, 0, sizeof *b->ready * nr);
    memset(b->kind, 0, nr);
    memset(b->b.shared, 0, s->smem);
    if ((l->checks & WS_CHECK_RACE) && !ws_race_begin(&b->b.race, s->smem)) return false;
    if ((l->checks & WS_CHECK_INIT) && !ws_init_begin(&b->b.init, s->smem)) return false;
    memset(b->b.local, 0, (size_t)p->local_size * s->nthreads);
    memset(b->b.tparam, 0, (size_t)p->tparam_size * s->nthreads);
    for (uint32_t wi = 0; wi < s->nwarps; wi++) {
        uint32_t n = s->nthreads - wi * WS_WARP_SIZE;
        uint32_t lanes = n >= WS_WARP_SIZE ? UINT32_MAX : (UINT32_C(1) << n) - 1;
        ws_warp *w = &b->b.warps[wi];
        w->regs = b->regs + (size_t)wi * p->nregs;
        if (!ws_warp_start(&s->x, w, wi, lanes)) return false;
        ws_sm_warp *sw = &sm->slots[bs * s->nwarps + wi];
        *sw = (ws_sm_warp){
            .w = w, .block = (int32_t)bs, .live = true, .age = block * s->nwarps + wi,
            .gwarp = block * s->nwarps + wi,
            .ready = b->ready + (size_t)wi * p->nregs, .kind = b->kind + (size_t)wi * p->nregs,
            .next_issue = now, .mem_done = now, .fetch_reason = WS_STALL_WAIT, .opnd_pc = -1, .stall_pc = -1,
        };
    }
    sm->live += s->nwarps;
    s->x.stats->blocks++;
    s->x.stats->warps += s->nwarps;
    if (sm->next > now) sm->next = now;
    return true;
}

/* Warps that are done and drained leave; a block whose warps all left
 * frees its slot, and the dispatcher fills it at once. */
static bool retire(ws_tsim *s, ws_sm *sm, uint64_t now)
{
    bool freed = false;
    for (uint32_t i = 0; sm->finished && i < sm->nslots; i++) {
        ws_sm_warp *sw = &sm->slots[i];
        if (!sw->live || !sw->finished || sw->mem_done > now) continue;
        sw->live = false;
        sm->live--;
        sm->finished--;
        ws_sm_block *b = &sm->blocks[sw->block];
        if (--b->running == 0) {
            b->used = false;
            for (uint32_t w = 0; w < s->nwarps; w++) sm->slots[(uint32_t)sw->block * s->nwarps + w].w = NULL;
            ws_dispatcher_retire(&s->disp, sm->id);
            s->x.blocks_done++;
            if (now > s->end) s->end = now;
            freed = true;
        }
    }
    for (int64_t blk; freed && (blk = ws_dispatcher_place(&s->disp, sm->id)) >= 0;)
        if (!ws_sm_start_block(s, sm, (uint64_t)blk, now)) {
            ws_error_set(s->x.err, WS_ERR_NO_MEMORY, "out of memory");
            return false;
        }
    return true;
}

static bool is_branch(const ws_insn *in)
{
    return in->cls == WS_I_BRA || in->cls == WS_I_CALL || in->cls == WS_I_RET;
}

/* Whether sw can issue at now; if not, its stall reason and the cycle it
 * may change (*wake). */
static bool can_issue(ws_tsim *s, ws_sm *sm, ws_subpart *sp, ws_sm_warp *sw, uint64_t now,
                      uint64_t *wake)
{
    ws_warp *w = sw->w;
    sw->blocked_until = 0;
    if (w->state == WS_WARP_DONE) {
        sw->reason = WS_STALL_DRAIN;
        *wake = sw->mem_done;
        return false;
    }
    if (w->state == WS_WARP_BARRIER) {
        sw->reason = WS_STALL_BARRIER;
        *wake = WS_NEVER;
        return false;
    }
    if (sw->next_issue > now) {
        sw->reason = sw->fetch_reason;
        *wake = sw->blocked_until = sw->next_issue;
        return false;
    }
    int32_t pc = ws_warp_next_pc(w);
    if (pc < 0) {      /* no lanes left: the executor retires it */
        *wake = now;
        return true;
    }
    sw->stall_pc = pc;
    const ws_insn_deps *d = &s->deps[pc];
    /* Only the warp's own issues move its registers' ready times, so the
     * answer for one pc holds until the warp issues again. */
    if (sw->opnd_pc != pc) {
        uint64_t t = 0;
        uint8_t why = WS_STALL_WAIT;
        for (uint32_t i = 0; i < d->nsrc + d->ndst; i++) {
            int32_t r = i < d->nsrc ? d->src[i] : d->dst[i - d->nsrc];
            if (sw->ready[r] > t) { t = sw->ready[r]; why = sw->kind[r]; }
        }
        sw->opnd_pc = pc;
        sw->opnd_ready = t;
        sw->opnd_why = why;
    }
    uint64_t t = sw->opnd_ready;
    uint8_t why = sw->opnd_why;
    if (t > now) {
        sw->reason = why;
        *wake = sw->blocked_until = t;
        return false;
    }
    const ws_insn *in = &s->x.p->code[pc];
    bool lsu = d->pipe == WS_PIPE_LSU;
    uint8_t throttle = !lsu ? WS_STALL_MATH_PIPE_THROTTLE
                     : in->space == WS_SP_SHARED || in->m.space == PTX_SPACE_CONST ||
                       in->space == WS_SP_PARAM ? WS_STALL_MIO_THROTTLE : WS_STALL_LG_THROTTLE;
    if (sp->pipe_free[d->pipe] > now) {
        sw->reason = throttle;
        *wake = sp->pipe_free[d->pipe];
        return false;
    }
    if (lsu && sm->l1_free > now + s->lsu_queue) {
        sw->reason = throttle;
        *wake = sm->l1_free - s->lsu_queue;
        return false;
    }
    return true;
}

/* After a warp of block b reached a barrier or exited: release what can
 * be released; a block whose running warps all wait is deadlocked. */
static bool sync_block(ws_tsim *s, ws_sm *sm, ws_sm_block *b, uint32_t bs, uint64_t now)
{
    if (ws_block_release_barriers(&s->x, &b->b) > 0) {
        for (uint32_t w = 0; w < s->nwarps; w++) {
            ws_sm_warp *sw = &sm->slots[bs * s->nwarps + w];
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

static bool issue(ws_tsim *s, ws_sm *sm, ws_subpart *sp, ws_sm_warp *sw, uint64_t now)
{
    ws_warp *w = sw->w;
    ws_sm_block *b = &sm->blocks[sw->block];
    int32_t pc = ws_warp_next_pc(w);
    ws_step_info info;
    info.mem = false;
    s->x.clock = now - 1;       /* the step counts one: %clock reads the issue cycle */
    ws_step_result r = ws_warp_step(&s->x, &b->b, w, &info);
    if (r == WS_STEP_FAULT) return false;
    /* --sass: a PTX access ptxas merged into its group's leader is no SASS
     * instruction (sass_groups.h): it holds no pipe and takes no issue slot */
    bool merged = pc >= 0 && s->x.p->sass_group && s->x.p->sass_group[pc] == WS_SASS_MERGED;
    if (pc >= 0) {     /* an instruction issued (not just an empty stack retired) */
        sw->stall_pc = pc;
        const ws_insn *in = &s->x.p->code[pc];
        const ws_insn_deps *d = &s->deps[pc];
        uint64_t ready = now + s->latency[d->pipe];
        uint8_t kind = d->pipe == WS_PIPE_SFU ? WS_STALL_SHORT_SCOREBOARD : WS_STALL_WAIT;
        if (d->pipe == WS_PIPE_LSU) ready = ws_sm_memory(s, sm, sp, sw, in, &info, now, &kind);
        for (uint32_t i = 0; i < d->ndst; i++) {
            sw->ready[d->dst[i]] = ready;
            sw->kind[d->dst[i]] = kind;
        }
        sw->opnd_pc = -1;
        if (s->trace) ws_trace_warp_issue(s->trace, &s->x, &b->b, w, sm->id, pc, &info, now, ready);
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

bool ws_sm_cycle(ws_tsim *s, ws_sm *sm, uint64_t now)
{
    if (!retire(s, sm, now)) return false;
    uint64_t next = WS_NEVER;
    bool issued = false;
    s->ts->sm_steps++;
    for (uint32_t p = 0; p < sm->nsp; p++) {
        ws_subpart *sp = &sm->sp[p];
        bool ready[WS_SCHED_MAX_WARPS] = {false}, long_wait[WS_SCHED_MAX_WARPS] = {false};
        uint64_t age[WS_SCHED_MAX_WARPS] = {0};
        uint32_t n = sp->sched.nslots;
        for (uint32_t j = 0; j < n; j++) {
            ws_sm_warp *sw = &sm->slots[j * sm->nsp + p];
            if (!sw->w || !sw->live) continue;
            /* A warp waiting on its own registers or on fetch stays so, in
             * the same state, until then: nothing else can change that. */
            if (sw->blocked_until > now && sw->w->state == WS_WARP_READY) {
                age[j] = sw->age;
                long_wait[j] = sw->reason == WS_STALL_LONG_SCOREBOARD;
                if (sw->blocked_until < next) next = sw->blocked_until;
                continue;
            }
            uint64_t wake = WS_NEVER;
            ready[j] = can_issue(s, sm, sp, sw, now, &wake);
            age[j] = sw->age;
            long_wait[j] = !ready[j] && sw->reason == WS_STALL_LONG_SCOREBOARD;
            if (ready[j]) sw->reason = WS_STALL_NOT_SELECTED;
            else if (wake < next) next = wake;
        }
        int32_t j = ws_sched_pick(&sp->sched, ready, age, long_wait);
        if (j < 0) continue;
        ws_sm_warp *sw = &sm->slots[(uint32_t)j * sm->nsp + p];
        sw->reason = WS_STALL_SELECTED;
        issued = true;
        if (!issue(s, sm, sp, sw, now)) return false;
    }
    if (issued || next <= now) next = now + 1;
    /* every warp keeps this cycle's state until next: count it that often */
    uint64_t weight = next == WS_NEVER ? 1 : next - now;
    ws_pc_counts *pcc = s->x.l->pc_counts;
    uint32_t live = 0;
    for (uint32_t i = 0; i < sm->nslots; i++) {
        ws_sm_warp *sw = &sm->slots[i];
        if (!sw->w || !sw->live) continue;
        live++;
        s->ts->stall[sw->reason] += weight;
        if (pcc && sw->stall_pc >= 0) pcc[sw->stall_pc].stall[sw->reason] += weight;
    }
    if (live) {
        s->ts->sm_active_cycles += weight;
        s->ts->warp_cycles += (uint64_t)live * weight;
        s->ts->issue_slots += (uint64_t)sm->nsp * weight;
    }
    if (sm->live && next == WS_NEVER) {
        ws_error_set(s->x.err, WS_ERR_KERNEL_FAULT, "internal error: SM %d has warps but nothing to wait for",
                 sm->id);
        return false;
    }
    sm->next = next;
    return true;
}
