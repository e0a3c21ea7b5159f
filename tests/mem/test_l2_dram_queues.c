/* The L2 slices' atomic units and the DRAM channels' bandwidth queues
 * (sim/mem/l2_dram.h), on tiny configs whose figures are worked by hand:
 * one slice, one channel, round latencies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim/mem/l2_dram.h"

enum { LAT_L2 = 100, LAT_DRAM = 300 };

/* One slice of 64 KB, one channel; a slice serves a sector in 1/32 cycle
 * (never the bottleneck here); the channel dram_bpc bytes a cycle (0: the
 * peak of a 1 GHz, 256-bit DDR bus at a 1 GHz core clock, 64 B a cycle);
 * an atomic operation on one address takes atom_cycles. */
static ws_gpu_config tiny_config(int32_t dram_bpc, int32_t atom_cycles)
{
    ws_gpu_config g;
    memset(&g, 0, sizeof g);
    g.l2CacheSize = 64 * 1024;
    g.l2Slices = 1;
    g.l2Associativity = 16;
    g.l2BytesPerCyclePerSlice = 1024;
    g.dramChannels = 1;
    g.dramAccessBytes = 32;
    g.dramBytesPerCycle = dram_bpc;
    g.clockRate = 1000000;
    g.memoryClockRate = 1000000;
    g.memoryBusWidth = 256;
    g.latencyL2Hit = LAT_L2;
    g.latencyDram = LAT_DRAM;
    g.l2AtomicCyclesPerOp = atom_cycles;
    return g;
}

static void tiny(ws_l2_dram *m, int32_t dram_bpc, int32_t atom_cycles)
{
    ws_gpu_config g = tiny_config(dram_bpc, atom_cycles);
    assert_true(ws_l2_init(m, &g));
}

/* 32 lanes adding to one word are 32 operations in a row at the slice:
 * 32 x 2 cycles; a second such request waits for the first; a request of
 * 32 different words (serial 1) pipelines them: one operation's time. */
static void test_same_address_serializes(void **state)
{
    (void)state;
    ws_l2_dram m;
    tiny(&m, 16, 2);
    assert_int_equal(ws_l2_read(&m, 7, 0), 0 + LAT_DRAM);        /* brings sector 7 in */
    assert_int_equal(ws_l2_atomic(&m, 7, 32, 1000), 1000 + 32 * 2 + LAT_L2);
    assert_int_equal(ws_l2_atomic(&m, 7, 32, 1000), 1000 + 2 * 32 * 2 + LAT_L2);
    assert_int_equal(ws_l2_atomic(&m, 7, 1, 1000), 1000 + 2 * 32 * 2 + 2 + LAT_L2);
    /* later, with the unit idle again: one operation's time */
    assert_int_equal(ws_l2_atomic(&m, 7, 1, 5000), 5000 + 2 + LAT_L2);
    ws_l2_free(&m);
}

/* An atomic on a sector L2 lacks first reads it from DRAM (the operation
 * starts when the data is at the slice: LAT_DRAM - LAT_L2 after it left). */
static void test_atomic_miss_waits_for_data(void **state)
{
    (void)state;
    ws_l2_dram m;
    tiny(&m, 16, 1);
    assert_int_equal(ws_l2_atomic(&m, 40, 4, 0), LAT_DRAM - LAT_L2 + 4 + LAT_L2);
    assert_int_equal(m.count.dram_read_sectors, 1);
    ws_l2_flush(&m);
    assert_int_equal(m.count.dram_write_sectors, 1);
    ws_l2_free(&m);
}

/* K reads of distinct sectors at cycle 0 through a channel of 16 B a
 * cycle: the channel is busy K x 32 / 16 cycles, so one more read starts
 * then and its data is back LAT_DRAM later. */
static void test_bandwidth_bound_stream(void **state)
{
    (void)state;
    enum { K = 100 };
    ws_l2_dram m;
    tiny(&m, 16, 1);
    for (uint64_t k = 0; k < K; k++)
        assert_int_equal(ws_l2_read(&m, 1000 + k, 0), 2 * k + LAT_DRAM);
    assert_int_equal(ws_l2_read(&m, 5000, 0), K * 32 / 16 + LAT_DRAM);
    ws_l2_free(&m);
}

/* Without dramBytesPerCycle the channel has the bus's peak: 2 x 1 GHz x
 * 256 bit / 8 = 64 GB/s at a 1 GHz core, 64 B a cycle: 64 sectors take 32
 * cycles. */
static void test_peak_bandwidth_from_the_bus(void **state)
{
    (void)state;
    ws_l2_dram m;
    tiny(&m, 0, 1);
    for (uint64_t k = 0; k < 64; k++) ws_l2_read(&m, 1000 + k, 0);
    assert_int_equal(ws_l2_read(&m, 5000, 0), 64 * 32 / 64 + LAT_DRAM);
    ws_l2_free(&m);
}

