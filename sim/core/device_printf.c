/* Device printf: what vprintf does with the format string and the argument
 * buffer that nvcc builds for a printf call in a kernel.
 *
 * The format is read from device memory; each conversion takes its argument
 * from the buffer at the argument's natural alignment: int-sized (4 bytes)
 * for d i u o x X c and the h/hh forms, 8 bytes for l ll z j t, %p and %s
 * (a device address), 8 bytes (a double) for every floating conversion.
 * Each conversion is then formatted by the host's snprintf with the same
 * flags, width and precision.  A conversion that cannot be formatted (an
 * unknown one, %n, or one whose argument is missing from the buffer) is
 * copied to the output as written, as CUDA's printf does with what it does
 * not understand.  The text is written to out only when all of it could be
 * formatted, so a fault leaves no partial line. */
#include "warp_ops.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define PRINTF_MAX_STRING (1u << 20)   /* longest format or %s string read */

typedef struct pf_state {
    const uint8_t *args;
    size_t args_size, pos;
    ws_read_fn rd;
    void *ctx;
    FILE *text;                 /* the memory stream being written */
    char *why;
    size_t why_size;
} pf_state;

/* Reads a NUL-terminated string from device memory into a new buffer. */
static char *read_device_string(pf_state *s, uint64_t addr, const char *what)
{
    size_t cap = 64, n = 0;
    char *buf = malloc(cap);
    if (!buf) { snprintf(s->why, s->why_size, "out of memory"); return NULL; }
    for (;;) {
        char ch;
        if (!s->rd(s->ctx, addr + n, &ch, 1)) {
            snprintf(s->why, s->why_size, "printf: cannot read the %s at 0x%" PRIx64, what, addr + n);
            free(buf);
            return NULL;
        }
        if (n + 1 >= cap) {
            if (cap >= PRINTF_MAX_STRING) {
                snprintf(s->why, s->why_size, "printf: the %s at 0x%" PRIx64 " is not terminated within %u bytes",
                         what, addr, PRINTF_MAX_STRING);
                free(buf);
                return NULL;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); snprintf(s->why, s->why_size, "out of memory"); return NULL; }
            buf = nb;
            cap *= 2;
        }
        buf[n++] = ch;
        if (ch == '\0') return buf;
    }
}

/* Takes the next argument of size bytes (4 or 8) at its natural alignment. */
static bool next_arg(pf_state *s, uint32_t size, uint64_t *v)
{
    size_t at = (s->pos + size - 1) / size * size;
    if (at > s->args_size || s->args_size - at < size) return false;
    if (size == 8) {
        uint64_t x;
        memcpy(&x, s->args + at, 8);
        *v = x;
    } else {
        uint32_t x;
        memcpy(&x, s->args + at, 4);
        *v = x;
    }
    s->pos = at + size;
    return true;
}

/* One parsed conversion specification. */
typedef struct pf_spec {
    char flags[8];
    int nflags;
    bool has_width, width_star, has_prec, prec_star;
    int width, prec;
    int len;            /* 0 none, 'H' hh, 'h', 'l', 'L' ll (also z j t q), 'D' long double */
    char conv;
} pf_spec;

/* Parses the specification after '%' at f; returns the character after it,
 * or NULL when the format ends inside it. */
static const char *parse_spec(const char *f, pf_spec *sp)
{
    memset(sp, 0, sizeof *sp);
    while (*f && strchr("-+ #0'", *f)) {
        if (sp->nflags < (int)sizeof sp->flags - 1 && !strchr(sp->flags, *f)) sp->flags[sp->nflags++] = *f;
        f++;
    }
    if (*f == '*') { sp->has_width = sp->width_star = true; f++; }
    else if (*f >= '0' && *f <= '9') {
        sp->has_width = true;
        while (*f >= '0' && *f <= '9') { if (sp->width < 100000) sp->width = sp->width * 10 + (*f - '0'); f++; }
    }
    if (*f == '.') {
        sp->has_prec = true;
        f++;
        if (*f == '*') { sp->prec_star = true; f++; }
        else while (*f >= '0' && *f <= '9') { if (sp->prec < 100000) sp->prec = sp->prec * 10 + (*f - '0'); f++; }
    }
    if (f[0] == 'h' && f[1] == 'h') { sp->len = 'H'; f += 2; }
    else if (f[0] == 'l' && f[1] == 'l') { sp->len = 'L'; f += 2; }
    else if (*f == 'h') { sp->len = 'h'; f++; }
    else if (*f == 'l') { sp->len = 'l'; f++; }
    else if (*f == 'z' || *f == 'j' || *f == 't' || *f == 'q') { sp->len = 'L'; f++; }
    else if (*f == 'L') { sp->len = 'D'; f++; }
    if (!*f) return NULL;
    sp->conv = *f;
    return f + 1;
}

/* The host format for sp: flags, width, precision (the '*' ones already
 * resolved), then host_len and the conversion. */
