/* Memory: device allocations, copies in every direction, memset, symbols,
 * pinned and managed host memory (pitched and 3D memory: cudart_pitched.c;
 * CUDA arrays: cudart_array.c).  Device pointers the program sees are
 * the simulator's device addresses.  Streams run synchronously, so the
 * Async forms are the plain ones.
 *
 * Managed memory is host memory mapped at the address of a device
 * allocation: the host reads and writes it directly; a launch copies every
 * managed allocation to the device before it runs and back after. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cudart_ctx.h"

#define COPY_CHUNK (UINT64_C(1) << 20)

static uint64_t addr_of(const void *p) { return (uint64_t)(uintptr_t)p; }

static cudaError_t track(cr_context *c, uint64_t addr, uint64_t base, uint64_t size, bool managed)
{
    if (c->nallocs == c->capallocs) {
        size_t n = c->capallocs ? c->capallocs * 2 : 64;
        cr_alloc *a = realloc(c->allocs, n * sizeof *a);
        if (!a) return cudaErrorMemoryAllocation;
        c->allocs = a;
        c->capallocs = n;
    }
    c->allocs[c->nallocs++] = (cr_alloc){addr, size, base, managed};
    c->bytes_allocated += size;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!devPtr) return cr_ret(c, cudaErrorInvalidValue);
    *devPtr = NULL;
    if (size == 0) return cudaSuccess;
    if (size > c->gpu.totalGlobalMem - c->bytes_allocated) return cr_ret(c, cudaErrorMemoryAllocation);
    uint64_t a = ws_devmem_alloc(c->mem, size);
    if (!a) return cr_ret(c, cudaErrorMemoryAllocation);
    if ((e = track(c, a, a, size, false)) != cudaSuccess) {
        ws_devmem_free(c->mem, a);
        return cr_ret(c, e);
    }
    *devPtr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

/* Stream-ordered allocation: streams run in order here, so the memory is
 * there when the call returns, and a free is a free (a freed size's
 * address is given again, as the pool does). */
CR_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    (void)stream;
    return cudaMalloc(devPtr, size);
}

CR_EXPORT cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t stream)
{
    return cudaMallocAsync(devPtr, size, stream);
}

CR_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    (void)flags;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!devPtr || size == 0) return cr_ret(c, cudaErrorInvalidValue);
    *devPtr = NULL;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t rounded = (size + page - 1) / page * page;
    if (rounded > c->gpu.totalGlobalMem - c->bytes_allocated) return cr_ret(c, cudaErrorMemoryAllocation);
    uint64_t base = ws_devmem_alloc(c->mem, rounded + page);
    if (!base) return cr_ret(c, cudaErrorMemoryAllocation);
    uint64_t addr = (base + page - 1) / page * page;
    void *host = mmap((void *)(uintptr_t)addr, rounded, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (host != (void *)(uintptr_t)addr) {
        if (host != MAP_FAILED) munmap(host, rounded);
        ws_devmem_free(c->mem, base);
        cr_note("cudaMallocManaged: the host address 0x%llx that mirrors the device allocation is taken",
                (unsigned long long)addr);
        return cr_ret(c, cudaErrorMemoryAllocation);
    }
    if ((e = track(c, addr, base, rounded, true)) != cudaSuccess) {
        munmap(host, rounded);
        ws_devmem_free(c->mem, base);
        return cr_ret(c, e);
    }
    *devPtr = host;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaFree(void *devPtr)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!devPtr) return cudaSuccess;
    for (size_t i = 0; i < c->nallocs; i++) {
        cr_alloc *a = &c->allocs[i];
        if (a->addr != addr_of(devPtr)) continue;
        if (a->managed) munmap(devPtr, a->size);
        ws_devmem_free(c->mem, a->base);
        c->bytes_allocated -= a->size;
        *a = c->allocs[--c->nallocs];
        return cudaSuccess;
    }
    return cr_ret(c, cudaErrorInvalidValue);
}

