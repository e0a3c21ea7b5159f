/* mbarrier.* and cp.async.mbarrier.arrive: the lanes of a warp act on the
 * shared-memory word one after another, in lane order, as separate threads
 * would (ws_mbar_* in mbarrier.c keep the count and the phase). */
#include <string.h>

#include "warp.h"
#include "warp_ops.h"

static uint64_t mbar_addr(const ws_exec *x, const ws_warp *w, const ws_opnd *a, int lane)
{
    uint64_t v = a->imm;
    if (a->reg >= 0) v += ws_reg_get(w, a, lane);
    if (a->sym >= 0) v += x->k->shared_off[a->sym];
    return v;
}

/* Reads the object of lane at addr: shared memory (or generic addressing
 * that lands there), 8-byte aligned, initialized unless init. */
static bool mbar_load(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, int lane,
                      uint64_t addr, bool init, uint64_t *word)
{
    uint64_t off;
    if (in->space == WS_SP_GENERIC && ws_generic_classify(addr, &off) != WS_GEN_SHARED) {
        ws_fault(x, b, w, lane, pc, "mbarrier object at 0x%llx is not in shared memory",
                 (unsigned long long)addr);
        return false;
    }
    if (addr % 8) {
        ws_fault(x, b, w, lane, pc, "Misaligned mbarrier object at 0x%llx (address not a multiple of 8)",
                 (unsigned long long)addr);
        x->err->kind = WS_ERR_MISALIGNED;
        return false;
    }
    if (!ws_mem_access(x, b, w, lane, pc, in->space, addr, word, 8, false, "read")) return false;
    if (!init && !ws_mbar_valid(*word)) {
        ws_fault(x, b, w, lane, pc, "mbarrier object at 0x%llx used before mbarrier.init",
                 (unsigned long long)addr);
        return false;
    }
    return true;
}

static bool mbar_store(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, int lane,
                       uint64_t addr, uint64_t word)
{
    return ws_mem_access(x, b, w, lane, pc, in->space, addr, &word, 8, true, "write");
}

/* One lane's arrive or arrive_drop (count from the operand, else 1). */
static bool mbar_arrive(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, int lane,
                        uint64_t *word)
{
    bool drop = in->m.subop == PTX_SUB_MBAR_ARRIVE_DROP;
    uint64_t count = in->nops > 2 ? ws_opnd_lane(x, b, w, &in->ops[2], lane) & 0xFFFFFFFFu : 1;
    uint64_t state = 0, before = *word;
    if (count == 0 || !ws_mbar_arrive(word, (uint32_t)count, drop, &state)) {
        ws_fault(x, b, w, lane, pc, "mbarrier arrival count %llu is 0 or more than the %u pending",
                 (unsigned long long)count, ws_mbar_pending(before));
        return false;
    }
    if ((in->m.flags & PTX_F_NOCOMPLETE) && ws_mbar_pending(state) == count) {
        ws_fault(x, b, w, lane, pc, "mbarrier.arrive.noComplete completed the phase");
        return false;
    }
    if (in->ops[0].kind == WS_OK_REG) ws_reg_set(w, &in->ops[0], lane, state);
    return true;
}

