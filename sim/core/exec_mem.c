/* Memory instructions: ld, st, atom/red, cvta, wmma load/store. */
#include <stdlib.h>
#include <string.h>

#include "../base/bits.h"
#include "warp.h"
#include "warp_ops.h"
#include "../mem/coalescer.h"
#include "../mem/shared_banks.h"
#include "sass_groups.h"
#include "own_writes.h"
#include "write_claims.h"

static const char *space_name(int s)
{
    switch (s) {
    case WS_SP_SHARED: return "__shared__";
    case WS_SP_LOCAL: return "__local__";
    case WS_SP_PARAM: return "__param__";
    default: return "__global__";
    }
}

/* What an access does, as fault messages name it. */
typedef enum mem_what { WHAT_READ, WHAT_WRITE, WHAT_ATOMIC } mem_what;
static const char *const what_name[] = {"read", "write", "atomic"};

static bool mem_access(ws_exec *x, ws_block *b, ws_warp *w, int lane, int32_t pc, uint8_t space,
                       uint64_t addr, void *buf, uint32_t size, bool write, mem_what what)
{
    uint64_t off = addr;
    int s = space;
    if (s == WS_SP_GENERIC) {
        switch (ws_generic_classify(addr, &off)) {
        case WS_GEN_SHARED: s = WS_SP_SHARED; break;
        case WS_GEN_LOCAL: s = WS_SP_LOCAL; break;
        default: s = WS_SP_GLOBAL; break;
        }
    }
    const ws_program *p = x->p;
    uint32_t t = w->index * WS_WARP_SIZE + (uint32_t)lane;
    uint8_t *host = NULL;
    switch (s) {
    case WS_SP_GLOBAL:
        if (write ? ws_devmem_write(p->mem, off, buf, size) : ws_devmem_read(p->mem, off, buf, size)) {
            /* initcheck: the read half of an atomic is not a use of the value */
            if (!write && x->checks && (x->l->checks & WS_CHECK_INIT) && what != WHAT_ATOMIC)
                ws_init_global_read(x, b, w, lane, pc, off, size);
            return true;
        }
        break;
    case WS_SP_SHARED:
        if (off <= b->shared_size && size <= b->shared_size - off) host = b->shared + off;
        break;
    case WS_SP_LOCAL: {       /* the kernel's window of the module's local memory */
        const ws_kernel *k = x->k;
        if (off >= k->local_lo && off - k->local_lo <= k->local_size && size <= k->local_size - (off - k->local_lo))
            host = b->local + (size_t)t * k->local_size + (off - k->local_lo);
        break;
    }
    case WS_SP_PARAM:
        if (off < WS_TPARAM_BASE) {
            if (!write && off <= x->l->params_size && size <= x->l->params_size - off) {
                memcpy(buf, x->l->params + off, size);
                return true;
            }
        } else {
            const ws_kernel *k = x->k;
            off -= WS_TPARAM_BASE;
            if (off >= k->tparam_lo && off - k->tparam_lo <= k->tparam_size &&
                size <= k->tparam_size - (off - k->tparam_lo))
                host = b->tparam + (size_t)t * k->tparam_size + (off - k->tparam_lo);
        }
        break;
    }
    if (host) {
        /* racecheck: atomics do not race with one another */
        if (s == WS_SP_SHARED && x->checks && (x->l->checks & WS_CHECK_RACE) &&
            what != WHAT_ATOMIC)
            ws_race_access(x, b, w, pc, off, size, write);
        if (s == WS_SP_SHARED && x->checks && (x->l->checks & WS_CHECK_INIT) &&
            (write || what != WHAT_ATOMIC))
            ws_init_shared(x, b, w, lane, pc, off, size, write);
        if (write) memcpy(host, buf, size);
        else memcpy(buf, host, size);
        return true;
    }
    ws_fault(x, b, w, lane, pc, "Invalid %s %s of size %u at 0x%llx", space_name(s),
             what_name[what], size, (unsigned long long)addr);
    x->err->kind = WS_ERR_ILLEGAL_ADDRESS;
    /* Where the address lies: past an allocation's end, in freed memory... */
    size_t n = strlen(x->err->msg);
    char where[160];
    if (s == WS_SP_GLOBAL) ws_devmem_describe(p->mem, off, where, sizeof where);
    else if (s == WS_SP_SHARED) snprintf(where, sizeof where, "past the %u bytes of shared memory of the block",
                                         b->shared_size);
    else snprintf(where, sizeof where, "outside the %u bytes of local memory of each thread", x->k->local_size);
    if (s == WS_SP_GLOBAL || s == WS_SP_SHARED || s == WS_SP_LOCAL)
        snprintf(x->err->msg + n, sizeof x->err->msg - n, ": the address is %s", where);
    return false;
}

bool ws_mem_access(ws_exec *x, ws_block *b, ws_warp *w, int lane, int32_t pc, uint8_t space,
                   uint64_t addr, void *buf, uint32_t size, bool write, const char *what)
{
    mem_what wh = what && !strcmp(what, "atomic") ? WHAT_ATOMIC :
                  what ? (!strcmp(what, "write") ? WHAT_WRITE : WHAT_READ) : write ? WHAT_WRITE : WHAT_READ;
    return mem_access(x, b, w, lane, pc, space, addr, buf, size, write, wh);
}

static uint64_t lane_addr(const ws_exec *x, const ws_warp *w, const ws_opnd *a, int lane)
{
    uint64_t v = a->imm;
    if (a->reg >= 0) v += ws_reg_get(w, a, lane);
    if (a->sym >= 0) v += x->k->shared_off[a->sym];
    return v;
}

static bool check_align(ws_exec *x, ws_block *b, ws_warp *w, int lane, int32_t pc,
                        uint8_t space, uint64_t addr, uint32_t size, mem_what what)
{
    if (size <= 1 || addr % size == 0) return true;
    uint64_t off;
    int s = space;
    if (s == WS_SP_GENERIC) {
        ws_generic_space g = ws_generic_classify(addr, &off);
        s = g == WS_GEN_SHARED ? WS_SP_SHARED : g == WS_GEN_LOCAL ? WS_SP_LOCAL : WS_SP_GLOBAL;
    }
    ws_fault(x, b, w, lane, pc, "Misaligned %s %s of size %u at 0x%llx (address not a multiple of %u)",
             space_name(s), what_name[what], size, (unsigned long long)addr, size);
    x->err->kind = WS_ERR_MISALIGNED;
    return false;
}

