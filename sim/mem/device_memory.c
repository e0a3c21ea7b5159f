/* Device (global) memory: a sorted table of allocations over a sparse set
 * of 64 KiB backing pages.
 *
 * Allocations take addresses from WS_GLOBAL_BASE upward, 256-byte aligned,
 * each followed by an unmapped guard gap so that running a little past the
 * end of one buffer faults instead of landing in the next.  Addresses are
 * handed out by a bump pointer, so a freed range is not reused while fresh
 * space remains (a stale pointer then faults); when the range runs out, the
 * lowest gap that fits is reused.
 *
 * Pages are keyed by address >> WS_PAGE_SHIFT in an open-addressing hash
 * table and created only when a non-zero byte is written: reads of absent
 * pages return zeros.  Small allocations share pages; freeing one clears its
 * bytes so a later allocation at the same addresses starts zeroed.
 *
 * The last allocation and the last page written are cached.  Reads use the
 * cache but do not change it, so reads (the const functions, and spans for
 * reading) may run on several threads at once while nothing writes: a timed
 * launch on several threads reads that way, its writes waiting for the end
 * of the cycle (sim/core/sm_team.h); so may ws_devmem_write_span_ahead,
 * which finds a write's bytes for later.  A watcher is called from those
 * threads too. */
#include "device_memory.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS_PAGE_SHIFT   16
#define WS_PAGE_SIZE    (UINT64_C(1) << WS_PAGE_SHIFT)
#define WS_ALLOC_ALIGN  UINT64_C(256)
#define WS_GUARD_GAP    UINT64_C(4096)
/* 1 TiB of device addresses: [0x7f00_0000_0000, 0x8000_0000_0000). */
#define WS_GLOBAL_LIMIT UINT64_C(0x0000800000000000)

#define WS_DEVMEM_FREED_KEPT 256

typedef struct ws_alloc {
    uint64_t base, size;
} ws_alloc;

typedef struct ws_page_slot {
    uint64_t key;           /* page number; 0 = empty (no page sits at address 0) */
    uint8_t *data;
} ws_page_slot;

/* An open-addressing hash table of pages, keyed by page number. */
typedef struct ws_page_table {
    ws_page_slot *slots;    /* capacity is a power of two */
    size_t nslots, npages;
} ws_page_table;

struct ws_devmem {
    ws_alloc *allocs;       /* sorted by base, non-overlapping */
    size_t nallocs, cap_allocs;
    uint64_t bump;          /* next fresh address */

    ws_page_table pages;    /* the bytes */
    /* initcheck (ws_devmem_track_init): which bytes were ever written, one
     * bit per byte; a page absent from the table has none written, and one
     * whose data is NULL has all of them written. */
    bool track_init;
    ws_page_table inits;

    /* The most recent freed allocations, oldest first, for fault messages
     * and for an allocation of the same size (ws_devmem_alloc); a freed
     * range is not handed out again otherwise while fresh addresses
     * last. */
    ws_alloc freed[WS_DEVMEM_FREED_KEPT];
    size_t nfreed;

    /* lookup cache (see the top of the file) */
    size_t last_alloc;      /* index into allocs, may be stale: always re-checked */
    uint64_t last_key;      /* 0 = nothing cached */
    uint8_t *last_page;     /* page of last_key, NULL if it has none */

    ws_devmem_watch_fn watch;   /* ws_devmem_watch: NULL = off */
    void *watch_ctx;

    struct made_ahead *ahead;   /* pages made for a window's writes (ws_devmem_write_span_ahead) */
    /* A page of zeros, never written: a span read where no page exists
     * yet (ws_devmem_read_span) lies in it. */
    uint8_t *zeros;
};

/* Pages made while a window's SMs run, on their threads, for the stores
 * they put off to its end (ws_devmem_write_span_ahead), until
 * ws_devmem_adopt_ahead puts them in the page table: a table of fixed
 * size whose slots are taken by compare-and-swap of the key, the page's
 * bytes published after it.  Until then the page table does not hold
 * them, so reads find zeros there, which is what the new pages hold until
 * the window's end writes them. */
