/* L2 slices and DRAM channels as bandwidth queues with latencies. */
#include "l2_dram.h"

#include <stdlib.h>
#include <string.h>

#define TICKS 1024u     /* fixed-point fraction of a cycle for bandwidths */

static uint64_t fold(uint64_t x)
{
    return x ^ (x >> 11) ^ (x >> 19) ^ (x >> 27);
}

/* Ticks a channel takes for a 32 B sector: its equal share of
 * dramBytesPerCycle, or of the peak (2 * memoryClockRate * memoryBusWidth
 * / 8 bytes per second, at clockRate core cycles per second). */
static uint64_t channel_cost(const ws_gpu_config *g, uint32_t nchannels)
{
    uint64_t num, den;
    if (g->dramBytesPerCycle > 0) {
        num = (uint64_t)32 * TICKS * nchannels;
        den = (uint64_t)g->dramBytesPerCycle;
    } else {
        num = (uint64_t)32 * TICKS * 8 * (uint64_t)g->clockRate * nchannels;
        den = (uint64_t)2 * (uint64_t)g->memoryClockRate * (uint64_t)g->memoryBusWidth;
    }
    uint64_t cost = (num + den / 2) / den;
    return cost ? cost : 1;
}

/* The numbers g gives m (all but its arrays). */
static void set_params(ws_l2_dram *m, const ws_gpu_config *g)
{
    m->nslices = (uint32_t)g->l2Slices;
    m->nchannels = (uint32_t)g->dramChannels;
    m->lat_l2 = (uint32_t)g->latencyL2Hit;
    m->lat_dram = (uint32_t)g->latencyDram;
    m->fetch_sectors = g->dramAccessBytes >= 64 ? (uint32_t)g->dramAccessBytes / 32 : 1;
    if (m->fetch_sectors > WS_SECTORS_PER_LINE) m->fetch_sectors = WS_SECTORS_PER_LINE;
    m->count = (ws_l2_tally){0};
    m->slice_cost = (uint64_t)32 * TICKS / (uint64_t)g->l2BytesPerCyclePerSlice;
    m->chan_cost = channel_cost(g, m->nchannels);
    m->atom_op_cost = (uint64_t)(g->l2AtomicCyclesPerOp > 0 ? g->l2AtomicCyclesPerOp : 1) * TICKS;
    /* a request's slice time beyond its first sector's bytes: a lone
     * sector's request takes nslices / rate cycles in all */
    uint64_t req = g->l2WriteRequestsPerCycle > 0
        ? ((uint64_t)m->nslices * TICKS + (uint64_t)g->l2WriteRequestsPerCycle / 2) / (uint64_t)g->l2WriteRequestsPerCycle
        : 0;
    m->write_req_extra = req > m->slice_cost ? req - m->slice_cost : 0;
    m->slice_bytes = g->l2CacheSize / (m->nslices ? m->nslices : 1);
    m->ways = (uint32_t)g->l2Associativity;
}

bool ws_l2_init(ws_l2_dram *m, const ws_gpu_config *g)
{
    set_params(m, g);
    /* sizes are multiples of the alignment (the types are aligned) */
    m->slice = aligned_alloc(_Alignof(ws_l2_slice), sizeof *m->slice * (m->nslices ? m->nslices : 1));
    m->chan = aligned_alloc(_Alignof(ws_l2_channel), sizeof *m->chan * (m->nchannels ? m->nchannels : 1));
    if (m->slice) memset(m->slice, 0, sizeof *m->slice * m->nslices);
    if (m->chan) memset(m->chan, 0, sizeof *m->chan * m->nchannels);
    if (!m->slice || !m->chan) return false;
    for (uint32_t s = 0; s < m->nslices; s++)
        if (!ws_scache_init(&m->slice[s].cache, m->slice_bytes, m->ways)) return false;
    return true;
}

bool ws_l2_init_again(ws_l2_dram *m, const ws_gpu_config *g)
{
    if (!m->slice || (uint32_t)g->l2Slices != m->nslices || (uint32_t)g->dramChannels != m->nchannels ||
        g->l2CacheSize / m->nslices != m->slice_bytes || (uint32_t)g->l2Associativity != m->ways) {
        ws_l2_free(m);
        if (ws_l2_init(m, g)) return true;
        ws_l2_free(m);      /* nothing half made is kept */
        return false;
    }
    set_params(m, g);
    for (uint32_t s = 0; s < m->nslices; s++) {
        ws_scache_reset(&m->slice[s].cache);
        m->slice[s].free_at = m->slice[s].atom_free_at = 0;
    }
    for (uint32_t c = 0; c < m->nchannels; c++) m->chan[c].free_at = 0;
    return true;
}

void ws_l2_free(ws_l2_dram *m)
{
    for (uint32_t s = 0; m->slice && s < m->nslices; s++) ws_scache_free(&m->slice[s].cache);
    free(m->slice);
    free(m->chan);
    m->slice = NULL;
    m->chan = NULL;
}

/* Takes a queue from cycle t for cost ticks; returns the cycle it starts. */
static uint64_t take(uint64_t *free_at, uint64_t t, uint64_t cost)
{
    uint64_t start = *free_at > t * TICKS ? *free_at : t * TICKS;
    *free_at = start + cost;
    return start / TICKS;
}