static uint64_t le_get(const uint8_t *p, uint32_t n)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void le_put(uint8_t *p, uint64_t v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void record(ws_step_info *info, uint8_t space, uint32_t size, bool store)
{
    if (!info) return;
    info->mem = true;
    info->space = space;
    info->size = size;
    info->store = store;
    info->naccess = 1;
    info->resolved.valid = false;
}

const ws_mem_resolved *ws_step_resolved(const struct ws_step_info *info, const struct ws_insn *in)
{
    bool mine = in->cls == WS_I_LD || in->cls == WS_I_ST || in->cls == WS_I_ATOM;     /* they call record() */
    return mine && info->mem && info->resolved.valid ? &info->resolved : NULL;
}

/* ---- memory statistics ------------------------------------------------- */

enum { ACC_LD = WS_ACC_LD, ACC_ST = WS_ACC_ST, ACC_ATOM = WS_ACC_ATOM };

/* Adds one warp-level access of the lanes in mask to x->stats: shared
 * wavefronts and bank conflicts, global requests, sectors and lines,
 * constant requests.  A generic access is split by the space each lane's
 * address falls in; local and param accesses are not counted. */
/* The same for the pc's own counters (when the launch keeps them), made by
 * x's step. */
static void account_pc(const ws_exec *x, ws_pc_counts *c, int op, const ws_bank_access *b, const ws_coalesce *co,
                       const uint64_t addr[WS_WARP_SIZE], uint32_t gmask, uint32_t size)
{
    if (b) {
        c->shared_requests[op]++;
        c->shared_wavefronts[op] += b->wavefronts;
        c->shared_bank_conflicts[op] += b->conflicts;
    }
    if (co) {
        c->global_requests[op] += co->requests;
        c->global_sectors[op] += co->sectors;
        c->global_ideal_sectors[op] += ((uint64_t)ws_popcount32(gmask) * size + 31) / 32;
        uint32_t rest = gmask & (gmask - 1);
        uint64_t cycle = x->clock;
        uint32_t sm = x->smid;
        bool first = !c->stride_known ||
                     (x->pc_counts_own && (cycle < c->stride_cycle || (cycle == c->stride_cycle && sm < c->stride_sm)));
        if (first && rest) {     /* the two lowest lanes: the step per lane between them */
            int a = __builtin_ctz(gmask), b = __builtin_ctz(rest);
            c->stride_known = 1;
            c->lane_stride = (int64_t)(addr[b] - addr[a]) / (b - a);
            c->access_size = size;
            c->stride_cycle = cycle;
            c->stride_sm = sm;
        }
    }
}

/* Lane l's bytes of a resolved access are at host + l * per_lane +
 * (addr[l] - origin). */
typedef struct warp_bytes {
    uint8_t *host;
    uint64_t origin;
    size_t per_lane;
    bool uniform;           /* every lane at addr[first lane] */
    bool halves;            /* a full warp, lane l at addr[l & 16] + (l & 15) * step */
    uint64_t step;
    bool shared;            /* the block's shared memory, at offsets from origin */
    bool global;            /* global memory */
} warp_bytes;

/* The step's resolved access (mem_access.h) once its banks or sectors
 * are in r: the access's kind, its bytes a lane and its lanes by space. */
static void resolved_as(ws_mem_resolved *r, int op, uint32_t size, uint32_t smask, uint32_t gmask)
{
    r->load = op == ACC_LD;
    r->size = size;
    r->smask = smask;
    r->gmask = gmask;
    r->valid = true;
}

/* The shared-memory counters of one access whose banks b gives. */
static void count_shared(ws_exec *x, ws_pc_counts *pcc, int op, const ws_bank_access *b)
{
    ws_launch_stats *s = x->stats;
    ws_shared_counts *c = op == ACC_LD ? &s->shared_ld : op == ACC_ST ? &s->shared_st : &s->shared_atom;
    c->requests++;
    c->wavefronts += b->wavefronts;
    c->bank_conflicts += b->conflicts;
    if (pcc) account_pc(x, pcc, op, b, NULL, NULL, 0, 0);
}

/* The global-memory counters of one access (the lanes of gmask at addr,
 * size bytes each) whose sectors co gives. */
static void count_global(ws_exec *x, ws_pc_counts *pcc, int op, const ws_coalesce *co, const uint64_t *addr,
                         uint32_t gmask, uint32_t size)
{
    ws_launch_stats *s = x->stats;
    ws_global_counts *c = op == ACC_LD ? &s->global_ld : op == ACC_ST ? &s->global_st : &s->global_atom;
    c->requests += co->requests;
    c->sectors += co->sectors;
    c->lines += co->lines;
    if (pcc) account_pc(x, pcc, op, NULL, co, addr, gmask, size);
}

/* Splits one warp-level access by space and applies the bank and
 * coalescing rules for the counters; the results go to res when given (the
 * step's resolved access, mem_access.h). */
static void account(ws_exec *x, const ws_insn *in, int32_t pc, uint32_t mask,
                    const uint64_t addr[WS_WARP_SIZE], uint32_t size, int op, ws_mem_resolved *res,
                    const warp_bytes *wb)
{
    ws_pc_counts *pcc = x->l->pc_counts ? &x->l->pc_counts[pc] : NULL;
    ws_launch_stats *s = x->stats;
    uint32_t smask = 0, gmask = 0;
    uint64_t shared_off[WS_WARP_SIZE];
    const uint64_t *saddr = addr;
    if (!mask) return;
    if (x->p->sass_group) {     /* SASS-informed: a group ptxas merged counts as its one wide access */
        uint8_t g = x->p->sass_group[pc];
        if (g == WS_SASS_MERGED) return;
        if (g) size *= g;
    }
    switch (in->space) {
    case WS_SP_SHARED: smask = mask; break;
    case WS_SP_GLOBAL:
        if (in->m.space == PTX_SPACE_CONST) {
            s->const_requests++;
            s->const_addresses += ws_distinct_addresses(addr, mask);
            return;
        }
        gmask = mask;
        break;
    case WS_SP_GENERIC:
        FOR_LANES(mask, lane) {
            ws_generic_space g = ws_generic_classify(addr[lane], &shared_off[lane]);
            if (g == WS_GEN_SHARED) smask |= UINT32_C(1) << lane;
            else if (g == WS_GEN_GLOBAL) gmask |= UINT32_C(1) << lane;
        }
        saddr = shared_off;
        break;
    default: return;
    }
    ws_mem_resolved own, *r = res ? res : &own;
    if (smask) {
        const ws_bank_access *b = &r->banks;
        /* the lanes' offsets keep their addresses' pattern when all are in shared memory */
        bool known = wb && wb->halves && smask == mask;
        ws_bank_halves halves = {.step = known ? wb->step : 0, .jump = known ? saddr[16] - saddr[0] : 0};
        if (known && size == 4 && (wb->step == 0 || wb->step == 4) && !((saddr[0] | saddr[16]) & 3)) {
            /* whole words in two halves: the rule from lanes 0 and 16 alone */
            ws_bank_access_halves4(saddr[0] / 4, saddr[16] / 4, wb->step == 4, &r->banks);
        } else {
            if (!x->bank_memo) x->bank_memo = calloc(WS_BANK_MEMOS, sizeof *x->bank_memo);
            if (x->bank_memo)
                ws_bank_access_eval_memo(x->bank_memo, (uint32_t)pc, saddr, smask, size, op == ACC_LD,
                                         known ? &halves : NULL, &r->banks);
            else
                ws_bank_access_eval(saddr, smask, size, op == ACC_LD, &r->banks);
        }
        count_shared(x, pcc, op, b);
    }
    if (gmask) {
        const ws_coalesce *co = &r->coalesce;
        /* a full warp in two strided halves (found when its bytes were
         * fetched): its sectors without reading the lanes again */
        uint32_t csize = size < 16 ? size : 16;
        if (wb && wb->halves && gmask == UINT32_MAX && size && wb->step <= csize)
            ws_coalesce_halves(addr[0], addr[16], wb->step, csize, &r->coalesce);
        else
            ws_coalesce_eval(addr, gmask, size, &r->coalesce);
        count_global(x, pcc, op, co, addr, gmask, size);
    }
    resolved_as(r, op, size, smask, gmask);
}

/* account for a full warp's shared-word access as shared_word_halves
 * found it (wb, and the addresses of lanes 0 and 16): the same counters
 * and resolved access, its banks from the two halves.  Where a SASS group
 * may widen the access, account itself. */
static void account_shared_words(ws_exec *x, const ws_insn *in, int32_t pc, const uint64_t *addrs, int op,
                                 ws_mem_resolved *res, const warp_bytes *wb)
{
    if (x->p->sass_group) {
        account(x, in, pc, UINT32_MAX, addrs, 4, op, res, wb);
        return;
    }
    ws_bank_access own, *b = res ? &res->banks : &own;
    ws_bank_access_halves4(addrs[0] / 4, addrs[16] / 4, wb->step == 4, b);
    count_shared(x, x->l->pc_counts ? &x->l->pc_counts[pc] : NULL, op, b);
    if (res) resolved_as(res, op, 4, UINT32_MAX, 0);
}

/* The value a loaded element gets in its register: sign- or zero-extended
 * to the register's width. */
static uint64_t extend(uint64_t raw, ptx_type t, uint32_t es, uint32_t rw)
{
    if (ptx_type_is_signed(t) && es < 8 && (raw >> (8 * es - 1)) & 1)
        raw |= ~UINT64_C(0) << (8 * es);
    return rw >= 8 ? raw : raw & ((UINT64_C(1) << (8 * rw)) - 1);
}

/* ---- the warp at once ----------------------------------------------------
 * ld, st and atom first compute every lane's address, then resolve the
 * access for the whole warp (warp_bytes_of) and move each lane's bytes
 * straight between memory and registers (under --racecheck or
 * --initcheck then giving the lanes to the checks: checked_lanes).
 * Whenever some lane needs more (a fault to report, a global write or an
 * atomic under --initcheck, bytes in several allocations or pages) the
 * lanes go one by one through mem_access instead, which gives the same
 * result and the exact message. */

static inline uint8_t *lane_bytes(const warp_bytes *wb, const uint64_t *addr, int lane)
{
    return wb->host + (size_t)lane * wb->per_lane + (size_t)(addr[lane] - wb->origin);
}

/* Whether a check watches each lane's access (racecheck, initcheck): the
 * lanes of an access resolved for the warp at once go to it afterwards
 * (checked_lanes). */
static bool lanes_watched(const ws_exec *x)
{
    return x->checks && (x->l->checks & (WS_CHECK_RACE | WS_CHECK_INIT));
}

/* Whether a check watches a warp's writes: initcheck marks the bytes a
 * store or an atomic wrote (global memory: mark_lanes; shared: the
 * block's shadow), so a store found ahead in a window (host_lanes), whose
 * bytes move at the window's end with nothing else done, is none of its.
 * racecheck watches shared memory only, and neither check watches local,
 * parameter or constant space. */
static bool writes_watched(const ws_exec *x)
{
    return x->checks && (x->l->checks & WS_CHECK_INIT);
}

/* Whether size bytes at every offset up to hi fit in n bytes (as
 * mem_access checks each lane). */
static bool fits(uint64_t hi, uint32_t size, uint64_t n)
{
    return hi <= n && size <= n - hi;
}

/* A full warp's lowest and highest address and their bits or-ed, when
 * every lane lies within 2 GiB of lane 0 (nearly always): then the
 * minimum and maximum are taken on 32-bit offsets, which the compiler
 * vectorizes (64-bit unsigned comparisons it cannot, without SSE4.2). */
static bool lanes_near(const uint64_t *addr, uint64_t *lo, uint64_t *hi, uint64_t *bits)
{
    uint64_t a0 = addr[0], far = 0, or = 0;
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        far |= (addr[lane] - a0 + (UINT64_C(1) << 31)) >> 32;
        or |= addr[lane];
    }
    if (far) return false;
    int32_t mn = 0, mx = 0;
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        int32_t d = (int32_t)(uint32_t)(addr[lane] - a0);
        mn = d < mn ? d : mn;
        mx = d > mx ? d : mx;
    }
    *lo = a0 + (uint64_t)(int64_t)mn;
    *hi = a0 + (uint64_t)(int64_t)mx;
    if (*hi < *lo) return false;    /* the lanes wrap around (a negative offset): their true span */
    *bits = or;
    return true;
}

/* The lowest and highest address of mask's lanes and their bits or-ed
 * (mask empty: UINT64_MAX, 0, 0). */
static void lanes_span(const uint64_t *addr, uint32_t mask, uint64_t *lo, uint64_t *hi, uint64_t *bits)
{
    if (mask == UINT32_MAX && lanes_near(addr, lo, hi, bits)) return;
    /* in locals: the outputs might alias addr, for all the compiler knows */
    uint64_t l = UINT64_MAX, h = 0, or = 0;
    FOR_LANES(mask, lane) {
        uint64_t a = addr[lane];
        l = a < l ? a : l;
        h = a > h ? a : h;
        or |= a;
    }
    *lo = l;
    *hi = h;
    *bits = or;
}

/* Whether a full warp is two half-warps that each step by one stride, 0
 * (an address per half) or the access's size (consecutive words): lane l
 * at addr[l & 16] + (l & 15) * step.  A whole run is such a warp, and so
 * is each warp of the course's 16x16 blocks (two rows of 16 threads)
 * reading a row or a column of a tile. */
static bool halves_step(const uint64_t *addr, uint32_t size, uint64_t *step)
{
    uint64_t second;
    return ws_half_run(addr, size, step) && ws_half_run(addr + 16, size, &second) && second == *step;
}

/* Whether the lanes of mask at addr, size bytes each (a power of two),
 * write every byte of [lo, lo + n), which holds them all.  uniform: every
 * lane at one address; whole: known to (a full warp of consecutive words). */
static bool lanes_cover(uint64_t lo, uint64_t n, const uint64_t *addr, uint32_t mask, uint32_t size, bool uniform,
                        bool whole)
{
    uint64_t slots = n / size, covered = 0;
    if (slots > 64) return false;
    if (uniform || whole) return uniform ? slots == 1 : true;
    uint32_t shift = (uint32_t)__builtin_ctz(size);
    FOR_LANES(mask, lane) covered |= UINT64_C(1) << ((addr[lane] - lo) >> shift);
    return covered == (slots == 64 ? ~UINT64_C(0) : (UINT64_C(1) << slots) - 1);
}

/* initcheck: the global bytes the lanes wrote, marked written where the
 * memory keeps which were (ws_devmem_track_init), the lanes' run at once
 * where they cover it, as a write through mem_access marks them.  False
 * when out of memory. */
static bool mark_lanes(ws_exec *x, const uint64_t *addrs, uint32_t mask, uint32_t size)
{
    ws_devmem *m = x->p->mem;
    if (!ws_devmem_tracks_init(m)) return true;
    uint64_t lo, hi, bits;
    lanes_span(addrs, mask, &lo, &hi, &bits);
    bool ok = true;
    if (lanes_cover(lo, hi + size - lo, addrs, mask, size, false, false)) {
        ok = ws_devmem_mark_init(m, lo, hi + size - lo);
    } else {
        FOR_LANES(mask, lane) ok = ok && ws_devmem_mark_init(m, addrs[lane], size);
    }
    if (!ok) ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory");
    return ok;
}

/* Where the lanes of mask at addr, size bytes each, are aligned and near:
 * the slots of size bytes from *lo they fill, as bits (*slots); false
 * otherwise. */
static bool lane_slots(const uint64_t *addr, uint32_t mask, uint32_t size, uint64_t *lo, uint64_t *slots)
{
    uint64_t hi, bits;
    lanes_span(addr, mask, lo, &hi, &bits);
    if ((size & (size - 1)) || ((bits | *lo) & (size - 1)) || hi - *lo >= 64 * (uint64_t)size) return false;
    uint32_t shift = (uint32_t)__builtin_ctz(size);
    *slots = 0;
    FOR_LANES(mask, lane) *slots |= UINT64_C(1) << ((addr[lane] - *lo) >> shift);
    return true;
}

/* The watcher (the reuse recorder) told of [at, at + n).  ahead: from the
 * SM's thread, of a write put off (ws_devmem_tell_ahead). */
static void tell_span(ws_devmem *m, uint64_t at, uint64_t n, bool write, bool ahead)
{
    if (ahead) ws_devmem_tell_ahead(m, at, n, write);
    else ws_devmem_tell(m, at, n, write);
}

/* The watcher told of the slots of size bytes from lo that slots marks,
 * one note per run of neighbours (lanes on one address, a histogram's
 * bins: one note). */
static void tell_runs(ws_devmem *m, uint64_t lo, uint64_t slots, uint32_t size, bool write, bool ahead)
{
    uint32_t shift = (uint32_t)__builtin_ctz(size);
    while (slots) {
        uint32_t first = (uint32_t)__builtin_ctzll(slots), end = 64;
        uint64_t above = ~(slots >> first);
        if (above) end = first + (uint32_t)__builtin_ctzll(above);
        tell_span(m, lo + ((uint64_t)first << shift), (uint64_t)(end - first) << shift, write, ahead);
        slots = end == 64 ? 0 : slots & (~UINT64_C(0) << end);
    }
}

/* The watcher told of the bytes the lanes of mask at addr, size bytes
 * each, read or write: by runs (tell_runs) where they are aligned and
 * near, else lane by lane; an atomic's (both) as read, then written. */
