/* Repeated-launch reuse: the recorder, the records and the replay
 * (launch_reuse.h). */
#include "launch_reuse.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../base/zeroed.h"
#include "sort_keys.h"
#include "thread_pool.h"

#define RPAGE_SHIFT 12
#define RPAGE ((uint32_t)1 << RPAGE_SHIFT)
#define RMASK_BYTES (RPAGE / 8)
/* Device allocations start on 256-byte boundaries (device_memory.h), so
 * bytes of one 256-byte chunk that a launch touched lie in one
 * allocation: runs are checked and written chunk by chunk. */
#define CHUNK 256u
/* What the cache keeps by default (ws_reuse_limits).  A lab program
 * that times a sequence of launches (a radix sort's 24 a sort, a bitonic
 * sort's 210 at 2^20 elements) reuses nothing unless one whole sequence
 * fits, so the records are many and the limit is on the bytes they hold.
 * Of one key (a kernel launched in place again and again, its inputs new
 * each time) only 16 are kept: a launch compares the bytes of every
 * record of its key, and those of an iterative kernel may differ only
 * far into its arrays. */
ws_reuse_limits ws_reuse_default_limits(void)
{
    return (ws_reuse_limits){.records = WS_REUSE_MAX_RECORDS, .same_key = 16, .bytes = UINT64_C(1) << 30};
}
/* Pages a recorded launch may touch (256 MiB): past it the recording
 * stops, so that the recorder's copies stay bounded; the launch is then
 * simulated as usual and not kept. */
#define MAX_PAGES ((size_t)1 << 16)

/* A copy of a page's bytes, which records share: a program's launches
 * mostly read the same inputs and write the same outputs (the variants of
 * a kernel a lab program compares, or a sort's passes, each reading what
 * the one before wrote), so a record takes the newest record's (the one
 * made or reused last) copy of a page when its bytes are the same
 * (compared whole) instead of making one more.  refs (the records' pages
 * holding it) changes on the calling thread, which makes and frees
 * records, and while a record's pages are copied on several threads, on
 * the one thread that copies this page (fill_share_pages): no two threads
 * at once. */
typedef struct pbuf {
    uint32_t refs;
    uint8_t bytes[RPAGE];
} pbuf;

/* A page of a record: which bytes (one bit each) and their values. */
typedef struct rpage {
    uint64_t base;
    uint8_t mask[RMASK_BYTES];
    pbuf *buf;
} rpage;

/* The identity of a launch, copied out of its ws_reuse_key. */
typedef struct rkey {
    const ws_program *p;
    const ws_kernel *k;
    const ws_gpu_config *gpu;
    ws_dim3 grid, block;
    uint32_t dynamic_smem;
    uint8_t *params;
    size_t params_size;
    uint64_t max_warp_insts, progress_limit, max_cycles, grid_workspace;
    uint32_t sm_count, warps_per_sm;
    int32_t regs, carveout, sched_policy;
    bool regs_estimated, optin;
    bool lines;             /* counted per instruction (ws_launch.pc_counts) */
    uint32_t checks;        /* WS_CHECK_* */
} rkey;

typedef struct record {
    rkey key;
    uint64_t launch_no;
    rpage *reads, *writes;
    size_t nreads, nwrites;
    char *printed;
    size_t nprinted;
    /* a launch counted per instruction: its own counters of the nlines
     * instructions it counted anything for (line_pcs), added to the
     * launch's that reuses it */
    ws_pc_counts *lines;
    uint32_t *line_pcs;
    size_t nlines;
    ws_launch_stats st;
    ws_timing_stats ts;
    /* Its threads may have passed values through device memory: a byte
     * both read and written, read after it was written, or written twice
     * (by one thread or two: not told apart).  A launch whose threads
     * did not, and whose kernel no value read steers (value_steer.h), may
     * lend its timing to a launch of its key that reads other values. */
    bool exchanged;
    bool shared_ordered;    /* ws_reuse_note_shared_ordered */
    uint64_t bytes;         /* what it holds but its page copies, for the cache's limit */
} record;

typedef struct shared_table shared_table;

struct ws_reuse_cache {
    ws_reuse_limits limits;
    record *recs[WS_REUSE_MAX_RECORDS];     /* least recently made or reused first */
    int n;
    uint64_t bytes;             /* its records' bytes, their page copies apart */
    atomic_size_t copies;       /* page copies its records hold (shared ones once) */
    shared_table *spare;        /* the last recording's table, emptied, for the next */
};

/* ---- keys -------------------------------------------------------------- */

