// Compares ws_occupancy (hardware rule) with NVIDIA's cuda_occupancy.h on
// every config in configs/: blocks per SM, each resource's limit and the
// set of limiting resources must agree exactly.  Exhaustive over threads
// 1..1024+ x registers 0..255 with no shared memory, then random cases with
// static and dynamic shared memory, opt-in and carve-out preferences.
#include <cuda_occupancy.h>

#include <cstdio>
#include <cstdint>
#include <cstring>

extern "C" {
#include "sim/base/gpu_config.h"
#include "sim/sched/occupancy.h"
}

namespace {

const char *const gpus[] = {"a100", "h100", "h200", "rtx4090", "rtx2080ti", "teaching"};

struct rng {
    uint64_t s;
    uint64_t next()
    {   // splitmix64
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint64_t below(uint64_t n) { return next() % n; }
};

struct tally {
    long cases = 0, mismatches = 0, zero_blocks = 0;
    long limiter_seen[WS_OCC_NRESOURCES] = {0, 0, 0, 0};
};

cudaOccDeviceProp oracle_device(const ws_gpu_config &g)
{
    cudaOccDeviceProp p;
    p.computeMajor = g.major;
    p.computeMinor = g.minor;
    p.maxThreadsPerBlock = g.maxThreadsPerBlock;
    p.maxThreadsPerMultiprocessor = g.maxThreadsPerMultiProcessor;
    p.regsPerBlock = g.regsPerBlock;
    p.regsPerMultiprocessor = g.regsPerMultiprocessor;
    p.warpSize = g.warpSize;
    p.sharedMemPerBlock = g.sharedMemPerBlock;
    p.sharedMemPerMultiprocessor = g.sharedMemPerMultiprocessor;
    p.numSms = g.multiProcessorCount;
    p.sharedMemPerBlockOptin = g.sharedMemPerBlockOptin;
    p.reservedSharedMemPerBlock = g.reservedSharedMemPerBlock;
    return p;
}

// One case: run both, compare, report the first few differences.
void check(const char *gpu, const ws_gpu_config &g, const cudaOccDeviceProp &prop,
           const ws_occ_input &in, tally &t)
{
    cudaOccFuncAttributes attr;
    attr.maxThreadsPerBlock = g.maxThreadsPerBlock;
    attr.numRegs = in.regs;
    attr.sharedSizeBytes = in.static_smem;
    attr.partitionedGCConfig = PARTITIONED_GC_OFF;
    attr.numBlockBarriers = 1;
    if (in.optin) {
        // What cudaFuncSetAttribute(MaxDynamicSharedMemorySize) to the
        // largest allowed value leaves in the function's attributes.
        attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
        attr.maxDynamicSharedSizeBytes = g.sharedMemPerBlockOptin - in.static_smem;
    } else {
        attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
        attr.maxDynamicSharedSizeBytes = g.sharedMemPerBlock - in.static_smem;
    }
    cudaOccDeviceState state;
    state.carveoutConfig = in.carveout;
    cudaOccResult want;
    std::memset(&want, 0, sizeof want);
    cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&want, &prop, &attr, &state,
                                                             in.threads, in.dynamic_smem);
    ws_occ_result got;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &got);
    t.cases++;

    bool ok = e == CUDA_OCC_SUCCESS && got.blocks_per_sm == want.activeBlocksPerMultiprocessor;
    if (ok && got.blocks_per_sm == 0) {
        // Cannot launch: the resource we blame must be one the oracle
        // found at zero, and we must name an error.
        t.zero_blocks++;
        ok = got.error != WS_OCC_OK && (want.limitingFactors & (1u << got.limiter));
    } else if (ok) {
        unsigned want_set = want.limitingFactors & 0xFu;  // warps, regs, smem, blocks bits
        ok = got.error == WS_OCC_OK &&
             got.limits[WS_OCC_WARPS] == want.blockLimitWarps &&
             got.limits[WS_OCC_REGISTERS] == want.blockLimitRegs &&
             got.limits[WS_OCC_SHARED_MEMORY] == want.blockLimitSharedMem &&
             got.limits[WS_OCC_BLOCKS] == want.blockLimitBlocks &&
             got.limiting == want_set &&
             (want.limitingFactors & ~0xFu) == 0 &&
             (got.smem_per_block == 0 || got.smem_per_block == want.allocatedSharedMemPerBlock);
        t.limiter_seen[got.limiter]++;
    }
    if (!ok) {
        if (t.mismatches < 20)
            std::printf("MISMATCH %s: threads=%d regs=%d static=%llu dynamic=%llu carveout=%d optin=%d:"
                        " oracle(err %d) blocks=%d limits w/r/s/b=%d/%d/%d/%d factors=0x%x;"
                        " warpsim blocks=%d limits=%d/%d/%d/%d set=0x%x error=%d\n",
                        gpu, in.threads, in.regs, (unsigned long long)in.static_smem,
                        (unsigned long long)in.dynamic_smem, in.carveout, (int)in.optin, (int)e,
                        want.activeBlocksPerMultiprocessor, want.blockLimitWarps,
                        want.blockLimitRegs, want.blockLimitSharedMem, want.blockLimitBlocks,
                        want.limitingFactors, got.blocks_per_sm, got.limits[0], got.limits[1],
                        got.limits[2], got.limits[3], got.limiting, (int)got.error);
        t.mismatches++;
    }
}

