/* gpu_run: `warpsim run` on a real GPU, through the CUDA driver API.
 *
 *     gpu_run run FILE.ptx --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]
 *             [--smem BYTES] --arg SPEC ... [--dump I=PATH ...]
 *
 * takes the same arguments as `warpsim run` (scalars i32/u32/i64/u64/f32/f64,
 * buffers buf:TYPE:COUNT:INIT with INIT zero, iota, fill=V or file=PATH; not
 * rand=SEED, whose sequence is warpsim's own), loads the PTX with the
 * driver's JIT, launches the kernel and dumps buffers.  With it, e2e_kernels
 * runs its cases on a GPU (--warpsim PATH/TO/gpu_run): that checks the
 * driver's CPU references, bit-exact ones included, against the hardware.
 * The kernel name must be the mangled one, as e2e_kernels passes it.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 32

static void die(const char *msg, const char *detail)
{
    fprintf(stderr, "gpu_run: error: %s%s%s\n", msg, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static void check(CUresult r, const char *what)
{
    if (r != CUDA_SUCCESS) {
        const char *name = NULL;
        cuGetErrorName(r, &name);
        die(what, name ? name : "unknown error");
    }
}

static void parse_dim(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    if (sscanf(s, "%u,%u,%u", &d[0], &d[1], &d[2]) < 1)
        die("bad dimension", s);
}

typedef struct buffer {
    int is_buffer;
    size_t elem, count;
    CUdeviceptr dev;
    unsigned char scalar[8];
} buffer;

static size_t type_size(const char *t)
{
    if (!strcmp(t, "i8") || !strcmp(t, "u8")) return 1;
    if (!strcmp(t, "i32") || !strcmp(t, "u32") || !strcmp(t, "f32")) return 4;
    if (!strcmp(t, "i64") || !strcmp(t, "u64") || !strcmp(t, "f64")) return 8;
    die("unknown type", t);
    return 0;
}

/* Stores value v of type t at p. */
static void store(const char *t, const char *v, void *p)
{
    if (!strcmp(t, "f32")) { float f = strtof(v, NULL); memcpy(p, &f, 4); }
    else if (!strcmp(t, "f64")) { double f = strtod(v, NULL); memcpy(p, &f, 8); }
    else if (t[0] == 'i') {
        long long x = strtoll(v, NULL, 0);
        size_t n = type_size(t);
        if (n == 1) { int8_t y = (int8_t)x; memcpy(p, &y, 1); }
        else if (n == 4) { int32_t y = (int32_t)x; memcpy(p, &y, 4); }
        else { int64_t y = x; memcpy(p, &y, 8); }
    } else {
        unsigned long long x = strtoull(v, NULL, 0);
        size_t n = type_size(t);
        if (n == 1) { uint8_t y = (uint8_t)x; memcpy(p, &y, 1); }
        else if (n == 4) { uint32_t y = (uint32_t)x; memcpy(p, &y, 4); }
        else { uint64_t y = x; memcpy(p, &y, 8); }
    }
}

static void make_arg(const char *spec, buffer *b)
{
    char *s = strdup(spec), *save = NULL;
    char *kind = strtok_r(s, ":", &save);
    if (!kind)
        die("bad --arg", spec);
    if (strcmp(kind, "buf")) {
        char *value = strtok_r(NULL, "", &save);
        if (!value)
            die("bad --arg", spec);
        b->is_buffer = 0;
        store(kind, value, b->scalar);
        free(s);
        return;
    }
    char *type = strtok_r(NULL, ":", &save);
    char *count = strtok_r(NULL, ":", &save);
    char *init = strtok_r(NULL, "", &save);
    if (!type || !count || !init)
        die("bad --arg", spec);
    b->is_buffer = 1;
    b->elem = type_size(type);
    b->count = strtoull(count, NULL, 10);
    size_t bytes = b->elem * b->count;
    unsigned char *host = calloc(bytes ? bytes : 1, 1);
    if (!host)
        die("out of memory", NULL);
    if (!strcmp(init, "zero")) {
    } else if (!strcmp(init, "iota")) {
        char v[32];
        for (size_t i = 0; i < b->count; i++) {
            snprintf(v, sizeof v, "%zu", i);
            store(type, v, host + i * b->elem);
        }
    } else if (!strncmp(init, "fill=", 5)) {
        for (size_t i = 0; i < b->count; i++)
            store(type, init + 5, host + i * b->elem);
    } else if (!strncmp(init, "file=", 5)) {
        FILE *f = fopen(init + 5, "rb");
        if (!f || fread(host, 1, bytes, f) != bytes)
            die("cannot read", init + 5);
        fclose(f);
    } else {
        die("unsupported INIT", init);
    }
    check(cuMemAlloc(&b->dev, bytes ? bytes : 1), "cuMemAlloc");
    if (bytes)
        check(cuMemcpyHtoD(b->dev, host, bytes), "cuMemcpyHtoD");
    free(host);
    free(s);
}