static bool dim_eq(ws_dim3 a, ws_dim3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

static rkey key_of(const ws_reuse_key *k)
{
    const ws_launch *l = k->l;
    const ws_timing_options *t = k->timing;
    return (rkey){
        .p = k->p, .k = k->k, .gpu = k->gpu, .grid = l->grid, .block = l->block,
        .dynamic_smem = l->dynamic_smem, .params = (uint8_t *)(uintptr_t)l->params,
        .params_size = l->params_size, .max_warp_insts = l->max_warp_insts,
        .progress_limit = l->progress_limit, .max_cycles = t->max_cycles, .grid_workspace = l->grid_workspace,
        .sm_count = l->sm_count, .warps_per_sm = l->warps_per_sm,
        .regs = t->regs_per_thread, .carveout = t->carveout, .sched_policy = t->sched_policy,
        .regs_estimated = t->regs_estimated, .optin = t->optin, .lines = l->pc_counts != NULL,
        .checks = l->checks,
    };
}

static bool key_eq(const rkey *a, const rkey *b)
{
    return a->p == b->p && a->k == b->k && a->gpu == b->gpu && dim_eq(a->grid, b->grid) &&
           dim_eq(a->block, b->block) && a->dynamic_smem == b->dynamic_smem &&
           a->params_size == b->params_size &&
           (a->params_size == 0 || memcmp(a->params, b->params, a->params_size) == 0) &&
           a->max_warp_insts == b->max_warp_insts && a->progress_limit == b->progress_limit &&
           a->max_cycles == b->max_cycles && a->grid_workspace == b->grid_workspace && a->sm_count == b->sm_count &&
           a->warps_per_sm == b->warps_per_sm && a->regs == b->regs && a->carveout == b->carveout &&
           a->sched_policy == b->sched_policy && a->regs_estimated == b->regs_estimated &&
           a->optin == b->optin && a->lines == b->lines && a->checks == b->checks;
}

const char *ws_reuse_refusal(const ws_launch *l, const ws_timing_options *t)
{
    if (l->checks && !l->checks_shown) return "a checked launch reports what it finds as it runs";
    if (l->trace || t->trace) return "a traced launch writes its issue trace as it runs";
    if (l->ntextures) return "texture descriptors live outside device memory";
    return NULL;
}

/* ---- masks and runs ------------------------------------------------------ */

/* The 64 bits of m from bit 64 * w on, bit i of m as bit i % 64. */
static uint64_t mask_word(const uint8_t *m, uint32_t w)
{
    uint64_t v;
    memcpy(&v, m + 8 * (size_t)w, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* The first bit at or after i (< RPAGE) that is set in m (set true) or
 * clear (false); RPAGE when there is none. */
static uint32_t find_bit(const uint8_t *m, uint32_t i, bool set)
{
    uint32_t w = i / 64;
    uint64_t v = (set ? mask_word(m, w) : ~mask_word(m, w)) & (~UINT64_C(0) << (i % 64));
    while (!v) {
        if (++w == RPAGE / 64) return RPAGE;
        v = set ? mask_word(m, w) : ~mask_word(m, w);
    }
    return w * 64 + (uint32_t)__builtin_ctzll(v);
}

/* The next run [*lo, *hi) of set bits of m at or after *pos that stays in
 * one piece of span bytes (a power of two: CHUNK, or RPAGE for a page that
 * lies in one allocation, page_span); false when there is none. */
static bool next_run(const uint8_t *m, uint32_t *pos, uint32_t *lo, uint32_t *hi, uint32_t span)
{
    if (*pos >= RPAGE) return false;
    uint32_t i = find_bit(m, *pos, true);
    if (i >= RPAGE) return false;
    *lo = i;
    uint32_t end = (i | (span - 1)) + 1;
    uint32_t j = find_bit(m, i, false);
    *hi = *pos = j < end ? j : end;
    return true;
}

/* How far a run of the page at base may reach: the whole page when it lies
 * in one live allocation (a run then never leaves it), else a chunk. */
static uint32_t page_span(const ws_devmem *mem, uint64_t base)
{
    return ws_devmem_valid(mem, base, RPAGE) ? RPAGE : CHUNK;
}

/* ---- the recorder -------------------------------------------------------- */

/* The pages a launch touches, all of them in one table that every thread
 * notes into without a lock: the reads (the SMs of a timed launch read on
 * several threads at once), the writes a window puts off, told ahead
 * (ws_devmem_tell_ahead), and the writes made now.  A page's slot is
 * claimed by a compare-and-swap of its key, its masks are set with atomic
 * ors, and a page both read and written is copied by the thread whose
 * note made it so (page_copy_wanted), as it is then; a page only read
 * needs none (its bytes at the end are those at the start) and neither
 * does one only written (vector_add's output: 16 MiB a launch not
 * copied).  A copy made before the launch's first write to the page holds
 * every byte as it was at the start.  One made later holds, of the bytes
 * read, those the launch has not written as at the start and those it has
 * as it wrote them, and a read of a byte after the launch wrote it returns
 * what the launch wrote (launch_reuse.h's induction does not need its
 * value from before): a read notes only the bytes that no write made so
 * far wrote (MADE_BITS; a write told ahead is not made until its window
 * ends, after every read of the window), and only those are compared.
 * Device memory does not change while the SMs run (a
 * window's writes are made after all of them ran), so any copy made in a
 * window holds the bytes the window's reads saw, and two threads that
 * copy at once copy the same bytes, one copy kept; a write made now is
 * noted before it changes a byte, and made by a thread that finds the
 * copy there or makes one.  At the end the record's pages are made from
 * the table's on several threads, with no merge on the calling thread
 * first. */
typedef struct apage {
    _Atomic uint64_t key;           /* page number + 1; 0: free */
    _Atomic(_Atomic uint64_t *) mask;   /* its masks (READ_BITS ...); NULL until set up */
    _Atomic(uint8_t *) pre;         /* its copy (page_copy_wanted); NULL: none yet */
    _Atomic uint8_t seen;           /* SEEN_READ | SEEN_WRITTEN: what notes it had */
} apage;

#define SEEN_READ 1u
#define SEEN_WRITTEN 2u

/* Its slots, fixed (no thread may move them): twice the pages a record
 * may hold, so that a free slot is always near, and the masks of the pages
 * claimed, the nth claimed's at masks[n].  The table is mapped zero and
 * touched only where a page is looked for or a mask set, and the slots
 * claimed are listed: a launch that touches a few pages costs a few pages.
 * It is kept from one recorded launch to the next, emptied where it was
 * used (shared_done): memory mapped afresh for each launch cost each its
 * first touch again, a page fault and a page cleared for every 4 KiB of
 * slots and masks (vector_add 4194304: 1,500 faults a launch). */
#define SLOT_BITS 17
#define SHARED_SLOTS ((size_t)1 << SLOT_BITS)
_Static_assert(SHARED_SLOTS == 2 * MAX_PAGES, "twice the pages a record may hold");

/* A page's bits in words: bit i of a page in word i / 64, at i % 64. */
#define MASK_WORDS (RPAGE / 64)
_Static_assert(MASK_WORDS * sizeof(uint64_t) == RMASK_BYTES, "a page's mask as words and as bytes");
/* A page's masks, each MASK_WORDS from where it starts: the bytes read
 * before the launch wrote them, the bytes written (told ahead or made),
 * and the bytes written so far (made). */
#define READ_BITS 0
#define WRITTEN_BITS MASK_WORDS
#define MADE_BITS (2 * MASK_WORDS)
#define PAGE_MASK_WORDS (3 * MASK_WORDS)

/* The table's memory is mapped zero, and a 4 KiB page of it first read
 * is mapped to the system's zero page: the write after it then replaces
 * that mapping, which makes the system interrupt every core the process
 * runs on to forget it (do_wp_page's TLB flush).  A slot is read before
 * it is claimed, and a mask before its bits are or-ed in, so each page of
 * them was first read, and on several threads the flushes were most of
 * the recorder's cost (histogram 4194304 on two threads: a quarter more time
 * in the SMs' windows than with --simulate-all; a flush per page of
 * slots and masks, 1,400 in its first launch).  Each page is written
 * before it is read instead: a page of slots when the first slot on it is
 * looked at (slot_pages_written, a bit per page, set for good: the pages
 * stay when the table is kept for the next launch), a page of masks by
 * the thread that claims them. */
#define SLOTS_PER_PAGE (4096 / sizeof(apage))
#define SLOT_PAGES (SHARED_SLOTS / SLOTS_PER_PAGE)
_Static_assert(4096 % sizeof(apage) == 0 && SHARED_SLOTS % SLOTS_PER_PAGE == 0, "slots in whole pages");

struct shared_table {
    _Atomic uint64_t slot_pages_written[(SLOT_PAGES + 63) / 64];
    _Alignas(4096) apage slot[SHARED_SLOTS];    /* from a page's start: the table is mapped */
    uint32_t claimed[MAX_PAGES];    /* the slots claimed, [0, nshared) */
    _Atomic uint64_t masks[MAX_PAGES][PAGE_MASK_WORDS];
    bool huge;                      /* mapped in huge pages (HUGE_TABLE_FROM) */
};

/* Device memory (its pages made) from which a recording's table is mapped
 * in huge pages: launches that touch this much claim slots in nearly every
 * 4 KiB of the table (4,096 pages at random in 1,024 pages of slots), so
 * that huge pages cost no more memory, and far fewer page faults (16
 * threads claiming the pages of vector_add 4194304 at once: 25,000 in
 * 4 KiB pages, 5,200 in huge ones, the run's).  A small program's table
 * stays in 4 KiB pages (reduction 65536: 6 MiB more at its peak in huge
 * ones). */
#define HUGE_TABLE_FROM ((uint64_t)16 << 20)

struct ws_reuse_recorder {
    ws_reuse_cache *cache;
    ws_devmem *mem;
    pthread_mutex_t mu;     /* for making the shared table */
    _Atomic(shared_table *) shared;     /* the cache's spare, or made at the first note */
    bool huge;              /* to be made in huge pages */
    atomic_size_t nshared;  /* its pages claimed */
    atomic_bool shared_failed;  /* out of memory or past MAX_PAGES: nothing is filed */
    atomic_bool exchanged;      /* a byte read after the launch made it, or written twice (on_access) */
};

/* What a claimer past MAX_PAGES publishes, for the threads waiting on its
 * page to give up too. */
static _Atomic uint64_t no_mask[1];

static size_t slot_of(uint64_t key)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (SHARED_SLOTS - 1);
}

/* The shared table, made by the first thread that needs it; NULL when out
 * of memory. */
static shared_table *shared_of(ws_reuse_recorder *r)
{
    shared_table *t = atomic_load_explicit(&r->shared, memory_order_acquire);
    if (t) return t;
    pthread_mutex_lock(&r->mu);
    t = atomic_load_explicit(&r->shared, memory_order_relaxed);
    if (!t && (t = ws_zeroed(1, sizeof *t))) {
        if (r->huge) ws_zeroed_advise_huge(t, 1, sizeof *t);
        /* written before any thread reads it */
        memset((void *)t->slot_pages_written, 0, sizeof t->slot_pages_written);
        t->huge = r->huge;
        atomic_store_explicit(&r->shared, t, memory_order_release);
    }
    pthread_mutex_unlock(&r->mu);
    return t;
}

/* Slot j's page of the table written (it may be read next), once. */
static inline void write_slot_page(shared_table *t, size_t j)
{
    size_t page = j / SLOTS_PER_PAGE;
    _Atomic uint64_t *w = &t->slot_pages_written[page / 64];
    uint64_t bit = UINT64_C(1) << (page % 64);
    if (atomic_load_explicit(w, memory_order_relaxed) & bit) return;
    /* nothing or-ed in: a write whatever another thread does to the slot */
    atomic_fetch_or_explicit(&t->slot[page * SLOTS_PER_PAGE].key, 0, memory_order_relaxed);
    atomic_fetch_or_explicit(w, bit, memory_order_relaxed);
}

/* Page number's slot in the shared table, claimed if no thread has yet;
 * NULL when out of memory or past MAX_PAGES.  Its mask is set up on
 * return. */
static apage *shared_page(ws_reuse_recorder *r, uint64_t number)
{
    shared_table *t = shared_of(r);
    if (!t) return NULL;
    uint64_t key = number + 1;
    for (size_t j = slot_of(key);; j = (j + 1) & (SHARED_SLOTS - 1)) {
        apage *pg = &t->slot[j];
        write_slot_page(t, j);
        uint64_t k = atomic_load_explicit(&pg->key, memory_order_acquire);
        if (k == 0 && atomic_compare_exchange_strong(&pg->key, &k, key)) {
            _Atomic uint64_t *m = no_mask;
            size_t nth = atomic_fetch_add(&r->nshared, 1);
            if (nth < MAX_PAGES) {
                t->claimed[nth] = (uint32_t)j;
                m = t->masks[nth];
                /* its (at most two) pages written before anyone reads them;
                 * or-ing nothing in changes no other page's bits there */
                atomic_fetch_or_explicit(&m[0], 0, memory_order_relaxed);
                atomic_fetch_or_explicit(&m[PAGE_MASK_WORDS - 1], 0, memory_order_relaxed);
            }
            atomic_store_explicit(&pg->mask, m, memory_order_release);
            return m != no_mask ? pg : NULL;
        }
        if (k != key) continue;     /* another page's, or just claimed by another thread for one */
        _Atomic uint64_t *m;
        while (!(m = atomic_load_explicit(&pg->mask, memory_order_acquire))) sched_yield();
        return m == no_mask ? NULL : pg;
    }
}

/* bits or-ed into *w; a word whose bits are set already is only read (the
 * same bytes are mostly read again, or written whole).  Whether any of
 * them was set before (of two threads at once, the second finds the
 * first's). */
static inline bool word_set_shared(_Atomic uint64_t *w, uint64_t bits)
{
    uint64_t old = atomic_load_explicit(w, memory_order_relaxed);
    if ((old & bits) != bits) old = atomic_fetch_or_explicit(w, bits, memory_order_relaxed);
    return (old & bits) != 0;
}

/* Bits [lo, hi) of m but those set in except (NULL: none), or-ed in: the
 * first and last words in part, the words between whole.  Whether any bit
 * of [lo, hi) was set already: in except where there is one, else in m. */
static bool bits_set_shared(_Atomic uint64_t *m, _Atomic uint64_t *except, uint32_t lo, uint32_t hi)
{
    bool met = false;
    if (lo >= hi) return false;
    for (uint32_t w = lo / 64, last = (hi - 1) / 64; w <= last; w++) {
        uint64_t bits = ~UINT64_C(0);
        if (w == lo / 64) bits &= ~UINT64_C(0) << (lo % 64);
        if (w == last) bits &= ~UINT64_C(0) >> (63 - (hi - 1) % 64);
        if (except) {
            uint64_t made = atomic_load_explicit(&except[w], memory_order_relaxed);
            met |= (bits & made) != 0;
            bits &= ~made;
            if (bits) word_set_shared(&m[w], bits);
        } else if (bits) {
            met |= word_set_shared(&m[w], bits);
        }
    }
    return met;
}

/* Whether this note of page pg (a read, or a write told ahead or, with
 * now, made now) must copy the page, there being no copy yet: the note
 * that makes the page both read and written (its kind or-ed into pg->seen
 * atomically: of two notes at once, the later), and any write made now to
 * a page both read and written, which may change no byte before a copy is
 * there.  The copy is published with a compare-and-swap. */
static bool page_copy_wanted(apage *pg, bool write, bool now)
{
    uint8_t kind = write ? SEEN_WRITTEN : SEEN_READ;
    uint8_t seen = atomic_load_explicit(&pg->seen, memory_order_relaxed);
    if (!(seen & kind)) seen = atomic_fetch_or(&pg->seen, kind);
    if ((seen | kind) != (SEEN_READ | SEEN_WRITTEN)) return false;
    return (!(seen & kind) || (write && now)) && !atomic_load_explicit(&pg->pre, memory_order_acquire);
}

/* A read, a write told ahead or a write about to be made, into the shared
 * table; out of memory or past MAX_PAGES: failed, and nothing more is
 * noted. */
static void on_access(void *ctx, uint64_t addr, uint64_t size, bool write, bool ahead)
{
    ws_reuse_recorder *r = ctx;
    while (size && !atomic_load_explicit(&r->shared_failed, memory_order_relaxed)) {
        uint32_t off = (uint32_t)(addr & (RPAGE - 1));
        uint32_t n = size < RPAGE - off ? (uint32_t)size : RPAGE - off;
        apage *pg = shared_page(r, addr >> RPAGE_SHIFT);
        if (!pg) {
            atomic_store(&r->shared_failed, true);
            return;
        }
        _Atomic uint64_t *m = atomic_load_explicit(&pg->mask, memory_order_relaxed);
        if (page_copy_wanted(pg, write, !ahead)) {
            uint8_t *copy = malloc(RPAGE), *none = NULL;
            if (!copy) {
                atomic_store(&r->shared_failed, true);
                return;
            }
            ws_devmem_peek(r->mem, addr >> RPAGE_SHIFT << RPAGE_SHIFT, copy, RPAGE);
            if (!atomic_compare_exchange_strong(&pg->pre, &none, copy)) free(copy);
        }
        /* a read of a byte the launch made, a write told ahead of a byte
         * told before, a write made of a byte made before: the launch's
         * threads may have exchanged values (another's, or the thread's
         * own: not told apart); a write told ahead is noted again when it
         * is made, so a write made is compared with the writes made */
        bool met;
        if (!write) {
            /* only the bytes the launch has not written yet: what it reads
             * of the others it wrote itself */
            met = bits_set_shared(m + READ_BITS, m + MADE_BITS, off, off + n);
        } else {
            met = bits_set_shared(m + WRITTEN_BITS, NULL, off, off + n) && ahead;
            if (!ahead) met = bits_set_shared(m + MADE_BITS, NULL, off, off + n);
        }
        if (met && !atomic_load_explicit(&r->exchanged, memory_order_relaxed))
            atomic_store_explicit(&r->exchanged, true, memory_order_relaxed);
        addr += n;
        size -= n;
    }
}

/* Mask m's bits (words) as a page's byte mask into out; false when it has
 * none. */
static bool mask_bytes(uint8_t *out, _Atomic uint64_t *m)
{
    uint64_t words[MASK_WORDS], any = 0;
    for (uint32_t w = 0; w < MASK_WORDS; w++) any |= words[w] = atomic_load_explicit(&m[w], memory_order_relaxed);
    if (!any) return false;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out, words, RMASK_BYTES);    /* the words' bytes are the mask's bytes in order */
#else
    for (uint32_t w = 0; w < MASK_WORDS; w++)
        for (uint32_t k = 0; k < 8; k++) out[w * 8 + k] = (uint8_t)(words[w] >> (8 * k));
#endif
    return true;
}

/* Frees the copies the shared table still holds and empties it for the
 * cache's next recording (its slots and masks zero again); a table with
 * slots it did not list (past MAX_PAGES), or where the cache keeps one
 * already, is freed. */
static void shared_done(ws_reuse_recorder *r)
{
    shared_table *t = atomic_load(&r->shared);
    if (!t) return;
    size_t n = atomic_load(&r->nshared);
    for (size_t i = 0; i < n && i < MAX_PAGES; i++) {
        apage *a = &t->slot[t->claimed[i]];
        free(atomic_load_explicit(&a->pre, memory_order_relaxed));
        atomic_store_explicit(&a->key, 0, memory_order_relaxed);
        atomic_store_explicit(&a->mask, NULL, memory_order_relaxed);
        atomic_store_explicit(&a->pre, NULL, memory_order_relaxed);
        atomic_store_explicit(&a->seen, 0, memory_order_relaxed);
    }
    atomic_store(&r->shared, NULL);
    if (n > MAX_PAGES || r->cache->spare) {
        ws_zeroed_free(t, 1, sizeof *t);
        return;
    }
    memset((void *)t->masks, 0, n * sizeof t->masks[0]);
    r->cache->spare = t;
}

ws_reuse_recorder *ws_reuse_record_begin(ws_reuse_cache *c, ws_devmem *mem)
{
    ws_reuse_recorder *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->cache = c;
    r->mem = mem;
    pthread_mutex_init(&r->mu, NULL);
    r->huge = ws_devmem_resident_bytes(mem) >= HUGE_TABLE_FROM;
    if (c->spare && r->huge && !c->spare->huge) {    /* made anew, in huge pages */
        ws_zeroed_free(c->spare, 1, sizeof *c->spare);
        c->spare = NULL;
    }
    atomic_init(&r->shared, c->spare);
    c->spare = NULL;
    atomic_init(&r->nshared, 0);
    atomic_init(&r->shared_failed, false);
    atomic_init(&r->exchanged, false);
    ws_devmem_watch(mem, on_access, r);
    return r;
}

/* ---- records ------------------------------------------------------------- */

static void pages_free(ws_reuse_cache *c, rpage *pages, size_t n)
{
    for (size_t i = 0; pages && i < n; i++) {
        if (pages[i].buf && --pages[i].buf->refs == 0) {
            free(pages[i].buf);
            atomic_fetch_sub(&c->copies, 1);
        }
    }
    free(pages);
}

static void record_free(ws_reuse_cache *c, record *rec)
{
    if (!rec) return;
    free(rec->key.params);
    pages_free(c, rec->reads, rec->nreads);
    pages_free(c, rec->writes, rec->nwrites);
    free(rec->printed);
    free(rec->lines);
    free(rec->line_pcs);
    free(rec);
}

/* Pages a thread copies at least when a record's copying is shared out:
 * fewer are not worth a thread. */
#define PAGES_FOR_A_THREAD 512
#define MAX_FILL_THREADS 64

/* A share of a record's copying: the pages [from, to) of the shared
 * table's pages sorted by address (sorted: page key above SLOT_BITS, slot
 * below), whose reads and writes go to rec's arrays from index from on, nr
 * and nw of them; like, the newest record (NULL: none), whose copies it
 * may share. */
typedef struct fill_share {
    ws_reuse_cache *cache;
    record *rec;
    const record *like;
    ws_reuse_recorder *r;
    const uint64_t *sorted;
    size_t from, to, nr, nw;
    bool alone;             /* the copy's only share: it frees what it copied */
    bool failed;            /* out of memory */
    bool read_written;      /* a page of the share has a byte both read (before a write made it) and written */
} fill_share;

/* The page at base in pages (n of them, by base), or NULL. */
static const rpage *page_find(const rpage *pages, size_t n, uint64_t base)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pages[mid].base == base) return &pages[mid];
        if (pages[mid].base < base) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* A copy of bytes (a page) for d: like's copy of d's page, its values
 * after (writes) or before (reads) like's launch, when its bytes are
 * these; else a new one.  False when out of memory. */