/* One lane of an mbarrier instruction on the object at addr. */
static bool mbar_lane(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, int lane,
                      uint64_t addr)
{
    uint64_t word;
    bool init = in->m.subop == PTX_SUB_MBAR_INIT;
    if (!mbar_load(x, b, w, in, pc, lane, addr, init, &word)) return false;
    switch (in->m.subop) {
    case PTX_SUB_MBAR_INIT: {
        uint64_t count = ws_opnd_lane(x, b, w, &in->ops[1], lane) & 0xFFFFFFFFu;
        if (count == 0 || count > WS_MBAR_MAX_COUNT) {
            ws_fault(x, b, w, lane, pc, "mbarrier.init count %llu out of range 1..%u",
                     (unsigned long long)count, WS_MBAR_MAX_COUNT);
            return false;
        }
        return mbar_store(x, b, w, in, pc, lane, addr, ws_mbar_init((uint32_t)count));
    }
    case PTX_SUB_MBAR_INVAL:
        return mbar_store(x, b, w, in, pc, lane, addr, 0);
    case PTX_SUB_MBAR_ARRIVE: case PTX_SUB_MBAR_ARRIVE_DROP:
        return mbar_arrive(x, b, w, in, pc, lane, &word) &&
               mbar_store(x, b, w, in, pc, lane, addr, word);
    case PTX_SUB_MBAR_TEST_WAIT: case PTX_SUB_MBAR_TRY_WAIT: {
        /* try_wait may suspend the thread for a while; returning at once is
         * one of its allowed behaviours, and programs loop on it */
        uint64_t state = ws_opnd_lane(x, b, w, &in->ops[2], lane);
        if (in->ops[0].kind == WS_OK_REG)
            ws_reg_set(w, &in->ops[0], lane, ws_mbar_phase_done(word, state, in->m.flags & PTX_F_PARITY));
        return true;
    }
    case PTX_SUB_CP_MBARRIER_ARRIVE: {
        /* The copies are complete already.  Without .noinc the arrival the
         * instruction triggers is matched by the pending count it adds:
         * nothing changes.  With .noinc it is one arrival of the thread. */
        if (!(in->m.flags & PTX_F_NOINC)) return true;
        uint64_t state;
        if (!ws_mbar_arrive(&word, 1, false, &state)) {
            ws_fault(x, b, w, lane, pc, "cp.async.mbarrier.arrive.noinc on an mbarrier with no pending arrival");
            return false;
        }
        return mbar_store(x, b, w, in, pc, lane, addr, word);
    }
    default:
        return true;
    }
}

bool ws_exec_mbarrier(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                      uint32_t mask, ws_step_info *info)
{
    if (in->m.subop == PTX_SUB_MBAR_PENDING_COUNT) {
        if (in->ops[0].kind == WS_OK_REG)
            FOR_LANES(mask, lane)
                ws_reg_set(w, &in->ops[0], lane, ws_mbar_pending(ws_opnd_lane(x, b, w, &in->ops[1], lane)));
        return true;
    }
    const ws_opnd *a = &in->ops[in->m.op == PTX_OP_CP || in->m.subop == PTX_SUB_MBAR_INIT ||
                                in->m.subop == PTX_SUB_MBAR_INVAL ? 0 : 1];
    uint64_t own[WS_WARP_SIZE], *addrs = info ? info->addr : own;
    if (info) {
        info->mem = true;
        info->space = in->space;
        info->size = 8;
        info->store = in->m.subop != PTX_SUB_MBAR_TEST_WAIT && in->m.subop != PTX_SUB_MBAR_TRY_WAIT;
        info->naccess = 1;
        info->resolved.valid = false;
    }
    /* The lanes of a warp that arrive on one object arrive together: each
     * gets the state from before the warp's arrivals (an H200 gives the
     * lanes of one warp one pending count: validation/results/
     * h200_issue8_probes.txt, mbarrierOps). */
    bool arrive = in->m.subop == PTX_SUB_MBAR_ARRIVE || in->m.subop == PTX_SUB_MBAR_ARRIVE_DROP;
    int first[WS_WARP_SIZE];
    FOR_LANES(mask, lane) {
        addrs[lane] = mbar_addr(x, w, a, lane);
        if (!mbar_lane(x, b, w, in, pc, lane, addrs[lane])) return false;
        first[lane] = lane;
        if (!arrive || in->ops[0].kind != WS_OK_REG) continue;
        FOR_LANES(mask & ((UINT32_C(1) << lane) - 1), e)
            if (first[lane] == lane && addrs[e] == addrs[lane]) first[lane] = e;
        if (first[lane] != lane) ws_reg_set(w, &in->ops[0], lane, ws_reg_get(w, &in->ops[0], first[lane]));
    }
    return true;
}