int main(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[1], "run"))
        die("usage: gpu_run run FILE.ptx --kernel NAME --grid G --block B [--smem N] --arg SPEC... [--dump I=PATH...]", NULL);
    const char *ptx_path = argv[2], *kernel = NULL;
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, smem = 0;
    const char *specs[MAX_ARGS], *dumps[MAX_ARGS];
    int nargs = 0, ndumps = 0;
    for (int i = 3; i < argc; i++) {
        if (i + 1 >= argc)
            die("missing value for", argv[i]);
        const char *v = argv[++i];
        if (!strcmp(argv[i - 1], "--kernel")) kernel = v;
        else if (!strcmp(argv[i - 1], "--grid")) parse_dim(v, grid);
        else if (!strcmp(argv[i - 1], "--block")) parse_dim(v, block);
        else if (!strcmp(argv[i - 1], "--smem")) smem = (unsigned)strtoul(v, NULL, 10);
        else if (!strcmp(argv[i - 1], "--arg") && nargs < MAX_ARGS) specs[nargs++] = v;
        else if (!strcmp(argv[i - 1], "--dump") && ndumps < MAX_ARGS) dumps[ndumps++] = v;
        else die("unknown option", argv[i - 1]);
    }
    if (!kernel)
        die("--kernel is required", NULL);

    FILE *f = fopen(ptx_path, "rb");
    if (!f)
        die("cannot read", ptx_path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *ptx = malloc((size_t)len + 1);
    if (!ptx || fread(ptx, 1, (size_t)len, f) != (size_t)len)
        die("cannot read", ptx_path);
    ptx[len] = '\0';
    fclose(f);

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    check(cuModuleLoadData(&mod, ptx), "cuModuleLoadData");
    check(cuModuleGetFunction(&fn, mod, kernel), "cuModuleGetFunction");

    buffer bufs[MAX_ARGS];
    void *params[MAX_ARGS];
    memset(bufs, 0, sizeof bufs);
    for (int i = 0; i < nargs; i++) {
        make_arg(specs[i], &bufs[i]);
        params[i] = bufs[i].is_buffer ? (void *)&bufs[i].dev : (void *)bufs[i].scalar;
    }
    if (smem > 48 * 1024)
        check(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem),
              "cuFuncSetAttribute");
    check(cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, NULL, params,
                         NULL),
          "cuLaunchKernel");
    check(cuCtxSynchronize(), "kernel");

    for (int d = 0; d < ndumps; d++) {
        char *eq = strchr(dumps[d], '=');
        int idx = atoi(dumps[d]);
        if (!eq || idx < 0 || idx >= nargs || !bufs[idx].is_buffer)
            die("bad --dump", dumps[d]);
        size_t bytes = bufs[idx].elem * bufs[idx].count;
        unsigned char *host = malloc(bytes ? bytes : 1);
        if (!host)
            die("out of memory", NULL);
        if (bytes)
            check(cuMemcpyDtoH(host, bufs[idx].dev, bytes), "cuMemcpyDtoH");
        FILE *out = fopen(eq + 1, "wb");
        if (!out || fwrite(host, 1, bytes, out) != bytes || fclose(out) != 0)
            die("cannot write", eq + 1);
        free(host);
    }
    printf("gpu_run: %s done\n", kernel);
    return 0;
}