static bool copy_for(ws_reuse_cache *c, rpage *d, const record *like, const uint8_t *bytes)
{
    const rpage *same[2] = {like ? page_find(like->writes, like->nwrites, d->base) : NULL,
                            like ? page_find(like->reads, like->nreads, d->base) : NULL};
    for (int k = 0; k < 2; k++) {
        if (same[k] && memcmp(same[k]->buf->bytes, bytes, RPAGE) == 0) {
            d->buf = same[k]->buf;
            d->buf->refs++;     /* one page's records: this share's thread alone */
            return true;
        }
    }
    if (!(d->buf = malloc(sizeof *d->buf))) return false;
    atomic_fetch_add(&c->copies, 1);
    d->buf->refs = 1;
    memcpy(d->buf->bytes, bytes, RPAGE);
    return true;
}

/* Copies a share's pages: reads with the bytes the launch read (the
 * page's copy, or where it has none the page now), writes with those
 * after it; the only share frees the shared table's copy of
 * each page's bytes before the launch once used, as it goes.  (The copies
 * were made by every SM's thread in its own malloc arena; freed while
 * other threads copy, each free takes the lock of an arena another thread
 * allocates from: vector_add 4194304 on two threads switched context a
 * thousand times.  With several shares shared_done frees them after the
 * copy.)
 * The shares copy at once on several threads: each writes its own entries
 * of the arrays and of the table and reads device memory and the newest
 * record, which nothing changes meanwhile (a copy shared with that record
 * is one page's, and of one page's entries only one share's thread
 * changes its count). */