static void tell_lanes(ws_devmem *m, const uint64_t *addr, uint32_t mask, uint32_t size, bool write, bool both,
                       bool ahead)
{
    uint64_t lo, slots;
    if (lane_slots(addr, mask, size, &lo, &slots)) {
        if (both) tell_runs(m, lo, slots, size, false, ahead);
        tell_runs(m, lo, slots, size, write, ahead);
        return;
    }
    if (both) FOR_LANES(mask, lane) tell_span(m, addr[lane], size, false, ahead);
    FOR_LANES(mask, lane) tell_span(m, addr[lane], size, write, ahead);
}

/* A write's host bytes [lo, lo + n) for the lanes of mask at addr, size
 * bytes each, with the watcher (the reuse recorder) told of exactly the
 * bytes they write, before they change: the whole range once when the
 * lanes cover it, else lane by lane.  whole: they are known to (a full
 * warp of consecutive words).  NULL as ws_devmem_write_span. */
static uint8_t *write_span_told(ws_devmem *m, uint64_t lo, uint64_t n, const uint64_t *addr, uint32_t mask,
                                uint32_t size, bool uniform, bool whole)
{
    uint8_t *h = ws_devmem_write_span(m, lo, n);
    if (!h || !ws_devmem_watched(m)) return h;
    if (lanes_cover(lo, n, addr, mask, size, uniform, whole)) ws_devmem_tell(m, lo, n, true);
    else tell_lanes(m, addr, mask, size, true, false, false);
    return h;
}

/* Whether every lane of mask can be served from one host range, and
 * where (see warp_bytes): addresses aligned, one space, inside it, and for
 * global memory one allocation and one written page.  uniform: the
 * address operand has no register, so every lane's address is the same. */
static bool warp_bytes_of(ws_exec *x, ws_block *b, const ws_warp *w, uint8_t space, const uint64_t *addr,
                          uint32_t mask, uint32_t size, bool write, bool uniform, warp_bytes *out)
{
    if (size & (size - 1)) return false;
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0, step = 0;
    bool halves = false;
    if (uniform) {                  /* every lane at one address */
        lo = hi = bits = addr[__builtin_ctz(mask)];
    } else if (mask == UINT32_MAX && (halves = halves_step(addr, size, &step))) {
        uint64_t a = addr[0], c = addr[16], top = a > c ? a : c;
        lo = a < c ? a : c;
        hi = top + 15 * step;
        if (hi < top) return false;     /* a half wraps around (a negative offset): lane by lane */
        bits = a | c;               /* the other lanes step by 0 or size */
    } else if (mask != UINT32_MAX || !lanes_near(addr, &lo, &hi, &bits)) {
        FOR_LANES(mask, lane) {
            uint64_t a = addr[lane];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            bits |= a;
        }
    }
    if (bits & (size - 1)) return false;        /* a lane misaligned */
    uint64_t origin = 0, ohi;
    if (space == WS_SP_GENERIC) {
        uint64_t off;
        ws_generic_space g = ws_generic_classify(lo, &off);
        if (ws_generic_classify(hi, &off) != g) return false;
        if (g == WS_GEN_SHARED) space = WS_SP_SHARED, origin = WS_SHARED_WINDOW;
        else if (g == WS_GEN_LOCAL) space = WS_SP_LOCAL, origin = WS_LOCAL_WINDOW;
        else if (lo >= WS_GLOBAL_BASE) space = WS_SP_GLOBAL;   /* above both windows */
        else return false;
    }
    ohi = hi - origin;
    const ws_program *p = x->p;
    size_t frame = (size_t)w->index * WS_WARP_SIZE;     /* the warp's first thread's frame */
    /* under the checks the caller gives a read of global memory and an
     * access of shared memory to the checks as mem_access would
     * (checked_lanes), and marks a store's global bytes (mark_lanes) */
    switch (space) {
    case WS_SP_GLOBAL: {
        if (hi - lo >= ((uint64_t)1 << 20)) return false;
        /* halves of consecutive words spanning 32 words: the two make one run */
        bool whole = halves && step == size && hi - lo + size == (uint64_t)WS_WARP_SIZE * size;
        uint8_t *h = write ? write_span_told(p->mem, lo, hi - lo + size, addr, mask, size, uniform, whole)
                           : ws_devmem_read_span(p->mem, &x->span_memo, lo, hi - lo + size);
        if (!h) return false;
        *out = (warp_bytes){.host = h, .origin = lo, .per_lane = 0, .uniform = uniform, .halves = halves, .step = step,
                            .global = true};
        return true;
    }
    case WS_SP_SHARED:
        if (!fits(ohi, size, b->shared_size)) return false;
        *out = (warp_bytes){.host = b->shared, .origin = origin, .per_lane = 0, .uniform = uniform,
                            .halves = halves, .step = step, .shared = true};
        return true;
    case WS_SP_LOCAL: {       /* the kernel's window, as mem_access */
        const ws_kernel *k = x->k;
        if (lo - origin < k->local_lo || !fits(ohi - k->local_lo, size, k->local_size)) return false;
        *out = (warp_bytes){.host = b->local + frame * k->local_size, .origin = origin + k->local_lo,
                            .per_lane = k->local_size};
        return true;
    }
    case WS_SP_PARAM:
        if (hi < WS_TPARAM_BASE) {
            if (write || !fits(hi, size, x->l->params_size)) return false;
            *out = (warp_bytes){.host = (uint8_t *)x->l->params, .origin = 0, .per_lane = 0, .uniform = uniform};
            return true;
        }
        {
            const ws_kernel *k = x->k;
            if (lo < WS_TPARAM_BASE + k->tparam_lo || !fits(hi - WS_TPARAM_BASE - k->tparam_lo, size, k->tparam_size))
                return false;
            *out = (warp_bytes){.host = b->tparam + frame * k->tparam_size, .origin = WS_TPARAM_BASE + k->tparam_lo,
                                .per_lane = k->tparam_size};
            return true;
        }
    }
    return false;
}

static void warp_addrs(const ws_exec *x, const ws_warp *w, const ws_opnd *a, uint32_t mask, uint64_t *out)
{
    uint64_t base = a->imm + (a->sym >= 0 ? x->k->shared_off[a->sym] : 0);
    if (a->reg < 0) {
        FOR_LANES_DO(mask, lane, out[lane] = base);
        return;
    }
    if (a->narrow) {    /* a 32-bit address (shared memory's, mostly) */
        const uint32_t *r = ws_row32(w, a->row);
        FOR_LANES_DO(mask, lane, out[lane] = r[lane] + base);
        return;
    }
    const uint64_t *r = ws_row64(w, a->row);
    FOR_LANES_DO(mask, lane, out[lane] = r[lane] + base);
}

/* ---- accesses put off to the end of the cycle (ws_deferred) ---------- */

/* Whether a write (a store, an atomic) to space at addrs waits for the end
 * of the cycle: the launch puts writes off (x->defer) and some lane reaches
 * global memory, which the SMs share; shared and local memory belong to
 * the block. */
static bool put_off(const ws_exec *x, uint8_t space, const ws_insn *in, const uint64_t *addrs, uint32_t mask)
{
    if (!x->defer || x->applying || !mask) return false;
    if (space == WS_SP_GLOBAL) return in->m.space != PTX_SPACE_CONST;
    if (space != WS_SP_GENERIC) return false;
    FOR_LANES(mask, lane) {
        uint64_t off;
        if (ws_generic_classify(addrs[lane], &off) == WS_GEN_GLOBAL) return true;
    }
    return false;
}

/* Whether lanes from lo to hi (their lowest and highest addresses), size
 * bytes each, are all global (above both windows) and inside one of ap's
 * allocations (in: a store) or clear of them all (a load). */
static bool apart_span_ok(const ws_apart *ap, uint64_t lo, uint64_t hi, uint32_t size, bool in)
{
    if (lo < WS_LOCAL_WINDOW + WS_WINDOW_SIZE || hi > UINT64_MAX - size) return false;
    bool ok = !in;
    for (uint32_t i = 0; i < ap->n; i++) {
        if (in) ok |= lo >= ap->lo[i] && hi < ap->hi[i] && size <= ap->hi[i] - hi;
        else ok &= hi + size <= ap->lo[i] || lo >= ap->hi[i];
    }
    return ok;
}

/* A launch with x->apart (ws_apart): whether each lane's size bytes lie
 * in the allocations its stores write (a store, in) or outside them (a
 * load); else a fault that says why.  A store's lanes in no allocation at
 * all pass here: its own check (store_valid) faults on them as it would
 * cycle by cycle.  What lies in the shared or local window of generic
 * addresses is no concern. */
static bool apart_ok(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc, const uint64_t *addrs, uint32_t mask,
                     uint32_t size, bool in)
{
    const ws_apart *ap = x->apart;
    if (!mask) return true;
    /* the warp at once, its lanes' lowest to highest address; else lane by
     * lane, for the exact fault */
    uint64_t lo, hi, bits;
    lanes_span(addrs, mask, &lo, &hi, &bits);
    if (apart_span_ok(ap, lo, hi, size, in)) return true;
    FOR_LANES(mask, lane) {
        uint64_t a = addrs[lane], off;
        if (ws_generic_classify(a, &off) != WS_GEN_GLOBAL) continue;
        bool inside = false;
        for (uint32_t i = 0; i < ap->n && !inside; i++)
            inside = a >= ap->lo[i] && a < ap->hi[i] && size <= ap->hi[i] - a;
        bool touches = inside;
        for (uint32_t i = 0; i < ap->n && !touches; i++) touches = a < ap->hi[i] && a + size > ap->lo[i];
        if (in ? inside : !touches) continue;
        uint64_t base, len;
        if (in && !(ws_devmem_allocation_of(x->p->mem, a, &base, &len) && size <= base + len - a))
            continue;       /* in no allocation: the store's own check reports it, as cycle by cycle */
        ws_fault(x, b, w, lane, pc,
                 "%s address 0x%llx %s the allocations this launch's stores write: it runs in windows of cycles "
                 "because its loads and stores go through pointer parameters that point to different "
                 "allocations, so no load may read what a store of the same window wrote; run it with "
                 "--window 1 (cycle by cycle)", in ? "store to" : "load from", (unsigned long long)a,
                 in ? "outside" : "inside");
        return false;
    }
    return true;
}

/* Whether a global store's lanes may write where they point, checked when
 * it issues, as its data movement would check them: a store captured for
 * the end of a window reports its fault at once, while its block is the
 * one in its slot.  The allocations do not change while a kernel runs. */
static bool store_valid(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask,
                        const uint64_t *addrs, uint32_t total, mem_what what)
{
    uint64_t lo, hi, bits;
    lanes_span(addrs, mask, &lo, &hi, &bits);
    if (!mask || ((total <= 1 || (bits & (total - 1)) == 0) && (total & (total - 1)) == 0 &&
                  ws_devmem_valid(x->p->mem, lo, hi - lo + total)))
        return true;
    FOR_LANES(mask, lane) {
        uint8_t buf[64] = {0};
        /* an invalid range is written nowhere: the fault only */
        if (!check_align(x, b, w, lane, pc, in->space, addrs[lane], total, what) ||
            (!ws_devmem_valid(x->p->mem, addrs[lane], total) &&
             !mem_access(x, b, w, lane, pc, in->space, addrs[lane], buf, total, what == WHAT_WRITE, what))) {
            x->fault_put_off = true;
            return false;
        }
    }
    return true;
}

