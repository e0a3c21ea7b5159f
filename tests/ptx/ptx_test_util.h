/* Helpers shared by the PTX front-end tests. */
#ifndef WARPSIM_TEST_PTX_UTIL_H
#define WARPSIM_TEST_PTX_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/ptx/ptx_parse.h"

#define PTX_HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"

/* Parses text; fails the test with the parser's message if it does not parse. */
static inline ptx_module *tp_parse(const char *text)
{
    ptx_error err;
    ptx_module *m = ptx_parse(text, strlen(text), "t.ptx", &err);
    if (!m) {
        char msg[1024];
        ptx_error_format(&err, msg, sizeof msg);
        fail_msg("unexpected parse error: %s", msg);
    }
    return m;
}

/* Parses text that must fail; returns the formatted message. */
static inline void tp_fail(const char *text, char *msg, size_t size)
{
    ptx_error err;
    ptx_module *m = ptx_parse(text, strlen(text), "t.ptx", &err);
    if (m) {
        ptx_module_free(m);
        fail_msg("parsed, but should have failed:\n%s", text);
    }
    ptx_error_format(&err, msg, size);
}

static inline const ptx_function *tp_func(const ptx_module *m, const char *name)
{
    for (int32_t i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, name))
            return &m->funcs[i];
    fail_msg("no function %s", name);
    return NULL;
}

static inline int32_t tp_reg(const ptx_function *f, const char *name)
{
    for (int32_t i = 0; i < f->nregs; i++)
        if (!strcmp(f->regs[i].name, name))
            return i;
    fail_msg("no register %s", name);
    return -1;
}

#endif
