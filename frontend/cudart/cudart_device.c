/* Device queries: one device, described by the selected GPU config
 * (WARPSIM_GPU, default a100), with the values a real device of that kind
 * reports. */
#include <string.h>
#include "cudart_ctx.h"

#define CUDART_VERSION 13000

CR_EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
    cr_context *c = cr_ctx();
    if (!count) return cr_ret(c, cudaErrorInvalidValue);
    if (!c || !c->gpu_ok) {
        *count = 0;
        return cr_ret(c, cudaErrorNoDevice);
    }
    *count = 1;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetDevice(int *device)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!device) return cr_ret(c, cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaSetDevice(int device)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    return device == 0 ? cudaSuccess : cr_ret(c, cudaErrorInvalidDevice);
}

CR_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    (void)deviceFlags; (void)flags;
    return cudaSetDevice(device);
}

CR_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    (void)flags;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    return c ? cudaSuccess : e;
}

CR_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!flags) return cr_ret(c, cudaErrorInvalidValue);
    *flags = 0;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!prop) return cr_ret(c, cudaErrorInvalidValue);
    if (device != 0) return cr_ret(c, cudaErrorInvalidDevice);
    const ws_gpu_config *g = &c->gpu;
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "%s", g->name);
    memcpy(prop->uuid.bytes, "warpsim-sim-gpu", 16);
    prop->totalGlobalMem = g->totalGlobalMem;
    prop->sharedMemPerBlock = g->sharedMemPerBlock;
    prop->regsPerBlock = g->regsPerBlock;
    prop->warpSize = g->warpSize;
    prop->memPitch = 2147483647;
    prop->maxThreadsPerBlock = g->maxThreadsPerBlock;
    prop->maxThreadsDim[0] = 1024;
    prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = 65535;
    prop->maxGridSize[2] = 65535;
    prop->totalConstMem = g->totalConstMem;
    prop->major = g->major;
    prop->minor = g->minor;
    prop->textureAlignment = CR_TEXTURE_ALIGNMENT;
    prop->texturePitchAlignment = CR_TEXTURE_PITCH_ALIGNMENT;
    prop->multiProcessorCount = g->multiProcessorCount;
    prop->canMapHostMemory = 1;
    prop->surfaceAlignment = 512;
    prop->concurrentKernels = 1;
    prop->cooperativeLaunch = 1;
    prop->asyncEngineCount = 2;
    prop->unifiedAddressing = 1;
    prop->memoryBusWidth = g->memoryBusWidth;
    prop->l2CacheSize = (int)g->l2CacheSize;
    prop->maxThreadsPerMultiProcessor = g->maxThreadsPerMultiProcessor;
    prop->streamPrioritiesSupported = 1;
    prop->globalL1CacheSupported = 1;
    prop->localL1CacheSupported = 1;
    prop->sharedMemPerMultiprocessor = g->sharedMemPerMultiprocessor;
    prop->regsPerMultiprocessor = g->regsPerMultiprocessor;
    prop->managedMemory = 1;
    prop->computePreemptionSupported = 1;
    prop->sharedMemPerBlockOptin = g->sharedMemPerBlockOptin;
    prop->maxBlocksPerMultiProcessor = g->maxBlocksPerMultiProcessor;
    prop->reservedSharedMemPerBlock = g->reservedSharedMemPerBlock;
    prop->deviceNumaId = -1;
    prop->hostNumaId = -1;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!value) return cr_ret(c, cudaErrorInvalidValue);
    if (device != 0) return cr_ret(c, cudaErrorInvalidDevice);
    const ws_gpu_config *g = &c->gpu;
    int v;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = g->maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: v = 1024; break;
    case cudaDevAttrMaxBlockDimZ: v = 64; break;
    case cudaDevAttrMaxGridDimX: case cudaDevAttrMaxPitch: v = 2147483647; break;
    case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: v = 65535; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = (int)g->sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: v = (int)g->totalConstMem; break;
    case cudaDevAttrWarpSize: v = g->warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: v = g->regsPerBlock; break;
    case cudaDevAttrClockRate: v = g->clockRate; break;
    case cudaDevAttrTextureAlignment: v = CR_TEXTURE_ALIGNMENT; break;
    case cudaDevAttrTexturePitchAlignment: v = CR_TEXTURE_PITCH_ALIGNMENT; break;
    case cudaDevAttrGpuOverlap: case cudaDevAttrCanMapHostMemory: case cudaDevAttrConcurrentKernels:
    case cudaDevAttrUnifiedAddressing: case cudaDevAttrStreamPrioritiesSupported:
    case cudaDevAttrGlobalL1CacheSupported: case cudaDevAttrLocalL1CacheSupported:
    case cudaDevAttrManagedMemory: case cudaDevAttrComputePreemptionSupported:
        v = 1; break;
    case cudaDevAttrKernelExecTimeout: case cudaDevAttrIntegrated: case cudaDevAttrComputeMode:
    case cudaDevAttrEccEnabled: case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId:
    case cudaDevAttrTccDriver: case cudaDevAttrPciDomainId: case cudaDevAttrIsMultiGpuBoard:
    case cudaDevAttrMultiGpuBoardGroupID: case cudaDevAttrConcurrentManagedAccess:
        v = 0; break;
    case cudaDevAttrCooperativeLaunch: v = 1; break;   /* (cudaLaunchCooperativeKernel) */
    case cudaDevAttrMultiProcessorCount: v = g->multiProcessorCount; break;
    case cudaDevAttrMemoryClockRate: v = g->memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: v = g->memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: v = (int)g->l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = g->maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: v = 2; break;
    case cudaDevAttrComputeCapabilityMajor: v = g->major; break;
    case cudaDevAttrComputeCapabilityMinor: v = g->minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int)g->sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = g->regsPerMultiprocessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int)g->sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = g->maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = (int)g->reservedSharedMemPerBlock; break;
    default: {
        char what[64];
        snprintf(what, sizeof what, "cudaDeviceGetAttribute(attribute %d)", attr);
        return cr_unsupported(what);
    }
    }
    *value = v;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    return c ? cudaSuccess : e;
}