static void *fill_share_pages(void *arg)
{
    fill_share *f = arg;
    ws_reuse_recorder *r = f->r;
    shared_table *t = atomic_load_explicit(&r->shared, memory_order_relaxed);
    uint8_t now[RPAGE];
    for (size_t i = f->from; i < f->to && !f->failed; i++) {
        apage *a = &t->slot[f->sorted[i] & (SHARED_SLOTS - 1)];
        uint64_t base = ((f->sorted[i] >> SLOT_BITS) - 1) << RPAGE_SHIFT;
        _Atomic uint64_t *m = atomic_load_explicit(&a->mask, memory_order_relaxed);
        uint8_t *pre = atomic_load_explicit(&a->pre, memory_order_relaxed);
        for (uint32_t w = 0; w < MASK_WORDS && !f->read_written; w++)
            f->read_written = (atomic_load_explicit(&m[READ_BITS + w], memory_order_relaxed) &
                               atomic_load_explicit(&m[WRITTEN_BITS + w], memory_order_relaxed)) != 0;
        rpage *d = &f->rec->reads[f->from + f->nr];
        if (mask_bytes(d->mask, m + READ_BITS)) {
            d->base = base;
            f->nr++;
            if (!pre) ws_devmem_peek(r->mem, base, now, RPAGE);     /* unwritten: as at the start */
            f->failed = !copy_for(f->cache, d, f->like, pre ? pre : now);
        }
        d = &f->rec->writes[f->from + f->nw];
        if (!f->failed && mask_bytes(d->mask, m + WRITTEN_BITS)) {
            d->base = base;
            f->nw++;
            ws_devmem_peek(r->mem, base, now, RPAGE);
            f->failed = !copy_for(f->cache, d, f->like, now);
        }
        if (f->failed) break;   /* (what it holds stays for shared_done) */
        if (f->alone) {
            free(pre);
            atomic_store_explicit(&a->pre, NULL, memory_order_relaxed);
        }
    }
    return NULL;
}