// Shared-memory sizes worth hitting: edges of allocation units and of the
// per-block limits, plus anything.
uint64_t pick_smem(rng &r, uint64_t limit)
{
    switch (r.below(5)) {
    case 0: return 0;
    case 1: return r.below(limit + 1);
    case 2: return r.below(limit / 128 + 1) * 128;
    case 3: { uint64_t v = r.below(limit / 1024 + 1) * 1024; return v - (v && r.below(2)); }
    default: return r.below(4097);
    }
}

}  // namespace

int main()
{
    tally t;
    // The course's worked example, checked against the oracle itself: on
    // sm_90, 256 threads at 34 registers give 6 blocks (75 %).
    {
        cudaOccDeviceProp p;
        p.computeMajor = 9; p.computeMinor = 0; p.maxThreadsPerBlock = 1024;
        p.maxThreadsPerMultiprocessor = 2048; p.regsPerBlock = 65536;
        p.regsPerMultiprocessor = 65536; p.warpSize = 32; p.sharedMemPerBlock = 49152;
        p.sharedMemPerMultiprocessor = 233472; p.numSms = 132;
        p.sharedMemPerBlockOptin = 232448; p.reservedSharedMemPerBlock = 1024;
        cudaOccFuncAttributes a;
        a.maxThreadsPerBlock = 1024; a.numRegs = 34; a.numBlockBarriers = 1;
        cudaOccDeviceState s;
        cudaOccResult res;
        if (cudaOccMaxActiveBlocksPerMultiprocessor(&res, &p, &a, &s, 256, 0) != CUDA_OCC_SUCCESS ||
            res.activeBlocksPerMultiprocessor != 6) {
            std::printf("oracle: sm_90 256 threads x 34 regs is not 6 blocks\n");
            return 1;
        }
    }

    for (const char *gpu : gpus) {
        ws_gpu_config g;
        char err[1024];
        if (ws_gpu_config_load(gpu, &g, err, sizeof err)) {
            std::printf("%s\n", err);
            return 1;
        }
        cudaOccDeviceProp prop = oracle_device(g);
        long before = t.cases;

        // Exhaustive: every block size (and a few past the limit) x every
        // register count, no shared memory, default carve-out.
        for (int threads = 1; threads <= g.maxThreadsPerBlock + 64; threads++)
            for (int regs = 0; regs <= 255; regs++) {
                ws_occ_input in = {threads, regs, 0, 0, WS_OCC_CARVEOUT_DEFAULT, false, false};
                check(gpu, g, prop, in, t);
            }

        // Random: shared memory, opt-in and carve-out preferences too.
        rng r = {0x5EED0000ull + (uint64_t)g.major * 10 + (uint64_t)g.minor};
        for (int i = 0; i < 60000; i++) {
            ws_occ_input in{};
            in.threads = 1 + (int)r.below((uint64_t)g.maxThreadsPerBlock);
            in.regs = (int)r.below(256);
            in.optin = r.below(2);
            in.static_smem = pick_smem(r, g.sharedMemPerBlock);
            uint64_t limit = in.optin ? g.sharedMemPerBlockOptin : g.sharedMemPerBlock;
            in.dynamic_smem = pick_smem(r, limit);
            if (r.below(8) == 0)    // right at the per-block limit, or one byte past it
                in.dynamic_smem = limit - in.static_smem + r.below(2);
            switch (r.below(4)) {
            case 0: in.carveout = WS_OCC_CARVEOUT_DEFAULT; break;
            case 1: in.carveout = (int)r.below(101); break;
            case 2: in.carveout = r.below(2) ? 0 : 100; break;
            default: in.carveout = 50; break;
            }
            check(gpu, g, prop, in, t);
        }
        std::printf("%-10s sm_%d%d: %ld cases\n", gpu, g.major, g.minor, t.cases - before);
    }
    std::printf("%ld cases, %ld mismatches; %ld cannot launch; limiter warps %ld, registers %ld,"
                " shared_memory %ld, blocks %ld\n", t.cases, t.mismatches, t.zero_blocks,
                t.limiter_seen[0], t.limiter_seen[1], t.limiter_seen[2], t.limiter_seen[3]);
    return t.mismatches ? 1 : 0;
}
