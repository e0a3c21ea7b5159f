/* Itanium C++ ABI demangling ("Itanium C++ ABI", section 5.1 "External
 * Names"), the subset that kernel names use (see ptx_demangle.h).  The
 * output is spelled as c++filt spells it. */
#include "ptx_demangle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DM_MAX_SUBS 96
#define DM_MAX_TARGS 32
#define DM_STR PTX_DEMANGLED_MAX

typedef struct dm_state {
    const char *p;
    char subs[DM_MAX_SUBS][DM_STR];     /* substitution candidates, S_ S0_ S1_ ... */
    int nsubs;
    char targs[DM_MAX_TARGS][DM_STR];   /* the function's template arguments, T_ T0_ ... */
    bool targ_pack[DM_MAX_TARGS];
    int ntargs;
    bool ok;
} dm_state;

static bool dm_fail(dm_state *d)
{
    return d->ok = false;
}

/* Appends src to dst (DM_STR bytes); false when it does not fit. */
static bool dm_cat(dm_state *d, char *dst, const char *src)
{
    size_t n = strlen(dst), m = strlen(src);
    if (n + m >= DM_STR)
        return dm_fail(d);
    memcpy(dst + n, src, m + 1);
    return true;
}

static bool dm_set(dm_state *d, char *dst, const char *src)
{
    dst[0] = '\0';
    return dm_cat(d, dst, src);
}

static void dm_add_sub(dm_state *d, const char *s)
{
    if (d->nsubs < DM_MAX_SUBS)
        snprintf(d->subs[d->nsubs++], DM_STR, "%s", s);
    else
        d->ok = false;
}

static bool dm_digits(dm_state *d, unsigned long *n)
{
    if (*d->p < '0' || *d->p > '9')
        return dm_fail(d);
    *n = 0;
    while (*d->p >= '0' && *d->p <= '9') {
        if (*n > 100000000)
            return dm_fail(d);
        *n = *n * 10 + (unsigned long)(*d->p++ - '0');
    }
    return true;
}

/* <source-name> ::= <length> <identifier>; the names of unnamed namespaces
 * (_GLOBAL__N_...) print as c++filt prints them. */
static bool dm_source_name(dm_state *d, char *out)
{
    unsigned long len;
    if (*d->p < '1' || *d->p > '9' || !dm_digits(d, &len))
        return dm_fail(d);
    if (len >= DM_STR || strlen(d->p) < len)
        return dm_fail(d);
    if (len >= 10 && !strncmp(d->p, "_GLOBAL__N", 10)) {
        d->p += len;
        return dm_set(d, out, "(anonymous namespace)");
    }
    memcpy(out, d->p, len);
    out[len] = '\0';
    d->p += len;
    return true;
}

/* <seq-id> after 'S' or 'T': "_" is 0, "<base 36>_" is value + 1. */
static bool dm_seq_id(dm_state *d, int *idx)
{
    int v = 0;
    bool any = false;
    while ((*d->p >= '0' && *d->p <= '9') || (*d->p >= 'A' && *d->p <= 'Z')) {
        v = v * 36 + (*d->p <= '9' ? *d->p - '0' : *d->p - 'A' + 10);
        d->p++;
        any = true;
        if (v > 100000)
            return dm_fail(d);
    }
    if (*d->p++ != '_')
        return dm_fail(d);
    *idx = any ? v + 1 : 0;
    return true;
}

static const char *dm_builtin(char c)
{
    switch (c) {
    case 'v': return "void";            case 'w': return "wchar_t";
    case 'b': return "bool";            case 'c': return "char";
    case 'a': return "signed char";     case 'h': return "unsigned char";
    case 's': return "short";           case 't': return "unsigned short";
    case 'i': return "int";             case 'j': return "unsigned int";
    case 'l': return "long";            case 'm': return "unsigned long";
    case 'x': return "long long";       case 'y': return "unsigned long long";
    case 'n': return "__int128";        case 'o': return "unsigned __int128";
    case 'f': return "float";           case 'd': return "double";
    case 'e': return "long double";     case 'g': return "__float128";
    case 'z': return "...";
    default: return NULL;
    }
}

static bool dm_type(dm_state *d, char *out);
static bool dm_template_args(dm_state *d, char *out, bool record);

/* <expr-primary> ::= L <type> <value> E, for integer and enum values:
 * 256, 4u, 7l, 7ul, -9ll, 11ull, true, (short)-3, (Mode)1.  (A float's
 * value is hex digits, which dm_digits refuses.) */
