/* Device (global) memory: sparse and allocation-aware.
 *
 * Allocations get addresses in a device address range; backing pages are
 * created on first write, so a 4 GB allocation that touches 1 MB costs about
 * 1 MB.  Reads of never-written bytes inside an allocation return zero.
 * Any access outside every live allocation is a fault the caller reports.
 *
 * Generic addresses (what a kernel's ld/st without a state space sees):
 *   [WS_SHARED_WINDOW, +WS_WINDOW_SIZE)  -> the block's shared memory
 *   [WS_LOCAL_WINDOW,  +WS_WINDOW_SIZE)  -> the thread's local memory
 *   anything else                         -> global memory
 * Constant variables live in global memory; ld.const reads them there. */
#ifndef WARPSIM_DEVICE_MEMORY_H
#define WARPSIM_DEVICE_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_GLOBAL_BASE    UINT64_C(0x00007f0000000000)
#define WS_SHARED_WINDOW  UINT64_C(0x0000100000000000)
#define WS_LOCAL_WINDOW   UINT64_C(0x0000200000000000)
#define WS_WINDOW_SIZE    UINT64_C(0x0000000100000000)

typedef struct ws_devmem ws_devmem;

ws_devmem *ws_devmem_create(void);
void ws_devmem_destroy(ws_devmem *m);

/* Returns the device address of a new zeroed allocation of size bytes
 * (size 0 allowed), aligned to 256 bytes, or 0 when the device address
 * range is exhausted. */
uint64_t ws_devmem_alloc(ws_devmem *m, uint64_t size);
/* Frees the allocation starting at addr; false if addr starts none. */
bool ws_devmem_free(ws_devmem *m, uint64_t addr);

/* True when [addr, addr+size) lies inside one live allocation. */
bool ws_devmem_valid(const ws_devmem *m, uint64_t addr, uint64_t size);

/* Copies between host and device; false (and nothing copied) when the
 * range is not inside one live allocation. */
bool ws_devmem_write(ws_devmem *m, uint64_t addr, const void *src, uint64_t size);
bool ws_devmem_read(const ws_devmem *m, uint64_t addr, void *dst, uint64_t size);
/* Spans, for a caller that moves a whole warp's bytes at once
 * (exec_mem.c): the host bytes of [addr, addr + size) when the range lies
 * in one allocation and one backing page that exists, valid until the next
 * allocation or free.  NULL otherwise (the page was never written, the
 * range crosses a page or leaves the allocation, or a write while initcheck
 * tracks written bytes): the caller then goes byte-wise through
 * ws_devmem_read and ws_devmem_write, which give the same result.
 *
 * A reader's memo for ws_devmem_read_span: the pieces of pages it read
 * last, each a page that exists cut to one allocation.  Each thread keeps
 * its own, for one launch: no allocation is freed and no page dropped
 * while a kernel runs.  Zeroed, it holds nothing. */
#define WS_SPAN_MEMOS 8
typedef struct ws_span_memo {
    uint64_t lo[WS_SPAN_MEMOS], hi[WS_SPAN_MEMOS];     /* the addresses [lo, hi) */
    uint8_t *host[WS_SPAN_MEMOS];                       /* the host byte of lo */
} ws_span_memo;
/* A span to read, from memo when it holds the range, else from the page
 * table (and then kept in memo); where no write has made the range's page
 * yet, a span of zeros, shared, that no caller may write.  NULL where the
 * range is not in one allocation and one page.  A watcher (the reuse recorder) is told
 * of the whole span as read: more bytes than the lanes may read, which
 * only makes reuse stricter. */
uint8_t *ws_devmem_read_span(ws_devmem *m, ws_span_memo *memo, uint64_t addr, uint64_t size);
/* A span to write; NULL where the range is not in one allocation and one
 * page made already (a write there goes through ws_devmem_write, which
 * makes the page when it writes a byte that is not zero).  A watcher is
 * not told: the caller tells it (ws_devmem_tell) of exactly the bytes it
 * writes, before it writes them; and under initcheck
 * (ws_devmem_track_init) it marks them written (ws_devmem_mark_init). */
uint8_t *ws_devmem_write_span(ws_devmem *m, uint64_t addr, uint64_t size);
/* A span for a write made later (a put-off write of a window, whose bytes
 * are found while the SMs run, on their threads): changes no cache and no
 * page of the table, so it may run on several threads at once while
 * nothing writes; the span stays valid while no allocation is freed.
 * NULL where ws_devmem_write_span would be.  Where its page does not exist
 * yet: with make, the page is made ahead, zeroed, apart from the table
 * (reads still find zeros there), and the span lies in it; else NULL (the
 * write then goes through ws_devmem_write, later).  A caller sets make
 * only for a write that ws_devmem_write would make the page for: one with
 * a byte that is not zero.  ws_devmem_adopt_ahead then puts the pages
 * made ahead in the table, on one thread, before the writes are made. */
