/* racecheck, synccheck and initcheck (see checks.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "own_writes.h"
#include "warp.h"

enum { KIND_RAW, KIND_WAR, KIND_WAW, KIND_DIVERGENT, KIND_COUNT, KIND_UNINIT_GLOBAL, KIND_UNINIT_SHARED };

static const char *const kind_name[] = {
    [KIND_RAW] = "read after write", [KIND_WAR] = "write after read",
    [KIND_WAW] = "write after write", [KIND_DIVERGENT] = "divergent barrier",
    [KIND_COUNT] = "barrier count mismatch", [KIND_UNINIT_GLOBAL] = "uninitialized __global__ read",
    [KIND_UNINIT_SHARED] = "uninitialized __shared__ read",
};

bool ws_race_begin(ws_racecheck *r, uint32_t shared_size)
{
    uint32_t n = (shared_size + 3) / 4;
    if (n > r->nwords) {
        ws_race_word *w = realloc(r->words, sizeof *w * n);
        if (!w) return false;
        r->words = w;
        r->nwords = n;
    }
    if (r->words) memset(r->words, 0, sizeof *r->words * r->nwords);
    r->epoch = 1;
    return true;
}

void ws_race_free(ws_racecheck *r)
{
    free(r->words);
    r->words = NULL;
    r->nwords = 0;
}

static FILE *report_file(const ws_exec *x)
{
    return x->l->report_out ? x->l->report_out : stderr;
}

/* Where pc is: "pc 12 (file.ptx:40, file.cu:17)". */
static void where(const ws_exec *x, int32_t pc, char *s, size_t cap)
{
    const char *path = ws_program_path(x->p);
    const ws_insn *in = &x->p->code[pc];
    char mn[96];
    ws_insn_mnemonic(&in->m, mn, sizeof mn);
    size_t n = (size_t)snprintf(s, cap, "%s at pc %d (%s:%d", mn, pc, path ? path : "<ptx>", in->pos.line);
    if (n < cap && in->pos.cu_line > 0)
        n += (size_t)snprintf(s + n, cap - n, ", %s:%d", ws_cu_file(x->p, in), in->pos.cu_line);
    if (n < cap) snprintf(s + n, cap - n, ")");
}

/* What a finding is reported once for: its source line when the PTX has
 * line information (an unrolled loop has many instructions on one line),
 * else its instruction. */
static int32_t site(const ws_exec *x, int32_t pc)
{
    const ws_insn *in = &x->p->code[pc];
    if (in->pos.cu_line > 0) return -(in->pos.cu_file * 1000000 + in->pos.cu_line) - 1;
    return pc;
}

/* Whether at is among the n places of list. */
static bool place_in(const ws_check_place *list, uint32_t n, ws_check_place at)
{
    for (uint32_t i = 0; i < n; i++)
        if (list[i].program == at.program && list[i].kind == at.kind && list[i].pc1 == at.pc1 &&
            list[i].pc2 == at.pc2)
            return true;
    return false;
}

/* Whether at is among the n places of list; if not, it is added there
 * while fewer than max are. */
static bool place_seen(ws_check_place *list, uint32_t *n, uint32_t max, ws_check_place at)
{
    if (place_in(list, *n, at)) return true;
    if (*n < max) list[(*n)++] = at;
    return false;
}

/* Counts a finding of places at; true the first time the launch, and the
 * program where it keeps them, has them. */
static bool count_finding(ws_exec *x, ws_check_place at)
{
    ws_check_log *g = x->checks;
    g->total++;
    g->uninit_global += at.kind == KIND_UNINIT_GLOBAL;
    if (g->nseen == WS_CHECK_SEEN_MAX || place_seen(g->seen, &g->nseen, WS_CHECK_SEEN_MAX, at)) return false;
    ws_check_shown *shown = x->l->checks_shown;
    if (shown && place_seen(shown->seen, &shown->n, WS_CHECK_SHOWN_MAX, at)) {
        g->nearlier++;
        return false;
    }
    return true;
}

/* A finding kept in x->findings: true when it may be the first of its
 * places (the launch had not met them before the window, nor the SM in
 * it), so that it keeps the text say() gives it next. */