static void host_format(const pf_spec *sp, const char *host_len, char conv, char *out, size_t out_size)
{
    char wbuf[16] = "", pbuf[16] = "";
    if (sp->has_width) snprintf(wbuf, sizeof wbuf, "%d", sp->width);
    if (sp->has_prec) snprintf(pbuf, sizeof pbuf, ".%d", sp->prec < 0 ? 0 : sp->prec);
    /* A negative '*' precision means "no precision", as in C. */
    if (sp->has_prec && sp->prec < 0) pbuf[0] = '\0';
    snprintf(out, out_size, "%%%s%s%s%s%c", sp->flags, wbuf, pbuf, host_len, conv);
}

/* Formats one conversion; false on a fault (why filled), *literal set when
 * it must be copied as written instead. */
static bool format_one(pf_state *s, pf_spec *sp, bool *literal)
{
    char fmt[64];
    uint64_t v;
    *literal = false;

    if (sp->width_star) {
        if (!next_arg(s, 4, &v)) { *literal = true; return true; }
        int32_t w = (int32_t)(uint32_t)v;
        if (w < 0) {    /* a negative '*' width is the '-' flag */
            if (!strchr(sp->flags, '-') && sp->nflags < (int)sizeof sp->flags - 1) sp->flags[sp->nflags++] = '-';
            w = w == INT32_MIN ? INT32_MAX : -w;
        }
        sp->width = w > 100000 ? 100000 : w;
    }
    if (sp->prec_star) {
        if (!next_arg(s, 4, &v)) { *literal = true; return true; }
        int32_t p = (int32_t)(uint32_t)v;
        sp->prec = p > 100000 ? 100000 : p;
    }

    switch (sp->conv) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': {
        bool wide = sp->len == 'l' || sp->len == 'L';
        if (!next_arg(s, wide ? 8 : 4, &v)) { *literal = true; return true; }
        bool is_signed = sp->conv == 'd' || sp->conv == 'i';
        host_format(sp, "ll", sp->conv, fmt, sizeof fmt);
        if (is_signed) {
            long long x = sp->len == 'H' ? (signed char)v : sp->len == 'h' ? (short)v
                        : wide ? (int64_t)v : (int32_t)(uint32_t)v;
            fprintf(s->text, fmt, x);
        } else {
            unsigned long long x = sp->len == 'H' ? (unsigned char)v : sp->len == 'h' ? (unsigned short)v
                                 : wide ? v : (uint32_t)v;
            fprintf(s->text, fmt, x);
        }
        return true;
    }
    case 'c':
        if (!next_arg(s, 4, &v)) { *literal = true; return true; }
        host_format(sp, "", 'c', fmt, sizeof fmt);
        fprintf(s->text, fmt, (int)(unsigned char)v);
        return true;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        if (!next_arg(s, 8, &v)) { *literal = true; return true; }
        double x;
        memcpy(&x, &v, 8);
        host_format(sp, "", sp->conv, fmt, sizeof fmt);
        fprintf(s->text, fmt, x);
        return true;
    }
    case 'p':
        if (!next_arg(s, 8, &v)) { *literal = true; return true; }
        host_format(sp, "", 'p', fmt, sizeof fmt);
        fprintf(s->text, fmt, (void *)(uintptr_t)v);
        return true;
    case 's': {
        if (!next_arg(s, 8, &v)) { *literal = true; return true; }
        host_format(sp, "", 's', fmt, sizeof fmt);
        if (v == 0) { fprintf(s->text, fmt, "(null)"); return true; }
        char *str = read_device_string(s, v, "%s string");
        if (!str) return false;
        fprintf(s->text, fmt, str);
        free(str);
        return true;
    }
    default:
        *literal = true;
        return true;
    }
}

int ws_device_printf(FILE *out, uint64_t fmt_addr, const uint8_t *args, size_t args_size,
                     ws_read_fn rd, void *ctx, char *why, size_t why_size)
{
    pf_state s = { .args = args, .args_size = args ? args_size : 0, .rd = rd, .ctx = ctx,
                   .why = why, .why_size = why_size };
    char *format = read_device_string(&s, fmt_addr, "format string");
    if (!format) return -1;

    char *text = NULL;
    size_t text_len = 0;
    s.text = open_memstream(&text, &text_len);
    if (!s.text) { free(format); snprintf(why, why_size, "out of memory"); return -1; }

    bool ok = true;
    const char *f = format;
    while (*f && ok) {
        if (*f != '%') { fputc(*f++, s.text); continue; }
        if (f[1] == '%') { fputc('%', s.text); f += 2; continue; }
        pf_spec sp;
        const char *end = parse_spec(f + 1, &sp);
        if (!end) { fputs(f, s.text); break; }   /* the format ends inside a conversion */
        bool literal;
        ok = format_one(&s, &sp, &literal);
        if (ok && literal) fwrite(f, 1, (size_t)(end - f), s.text);
        f = end;
    }
    fclose(s.text);
    free(format);

    int n = -1;
    if (ok) {
        n = text_len > INT32_MAX ? INT32_MAX : (int)text_len;
        if (fwrite(text, 1, text_len, out) != text_len) {
            snprintf(why, why_size, "printf: cannot write the output");
            n = -1;
        }
    }
    free(text);
    return n;
}