/* Room for n more rows in l's captured rows. */
static bool rows_room(ws_exec *x, ws_deferred_list *l, uint32_t n)
{
    if (l->nrows + n <= l->rowcap) return true;
    uint32_t cap = l->rowcap ? 2 * l->rowcap : 64;
    while (cap < l->nrows + n) cap *= 2;
    uint64_t *rows = realloc(l->rows, sizeof *rows * WS_WARP_SIZE * cap);
    if (!rows) {
        ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    l->rows = rows;
    l->rowcap = cap;
    return true;
}

/* Operand o's values copied into row (a captured access's). */
static void capture_row(ws_exec *x, ws_block *b, ws_warp *w, const ws_opnd *o, uint64_t *row)
{
    const uint64_t *src = ws_opnd_row(x, b, w, o, row);
    if (src != row) memcpy(row, src, sizeof *row * WS_WARP_SIZE);
}

/* Whether es bytes move as one machine word. */
static bool plain_width(uint32_t es) { return es == 1 || es == 2 || es == 4 || es == 8; }

/* A captured write's global lanes (mask, size bytes at addrs) told now to
 * the watcher, the reuse recorder, from the SM's thread
 * (ws_devmem_tell_ahead); an atomic's as read, then written.  Lanes
 * of a generic address in shared or local memory are not global memory's. */
static void tell_ahead(ws_exec *x, const ws_insn *in, uint32_t mask, const uint64_t *addrs, uint32_t size,
                       bool atomic)
{
    ws_devmem *m = x->p->mem;
    uint64_t off;
    if (in->space != WS_SP_GLOBAL)
        FOR_LANES(mask, lane) if (ws_generic_classify(addrs[lane], &off) != WS_GEN_GLOBAL) mask &= ~(UINT32_C(1) << lane);
    if (!mask) return;
    tell_lanes(m, addrs, mask, size, true, atomic, true);
}

/* Where each lane of a captured global write (mask, size bytes at addrs)
 * will write, found now on the SM's thread, into host (as host
 * addresses): then the write, at the window's end, moves bytes and nothing
 * else.  make: the write has a byte that is not zero, so where its lanes
 * lie in one page not made yet, the page is made ahead
 * (ws_devmem_write_span_ahead), as the write would make it.  True with
 * the bytes the lanes span, [*lo, *end).  False, host unchanged, when
 * some lane's bytes are not in a page otherwise: that write finds them
 * when it is made.  (A list with zeros_to_sink gives a store of zeros
 * the list's sink for its lanes in pages not made.) */
static bool host_lanes(ws_exec *x, const ws_insn *in, uint32_t mask, const uint64_t *addrs, uint32_t size,
                       bool make, uint64_t *host, uint64_t *lo, uint64_t *end)
{
    if (in->space != WS_SP_GLOBAL || !mask || !plain_width(size) || writes_watched(x)) return false;
    ws_devmem *m = x->p->mem;
    uint64_t hi, bits;
    lanes_span(addrs, mask, lo, &hi, &bits);
    *end = hi + size;
    if (bits & (size - 1)) return false;
    uint8_t *h = hi - *lo < ((uint64_t)1 << 16) ? ws_devmem_write_span_ahead(m, &x->span_memo, *lo, *end - *lo, make)
                                                : NULL;
    if (h) {
        FOR_LANES_DO(mask, lane, host[lane] = (uint64_t)(uintptr_t)(h + (addrs[lane] - *lo)));
        return true;
    }
    uint8_t *sink = !make && in->cls == WS_I_ST && x->defer->zeros_to_sink ? x->defer->sink : NULL;
    if (sink && ws_devmem_unmade(m, *lo, *end - *lo)) {
        FOR_LANES_DO(mask, lane, host[lane] = (uint64_t)(uintptr_t)sink);
        return true;
    }
    uint8_t *each[WS_WARP_SIZE];
    FOR_LANES(mask, lane) {
        each[lane] = ws_devmem_write_span_ahead(m, &x->span_memo, addrs[lane], size, false);
        if (!each[lane] && sink && ws_devmem_unmade(m, addrs[lane], size)) each[lane] = sink;
        if (!each[lane]) return false;
    }
    FOR_LANES_DO(mask, lane, host[lane] = (uint64_t)(uintptr_t)each[lane]);
    return true;
}

/* Whether a captured store's values (nv rows of es-byte elements, the
 * lanes of mask) have a byte that is not zero. */
static bool any_byte_set(const uint64_t *values, uint32_t nv, uint32_t mask, uint32_t es)
{
    uint64_t keep = es >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * es)) - 1, any = 0;
    for (uint32_t k = 0; k < nv; k++) FOR_LANES_DO(mask, lane, any |= values[(size_t)k * WS_WARP_SIZE + lane]);
    return (any & keep) != 0;
}

/* With several threads, the lines a put-off write will write, claimed
 * for its SM (write_claims.h): a captured store whose host bytes were
 * found (hosted), its lanes spanning [lo, end); any other marks the
 * window's writes for one thread. */
static void claim_lines(ws_deferred_list *l, bool hosted, uint64_t lo, uint64_t end)
{
    if (hosted) ws_write_claims_store(l->claims, l->sm, lo, end, &l->last_claim);
    else ws_write_claims_clash(l->claims);
}

/* Room in x's list for one more access put off; false on out of memory. */
static bool defer_room(ws_exec *x, ws_deferred_list *l)
{
    if (l->n < l->cap) return true;
    uint32_t cap = l->cap ? 2 * l->cap : 16;
    ws_deferred *a = realloc(l->a, sizeof *a * cap);
    if (!a) {
        ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    l->a = a;
    l->cap = cap;
    return true;
}

/* An atomic's second operand, c of atom.cas (compare b, swap in c), or
 * NULL: the others take one. */
static const ws_opnd *atom_cas_operand(const ws_insn *in)
{
    return in->m.op != PTX_OP_RED && in->nops > 3 ? &in->ops[3] : NULL;
}

/* Puts an access off to the end of the cycle (or of the window, where the
 * list captures: then a store takes its addrs and values along). */
static bool defer_push(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask,
                       const uint64_t *addrs)
{
    ws_deferred_list *l = x->defer;
    if (!defer_room(x, l)) return false;
    uint32_t rows = UINT32_MAX;
    bool hosted = false, hosted_store = false;
    uint64_t lo = 0, end = 0;   /* a hosted store's bytes */
    if (l->capture && in->cls == WS_I_ATOM) {
        /* its addresses and operands, a row each (a third row only for
         * cas, the one atomic with two operands: a row is 256 bytes the
         * host's caches take in for every warp's atomic); its old values
         * go to its destination when it is done (the warp waits for them
         * till then, and the register has a row of its own: reg_rows.c) */
        bool red = in->m.op == PTX_OP_RED;
        const ws_opnd *bo = &in->ops[red ? 1 : 2], *co = atom_cas_operand(in);
        uint32_t nrows = co ? 3 : 2;
        if (!store_valid(x, b, w, in, pc, mask, addrs, ptx_type_size(in->m.types[0]), WHAT_ATOMIC) ||
            !rows_room(x, l, nrows))
            return false;
        rows = l->nrows;
        uint64_t *dst = l->rows + (size_t)rows * WS_WARP_SIZE;
        memcpy(dst, addrs, sizeof *dst * WS_WARP_SIZE);
        capture_row(x, b, w, bo, dst + WS_WARP_SIZE);
        if (co) capture_row(x, b, w, co, dst + 2 * WS_WARP_SIZE);
        l->nrows += nrows;
        uint32_t size = ptx_type_size(in->m.types[0]);
        if (ws_devmem_watched(x->p->mem)) tell_ahead(x, in, mask, addrs, size, true);
        hosted = host_lanes(x, in, mask, addrs, size, false, dst, &lo, &end);
    } else if (l->capture) {
        if (in->cls != WS_I_ST) {
            ws_fault(x, b, w, -1, pc, "internal error: an access other than a store put off to a window's end");
            return false;
        }
        const ws_opnd *v = &in->ops[1];
        const ws_opnd *el = v->kind == WS_OK_VEC ? &x->p->vec[v->elem0] : v;
        uint32_t nv = v->kind == WS_OK_VEC ? v->nelems : 1;
        if (!store_valid(x, b, w, in, pc, mask, addrs, ptx_type_size(in->m.types[0]) * nv, WHAT_WRITE) ||
            !rows_room(x, l, 1 + nv))
            return false;
        rows = l->nrows;
        uint64_t *dst = l->rows + (size_t)rows * WS_WARP_SIZE;
        memcpy(dst, addrs, sizeof *dst * WS_WARP_SIZE);
        for (uint32_t k = 0; k < nv; k++) capture_row(x, b, w, &el[k], dst + (size_t)(k + 1) * WS_WARP_SIZE);
        l->nrows += 1 + nv;
        uint32_t es = ptx_type_size(in->m.types[0]), size = es * nv;
        /* before host_lanes puts host addresses where the lanes' are */
        if (l->own && !ws_own_writes_add(l->own, x->clock, dst, dst + WS_WARP_SIZE, nv, es, mask)) {
            ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory");
            return false;
        }
        if (ws_devmem_watched(x->p->mem)) tell_ahead(x, in, mask, addrs, size, false);
        hosted = hosted_store = host_lanes(x, in, mask, addrs, size, any_byte_set(dst + WS_WARP_SIZE, nv, mask, es),
                                           dst, &lo, &end);
    }
    l->a[l->n++] = (ws_deferred){.b = b, .w = w, .in = in, .pc = pc, .mask = mask, .steps = x->steps,
                                 .cycle = x->clock, .rows = rows, .hosted = hosted};
    if (l->claims) claim_lines(l, hosted_store, lo, end);
    return true;
}

static inline bool little_endian(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return true;
#else
    return false;
#endif
}

/* n bytes little-endian (the host's order where it is little-endian). */
static inline uint64_t load_le(const uint8_t *p, uint32_t n)
{
    if (little_endian()) switch (n) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
    default: break;
    }
    return le_get(p, n);
}

static inline void store_le(uint8_t *p, uint64_t v, uint32_t n)
{
    if (little_endian()) switch (n) {
    case 1: *p = (uint8_t)v; return;
    case 2: { uint16_t u = (uint16_t)v; memcpy(p, &u, 2); return; }
    case 4: { uint32_t u = (uint32_t)v; memcpy(p, &u, 4); return; }
    case 8: memcpy(p, &v, 8); return;
    default: break;
    }
    le_put(p, v, n);
}

/* Whether an atomic is an integer add of 4 or 8 bytes (a histogram's
 * bins): done in a loop of its own, without ws_atom_apply's dispatch for
 * each lane.  old + b wraps as it does there (add_lane), and changes the
 * value wherever b is not 0 (in add_changes' bits). */
static bool int_add(const ptx_mods *m, uint32_t size)
{
    return m->subop == PTX_SUB_ATOM_ADD && !ptx_type_is_float(m->types[0]) && (size == 4 || size == 8);
}

static uint64_t add_changes(uint32_t size) { return size == 8 ? ~UINT64_C(0) : UINT32_MAX; }

/* int_add's lane: b added to the size bytes at p; the old value. */
static inline uint64_t add_lane(uint8_t *p, uint64_t b, uint32_t size)
{
    uint64_t old = load_le(p, size);
    store_le(p, old + b, size);     /* store_le keeps size bytes */
    return old;
}

/* Element at offset off of each lane's bytes into a row, sign-extended
 * (sext: from es bytes) and cut to the register's width (keep): row64, a
 * row of 8-byte lanes, or where it is NULL row32, one of 4-byte lanes
 * (keep then fits 32 bits).  load_row64 and load_row32 below make a copy
 * for each kind of row, with put_lane's test gone.  A loop per width, so
 * that each copies a constant number of bytes. */
static inline void put_lane(uint64_t *row64, uint32_t *row32, int lane, uint64_t v)
{
    if (row64) row64[lane] = v;
    else row32[lane] = (uint32_t)v;
}

