/* Which launches run in windows of cycles, and how long (timing_window.h). */
#include "timing_window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn_deps.h"
#include "sim.h"
#include "../mem/device_memory.h"

/* Whether in reads global memory another SM may write in the window. */
static bool reads_global(const ws_insn *in)
{
    switch (in->cls) {
    case WS_I_LD:
        return (in->space == WS_SP_GLOBAL || in->space == WS_SP_GENERIC) && in->m.space != PTX_SPACE_CONST;
    case WS_I_TEX:
    case WS_I_CP_ASYNC:
        return true;
    case WS_I_WMMA:
        return in->m.subop != PTX_SUB_WMMA_MMA && in->m.subop != PTX_SUB_WMMA_STORE_D &&
               in->space != WS_SP_SHARED;
    default:
        return false;
    }
}

/* Whether in reads global memory some way other than a plain load (which
 * the rule of apart pointers covers: ws_exec_ld checks its addresses). */
static bool reads_global_unchecked(const ws_insn *in)
{
    return reads_global(in) && in->cls != WS_I_LD;
}

/* Why k's code keeps it cycle by cycle, into *why: false. */
static bool refuse(ws_window_reason *why, ws_window_why what, int32_t pc)
{
    *why = (ws_window_reason){.why = (uint8_t)what, .pc = pc};
    return false;
}

/* The second rule of timing_window.h for k's code: false when it cannot
 * run in windows; *load_after_store: a global load may follow a global
 * store (which needs the launch's pointers apart, launch_apart, or its SMs
 * reading their own writes); *atomics: it has a global atomic.  A global
 * atomic is a store for the windows' rules: put off to the window's end
 * with its operands, done there in the order of a run cycle by cycle, its
 * old values written to its destination then (its warp waits for them
 * till the window's end, as for a load's).  *why: what keeps it cycle by
 * cycle, where it cannot run in windows. */
static bool scan_code(const ws_program *p, const ws_kernel *k, bool *load_after_store, bool *atomics,
                      ws_window_reason *why)
{
    *atomics = false;
    const ws_func *f = &p->funcs[k->func];
    int32_t first_store = INT32_MAX, last_load = -1, last_unchecked = -1, wmma_store = -1;
    for (int32_t pc = f->start; pc <= f->end; pc++) {
        const ws_insn *in = &p->code[pc];
        bool shared_or_local = in->space == WS_SP_SHARED || in->space == WS_SP_LOCAL;
        switch (in->cls) {
        case WS_I_CALL:         /* code elsewhere, or output in issue order */
            return refuse(why, WS_WHY_CALL, pc);
        case WS_I_PRINTF:
            return refuse(why, WS_WHY_PRINTF, pc);
        case WS_I_ASSERT:
            return refuse(why, WS_WHY_ASSERT, pc);
        case WS_I_ATOM:
            if (shared_or_local) break;
            if (in->space != WS_SP_GLOBAL) return refuse(why, WS_WHY_GENERIC_ATOMIC, pc);
            *atomics = true;
            if (pc < first_store) first_store = pc;
            break;
        case WS_I_NOP:
            if (in->m.op == PTX_OP_MEMBAR || in->m.op == PTX_OP_FENCE) return refuse(why, WS_WHY_FENCE, pc);
            break;
        case WS_I_ST:       /* st.param: a call's arguments (the call refuses) */
            if (shared_or_local || in->space == WS_SP_PARAM) break;
            if (in->space != WS_SP_GLOBAL) return refuse(why, WS_WHY_GENERIC_STORE, pc);
            if (in->m.flags & PTX_F_VOLATILE) return refuse(why, WS_WHY_VOLATILE_STORE, pc);
            if (pc < first_store) first_store = pc;
            break;
        case WS_I_WMMA:     /* a store to global memory: captured, as a store */
            if (in->m.subop != PTX_SUB_WMMA_STORE_D || in->space == WS_SP_SHARED) break;
            if (in->space != WS_SP_GLOBAL) return refuse(why, WS_WHY_GENERIC_WMMA_STORE, pc);
            if (wmma_store < 0) wmma_store = pc;
            if (pc < first_store) first_store = pc;
            break;
        case WS_I_LD:
            if (reads_global(in) && (in->m.flags & PTX_F_VOLATILE)) return refuse(why, WS_WHY_VOLATILE_LOAD, pc);
            break;
        default:
            break;
        }
        if (reads_global(in) && pc > last_load) last_load = pc;
        if (reads_global_unchecked(in) && pc > last_unchecked) last_unchecked = pc;
    }
    *load_after_store = false;
    if (last_load < 0 || first_store == INT32_MAX) return true;
    bool back = false;      /* a branch back from a store to before a load */
    for (int32_t pc = first_store; pc <= f->end && !back; pc++)
        back = p->code[pc].cls == WS_I_BRA && p->code[pc].target <= last_load;
    *load_after_store = back || last_load > first_store;
    /* texture fetches, cp.async and wmma loads have no check of their own,
     * nor has a wmma store, and an SM's own writes do not take its bytes */
    if (!*load_after_store) return true;
    if (last_unchecked >= 0)
        return refuse(why, WS_WHY_UNCHECKED_LOAD, last_unchecked);
    if (wmma_store >= 0) return refuse(why, WS_WHY_WMMA_STORE_LOADED, wmma_store);
    return true;
}

