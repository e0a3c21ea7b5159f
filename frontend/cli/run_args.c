/* Parsing and checking the arguments of `warpsim run`; making buffer
 * contents.  See run_args.h. */
#include "run_args.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/core/launch_check.h"

static bool fail(char *err, size_t errsize, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsize, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- types ---- */

static const struct { const char *name; uint32_t size; bool is_float, is_signed; } type_info[] = {
    [RUNARG_I8] = {"i8", 1, false, true},   [RUNARG_U8] = {"u8", 1, false, false},
    [RUNARG_I32] = {"i32", 4, false, true}, [RUNARG_U32] = {"u32", 4, false, false},
    [RUNARG_I64] = {"i64", 8, false, true}, [RUNARG_U64] = {"u64", 8, false, false},
    [RUNARG_F32] = {"f32", 4, true, true},  [RUNARG_F64] = {"f64", 8, true, true},
};

bool runarg_parse_type(const char *s, size_t len, runarg_type *t)
{
    for (int i = 0; i < RUNARG_TYPE_COUNT; i++) {
        if (strlen(type_info[i].name) == len && !strncmp(s, type_info[i].name, len)) {
            *t = (runarg_type)i;
            return true;
        }
    }
    return false;
}

const char *runarg_type_name(runarg_type t) { return type_info[t].name; }
uint32_t runarg_type_size(runarg_type t) { return type_info[t].size; }
bool runarg_type_is_float(runarg_type t) { return type_info[t].is_float; }
bool runarg_type_is_signed(runarg_type t) { return type_info[t].is_signed; }

void runarg_store(runarg_type t, uint64_t bits, uint8_t *out)
{
    for (uint32_t i = 0; i < type_info[t].size; i++)
        out[i] = (uint8_t)(bits >> (8 * i));
}

uint64_t runarg_load(runarg_type t, const uint8_t *in)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < type_info[t].size; i++)
        v |= (uint64_t)in[i] << (8 * i);
    return v;
}