static uint32_t slice_of(const ws_l2_dram *m, uint64_t sector)
{
    return (uint32_t)(fold(sector / WS_SECTORS_PER_LINE) % m->nslices);
}

static uint32_t channel_of(const ws_l2_dram *m, uint64_t sector)
{
    return (uint32_t)(fold(sector / 8) % m->nchannels);
}

/* A miss at slice s starting at cycle t: the DRAM read (the dirty sectors
 * the fill evicts paid their write-back when they became dirty).  The read
 * brings the aligned group of fetch_sectors sectors the missing one belongs
 * to (the other sectors of it that L2 lacks are filled too, and cost
 * channel time): on an H200 a lone 32 B sector costs 64 B of DRAM reads.
 * found: the sector's line as the lookup that missed found it (NULL: not
 * in the slice).  Returns when the data is back at the SM. */
static uint64_t dram_fill(ws_l2_dram *m, uint32_t s, uint64_t sector, uint64_t t, ws_cache_line *found)
{
    uint32_t c = channel_of(m, sector);
    uint64_t start = take(&m->chan[c].free_at, t, m->chan_cost);
    uint64_t ready = start + m->lat_dram;
    uint32_t added;
    m->count.dram_write_sectors += ws_scache_fill_group_found(&m->slice[s].cache, found, sector,
                                                              sector - sector % m->fetch_sectors, m->fetch_sectors,
                                                              ready, &added);
    m->count.dram_read_sectors += 1 + added;
    m->chan[c].free_at += added * m->chan_cost;
    return ready;
}

/* A read's or a write's sector at its slice: its queue, tags and counts
 * (into *tally).  With a ticket the channel's part is left as work (step
 * 1 of l2_dram.h); with WS_L2_NO_TICKET it is taken at once (one by one,
 * counting into m's own tally), and out->done is the answer. */
static inline void slice_part(ws_l2_dram *m, ws_l2_tally *tally, bool write, bool first, uint64_t sector,
                              uint64_t t, uint64_t ticket, ws_l2_part *out)
{
    uint32_t s = slice_of(m, sector);
    ws_sector_cache *c = &m->slice[s].cache;
    bool now = ticket == WS_L2_NO_TICKET;
    *out = (ws_l2_part){.wait = WS_L2_NO_TICKET};
    tally->lookups++;
    if (write) {
        /* the write replaces the sector: no DRAM read, the line is dirty; a
         * sector not dirty before pays its write-back now */
        uint64_t start = take(&m->slice[s].free_at, t, m->slice_cost + (first ? m->write_req_extra : 0));
        bool hit, was_dirty;
        tally->dram_write_sectors += ws_scache_write(c, sector, start, &hit, &was_dirty);
        tally->hits += hit;
        out->done = start + m->lat_l2;
        if (was_dirty) return;
        if (now) {
            take(&m->chan[channel_of(m, sector)].free_at, start, m->chan_cost);
            return;
        }
        out->chan_t = start;
        out->chan_cost = m->chan_cost;
        out->channel = channel_of(m, sector);
        return;
    }
    uint64_t start = take(&m->slice[s].free_at, t, m->slice_cost), arrives;
    ws_cache_line *line;
    if (ws_scache_lookup_line(c, sector, &arrives, &line)) {
        tally->hits++;
        out->done = start + m->lat_l2;
        if (arrives >= WS_L2_PENDING) out->wait = arrives - WS_L2_PENDING;
        else if (arrives > out->done) out->done = arrives;
        return;
    }
    if (now) {
        out->done = dram_fill(m, s, sector, start, line);
        return;
    }
    uint32_t added;
    tally->dram_write_sectors += ws_scache_fill_group_found(c, line, sector, sector - sector % m->fetch_sectors,
                                                            m->fetch_sectors, WS_L2_PENDING + ticket, &added);
    tally->dram_read_sectors += 1 + added;
    out->chan_t = start;
    out->chan_cost = (1 + (uint64_t)added) * m->chan_cost;
    out->channel = channel_of(m, sector);
    out->read = true;
}

uint64_t ws_l2_read(ws_l2_dram *m, uint64_t sector, uint64_t t)
{
    ws_l2_part p;
    slice_part(m, &m->count, false, false, sector, t, WS_L2_NO_TICKET, &p);
    return p.done;
}

uint64_t ws_l2_write(ws_l2_dram *m, uint64_t sector, bool first, uint64_t t)
{
    ws_l2_part p;
    slice_part(m, &m->count, true, first, sector, t, WS_L2_NO_TICKET, &p);
    return p.done;
}

uint32_t ws_l2_slice_of(const ws_l2_dram *m, uint64_t sector)
{
    return slice_of(m, sector);
}

void ws_l2_slice_part(ws_l2_dram *m, ws_l2_tally *tally, bool write, bool first, uint64_t sector, uint64_t t,
                      uint64_t ticket, ws_l2_part *out)
{
    slice_part(m, tally, write, first, sector, t, ticket, out);
}