bool ws_window_code_ok(const ws_program *p, const ws_kernel *k)
{
    bool load_after_store, atomics;
    ws_window_reason why;
    return scan_code(p, k, &load_after_store, &atomics, &why) && !load_after_store;
}

/* Which of k's pointer slots a register's value may derive from: a bit per
 * slot (the first 63), FROM_OTHER where it may come from anything else an
 * address can (memory, a module variable's address, a slot past the
 * 63rd); 0: from none (indices, immediates, special registers, any value
 * of 32 bits or fewer).  A slot is 8 bytes of the parameters that the
 * code loads whole: a pointer parameter, or a pointer field of a
 * structure passed by value (PMPP's CSR graph). */
#define FROM_OTHER (UINT64_C(1) << 63)
#define MAX_SLOTS 63

typedef struct ptr_slots {
    uint64_t off[MAX_SLOTS];    /* each slot's byte offset in the parameters */
    int32_t n;
} ptr_slots;

_Static_assert(WS_GLOBAL_BASE > UINT32_MAX, "no value of 32 bits is a global address");

static uint64_t slot_bit(ptr_slots *ps, uint64_t off)
{
    for (int32_t i = 0; i < ps->n; i++)
        if (ps->off[i] == off) return UINT64_C(1) << i;
    if (ps->n == MAX_SLOTS) return FROM_OTHER;
    ps->off[ps->n] = off;
    return UINT64_C(1) << ps->n++;
}

/* An operand's immediate that may be an address in global memory (a
 * module variable's). */
static uint64_t imm_bits(const ws_opnd *o)
{
    return (o->kind == WS_OK_IMM || o->kind == WS_OK_ADDR) && o->imm >= WS_GLOBAL_BASE ? FROM_OTHER : 0;
}

/* What an instruction's destinations may derive from, given bits per
 * register (bits[r - lo]). */
static uint64_t value_bits(const ws_program *p, ptr_slots *ps, const ws_insn *in, const uint64_t *bits, int32_t lo)
{
    switch (in->cls) {
    case WS_I_LD:
        if (in->space == WS_SP_PARAM && in->ops[0].kind == WS_OK_REG && in->ops[1].reg < 0 && in->ops[1].sym < 0 &&
            ptx_type_size(in->m.types[0]) == 8)
            return slot_bit(ps, in->ops[1].imm);
        return FROM_OTHER;      /* a value read from memory */
    case WS_I_ATOM: case WS_I_TEX: case WS_I_TXQ: case WS_I_WMMA: case WS_I_MBARRIER: case WS_I_BAR:
        return FROM_OTHER;
    default:
        break;
    }
    ws_insn_deps d;
    ws_insn_deps_of(p, in, &d);
    uint64_t v = 0;
    for (uint32_t i = 0; i < d.nsrc; i++) v |= bits[d.src[i] - lo];
    for (uint32_t i = 0; i < in->nops; i++) v |= imm_bits(&in->ops[i]);
    return v;
}

/* The parameters the address of a global access may derive from (its
 * operand a), FROM_OTHER where it may come from anything else. */
static uint64_t address_bits(const ws_opnd *a, const uint64_t *bits, int32_t lo)
{
    uint64_t v = imm_bits(a);
    if (a->reg >= 0) v |= bits[a->reg - lo];
    return v ? v : FROM_OTHER;      /* an address from no parameter: a number the code made up */
}