static inline __attribute__((always_inline)) void
load_row(uint64_t *row64, uint32_t *row32, const warp_bytes *wb, const uint64_t *addrs, uint32_t mask,
         uint32_t off, uint32_t es, bool sext, uint64_t keep)
{
    uint64_t sign = es < 8 ? UINT64_C(1) << (8 * es - 1) : 0, ext = es < 8 ? ~UINT64_C(0) << (8 * es) : 0;
    if (wb->uniform && wb->per_lane == 0) {     /* one value for every lane */
        int first = __builtin_ctz(mask);
        uint64_t raw = load_le(lane_bytes(wb, addrs, first) + off, es);
        uint64_t v = (sext && (raw & sign) ? raw | ext : raw) & keep;
        FOR_LANES_DO(mask, lane, put_lane(row64, row32, lane, v));
        return;
    }
    if (wb->halves && !sext && (es == 4 || es == 8)) {      /* each half's lanes at a stride */
        for (int h = 0; h < WS_WARP_SIZE; h += 16) {
            const uint8_t *p = lane_bytes(wb, addrs, h) + off;
            size_t stride = (size_t)wb->step;
            if (stride == 0) {     /* the half reads one word */
                uint64_t v = load_le(p, es) & keep;
                for (int lane = 0; lane < 16; lane++) put_lane(row64, row32, h + lane, v);
            } else if (stride == 4 && es == 4 && little_endian()) {
                /* 16 consecutive words (a row of a tile, a run of a
                 * vector): one copy, then a widening loop the compiler
                 * vectorizes */
                uint32_t words[16];
                memcpy(words, p, sizeof words);
                for (int lane = 0; lane < 16; lane++) put_lane(row64, row32, h + lane, words[lane] & keep);
            } else if (es == 4)
                for (int lane = 0; lane < 16; lane++)
                    put_lane(row64, row32, h + lane, load_le(p + lane * stride, 4) & keep);
            else
                for (int lane = 0; lane < 16; lane++)
                    put_lane(row64, row32, h + lane, load_le(p + lane * stride, 8) & keep);
        }
        return;
    }
    if (mask == UINT32_MAX && wb->per_lane == 0 && !sext && (es == 4 || es == 8)) {
        /* the common case (a full warp's 32- or 64-bit words from shared or
         * global memory) as a plain loop over the lanes */
        uint64_t origin = wb->origin - off;
        if (es == 4)
            for (int lane = 0; lane < WS_WARP_SIZE; lane++)
                put_lane(row64, row32, lane, load_le(wb->host + (size_t)(addrs[lane] - origin), 4) & keep);
        else
            for (int lane = 0; lane < WS_WARP_SIZE; lane++)
                put_lane(row64, row32, lane, load_le(wb->host + (size_t)(addrs[lane] - origin), 8) & keep);
        return;
    }
#define LOAD_LANES(n) FOR_LANES(mask, lane) { \
        uint64_t raw = load_le(lane_bytes(wb, addrs, lane) + off, n); \
        put_lane(row64, row32, lane, (sext && (raw & sign) ? raw | ext : raw) & keep); }
    switch (es) {
    case 1: LOAD_LANES(1); break;
    case 2: LOAD_LANES(2); break;
    case 4: LOAD_LANES(4); break;
    default: LOAD_LANES(8); break;
    }
#undef LOAD_LANES
}

static void load_row64(uint64_t *row, const warp_bytes *wb, const uint64_t *addrs, uint32_t mask,
                       uint32_t off, uint32_t es, bool sext, uint64_t keep)
{
    load_row(row, NULL, wb, addrs, mask, off, es, sext, keep);
}

static void load_row32(uint32_t *row, const warp_bytes *wb, const uint64_t *addrs, uint32_t mask,
                       uint32_t off, uint32_t es, bool sext, uint64_t keep)
{
    load_row(NULL, row, wb, addrs, mask, off, es, sext, keep);
}

static void store_row(const uint64_t *row, const warp_bytes *wb, const uint64_t *addrs, uint32_t mask,
                      uint32_t off, uint32_t es)
{
    if (wb->halves && wb->step == 4 && es == 4 && wb->per_lane == 0 && little_endian()) {
        /* each half's 16 consecutive words narrowed, then one copy; the
         * second half after the first, as lane by lane where they overlap */
        for (int h = 0; h < WS_WARP_SIZE; h += 16) {
            uint32_t words[16];
            for (int lane = 0; lane < 16; lane++) words[lane] = (uint32_t)row[h + lane];
            memcpy(lane_bytes(wb, addrs, h) + off, words, sizeof words);
        }
        return;
    }
#define STORE_LANES(n) FOR_LANES(mask, lane) store_le(lane_bytes(wb, addrs, lane) + off, row[lane], n)
    switch (es) {
    case 1: STORE_LANES(1); break;
    case 2: STORE_LANES(2); break;
    case 4: STORE_LANES(4); break;
    default: STORE_LANES(8); break;
    }
#undef STORE_LANES
}

/* Whether in reads an aligned word of the launch's parameters at a fixed
 * address (no register, no symbol), within them (no check watches them). */
static bool param_word(const ws_exec *x, const ws_insn *in, uint32_t mask, uint32_t size)
{
    const ws_opnd *a = &in->ops[1];
    if (in->space != WS_SP_PARAM || a->reg >= 0 || a->sym >= 0 || !mask || !plain_width(size)) return false;
    uint64_t addr = (uint64_t)a->imm;
    return addr < WS_TPARAM_BASE && addr % size == 0 && fits(addr, size, x->l->params_size);
}

/* Where each lane of a global access's mask has its size bytes (aligned,
 * inside one allocation and one page of host memory that exists): lanes
 * too far apart for one host range (a column of a matrix, every lane on
 * another row).  False, with nothing done, when some lane is not so: then
 * the lanes go through mem_access, which reports the fault. */
static bool global_lanes(ws_exec *x, uint8_t space, const uint64_t *addrs, uint32_t mask, uint32_t size,
                         bool write, uint8_t *host[WS_WARP_SIZE])
{
    if (space != WS_SP_GLOBAL || !mask || (size & (size - 1))) return false;
    /* under the checks: a read's lanes, checked_lanes; a write's, mark_lanes */
    FOR_LANES(mask, lane) {
        if (addrs[lane] & (size - 1)) return false;
        host[lane] = write ? ws_devmem_write_span(x->p->mem, addrs[lane], size)
                           : ws_devmem_read_span(x->p->mem, &x->span_memo, addrs[lane], size);
        if (!host[lane]) return false;
    }
    /* every lane has its bytes: the watcher told of the writes before
     * they are made */
    if (write) tell_lanes(x->p->mem, addrs, mask, size, true, false, false);
    return true;
}

/* A load of a window whose SM keeps its own writes (own_writes.h): the
 * lanes whose bytes its stores of the window's earlier cycles wrote take
 * those bytes, as they would cycle by cycle.  False when out of memory. */
static bool own_reads(ws_exec *x, ws_warp *w, const ws_insn *in, const ws_opnd *el, uint32_t nv,
                      const uint64_t *addrs, uint32_t mask)
{
    ws_own_writes *o = x->defer->own;
    ptx_type t = in->m.types[0];
    uint32_t es = ptx_type_size(t), total = es * nv;
    uint64_t lo, hi, bits;
    if (!mask || (in->space != WS_SP_GLOBAL && in->space != WS_SP_GENERIC)) return true;
    lanes_span(addrs, mask, &lo, &hi, &bits);
    if (!ws_own_writes_touch(o, x->clock, lo, hi + total)) return true;
    FOR_LANES(mask, lane) {
        uint8_t buf[64];
        bool any;
        ws_devmem_peek(x->p->mem, addrs[lane], buf, total);
        if (!ws_own_writes_overlay(o, x->clock, addrs[lane], buf, total, &any)) {
            ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory");
            return false;
        }
        if (!any) continue;
        for (uint32_t k = 0; k < nv; k++)
            if (el[k].kind == WS_OK_REG)
                ws_reg_set(w, &el[k], lane, extend(load_le(buf + k * es, es), t, es, x->p->reg_width[el[k].reg]));
    }
    return true;
}

/* The checks of a load's or store's lanes that did not go through
 * mem_access, as it makes them, lane by lane: racecheck and initcheck of
 * shared memory (wb: where the warp's bytes were found; NULL: in global
 * memory, lane by lane), initcheck of a global read. */
static void checked_lanes(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc, const warp_bytes *wb,
                          const uint64_t *addrs, uint32_t mask, uint32_t size, bool write)
{
    if (!lanes_watched(x)) return;
    bool race = x->l->checks & WS_CHECK_RACE, init = x->l->checks & WS_CHECK_INIT;
    if (wb && wb->shared) {
        /* initcheck a warp at a time where it shows nothing: a write's
         * marks, or a read of bytes all written; else lane by lane */
        bool init_lanes = init && !write && !ws_init_shared_clean(&b->init, addrs, wb->origin, mask, size);
        if (init_lanes) {
            FOR_LANES(mask, lane) {
                uint64_t off = addrs[lane] - wb->origin;
                if (race) ws_race_access(x, b, w, pc, off, size, write);
                ws_init_shared(x, b, w, lane, pc, off, size, write);
            }
        } else if (race) {
            ws_race_warp(x, b, w, pc, addrs, wb->origin, mask, size, write);
        }
        if (init && write) ws_init_shared_write(&b->init, addrs, wb->origin, mask, size);
    } else if (init && !write && (!wb || wb->global)) {
        FOR_LANES(mask, lane) ws_init_global_read(x, b, w, lane, pc, addrs[lane], size);
    }
}

/* A full warp's ld.shared or st.shared of a word a lane
 * (WS_IF_SHARED_WORD), address operand a: where its two halves each step
 * by 0 or 4 bytes as halves_step finds them, within the block's shared
 * memory and aligned, the lanes' addresses (addrs, as warp_addrs gives
 * them; only lanes 0 and 16's unless every_lane) and where they lie
 * (*wb), found from the address row's 32-bit offsets.  False, having
 * written nothing, where the general path must take the access. */
static bool shared_word_halves(const ws_exec *x, const ws_block *b, const ws_warp *w, const ws_opnd *a,
                               uint64_t *addrs, warp_bytes *wb, bool every_lane)
{
    if (!little_endian()) return false;
    const uint32_t *r = ws_row32(w, a->row);
    uint64_t base = a->imm + (a->sym >= 0 ? x->k->shared_off[a->sym] : 0);
    uint32_t step = r[1] - r[0], diff = 0;
    if (step != 0 && step != 4) return false;
    /* no half wraps around 32 bits, so its 64-bit addresses step alike */
    if (r[0] > UINT32_MAX - 15 * step || r[16] > UINT32_MAX - 15 * step) return false;
    /* a loop for each step, which the compiler vectorizes (a multiply by
     * the step it does not, without SSE4.1) */
    if (step)
        for (uint32_t lane = 0; lane < 16; lane++)
            diff |= (r[lane] ^ (r[0] + 4 * lane)) | (r[16 + lane] ^ (r[16] + 4 * lane));
    else
        for (uint32_t lane = 0; lane < 16; lane++) diff |= (r[lane] ^ r[0]) | (r[16 + lane] ^ r[16]);
    if (diff) return false;
    /* both halves' first lanes in the block's shared memory (so their last
     * lanes' addresses do not wrap around either), aligned */
    uint64_t a0 = r[0] + base, a16 = r[16] + base, hi = (a0 > a16 ? a0 : a16) + 15 * step;
    if (((a0 | a16) & 3) || a0 >= b->shared_size || a16 >= b->shared_size || !fits(hi, 4, b->shared_size))
        return false;
    if (every_lane)
        for (int lane = 0; lane < WS_WARP_SIZE; lane++) addrs[lane] = r[lane] + base;
    addrs[0] = a0;
    addrs[16] = a16;
    *wb = (warp_bytes){.host = b->shared, .origin = 0, .halves = true, .step = step, .shared = true};
    return true;
}

/* Whether something past account reads every lane's address of a
 * shared-word or global-word access (else lanes 0 and 16's are enough:
 * the copies, ws_bank_access_halves4 and ws_coalesce_halves read those
 * alone): an issue trace, from the step's record (the timing model reads
 * the access's resolved banks or sectors, which hold its size, lanes and
 * kind), or account's general rule where a SASS group widens the
 * access. */
static bool every_address_read(const ws_exec *x, const ws_step_info *info)
{
    return (info && (x->l->trace || x->trace_addrs)) || x->p->sass_group;
}

/* ld.shared of a word a lane (WS_IF_SHARED_WORD) as shared_word_halves
 * finds it: each half's words into the destination row, as the general
 * path copies halves (load_row32). */
static bool ld_shared_words(const ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, uint64_t *addrs,
                            warp_bytes *wb, bool every_lane)
{
    if (!shared_word_halves(x, b, w, &in->ops[1], addrs, wb, every_lane)) return false;
    load_row32(ws_row32(w, in->ops[0].row), wb, addrs, UINT32_MAX, 0, 4, false, UINT32_MAX);
    return true;
}

