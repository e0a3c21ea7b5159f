/* Fields whose offsets must agree between warpsim's cudart_abi.h and the
 * toolkit's cuda_runtime_api.h: X(struct, field). */
#define ABI_FIELDS(X)                                                         \
    X(cudaDeviceProp, name) X(cudaDeviceProp, uuid) X(cudaDeviceProp, totalGlobalMem) \
    X(cudaDeviceProp, sharedMemPerBlock) X(cudaDeviceProp, regsPerBlock)      \
    X(cudaDeviceProp, memPitch) X(cudaDeviceProp, maxThreadsDim)              \
    X(cudaDeviceProp, maxGridSize) X(cudaDeviceProp, totalConstMem)           \
    X(cudaDeviceProp, major) X(cudaDeviceProp, textureAlignment)              \
    X(cudaDeviceProp, multiProcessorCount) X(cudaDeviceProp, maxTexture2DLinear) \
    X(cudaDeviceProp, maxSurfaceCubemapLayered) X(cudaDeviceProp, surfaceAlignment) \
    X(cudaDeviceProp, memoryBusWidth) X(cudaDeviceProp, l2CacheSize)          \
    X(cudaDeviceProp, maxThreadsPerMultiProcessor)                            \
    X(cudaDeviceProp, sharedMemPerMultiprocessor) X(cudaDeviceProp, regsPerMultiprocessor) \
    X(cudaDeviceProp, managedMemory) X(cudaDeviceProp, sharedMemPerBlockOptin) \
    X(cudaDeviceProp, maxBlocksPerMultiProcessor) X(cudaDeviceProp, reservedSharedMemPerBlock) \
    X(cudaDeviceProp, gpuDirectRDMAFlushWritesOptions) X(cudaDeviceProp, hostNumaId) \
    X(cudaDeviceProp, hostNumaMultinodeIpcSupported) X(cudaDeviceProp, reserved) \
    X(cudaFuncAttributes, sharedSizeBytes) X(cudaFuncAttributes, localSizeBytes) \
    X(cudaFuncAttributes, numRegs) X(cudaFuncAttributes, maxDynamicSharedSizeBytes) \
    X(cudaFuncAttributes, preferredShmemCarveout) X(cudaFuncAttributes, reserved)

/* The layout as one header sees it: sizes of the structs, then offsets. */
void abi_layout_ours(size_t *out, int *n);
void abi_layout_toolkit(size_t *out, int *n);