static bool dm_literal(dm_state *d, char *out)
{
    char type[DM_STR], value[64];
    d->p++;                             /* L */
    char c = *d->p;
    const char *b = dm_builtin(c);
    if (b) {
        d->p++;
        snprintf(type, sizeof type, "%s", b);
    } else if (c == '_' || !dm_type(d, type)) {
        return dm_fail(d);              /* external names (L_Z...E) */
    }
    bool neg = *d->p == 'n';
    if (neg)
        d->p++;
    unsigned long v;
    if (!dm_digits(d, &v) || *d->p++ != 'E')
        return dm_fail(d);
    snprintf(value, sizeof value, "%s%lu", neg ? "-" : "", v);
    const char *suffix = NULL;
    switch (b ? c : 0) {
    case 'i': suffix = ""; break;       case 'j': suffix = "u"; break;
    case 'l': suffix = "l"; break;      case 'm': suffix = "ul"; break;
    case 'x': suffix = "ll"; break;     case 'y': suffix = "ull"; break;
    case 'b':
        if (!neg && v <= 1)
            return dm_set(d, out, v ? "true" : "false");
        break;
    default: break;
    }
    if (suffix)
        snprintf(out, DM_STR, "%s%s", value, suffix);
    else if ((size_t)snprintf(out, DM_STR, "(%s)%s", type, value) >= DM_STR)
        return dm_fail(d);
    return true;
}

/* <template-arg> ::= <type> | <expr-primary> | J <template-arg>* E (a pack). */
static bool dm_template_arg(dm_state *d, char *out, bool *pack)
{
    *pack = false;
    if (*d->p == 'L')
        return dm_literal(d, out);
    if (*d->p != 'J')
        return dm_type(d, out);
    d->p++;
    *pack = true;
    out[0] = '\0';
    char arg[DM_STR];
    bool inner;
    while (d->ok && *d->p && *d->p != 'E') {
        if (!dm_template_arg(d, arg, &inner))
            return false;
        if ((out[0] && !dm_cat(d, out, ", ")) || !dm_cat(d, out, arg))
            return false;
    }
    if (*d->p++ != 'E')
        return dm_fail(d);
    return true;
}

/* <template-args> ::= I <template-arg>+ E -> "<a, b>".  With record, the
 * arguments become those that T_, T0_, ... name. */
static bool dm_template_args(dm_state *d, char *out, bool record)
{
    char arg[DM_STR];
    bool pack;
    d->p++;                             /* I */
    if (record)
        d->ntargs = 0;
    if (!dm_set(d, out, "<"))
        return false;
    for (int n = 0; d->ok && *d->p && *d->p != 'E'; n++) {
        if (!dm_template_arg(d, arg, &pack))
            return false;
        if (record) {
            if (d->ntargs >= DM_MAX_TARGS)
                return dm_fail(d);
            snprintf(d->targs[d->ntargs], DM_STR, "%s", arg);
            d->targ_pack[d->ntargs++] = pack;
        }
        bool empty_pack = pack && !arg[0];
        if ((n && !empty_pack && out[1] && !dm_cat(d, out, ", ")) || !dm_cat(d, out, arg))
            return false;
    }
    if (*d->p++ != 'E')
        return dm_fail(d);
    size_t n = strlen(out);
    return dm_cat(d, out, n > 1 && out[n - 1] == '>' ? " >" : ">");
}

/* <template-param> ::= T_ | T <number> _ */
static bool dm_template_param(dm_state *d, char *out, bool *pack)
{
    int idx;
    d->p++;                             /* T */
    if (!dm_seq_id(d, &idx))
        return false;
    if (idx >= d->ntargs)
        return dm_fail(d);
    *pack = d->targ_pack[idx];
    return dm_set(d, out, d->targs[idx]);
}

/* <nested-name> ::= N [<CV-qualifiers>] <prefix> <unqualified-name> E,
 * each component a <source-name> or (first) a <substitution>, each
 * optionally followed by <template-args>.  Every proper prefix is a
 * substitution candidate (but one that is itself a substitution); the whole
 * is one too when it names a type (dm_type adds it).  *templated says
 * whether the last component had template arguments. */