/* st.shared of a word a lane (WS_IF_SHARED_WORD) as shared_word_halves
 * finds it: each half's words from the value row, the second half after
 * the first and a half on one word its last lane's, as lane by lane. */
static bool st_shared_words(const ws_exec *x, ws_block *b, const ws_warp *w, const ws_insn *in, uint64_t *addrs,
                            warp_bytes *wb, bool every_lane)
{
    if (!shared_word_halves(x, b, w, &in->ops[0], addrs, wb, every_lane)) return false;
    const uint32_t *v = ws_row32(w, in->ops[1].row);
    for (int h = 0; h < WS_WARP_SIZE; h += 16) {
        uint8_t *p = b->shared + addrs[h];
        if (wb->step) memcpy(p, v + h, 16 * sizeof *v);
        else memcpy(p, v + h + 15, sizeof *v);
    }
    return true;
}

/* ld.global of a word a lane (WS_IF_GLOBAL_WORD) for a full warp whose
 * two halves each step by 0 or 4 bytes (halves_step), aligned, in one
 * allocation and, in a window run apart, clear of what its stores write
 * (apart_span_ok): each half's words into the destination row, as the
 * general path copies halves (load_row32), the window's own earlier
 * writes over them (own_reads) and the access counted as account counts
 * it, its sectors from its halves.  The lanes' addresses go to addrs, as
 * warp_addrs gives them: every lane's where something past the copy reads
 * them (an issue trace, the pc's counters, the own writes, a SASS group),
 * else lanes 0 and 16's.  0: the general path must take the access (no
 * register written); 1: done; -1: out of memory. */
static int ld_global_words(ws_exec *x, ws_warp *w, const ws_insn *in, int32_t pc, uint64_t *addrs,
                           ws_step_info *info)
{
    if (!little_endian()) return 0;
    const ws_opnd *a = &in->ops[1];
    const uint64_t *r = ws_row64(w, a->row);
    uint64_t base = a->imm + (a->sym >= 0 ? x->k->shared_off[a->sym] : 0);
    /* halves_step on the row, a loop for each step with constant offsets,
     * which the compiler vectorizes (halves_step's running sum it does
     * not: 4 % more host instructions in a naive matmul) */
    uint64_t step = r[1] - r[0], diff = 0;
    if (step != 0 && step != 4) return 0;
    if (step)
        for (uint64_t lane = 0; lane < 16; lane++)
            diff |= (r[lane] ^ (r[0] + 4 * lane)) | (r[16 + lane] ^ (r[16] + 4 * lane));
    else
        for (uint32_t lane = 0; lane < 16; lane++) diff |= (r[lane] ^ r[0]) | (r[16 + lane] ^ r[16]);
    if (diff) return 0;
    /* as warp_bytes_of finds a warp in halves: no half wraps around, every
     * lane aligned, and the span within one read */
    uint64_t a0 = r[0] + base, a16 = r[16] + base, lo = a0 < a16 ? a0 : a16, top = a0 > a16 ? a0 : a16;
    uint64_t hi = top + 15 * step;
    if (hi < top || ((a0 | a16) & 3) || hi - lo >= ((uint64_t)1 << 20)) return 0;
    if (x->apart && !apart_span_ok(x->apart, lo, hi, 4, false)) return 0;
    uint8_t *h = ws_devmem_read_span(x->p->mem, &x->span_memo, lo, hi - lo + 4);
    if (!h) return 0;
    bool own = x->defer && x->defer->own && !x->applying && ws_own_writes_touch(x->defer->own, x->clock, lo, hi + 4);
    if (own || every_address_read(x, info) || x->l->pc_counts)
        for (int lane = 0; lane < WS_WARP_SIZE; lane++) addrs[lane] = r[lane] + base;
    addrs[0] = a0;
    addrs[16] = a16;
    warp_bytes wb = {.host = h, .origin = lo, .halves = true, .step = step, .global = true};
    load_row32(ws_row32(w, in->ops[0].row), &wb, addrs, UINT32_MAX, 0, 4, false, UINT32_MAX);
    if (own && !own_reads(x, w, in, &in->ops[0], 1, addrs, UINT32_MAX)) return -1;
    ws_mem_resolved *res = info ? &info->resolved : NULL;
    if (x->p->sass_group) {
        account(x, in, pc, UINT32_MAX, addrs, 4, ACC_LD, res, &wb);
        return 1;
    }
    ws_coalesce mine, *co = res ? &res->coalesce : &mine;
    ws_coalesce_halves(a0, a16, step, 4, co);
    count_global(x, x->l->pc_counts ? &x->l->pc_counts[pc] : NULL, ACC_LD, co, addrs, UINT32_MAX, 4);
    if (res) resolved_as(res, ACC_LD, 4, 0, UINT32_MAX);
    return 1;
}

bool ws_exec_ld(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                uint32_t mask, ws_step_info *info)
{
    uint64_t own[WS_WARP_SIZE], *addrs = info ? info->addr : own;
    warp_bytes wb;
    if ((in->flags & WS_IF_SHARED_WORD) && mask == UINT32_MAX && !lanes_watched(x) &&
        ld_shared_words(x, b, w, in, addrs, &wb, every_address_read(x, info))) {
        record(info, in->space, 4, false);
        account_shared_words(x, in, pc, addrs, ACC_LD, info ? &info->resolved : NULL, &wb);
        return true;
    }
    if ((in->flags & WS_IF_GLOBAL_WORD) && mask == UINT32_MAX && !lanes_watched(x)) {
        record(info, in->space, 4, false);
        int done = ld_global_words(x, w, in, pc, addrs, info);
        if (done) return done > 0;
    }
    const ws_opnd *d = &in->ops[0], *a = &in->ops[1];
    ptx_type t = in->m.types[0];
    uint32_t es = ptx_type_size(t), nv = in->m.vec > 1 ? in->m.vec : 1, total = es * nv;
    const ws_opnd *el = d->kind == WS_OK_VEC ? &x->p->vec[d->elem0] : d;
    if (d->kind == WS_OK_VEC) nv = d->nelems;
    record(info, in->space, total, false);
    if (param_word(x, in, mask, total) && nv == 1 && el->kind == WS_OK_REG) {
        /* a kernel parameter (every kernel's first instructions): one value
         * for every lane, and no counters (param accesses have none) */
        uint64_t addr = (uint64_t)a->imm, raw = load_le(x->l->params + addr, es);
        uint64_t v = extend(raw, t, es, x->p->reg_width[el->reg]);
        if (info) FOR_LANES_DO(mask, lane, addrs[lane] = addr);     /* for the step's record alone */
        if (el->narrow) FOR_LANES_DO(mask, lane, ws_row32(w, el->row)[lane] = (uint32_t)v);
        else FOR_LANES_DO(mask, lane, ws_row64(w, el->row)[lane] = v);
        return true;
    }
    warp_addrs(x, w, a, mask, addrs);
    if (x->apart && (in->space == WS_SP_GLOBAL || in->space == WS_SP_GENERIC) &&
        !apart_ok(x, b, w, pc, addrs, mask, total, false))
        return false;
    const warp_bytes *shape = NULL;     /* what the bank rule may know of the addresses */
    if (mask && plain_width(es) && warp_bytes_of(x, b, w, in->space, addrs, mask, total, false, a->reg < 0, &wb)) {
        bool sext = ptx_type_is_signed(t) && es < 8;
        shape = &wb;
        for (uint32_t k = 0; k < nv; k++) {
            if (el[k].kind != WS_OK_REG) continue;
            uint32_t rw = x->p->reg_width[el[k].reg];
            uint64_t keep = rw >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * rw)) - 1;
            if (el[k].narrow) load_row32(ws_row32(w, el[k].row), &wb, addrs, mask, k * es, es, sext, keep);
            else load_row64(ws_row64(w, el[k].row), &wb, addrs, mask, k * es, es, sext, keep);
        }
        checked_lanes(x, b, w, pc, &wb, addrs, mask, total, false);
    } else {
        uint8_t *host[WS_WARP_SIZE];
        bool lanes = plain_width(es) && global_lanes(x, in->space, addrs, mask, total, false, host);
        FOR_LANES(mask, lane) {
            uint8_t buf[64];
            const uint8_t *src = lanes ? host[lane] : buf;
            uint64_t addr = addrs[lane];
            if (!lanes && (!check_align(x, b, w, lane, pc, in->space, addr, total, WHAT_READ) ||
                           !mem_access(x, b, w, lane, pc, in->space, addr, buf, total, false, WHAT_READ)))
                return false;
            for (uint32_t k = 0; k < nv; k++)
                if (el[k].kind == WS_OK_REG)
                    ws_reg_set(w, &el[k], lane, extend(load_le(src + k * es, es), t, es,
                                                       x->p->reg_width[el[k].reg]));
        }
        if (lanes) checked_lanes(x, b, w, pc, NULL, addrs, mask, total, false);
    }
    if (x->defer && x->defer->own && !x->applying && !own_reads(x, w, in, el, nv, addrs, mask)) return false;
    account(x, in, pc, mask, addrs, total, ACC_LD, info ? &info->resolved : NULL, shape);
    return true;
}

#define WS_MAX_VEC 8    /* elements of a vector operand (.v8 at most) */

/* A store's data movement: addrs and a row of values per vector element
 * (values[k], nv of them) for the lanes in mask.  *resolved: the warp's
 * bytes were found at once, as *wb says.  False on a fault. */
static bool store_values(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask,
                         const uint64_t *addrs, const uint64_t *const *values, uint32_t nv,
                         warp_bytes *wb, bool *resolved)
{
    uint32_t es = ptx_type_size(in->m.types[0]), total = es * nv;
    *resolved = mask && plain_width(es) &&
                warp_bytes_of(x, b, w, in->space, addrs, mask, total, true, in->ops[0].reg < 0, wb);
    if (*resolved) {
        /* element by element: lanes' vectors are aligned to their whole
         * size, so two lanes' vectors coincide or do not overlap, and the
         * last lane on an address wins as it does lane by lane */
        for (uint32_t k = 0; k < nv; k++) store_row(values[k], wb, addrs, mask, k * es, es);
        checked_lanes(x, b, w, pc, wb, addrs, mask, total, true);
        return !wb->global || mark_lanes(x, addrs, mask, total);
    }
    uint8_t *host[WS_WARP_SIZE];
    if (plain_width(es) && global_lanes(x, in->space, addrs, mask, total, true, host)) {
        for (uint32_t k = 0; k < nv; k++) FOR_LANES(mask, lane) store_le(host[lane] + k * es, values[k][lane], es);
        return mark_lanes(x, addrs, mask, total);
    }
    FOR_LANES(mask, lane) {
        uint8_t buf[64];
        uint64_t addr = addrs[lane];
        if (!check_align(x, b, w, lane, pc, in->space, addr, total, WHAT_WRITE)) return false;
        for (uint32_t k = 0; k < nv; k++) le_put(buf + k * es, values[k][lane], es);
        if (!mem_access(x, b, w, lane, pc, in->space, addr, buf, total, true, WHAT_WRITE)) return false;
    }
    return true;
}