uint64_t ws_l2_channel_part(ws_l2_dram *m, const ws_l2_part *p)
{
    return take(&m->chan[p->channel].free_at, p->chan_t, p->chan_cost) + m->lat_dram;
}

void ws_l2_settle(ws_l2_dram *m, uint64_t sector, uint64_t ticket, uint64_t ready)
{
    ws_sector_cache *c = &m->slice[slice_of(m, sector)].cache;
    uint64_t first = sector - sector % m->fetch_sectors;
    ws_scache_settle(c, first, m->fetch_sectors, WS_L2_PENDING + ticket, ready);
}

void ws_l2_prefetch(const ws_l2_dram *m, uint64_t sector)
{
    ws_scache_prefetch(&m->slice[slice_of(m, sector)].cache, sector);
}

void ws_l2_tally_add(ws_l2_dram *m, const ws_l2_tally *tally)
{
    m->count.lookups += tally->lookups;
    m->count.hits += tally->hits;
    m->count.dram_read_sectors += tally->dram_read_sectors;
    m->count.dram_write_sectors += tally->dram_write_sectors;
}

/* An atomic's work at slice s once its data is at the slice (data), its
 * queue passed at start: the atomic unit takes it then, and the sector is
 * dirty from its end (counted into *tally; found: the sector's line when
 * the lookup found it).  *begin: when the unit took it; *was_dirty:
 * whether the sector was dirty before (else its write-back takes its
 * channel from *begin).  Returns the cycle its answer is back at the SM. */
static uint64_t atomic_unit(ws_l2_dram *m, ws_l2_tally *tally, uint32_t s, uint64_t sector, uint32_t serial,
                            uint64_t start, uint64_t data, ws_cache_line *found, uint64_t *begin, bool *was_dirty)
{
    uint64_t cost = (uint64_t)serial * m->atom_op_cost;
    *begin = take(&m->slice[s].atom_free_at, data > start ? data : start, cost);
    uint64_t done = *begin + (cost + TICKS - 1) / TICKS;
    ws_sector_cache *c = &m->slice[s].cache;
    if (found) {
        *was_dirty = ws_scache_dirty_found(c, found, sector, done);
    } else {
        *was_dirty = ws_scache_is_dirty(c, sector);
        tally->dram_write_sectors += ws_scache_fill(c, sector, done, true);
    }
    return done + m->lat_l2;
}

uint64_t ws_l2_atomic(ws_l2_dram *m, uint64_t sector, uint32_t serial, uint64_t t)
{
    uint32_t s = slice_of(m, sector);
    uint64_t start = take(&m->slice[s].free_at, t, m->slice_cost), data;
    ws_cache_line *line;
    m->count.lookups++;
    if (ws_scache_lookup_line(&m->slice[s].cache, sector, &data, &line)) {
        m->count.hits++;
        data = data > m->lat_l2 ? data - m->lat_l2 : 0;     /* at the slice, not the SM */
    } else {
        data = dram_fill(m, s, sector, start, line) - m->lat_l2;
    }
    uint64_t begin;
    bool was_dirty;
    uint64_t back = atomic_unit(m, &m->count, s, sector, serial, start, data, line, &begin, &was_dirty);
    if (!was_dirty) take(&m->chan[channel_of(m, sector)].free_at, begin, m->chan_cost);
    return back;
}

bool ws_l2_atomic_known(const ws_l2_dram *m, uint64_t sector, uint32_t *older)
{
    const ws_sector_cache *c = &m->slice[slice_of(m, sector)].cache;
    uint64_t ready;
    if (!ws_scache_peek(c, sector, &ready) || ready >= WS_L2_PENDING) return false;
    *older = ws_scache_older_ways(c, sector);
    return true;
}

bool ws_l2_slice_atomic(ws_l2_dram *m, ws_l2_tally *tally, uint64_t sector, uint32_t serial, uint64_t t,
                        ws_l2_part *out)
{
    uint32_t s = slice_of(m, sector);
    uint64_t data;
    ws_cache_line *line;
    if (!ws_scache_peek(&m->slice[s].cache, sector, &data) || data >= WS_L2_PENDING) return false;
    *out = (ws_l2_part){.wait = WS_L2_NO_TICKET};
    uint64_t start = take(&m->slice[s].free_at, t, m->slice_cost);
    tally->lookups++;
    tally->hits++;
    ws_scache_lookup_line(&m->slice[s].cache, sector, &data, &line);     /* the hit's use */
    data = data > m->lat_l2 ? data - m->lat_l2 : 0;
    uint64_t begin;
    bool was_dirty;
    out->done = atomic_unit(m, tally, s, sector, serial, start, data, line, &begin, &was_dirty);
    if (!was_dirty) {
        out->chan_t = begin;
        out->chan_cost = m->chan_cost;
        out->channel = channel_of(m, sector);
    }
    return true;
}

void ws_l2_flush(ws_l2_dram *m)
{
    /* the slices keep their counts: no walk over the lines, whose pages a
     * short launch never touched */
    for (uint32_t s = 0; s < m->nslices; s++) m->count.dram_write_sectors += ws_scache_dirty_sectors(&m->slice[s].cache);
}