static bool keep_finding(ws_exec *x, ws_check_place at)
{
    ws_check_buffer *b = x->findings;
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? 2 * b->cap : 64;
        ws_check_finding *a = realloc(b->a, sizeof *a * cap);
        if (!a) {
            b->oom = true;
            return false;
        }
        b->a = a;
        b->cap = cap;
    }
    /* not where the launch's list (which only the end of a window writes)
     * has at or is full, past which no finding is shown, nor where the SM
     * kept at with its text already */
    const ws_check_log *g = x->checks;
    bool first = g->nseen < WS_CHECK_SEEN_MAX && !place_in(g->seen, g->nseen, at) &&
                 b->nkept < WS_CHECK_SEEN_MAX && !place_in(b->kept, b->nkept, at);
    if (first) b->kept[b->nkept++] = at;
    b->a[b->n++] = (ws_check_finding){.cycle = x->clock, .pc1 = at.pc1, .pc2 = at.pc2, .text = UINT32_MAX,
                                      .kind = at.kind};
    return first;
}

/* Counts a finding; true the first time this pair of places has it, in
 * the launch and (where kept) in the program.  In an SM's cycle (window)
 * of a timed launch it is kept, and true where it may be the first. */
static bool first_time(ws_exec *x, int kind, int32_t pc1, int32_t pc2)
{
    ws_check_place at = {.program = x->p, .pc1 = site(x, pc1), .pc2 = site(x, pc2), .kind = (uint8_t)kind};
    return x->findings ? keep_finding(x, at) : count_finding(x, at);
}

/* A finding's text: shown, or given to the finding just kept. */
__attribute__((format(printf, 2, 3))) static void say(ws_exec *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ws_check_buffer *b = x->findings;
    if (!b) {
        vfprintf(report_file(x), fmt, ap);
        va_end(ap);
        return;
    }
    char line[2048];
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (b->ntext + len + 1 > b->textcap) {
        size_t cap = b->textcap ? 2 * b->textcap : 4096;
        while (cap < b->ntext + len + 1) cap *= 2;
        char *t = realloc(b->text, cap);
        if (!t) {
            b->oom = true;
            return;
        }
        b->text = t;
        b->textcap = cap;
    }
    memcpy(b->text + b->ntext, line, len + 1);
    b->a[b->n - 1].text = (uint32_t)b->ntext;
    b->ntext += len + 1;
}

void ws_check_take(ws_exec *x, const ws_check_buffer *b, uint32_t i)
{
    const ws_check_finding *f = &b->a[i];
    ws_check_place at = {.program = x->p, .pc1 = f->pc1, .pc2 = f->pc2, .kind = f->kind};
    if (count_finding(x, at) && f->text != UINT32_MAX) fputs(b->text + f->text, report_file(x));
}

void ws_check_buffer_clear(ws_check_buffer *b)
{
    b->n = b->nkept = 0;
    b->ntext = 0;
}

void ws_check_buffer_free(ws_check_buffer *b)
{
    free(b->a);
    free(b->text);
    memset(b, 0, sizeof *b);
}

static void race(ws_exec *x, ws_block *b, int kind, uint64_t off, uint32_t warp1, int32_t pc1,
                 uint32_t warp2, int32_t pc2)
{
    if (!first_time(x, kind, pc1, pc2)) return;
    char a[320], c[320], w1[32];
    where(x, pc1, a, sizeof a);
    where(x, pc2, c, sizeof c);
    if (warp1 == WS_RACE_MANY) snprintf(w1, sizeof w1, "several warps");
    else snprintf(w1, sizeof w1, "warp %u", warp1);
    say(x, "warpsim racecheck: shared memory hazard (%s) at __shared__ offset 0x%llx in block (%u,%u,%u) "
        "of kernel %s: %s by warp %u, %s, after the %s by %s, %s, with no barrier between\n",
        kind_name[kind], (unsigned long long)off, b->idx.x, b->idx.y, b->idx.z,
        x->p->funcs[x->k->func].shown, kind == KIND_RAW ? "read" : "write", warp2, c,
        kind == KIND_WAR ? "read" : "write", w1, a);
}

/* Word i of shared memory accessed by warp me at pc. */
static inline void race_word(ws_exec *x, ws_block *b, ws_racecheck *r, uint64_t i, uint16_t me, int32_t pc,
                             bool write)
{
    ws_race_word *s = &r->words[i];
    if (s->w_epoch == r->epoch && s->w_warp != me)
        race(x, b, write ? KIND_WAW : KIND_RAW, i * 4, s->w_warp, s->w_pc, me, pc);
    if (write) {
        if (s->r_epoch == r->epoch && s->r_warp != me)
            race(x, b, KIND_WAR, i * 4, s->r_warp, s->r_pc, me, pc);
        s->w_epoch = r->epoch;
        s->w_warp = me;
        s->w_pc = pc;
    } else {
        if (s->r_epoch == r->epoch && s->r_warp != me) s->r_warp = WS_RACE_MANY;
        else s->r_warp = me;
        s->r_epoch = r->epoch;
        s->r_pc = pc;
    }
}

