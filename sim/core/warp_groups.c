/* The groups of a warp's threads under independent thread scheduling
 * (docs/SEMANTICS.md): splitting lanes off to wait, choosing the group that
 * runs, and joining groups that stand at the same point again.
 *
 * A warp almost always has one group, w->g; everything here is reached only
 * when a warp-synchronous operation or a thread-granular barrier finds the
 * lanes it needs on another path of the warp. */
#include <stdlib.h>
#include <string.h>

#include "warp.h"
#include "warp_groups.h"

static bool grow_others(ws_warp *w)
{
    if (w->nothers < w->othercap) return true;
    int32_t cap = w->othercap ? w->othercap * 2 : 4;
    ws_group *g = realloc(w->others, sizeof *g * (size_t)cap);
    if (!g) return false;
    memset(g + w->othercap, 0, sizeof *g * (size_t)(cap - w->othercap));
    w->others = g;
    w->othercap = cap;
    return true;
}

static bool copy_frames(ws_group *dst, const ws_group *src)
{
    if (src->nframes > dst->framecap) {
        ws_frame *f = realloc(dst->frames, sizeof *f * (size_t)src->nframes);
        if (!f) return false;
        dst->frames = f;
        dst->framecap = src->nframes;
    }
    if (src->nframes) memcpy(dst->frames, src->frames, sizeof *src->frames * (size_t)src->nframes);
    dst->nframes = src->nframes;
    return true;
}

static void swap_groups(ws_group *a, ws_group *b)
{
    ws_group t = *a;
    *a = *b;
    *b = t;
}

/* Drops other group i; its buffers stay with the slot for reuse. */
static void drop_other(ws_warp *w, int32_t i)
{
    swap_groups(&w->others[i], &w->others[w->nothers - 1]);
    w->nothers--;
}

static void clear_wait(ws_group *g)
{
    g->wait = WS_WAIT_NONE;
    g->wait_pc = -1;
    g->wait_lanes = g->exec_lanes = g->members = 0;
    g->bar_arrived = g->bar_true = 0;
}

ws_group *ws_group_wait(ws_warp *w, uint32_t lanes, uint8_t why, int32_t pc)
{
    if (!grow_others(w)) return NULL;
    ws_group *g = &w->others[w->nothers];
    if ((ws_stack_lanes(&w->g.stack) & ~lanes) == 0) {
        /* The whole running group waits. */
        swap_groups(g, &w->g);
        w->g.stack.n = 0;
        w->g.nframes = 0;
        clear_wait(&w->g);
    } else {
        if (!ws_stack_split(&w->g.stack, lanes, &g->stack) || !copy_frames(g, &w->g)) return NULL;
        g->reconv_skip = -1;
    }
    w->nothers++;
    clear_wait(g);
    g->wait = why;
    g->wait_pc = pc;
    g->wait_lanes = lanes;
    return g;
}

static bool same_frames(const ws_group *a, const ws_group *b)
{
    if (a->nframes != b->nframes) return false;
    for (int32_t i = 0; i < a->nframes; i++)
        if (a->frames[i].ret_pc != b->frames[i].ret_pc || a->frames[i].call != b->frames[i].call)
            return false;
    return true;
}

/* Joins runnable groups (and those waiting to reconverge) that stand where
 * the running group stands. */
static void join_at_running(ws_warp *w)
{
    for (int32_t i = 0; i < w->nothers;) {
        ws_group *o = &w->others[i];
        if ((o->wait == WS_WAIT_NONE || o->wait == WS_WAIT_RECONVERGE) && o->stack.n &&
            same_frames(o, &w->g) && ws_stack_merge(&w->g.stack, &o->stack)) {
            drop_other(w, i);
            continue;
        }
        i++;
    }
}

/* Whether another group will still come to the running group's top entry. */
static bool others_will_reach_top(const ws_warp *w)
{
    const ws_stack_entry *t = ws_stack_at_c(&w->g.stack, w->g.stack.n - 1);
    for (int32_t i = 0; i < w->nothers; i++)
        if (same_frames(&w->others[i], &w->g) && ws_stack_holds(&w->others[i].stack, t->pc, t->rpc))
            return true;
    return false;
}

static bool settle_group(ws_group *g)
{
    return ws_stack_settle(&g->stack);
}

ws_sched_result ws_warp_schedule(ws_warp *w)
{
    for (int round = 0;; round++) {
        bool live = settle_group(&w->g);
        if (!live) clear_wait(&w->g);
        for (int32_t i = 0; i < w->nothers;) {   /* groups whose lanes all exited */
            if (!settle_group(&w->others[i]) && w->others[i].wait != WS_WAIT_BARRIER) { drop_other(w, i); continue; }
            i++;
        }
        if (live && w->g.wait == WS_WAIT_NONE) {
            if (w->nothers == 0) { w->state = WS_WARP_READY; return WS_SCHED_READY; }
            join_at_running(w);
            const ws_stack_entry *t = ws_stack_top(&w->g.stack);
            if (t->pc == w->g.reconv_skip || !others_will_reach_top(w)) {
                w->state = WS_WARP_READY;
                return WS_SCHED_READY;
            }
            w->g.wait = WS_WAIT_RECONVERGE;
        }
        /* The running group cannot go on: put it aside, take a runnable one. */
        if (live) {
            if (!grow_others(w)) return WS_SCHED_NOMEM;
            swap_groups(&w->others[w->nothers++], &w->g);
            w->g.stack.n = 0;
            w->g.nframes = 0;
            clear_wait(&w->g);
        }
        int32_t pick = -1;
        bool at_barrier = false, at_warpsync = false;
        for (int32_t i = 0; i < w->nothers; i++) {
            if (w->others[i].wait == WS_WAIT_NONE && pick < 0) pick = i;
            at_barrier |= w->others[i].wait == WS_WAIT_BARRIER;
            at_warpsync |= w->others[i].wait == WS_WAIT_WARPSYNC;
        }
        /* Lanes that went past a warp-synchronous operation without
         * executing one are not waited for there: it executes with the
         * lanes that came (the caller forces it), and the warp can join
         * again behind it. */
        if (pick < 0 && at_warpsync && !at_barrier) { w->state = WS_WARP_BARRIER; return WS_SCHED_STUCK; }
        if (pick < 0) {
            /* Forward progress: groups waiting to reconverge run on alone
             * when nothing else can run. */
            for (int32_t i = 0; i < w->nothers; i++)
                if (w->others[i].wait == WS_WAIT_RECONVERGE) {
                    ws_group *o = &w->others[i];
                    o->wait = WS_WAIT_NONE;
                    o->reconv_skip = ws_stack_top(&o->stack)->pc;
                    if (pick < 0) pick = i;
                }
        }
        if (pick >= 0) {
            swap_groups(&w->g, &w->others[pick]);
            drop_other(w, pick);
            if (round > 4 * (w->nothers + 2)) { w->state = WS_WARP_READY; return WS_SCHED_READY; }
            continue;
        }
        if (w->nothers == 0) { w->state = WS_WARP_DONE; return WS_SCHED_DONE; }
        w->state = WS_WARP_BARRIER;
        return at_barrier ? WS_SCHED_WAITING : WS_SCHED_STUCK;
    }
}

void ws_warp_groups_free(ws_warp *w)
{
    for (int32_t i = 0; i < w->othercap; i++) {
        ws_stack_free(&w->others[i].stack);
        free(w->others[i].frames);
    }
    free(w->others);
    w->others = NULL;
    w->nothers = w->othercap = 0;
}