/* A sector's write-back takes the channel once, when it becomes dirty:
 * two writes to one sector and one to another cost 2 x 2 cycles, and a
 * read behind them starts at 4. */
static void test_write_back_paid_once(void **state)
{
    (void)state;
    ws_l2_dram m;
    tiny(&m, 16, 1);
    assert_int_equal(ws_l2_write(&m, 3, true, 0), LAT_L2);
    assert_int_equal(ws_l2_write(&m, 3, true, 0), LAT_L2);
    assert_int_equal(ws_l2_write(&m, 4, true, 0), LAT_L2);
    assert_int_equal(ws_l2_read(&m, 900, 0), 4 + LAT_DRAM);
    ws_l2_flush(&m);
    assert_int_equal(m.count.dram_write_sectors, 2);
    ws_l2_free(&m);
}

/* With l2WriteRequestsPerCycle, a write request holds its slice
 * l2Slices / rate cycles however few bytes it writes (one slice, one
 * request a cycle: 1 cycle, where its one sector's bytes take 1/32): three
 * one-sector stores to three lines start at 0, 1 and 2; a store of a whole
 * line then starts at 3, and its other three sectors follow at the
 * slice's byte rate, within cycle 4. */
static void test_write_request_rate(void **state)
{
    (void)state;
    ws_l2_dram m;
    ws_gpu_config g = tiny_config(1 << 20, 1);     /* DRAM never the bottleneck */
    g.l2WriteRequestsPerCycle = 1;
    assert_true(ws_l2_init(&m, &g));
    assert_int_equal(ws_l2_write(&m, 0, true, 0), LAT_L2);
    assert_int_equal(ws_l2_write(&m, 4, true, 0), 1 + LAT_L2);
    assert_int_equal(ws_l2_write(&m, 8, true, 0), 2 + LAT_L2);
    assert_int_equal(ws_l2_write(&m, 12, true, 0), 3 + LAT_L2);
    assert_int_equal(ws_l2_write(&m, 13, false, 0), 4 + LAT_L2);
    assert_int_equal(ws_l2_write(&m, 14, false, 0), 4 + LAT_L2);
    assert_int_equal(ws_l2_write(&m, 15, false, 0), 4 + LAT_L2);
    /* the next request waits for those 3 sectors' bytes: 4 + 3/32 */
    assert_int_equal(ws_l2_write(&m, 16, true, 0), 4 + LAT_L2);
    assert_int_equal(ws_l2_write(&m, 20, true, 0), 5 + LAT_L2);
    ws_l2_free(&m);
}

/* Reads and writes of a stream of sectors, the answers summed. */
static uint64_t stream(ws_l2_dram *m, uint64_t first, int n)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        uint64_t sector = first + (uint64_t)i * 5 % 20000;
        sum = sum * 31 + (i % 3 ? ws_l2_read(m, sector, (uint64_t)i) : ws_l2_write(m, sector, i % 2, (uint64_t)i));
    }
    return sum + m->count.lookups + m->count.hits + m->count.dram_read_sectors + m->count.dram_write_sectors;
}

/* An L2 kept from a launch (ws_l2_init_again) answers the next launch as a
 * new one does; for another shape it is made anew. */
static void test_kept_is_new(void **state)
{
    (void)state;
    ws_gpu_config g = tiny_config(0, 2);
    ws_l2_dram fresh, kept;
    memset(&kept, 0, sizeof kept);
    assert_true(ws_l2_init_again(&kept, &g));       /* zeroed: made */
    stream(&kept, 0, 5000);
    assert_true(ws_l2_init_again(&kept, &g));
    assert_true(ws_l2_init(&fresh, &g));
    assert_int_equal(stream(&kept, 77, 5000), stream(&fresh, 77, 5000));
    ws_l2_free(&fresh);
    g.l2Slices = 2;                                 /* another shape */
    assert_true(ws_l2_init_again(&kept, &g));
    assert_int_equal(kept.nslices, 2);
    assert_true(ws_l2_init(&fresh, &g));
    assert_int_equal(stream(&kept, 5, 3000), stream(&fresh, 5, 3000));
    ws_l2_free(&fresh);
    ws_l2_free(&kept);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_is_new),
        cmocka_unit_test(test_same_address_serializes),
        cmocka_unit_test(test_atomic_miss_waits_for_data),
        cmocka_unit_test(test_bandwidth_bound_stream),
        cmocka_unit_test(test_peak_bandwidth_from_the_bus),
        cmocka_unit_test(test_write_back_paid_once),
        cmocka_unit_test(test_write_request_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
