/* Integer literals and special-register names. */
#include <string.h>
#include "ptx_pstate.h"

/* PTX integers: 0x hex, 0b binary, 0 octal, decimal; an optional U suffix
 * only marks the literal unsigned (the value is kept as 64 bits). */
bool ptx_lit_int(const char *text, uint64_t *out)
{
    size_t n = strlen(text);
    if (n && (text[n - 1] == 'U' || text[n - 1] == 'u'))
        n--;
    unsigned base = 10;
    size_t i = 0;
    if (n > 1 && text[0] == '0') {
        if (text[1] == 'x' || text[1] == 'X') { base = 16; i = 2; }
        else if (text[1] == 'b' || text[1] == 'B') { base = 2; i = 2; }
        else { base = 8; i = 1; }
    }
    if (i >= n)
        return false;
    uint64_t v = 0;
    for (; i < n; i++) {
        char c = text[i];
        unsigned d;
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
        else return false;
        if (d >= base)
            return false;
        if (v > (UINT64_MAX - d) / base)
            return false;           /* does not fit in 64 bits */
        v = v * base + d;
    }
    *out = v;
    return true;
}

static const struct { const char *name; uint8_t sreg; bool xyz; } ptx_sregs[] = {
    {"%tid", PTX_SREG_TID, true},       {"%ntid", PTX_SREG_NTID, true},
    {"%ctaid", PTX_SREG_CTAID, true},   {"%nctaid", PTX_SREG_NCTAID, true},
    {"%laneid", PTX_SREG_LANEID, false}, {"%warpid", PTX_SREG_WARPID, false},
    {"%nwarpid", PTX_SREG_NWARPID, false}, {"%smid", PTX_SREG_SMID, false},
    {"%nsmid", PTX_SREG_NSMID, false},  {"%gridid", PTX_SREG_GRIDID, false},
    {"%clock", PTX_SREG_CLOCK, false},  {"%clock_hi", PTX_SREG_CLOCK_HI, false},
    {"%clock64", PTX_SREG_CLOCK64, false}, {"%globaltimer", PTX_SREG_GLOBALTIMER, false},
    {"%lanemask_eq", PTX_SREG_LANEMASK_EQ, false}, {"%lanemask_le", PTX_SREG_LANEMASK_LE, false},
    {"%lanemask_lt", PTX_SREG_LANEMASK_LT, false}, {"%lanemask_ge", PTX_SREG_LANEMASK_GE, false},
    {"%lanemask_gt", PTX_SREG_LANEMASK_GT, false},
    {"%dynamic_smem_size", PTX_SREG_DYNAMIC_SMEM_SIZE, false},
    {"%total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE, false},
};

/* Special registers that PTX has and warpsim does not model: named as
 * unsupported rather than undeclared. */
static const char *const ptx_sregs_unsupported[] = {
    "%envreg", "%pm", "%cluster", "%nclusterid", "%is_explicit_cluster",
    "%reserved_smem_offset", "%aggr_smem_size", "%current_graph_exec",
    "%globaltimer_lo", "%globaltimer_hi",
};

/* name is "%tid.x" or "%laneid".  Returns true when it is a special
 * register warpsim supports; *known_base tells whether it looks like a
 * special register at all (for the message). */
bool ptx_lit_sreg(const char *name, uint8_t *sreg, uint8_t *comp, bool *known_base)
{
    const char *dot = strchr(name, '.');
    size_t blen = dot ? (size_t)(dot - name) : strlen(name);
    *known_base = false;
    /* the two words of the workspace address the driver gives a
     * cooperative launch, which grid-wide synchronization reads */
    if (!strcmp(name, "%envreg1") || !strcmp(name, "%envreg2")) {
        *known_base = true;
        *sreg = PTX_SREG_ENVREG;
        *comp = (uint8_t)(name[7] - '0');
        return true;
    }
    for (size_t i = 0; i < sizeof ptx_sregs / sizeof ptx_sregs[0]; i++) {
        if (strlen(ptx_sregs[i].name) != blen || strncmp(ptx_sregs[i].name, name, blen))
            continue;
        *known_base = true;
        if (ptx_sregs[i].xyz) {
            if (!dot || strlen(dot) != 2 || dot[1] < 'x' || dot[1] > 'z')
                return false;
            *comp = (uint8_t)(dot[1] - 'x');
        } else {
            if (dot)
                return false;
            *comp = 0;
        }
        *sreg = ptx_sregs[i].sreg;
        return true;
    }
    for (size_t i = 0; i < sizeof ptx_sregs_unsupported / sizeof ptx_sregs_unsupported[0]; i++)
        if (!strncmp(name, ptx_sregs_unsupported[i], strlen(ptx_sregs_unsupported[i])))
            *known_base = true;
    return false;
}