bool ws_exec_st(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                uint32_t mask, ws_step_info *info)
{
    uint64_t own[WS_WARP_SIZE], *addrs = info ? info->addr : own;
    warp_bytes wb;
    if ((in->flags & WS_IF_SHARED_WORD) && mask == UINT32_MAX && !lanes_watched(x) &&
        st_shared_words(x, b, w, in, addrs, &wb, every_address_read(x, info))) {
        record(info, in->space, 4, true);
        if (x->applying) return true;
        ws_progress(x, w);
        account_shared_words(x, in, pc, addrs, ACC_ST, info ? &info->resolved : NULL, &wb);
        return true;
    }
    const ws_opnd *a = &in->ops[0], *v = &in->ops[1];
    uint32_t es = ptx_type_size(in->m.types[0]), nv = in->m.vec > 1 ? in->m.vec : 1;
    const ws_opnd *el = v->kind == WS_OK_VEC ? &x->p->vec[v->elem0] : v;
    if (v->kind == WS_OK_VEC) nv = v->nelems;
    uint32_t total = es * nv;
    record(info, in->space, total, true);
    warp_addrs(x, w, a, mask, addrs);
    if (put_off(x, in->space, in, addrs, mask)) {
        if (x->apart && !apart_ok(x, b, w, pc, addrs, mask, total, true)) return false;
        ws_progress(x, w);
        account(x, in, pc, mask, addrs, total, ACC_ST, info ? &info->resolved : NULL, NULL);
        return defer_push(x, b, w, in, pc, mask, addrs);
    }
    uint64_t scratch[WS_MAX_VEC][WS_WARP_SIZE];
    const uint64_t *values[WS_MAX_VEC];
    for (uint32_t k = 0; k < nv; k++) values[k] = ws_opnd_row(x, b, w, &el[k], scratch[k]);
    bool resolved;
    if (!store_values(x, b, w, in, pc, mask, addrs, values, nv, &wb, &resolved)) return false;
    if (x->applying) return true;       /* counted when it issued */
    if (mask) ws_progress(x, w);
    /* the shape the bytes were found by, for the coalescing and bank rules */
    account(x, in, pc, mask, addrs, total, ACC_ST, info ? &info->resolved : NULL, resolved ? &wb : NULL);
    return true;
}

/* The lanes' atomic operations in lane order (the serialization the
 * hardware's per-address ordering gives a warp), bv and cv their operands
 * per lane (cv NULL: none); the old values into d's register unless d is
 * NULL.  captured: done at a window's end, the watchdog's count then not
 * w's: a change of memory is the launch's progress, not w's. */
static bool atom_lanes(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask,
                       const uint64_t *addrs, bool addr_imm, const uint64_t *bv, const uint64_t *cv,
                       const ws_opnd *d, bool captured)
{
    uint32_t size = ptx_type_size(in->m.types[0]);
    warp_bytes wb;
    /* a watcher of global memory hears an atomic's read and its write:
     * warp_bytes_of tells it of the write, and the reads are told here for
     * an explicitly global atomic (a generic one goes lane by lane) */
    bool watched = in->space != WS_SP_SHARED && ws_devmem_watched(x->p->mem);
    bool whole = mask && plain_width(size) && (!watched || in->space == WS_SP_GLOBAL) &&
                 warp_bytes_of(x, b, w, in->space, addrs, mask, size, true, addr_imm, &wb);
    if (whole && watched) tell_lanes(x->p->mem, addrs, mask, size, false, false, false);
    /* initcheck: its writes marked, as mem_access marks them (its reads are
     * no use of a value) */
    if (whole && wb.global && !mark_lanes(x, addrs, mask, size)) return false;
    if (whole && wb.shared && writes_watched(x)) ws_init_shared_write(&b->init, addrs, wb.origin, mask, size);
    if (whole && int_add(&in->m, size)) {      /* a block's private histogram in shared memory */
        uint64_t any = 0, wm = add_changes(size);
        bool keep_old = d && d->kind == WS_OK_REG;
        FOR_LANES(mask, lane) {
            uint64_t old = add_lane(lane_bytes(&wb, addrs, lane), bv[lane], size);
            any |= bv[lane] & wm;
            if (keep_old) ws_reg_set(w, d, lane, old);
        }
        if (any && !captured) ws_progress(x, w);
        if (any && captured && x->steps > x->progress_at) x->progress_at = x->steps;
        return true;
    }
    FOR_LANES(mask, lane) {
        uint8_t buf[8], *p = whole ? lane_bytes(&wb, addrs, lane) : buf;
        uint64_t addr = addrs[lane];
        if (!whole) {
            if (!check_align(x, b, w, lane, pc, in->space, addr, size, WHAT_ATOMIC)) return false;
            if (!mem_access(x, b, w, lane, pc, in->space, addr, buf, size, false, WHAT_ATOMIC)) return false;
        }
        uint64_t old = load_le(p, size);
        uint64_t nv = ws_atom_apply(&in->m, old, bv[lane], cv ? cv[lane] : 0);
        store_le(p, nv, size);
        if (nv != old && !captured) ws_progress(x, w);     /* a failing compare-and-swap is no progress */
        if (nv != old && captured && x->steps > x->progress_at) x->progress_at = x->steps;
        if (!whole && !mem_access(x, b, w, lane, pc, in->space, addr, buf, size, true, WHAT_ATOMIC))
            return false;
        if (d && d->kind == WS_OK_REG) ws_reg_set(w, d, lane, old);
    }
    return true;
}

bool ws_exec_atom(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                  uint32_t mask, ws_step_info *info)
{
    bool red = in->m.op == PTX_OP_RED;
    const ws_opnd *d = red ? NULL : &in->ops[0];
    const ws_opnd *a = &in->ops[red ? 0 : 1], *bo = &in->ops[red ? 1 : 2];
    const ws_opnd *co = !red && in->nops > 3 ? &in->ops[3] : NULL;
    uint32_t size = ptx_type_size(in->m.types[0]);
    record(info, in->space, size, true);
    uint64_t own[WS_WARP_SIZE], *addrs = info ? info->addr : own;
    warp_addrs(x, w, a, mask, addrs);
    if (put_off(x, in->space, in, addrs, mask)) {
        if (x->apart && !apart_ok(x, b, w, pc, addrs, mask, size, true)) return false;
        account(x, in, pc, mask, addrs, size, ACC_ATOM, info ? &info->resolved : NULL, NULL);
        return defer_push(x, b, w, in, pc, mask, addrs);
    }
    uint64_t bs[WS_WARP_SIZE], cs[WS_WARP_SIZE];
    const uint64_t *bv = ws_opnd_row(x, b, w, bo, bs), *cv = co ? ws_opnd_row(x, b, w, co, cs) : NULL;
    if (!atom_lanes(x, b, w, in, pc, mask, addrs, a->reg < 0, bv, cv, d, false)) return false;
    if (!x->applying) account(x, in, pc, mask, addrs, size, ACC_ATOM, info ? &info->resolved : NULL, NULL);
    return true;
}

bool ws_exec_cvta(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_opnd *d = &in->ops[0], *s = &in->ops[1];
    uint64_t window = in->space == WS_SP_SHARED ? WS_SHARED_WINDOW :
                      in->space == WS_SP_LOCAL ? WS_LOCAL_WINDOW : 0;
    bool to = in->m.flags & PTX_F_TO;
    uint32_t sz = ptx_type_size(in->m.types[0]);
    uint64_t m = sz >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * sz)) - 1;
    if (d->kind != WS_OK_REG) return true;
    uint64_t scratch[WS_WARP_SIZE], shift = to ? 0 - window : window;
    const uint64_t *v = ws_opnd_row(x, b, w, s, scratch);
    if (d->narrow) {
        uint32_t *out = ws_row32(w, d->row);
        FOR_LANES_DO(mask, lane, out[lane] = (uint32_t)((v[lane] + shift) & m));
    } else {
        uint64_t *out = ws_row64(w, d->row);
        FOR_LANES_DO(mask, lane, out[lane] = (v[lane] + shift) & m);
    }
    return true;
}

/* wmma memory callbacks: one lane's view (generic local addresses resolve
 * to that lane's local memory). */
typedef struct wmma_ctx {
    ws_exec *x; ws_block *b; ws_warp *w; int lane; int32_t pc; uint8_t space;
} wmma_ctx;

static bool wmma_rd(void *ctx, uint64_t addr, void *dst, uint32_t size)
{
    wmma_ctx *c = ctx;
    return mem_access(c->x, c->b, c->w, c->lane, c->pc, c->space, addr, dst, size, false, WHAT_READ);
}

/* A run of a wmma load's tile read whole: from global or shared memory,
 * with no checks on (initcheck and racecheck look at each element), and
 * only where every byte is valid; else false and nothing done, and the
 * elements go one by one through wmma_rd, which reports what it finds.
 * The reuse recorder is told of the run's bytes: the elements' own. */
static bool wmma_rd_run(void *ctx, uint64_t addr, void *dst, uint32_t size)
{
    wmma_ctx *c = ctx;
    if (c->x->checks) return false;
    uint64_t off = addr;
    int s = c->space;
    if (s == WS_SP_GENERIC) {
        switch (ws_generic_classify(addr, &off)) {
        case WS_GEN_SHARED: s = WS_SP_SHARED; break;
        case WS_GEN_LOCAL: return false;
        default: s = WS_SP_GLOBAL; break;
        }
    }
    if (s == WS_SP_GLOBAL) return ws_devmem_read(c->x->p->mem, off, dst, size);
    if (s != WS_SP_SHARED || off > c->b->shared_size || size > c->b->shared_size - off) return false;
    memcpy(dst, c->b->shared + off, size);
    return true;
}

static bool wmma_wr(void *ctx, uint64_t addr, const void *src, uint32_t size)
{
    wmma_ctx *c = ctx;
    uint8_t buf[16];
    if (size > sizeof buf) return false;
    memcpy(buf, src, size);
    return mem_access(c->x, c->b, c->w, c->lane, c->pc, c->space, addr, buf, size, true, WHAT_WRITE);
}

/* A wmma load's or store's fault where it failed for a reason of its own
 * (why), not one mem_access reported already. */
static void wmma_fault(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc, bool ok, const char *why)
{
    if (!ok && why[0] && strncmp(x->err->msg, "Invalid", 7) != 0) ws_fault(x, b, w, -1, pc, "wmma: %s", why);
}

/* A wmma.store put off to a window's end with what it stores, as a
 * captured store takes its values (its registers may change before the
 * window ends): its base and stride in the first row (lanes 0 and 1), then
 * its fragment's rows.  Its bytes are found, checked and told to the
 * reuse recorder when it is done, as cycle by cycle. */
static bool defer_wmma_store(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask,
                             uint64_t base, uint32_t stride, uint64_t *const frag[])
{
    ws_deferred_list *l = x->defer;
    uint32_t nfrag = in->ops[1].nelems;
    if (!defer_room(x, l) || !rows_room(x, l, 1 + nfrag)) return false;
    uint32_t rows = l->nrows;
    uint64_t *dst = l->rows + (size_t)rows * WS_WARP_SIZE;
    memset(dst, 0, sizeof *dst * WS_WARP_SIZE);
    dst[0] = base;
    dst[1] = stride;
    for (uint32_t k = 0; k < nfrag; k++) memcpy(dst + (size_t)(k + 1) * WS_WARP_SIZE, frag[k], sizeof *dst * WS_WARP_SIZE);
    l->nrows += 1 + nfrag;
    l->a[l->n++] = (ws_deferred){.b = b, .w = w, .in = in, .pc = pc, .mask = mask, .steps = x->steps,
                                 .cycle = x->clock, .rows = rows, .hosted = false};
    if (l->claims) claim_lines(l, false, 0, 0);
    return true;
}

/* A fragment's rows as 64-bit lanes (ws_row_view, narrow ones in tmp). */
static int frag_rows(const ws_exec *x, ws_warp *w, const ws_opnd *v, uint64_t **rows,
                     uint64_t tmp[][WS_WARP_SIZE])
{
    if (v->kind != WS_OK_VEC || v->nelems > 8) return 0;
    for (int k = 0; k < v->nelems; k++) {
        const ws_opnd *e = &x->p->vec[v->elem0 + k];
        if (e->kind != WS_OK_REG) return 0;
        rows[k] = ws_row_view(w, e->row, e->narrow, tmp[k]);
    }
    return v->nelems;
}

/* A fragment written through frag_rows's rows into its registers. */
static void frag_put(const ws_exec *x, ws_warp *w, const ws_opnd *v, uint64_t *const *rows)
{
    for (int k = 0; k < v->nelems; k++) {
        const ws_opnd *e = &x->p->vec[v->elem0 + k];
        ws_row_put(w, e->row, e->narrow, rows[k]);
    }
}

_Static_assert(WS_WMMA_MAX_ACCESSES <= WS_STEP_MAX_ACCESSES, "ws_step_info holds a wmma's accesses");

/* The accesses of a wmma.load or wmma.store at base (ws_wmma_accesses):
 * counted as loads or stores, and handed to the timing model in info. */