/* The allocation slot i's value points into in launch l, or false (no
 * such bytes in l's parameters, or their value in no allocation). */
static bool slot_allocation(const ws_program *p, const ptr_slots *ps, const ws_launch *l, int32_t i,
                            uint64_t *base, uint64_t *size)
{
    if (ps->off[i] > l->params_size || l->params_size - ps->off[i] < 8) return false;
    uint64_t v;
    memcpy(&v, l->params + ps->off[i], 8);
    return ws_devmem_allocation_of(p->mem, v, base, size);
}

/* Adds [lo, hi) to ap unless it holds that allocation already; false
 * when it is full. */
static bool apart_add(ws_apart *ap, uint64_t lo, uint64_t hi)
{
    for (uint32_t j = 0; j < ap->n; j++)
        if (ap->lo[j] == lo) return true;
    if (ap->n == WS_APART_MAX) return false;
    ap->lo[ap->n] = lo;
    ap->hi[ap->n++] = hi;
    return true;
}

/* The allocations an access's address may lie in, its slots v
 * (address_bits) that point into one (slot_allocation), into *a: false
 * when v may derive from anything else, from no such slot, or from more
 * allocations than a holds. */
static bool address_allocations(const ws_program *p, const ptr_slots *ps, const ws_launch *l, uint64_t v,
                                ws_apart *a)
{
    a->n = 0;
    if (v & FROM_OTHER) return false;
    for (int32_t i = 0; i < ps->n; i++) {
        uint64_t base, size;
        if ((v >> i & 1) && slot_allocation(p, ps, l, i, &base, &size) && !apart_add(a, base, base + size))
            return false;
    }
    return a->n > 0;
}

/* Whether a launch of k whose loads may follow its stores can run in
 * windows: every global access's address derives from pointer parameters
 * alone, each store's from at least one that points into an allocation,
 * each load's likewise, and no load's from one that points where a store's
 * does.  *ap gets the stores' allocations, which ws_exec checks every
 * access against (a load or store that strays from its pointer's
 * allocation stops the launch rather than read out of order). */
static bool launch_apart(const ws_program *p, const ws_kernel *k, const ws_launch *l, ws_apart *ap)
{
    const ws_func *f = &p->funcs[k->func];
    int32_t lo = k->reg_lo, n = k->reg_hi - k->reg_lo;
    uint64_t *bits = calloc((size_t)(n > 0 ? n : 1), sizeof *bits);
    if (!bits) return false;
    ptr_slots ps = {.n = 0};
    /* to a fixed point: every instruction that writes a register adds what
     * its value may derive from; a register of 32 bits or fewer holds no
     * address, whatever it derives from (an index read from memory, an
     * atomic's old count) */
    for (bool changed = true; changed;) {
        changed = false;
        for (int32_t pc = f->start; pc <= f->end; pc++) {
            const ws_insn *in = &p->code[pc];
            ws_insn_deps d;
            ws_insn_deps_of(p, in, &d);
            if (!d.ndst) continue;
            uint64_t v = value_bits(p, &ps, in, bits, lo);
            for (uint32_t i = 0; i < d.ndst; i++) {
                if (p->reg_width[d.dst[i]] <= 4) continue;
                uint64_t *b = &bits[d.dst[i] - lo];
                if ((*b | v) != *b) {
                    *b |= v;
                    changed = true;
                }
            }
        }
    }
    bool ok = true;
    ap->n = 0;
    /* the stores' (and global atomics') allocations */
    for (int32_t pc = f->start; ok && pc <= f->end; pc++) {
        const ws_insn *in = &p->code[pc];
        bool atom = in->cls == WS_I_ATOM && in->space == WS_SP_GLOBAL;
        if (!atom && (in->cls != WS_I_ST || in->space != WS_SP_GLOBAL)) continue;
        const ws_opnd *addr = &in->ops[atom && in->m.op != PTX_OP_RED ? 1 : 0];
        ws_apart a;
        ok = address_allocations(p, &ps, l, address_bits(addr, bits, lo), &a);
        for (uint32_t j = 0; ok && j < a.n; j++) ok = apart_add(ap, a.lo[j], a.hi[j]);
    }
    /* the loads' allocations, none of them a store's */
    for (int32_t pc = f->start; ok && pc <= f->end; pc++) {
        const ws_insn *in = &p->code[pc];
        if (!reads_global(in)) continue;
        ws_apart a;
        ok = address_allocations(p, &ps, l, address_bits(&in->ops[1], bits, lo), &a);
        for (uint32_t j = 0; ok && j < a.n; j++)
            for (uint32_t i = 0; ok && i < ap->n; i++) ok = ap->lo[i] != a.lo[j];
    }
    free(bits);
    if (!ok) ap->n = 0;
    return ok;
}