CR_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    (void)stream;
    return cudaFree(devPtr);
}

CR_EXPORT cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t stream)
{
    return cudaFreeAsync(devPtr, stream);
}

/* Whether [p, p+n) is device memory (an allocation, or a module variable);
 * managed memory counts as host memory outside launches. */
static bool is_device(cr_context *c, const void *p, size_t n)
{
    cr_alloc *a = cr_alloc_find(c, addr_of(p), n);
    if (a) return !a->managed;
    return ws_devmem_valid(c->mem, addr_of(p), n ? n : 1);
}

cudaError_t cr_copy(cr_context *c, void *dst, const void *src, size_t n, int kind)
{
    if (n == 0) return cudaSuccess;
    if (!dst || !src) return cudaErrorInvalidValue;
    bool ddev = is_device(c, dst, n), sdev = is_device(c, src, n);
    switch (kind) {
    case cudaMemcpyHostToHost: if (ddev || sdev) return cudaErrorInvalidValue; break;
    case cudaMemcpyHostToDevice: if (!ddev || sdev) return cudaErrorInvalidValue; break;
    case cudaMemcpyDeviceToHost: if (ddev || !sdev) return cudaErrorInvalidValue; break;
    case cudaMemcpyDeviceToDevice: if (!ddev || !sdev) return cudaErrorInvalidValue; break;
    case cudaMemcpyDefault: break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    if (!ddev && !sdev) {
        memmove(dst, src, n);
    } else if (ddev && !sdev) {
        if (!ws_devmem_write(c->mem, addr_of(dst), src, n)) return cudaErrorInvalidValue;
    } else if (!ddev && sdev) {
        if (!ws_devmem_read(c->mem, addr_of(src), dst, n)) return cudaErrorInvalidValue;
    } else {
        uint8_t *buf = malloc(n < COPY_CHUNK ? n : COPY_CHUNK);
        if (!buf) return cudaErrorMemoryAllocation;
        for (uint64_t off = 0; off < n; off += COPY_CHUNK) {
            uint64_t k = n - off < COPY_CHUNK ? n - off : COPY_CHUNK;
            if (!ws_devmem_read(c->mem, addr_of(src) + off, buf, k) ||
                !ws_devmem_write(c->mem, addr_of(dst) + off, buf, k)) {
                free(buf);
                return cudaErrorInvalidValue;
            }
        }
        free(buf);
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    return cr_ret(c, cr_copy(c, dst, src, count, kind));
}

CR_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, int kind)
{
    return cudaMemcpy(dst, src, count, kind);
}

CR_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpy(dst, src, count, kind);
}

CR_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind,
                                           cudaStream_t s)
{
    return cudaMemcpyAsync(dst, src, count, kind, s);
}

cudaError_t cr_fill(cr_context *c, void *p, int value, size_t n)
{
    if (n == 0) return cudaSuccess;
    cr_alloc *a = cr_alloc_find(c, addr_of(p), n);
    if (a && a->managed) {
        memset(p, value, n);
        return cudaSuccess;
    }
    return ws_devmem_fill(c->mem, addr_of(p), (uint8_t)value, n) ? cudaSuccess : cudaErrorInvalidValue;
}

CR_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    return cr_ret(c, cr_fill(c, devPtr, value, count));
}

CR_EXPORT cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    return cudaMemset(devPtr, value, count);
}

CR_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t s)
{
    (void)s;
    return cudaMemset(devPtr, value, count);
}

CR_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t s)
{
    return cudaMemsetAsync(devPtr, value, count, s);
}

/* Symbols: symbol is the address of the host shadow of a __device__ or
 * __constant__ variable, as registered by __cudaRegisterVar. */