static bool dm_nested(dm_state *d, char *out, bool record, bool *templated)
{
    char part[DM_STR];
    out[0] = '\0';
    d->p++;                             /* N */
    while (*d->p == 'K' || *d->p == 'V' || *d->p == 'r')
        d->p++;                         /* cv-qualifiers of member functions: none in kernels */
    bool first = true;
    *templated = false;
    while (d->ok && *d->p && *d->p != 'E') {
        bool was_sub = false;
        if (*d->p == 'I' && !first) {
            if (!dm_template_args(d, part, record) || !dm_cat(d, out, part))
                return false;
            *templated = true;
        } else if (*d->p == 'S' && first && d->p[1] != 't') {
            int idx;
            d->p++;
            if (!dm_seq_id(d, &idx) || idx >= d->nsubs || !dm_set(d, out, d->subs[idx]))
                return dm_fail(d);
            was_sub = true;
        } else {
            if (*d->p == 'S' && first) {
                d->p += 2;              /* St: ::std:: */
                if (!dm_set(d, out, "std"))
                    return false;
                first = false;
                continue;
            }
            if (!dm_source_name(d, part))
                return false;
            if ((!first && !dm_cat(d, out, "::")) || !dm_cat(d, out, part))
                return false;
            *templated = false;
        }
        first = false;
        if (!was_sub && *d->p != 'E')
            dm_add_sub(d, out);
    }
    if (*d->p != 'E' || first)
        return dm_fail(d);
    d->p++;
    return d->ok;
}

/* A class or enum type by an unscoped name, "St" name, or substitution,
 * optionally followed by template arguments; out is a substitution
 * candidate, and so is the template name before its arguments. */
static bool dm_named_type(dm_state *d, char *out)
{
    char args[DM_STR];
    bool is_sub = false;
    if (d->p[0] == 'S' && d->p[1] == 't') {
        d->p += 2;
        char name[DM_STR];
        if (!dm_source_name(d, name) || !dm_set(d, out, "std::") || !dm_cat(d, out, name))
            return false;
    } else if (*d->p == 'S') {
        int idx;
        d->p++;
        if (!dm_seq_id(d, &idx) || idx >= d->nsubs || !dm_set(d, out, d->subs[idx]))
            return dm_fail(d);
        is_sub = true;
    } else if (!dm_source_name(d, out)) {
        return false;
    }
    if (*d->p != 'I') {
        if (!is_sub)
            dm_add_sub(d, out);
        return d->ok;
    }
    if (!is_sub)
        dm_add_sub(d, out);             /* the <unscoped-template-name> */
    if (!dm_template_args(d, args, false) || !dm_cat(d, out, args))
        return false;
    dm_add_sub(d, out);
    return d->ok;
}

/* A qualified or compound type: <CV-qualifiers> <type>, P, R, O, Dp. */
static bool dm_compound_type(dm_state *d, char *out)
{
    char inner[DM_STR], quals[32] = "";
    if (*d->p == 'P' || *d->p == 'R' || *d->p == 'O') {
        char c = *d->p++;
        if (!dm_type(d, inner) || !dm_set(d, out, inner) ||
            !dm_cat(d, out, c == 'P' ? "*" : c == 'R' ? "&" : "&&"))
            return false;
        dm_add_sub(d, out);
        return d->ok;
    }
    if (d->p[0] == 'D' && d->p[1] == 'p') {
        d->p += 2;                      /* a pack expansion: the pack's types, listed */
        if (!dm_type(d, out))
            return false;
        dm_add_sub(d, out);
        return d->ok;
    }
    /* r V K, in that order, print as " const volatile __restrict" */
    bool r = false, v = false, k = false;
    if (*d->p == 'r') r = true, d->p++;
    if (*d->p == 'V') v = true, d->p++;
    if (*d->p == 'K') k = true, d->p++;
    snprintf(quals, sizeof quals, "%s%s%s", k ? " const" : "", v ? " volatile" : "", r ? " __restrict" : "");
    if (!dm_type(d, inner) || !dm_set(d, out, inner) || !dm_cat(d, out, quals))
        return false;
    dm_add_sub(d, out);
    return d->ok;
}

static bool dm_type(dm_state *d, char *out)
{
    const char *b = dm_builtin(*d->p);
    if (b) {
        d->p++;
        return dm_set(d, out, b);
    }
    bool templated, pack;
    switch (*d->p) {
    case 'P': case 'R': case 'O': case 'K': case 'V': case 'r':
        return dm_compound_type(d, out);
    case 'D':
        if (d->p[1] == 'p')
            return dm_compound_type(d, out);
        if (d->p[1] == 'n') {
            d->p += 2;
            return dm_set(d, out, "decltype(nullptr)");
        }
        return dm_fail(d);
    case 'T':
        if (!dm_template_param(d, out, &pack))
            return false;
        if (*d->p == 'I')
            return dm_fail(d);          /* template template parameters */
        dm_add_sub(d, out);
        return d->ok;
    case 'N':
        if (!dm_nested(d, out, false, &templated))
            return false;
        dm_add_sub(d, out);
        return d->ok;
    case 'S':
        return dm_named_type(d, out);
    default:
        if (*d->p >= '1' && *d->p <= '9')
            return dm_named_type(d, out);
        return dm_fail(d);              /* arrays, functions, member pointers, ... */
    }
}