/* 1 cycle a window, for a reason of the options or the launch (no pc). */
static uint32_t cycle_by_cycle(ws_window_reason *why, ws_window_why what)
{
    *why = (ws_window_reason){.why = (uint8_t)what, .pc = -1};
    return 1;
}

uint32_t ws_window_cycles(const ws_program *p, const ws_kernel *k, const ws_launch *l,
                          const ws_timing_options *o, const ws_gpu_config *g, ws_apart *ap, bool *own_writes,
                          ws_window_reason *why)
{
    ap->n = 0;
    *own_writes = false;
    *why = (ws_window_reason){.why = WS_WHY_IN_WINDOWS, .pc = -1};
    if (o->window_cycles == 1) return cycle_by_cycle(why, WS_WHY_ASKED);
    bool load_after_store, atomics;
    if (!scan_code(p, k, &load_after_store, &atomics, why)) return 1;
    if (load_after_store && !launch_apart(p, k, l, ap)) {
        /* each SM reads its own writes; an atomic's would need its
         * operation done over them as well */
        if (atomics) return cycle_by_cycle(why, WS_WHY_ATOMIC_NOT_APART);
        *own_writes = true;
    }
    uint32_t w = o->window_cycles ? o->window_cycles : UINT32_MAX;
    /* no L2 or DRAM answer inside a window */
    if (g->latencyL2Hit > 0 && w > (uint32_t)g->latencyL2Hit) w = (uint32_t)g->latencyL2Hit;
    if (g->latencyDram > 0 && w > (uint32_t)g->latencyDram) w = (uint32_t)g->latencyDram;
    return w ? w : 1;
}

void ws_window_reason_text(const ws_program *p, ws_window_reason r, char *buf, size_t size)
{
    static const char *const text[] = {
        [WS_WHY_IN_WINDOWS] = "",
        [WS_WHY_ASKED] = "asked for (--window 1)",
        [WS_WHY_CALL] = "a call",
        [WS_WHY_PRINTF] = "device printf",
        [WS_WHY_ASSERT] = "an assert",
        [WS_WHY_FENCE] = "a fence",
        [WS_WHY_GENERIC_ATOMIC] = "an atomic through a generic address",
        [WS_WHY_GENERIC_STORE] = "a store through a generic address",
        [WS_WHY_GENERIC_WMMA_STORE] = "a wmma.store through a generic address",
        [WS_WHY_VOLATILE_STORE] = "a volatile store",
        [WS_WHY_VOLATILE_LOAD] = "a volatile load",
        [WS_WHY_UNCHECKED_LOAD] = "a texture, cp.async or wmma load that may come after a global store",
        [WS_WHY_WMMA_STORE_LOADED] = "a wmma.store that a global load may come after",
        [WS_WHY_ATOMIC_NOT_APART] = ("its global loads may come after its stores, through pointers this launch "
                                     "does not keep apart, and it has a global atomic"),
    };
    const char *t = r.why < sizeof text / sizeof *text && text[r.why] ? text[r.why] : "?";
    if (r.pc < 0 || !p || r.pc >= p->ncode) {
        snprintf(buf, size, "%s", t);
        return;
    }
    const ws_insn *in = &p->code[r.pc];
    char mn[96];
    ws_insn_mnemonic(&in->m, mn, sizeof mn);
    const char *path = ws_program_path(p);
    int n = snprintf(buf, size, "its code has %s: %s at pc %d (%s:%d:%d", t, mn, r.pc, path ? path : "<ptx>",
                     in->pos.line, in->pos.col);
    if (n > 0 && (size_t)n < size && in->pos.cu_line > 0)
        n += snprintf(buf + n, size - (size_t)n, ", %s:%d", ws_cu_file(p, in), in->pos.cu_line);
    if (n > 0 && (size_t)n < size) snprintf(buf + n, size - (size_t)n, ")");
}