/* The shared table's pages as keys sorted by address (page key above
 * SLOT_BITS, slot below); NULL when out of memory. */
static uint64_t *sorted_pages(const shared_table *t, size_t n)
{
    uint64_t *keys = malloc(2 * n * sizeof *keys);
    if (!keys) return NULL;
    for (size_t i = 0; i < n; i++) {
        const apage *a = &t->slot[t->claimed[i]];
        keys[i] = atomic_load_explicit(&a->key, memory_order_relaxed) << SLOT_BITS | t->claimed[i];
    }
    ws_sort_keys_from(keys, keys + n, (uint32_t)n, SLOT_BITS);
    return keys;
}

/* The record's pages, copied on up to nthreads threads (this one among
 * them) when there are enough: a launch of large arrays records tens of
 * MiB (vector_add 4194304: 48 MiB a launch), sharing the copies of like
 * (the newest record, or NULL) whose bytes are the same.  Each share fills
 * its own stretch of the arrays (room for every page read and written),
 * and the stretches are then moved together, in the order of the pages'
 * addresses.  The other threads are pool's where there is one: threads
 * started for the copy while the pool's live find every malloc arena
 * held and make new ones, whose copies then cannot use what the launch
 * freed (vector_add 4194304 on 8 threads: 12 arenas instead of 8, and
 * 331 MiB resident after its last launch instead of 311). */