static cudaError_t symbol_range(cr_context *c, const void *symbol, size_t count, size_t offset,
                                uint64_t *addr)
{
    uint64_t size;
    cudaError_t e = cr_symbol_lookup(c, symbol, addr, &size);
    if (e) return e;
    if (offset > size || count > size - offset) return cudaErrorInvalidValue;
    *addr += offset;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                         size_t offset, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    uint64_t a;
    if ((e = symbol_range(c, symbol, count, offset, &a)) != cudaSuccess) return cr_ret(c, e);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cr_ret(c, cudaErrorInvalidMemcpyDirection);
    return cr_ret(c, cr_copy(c, (void *)(uintptr_t)a, src, count, kind));
}

CR_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                           size_t offset, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    uint64_t a;
    if ((e = symbol_range(c, symbol, count, offset, &a)) != cudaSuccess) return cr_ret(c, e);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cr_ret(c, cudaErrorInvalidMemcpyDirection);
    return cr_ret(c, cr_copy(c, dst, (const void *)(uintptr_t)a, count, kind));
}

CR_EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                              size_t offset, int kind)
{
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

CR_EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind)
{
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

CR_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                              size_t offset, int kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

CR_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

CR_EXPORT cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count,
                                                   size_t offset, int kind, cudaStream_t s)
{
    return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, s);
}

CR_EXPORT cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                     size_t offset, int kind, cudaStream_t s)
{
    return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, s);
}

CR_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!devPtr) return cr_ret(c, cudaErrorInvalidValue);
    uint64_t a, size;
    if ((e = cr_symbol_lookup(c, symbol, &a, &size)) != cudaSuccess) return cr_ret(c, e);
    *devPtr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!size) return cr_ret(c, cudaErrorInvalidValue);
    uint64_t a, s;
    if ((e = cr_symbol_lookup(c, symbol, &a, &s)) != cudaSuccess) return cr_ret(c, e);
    *size = (size_t)s;
    return cudaSuccess;
}

/* Pinned host memory is ordinary host memory here; it is tracked so that
 * cudaFreeHost can tell its pointers from others. */
CR_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    (void)flags;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!pHost) return cr_ret(c, cudaErrorInvalidValue);
    *pHost = NULL;
    if (c->nhost == c->caphost) {
        size_t n = c->caphost ? c->caphost * 2 : 16;
        void **h = realloc(c->host_allocs, n * sizeof *h);
        if (!h) return cr_ret(c, cudaErrorMemoryAllocation);
        c->host_allocs = h;
        c->caphost = n;
    }
    void *p = NULL;
    if (posix_memalign(&p, 4096, size ? size : 1) != 0) return cr_ret(c, cudaErrorMemoryAllocation);
    c->host_allocs[c->nhost++] = p;
    *pHost = p;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return cudaHostAlloc(ptr, size, 0);
}

CR_EXPORT cudaError_t cudaFreeHost(void *ptr)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!ptr) return cudaSuccess;
    for (size_t i = 0; i < c->nhost; i++)
        if (c->host_allocs[i] == ptr) {
            free(ptr);
            c->host_allocs[i] = c->host_allocs[--c->nhost];
            return cudaSuccess;
        }
    return cr_ret(c, cudaErrorInvalidValue);
}

CR_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    (void)ptr; (void)size; (void)flags;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    return c ? cudaSuccess : e;
}

CR_EXPORT cudaError_t cudaHostUnregister(void *ptr)
{
    (void)ptr;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    return c ? cudaSuccess : e;
}

CR_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!free_bytes || !total) return cr_ret(c, cudaErrorInvalidValue);
    *total = c->gpu.totalGlobalMem;
    *free_bytes = c->gpu.totalGlobalMem - c->bytes_allocated;
    return cudaSuccess;
}

/* Hints about where managed memory should live: nothing to do here. */
CR_EXPORT cudaError_t cudaMemPrefetchAsync(void)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    return c ? cudaSuccess : e;
}

CR_EXPORT cudaError_t cudaMemPrefetchAsync_ptsz(void)
{
    return cudaMemPrefetchAsync();
}

CR_EXPORT cudaError_t cudaMemAdvise(void)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    return c ? cudaSuccess : e;
}
