/* Itanium C++ ABI demangling, the subset kernels use (see ptx_demangle.h). */
#include "ptx_demangle.h"

#include <stdio.h>
#include <string.h>

#define DM_MAX_SUBS 64
#define DM_STR 512

typedef struct dm_state {
    const char *p;
    char subs[DM_MAX_SUBS][DM_STR];   /* substitution candidates, S_ S0_ S1_ ... */
    int nsubs;
    bool ok;
} dm_state;

static void dm_add_sub(dm_state *d, const char *s)
{
    if (d->nsubs < DM_MAX_SUBS)
        snprintf(d->subs[d->nsubs++], DM_STR, "%s", s);
    else
        d->ok = false;
}

static bool dm_source_name(dm_state *d, char *out)
{
    size_t len = 0;
    if (*d->p < '1' || *d->p > '9')
        return d->ok = false;
    while (*d->p >= '0' && *d->p <= '9')
        len = len * 10 + (size_t)(*d->p++ - '0');
    if (len >= DM_STR || strlen(d->p) < len)
        return d->ok = false;
    memcpy(out, d->p, len);
    out[len] = '\0';
    d->p += len;
    return true;
}

/* N <source-name>+ E -> "a::b::c"; every proper prefix is a substitution
 * candidate, and so is the whole name when it names a type. */
static bool dm_nested(dm_state *d, char *out, bool is_type)
{
    char part[DM_STR];
    out[0] = '\0';
    d->p++;                             /* N */
    while (*d->p == 'K' || *d->p == 'V' || *d->p == 'r')
        d->p++;                         /* cv-qualifiers of member functions: none in kernels */
    bool first = true;
    while (*d->p && *d->p != 'E') {
        if (!first)
            dm_add_sub(d, out);
        if (!dm_source_name(d, part))
            return false;
        if (strlen(out) + strlen(part) + 3 >= DM_STR)
            return d->ok = false;
        if (!first)
            strcat(out, "::");
        strcat(out, part);
        first = false;
    }
    if (*d->p != 'E' || first)
        return d->ok = false;
    d->p++;
    if (is_type)
        dm_add_sub(d, out);
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

static bool dm_type(dm_state *d, char *out)
{
    char inner[DM_STR];
    const char *b = dm_builtin(*d->p);
    if (b) {
        d->p++;
        snprintf(out, DM_STR, "%s", b);
        return true;
    }
    switch (*d->p) {
    case 'P': case 'R': case 'O': case 'K': case 'V': {
        char c = *d->p++;
        if (!dm_type(d, inner))
            return false;
        const char *suffix = c == 'P' ? "*" : c == 'R' ? "&" : c == 'O' ? "&&" : c == 'K' ? " const" : " volatile";
        if (strlen(inner) + strlen(suffix) >= DM_STR)
            return d->ok = false;
        strcpy(out, inner);
        strcat(out, suffix);
        dm_add_sub(d, out);
        return true;
    }
    case 'S': {
        d->p++;
        int idx = 0;
        if (*d->p == '_') {
            idx = 0;
        } else {
            int v = 0;
            while ((*d->p >= '0' && *d->p <= '9') || (*d->p >= 'A' && *d->p <= 'Z'))
                v = v * 36 + (*d->p <= '9' ? *d->p - '0' : *d->p - 'A' + 10), d->p++;
            if (*d->p != '_')
                return d->ok = false;
            idx = v + 1;
        }
        d->p++;
        if (idx >= d->nsubs)
            return d->ok = false;
        snprintf(out, DM_STR, "%s", d->subs[idx]);
        return true;
    }
    case 'N':
        return dm_nested(d, out, true);
    default:
        if (*d->p >= '1' && *d->p <= '9') {
            if (!dm_source_name(d, out))
                return false;
            dm_add_sub(d, out);
            return true;
        }
        return d->ok = false;           /* templates, function types, ... */
    }
}

bool ptx_demangle(const char *mangled, char *name, size_t nname, char *sig, size_t nsig)
{
    dm_state d;
    char fname[DM_STR], params[DM_STR * 2], t[DM_STR];
    if (strncmp(mangled, "_Z", 2))
        return false;
    d.p = mangled + 2;
    d.nsubs = 0;
    d.ok = true;
    if (*d.p == 'N') {
        if (!dm_nested(&d, fname, false))
            return false;
    } else if (!dm_source_name(&d, fname)) {
        return false;
    }
    params[0] = '\0';
    bool first = true;
    while (*d.p && d.ok) {
        if (!dm_type(&d, t))
            return false;
        if (first && !strcmp(t, "void") && !*d.p)
            break;                      /* f(void) is written f() */
        if (strlen(params) + strlen(t) + 3 >= sizeof params)
            return false;
        if (!first)
            strcat(params, ", ");
        strcat(params, t);
        first = false;
    }
    if (!d.ok)
        return false;
    if (name)
        snprintf(name, nname, "%s", fname);
    if (sig)
        snprintf(sig, nsig, "%s(%s)", fname, params);
    return true;
}