static bool fill_pages(ws_reuse_cache *c, record *rec, const record *like, ws_reuse_recorder *r,
                       int32_t nthreads, ws_thread_pool *pool)
{
    shared_table *t = atomic_load(&r->shared);
    size_t pages = t ? atomic_load(&r->nshared) : 0;    /* below MAX_PAGES: else failed */
    uint64_t *sorted = pages ? sorted_pages(t, pages) : NULL;
    rec->reads = calloc(pages ? pages : 1, sizeof *rec->reads);
    rec->writes = calloc(pages ? pages : 1, sizeof *rec->writes);
    /* until the stretches are moved together, every entry is freed on failure */
    rec->nreads = rec->nwrites = pages;
    if ((pages && !sorted) || !rec->reads || !rec->writes) {
        free(sorted);
        return false;
    }
    size_t n = pages / PAGES_FOR_A_THREAD;
    if (n > (size_t)nthreads) n = nthreads > 1 ? (size_t)nthreads : 1;
    if (n > MAX_FILL_THREADS) n = MAX_FILL_THREADS;
    if (n < 1) n = 1;
    fill_share share[MAX_FILL_THREADS];
    for (size_t k = 0; k < n; k++)
        share[k] = (fill_share){.cache = c, .rec = rec, .like = like, .r = r, .sorted = sorted,
                                .from = pages * k / n, .to = pages * (k + 1) / n, .alone = n == 1};
    ws_thread_pool_each(pool, (int32_t)n, fill_share_pages, share, sizeof *share);
    bool failed = false;
    for (size_t k = 0; k < n; k++) {
        failed |= share[k].failed;
        rec->exchanged |= share[k].read_written;
    }
    free(sorted);
    if (failed) return false;   /* (the entries not reached have no copy: record_free skips them) */
    size_t nr = 0, nw = 0;
    for (size_t k = 0; k < n; k++) {
        memmove(rec->reads + nr, rec->reads + share[k].from, share[k].nr * sizeof *rec->reads);
        memmove(rec->writes + nw, rec->writes + share[k].from, share[k].nw * sizeof *rec->writes);
        nr += share[k].nr;
        nw += share[k].nw;
    }
    rec->nreads = nr;
    rec->nwrites = nw;
    rpage *fit = realloc(rec->reads, (nr ? nr : 1) * sizeof *fit);     /* smaller: gives back the room */
    if (fit) rec->reads = fit;
    if ((fit = realloc(rec->writes, (nw ? nw : 1) * sizeof *fit))) rec->writes = fit;
    /* its page copies are counted in c->copies, shared ones once */
    rec->bytes = sizeof *rec + (uint64_t)(nr + nw) * sizeof(rpage) + rec->key.params_size + rec->nprinted +
                 rec->nlines * (sizeof *rec->lines + sizeof *rec->line_pcs);
    return true;
}

/* What c holds, page copies included (a record being added: its copies
 * too, not its other bytes). */
static uint64_t cache_bytes(const ws_reuse_cache *c)
{
    return c->bytes + (uint64_t)atomic_load(&c->copies) * sizeof(pbuf);
}

static void cache_drop(ws_reuse_cache *c, int i)
{
    c->bytes -= c->recs[i]->bytes;
    record_free(c, c->recs[i]);
    memmove(c->recs + i, c->recs + i + 1, (size_t)(c->n - 1 - i) * sizeof *c->recs);
    c->n--;
}

/* Adds rec (its copies made, so counted already), dropping the least
 * recently made or reused record of its key when its limit of them are
 * kept, and then the least recently made or reused records while the
 * cache is full; rec is freed when it alone is more than the cache may
 * hold. */
static void cache_add(ws_reuse_cache *c, record *rec)
{
    int same = 0, stale = -1;
    for (int i = c->n - 1; i >= 0; i--)
        if (key_eq(&c->recs[i]->key, &rec->key)) {
            same++;
            stale = i;
        }
    if (same >= (int)c->limits.same_key && stale >= 0) cache_drop(c, stale);
    while (c->n > 0 && ((uint32_t)c->n >= c->limits.records || cache_bytes(c) + rec->bytes > c->limits.bytes))
        cache_drop(c, 0);
    if (cache_bytes(c) + rec->bytes > c->limits.bytes || c->limits.records == 0) {
        record_free(c, rec);
        return;
    }
    c->recs[c->n++] = rec;
    c->bytes += rec->bytes;
}