static inline void race_bytes(ws_exec *x, ws_block *b, ws_racecheck *r, uint64_t off, uint32_t size,
                              uint16_t me, int32_t pc, bool write)
{
    for (uint64_t i = off / 4; i < (off + size + 3) / 4 && i < r->nwords; i++) race_word(x, b, r, i, me, pc, write);
}

void ws_race_access(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc, uint64_t off, uint32_t size,
                    bool write)
{
    race_bytes(x, b, &b->race, off, size, (uint16_t)w->index, pc, write);
}

void ws_race_warp(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc, const uint64_t *addrs, uint64_t origin,
                  uint32_t mask, uint32_t size, bool write)
{
    ws_racecheck *r = &b->race;
    uint16_t me = (uint16_t)w->index;
    FOR_LANES(mask, lane) race_bytes(x, b, r, addrs[lane] - origin, size, me, pc, write);
}

void ws_sync_check_divergent(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc, uint32_t lanes,
                             uint32_t live)
{
    if (!first_time(x, KIND_DIVERGENT, pc, pc)) return;
    char a[320];
    where(x, pc, a, sizeof a);
    say(x, "warpsim synccheck: divergent barrier: %s reached by %d of the %d running threads of warp %u "
        "(lanes 0x%08x of 0x%08x) in block (%u,%u,%u) of kernel %s\n",
        a, __builtin_popcount(lanes), __builtin_popcount(live), w->index, lanes, live,
        b->idx.x, b->idx.y, b->idx.z, x->p->funcs[x->k->func].shown);
}

void ws_sync_check_count(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc, uint32_t id, uint32_t count,
                         uint32_t other_count, int32_t other_pc)
{
    if (!first_time(x, KIND_COUNT, pc, other_pc)) return;
    char a[320], c[320];
    where(x, pc, a, sizeof a);
    where(x, other_pc, c, sizeof c);
    say(x, "warpsim synccheck: barrier %u waited on with %u threads by warp %u, %s, and with %u by %s, "
        "in block (%u,%u,%u) of kernel %s\n", id, count, w->index, a, other_count, c,
        b->idx.x, b->idx.y, b->idx.z, x->p->funcs[x->k->func].shown);
}

bool ws_init_begin(ws_initshadow *s, uint32_t shared_size)
{
    size_t n = ((size_t)shared_size + 7) / 8;
    if (shared_size > s->nbytes) {
        uint8_t *bits = realloc(s->bits, n);
        if (!bits) return false;
        s->bits = bits;
    }
    s->nbytes = s->unwritten = shared_size;
    if (s->bits) memset(s->bits, 0, n);
    return true;
}

/* The bits of bytes [off, end) that lie in bits[off / 8]; *next the byte
 * after them. */
static inline uint8_t bits_in_byte(uint64_t off, uint64_t end, uint64_t *next)
{
    uint64_t n = 8 - off % 8;
    if (n > end - off) n = end - off;
    *next = off + n;
    return (uint8_t)(((1u << n) - 1) << (off % 8));
}

/* Marks bytes [off, off + size) of shared memory written (those past its
 * end left out, as ws_init_shared's look leaves them). */
static inline void mark_written(ws_initshadow *s, uint64_t off, uint32_t size)
{
    uint64_t end = off + size < s->nbytes ? off + size : s->nbytes;
    for (uint64_t i = off, next; i < end; i = next) {
        uint8_t m = bits_in_byte(i, end, &next), old = s->bits[i / 8];
        s->unwritten -= (uint32_t)__builtin_popcount((unsigned)(m & ~old));
        s->bits[i / 8] = (uint8_t)(old | m);
    }
}

/* Whether bytes [off, off + size) of shared memory (those within it)
 * were all written. */
static inline bool all_written(const ws_initshadow *s, uint64_t off, uint32_t size)
{
    uint64_t end = off + size < s->nbytes ? off + size : s->nbytes;
    for (uint64_t i = off, next; i < end; i = next) {
        uint8_t m = bits_in_byte(i, end, &next);
        if ((s->bits[i / 8] & m) != m) return false;
    }
    return true;
}

void ws_init_shared_write(ws_initshadow *s, const uint64_t *addrs, uint64_t origin, uint32_t mask,
                          uint32_t size)
{
    FOR_LANES(mask, lane) mark_written(s, addrs[lane] - origin, size);
}

bool ws_init_shared_clean(const ws_initshadow *s, const uint64_t *addrs, uint64_t origin, uint32_t mask,
                          uint32_t size)
{
    if (!s->unwritten) return true;
    FOR_LANES(mask, lane)
        if (!all_written(s, addrs[lane] - origin, size)) return false;
    return true;
}

