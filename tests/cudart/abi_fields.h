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
    X(cudaFuncAttributes, preferredShmemCarveout) X(cudaFuncAttributes, reserved) \
    X(cudaPitchedPtr, ysize) X(cudaExtent, depth) X(cudaPos, z)              \
    X(cudaMemcpy3DParms, srcPos) X(cudaMemcpy3DParms, srcPtr)                 \
    X(cudaMemcpy3DParms, dstArray) X(cudaMemcpy3DParms, dstPos)               \
    X(cudaMemcpy3DParms, dstPtr) X(cudaMemcpy3DParms, extent) X(cudaMemcpy3DParms, kind) \
    X(cudaChannelFormatDesc, w) X(cudaChannelFormatDesc, f)                   \
    X(cudaResourceDesc, res) X(cudaResourceDesc, res.linear.desc)             \
    X(cudaResourceDesc, res.linear.sizeInBytes) X(cudaResourceDesc, res.pitch2D.width) \
    X(cudaResourceDesc, res.pitch2D.pitchInBytes) X(cudaResourceDesc, flags)  \
    X(cudaTextureDesc, filterMode) X(cudaTextureDesc, readMode)               \
    X(cudaTextureDesc, borderColor) X(cudaTextureDesc, normalizedCoords)      \
    X(cudaTextureDesc, mipmapFilterMode) X(cudaTextureDesc, seamlessCubemap)  \
    X(cudaResourceViewDesc, width) X(cudaResourceViewDesc, firstLayer)        \
    X(cudaResourceViewDesc, reserved)

/* Structs whose sizes must agree. */
#define ABI_STRUCTS(X)                                                        \
    X(cudaDeviceProp) X(cudaFuncAttributes) X(cudaPitchedPtr) X(cudaExtent)  \
    X(cudaPos) X(cudaMemcpy3DParms) X(cudaChannelFormatDesc) X(cudaResourceDesc) \
    X(cudaTextureDesc) X(cudaResourceViewDesc)

/* The layout as one header sees it: sizes of the structs, then offsets. */
void abi_layout_ours(size_t *out, int *n);
void abi_layout_toolkit(size_t *out, int *n);