static void wmma_account(ws_exec *x, const ws_insn *in, int32_t pc, uint32_t mask, uint64_t base,
                         uint32_t stride, bool store, ws_step_info *info)
{
    uint64_t off[WS_WMMA_MAX_ACCESSES * WS_WARP_SIZE], own[WS_WARP_SIZE];
    uint32_t size;
    int n = ws_wmma_accesses(&in->m, stride, off, &size);
    if (n <= 0) return;
    if (info) {
        record(info, in->space, size, store);
        info->naccess = (uint32_t)n;
    }
    for (int k = 0; k < n; k++) {
        uint64_t *addr = info ? info->addr + k * WS_WARP_SIZE : own;
        FOR_LANES(mask, lane) addr[lane] = base + off[k * WS_WARP_SIZE + lane];
        account(x, in, pc, mask, addr, size, store ? ACC_ST : ACC_LD, NULL, NULL);
    }
}

bool ws_exec_wmma(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                  uint32_t mask, ws_step_info *info)
{
    char why[160] = "";
    if (mask == 0) return true;
    if (mask != (w->lanes & ~w->exited)) {
        ws_fault(x, b, w, -1, pc, "wmma executed by part of a warp (mask 0x%08x)", mask);
        return false;
    }
    int lane = __builtin_ctz(mask);
    uint64_t *r0[8], *r1[8], *r2[8], *r3[8], t0[8][WS_WARP_SIZE], t1[8][WS_WARP_SIZE],
             t2[8][WS_WARP_SIZE], t3[8][WS_WARP_SIZE];
    bool ok;
    if (in->m.subop == PTX_SUB_WMMA_MMA) {
        if (!frag_rows(x, w, &in->ops[0], r0, t0) || !frag_rows(x, w, &in->ops[1], r1, t1) ||
            !frag_rows(x, w, &in->ops[2], r2, t2) || !frag_rows(x, w, &in->ops[3], r3, t3)) {
            ws_fault(x, b, w, -1, pc, "malformed wmma.mma operands");
            return false;
        }
        ws_wmma_mma(&in->m, r0, r1, r2, r3);
        frag_put(x, w, &in->ops[0], r0);
        return true;
    }
    bool store = in->m.subop == PTX_SUB_WMMA_STORE_D;
    const ws_opnd *a = &in->ops[store ? 0 : 1], *v = &in->ops[store ? 1 : 0];
    uint32_t stride = in->nops > 2 ? (uint32_t)ws_opnd_lane(x, b, w, &in->ops[2], lane) : 16;
    if (!frag_rows(x, w, v, r0, t0)) {
        ws_fault(x, b, w, -1, pc, "malformed wmma fragment operand");
        return false;
    }
    wmma_ctx c = {x, b, w, lane, pc, in->space};
    uint64_t base = lane_addr(x, w, a, lane);
    uint64_t first[WS_WARP_SIZE];
    first[lane] = base;
    if (store && put_off(x, in->space, in, first, UINT32_C(1) << lane)) {
        ws_progress(x, w);
        wmma_account(x, in, pc, mask, base, stride, store, info);
        return x->defer->capture ? defer_wmma_store(x, b, w, in, pc, mask, base, stride, r0)
                                 : defer_push(x, b, w, in, pc, mask, first);
    }
    if (store && !x->applying) ws_progress(x, w);
    ok = store ? ws_wmma_store(&in->m, base, stride, wmma_wr, &c, r0, why, sizeof why)
               : ws_wmma_load(&in->m, base, stride, wmma_rd_run, wmma_rd, &c, r0, why, sizeof why);
    if (!store) frag_put(x, w, v, r0);
    wmma_fault(x, b, w, pc, ok, why);
    if (ok && !x->applying) wmma_account(x, in, pc, mask, base, stride, store, info);
    return ok;
}

/* A captured wmma.store (defer_wmma_store) done at its window's end. */
static bool wmma_store_captured(ws_exec *x, const ws_deferred_list *l, const ws_deferred *d)
{
    uint64_t *row = l->rows + (size_t)d->rows * WS_WARP_SIZE, *frag[WS_MAX_VEC];
    for (uint32_t k = 0; k < d->in->ops[1].nelems; k++) frag[k] = row + (size_t)(k + 1) * WS_WARP_SIZE;
    wmma_ctx c = {x, d->b, d->w, __builtin_ctz(d->mask), d->pc, d->in->space};
    char why[160] = "";
    bool ok = ws_wmma_store(&d->in->m, row[0], (uint32_t)row[1], wmma_wr, &c, frag, why, sizeof why);
    wmma_fault(x, d->b, d->w, d->pc, ok, why);
    return ok;
}

/* cp.async.{ca,cg}.shared.global: the PTX ISA lets the copy complete any
 * time before the wait that covers it; warpsim completes it as it issues.
 * The counters see a global load of the source and a shared store of the
 * destination; the timing model sees the global load (step info keeps one
 * access). */
bool ws_exec_cp_async(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                      uint32_t mask, ws_step_info *info)
{
    const ws_opnd *dst = &in->ops[0], *src = &in->ops[1];
    uint32_t size = (uint32_t)in->ops[2].imm, read_mask = 0;
    uint64_t saddr[WS_WARP_SIZE], own[WS_WARP_SIZE], *gaddr = info ? info->addr : own;
    record(info, WS_SP_GLOBAL, size, false);
    FOR_LANES(mask, lane) {
        uint8_t buf[16] = {0};
        uint64_t n = size;
        if (in->aux == WS_CP_SRC_SIZE) n = ws_opnd_lane(x, b, w, &in->ops[3], lane);
        if (in->aux == WS_CP_IGNORE_SRC && ws_opnd_lane(x, b, w, &in->ops[3], lane)) n = 0;
        if (n > size) {
            ws_fault(x, b, w, lane, pc, "cp.async src-size %llu larger than cp-size %u",
                     (unsigned long long)n, size);
            return false;
        }
        saddr[lane] = lane_addr(x, w, dst, lane);
        gaddr[lane] = lane_addr(x, w, src, lane);
        if (!check_align(x, b, w, lane, pc, WS_SP_SHARED, saddr[lane], size, WHAT_WRITE)) return false;
        if (!check_align(x, b, w, lane, pc, WS_SP_GLOBAL, gaddr[lane], size, WHAT_READ)) return false;
        if (n && !mem_access(x, b, w, lane, pc, WS_SP_GLOBAL, gaddr[lane], buf, (uint32_t)n, false, WHAT_READ))
            return false;
        if (!mem_access(x, b, w, lane, pc, WS_SP_SHARED, saddr[lane], buf, size, true, WHAT_WRITE))
            return false;
        if (n) read_mask |= UINT32_C(1) << lane;
    }
    ws_insn as_global = *in;
    as_global.space = WS_SP_GLOBAL;
    account(x, &as_global, pc, read_mask, gaddr, size, ACC_LD, NULL, NULL);
    account(x, in, pc, mask, saddr, size, ACC_ST, NULL, NULL);
    return true;
}

/* A captured store whose lanes' host bytes were found when it issued
 * (host_lanes): its values written there, lane by lane in order, so that
 * of two lanes on one address the higher wins. */
static void store_hosted(const ws_deferred_list *l, const ws_deferred *d)
{
    const uint64_t *host = l->rows + (size_t)d->rows * WS_WARP_SIZE;
    const ws_opnd *v = &d->in->ops[1];
    uint32_t es = ptx_type_size(d->in->m.types[0]), nv = v->kind == WS_OK_VEC ? v->nelems : 1;
    for (uint32_t k = 0; k < nv; k++) {
        const uint64_t *value = host + (size_t)(k + 1) * WS_WARP_SIZE;
        FOR_LANES(d->mask, lane) store_le((uint8_t *)(uintptr_t)host[lane] + k * es, value[lane], es);
    }
}

/* A captured atomic's destination register, or NULL: a red, or an atom
 * whose old values go nowhere. */
static const ws_opnd *atom_dest(const ws_insn *in)
{
    return in->m.op != PTX_OP_RED && in->ops[0].kind == WS_OK_REG ? &in->ops[0] : NULL;
}

/* A captured atomic, its lanes' host bytes found when it issued: as
 * atom_lanes, lane by lane in order, its old values into its warp's
 * destination row. */
static void atom_hosted(ws_exec *x, const ws_deferred_list *l, const ws_deferred *d)
{
    const uint64_t *host = l->rows + (size_t)d->rows * WS_WARP_SIZE;
    const uint64_t *bv = host + WS_WARP_SIZE, *cv = atom_cas_operand(d->in) ? host + 2 * WS_WARP_SIZE : NULL;
    uint32_t size = ptx_type_size(d->in->m.types[0]);
    const ws_opnd *dst = atom_dest(d->in);
    if (int_add(&d->in->m, size)) {
        uint64_t any = 0, wm = add_changes(size);
        FOR_LANES(d->mask, lane) {
            uint64_t old = add_lane((uint8_t *)(uintptr_t)host[lane], bv[lane], size);
            any |= bv[lane] & wm;
            if (dst) ws_reg_set(d->w, dst, lane, old);
        }
        if (any && x->steps > x->progress_at) x->progress_at = x->steps;
        return;
    }
    FOR_LANES(d->mask, lane) {
        uint8_t *p = (uint8_t *)(uintptr_t)host[lane];
        uint64_t old = load_le(p, size);
        uint64_t nv = ws_atom_apply(&d->in->m, old, bv[lane], cv ? cv[lane] : 0);
        store_le(p, nv, size);
        if (nv != old && x->steps > x->progress_at) x->progress_at = x->steps;
        if (dst) ws_reg_set(d->w, dst, lane, old);
    }
}

void ws_exec_apply_hosted_stores(const ws_deferred_list *l)
{
    for (uint32_t k = 0; k < l->n; k++) store_hosted(l, &l->a[k]);
}

bool ws_exec_apply_deferred(ws_exec *x, const ws_deferred_list *l, const ws_deferred *d)
{
    bool ok = false;
    x->applying = true;
    x->steps = d->steps;
    switch (d->in->cls) {
    case WS_I_ST:
        if (d->rows == UINT32_MAX) {
            ok = ws_exec_st(x, d->b, d->w, d->in, d->pc, d->mask, NULL);
        } else if (d->hosted) {
            store_hosted(l, d);
            ok = true;
        } else {
            const uint64_t *addrs = l->rows + (size_t)d->rows * WS_WARP_SIZE;
            const uint64_t *values[WS_MAX_VEC];
            const ws_opnd *v = &d->in->ops[1];
            uint32_t nv = v->kind == WS_OK_VEC ? v->nelems : 1;
            for (uint32_t k = 0; k < nv; k++) values[k] = addrs + (size_t)(k + 1) * WS_WARP_SIZE;
            warp_bytes wb;
            bool resolved;
            ok = store_values(x, d->b, d->w, d->in, d->pc, d->mask, addrs, values, nv, &wb, &resolved);
        }
        break;
    case WS_I_ATOM:
        if (d->rows == UINT32_MAX) {
            ok = ws_exec_atom(x, d->b, d->w, d->in, d->pc, d->mask, NULL);
        } else if (d->hosted) {
            atom_hosted(x, l, d);
            ok = true;
        } else {        /* captured: no register read now, the old values written */
            const uint64_t *addrs = l->rows + (size_t)d->rows * WS_WARP_SIZE;
            bool red = d->in->m.op == PTX_OP_RED;
            ok = atom_lanes(x, d->b, d->w, d->in, d->pc, d->mask, addrs, d->in->ops[red ? 0 : 1].reg < 0,
                            addrs + WS_WARP_SIZE, atom_cas_operand(d->in) ? addrs + 2 * WS_WARP_SIZE : NULL,
                            atom_dest(d->in), true);
        }
        break;
    case WS_I_WMMA:
        ok = d->rows == UINT32_MAX ? ws_exec_wmma(x, d->b, d->w, d->in, d->pc, d->mask, NULL)
                                   : wmma_store_captured(x, l, d);
        break;
    default: ws_fault(x, d->b, d->w, -1, d->pc, "internal error: instruction put off that moves no data"); break;
    }
    x->applying = false;
    return ok;
}