void ws_init_free(ws_initshadow *s)
{
    free(s->bits);
    s->bits = NULL;
    s->nbytes = 0;
}

/* "by thread (t) in block (b) of kernel K, ld.global.u32 at pc 5 (...)" */
static void who(const ws_exec *x, const ws_block *b, const ws_warp *w, int lane, int32_t pc, char *s,
                size_t cap)
{
    ws_dim3 t;
    char at[320];
    ws_thread_of(x, w, lane, &t);
    where(x, pc, at, sizeof at);
    snprintf(s, cap, "by thread (%u,%u,%u) in block (%u,%u,%u) of kernel %s, %s", t.x, t.y, t.z,
             b->idx.x, b->idx.y, b->idx.z, x->p->funcs[x->k->func].shown, at);
}

void ws_init_shared(ws_exec *x, ws_block *b, ws_warp *w, int lane, int32_t pc, uint64_t off, uint32_t size,
                    bool write)
{
    ws_initshadow *s = &b->init;
    if (write) {
        mark_written(s, off, size);
        return;
    }
    uint64_t first = UINT64_MAX;
    for (uint64_t i = off; i < off + size && i < s->nbytes && first == UINT64_MAX; i++)
        if (!(s->bits[i / 8] & (1u << (i % 8)))) first = i;
    if (first == UINT64_MAX || !first_time(x, KIND_UNINIT_SHARED, pc, pc)) return;
    char by[512];
    who(x, b, w, lane, pc, by, sizeof by);
    say(x, "warpsim initcheck: uninitialized __shared__ memory read of size %u at __shared__ offset 0x%llx %s: "
        "byte %llu of the block's %u bytes of shared memory was not written since the block started\n",
        size, (unsigned long long)off, by, (unsigned long long)first, b->shared_size);
}

/* In a window whose SM keeps its own writes (own_writes.h): whether the
 * bytes memory has never seen written at addr (size of them) were written
 * by the SM's stores of the window's earlier cycles, as a run cycle by
 * cycle would have them (memory marks them at the window's end); else
 * *first is the first that was not. */
static bool own_written(ws_exec *x, uint64_t addr, uint32_t size, uint64_t *first)
{
    uint8_t zeros[64] = {0}, ones[64];
    bool any;
    if (size > sizeof zeros) return false;
    memset(ones, 0xff, size);
    /* a byte the stores wrote is the same over either fill */
    if (!ws_own_writes_overlay(x->defer->own, x->clock, addr, zeros, size, &any) || !any ||
        !ws_own_writes_overlay(x->defer->own, x->clock, addr, ones, size, &any))
        return false;
    for (uint32_t i = 0; i < size; i++)
        if (zeros[i] != ones[i] && !ws_devmem_initialized(x->p->mem, addr + i, 1, first)) return false;
    return true;
}

void ws_init_global_read(ws_exec *x, ws_block *b, ws_warp *w, int lane, int32_t pc, uint64_t addr,
                         uint32_t size)
{
    uint64_t first, base = 0, bytes = 0;
    if (ws_devmem_initialized(x->p->mem, addr, size, &first)) return;
    if (x->defer && x->defer->own && !x->applying && own_written(x, addr, size, &first)) return;
    if (!first_time(x, KIND_UNINIT_GLOBAL, pc, pc)) return;
    char by[512];
    who(x, b, w, lane, pc, by, sizeof by);
    ws_devmem_allocation_of(x->p->mem, addr, &base, &bytes);
    say(x, "warpsim initcheck: uninitialized __global__ memory read of size %u at 0x%llx %s: byte %llu of "
        "the %llu-byte allocation at 0x%llx was never written since it was allocated\n",
        size, (unsigned long long)addr, by, (unsigned long long)(first - base), (unsigned long long)bytes,
        (unsigned long long)base);
}

void ws_checks_summary_line(FILE *f, const char *kernel, uint64_t total, uint64_t shown, uint64_t earlier)
{
    fprintf(f, "warpsim checks: %llu finding(s) in kernel %s, %llu distinct shown", (unsigned long long)total,
            kernel, (unsigned long long)shown);
    if (earlier) fprintf(f, ", %llu as an earlier launch showed", (unsigned long long)earlier);
    fputc('\n', f);
}

void ws_checks_summary(ws_exec *x)
{
    if (!x->checks || !x->checks->total) return;
    const ws_check_log *g = x->checks;
    ws_checks_summary_line(report_file(x), x->p->funcs[x->k->func].shown, g->total, g->nseen - g->nearlier,
                           g->nearlier);
}