/* The per-instruction counters key's launch added (key->l->pc_counts,
 * NULL: none), those of the instructions it counted anything for; false
 * when out of memory. */
static bool keep_lines(record *rec, const ws_reuse_key *key)
{
    const ws_pc_counts *c = key->l->pc_counts, zero = {0};
    size_t n = c ? ws_program_code_size(key->p) : 0, used = 0;
    for (size_t pc = 0; pc < n; pc++) used += memcmp(&c[pc], &zero, sizeof zero) != 0;
    if (!used) return true;
    rec->lines = malloc(used * sizeof *rec->lines);
    rec->line_pcs = malloc(used * sizeof *rec->line_pcs);
    if (!rec->lines || !rec->line_pcs) return false;
    for (size_t pc = 0; pc < n; pc++) {
        if (memcmp(&c[pc], &zero, sizeof zero) == 0) continue;
        rec->lines[rec->nlines] = c[pc];
        rec->line_pcs[rec->nlines++] = (uint32_t)pc;
    }
    return true;
}

static record *record_make(ws_reuse_cache *cache, ws_reuse_recorder *r, const ws_reuse_key *key,
                           uint64_t launch_no, const ws_launch_stats *st, const ws_timing_stats *ts,
                           const char *printed, size_t nprinted, int32_t nthreads, ws_thread_pool *pool)
{
    record *rec = calloc(1, sizeof *rec);
    if (!rec) return NULL;
    rec->key = key_of(key);
    rec->key.params = NULL;
    rec->launch_no = launch_no;
    rec->st = *st;
    rec->ts = *ts;
    rec->nprinted = nprinted;
    rec->exchanged = atomic_load(&r->exchanged);
    bool ok = (rec->key.params = malloc(rec->key.params_size ? rec->key.params_size : 1)) &&
              (rec->printed = malloc(nprinted ? nprinted : 1)) && keep_lines(rec, key);
    if (ok) {
        if (rec->key.params_size) memcpy(rec->key.params, key->l->params, rec->key.params_size);
        if (nprinted) memcpy(rec->printed, printed, nprinted);
        ok = fill_pages(cache, rec, cache->n ? cache->recs[cache->n - 1] : NULL, r, nthreads, pool);
    }
    if (!ok) {
        record_free(cache, rec);
        return NULL;
    }
    return rec;
}