uint8_t *ws_devmem_write_span_ahead(const ws_devmem *m, ws_span_memo *memo, uint64_t addr, uint64_t size,
                                    bool make);
/* False on out of memory (the pages not put in the table stay apart,
 * freed with m). */
bool ws_devmem_adopt_ahead(ws_devmem *m);
/* Whether [addr, addr + size) lies in one live allocation and in one page
 * not made (in the table) yet: it reads as zeros.  Changes nothing: may
 * run on several threads at once while nothing writes. */
bool ws_devmem_unmade(const ws_devmem *m, uint64_t addr, uint64_t size);
/* Tells the watcher, if one is set, of an access as ws_devmem_read and
 * ws_devmem_write would. */
void ws_devmem_tell(ws_devmem *m, uint64_t addr, uint64_t size, bool write);
/* Tells the watcher of an access made later, at the end of a window of
 * cycles: on the thread of the SM that issued it, while nothing writes
 * (several threads may tell at once). */
void ws_devmem_tell_ahead(ws_devmem *m, uint64_t addr, uint64_t size, bool write);
/* Whether a watcher is set. */
bool ws_devmem_watched(const ws_devmem *m);
bool ws_devmem_fill(ws_devmem *m, uint64_t addr, uint8_t byte, uint64_t size);

/* initcheck: from ws_devmem_track_init on, the memory remembers which
 * bytes were ever written (write, fill, mark_init) since their allocation;
 * off by default, and costs nothing then.  ws_devmem_initialized is true
 * when every byte of [addr, addr+size) was written (always, when not
 * tracking); else *first is the first byte that was not.  mark_init is
 * false when out of memory. */
void ws_devmem_track_init(ws_devmem *m);
bool ws_devmem_tracks_init(const ws_devmem *m);
bool ws_devmem_mark_init(ws_devmem *m, uint64_t addr, uint64_t size);
bool ws_devmem_initialized(const ws_devmem *m, uint64_t addr, uint64_t size, uint64_t *first);

/* Watching a launch's accesses (sim/core/launch_reuse.h): while fn is
 * set, every successful ws_devmem_read calls fn(ctx, addr, size, false,
 * false) and every ws_devmem_write or _fill, before it changes a byte,
 * calls fn(ctx, addr, size, true, false); ws_devmem_tell and _tell_ahead
 * call it with ahead false and true.  fn NULL turns it off (the default;
 * then it costs one test per call). */
typedef void (*ws_devmem_watch_fn)(void *ctx, uint64_t addr, uint64_t size, bool write, bool ahead);
void ws_devmem_watch(ws_devmem *m, ws_devmem_watch_fn fn, void *ctx);
/* The bytes of [addr, addr+size) as they are, whatever allocations hold
 * them (zero where nothing was written): no checks, not watched. */
void ws_devmem_peek(const ws_devmem *m, uint64_t addr, void *dst, uint64_t size);

/* The live allocation holding addr: its base and size; false when none. */
bool ws_devmem_allocation_of(const ws_devmem *m, uint64_t addr, uint64_t *base, uint64_t *size);

/* Where addr lies with respect to the allocations, for a fault message:
 * "4 bytes after the end of the 4000-byte allocation at 0x7f0000000000",
 * "inside the 4000-byte allocation at 0x... that was freed", ... */
void ws_devmem_describe(const ws_devmem *m, uint64_t addr, char *buf, size_t size);

/* Bytes of backing pages actually created (for the sparseness test and
 * for reports). */
uint64_t ws_devmem_resident_bytes(const ws_devmem *m);

/* Which space a generic address falls in, and its offset there. */
typedef enum ws_generic_space { WS_GEN_GLOBAL, WS_GEN_SHARED, WS_GEN_LOCAL } ws_generic_space;
static inline ws_generic_space ws_generic_classify(uint64_t addr, uint64_t *offset)
{
    if (addr - WS_SHARED_WINDOW < WS_WINDOW_SIZE) { *offset = addr - WS_SHARED_WINDOW; return WS_GEN_SHARED; }
    if (addr - WS_LOCAL_WINDOW < WS_WINDOW_SIZE)  { *offset = addr - WS_LOCAL_WINDOW;  return WS_GEN_LOCAL; }
    *offset = addr;
    return WS_GEN_GLOBAL;
}

#endif
