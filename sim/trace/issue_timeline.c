/* Warp issues binned in time, per SM and per warp slot. */
#include "issue_timeline.h"

#include <stdlib.h>
#include <string.h>

uint32_t ws_issue_timeline_detail_sms(const ws_issue_timeline *t)
{
    return t->nsm < WS_TIMELINE_DETAIL_SMS ? t->nsm : WS_TIMELINE_DETAIL_SMS;
}

static size_t slot_cells(const ws_issue_timeline *t)
{
    return (size_t)ws_issue_timeline_detail_sms(t) * t->slots * WS_TIMELINE_BINS;
}

ws_issue_timeline *ws_issue_timeline_create(uint32_t nsm, uint32_t slots)
{
    ws_issue_timeline *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->nsm = nsm;
    t->slots = slots;
    t->width = 1;
    t->sm = calloc((size_t)nsm * WS_TIMELINE_BINS + 1, sizeof *t->sm);
    t->slot = calloc(slot_cells(t) + 1, sizeof *t->slot);
    if (!t->sm || !t->slot) {
        ws_issue_timeline_free(t);
        return NULL;
    }
    return t;
}

void ws_issue_timeline_free(ws_issue_timeline *t)
{
    if (!t) return;
    free(t->sm);
    free(t->slot);
    free(t);
}

void ws_issue_timeline_clear(ws_issue_timeline *t)
{
    memset(t->sm, 0, sizeof *t->sm * (size_t)t->nsm * WS_TIMELINE_BINS);
    memset(t->slot, 0, sizeof *t->slot * slot_cells(t));
    t->width = 1;
    t->last = 0;
    t->issues = 0;
}

/* Halves the resolution of n rows of bins: bin i takes bins 2i and 2i+1. */
static void merge_rows(uint64_t *rows, size_t n)
{
    for (size_t r = 0; r < n; r++) {
        uint64_t *b = rows + r * WS_TIMELINE_BINS;
        for (uint32_t i = 0; i < WS_TIMELINE_BINS / 2; i++) b[i] = b[2 * i] + b[2 * i + 1];
        memset(b + WS_TIMELINE_BINS / 2, 0, sizeof *b * (WS_TIMELINE_BINS / 2));
    }
}

/* Bins twice as wide. */
static void widen(ws_issue_timeline *t)
{
    merge_rows(t->sm, t->nsm);
    merge_rows(t->slot, (size_t)ws_issue_timeline_detail_sms(t) * t->slots);
    t->width *= 2;
}

void ws_issue_timeline_add(ws_issue_timeline *t, uint32_t sm, uint32_t slot, uint64_t cycle)
{
    if (sm >= t->nsm || slot >= t->slots) return;
    while (cycle / t->width >= WS_TIMELINE_BINS) widen(t);
    uint64_t bin = cycle / t->width;
    t->sm[(size_t)sm * WS_TIMELINE_BINS + bin]++;
    if (sm < ws_issue_timeline_detail_sms(t))
        t->slot[((size_t)sm * t->slots + slot) * WS_TIMELINE_BINS + bin]++;
    if (cycle > t->last) t->last = cycle;
    t->issues++;
}

void ws_issue_timeline_merge(ws_issue_timeline *to, ws_issue_timeline *from)
{
    while (to->width < from->width) widen(to);
    while (from->width < to->width) widen(from);
    for (size_t i = 0; i < (size_t)to->nsm * WS_TIMELINE_BINS; i++) to->sm[i] += from->sm[i];
    for (size_t i = 0; i < slot_cells(to); i++) to->slot[i] += from->slot[i];
    if (from->last > to->last) to->last = from->last;
    to->issues += from->issues;
}

uint32_t ws_issue_timeline_used(const ws_issue_timeline *t)
{
    return t->issues ? (uint32_t)(t->last / t->width) + 1 : 0;
}