CR_EXPORT cudaError_t cudaDeviceReset(void)
{
    cr_context *c = cr_ctx();
    if (!c) return cudaErrorMemoryAllocation;
    if (!c->gpu_ok && !c->mem) return cudaErrorNoDevice;
    cr_device_reset(c);
    return c->gpu_ok ? cudaSuccess : cudaErrorNoDevice;
}

CR_EXPORT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion) return cr_ret(cr_ctx(), cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion) return cr_ret(cr_ctx(), cudaErrorInvalidValue);
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

/* Cache and shared-memory preferences: accepted; the occupancy rule takes
 * its carve-out from cudaFuncSetAttribute. */
CR_EXPORT cudaError_t cudaDeviceSetCacheConfig(int cacheConfig)
{
    (void)cacheConfig;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    return c ? cudaSuccess : e;
}

CR_EXPORT cudaError_t cudaDeviceGetCacheConfig(int *cacheConfig)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!cacheConfig) return cr_ret(c, cudaErrorInvalidValue);
    *cacheConfig = 0;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig)
{
    (void)func; (void)cacheConfig;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    return c ? cudaSuccess : e;
}

CR_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    (void)device; (void)peerDevice;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!canAccessPeer) return cr_ret(c, cudaErrorInvalidValue);
    *canAccessPeer = 0;
    return cudaSuccess;
}

/* Limits: accepted and reported back; the simulator has no fixed stack,
 * printf FIFO or heap to size. */
CR_EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    (void)value;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    return limit >= 0 && limit <= 2 ? cudaSuccess : cr_ret(c, cudaErrorUnsupportedLimit);
}

CR_EXPORT cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!value) return cr_ret(c, cudaErrorInvalidValue);
    switch (limit) {
    case 0: *value = 1024; return cudaSuccess;              /* cudaLimitStackSize */
    case 1: *value = 1 << 20; return cudaSuccess;           /* cudaLimitPrintfFifoSize */
    case 2: *value = 8 << 20; return cudaSuccess;           /* cudaLimitMallocHeapSize */
    default: return cr_ret(c, cudaErrorUnsupportedLimit);
    }
}