void ws_reuse_record_end(ws_reuse_recorder *r, bool keep, const ws_reuse_key *key, uint64_t launch_no,
                         const ws_launch_stats *st, const ws_timing_stats *ts,
                         const char *printed, size_t nprinted, int32_t nthreads, ws_thread_pool *pool)
{
    if (!r) return;
    ws_devmem_watch(r->mem, NULL, NULL);
    if (keep && !atomic_load(&r->shared_failed)) {
        record *rec = record_make(r->cache, r, key, launch_no, st, ts, printed, nprinted, nthreads, pool);
        if (rec) cache_add(r->cache, rec);
    }
    shared_done(r);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

/* ---- reuse --------------------------------------------------------------- */

/* Every byte rec read holds the same value in mem now, in a live
 * allocation, and under initcheck has been written since it was allocated
 * (the launch recorded found every byte it read so: ws_run_reusing); else
 * false, with *at (NULL: not wanted) the first byte that does not. */
static bool reads_match(const record *rec, const ws_devmem *mem, uint64_t *at)
{
    uint8_t now[RPAGE];
    bool initcheck = rec->key.checks & WS_CHECK_INIT;
    for (size_t i = 0; i < rec->nreads; i++) {
        const rpage *pg = &rec->reads[i];
        uint32_t pos = 0, lo, hi, span = page_span(mem, pg->base);
        while (next_run(pg->mask, &pos, &lo, &hi, span)) {
            bool live = ws_devmem_read(mem, pg->base + lo, now, hi - lo);
            uint64_t unwritten;
            if (live && initcheck && !ws_devmem_initialized(mem, pg->base + lo, hi - lo, &unwritten)) {
                if (at) *at = unwritten;
                return false;
            }
            if (live && memcmp(now, pg->buf->bytes + lo, hi - lo) == 0) continue;
            if (at) {
                uint32_t k = 0;
                while (live && k < hi - lo && now[k] == pg->buf->bytes[lo + k]) k++;
                *at = pg->base + lo + (live ? k : 0);
            }
            return false;
        }
    }
    return true;
}

/* Every byte rec wrote lies in a live allocation now; else false, with
 * *at (NULL: not wanted) the first run of them that does not. */
static bool writes_valid(const record *rec, const ws_devmem *mem, uint64_t *at)
{
    for (size_t i = 0; i < rec->nwrites; i++) {
        const rpage *pg = &rec->writes[i];
        if (page_span(mem, pg->base) == RPAGE) continue;    /* every run valid */
        uint32_t pos = 0, lo, hi;
        while (next_run(pg->mask, &pos, &lo, &hi, CHUNK))
            if (!ws_devmem_valid(mem, pg->base + lo, hi - lo)) {
                if (at) *at = pg->base + lo;
                return false;
            }
    }
    return true;
}

/* The bytes of the page src that mask marks, into the page dst. */
static void masked_copy(uint8_t *dst, const uint8_t *src, const uint8_t *mask)
{
    for (uint32_t w = 0; w < RPAGE / 64; w++) {
        uint64_t m = mask_word(mask, w);
        uint32_t at = w * 64;
        if (m == ~UINT64_C(0)) {
            memcpy(dst + at, src + at, 64);
            continue;
        }
        while (m) {
            uint32_t lo = (uint32_t)__builtin_ctzll(m), rest = 64 - lo;
            uint64_t clear = ~m >> lo;      /* bit 0 set where the run ends (none: it runs to the word's end) */
            uint32_t len = clear ? (uint32_t)__builtin_ctzll(clear) : rest;
            memcpy(dst + at + lo, src + at + lo, len);
            m = len == rest ? 0 : m & ~UINT64_C(0) << (lo + len);
        }
    }
}

/* rec's writes made again.  A page that lies in one allocation and is
 * made already (ws_devmem_write_span finds no other) takes its bytes in
 * place, word of the mask by word, where nothing watches device memory and
 * nothing tracks what is written (what ws_devmem_write would do beside
 * moving the bytes); any other run by run. */
static bool replay_writes(const record *rec, ws_devmem *mem)
{
    bool in_place = !ws_devmem_watched(mem) && !ws_devmem_tracks_init(mem);
    for (size_t i = 0; i < rec->nwrites; i++) {
        const rpage *pg = &rec->writes[i];
        uint32_t pos = 0, lo, hi, span = page_span(mem, pg->base);
        uint8_t *page = in_place && span == RPAGE ? ws_devmem_write_span(mem, pg->base, RPAGE) : NULL;
        if (page) {
            masked_copy(page, pg->buf->bytes, pg->mask);
            continue;
        }
        while (next_run(pg->mask, &pos, &lo, &hi, span))
            if (!ws_devmem_write(mem, pg->base + lo, pg->buf->bytes + lo, hi - lo)) return false;
    }
    return true;
}

/* The per-instruction counters rec's launch added, added to to (NULL:
 * not counted). */
static void add_lines(const record *rec, ws_pc_counts *to)
{
    for (size_t j = 0; to && j < rec->nlines; j++) ws_pc_counts_add(&to[rec->line_pcs[j]], &rec->lines[j], 1, false);
}

/* Record i, reused, made the newest: the least recently used go first
 * when the cache is full, and the next record shares the copies of this
 * one, whose outputs the next launch most likely reads.  Returns it. */
static record *make_newest(ws_reuse_cache *c, int i)
{
    record *hit = c->recs[i];
    memmove(c->recs + i, c->recs + i + 1, (size_t)(c->n - 1 - i) * sizeof *c->recs);
    c->recs[c->n - 1] = hit;
    return hit;
}

uint64_t ws_reuse_find(ws_reuse_cache *c, ws_devmem *mem, const ws_reuse_key *key, FILE *out,
                       ws_launch_stats *st, ws_timing_stats *ts, bool *oom, ws_reuse_miss *miss)
{
    rkey want = key_of(key);
    *oom = false;
    if (miss) *miss = (ws_reuse_miss){0};
    for (int i = c->n - 1; i >= 0; i--) {
        const record *rec = c->recs[i];
        if (!key_eq(&rec->key, &want)) continue;
        /* the newest record of the key tells why it did not match */
        bool first = miss && !miss->launch_no;
        uint64_t at = 0;
        if (!reads_match(rec, mem, first ? &at : NULL)) {
            if (first) *miss = (ws_reuse_miss){.launch_no = rec->launch_no, .addr = at, .freed = false};
            continue;
        }
        if (!writes_valid(rec, mem, first ? &at : NULL)) {
            if (first) *miss = (ws_reuse_miss){.launch_no = rec->launch_no, .addr = at, .freed = true};
            continue;
        }
        if (miss) *miss = (ws_reuse_miss){0};
        /* only out of host memory can a write fail here */
        if (!replay_writes(rec, mem)) {
            *oom = true;
            return 0;
        }
        if (rec->nprinted) fwrite(rec->printed, 1, rec->nprinted, out);
        add_lines(rec, key->l->pc_counts);
        *st = rec->st;
        *ts = rec->ts;
        return make_newest(c, i)->launch_no;
    }
    return 0;
}

/* Whether rec's threads may have passed values to one another through
 * device memory (rec->exchanged) or by atomics, or whether it printed or
 * was checked, which a functional run does not reproduce.  (Values passed
 * through shared memory are the caller's to look for: ws_run_reusing runs
 * racecheck on them.) */
static bool lends_timing(const record *rec)
{
    const ws_launch_stats *st = &rec->st;
    return !rec->exchanged && !st->shared_atom.requests && !st->global_atom.requests && !rec->nprinted &&
           !rec->key.checks && !rec->key.grid_workspace;
}

/* The record of launch launch_no, or NULL. */
static record *record_of(const ws_reuse_cache *c, uint64_t launch_no)
{
    for (int i = c->n - 1; i >= 0; i--)
        if (c->recs[i]->launch_no == launch_no) return c->recs[i];
    return NULL;
}

void ws_reuse_lend_lines(const ws_reuse_cache *c, uint64_t launch_no, ws_pc_counts *to)
{
    const record *rec = record_of(c, launch_no);
    if (rec) add_lines(rec, to);
}

uint64_t ws_reuse_find_timing(ws_reuse_cache *c, const ws_reuse_key *key, ws_launch_stats *st,
                              ws_timing_stats *ts, bool *shared_ordered)
{
    rkey want = key_of(key);
    for (int i = c->n - 1; i >= 0; i--) {
        record *rec = c->recs[i];
        if (!key_eq(&rec->key, &want) || !lends_timing(rec)) continue;
        *st = rec->st;
        *ts = rec->ts;
        *shared_ordered = rec->shared_ordered;
        return make_newest(c, i)->launch_no;
    }
    return 0;
}

void ws_reuse_note_shared_ordered(ws_reuse_cache *c, uint64_t launch_no)
{
    record *rec = record_of(c, launch_no);
    if (rec) rec->shared_ordered = true;
}

/* ---- the cache ----------------------------------------------------------- */

ws_reuse_cache *ws_reuse_create_limited(ws_reuse_limits limits)
{
    ws_reuse_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (limits.records > WS_REUSE_MAX_RECORDS) limits.records = WS_REUSE_MAX_RECORDS;
    c->limits = limits;
    return c;
}

ws_reuse_cache *ws_reuse_create(void)
{
    return ws_reuse_create_limited(ws_reuse_default_limits());
}

void ws_reuse_clear(ws_reuse_cache *c)
{
    if (!c) return;
    while (c->n > 0) cache_drop(c, 0);
}

void ws_reuse_destroy(ws_reuse_cache *c)
{
    ws_reuse_clear(c);
    if (c) ws_zeroed_free(c->spare, 1, sizeof *c->spare);
    free(c);
}

size_t ws_reuse_page_copies(const ws_reuse_cache *c)
{
    return atomic_load(&c->copies);
}
