// BFS (PMPP ch. 15): vertex-centric push, frontier-based, privatized frontier.
// usage: ./bfs [numVertices] [numEdges]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <climits>
#include <vector>
#include <queue>
#include <cuda_runtime.h>

#define CHECK(call)                                                             \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__,    \
                    __LINE__, cudaGetErrorString(err_));                        \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define BLOCK 256
#define LOCAL_FRONTIER_CAPACITY 2048

struct CSRGraph {
    unsigned numVertices;
    unsigned *srcPtrs;
    unsigned *dst;
};

// ---------- vertex-centric top-down push (Fig. 15.6) ----------
__global__ void bfs_vertex_push(CSRGraph g, unsigned *level, unsigned *newVertexVisited,
                                unsigned currLevel) {
    unsigned vertex = blockIdx.x * blockDim.x + threadIdx.x;
    if (vertex < g.numVertices) {
        if (level[vertex] == currLevel - 1) {
            for (unsigned edge = g.srcPtrs[vertex]; edge < g.srcPtrs[vertex + 1]; ++edge) {
                unsigned neighbor = g.dst[edge];
                if (level[neighbor] == UINT_MAX) {
                    level[neighbor] = currLevel;
                    *newVertexVisited = 1;
                }
            }
        }
    }
}

// ---------- frontier-based (Fig. 15.9) ----------
__global__ void bfs_frontier(CSRGraph g, unsigned *level, unsigned *prevFrontier,
                             unsigned *currFrontier, unsigned numPrevFrontier,
                             unsigned *numCurrFrontier, unsigned currLevel) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < numPrevFrontier) {
        unsigned vertex = prevFrontier[i];
        for (unsigned edge = g.srcPtrs[vertex]; edge < g.srcPtrs[vertex + 1]; ++edge) {
            unsigned neighbor = g.dst[edge];
            if (atomicCAS(&level[neighbor], UINT_MAX, currLevel) == UINT_MAX) {
                unsigned idx = atomicAdd(numCurrFrontier, 1);
                currFrontier[idx] = neighbor;
            }
        }
    }
}

// ---------- privatized frontier (Fig. 15.10) ----------
__global__ void bfs_frontier_private(CSRGraph g, unsigned *level, unsigned *prevFrontier,
                                     unsigned *currFrontier, unsigned numPrevFrontier,
                                     unsigned *numCurrFrontier, unsigned currLevel) {
    __shared__ unsigned currFrontier_s[LOCAL_FRONTIER_CAPACITY];
    __shared__ unsigned numCurrFrontier_s;
    __shared__ unsigned currFrontierStartIdx;
    if (threadIdx.x == 0) numCurrFrontier_s = 0;
    __syncthreads();

    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < numPrevFrontier) {
        unsigned vertex = prevFrontier[i];
        for (unsigned edge = g.srcPtrs[vertex]; edge < g.srcPtrs[vertex + 1]; ++edge) {
            unsigned neighbor = g.dst[edge];
            if (atomicCAS(&level[neighbor], UINT_MAX, currLevel) == UINT_MAX) {
                unsigned currFrontierIdx_s = atomicAdd(&numCurrFrontier_s, 1);
                if (currFrontierIdx_s < LOCAL_FRONTIER_CAPACITY) {
                    currFrontier_s[currFrontierIdx_s] = neighbor;
                } else {
                    numCurrFrontier_s = LOCAL_FRONTIER_CAPACITY;
                    unsigned currFrontierIdx = atomicAdd(numCurrFrontier, 1);
                    currFrontier[currFrontierIdx] = neighbor;
                }
            }
        }
    }
    __syncthreads();
    unsigned nLocal = min(numCurrFrontier_s, (unsigned)LOCAL_FRONTIER_CAPACITY);
    __syncthreads();
    if (threadIdx.x == 0) currFrontierStartIdx = atomicAdd(numCurrFrontier, nLocal);
    __syncthreads();
    for (unsigned j = threadIdx.x; j < nLocal; j += blockDim.x)
        currFrontier[currFrontierStartIdx + j] = currFrontier_s[j];
}

// ---------- host ----------
static unsigned long long rng_state = 12345ULL;
static unsigned rnd() {  // xorshift64*
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ULL) >> 32);
}

static void cpu_bfs(unsigned n, const std::vector<unsigned> &ptr, const std::vector<unsigned> &dst,
                    unsigned src, std::vector<unsigned> &level) {
    level.assign(n, UINT_MAX);
    std::queue<unsigned> q;
    level[src] = 0;
    q.push(src);
    while (!q.empty()) {
        unsigned v = q.front();
        q.pop();
        for (unsigned e = ptr[v]; e < ptr[v + 1]; ++e) {
            unsigned u = dst[e];
            if (level[u] == UINT_MAX) {
                level[u] = level[v] + 1;
                q.push(u);
            }
        }
    }
}

static bool compare(const char *name, const std::vector<unsigned> &ref, const std::vector<unsigned> &got) {
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < ref.size(); ++i)
        if (ref[i] != got[i]) {
            if (!bad) first = i;
            ++bad;
        }
    if (bad) {
        printf("%-22s FAIL (%zu mismatches, first at %zu: ref %u got %u)\n", name, bad, first,
               ref[first], got[first]);
        return false;
    }
    printf("%-22s PASS\n", name);
    return true;
}