static uint64_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static float bits_f32(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static double bits_f64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

/* ---- numbers ---- */

/* Unsigned decimal or 0x hex, the whole string, no sign.  Leading zeros are
 * decimal, not octal. */
static bool parse_u64(const char *s, uint64_t *v, bool *hex)
{
    int base = 10;
    *hex = false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        *hex = true;
    }
    if (!*s)
        return false;
    uint64_t r = 0;
    for (; *s; s++) {
        int d;
        if (*s >= '0' && *s <= '9') d = *s - '0';
        else if (base == 16 && *s >= 'a' && *s <= 'f') d = *s - 'a' + 10;
        else if (base == 16 && *s >= 'A' && *s <= 'F') d = *s - 'A' + 10;
        else return false;
        if (r > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return false;   /* overflow */
        r = r * (uint64_t)base + (uint64_t)d;
    }
    *v = r;
    return true;
}

static bool parse_hex_exact(const char *s, size_t ndigits, uint64_t *v)
{
    if (strlen(s) != ndigits)
        return false;
    bool hex;
    char tmp[24];
    snprintf(tmp, sizeof tmp, "0x%s", s);
    return parse_u64(tmp, v, &hex);
}

bool runarg_parse_value(runarg_type t, const char *s, uint64_t *bits, char *err, size_t errsize)
{
    const char *tn = type_info[t].name;
    if (!*s)
        return fail(err, errsize, "missing %s value", tn);
    if (t == RUNARG_F32 || t == RUNARG_F64) {
        if (s[0] == '0' && (s[1] == 'f' || s[1] == 'd')) {
            bool want_f = t == RUNARG_F32;
            if ((s[1] == 'f') != want_f || !parse_hex_exact(s + 2, want_f ? 8 : 16, bits))
                return fail(err, errsize, "bad %s value '%s' (bit patterns are 0f + 8 hex digits "
                            "for f32, 0d + 16 hex digits for f64)", tn, s);
            return true;
        }
        char *end;
        errno = 0;
        if (t == RUNARG_F32) {
            float f = strtof(s, &end);
            if (end == s || *end)
                return fail(err, errsize, "bad f32 value '%s'", s);
            if (errno == ERANGE && isinf(f))
                return fail(err, errsize, "f32 value '%s' is out of range", s);
            *bits = f32_bits(f);
        } else {
            double d = strtod(s, &end);
            if (end == s || *end)
                return fail(err, errsize, "bad f64 value '%s'", s);
            if (errno == ERANGE && isinf(d))
                return fail(err, errsize, "f64 value '%s' is out of range", s);
            *bits = f64_bits(d);
        }
        return true;
    }
    bool neg = s[0] == '-';
    uint64_t mag;
    bool hex;
    if (!parse_u64(s + (neg || s[0] == '+'), &mag, &hex))
        return fail(err, errsize, "bad %s value '%s' (want a decimal or 0x hex integer)", tn, s);
    uint32_t width = type_info[t].size * 8;
    uint64_t umax = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
    uint64_t smax = umax >> 1;
    if (!type_info[t].is_signed) {
        if (neg && mag != 0)
            return fail(err, errsize, "%s value '%s' is negative (use an i type or a hex bit pattern)", tn, s);
        if (mag > umax)
            return fail(err, errsize, "%s value '%s' is out of range [0, %" PRIu64 "]", tn, s, umax);
        *bits = mag;
        return true;
    }
    if (neg) {
        if (mag > smax + 1)
            return fail(err, errsize, "%s value '%s' is out of range", tn, s);
        *bits = (0 - mag) & umax;
    } else {
        /* a hex literal is a bit pattern, so it may fill the whole width */
        if (mag > (hex ? umax : smax))
            return fail(err, errsize, "%s value '%s' is out of range", tn, s);
        *bits = mag;
    }
    return true;
}

/* ---- dimensions ---- */

bool runarg_parse_dim3(const char *s, ws_dim3 *d, char *err, size_t errsize)
{
    uint32_t v[3] = {1, 1, 1};
    int n = 0;
    const char *p = s;
    for (;;) {
        if (n == 3)
            return fail(err, errsize, "bad dimensions '%s': at most 3 components X,Y,Z", s);
        uint64_t x = 0;
        const char *start = p;
        while (*p >= '0' && *p <= '9') {
            x = x * 10 + (uint64_t)(*p - '0');
            if (x > UINT32_MAX)
                return fail(err, errsize, "bad dimensions '%s': component too large", s);
            p++;
        }
        if (p == start)
            return fail(err, errsize, "bad dimensions '%s': want X[,Y[,Z]] with positive integers", s);
        if (x == 0)
            return fail(err, errsize, "bad dimensions '%s': a dimension is zero", s);
        v[n++] = (uint32_t)x;
        if (*p == '\0')
            break;
        if (*p != ',')
            return fail(err, errsize, "bad dimensions '%s': want X[,Y[,Z]] with positive integers", s);
        p++;
    }
    d->x = v[0];
    d->y = v[1];
    d->z = v[2];
    return true;
}

/* The launch limits' own rule (sim/core/launch_check.h), at parse time;
 * 1024 threads a block is every GPU's maximum. */
bool runarg_check_block(ws_dim3 d, char *err, size_t errsize)
{
    return ws_check_block_dims(d, 1024, err, errsize);
}

bool runarg_check_grid(ws_dim3 d, char *err, size_t errsize)
{
    return ws_check_grid_dims(d, err, errsize);
}

/* ---- argument specs ---- */

bool runarg_parse_spec(const char *spec, runarg *a, char *err, size_t errsize)
{
    memset(a, 0, sizeof *a);
    a->spec = spec;
    const char *colon = strchr(spec, ':');
    if (!colon)
        return fail(err, errsize, "bad argument '%s': want TYPE:VALUE or buf:TYPE:COUNT:INIT", spec);
    size_t klen = (size_t)(colon - spec);
    if (klen == 3 && !strncmp(spec, "buf", 3)) {
        a->is_buffer = true;
        const char *tp = colon + 1, *c2 = strchr(tp, ':');
        if (!c2 || !runarg_parse_type(tp, (size_t)(c2 - tp), &a->type))
            return fail(err, errsize, "bad buffer '%s': want buf:TYPE:COUNT:INIT with TYPE one of "
                        "i8 u8 i32 u32 i64 u64 f32 f64", spec);
        const char *cp = c2 + 1, *c3 = strchr(cp, ':');
        char cnt[32];
        bool hex;
        if (!c3 || (size_t)(c3 - cp) >= sizeof cnt)
            return fail(err, errsize, "bad buffer '%s': want buf:TYPE:COUNT:INIT", spec);
        memcpy(cnt, cp, (size_t)(c3 - cp));
        cnt[c3 - cp] = '\0';
        if (!parse_u64(cnt, &a->count, &hex))
            return fail(err, errsize, "bad buffer '%s': COUNT '%s' is not a number", spec, cnt);
        if (a->count > UINT64_MAX / runarg_type_size(a->type))
            return fail(err, errsize, "bad buffer '%s': COUNT is too large", spec);
        const char *init = c3 + 1;
        if (!strcmp(init, "zero")) {
            a->init = RUNARG_INIT_ZERO;
        } else if (!strcmp(init, "none")) {
            a->init = RUNARG_INIT_NONE;
        } else if (!strcmp(init, "iota")) {
            a->init = RUNARG_INIT_IOTA;
        } else if (!strncmp(init, "fill=", 5)) {
            a->init = RUNARG_INIT_FILL;
            char msg[256];
            if (!runarg_parse_value(a->type, init + 5, &a->bits, msg, sizeof msg))
                return fail(err, errsize, "bad buffer '%s': %s", spec, msg);
        } else if (!strncmp(init, "rand=", 5)) {
            a->init = RUNARG_INIT_RAND;
            if (!parse_u64(init + 5, &a->seed, &hex))
                return fail(err, errsize, "bad buffer '%s': SEED must be an unsigned integer", spec);
        } else if (!strncmp(init, "file=", 5) && init[5]) {
            a->init = RUNARG_INIT_FILE;
            a->path = init + 5;
        } else {
            return fail(err, errsize, "bad buffer '%s': INIT '%s' is not one of zero, none, iota, "
                        "fill=V, rand=SEED, file=PATH", spec, init);
        }
        return true;
    }
    if (!runarg_parse_type(spec, klen, &a->type) || a->type == RUNARG_I8 || a->type == RUNARG_U8)
        return fail(err, errsize, "bad argument '%s': the type must be one of i32 u32 i64 u64 f32 f64, "
                    "or buf for a buffer", spec);
    char msg[256];
    if (!runarg_parse_value(a->type, colon + 1, &a->bits, msg, sizeof msg))
        return fail(err, errsize, "bad argument '%s': %s", spec, msg);
    return true;
}

uint32_t runarg_param_bytes(const runarg *a)
{
    return a->is_buffer ? 8 : runarg_type_size(a->type);
}

/* The class of value a PTX type holds: 'b' untyped bits, 'f' float, 'i' integer. */
static char ptx_type_class(ptx_type pt)
{
    if (pt >= PTX_T_B8 && pt <= PTX_T_B128)
        return 'b';
    return ptx_type_is_float(pt) ? 'f' : 'i';
}

static bool fits_class(bool is_buffer, runarg_type t, ptx_type pt)
{
    char c = ptx_type_class(pt);
    if (c == 'b')
        return true;
    if (is_buffer)                      /* a device pointer: a 64-bit integer */
        return c == 'i';
    return (c == 'f') == runarg_type_is_float(t);
}

bool runarg_fits_ptx_type(const runarg *a, ptx_type pt, char *fits, size_t size)
{
    if (fits_class(a->is_buffer, a->type, pt))
        return true;
    const char *forms[RUNARG_TYPE_COUNT + 1];
    int n = 0;
    for (int t = 0; t < RUNARG_TYPE_COUNT; t++)
        if (runarg_type_size((runarg_type)t) == ptx_type_size(pt) && fits_class(false, (runarg_type)t, pt))
            forms[n++] = runarg_type_name((runarg_type)t);
    if (ptx_type_size(pt) == 8 && fits_class(true, RUNARG_U64, pt))
        forms[n++] = "buf";
    size_t used = 0;
    fits[0] = '\0';
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(fits + used, size - used, "%s%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                                 forms[i], strcmp(forms[i], "buf") ? ":V" : ":TYPE:COUNT:INIT");
    return false;
}

uint64_t runarg_buffer_bytes(const runarg *a)
{
    return a->count * runarg_type_size(a->type);
}

bool runarg_check_buffer_sizes(const runarg *args, int nargs, uint64_t device_bytes, const char *gpu,
                               char *err, size_t errsize)
{
    uint64_t total = 0;
    for (int i = 0; i < nargs; i++) {
        const runarg *a = &args[i];
        if (!a->is_buffer)
            continue;
        uint64_t bytes = runarg_buffer_bytes(a);
        bool written = a->init != RUNARG_INIT_ZERO && a->init != RUNARG_INIT_NONE;
        if (written && bytes > RUNARG_MAX_WRITTEN_BYTES)
            return fail(err, errsize, "argument %d '%s' is %" PRIu64 " bytes: warpsim writes at most %" PRIu64
                        " bytes (4 GiB) into a buffer for its INIT (zero and none buffers are not written)",
                        i, a->spec, bytes, (uint64_t)RUNARG_MAX_WRITTEN_BYTES);
        total = bytes > UINT64_MAX - total ? UINT64_MAX : total + bytes;
        if (total > device_bytes)
            return fail(err, errsize, "argument %d '%s': the buffers come to %" PRIu64 " bytes by then, more "
                        "than the %" PRIu64 " bytes of device memory of the %s", i, a->spec, total,
                        device_bytes, gpu);
    }
    return true;
}

/* ---- buffer contents ---- */

/* The i-th output (0-based) of splitmix64 started at seed. */
static uint64_t splitmix64_at(uint64_t seed, uint64_t i)
{
    uint64_t z = seed + (i + 1) * UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t rand_bits(runarg_type t, uint64_t r)
{
    switch (t) {
    case RUNARG_F32:    /* 24 random bits: k/2^23 - 1, exact in float */
        return f32_bits((float)((int32_t)(r >> 40) - (1 << 23)) * 0x1p-23f);
    case RUNARG_F64:
        return f64_bits((double)((int64_t)(r >> 11) - (INT64_C(1) << 52)) * 0x1p-52);
    default:
        if (type_info[t].is_signed)
            return (uint64_t)((int64_t)(r % (2 * RUNARG_RAND_INT_MAX + 1)) - RUNARG_RAND_INT_MAX);
        return r % (RUNARG_RAND_INT_MAX + 1);
    }
}

static uint64_t iota_bits(runarg_type t, uint64_t i)
{
    if (t == RUNARG_F32)
        return f32_bits((float)i);
    if (t == RUNARG_F64)
        return f64_bits((double)i);
    return i;   /* wraps in the type when stored */
}

/* The i-th element's bits of a generated buffer. */
static inline uint64_t generated_bits(const runarg *a, uint64_t i)
{
    switch (a->init) {
    case RUNARG_INIT_IOTA: return iota_bits(a->type, i);
    case RUNARG_INIT_FILL: return a->bits;
    case RUNARG_INIT_RAND: return rand_bits(a->type, splitmix64_at(a->seed, i));
    default: return 0;
    }
}

/* Little-endian element stores of a fixed width, so that each loop below
 * is one the compiler can make straight code of (inputs of millions of
 * elements are made at every run). */
#define GENERATE_AS(width)                                                    \
    for (uint64_t k = 0; k < n; k++) {                                        \
        uint64_t bits = generated_bits(a, first + k);                         \
        uint8_t *o = out + k * (width);                                       \
        for (uint32_t b = 0; b < (width); b++) o[b] = (uint8_t)(bits >> (8 * b)); \
    }

/* Inputs of millions of random elements take a good part of a short run:
 * on x86-64 the loops are also built for the vector units of newer CPUs
 * (64-bit multiplies in AVX-512 make the random ones about 3.5 times as
 * fast), the CPU picking its own at load time; the values are the same.
 * Not under ThreadSanitizer, whose build crashes in the resolver that
 * picks, which runs before the sanitizer has started. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11 && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
void runarg_generate(const runarg *a, uint64_t first, uint64_t n, uint8_t *out)
{
    if (a->init == RUNARG_INIT_RAND && a->type == RUNARG_F32) {     /* the common case, as its own loop */
        for (uint64_t k = 0; k < n; k++) {
            uint64_t bits = rand_bits(RUNARG_F32, splitmix64_at(a->seed, first + k));
            for (uint32_t b = 0; b < 4; b++) out[4 * k + b] = (uint8_t)(bits >> (8 * b));
        }
        return;
    }
    switch (runarg_type_size(a->type)) {
    case 1: GENERATE_AS(1); break;
    case 4: GENERATE_AS(4); break;
    default: GENERATE_AS(8); break;
    }
}
#undef GENERATE_AS

#define RUNARG_CHUNK (64 * 1024)

static bool init_from_file(const runarg *a, ws_devmem *mem, uint64_t addr, char *err, size_t errsize)
{
    FILE *f = fopen(a->path, "rb");
    if (!f)
        return fail(err, errsize, "cannot read '%s' for '%s': %s", a->path, a->spec, strerror(errno));
    uint64_t want = runarg_buffer_bytes(a);
    bool ok = true;
    if (fseeko(f, 0, SEEK_END) != 0) {
        ok = fail(err, errsize, "cannot read '%s' for '%s': not a regular file", a->path, a->spec);
    } else {
        off_t size = ftello(f);
        if (size < 0 || (uint64_t)size != want)
            ok = fail(err, errsize, "'%s' holds %lld bytes but '%s' needs %" PRIu64 " (%" PRIu64 " x %u)",
                      a->path, (long long)size, a->spec, want, a->count, runarg_type_size(a->type));
    }
    if (ok)
        rewind(f);
    uint8_t *buf = ok ? malloc(RUNARG_CHUNK) : NULL;
    if (ok && !buf)
        ok = fail(err, errsize, "out of memory");
    for (uint64_t done = 0; ok && done < want;) {
        size_t n = want - done < RUNARG_CHUNK ? (size_t)(want - done) : RUNARG_CHUNK;
        if (fread(buf, 1, n, f) != n)
            ok = fail(err, errsize, "cannot read '%s': short read", a->path);
        else if (!ws_devmem_write(mem, addr + done, buf, n))
            ok = fail(err, errsize, "cannot write '%s' into device memory", a->spec);
        done += n;
    }
    free(buf);
    fclose(f);
    return ok;
}

bool runarg_init_buffer(const runarg *a, ws_devmem *mem, uint64_t addr, char *err, size_t errsize)
{
    if (a->init == RUNARG_INIT_FILE)
        return init_from_file(a, mem, addr, err, errsize);
    if (a->init == RUNARG_INIT_NONE)
        return true;    /* never written, as cudaMalloc leaves it (it reads as zero) */
    if (a->init == RUNARG_INIT_ZERO) {     /* a new allocation reads as zero: written for initcheck */
        if (!ws_devmem_mark_init(mem, addr, runarg_buffer_bytes(a)))
            return fail(err, errsize, "out of memory");
        return true;
    }
    uint32_t es = runarg_type_size(a->type);
    uint64_t per = RUNARG_CHUNK / es;
    uint8_t *buf = malloc(RUNARG_CHUNK);
    if (!buf)
        return fail(err, errsize, "out of memory");
    bool ok = true;
    for (uint64_t i = 0; ok && i < a->count; i += per) {
        uint64_t n = a->count - i < per ? a->count - i : per;
        runarg_generate(a, i, n, buf);
        if (!ws_devmem_write(mem, addr + i * es, buf, n * es))
            ok = fail(err, errsize, "cannot write '%s' into device memory", a->spec);
    }
    free(buf);
    return ok;
}

/* Shortest %g precision that reads back as v (max_digits always does);
 * integral values below 10^max_digits are written out, not as 1e+02. */
static void format_real(double v, bool is_f32, char *buf, size_t size)
{
    int max_digits = is_f32 ? 9 : 17, p = 1;
    for (; p < max_digits; p++) {
        snprintf(buf, size, "%.*g", p, v);
        if (isnan(v) || (is_f32 ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v))
            break;
    }
    if (isfinite(v) && v != 0) {
        int e = (int)floor(log10(fabs(v)));
        if (e >= p && e < max_digits)
            p = e + 1;
    }
    snprintf(buf, size, "%.*g", p, v);
}

void runarg_format(runarg_type t, const uint8_t *elem, char *buf, size_t size)
{
    uint64_t b = runarg_load(t, elem);
    switch (t) {
    case RUNARG_I8:  snprintf(buf, size, "%d", (int8_t)b); break;
    case RUNARG_I32: snprintf(buf, size, "%" PRId32, (int32_t)b); break;
    case RUNARG_I64: snprintf(buf, size, "%" PRId64, (int64_t)b); break;
    case RUNARG_F32: format_real((double)bits_f32(b), true, buf, size); break;
    case RUNARG_F64: format_real(bits_f64(b), false, buf, size); break;
    default: snprintf(buf, size, "%" PRIu64, b); break;
    }
}

/* ---- the command line ---- */

void runarg_print_help(FILE *out)
{
    fprintf(out,
"usage: warpsim run FILE.ptx --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
"                   [--smem BYTES] --arg SPEC ... [--dump I=PATH] [--print I[:COUNT]]\n"
"                   [--json] [--summary full|short|none] [--lines] [--lines-out FILE]\n"
"                   [--report FILE.html] [--threads N] [--host-times FILE]\n"
"\n"
"Runs one kernel of FILE.ptx in the simulator and shows what it computed.\n"
"\n"
"  --kernel NAME       the kernel, by its mangled or demangled name: for a\n"
"                      template, 'void reduceStage<256, 0>(float*, int)',\n"
"                      'reduceStage<256, 0>', or 'reduceStage' when only one\n"
"                      kernel has that name\n"
"  --grid X[,Y[,Z]]    blocks in the grid (x < 2^31, y and z <= 65535)\n"
"  --block X[,Y[,Z]]   threads per block (x, y <= 1024, z <= 64, at most 1024 in all)\n"
"  --smem BYTES        dynamic shared memory (extern .shared) per block; default 0\n"
"  --arg SPEC          one per kernel parameter, in the order of the parameters:\n"
"                        i32:V u32:V i64:V u64:V f32:V f64:V   a scalar\n"
"                        buf:TYPE:COUNT:INIT                   a device buffer of COUNT\n"
"                          elements, passed as a pointer (the parameter must be 8 bytes)\n"
"                      integers are decimal or 0x hex (hex is a bit pattern; negative\n"
"                      values only for i types); floats are decimal, hex float, inf, nan,\n"
"                      or bit patterns 0fXXXXXXXX (f32) and 0dXXXXXXXXXXXXXXXX (f64)\n"
"                      TYPE: i8 u8 i32 u32 i64 u64 f32 f64\n"
"                      INIT: zero        all zero\n"
"                            none        not written (reads as zero; --initcheck\n"
"                                        reports reads of it)\n"
"                            iota        0, 1, 2, ... converted to TYPE (integers wrap)\n"
"                            fill=V      every element V\n"
"                            rand=SEED   deterministic pseudo-random values: integers\n"
"                                        uniform in [-%d, %d] (signed) or [0, %d]\n"
"                                        (unsigned), floats uniform in [-1, 1); element i\n"
"                                        comes from the i-th output of splitmix64(SEED)\n"
"                            file=PATH   raw little-endian elements; the file must hold\n"
"                                        exactly COUNT elements\n"
"  --dump I=PATH       after the kernel, write buffer argument I (0-based position in\n"
"                      the --arg list) to PATH as raw little-endian bytes\n"
"  --print I[:COUNT]   after the kernel, print the first COUNT (default %d) elements\n"
"                      of buffer argument I\n"
"  --max-warp-insts N  stop the launch after N warp instructions; default 0, no\n"
"                      limit (a kernel that spins is stopped when it makes no\n"
"                      progress, see docs/FAULTS.md)\n"
"  --progress-limit N  stop the launch after N warp instructions without progress\n"
"                      (no store, no atomic that changed memory, no barrier\n"
"                      completed, no exit); default 2^24\n"
"  --timeout S         stop the launch after S seconds of wall-clock time\n"
"  --max-cycles N      stop the launch after N simulated cycles\n"
"  --threads N         simulate the SMs on N threads (default: the machine's\n"
"                      cores); the results are the same for any N (docs/THREADS.md)\n"
"  --window N          let each SM run N cycles on its own before the SMs meet\n"
"                      (default: the L2 latency, where the kernel allows; 1:\n"
"                      cycle by cycle; docs/THREADS.md)\n"
"  --host-times FILE   write the launch's wall-clock time in the simulator to\n"
"                      FILE as a JSON line, and why it ran cycle by cycle where\n"
"                      it did (docs/THREADS.md, \"Host times\")\n"
"  --racecheck         report shared-memory accesses by different warps to the same\n"
"                      word with no barrier between (docs/FAULTS.md)\n"
"  --synccheck         report barriers reached in divergent code and barriers\n"
"                      waited on with different thread counts\n"
"  --initcheck         report reads of global memory never written (a\n"
"                      buf:TYPE:COUNT:none buffer) and of shared memory not\n"
"                      written since the block started\n"
"  --gpu NAME          the GPU whose timing model runs the kernel: a config in\n"
"                      configs/ (a100, h100, h200, rtx4090, rtx2080ti, teaching) or\n"
"                      the path of one; default: the one of the PTX's .target\n"
"                      (a100 for sm_80, h100 for sm_90), else a100.  A GPU\n"
"                      older than the .target cannot run the PTX (an error)\n"
"  --regs N            registers per thread for the occupancy rule; default: from\n"
"                      ptxas -v when the CUDA toolkit is installed, else an estimate\n"
"                      from the PTX (the summary says which)\n"
"  --functional        compute the results without the timing model (faster; no\n"
"                      cycles, caches or stall reasons in the summary)\n"
"  --json              print the summary as one line of JSON instead of text\n"
"  --summary MODE      full (default: every counter), short (one line) or none\n"
"  --lines             after the summary, where the work went per source line\n"
"                      (the .cu line when the PTX has .loc line info, from\n"
"                      nvcc -lineinfo; else the PTX line), most costly first,\n"
"                      with a sentence on each line far from ideal\n"
"  --lines-out FILE    the same as JSON lines: one object per kernel and line\n"
"  --report FILE.html  one self-contained HTML page: summary, occupancy and its\n"
"                      limiter, the per-line table beside the source, charts of\n"
"                      stalls, bank conflicts and sectors per line, and a\n"
"                      warp-issue timeline per SM\n"
"  --sass FILE         count and time memory accesses as the SASS listing FILE\n"
"                      (nvdisasm -c -g of the PTX's cubin) has them: PTX loads or\n"
"                      stores ptxas merged into one wide access count and take\n"
"                      the time of that access (docs/SASS.md); the summary says\n"
"                      which counters it shows\n"
"  --trace FILE        write an issue trace to FILE (- for stdout): one event per\n"
"                      warp instruction issued: cycle, SM, block, warp, PC,\n"
"                      instruction, active and executed lanes, source line, and\n"
"                      for memory the banks and passes (shared) or sectors and\n"
"                      lines (global); with --functional each warp instruction\n"
"                      takes one cycle (docs/TRACE.md)\n"
"  --trace-format F    text (default), json (one object per line) or chrome\n"
"                      (trace-event JSON for Perfetto / chrome://tracing: a track\n"
"                      per SM and warp, microseconds at the GPU's clock)\n"
"  --trace-block N     only block N (linear index x + y*gx + z*gx*gy)\n"
"  --trace-warp N      only warp N of each block\n"
"  --trace-pc A:B      only instructions A to B (the PC the trace shows)\n"
"  --trace-cycles A:B  only issues in cycles A to B\n"
"  --trace-limit N     stop the trace after N events, with a note (default\n"
"                      2000000; 0 = no limit)\n"
"  -h, --help          this text\n"
"\n"
"A summary goes to stderr: cycles and time at the GPU's clock, IPC, occupancy,\n"
"instructions, SIMD efficiency, branches, shared-memory wavefronts and bank\n"
"conflicts, global requests, sectors and 128 B lines, L1/L2 hit rates, DRAM bytes\n"
"and stall reasons, named as Nsight Compute names them.\n"
"\n"
"Exit status: 0 success; 1 the kernel faulted or the GPU cannot launch it;\n"
"2 nothing ran: bad usage, or an input file that cannot be read, is not valid\n"
"PTX or uses PTX that warpsim does not support (FILE:LINE:COL: error: ...).\n"
"\n"
"example:\n"
"  warpsim run vecadd.ptx --kernel vecAdd --grid 4 --block 256 \\\n"
"      --arg buf:f32:1000:iota --arg buf:f32:1000:fill=2 --arg buf:f32:1000:zero \\\n"
"      --arg i32:1000 --print 2:8\n",
            RUNARG_RAND_INT_MAX, RUNARG_RAND_INT_MAX, RUNARG_RAND_INT_MAX, RUNARG_PRINT_DEFAULT);
}

/* Parses a non-negative index "I" at the start of s; returns a pointer
 * past it, or NULL. */
static const char *parse_index(const char *s, int *idx)
{
    uint64_t v = 0;
    const char *p = s;
    while (*p >= '0' && *p <= '9' && v <= INT32_MAX)
        v = v * 10 + (uint64_t)(*p++ - '0');
    if (p == s || v > INT32_MAX)
        return NULL;
    *idx = (int)v;
    return p;
}

static bool parse_dump(const char *s, runarg_dump *d, char *err, size_t errsize)
{
    const char *p = parse_index(s, &d->arg);
    if (!p || *p != '=' || !p[1])
        return fail(err, errsize, "bad --dump '%s': want I=PATH", s);
    d->path = p + 1;
    return true;
}

static bool parse_print(const char *s, runarg_print *pr, char *err, size_t errsize)
{
    const char *p = parse_index(s, &pr->arg);
    pr->count = RUNARG_PRINT_DEFAULT;
    bool hex;
    if (!p || (*p && (*p != ':' || !parse_u64(p + 1, &pr->count, &hex))))
        return fail(err, errsize, "bad --print '%s': want I or I:COUNT", s);
    return true;
}

static bool check_buffer_index(const runarg_options *o, const char *opt, int idx,
                               char *err, size_t errsize)
{
    if (idx >= o->nargs)
        return fail(err, errsize, "%s %d: there are only %d --arg arguments (numbered from 0)",
                    opt, idx, o->nargs);
    if (!o->args[idx].is_buffer)
        return fail(err, errsize, "%s %d: argument %d ('%s') is not a buffer", opt, idx, idx,
                    o->args[idx].spec);
    return true;
}

/* ---- the options of run and exec: one table ---- */

enum { FOR_RUN = 1, FOR_EXEC = 2, FOR_BOTH = 3 };

static const struct option_info {
    const char *name;
    bool value;         /* takes a value (else a flag) */
    bool repeats;       /* may be given more than once */
    int cmds;           /* FOR_RUN, FOR_EXEC */
} options[RUNOPT_COUNT] = {
    [RUNOPT_KERNEL] = {"--kernel", true, false, FOR_RUN},
    [RUNOPT_GRID] = {"--grid", true, false, FOR_RUN},
    [RUNOPT_BLOCK] = {"--block", true, false, FOR_RUN},
    [RUNOPT_SMEM] = {"--smem", true, false, FOR_RUN},
    [RUNOPT_ARG] = {"--arg", true, true, FOR_RUN},
    [RUNOPT_DUMP] = {"--dump", true, true, FOR_RUN},
    [RUNOPT_PRINT] = {"--print", true, true, FOR_RUN},
    [RUNOPT_REGS] = {"--regs", true, false, FOR_RUN},
    [RUNOPT_GPU] = {"--gpu", true, false, FOR_BOTH},
    [RUNOPT_JSON] = {"--json", false, true, FOR_BOTH},
    [RUNOPT_SUMMARY] = {"--summary", true, false, FOR_BOTH},
    [RUNOPT_NO_SUMMARY] = {"--no-summary", false, true, FOR_EXEC},
    [RUNOPT_SUMMARY_OUT] = {"--summary-out", true, false, FOR_EXEC},
    [RUNOPT_LINES] = {"--lines", false, true, FOR_BOTH},
    [RUNOPT_LINES_OUT] = {"--lines-out", true, false, FOR_BOTH},
    [RUNOPT_FUNCTIONAL] = {"--functional", false, true, FOR_BOTH},
    [RUNOPT_RACECHECK] = {"--racecheck", false, true, FOR_BOTH},
    [RUNOPT_SYNCCHECK] = {"--synccheck", false, true, FOR_BOTH},
    [RUNOPT_INITCHECK] = {"--initcheck", false, true, FOR_BOTH},
    [RUNOPT_LEAK_CHECK] = {"--leak-check", false, true, FOR_EXEC},
    [RUNOPT_MAX_WARP_INSTS] = {"--max-warp-insts", true, false, FOR_BOTH},
    [RUNOPT_PROGRESS_LIMIT] = {"--progress-limit", true, false, FOR_BOTH},
    [RUNOPT_TIMEOUT] = {"--timeout", true, false, FOR_BOTH},
    [RUNOPT_MAX_CYCLES] = {"--max-cycles", true, false, FOR_BOTH},
    [RUNOPT_TRACE] = {"--trace", true, false, FOR_BOTH},
    [RUNOPT_TRACE_FORMAT] = {"--trace-format", true, false, FOR_BOTH},
    [RUNOPT_TRACE_KERNEL] = {"--trace-kernel", true, false, FOR_EXEC},
    [RUNOPT_TRACE_LAUNCH] = {"--trace-launch", true, false, FOR_EXEC},
    [RUNOPT_TRACE_BLOCK] = {"--trace-block", true, false, FOR_BOTH},
    [RUNOPT_TRACE_WARP] = {"--trace-warp", true, false, FOR_BOTH},
    [RUNOPT_TRACE_PC] = {"--trace-pc", true, false, FOR_BOTH},
    [RUNOPT_TRACE_CYCLES] = {"--trace-cycles", true, false, FOR_BOTH},
    [RUNOPT_TRACE_LIMIT] = {"--trace-limit", true, false, FOR_BOTH},
    [RUNOPT_KEEP_PTX] = {"--keep-ptx", true, false, FOR_EXEC},
    [RUNOPT_REPORT] = {"--report", true, false, FOR_BOTH},
    [RUNOPT_SASS] = {"--sass", true, false, FOR_BOTH},
    [RUNOPT_SIMULATE_ALL] = {"--simulate-all", false, true, FOR_EXEC},
    [RUNOPT_THREADS] = {"--threads", true, false, FOR_BOTH},
    [RUNOPT_WINDOW] = {"--window", true, false, FOR_BOTH},
    [RUNOPT_HOST_TIMES] = {"--host-times", true, false, FOR_BOTH},
};

static const char *const cmd_name[] = {[FOR_RUN] = "run", [FOR_EXEC] = "exec"};

/* The option a (--opt or --opt=VALUE) names for cmd, or -1. */
static int find_option(const char *a, int cmd, size_t *nlen)
{
    const char *eq = strchr(a, '=');
    *nlen = eq ? (size_t)(eq - a) : strlen(a);
    for (int k = 0; k < RUNOPT_COUNT; k++)
        if ((options[k].cmds & cmd) && strlen(options[k].name) == *nlen && !strncmp(a, options[k].name, *nlen))
            return k;
    return -1;
}

/* Takes the repeated options' values into o's lists as they come. */
static bool take_repeated(runarg_options *o, int which, const char *val, char *err, size_t errsize)
{
    switch (which) {
    case RUNOPT_ARG:
        if (!runarg_parse_spec(val, &o->args[o->nargs], err, errsize)) return false;
        o->nargs++;
        return true;
    case RUNOPT_DUMP:
        if (!parse_dump(val, &o->dumps[o->ndumps], err, errsize)) return false;
        o->ndumps++;
        return true;
    case RUNOPT_PRINT:
        if (!parse_print(val, &o->prints[o->nprints], err, errsize)) return false;
        o->nprints++;
        return true;
    default:
        return true;
    }
}

/* One option at argv[*i] into o->given (and the lists); false with a
 * message when unknown, missing its value or given twice. */
static bool take_option(int argc, char **argv, int *i, int cmd, runarg_options *o, char *err, size_t errsize)
{
    const char *a = argv[*i];
    size_t nlen;
    int which = find_option(a, cmd, &nlen);
    if (which < 0)
        return fail(err, errsize, "unknown option '%.*s' (see 'warpsim %s --help')", (int)nlen, a, cmd_name[cmd]);
    const struct option_info *opt = &options[which];
    const char *eq = strchr(a, '=');
    const char *val = "1";
    if (opt->value) {
        val = eq ? eq + 1 : NULL;
        if (!val) {
            /* "--" ends exec's options: an option before it that wants a
             * value has none (not a file named "--") */
            if (*i + 1 >= argc || !strcmp(argv[*i + 1], "--")) return fail(err, errsize, "%s needs a value", a);
            val = argv[++*i];
        }
        if (!*val) return fail(err, errsize, "%s needs a value", opt->name);
    } else if (eq) {
        return fail(err, errsize, "%s takes no value", opt->name);
    }
    if (o->given[which] && !opt->repeats) return fail(err, errsize, "%s given twice", opt->name);
    o->given[which] = val;
    return take_repeated(o, which, val, err, errsize);
}

static bool parse_count_opt(const char *val, const char *name, const char *what, bool zero_ok, uint64_t *v,
                            char *err, size_t errsize)
{
    bool hex;
    if (!parse_u64(val, v, &hex) || (!zero_ok && *v == 0))
        return fail(err, errsize, "bad %s '%s': want %s", name, val, what);
    return true;
}

/* The limits of a launch: --max-warp-insts, --progress-limit,
 * --max-cycles, --timeout. */
static bool check_limits(runarg_options *o, char *err, size_t errsize)
{
    const char *const *g = o->given;
    if (g[RUNOPT_MAX_WARP_INSTS] && !parse_count_opt(g[RUNOPT_MAX_WARP_INSTS], "--max-warp-insts", "a count",
                                                     true, &o->max_warp_insts, err, errsize))
        return false;
    if (g[RUNOPT_PROGRESS_LIMIT] &&
        !parse_count_opt(g[RUNOPT_PROGRESS_LIMIT], "--progress-limit", "a count of warp instructions", false,
                         &o->progress_limit, err, errsize))
        return false;
    if (g[RUNOPT_MAX_CYCLES] && !parse_count_opt(g[RUNOPT_MAX_CYCLES], "--max-cycles", "a count of cycles",
                                                 false, &o->max_cycles, err, errsize))
        return false;
    if (g[RUNOPT_THREADS]) {
        uint64_t n = 0;
        if (!parse_count_opt(g[RUNOPT_THREADS], "--threads", "a number of threads, 1 to 64", false, &n, err,
                             errsize))
            return false;
        if (n > 64) return fail(err, errsize, "bad --threads '%s': want a number of threads, 1 to 64",
                                g[RUNOPT_THREADS]);
        o->threads = (int32_t)n;
    }
    if (g[RUNOPT_WINDOW]) {
        uint64_t n = 0;
        if (!parse_count_opt(g[RUNOPT_WINDOW], "--window", "a number of cycles, 1 to 1000", false, &n, err, errsize))
            return false;
        if (n > 1000) return fail(err, errsize, "bad --window '%s': want a number of cycles, 1 to 1000",
                                  g[RUNOPT_WINDOW]);
        o->window = (uint32_t)n;
    }
    if (g[RUNOPT_TIMEOUT]) {
        char *end = NULL;
        o->timeout_s = strtod(g[RUNOPT_TIMEOUT], &end);
        if (*end || !(o->timeout_s > 0))
            return fail(err, errsize, "bad --timeout '%s': want seconds", g[RUNOPT_TIMEOUT]);
    }
    return true;
}

static const int trace_filter_options[] = {RUNOPT_TRACE_KERNEL, RUNOPT_TRACE_LAUNCH, RUNOPT_TRACE_BLOCK,
                                           RUNOPT_TRACE_WARP, RUNOPT_TRACE_PC, RUNOPT_TRACE_CYCLES,
                                           RUNOPT_TRACE_LIMIT};

static bool check_trace(runarg_options *o, char *err, size_t errsize)
{
    const char *const *g = o->given;
    o->trace = g[RUNOPT_TRACE];
    o->trace_filter = (ws_trace_filter)WS_TRACE_FILTER_ALL;
    o->trace_format = WS_TRACE_TEXT;
    bool any = g[RUNOPT_TRACE_FORMAT] != NULL;
    for (size_t k = 0; k < sizeof trace_filter_options / sizeof trace_filter_options[0]; k++) {
        const char *val = g[trace_filter_options[k]];
        if (!val) continue;
        any = true;
        /* "--trace-block" -> "block" */
        if (!ws_trace_parse_option(&o->trace_filter, options[trace_filter_options[k]].name + 8, val, err, errsize))
            return false;
    }
    if (any && !o->trace) return fail(err, errsize, "the --trace-* options need --trace FILE");
    ws_trace_format tf;
    if (g[RUNOPT_TRACE_FORMAT]) {
        if (!ws_trace_parse_format(g[RUNOPT_TRACE_FORMAT], &tf))
            return fail(err, errsize, "bad --trace-format '%s': want text, json or chrome", g[RUNOPT_TRACE_FORMAT]);
        o->trace_format = (int)tf;
    }
    return true;
}

/* What run and exec check alike: the summary, limits, checks, trace. */
static bool check_common(runarg_options *o, int cmd, char *err, size_t errsize)
{
    const char *const *g = o->given;
    o->gpu = g[RUNOPT_GPU];
    o->json = g[RUNOPT_JSON] != NULL;
    o->lines = g[RUNOPT_LINES] != NULL;
    o->lines_out = g[RUNOPT_LINES_OUT];
    o->host_times = g[RUNOPT_HOST_TIMES];
    if (o->host_times) {    /* made empty now, before anything runs: a launch adds its line */
        FILE *f = fopen(o->host_times, "w");
        if (!f || fclose(f) != 0)
            return fail(err, errsize, "--host-times: cannot write '%s': %s", o->host_times, strerror(errno));
    }
    o->report = g[RUNOPT_REPORT];
    o->sass = g[RUNOPT_SASS];
    o->functional = g[RUNOPT_FUNCTIONAL] != NULL;
    o->checks = (g[RUNOPT_RACECHECK] ? WS_CHECK_RACE : 0u) | (g[RUNOPT_SYNCCHECK] ? WS_CHECK_SYNC : 0u) |
                (g[RUNOPT_INITCHECK] ? WS_CHECK_INIT : 0u);
    o->summary_out = g[RUNOPT_SUMMARY_OUT];
    o->leak_check = g[RUNOPT_LEAK_CHECK] != NULL;
    o->keep_ptx = g[RUNOPT_KEEP_PTX];
    o->max_warp_insts = cmd == FOR_RUN ? WS_DEFAULT_MAX_WARP_INSTS : 0;
    if (!check_limits(o, err, errsize)) return false;
    if (o->functional && g[RUNOPT_MAX_CYCLES])
        return fail(err, errsize, "--functional runs no timing model: --max-cycles does not apply");
    if (o->functional && g[RUNOPT_THREADS])
        return fail(err, errsize, "--functional runs on one thread: --threads applies to the timing model");
    if (o->functional && g[RUNOPT_WINDOW])
        return fail(err, errsize, "--functional runs no timing model: --window applies to the timing model");
    if (o->functional && g[RUNOPT_SIMULATE_ALL])
        return fail(err, errsize, "--functional runs no timing model: --simulate-all does not apply");
    ws_summary_mode mode = WS_SUMMARY_FULL;
    if (g[RUNOPT_SUMMARY] && !ws_summary_parse_mode(g[RUNOPT_SUMMARY], &mode))
        return fail(err, errsize, "bad --summary '%s': want full, short or none", g[RUNOPT_SUMMARY]);
    if (g[RUNOPT_NO_SUMMARY]) {
        if (g[RUNOPT_SUMMARY] && mode != WS_SUMMARY_NONE)
            return fail(err, errsize, "--no-summary and --summary %s disagree", g[RUNOPT_SUMMARY]);
        mode = WS_SUMMARY_NONE;
    }
    o->summary = (int)mode;
    return check_trace(o, err, errsize);
}

static bool alloc_lists(runarg_options *o, int argc, char *err, size_t errsize)
{
    memset(o, 0, sizeof *o);
    size_t cap = argc > 0 ? (size_t)argc : 1;
    o->args = calloc(cap, sizeof *o->args);
    o->dumps = calloc(cap, sizeof *o->dumps);
    o->prints = calloc(cap, sizeof *o->prints);
    return (o->args && o->dumps && o->prints) || fail(err, errsize, "out of memory");
}

/* What only run checks: the PTX, kernel, dimensions, --smem, --regs,
 * --dump and --print. */
static bool check_run(runarg_options *o, char *err, size_t errsize)
{
    const char *const *g = o->given;
    o->kernel = g[RUNOPT_KERNEL];
    o->functional = g[RUNOPT_FUNCTIONAL] != NULL;
    if (!o->ptx_path) return fail(err, errsize, "no PTX file given");
    if (!o->kernel) return fail(err, errsize, "missing --kernel NAME");
    if (!g[RUNOPT_GRID]) return fail(err, errsize, "missing --grid X[,Y[,Z]]");
    if (!g[RUNOPT_BLOCK]) return fail(err, errsize, "missing --block X[,Y[,Z]]");
    char msg[256];
    if (!runarg_parse_dim3(g[RUNOPT_GRID], &o->grid, msg, sizeof msg) || !runarg_check_grid(o->grid, msg, sizeof msg))
        return fail(err, errsize, "--grid: %s", msg);
    if (!runarg_parse_dim3(g[RUNOPT_BLOCK], &o->block, msg, sizeof msg) ||
        !runarg_check_block(o->block, msg, sizeof msg))
        return fail(err, errsize, "--block: %s", msg);
    uint64_t v;
    if (g[RUNOPT_SMEM]) {
        if (!parse_count_opt(g[RUNOPT_SMEM], "--smem", "a byte count", true, &v, err, errsize)) return false;
        if (v > UINT32_MAX) return fail(err, errsize, "bad --smem '%s': want a byte count", g[RUNOPT_SMEM]);
        o->smem = (uint32_t)v;
    }
    if (g[RUNOPT_REGS]) {
        bool hex;
        if (!parse_u64(g[RUNOPT_REGS], &v, &hex) || v < 1 || v > 255)
            return fail(err, errsize, "bad --regs '%s': want registers per thread, 1 to 255", g[RUNOPT_REGS]);
        o->regs = (int32_t)v;
    }
    if (o->functional && (g[RUNOPT_GPU] || g[RUNOPT_REGS]))
        return fail(err, errsize, "--functional runs no timing model: --gpu and --regs do not apply");
    for (int k = 0; k < o->ndumps; k++)
        if (!check_buffer_index(o, "--dump", o->dumps[k].arg, err, errsize)) return false;
    for (int k = 0; k < o->nprints; k++)
        if (!check_buffer_index(o, "--print", o->prints[k].arg, err, errsize)) return false;
    return true;
}

runarg_status runarg_parse_cmdline(int argc, char **argv, runarg_options *o,
                                   char *err, size_t errsize)
{
    if (!alloc_lists(o, argc, err, errsize)) goto out;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            runarg_options_free(o);
            return RUNARG_HELP;
        }
        if (a[0] != '-' || a[1] == '\0') {
            if (o->ptx_path) {
                fail(err, errsize, "more than one PTX file: '%s' and '%s'", o->ptx_path, a);
                goto out;
            }
            o->ptx_path = a;
            continue;
        }
        if (!take_option(argc, argv, &i, FOR_RUN, o, err, errsize)) goto out;
    }
    if (check_run(o, err, errsize) && check_common(o, FOR_RUN, err, errsize)) return RUNARG_OK;
out:
    runarg_options_free(o);
    return RUNARG_ERROR;
}

runarg_status runarg_parse_exec(int argc, char **argv, runarg_options *o, int *program,
                                char *err, size_t errsize)
{
    if (!alloc_lists(o, argc, err, errsize)) goto out;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            runarg_options_free(o);
            return RUNARG_HELP;
        }
        if (a[0] != '-') break;     /* the program, without a "--" before it */
        if (!take_option(argc, argv, &i, FOR_EXEC, o, err, errsize)) goto out;
    }
    if (i >= argc) {
        fail(err, errsize, "no program given");
        goto out;
    }
    *program = i;
    if (check_common(o, FOR_EXEC, err, errsize)) return RUNARG_OK;
out:
    runarg_options_free(o);
    return RUNARG_ERROR;
}
void runarg_options_free(runarg_options *o)
{
    free(o->args);
    free(o->dumps);
    free(o->prints);
    memset(o, 0, sizeof *o);
}
