/* A GPU description, read from an INI file in configs/.
 *
 * Field names follow cudaDeviceProp where it has the field, so that a
 * simulated device query and a real one compare line by line; the rest
 * (occupancy-rule constants, timing) are warpsim's own.  The file is plain
 * `key = value`; sections ([device], [occupancy], [timing]) only group keys
 * for the reader.  Every key of the occupancy rule is required; timing keys
 * are optional (0 = not given) until the timing model needs them. */
#ifndef WARPSIM_GPU_CONFIG_H
#define WARPSIM_GPU_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define WS_GPU_NAME_MAX 128
#define WS_GPU_MAX_CARVEOUTS 16

typedef struct ws_gpu_config {
    /* [device]: as cudaGetDeviceProperties reports them */
    char name[WS_GPU_NAME_MAX];
    int32_t major, minor;                   /* compute capability */
    int32_t multiProcessorCount;
    int32_t maxThreadsPerMultiProcessor;
    int32_t maxThreadsPerBlock;
    int32_t maxBlocksPerMultiProcessor;
    int32_t warpSize;
    int32_t regsPerMultiprocessor;          /* 32-bit registers */
    int32_t regsPerBlock;
    uint64_t sharedMemPerMultiprocessor;    /* bytes, the largest carve-out */
    uint64_t sharedMemPerBlock;             /* bytes, without opt-in */
    uint64_t sharedMemPerBlockOptin;        /* bytes, after cudaFuncSetAttribute */
    uint64_t reservedSharedMemPerBlock;     /* bytes the driver keeps per block */
    int32_t clockRate;                      /* kHz */
    int32_t memoryClockRate;                /* kHz */
    int32_t memoryBusWidth;                 /* bits */
    uint64_t l2CacheSize;                   /* bytes */
    uint64_t totalGlobalMem;                /* bytes */
    uint64_t totalConstMem;                 /* bytes */

    /* [occupancy]: constants of the allocation rule */
    int32_t regAllocUnitSize;               /* registers are allocated in units of this many */
    int32_t maxRegsPerThread;
    int32_t subPartitionsPerMultiprocessor; /* registers are split evenly among these */
    int32_t sharedMemAllocUnitSize;         /* bytes; a block's shared memory rounds up to this */
    /* shared-memory sizes (bytes, ascending) the L1/shared split may take */
    uint64_t carveoutSteps[WS_GPU_MAX_CARVEOUTS];
    int32_t numCarveoutSteps;

    /* [timing]: 0 where the config does not give it */
    int32_t fp32LanesPerMultiprocessor;
    int32_t latencyFp32;                    /* dependent FADD/FFMA/IADD/IMAD, cycles */
    int32_t latencySfu;
    int32_t latencyFp64;
    int32_t latencySharedLoad;
    int32_t latencyL1Hit;
    int32_t latencyL2Hit;
    int32_t latencyDram;
    /* lanes per SM of the other pipes: a warp instruction holds its pipe
     * for warpSize / (lanes / subPartitionsPerMultiprocessor) cycles */
    int32_t intLanesPerMultiprocessor;
    int32_t fp64LanesPerMultiprocessor;
    int32_t sfuLanesPerMultiprocessor;
    int32_t lsuLanesPerMultiprocessor;
    int32_t latencyInt;                     /* dependent IADD/IMAD/logic, cycles */
    int32_t latencyBranch;                  /* issue of a branch to the next issue of its warp */
    int32_t latencyTensor;                  /* wmma.mma */
    int32_t tensorIssueInterval;            /* cycles a wmma.mma holds the tensor pipe */
    int32_t latencyConstant;                /* constant-cache hit */
    int32_t lsuQueueCycles;                 /* L1 backlog (cycles) past which LSU issue stalls */
    int32_t launchOverheadCycles;           /* a launch's cycles beyond its blocks' work (dispatch,
                                               start, drain); 0 when absent */
    uint64_t l1CacheSize;                   /* bytes of L1 data cache per SM */
    int32_t l1Associativity;
    int32_t l2Slices;
    int32_t l2Associativity;
    int32_t l2BytesPerCyclePerSlice;
    int32_t dramChannels;
    int32_t dramAccessBytes;                /* DRAM reads fetch aligned blocks of this many bytes
                                               (32 = one sector, 64 = a sector pair); 32 when absent */
    int32_t dramBytesPerCycle;              /* what all channels deliver together per core cycle, as
                                               measured; the peak memoryClockRate and memoryBusWidth
                                               give at clockRate when absent */
    int32_t l2AtomicCyclesPerOp;            /* a slice's atomic unit per operation on one address
                                               (same-address operations serialize); 1 when absent */
    int32_t l2WriteRequestsPerCycle;        /* write requests (one line's sectors of one store) the
                                               whole L2 takes per cycle; each holds its slice for
                                               l2Slices / this many cycles at least; 0 = only the
                                               sectors' bytes count */
    int32_t warpScheduler;                  /* WS_GPU_SCHED_*: the policy of every sub-partition */
    int32_t twoLevelActiveWarps;            /* two_level: warps in the active set per scheduler */
} ws_gpu_config;

/* Values of warpScheduler ("lrr", "gto", "two_level" in the file). */
enum { WS_GPU_SCHED_LRR = 0, WS_GPU_SCHED_GTO = 1, WS_GPU_SCHED_TWO_LEVEL = 2 };

/* Loads a config by name ("a100": WARPSIM_CONFIG_DIR/a100.ini) or by path
 * (anything containing '/' or ending in ".ini").  Returns 0 on success; on
 * failure returns -1 and writes a message naming the file, line and key
 * into err (for an unknown name, the list of known ones). */
int ws_gpu_config_load(const char *name_or_path, ws_gpu_config *cfg,
                       char *err, size_t errsize);

/* The same, looking names up in dir instead of WARPSIM_CONFIG_DIR. */
int ws_gpu_config_load_in(const char *dir, const char *name_or_path,
                          ws_gpu_config *cfg, char *err, size_t errsize);

/* Loads one file by path. */
int ws_gpu_config_load_file(const char *path, ws_gpu_config *cfg,
                            char *err, size_t errsize);

/* Loads from INI text; origin names it in messages. */
int ws_gpu_config_load_string(const char *text, const char *origin,
                              ws_gpu_config *cfg, char *err, size_t errsize);

/* Writes the names of the configs in dir ("a100, h100, ...") into buf. */
void ws_gpu_config_list(const char *dir, char *buf, size_t size);

/* The directory that plain names are looked up in. */
const char *ws_gpu_config_dir(void);

#endif
