/* Sanitizer-style checks of a launch, named as compute-sanitizer names
 * them (docs/FAULTS.md): racecheck finds shared-memory accesses by
 * different warps of a block to the same word, at least one a write, with
 * no barrier between; synccheck finds barriers reached in divergent code
 * and barriers waited on with different thread counts; initcheck finds
 * reads of global memory never written since its allocation and of shared
 * memory not written since the block started.  Each finding is reported
 * once per pair of instructions (or source lines); the kernel runs on. */
#ifndef WARPSIM_CHECKS_H
#define WARPSIM_CHECKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ws_exec;
struct ws_block;
struct ws_warp;

/* Shadow state of one block's shared memory, one entry per 4-byte word:
 * the last write and the last read (of the current barrier interval). */
typedef struct ws_race_word {
    uint32_t w_epoch, r_epoch;      /* barrier interval of the access; 0 = none */
    int32_t w_pc, r_pc;
    uint16_t w_warp, r_warp;        /* r_warp WS_RACE_MANY: several warps read */
} ws_race_word;

#define WS_RACE_MANY 0xffff

typedef struct ws_racecheck {
    ws_race_word *words;
    uint32_t nwords;
    uint32_t epoch;         /* barrier intervals so far in this block, from 1 */
} ws_racecheck;

/* initcheck's shadow of one block's shared memory: one bit per byte,
 * set when the byte was written since the block started. */
typedef struct ws_initshadow {
    uint8_t *bits;
    uint32_t nbytes;        /* bytes of shared memory it covers */
    uint32_t unwritten;     /* of them, not written yet: none, and a read finds nothing */
} ws_initshadow;

/* Where a finding is: its kind and pair of places (instructions, or
 * source lines) in a program. */
typedef struct ws_check_place {
    const void *program;
    int32_t pc1, pc2;
    uint8_t kind;
} ws_check_place;

/* Findings of one launch, each pair of instructions once. */
#define WS_CHECK_SEEN_MAX 128
typedef struct ws_check_log {
    uint64_t total;         /* every finding, repeated or not */
    uint64_t uninit_global; /* of them, reads of global memory never written */
    uint32_t nseen;
    uint32_t nearlier;      /* of the distinct ones, those an earlier launch showed (ws_check_shown) */
    ws_check_place seen[WS_CHECK_SEEN_MAX];
} ws_check_log;

/* The findings a program's launches showed (warpsim exec: a warm-up and
 * ten timed launches of one racy kernel would show one finding eleven
 * times): a later launch counts them and says so, and does not show them
 * again.  Kept by the caller from launch to launch (ws_launch.checks_shown),
 * zeroed to start; emptied when the programs it names are freed. */
#define WS_CHECK_SHOWN_MAX 1024
typedef struct ws_check_shown {
    uint32_t n;
    ws_check_place seen[WS_CHECK_SHOWN_MAX];
} ws_check_shown;

/* The findings of an SM's cycle (window) in a timed launch, kept till its
 * end, where they are taken in the order a run cycle by cycle meets them
 * (window_order.h): each with its cycle, kind and places, and the text to
 * show where it may be the first of its places (not where the launch had
 * met them before the window, or the SM earlier in it). */
typedef struct ws_check_finding {
    uint64_t cycle;
    int32_t pc1, pc2;       /* as ws_check_place's */
    uint32_t text;          /* offset in the buffer's text; UINT32_MAX: none */
    uint8_t kind;
} ws_check_finding;

typedef struct ws_check_buffer {
    ws_check_finding *a;
    uint32_t n, cap;
    char *text;
    size_t ntext, textcap;
    ws_check_place kept[WS_CHECK_SEEN_MAX];     /* the places of those with text */
    uint32_t nkept;
    bool oom;               /* a finding was lost: out of memory */
} ws_check_buffer;

/* Counts finding i of b as the launch's (x: the launch's own executor) and
 * shows its text where it is the first of its places. */
void ws_check_take(struct ws_exec *x, const ws_check_buffer *b, uint32_t i);
void ws_check_buffer_clear(ws_check_buffer *b);
void ws_check_buffer_free(ws_check_buffer *b);

/* A new block: shadow memory for shared_size bytes, all clear.  False when
 * out of memory. */
bool ws_race_begin(ws_racecheck *r, uint32_t shared_size);
void ws_race_free(ws_racecheck *r);

/* A shared-memory access of size bytes at offset off by warp w at pc. */
void ws_race_access(struct ws_exec *x, struct ws_block *b, struct ws_warp *w, int32_t pc,
                    uint64_t off, uint32_t size, bool write);
/* The same for each lane in mask of a warp's access, at offset
 * addrs[lane] - origin, in lane order. */
void ws_race_warp(struct ws_exec *x, struct ws_block *b, struct ws_warp *w, int32_t pc,
                  const uint64_t *addrs, uint64_t origin, uint32_t mask, uint32_t size, bool write);

/* A barrier of the block completed: a new interval. */
static inline void ws_race_barrier(ws_racecheck *r) { r->epoch++; }

/* initcheck: a new block (all of its shared memory unwritten); false when
 * out of memory. */
bool ws_init_begin(ws_initshadow *s, uint32_t shared_size);
void ws_init_free(ws_initshadow *s);

/* initcheck: lane's access of size bytes at offset off of shared memory
 * (a write marks it, a read of a byte not written is reported), and a
 * read of global memory at addr (reported when the device memory says a
 * byte of it was never written: ws_devmem_track_init). */
void ws_init_shared(struct ws_exec *x, struct ws_block *b, struct ws_warp *w, int lane, int32_t pc,
                    uint64_t off, uint32_t size, bool write);
/* initcheck of a warp's shared access, each lane in mask at offset
 * addrs[lane] - origin, size bytes: a write marks its bytes; a read
 * answers whether every byte it reads was written (no finding: false
 * sends the caller to ws_init_shared lane by lane, which shows it). */
void ws_init_shared_write(ws_initshadow *s, const uint64_t *addrs, uint64_t origin, uint32_t mask,
                          uint32_t size);
bool ws_init_shared_clean(const ws_initshadow *s, const uint64_t *addrs, uint64_t origin, uint32_t mask,
                          uint32_t size);
void ws_init_global_read(struct ws_exec *x, struct ws_block *b, struct ws_warp *w, int lane, int32_t pc,
                         uint64_t addr, uint32_t size);

/* synccheck: an aligned barrier at pc reached by lanes of w's live
 * threads; a barrier waited on with a thread count other than one
 * already waiting with. */
void ws_sync_check_divergent(struct ws_exec *x, struct ws_block *b, struct ws_warp *w, int32_t pc,
                             uint32_t lanes, uint32_t live);
void ws_sync_check_count(struct ws_exec *x, struct ws_block *b, struct ws_warp *w, int32_t pc,
                         uint32_t id, uint32_t count, uint32_t other_count, int32_t other_pc);

/* Prints the launch's totals, when there were findings. */
void ws_checks_summary(struct ws_exec *x);
/* The totals' line: total findings of kernel, shown the distinct ones it
 * showed, earlier those an earlier launch showed. */
void ws_checks_summary_line(FILE *f, const char *kernel, uint64_t total, uint64_t shown, uint64_t earlier);

#endif