#define AHEAD_SLOTS 1024
#define AHEAD_PROBES 64
typedef struct made_ahead {
    _Atomic uint64_t key[AHEAD_SLOTS];          /* page number; 0 = free */
    _Atomic(uint8_t *) data[AHEAD_SLOTS];
    atomic_uint made;                           /* slots taken */
} made_ahead;

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* ---- page tables ---- */

static size_t page_hash(uint64_t key, size_t mask)
{
    return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & mask;
}

static ws_page_slot *table_find(const ws_page_table *t, uint64_t key)
{
    if (t->nslots == 0)
        return NULL;
    size_t mask = t->nslots - 1;
    for (size_t i = page_hash(key, mask);; i = (i + 1) & mask) {
        if (t->slots[i].key == key)
            return &t->slots[i];
        if (t->slots[i].key == 0)
            return NULL;
    }
}

static bool table_grow(ws_page_table *t)
{
    size_t n = t->nslots ? t->nslots * 2 : 64;
    ws_page_slot *s = calloc(n, sizeof *s);
    if (!s)
        return false;
    for (size_t i = 0; i < t->nslots; i++) {
        if (!t->slots[i].key)
            continue;
        size_t j = page_hash(t->slots[i].key, n - 1);
        while (s[j].key)
            j = (j + 1) & (n - 1);
        s[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = s;
    t->nslots = n;
    return true;
}

/* Adds key (not in the table) with data; NULL when out of memory.  Slot
 * pointers taken before are invalid afterwards. */
static ws_page_slot *table_insert(ws_page_table *t, uint64_t key, uint8_t *data)
{
    if ((t->npages + 1) * 4 > t->nslots * 3 && !table_grow(t))
        return NULL;
    size_t mask = t->nslots - 1, i = page_hash(key, mask);
    while (t->slots[i].key)
        i = (i + 1) & mask;
    t->slots[i].key = key;
    t->slots[i].data = data;
    t->npages++;
    return &t->slots[i];
}

/* Removes slot i (freeing its data) by shifting later members of its
 * probe run back, so that the table needs no tombstones. */
static void table_remove(ws_page_table *t, size_t i)
{
    size_t mask = t->nslots - 1;
    free(t->slots[i].data);
    t->slots[i].key = 0;
    t->slots[i].data = NULL;
    t->npages--;
    for (size_t j = (i + 1) & mask; t->slots[j].key; j = (j + 1) & mask) {
        size_t home = page_hash(t->slots[j].key, mask);
        /* slot j may move to hole i when its home is not in (i, j] */
        bool stays = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            t->slots[i] = t->slots[j];
            t->slots[j].key = 0;
            t->slots[j].data = NULL;
            i = j;
        }
    }
}

static void table_free(ws_page_table *t)
{
    for (size_t i = 0; i < t->nslots; i++)
        free(t->slots[i].data);
    free(t->slots);
}

/* Calls visit for each page of t in pages [first, last], walking whichever
 * is smaller: the range's pages or the table.  visit returns true when it
 * removed the slot. */
typedef bool (*page_visit)(ws_page_table *t, size_t slot, uint64_t addr, uint64_t end);

static void table_for_range(ws_page_table *t, uint64_t addr, uint64_t size, page_visit visit)
{
    if (size == 0 || t->npages == 0)
        return;
    uint64_t first = addr >> WS_PAGE_SHIFT, last = (addr + size - 1) >> WS_PAGE_SHIFT;
    if (last - first + 1 <= t->nslots) {
        for (uint64_t key = first; key <= last; key++) {
            ws_page_slot *s = table_find(t, key);
            if (s)
                visit(t, (size_t)(s - t->slots), addr, addr + size);
        }
        return;
    }
    for (size_t i = 0; i < t->nslots;) {
        uint64_t key = t->slots[i].key;
        if (key < first || key > last || !visit(t, i, addr, addr + size))
            i++;        /* else slot i now holds a shifted entry: revisit it */
    }
}

/* ---- data pages ---- */

static uint8_t *page_lookup(const ws_devmem *m, uint64_t key)
{
    ws_page_slot *s = table_find(&m->pages, key);
    return s ? s->data : NULL;
}

/* A new page of key, zeroed unless whole: its caller writes every byte. */
static uint8_t *page_create(ws_devmem *m, uint64_t key, bool whole)
{
    uint8_t *data = whole ? malloc(WS_PAGE_SIZE) : calloc(1, WS_PAGE_SIZE);
    if (!data)
        return NULL;
    if (!table_insert(&m->pages, key, data)) {
        free(data);
        return NULL;
    }
    return data;
}

static bool all_zero(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* The part of page [pbase, pbase + WS_PAGE_SIZE) inside [addr, end). */
static void page_part(uint64_t pbase, uint64_t addr, uint64_t end, uint64_t *lo, uint64_t *hi)
{
    *lo = addr > pbase ? addr : pbase;
    *hi = end < pbase + WS_PAGE_SIZE ? end : pbase + WS_PAGE_SIZE;
}

/* Zeroes the part of slot i's page inside [addr, end), and drops the page
 * when nothing else is left on it (so freeing everything frees all pages).
 * Returns true when the page was dropped. */
static bool page_clear_part(ws_page_table *t, size_t i, uint64_t addr, uint64_t end)
{
    uint64_t pbase = t->slots[i].key << WS_PAGE_SHIFT, lo, hi;
    page_part(pbase, addr, end, &lo, &hi);
    if (lo != pbase || hi != pbase + WS_PAGE_SIZE) {
        memset(t->slots[i].data + (lo - pbase), 0, hi - lo);
        if (!all_zero(t->slots[i].data, WS_PAGE_SIZE))
            return false;
    }
    table_remove(t, i);
    return true;
}

/* Drops or clears the page bytes of [addr, addr+size). */
static void page_clear_range(ws_devmem *m, uint64_t addr, uint64_t size)
{
    table_for_range(&m->pages, addr, size, page_clear_part);
    m->last_key = 0;
    m->last_page = NULL;
}

/* ---- initcheck: which bytes were written ---- */

#define WS_INIT_BITMAP_BYTES (WS_PAGE_SIZE / 8)

static void bits_set(uint8_t *bits, uint64_t lo, uint64_t hi, bool on)
{
    for (uint64_t i = lo; i < hi; i++) {
        if (on) bits[i / 8] |= (uint8_t)(1u << (i % 8));
        else bits[i / 8] &= (uint8_t)~(1u << (i % 8));
    }
}

/* Marks [addr, addr+size) written; false when out of memory. */
static bool init_mark(ws_devmem *m, uint64_t addr, uint64_t size)
{
    uint64_t end = addr + size;
    for (uint64_t key = addr >> WS_PAGE_SHIFT; size && key <= (end - 1) >> WS_PAGE_SHIFT; key++) {
        uint64_t pbase = key << WS_PAGE_SHIFT, lo, hi;
        page_part(pbase, addr, end, &lo, &hi);
        bool whole = lo == pbase && hi == pbase + WS_PAGE_SIZE;
        ws_page_slot *s = table_find(&m->inits, key);
        if (s && !s->data)
            continue;                   /* all written already */
        if (whole) {
            if (s) {
                free(s->data);
                s->data = NULL;
            } else if (!table_insert(&m->inits, key, NULL)) {
                return false;
            }
            continue;
        }
        if (!s) {
            uint8_t *bits = calloc(1, WS_INIT_BITMAP_BYTES);
            if (!bits)
                return false;
            s = table_insert(&m->inits, key, bits);
            if (!s) {
                free(bits);
                return false;
            }
        }
        bits_set(s->data, lo - pbase, hi - pbase, true);
    }
    return true;
}

/* Forgets the writes to the part of slot i's page inside [addr, end);
 * true when the slot was removed. */
static bool init_clear_part(ws_page_table *t, size_t i, uint64_t addr, uint64_t end)
{
    uint64_t pbase = t->slots[i].key << WS_PAGE_SHIFT, lo, hi;
    page_part(pbase, addr, end, &lo, &hi);
    if (lo != pbase || hi != pbase + WS_PAGE_SIZE) {
        if (!t->slots[i].data) {
            t->slots[i].data = malloc(WS_INIT_BITMAP_BYTES);
            if (!t->slots[i].data) {
                table_remove(t, i);     /* out of memory: forget the whole page's writes */
                return true;
            }
            memset(t->slots[i].data, 0xff, WS_INIT_BITMAP_BYTES);
        }
        bits_set(t->slots[i].data, lo - pbase, hi - pbase, false);
        if (!all_zero(t->slots[i].data, WS_INIT_BITMAP_BYTES))
            return false;
    }
    table_remove(t, i);
    return true;
}

/* ---- allocations ---- */

ws_devmem *ws_devmem_create(void)
{
    ws_devmem *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->bump = WS_GLOBAL_BASE;
    m->ahead = calloc(1, sizeof *m->ahead);
    m->zeros = calloc(1, WS_PAGE_SIZE);
    if (!m->ahead || !m->zeros) {
        free(m->ahead);
        free(m->zeros);
        free(m);
        return NULL;
    }
    return m;
}

void ws_devmem_destroy(ws_devmem *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < AHEAD_SLOTS; i++)
        free(atomic_load(&m->ahead->data[i]));
    free(m->ahead);
    free(m->zeros);
    table_free(&m->pages);
    table_free(&m->inits);
    free(m->allocs);
    free(m);
}

/* Index of the first allocation whose base is > addr. */
static size_t alloc_upper_bound(const ws_devmem *m, uint64_t addr)
{
    size_t lo = 0, hi = m->nallocs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->allocs[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Address space one allocation of size bytes occupies, guard included. */
static uint64_t alloc_footprint(uint64_t size)
{
    return align_up(size, WS_ALLOC_ALIGN) + WS_GUARD_GAP;
}

/* Index in m->allocs where an allocation at base of footprint need goes,
 * or SIZE_MAX when it would overlap a live one. */
static size_t free_slot(const ws_devmem *m, uint64_t base, uint64_t need)
{
    size_t at = alloc_upper_bound(m, base);
    if (at > 0 && m->allocs[at - 1].base + alloc_footprint(m->allocs[at - 1].size) > base) return SIZE_MAX;
    if (at < m->nallocs && base + need > m->allocs[at].base) return SIZE_MAX;
    return at;
}

/* The most recently freed allocation of size bytes whose range is free,
 * taken from the freed list; 0 when there is none. */
static uint64_t take_freed(ws_devmem *m, uint64_t size, size_t *at)
{
    for (size_t k = m->nfreed; k-- > 0;) {
        if (m->freed[k].size != size) continue;
        uint64_t base = m->freed[k].base;
        if ((*at = free_slot(m, base, alloc_footprint(size))) == SIZE_MAX) continue;
        memmove(m->freed + k, m->freed + k + 1, (m->nfreed - k - 1) * sizeof *m->freed);
        m->nfreed--;
        return base;
    }
    return 0;
}

uint64_t ws_devmem_alloc(ws_devmem *m, uint64_t size)
{
    if (size > WS_GLOBAL_LIMIT - WS_GLOBAL_BASE)
        return 0;
    uint64_t need = alloc_footprint(size);
    uint64_t base = 0;
    size_t at;
    /* A program that frees a buffer and allocates one of the same size
     * (a scan's block sums, allocated and freed in each timed call) gets
     * the same address again, as the CUDA driver gives it (an H100 with
     * driver 580: the same pointer each time round such a loop): its
     * launches then read and write the same addresses, and repeated-launch
     * reuse finds them identical.  Other sizes take fresh addresses, so
     * that a stale pointer mostly lands in freed memory and is reported. */
    base = take_freed(m, size, &at);
    if (!base && need <= WS_GLOBAL_LIMIT - m->bump) {
        base = m->bump;
        at = m->nallocs;
    } else if (!base) {
        /* first fit among the gaps left by freed allocations */
        uint64_t prev_end = WS_GLOBAL_BASE;
        for (at = 0; at <= m->nallocs; at++) {
            uint64_t next = at < m->nallocs ? m->allocs[at].base : WS_GLOBAL_LIMIT;
            if (next - prev_end >= need) {
                base = prev_end;
                break;
            }
            if (at < m->nallocs)
                prev_end = m->allocs[at].base + alloc_footprint(m->allocs[at].size);
        }
        if (!base)
            return 0;
    }
    if (m->nallocs == m->cap_allocs) {
        size_t n = m->cap_allocs ? m->cap_allocs * 2 : 16;
        ws_alloc *a = realloc(m->allocs, n * sizeof *a);
        if (!a)
            return 0;
        m->allocs = a;
        m->cap_allocs = n;
    }
    memmove(m->allocs + at + 1, m->allocs + at, (m->nallocs - at) * sizeof *m->allocs);
    m->allocs[at].base = base;
    m->allocs[at].size = size;
    m->nallocs++;
    if (base == m->bump)
        m->bump += need;
    return base;
}

bool ws_devmem_free(ws_devmem *m, uint64_t addr)
{
    size_t i = alloc_upper_bound(m, addr);
    if (i == 0 || m->allocs[i - 1].base != addr)
        return false;
    i--;
    if (m->nfreed == WS_DEVMEM_FREED_KEPT) {
        memmove(m->freed, m->freed + 1, (WS_DEVMEM_FREED_KEPT - 1) * sizeof *m->freed);
        m->nfreed--;
    }
    m->freed[m->nfreed++] = m->allocs[i];
    page_clear_range(m, m->allocs[i].base, m->allocs[i].size);
    table_for_range(&m->inits, m->allocs[i].base, m->allocs[i].size, init_clear_part);
    memmove(m->allocs + i, m->allocs + i + 1, (m->nallocs - i - 1) * sizeof *m->allocs);
    m->nallocs--;
    m->last_key = 0;
    m->last_page = NULL;
    return true;
}

/* The allocation holding [addr, addr+size), or NULL.  A zero-size range
 * may sit at the end of an allocation (so that a 0-byte copy to a 0-byte
 * allocation succeeds). */
static const ws_alloc *alloc_find(const ws_devmem *m, uint64_t addr, uint64_t size, ws_devmem *remember)
{
    if (m->last_alloc < m->nallocs) {
        const ws_alloc *a = &m->allocs[m->last_alloc];
        if (addr - a->base <= a->size && size <= a->size - (addr - a->base))
            return a;
    }
    size_t i = alloc_upper_bound(m, addr);
    if (i == 0)
        return NULL;
    const ws_alloc *a = &m->allocs[i - 1];
    if (addr - a->base > a->size || size > a->size - (addr - a->base))
        return NULL;
    if (remember) remember->last_alloc = i - 1;     /* the same ws_devmem: a write caches */
    return a;
}

bool ws_devmem_valid(const ws_devmem *m, uint64_t addr, uint64_t size)
{
    return alloc_find(m, addr, size, NULL) != NULL;
}

/* ---- data ---- */

/* The page of key; remember (m itself, on a write) caches it. */
static uint8_t *page_cached(const ws_devmem *m, uint64_t key, ws_devmem *remember)
{
    if (m->last_key == key)
        return m->last_page;
    uint8_t *p = page_lookup(m, key);
    if (remember) {
        remember->last_key = key;
        remember->last_page = p;
    }
    return p;
}

void ws_devmem_watch(ws_devmem *m, ws_devmem_watch_fn fn, void *ctx)
{
    m->watch = fn;
    m->watch_ctx = ctx;
}

/* Copies [addr, addr+size) out page by page, zero where no page exists. */
static void copy_out(const ws_devmem *m, uint64_t addr, uint8_t *out, uint64_t size)
{
    while (size) {
        uint64_t off = addr & (WS_PAGE_SIZE - 1);
        uint64_t n = WS_PAGE_SIZE - off < size ? WS_PAGE_SIZE - off : size;
        const uint8_t *p = page_cached(m, addr >> WS_PAGE_SHIFT, NULL);
        if (p)
            memcpy(out, p + off, n);
        else
            memset(out, 0, n);
        out += n;
        addr += n;
        size -= n;
    }
}

void ws_devmem_peek(const ws_devmem *m, uint64_t addr, void *dst, uint64_t size)
{
    copy_out(m, addr, dst, size);
}

bool ws_devmem_read(const ws_devmem *m, uint64_t addr, void *dst, uint64_t size)
{
    if (!alloc_find(m, addr, size, NULL))
        return false;
    if (m->watch)
        m->watch(m->watch_ctx, addr, size, false, false);
    copy_out(m, addr, dst, size);
    return true;
}

/* The span of [addr, addr + size) (device_memory.h), the watcher not
 * told; *found: its allocation.  A write (remember: m itself) caches its
 * allocation and page in m (writes are made on one thread). */
static uint8_t *span_of(const ws_devmem *m, ws_devmem *remember, uint64_t addr, uint64_t size,
                        const ws_alloc **found)
{
    if (size == 0 || !(*found = alloc_find(m, addr, size, remember)))
        return NULL;
    uint64_t key = addr >> WS_PAGE_SHIFT;
    if ((addr + size - 1) >> WS_PAGE_SHIFT != key)
        return NULL;
    uint8_t *p = page_cached(m, key, remember);
    return p ? p + (addr & (WS_PAGE_SIZE - 1)) : NULL;
}

/* The memo's slot for addr's page: a multiplicative hash, since buffers
 * of a power-of-two size put their pages at keys a power of two apart. */
static uint32_t memo_slot(uint64_t addr)
{
    return (uint32_t)(((addr >> WS_PAGE_SHIFT) * UINT64_C(0x9E3779B97F4A7C15)) >> 61) % WS_SPAN_MEMOS;
}

/* Keeps in memo's slot i the piece of addr's page (its host byte p) that
 * lies in allocation a. */
static void remember_span(ws_span_memo *memo, uint32_t i, uint64_t addr, uint8_t *p, const ws_alloc *a)
{
    uint64_t pbase = addr >> WS_PAGE_SHIFT << WS_PAGE_SHIFT;
    uint8_t *page = p - (addr - pbase);
    memo->lo[i] = a->base > pbase ? a->base : pbase;
    memo->hi[i] = a->base + a->size < pbase + WS_PAGE_SIZE ? a->base + a->size : pbase + WS_PAGE_SIZE;
    memo->host[i] = page + (memo->lo[i] - pbase);
}

/* The span of [addr, addr + size) from memo when it holds the range, else
 * from the page table (and then kept in memo); the watcher not told.
 * zeros: where the range lies in an allocation and in a page no write has
 * made yet, the span lies in m's page of zeros, not kept in memo (a write
 * may make the page later). */
static uint8_t *memo_span(const ws_devmem *m, ws_span_memo *memo, uint64_t addr, uint64_t size, bool zeros)
{
    uint32_t i = memo_slot(addr);
    uint64_t lo = memo->lo[i], hi = memo->hi[i];
    if (size && addr - lo < hi - lo && size <= hi - addr) return memo->host[i] + (addr - lo);
    const ws_alloc *a = NULL;
    uint8_t *p = span_of(m, NULL, addr, size, &a);
    if (p) remember_span(memo, i, addr, p, a);
    else if (zeros && a && (addr + size - 1) >> WS_PAGE_SHIFT == addr >> WS_PAGE_SHIFT)
        p = m->zeros + (addr & (WS_PAGE_SIZE - 1));
    return p;
}

uint8_t *ws_devmem_read_span(ws_devmem *m, ws_span_memo *memo, uint64_t addr, uint64_t size)
{
    uint8_t *p = memo_span(m, memo, addr, size, true);
    if (p && m->watch) m->watch(m->watch_ctx, addr, size, false, false);
    return p;
}

uint8_t *ws_devmem_write_span(ws_devmem *m, uint64_t addr, uint64_t size)
{
    const ws_alloc *a;
    return span_of(m, m, addr, size, &a);
}

/* The page of key made ahead, made now if no thread has made it yet;
 * NULL when the table has no slot near key's place or out of memory. */
static uint8_t *page_ahead(made_ahead *a, uint64_t key)
{
    size_t i = page_hash(key, AHEAD_SLOTS - 1);
    uint8_t *mine = NULL;
    for (int probe = 0; probe < AHEAD_PROBES; probe++, i = (i + 1) & (AHEAD_SLOTS - 1)) {
        uint64_t k = atomic_load_explicit(&a->key[i], memory_order_acquire);
        if (k == 0) {
            if (!mine && !(mine = calloc(1, WS_PAGE_SIZE)))
                return NULL;
            if (atomic_compare_exchange_strong_explicit(&a->key[i], &k, key, memory_order_acq_rel,
                                                        memory_order_acquire)) {
                atomic_store_explicit(&a->data[i], mine, memory_order_release);
                atomic_fetch_add_explicit(&a->made, 1, memory_order_relaxed);
                return mine;
            }
            /* another thread took the slot: k is its key */
        }
        if (k == key) {
            free(mine);
            uint8_t *p;
            /* its maker publishes the bytes right after the key */
            while (!(p = atomic_load_explicit(&a->data[i], memory_order_acquire)))
                ;
            return p;
        }
    }
    free(mine);
    return NULL;
}

uint8_t *ws_devmem_write_span_ahead(const ws_devmem *m, ws_span_memo *memo, uint64_t addr, uint64_t size,
                                    bool make)
{
    /* the reader's way, on its memo (the same pages, for later), but
     * without a watcher's note: a write is told of on its own */
    if (m->track_init)
        return NULL;
    uint8_t *p = memo_span(m, memo, addr, size, false);
    if (p || !make)
        return p;
    /* a page not made yet: one allocation and one page, else none */
    const ws_alloc *found = alloc_find(m, addr, size, NULL);
    uint64_t key = addr >> WS_PAGE_SHIFT;
    if (!size || !found || (addr + size - 1) >> WS_PAGE_SHIFT != key || page_lookup(m, key))
        return NULL;
    uint8_t *page = page_ahead(m->ahead, key);
    if (!page)
        return NULL;
    p = page + (addr & (WS_PAGE_SIZE - 1));
    remember_span(memo, memo_slot(addr), addr, p, found);
    return p;
}

bool ws_devmem_unmade(const ws_devmem *m, uint64_t addr, uint64_t size)
{
    uint64_t key = addr >> WS_PAGE_SHIFT;
    return size && (addr + size - 1) >> WS_PAGE_SHIFT == key && alloc_find(m, addr, size, NULL) &&
           !page_lookup(m, key);
}

bool ws_devmem_adopt_ahead(ws_devmem *m)
{
    made_ahead *a = m->ahead;
    if (atomic_load_explicit(&a->made, memory_order_relaxed) == 0)
        return true;
    bool ok = true;
    for (size_t i = 0; i < AHEAD_SLOTS; i++) {
        uint64_t key = atomic_load_explicit(&a->key[i], memory_order_relaxed);
        if (!key)
            continue;
        uint8_t *data = atomic_load_explicit(&a->data[i], memory_order_relaxed);
        if (page_lookup(m, key)) {
            /* made by a window that never ended (its launch failed), and
             * written since by the host: nothing points into this one */
            free(data);
        } else if (!table_insert(&m->pages, key, data)) {
            ok = false;         /* left for the next try, or ws_devmem_destroy */
            continue;
        }
        atomic_store_explicit(&a->data[i], NULL, memory_order_relaxed);
        atomic_store_explicit(&a->key[i], 0, memory_order_relaxed);
    }
    if (ok)
        atomic_store_explicit(&a->made, 0, memory_order_relaxed);
    /* the cache may say one of them has no page */
    m->last_key = 0;
    m->last_page = NULL;
    return ok;
}

void ws_devmem_tell_ahead(ws_devmem *m, uint64_t addr, uint64_t size, bool write)
{
    if (m->watch)
        m->watch(m->watch_ctx, addr, size, write, true);
}

void ws_devmem_tell(ws_devmem *m, uint64_t addr, uint64_t size, bool write)
{
    if (m->watch)
        m->watch(m->watch_ctx, addr, size, write, false);
}

bool ws_devmem_watched(const ws_devmem *m)
{
    return m->watch != NULL;
}

/* Writes n bytes inside one page: from src, or the byte fill when src is
 * NULL.  Zeros written to an absent page leave it absent. */
static bool page_write(ws_devmem *m, uint64_t addr, const uint8_t *src, uint8_t fill, uint64_t n)
{
    uint64_t key = addr >> WS_PAGE_SHIFT, off = addr & (WS_PAGE_SIZE - 1);
    uint8_t *p = page_cached(m, key, m);
    if (!p) {
        if (src ? all_zero(src, n) : fill == 0)
            return true;
        p = page_create(m, key, n == WS_PAGE_SIZE);
        if (!p)
            return false;
        m->last_key = key;
        m->last_page = p;
    }
    if (src)
        memcpy(p + off, src, n);
    else
        memset(p + off, fill, n);
    return true;
}

static bool write_range(ws_devmem *m, uint64_t addr, const uint8_t *src, uint8_t fill, uint64_t size)
{
    if (!alloc_find(m, addr, size, m))
        return false;
    if (m->watch)
        m->watch(m->watch_ctx, addr, size, true, false);
    if (m->track_init && !init_mark(m, addr, size))
        return false;
    while (size) {
        uint64_t off = addr & (WS_PAGE_SIZE - 1);
        uint64_t n = WS_PAGE_SIZE - off < size ? WS_PAGE_SIZE - off : size;
        if (!page_write(m, addr, src, fill, n))
            return false;       /* host out of memory: the range may be partly written */
        if (src)
            src += n;
        addr += n;
        size -= n;
    }
    return true;
}

bool ws_devmem_write(ws_devmem *m, uint64_t addr, const void *src, uint64_t size)
{
    if (!src && size)
        return false;
    return write_range(m, addr, src, 0, size);
}

bool ws_devmem_fill(ws_devmem *m, uint64_t addr, uint8_t byte, uint64_t size)
{
    return write_range(m, addr, NULL, byte, size);
}

uint64_t ws_devmem_resident_bytes(const ws_devmem *m)
{
    return (uint64_t)m->pages.npages * WS_PAGE_SIZE;
}

void ws_devmem_track_init(ws_devmem *m)
{
    m->track_init = true;
}

bool ws_devmem_tracks_init(const ws_devmem *m)
{
    return m->track_init;
}

bool ws_devmem_mark_init(ws_devmem *m, uint64_t addr, uint64_t size)
{
    return !m->track_init || init_mark(m, addr, size);
}

bool ws_devmem_initialized(const ws_devmem *m, uint64_t addr, uint64_t size, uint64_t *first)
{
    if (!m->track_init)
        return true;
    for (uint64_t a = addr; a < addr + size;) {
        const ws_page_slot *s = table_find(&m->inits, a >> WS_PAGE_SHIFT);
        uint64_t page_end = (a | (WS_PAGE_SIZE - 1)) + 1, end = page_end < addr + size ? page_end : addr + size;
        if (s && !s->data) {    /* the whole page written */
            a = end;
            continue;
        }
        for (; s && a < end; a++) {
            uint64_t off = a & (WS_PAGE_SIZE - 1);
            if (!(s->data[off / 8] >> (off % 8) & 1)) break;
        }
        if (s && a == end) continue;
        *first = a;
        return false;
    }
    return true;
}

bool ws_devmem_allocation_of(const ws_devmem *m, uint64_t addr, uint64_t *base, uint64_t *size)
{
    const ws_alloc *a = alloc_find(m, addr, 1, NULL);
    if (!a)
        return false;
    *base = a->base;
    *size = a->size;
    return true;
}

void ws_devmem_describe(const ws_devmem *m, uint64_t addr, char *buf, size_t size)
{
    size_t i = alloc_upper_bound(m, addr);
    const ws_alloc *before = i > 0 ? &m->allocs[i - 1] : NULL, *after = i < m->nallocs ? &m->allocs[i] : NULL;
    /* Freed ranges later than any reuse of their addresses come last. */
    for (size_t k = m->nfreed; k-- > 0;) {
        const ws_alloc *f = &m->freed[k];
        bool reused = before && before->base >= f->base && before->base < f->base + f->size;
        if (addr - f->base < f->size && !reused) {
            snprintf(buf, size, "inside the %llu-byte allocation at 0x%llx, which was freed",
                     (unsigned long long)f->size, (unsigned long long)f->base);
            return;
        }
    }
    uint64_t gap_after = before ? addr - (before->base + before->size) : UINT64_MAX;
    uint64_t gap_before = after ? after->base - addr : UINT64_MAX;
    if (before && addr >= before->base + before->size && gap_after <= gap_before)
        snprintf(buf, size, "%llu bytes after the end of the %llu-byte allocation at 0x%llx",
                 (unsigned long long)gap_after, (unsigned long long)before->size, (unsigned long long)before->base);
    else if (after)
        snprintf(buf, size, "%llu bytes before the %llu-byte allocation at 0x%llx",
                 (unsigned long long)gap_before, (unsigned long long)after->size, (unsigned long long)after->base);
    else
        snprintf(buf, size, "in no allocation");
}