int main(int argc, char **argv) {
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100000;
    unsigned m = argc > 2 ? (unsigned)atoi(argv[2]) : 1000000;
    const unsigned source = 0;
    printf("BFS: %u vertices, %u edges\n", n, m);

    // random directed graph -> CSR
    std::vector<unsigned> es(m), ed(m);
    for (unsigned i = 0; i < m; ++i) {
        es[i] = rnd() % n;
        ed[i] = rnd() % n;
    }
    std::vector<unsigned> ptr(n + 1, 0), dst(m);
    for (unsigned i = 0; i < m; ++i) ptr[es[i] + 1]++;
    for (unsigned v = 0; v < n; ++v) ptr[v + 1] += ptr[v];
    std::vector<unsigned> fill(ptr.begin(), ptr.end() - 1);
    for (unsigned i = 0; i < m; ++i) dst[fill[es[i]]++] = ed[i];

    std::vector<unsigned> ref;
    cpu_bfs(n, ptr, dst, source, ref);
    unsigned maxLevel = 0, reached = 0;
    for (unsigned v = 0; v < n; ++v)
        if (ref[v] != UINT_MAX) {
            reached++;
            if (ref[v] > maxLevel) maxLevel = ref[v];
        }
    printf("CPU: reached %u vertices, depth %u\n", reached, maxLevel);

    CSRGraph g;
    g.numVertices = n;
    unsigned *d_level, *d_flag, *d_f0, *d_f1, *d_numCurr;
    CHECK(cudaMalloc(&g.srcPtrs, (n + 1) * sizeof(unsigned)));
    CHECK(cudaMalloc(&g.dst, m * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_level, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_flag, sizeof(unsigned)));
    CHECK(cudaMalloc(&d_f0, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_f1, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_numCurr, sizeof(unsigned)));
    CHECK(cudaMemcpy(g.srcPtrs, ptr.data(), (n + 1) * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(g.dst, dst.data(), m * sizeof(unsigned), cudaMemcpyHostToDevice));

    std::vector<unsigned> initLevel(n, UINT_MAX);
    initLevel[source] = 0;
    std::vector<unsigned> got(n);

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    bool allOk = true;
    int launches;

    // ---- vertex-centric ----
    auto run_vertex = [&]() {
        CHECK(cudaMemcpy(d_level, initLevel.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
        unsigned flag = 1, currLevel = 1;
        launches = 0;
        while (flag) {
            flag = 0;
            CHECK(cudaMemcpy(d_flag, &flag, sizeof(unsigned), cudaMemcpyHostToDevice));
            bfs_vertex_push<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(g, d_level, d_flag, currLevel);
            CHECK(cudaGetLastError());
            launches++;
            CHECK(cudaMemcpy(&flag, d_flag, sizeof(unsigned), cudaMemcpyDeviceToHost));
            currLevel++;
        }
    };
    // ---- frontier based (private = use privatized kernel) ----
    auto run_frontier = [&](bool priv) {
        CHECK(cudaMemcpy(d_level, initLevel.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_f0, &source, sizeof(unsigned), cudaMemcpyHostToDevice));
        unsigned *prev = d_f0, *curr = d_f1;
        unsigned numPrev = 1, currLevel = 1;
        launches = 0;
        while (numPrev > 0) {
            CHECK(cudaMemset(d_numCurr, 0, sizeof(unsigned)));
            unsigned blocks = (numPrev + BLOCK - 1) / BLOCK;
            if (priv)
                bfs_frontier_private<<<blocks, BLOCK>>>(g, d_level, prev, curr, numPrev, d_numCurr, currLevel);
            else
                bfs_frontier<<<blocks, BLOCK>>>(g, d_level, prev, curr, numPrev, d_numCurr, currLevel);
            CHECK(cudaGetLastError());
            launches++;
            CHECK(cudaMemcpy(&numPrev, d_numCurr, sizeof(unsigned), cudaMemcpyDeviceToHost));
            unsigned *t = prev; prev = curr; curr = t;
            currLevel++;
        }
    };

    const char *names[3] = {"vertex-centric push", "frontier (global q)", "frontier (privatized)"};
    for (int variant = 0; variant < 3; ++variant) {
        auto run = [&]() {
            if (variant == 0) run_vertex();
            else run_frontier(variant == 2);
        };
        run();  // warm-up
        CHECK(cudaDeviceSynchronize());
        float total = 0.f;
        for (int it = 0; it < 10; ++it) {
            CHECK(cudaEventRecord(start));
            run();
            CHECK(cudaEventRecord(stop));
            CHECK(cudaEventSynchronize(stop));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, start, stop));
            total += ms;
        }
        CHECK(cudaMemcpy(got.data(), d_level, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        printf("%-22s %d launches per BFS, avg %.4f ms\n", names[variant], launches, total / 10);
        allOk &= compare(names[variant], ref, got);
    }

    printf("%s\n", allOk ? "PASS" : "FAIL");
    cudaFree(g.srcPtrs); cudaFree(g.dst); cudaFree(d_level); cudaFree(d_flag);
    cudaFree(d_f0); cudaFree(d_f1); cudaFree(d_numCurr);
    cudaEventDestroy(start); cudaEventDestroy(stop);
    return allOk ? 0 : 1;
}