/* name without its final template arguments: "a::f<1, g<2> >" -> "a::f". */
static void dm_strip_args(const char *name, char *base)
{
    size_t n = strlen(name);
    int depth = 0;
    while (n > 0) {
        char c = name[--n];
        if (c == '>')
            depth++;
        else if (c == '<' && --depth == 0)
            break;
    }
    memcpy(base, name, n);
    base[n] = '\0';
}

/* The function's <name>: nested, or unscoped (with L for internal
 * linkage, St for std::), its template arguments recorded for T_; base
 * receives the name without its final template arguments. */
static bool dm_function_name(dm_state *d, char *out, char *base, bool *templated)
{
    char args[DM_STR];
    *templated = false;
    if (*d->p == 'N') {
        if (!dm_nested(d, out, true, templated))
            return false;
        if (*templated)
            dm_strip_args(out, base);
        else
            strcpy(base, out);
        return true;
    }
    if (*d->p == 'L')
        d->p++;
    if (d->p[0] == 'S' && d->p[1] == 't') {
        d->p += 2;
        char name[DM_STR];
        if (!dm_source_name(d, name) || !dm_set(d, out, "std::") || !dm_cat(d, out, name))
            return false;
    } else if (!dm_source_name(d, out)) {
        return false;
    }
    strcpy(base, out);
    if (*d->p != 'I')
        return true;
    dm_add_sub(d, out);                 /* the <unscoped-template-name> */
    *templated = true;
    return dm_template_args(d, args, true) && dm_cat(d, out, args);
}

static bool demangle_encoding(dm_state *d, const char *encoding, ptx_demangled *out);

bool ptx_demangle_parts(const char *mangled, ptx_demangled *out)
{
    static const ptx_demangled empty;
    *out = empty;
    if (strncmp(mangled, "_Z", 2))
        return false;
    dm_state *d = malloc(sizeof *d);    /* tens of KB: not on the stack */
    if (!d)
        return false;
    bool ok = demangle_encoding(d, mangled + 2, out);
    free(d);
    if (!ok)
        *out = empty;
    return ok;
}

/* <encoding> ::= <name> <bare-function-type>, into out. */
static bool demangle_encoding(dm_state *d, const char *encoding, ptx_demangled *out)
{
    char fname[DM_STR], base[DM_STR], ret[DM_STR] = "", params[DM_STR * 2], t[DM_STR];
    d->p = encoding;
    d->nsubs = d->ntargs = 0;
    d->ok = true;
    bool templated;
    if (!dm_function_name(d, fname, base, &templated) || !d->ok)
        return false;
    /* a function template's encoding starts with its return type */
    if (templated && !dm_type(d, ret))
        return false;
    params[0] = '\0';
    bool first = true;
    while (*d->p && d->ok) {
        if (!dm_type(d, t))
            return false;
        if (first && !strcmp(t, "void") && !*d->p)
            break;                      /* f(void) is written f() */
        if (!t[0])
            continue;                   /* an empty pack expansion */
        if (strlen(params) + strlen(t) + 3 >= sizeof params)
            return false;
        if (!first)
            strcat(params, ", ");
        strcat(params, t);
        first = false;
    }
    if (!d->ok)
        return false;
    const char *last = strrchr(base, ':');
    int n = snprintf(out->sig, sizeof out->sig, "%s%s%s(%s)", ret, ret[0] ? " " : "", fname, params);
    snprintf(out->name, sizeof out->name, "%s", fname);
    snprintf(out->base, sizeof out->base, "%s", base);
    snprintf(out->short_base, sizeof out->short_base, "%s", last ? last + 1 : base);
    return n > 0 && (size_t)n < sizeof out->sig;
}

bool ptx_demangle(const char *mangled, char *name, size_t nname, char *sig, size_t nsig)
{
    ptx_demangled dm;
    if (!ptx_demangle_parts(mangled, &dm))
        return false;
    if (name)
        snprintf(name, nname, "%s", dm.name);
    if (sig)
        snprintf(sig, nsig, "%s", dm.sig);
    return true;
}
