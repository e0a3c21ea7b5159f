/* Basic blocks, the CFG of one function, and immediate post-dominators. */
#include "cfg.h"

#include <stdlib.h>

static int32_t intersect(const int32_t *ipdom, const int32_t *po, int32_t a, int32_t b)
{
    while (a != b) {
        while (po[a] < po[b]) a = ipdom[a];
        while (po[b] < po[a]) b = ipdom[b];
    }
    return a;
}

bool ws_ipdom(int32_t n, const int32_t *off, const int32_t *succ, int32_t exit,
              int32_t *ipdom)
{
    /* Predecessor lists: the successors of the reverse graph. */
    int32_t *poff = calloc((size_t)n + 1, sizeof *poff);
    int32_t *pred = malloc(sizeof *pred * (size_t)(off[n] > 0 ? off[n] : 1));
    int32_t *fill = calloc((size_t)n + 1, sizeof *fill);
    int32_t *po = malloc(sizeof *po * (size_t)n);       /* postorder number, -1 unreached */
    int32_t *order = malloc(sizeof *order * (size_t)n); /* nodes by postorder */
    int32_t *stack = malloc(sizeof *stack * (size_t)n);
    int32_t *next = malloc(sizeof *next * (size_t)n);
    bool ok = poff && pred && fill && po && order && stack && next;
    if (!ok) goto done;

    for (int32_t i = 0; i < n; i++)
        for (int32_t e = off[i]; e < off[i + 1]; e++) poff[succ[e] + 1]++;
    for (int32_t i = 0; i < n; i++) poff[i + 1] += poff[i];
    for (int32_t i = 0; i < n; i++)
        for (int32_t e = off[i]; e < off[i + 1]; e++)
            pred[poff[succ[e]] + fill[succ[e]]++] = i;

    /* Iterative depth-first postorder of the reverse graph from exit. */
    for (int32_t i = 0; i < n; i++) { po[i] = -1; ipdom[i] = -1; }
    int32_t npo = 0, sp = 0;
    stack[sp++] = exit; next[exit] = poff[exit]; po[exit] = -2;   /* -2: on the way */
    while (sp > 0) {
        int32_t v = stack[sp - 1];
        if (next[v] < poff[v + 1]) {
            int32_t w = pred[next[v]++];
            if (po[w] == -1) { po[w] = -2; next[w] = poff[w]; stack[sp++] = w; }
        } else {
            sp--;
            po[v] = npo;
            order[npo++] = v;
        }
    }

    ipdom[exit] = exit;
    for (bool changed = true; changed;) {
        changed = false;
        for (int32_t k = npo - 2; k >= 0; k--) {    /* reverse postorder, exit first */
            int32_t b = order[k], nd = -1;
            for (int32_t e = off[b]; e < off[b + 1]; e++) {
                int32_t s = succ[e];
                if (ipdom[s] < 0) continue;
                nd = nd < 0 ? s : intersect(ipdom, po, s, nd);
            }
            if (nd >= 0 && ipdom[b] != nd) { ipdom[b] = nd; changed = true; }
        }
    }
    for (int32_t i = 0; i < n; i++)
        if (ipdom[i] < 0) ipdom[i] = exit;
done:
    free(poff); free(pred); free(fill); free(po); free(order); free(stack); free(next);
    return ok;
}

/* Where control goes after instruction i: up to two successors; *ends says
 * whether it ends its basic block. */
static int succ_pcs(const ws_insn *code, int32_t i, int32_t end, bool is_kernel,
                    int32_t out[2], bool *ends)
{
    const ws_insn *in = &code[i];
    bool guarded = in->guard >= 0;
    int n = 0;
    *ends = true;
    switch (in->cls) {
    case WS_I_BRA:
        out[n++] = in->target;
        if (guarded) out[n++] = i + 1;
        return n;
    case WS_I_RET: case WS_I_EXIT: case WS_I_TRAP:
        (void)is_kernel;
        out[n++] = end;
        if (guarded) out[n++] = i + 1;
        return n;
    case WS_I_FEND:
        return 0;
    default:
        *ends = false;
        out[n++] = i + 1;
        return n;
    }
}

/* Block sb (of a kernel) is the exit, or nothing but an unguarded exit:
 * "@p bra L; ... L: ret" is "@p exit", as the compiler means it. */
static bool exits_only(const ws_insn *code, const int32_t *first, int32_t sb)
{
    const ws_insn *in = &code[first[sb]];
    return in->cls == WS_I_FEND || (in->cls == WS_I_EXIT && in->guard < 0);
}

/* reach[b]: block b can reach the exit along the edges in off/succ. */
static void reaches_exit(int32_t nb, const int32_t *off, const int32_t *succ, int32_t exit,
                         bool *reach)
{
    for (int32_t b = 0; b < nb; b++) reach[b] = false;
    reach[exit] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (int32_t b = nb - 1; b >= 0; b--) {
            if (reach[b]) continue;
            for (int32_t e = off[b]; e < off[b + 1]; e++)
                if (reach[succ[e]]) { reach[b] = true; changed = true; break; }
        }
    }
}

bool ws_cfg_reconvergence(ws_insn *code, int32_t start, int32_t end, bool is_kernel)
{
    int32_t len = end - start + 1;
    int32_t *block = malloc(sizeof *block * (size_t)len);      /* insn -> block */
    int32_t *first = malloc(sizeof *first * (size_t)len);      /* block -> first insn */
    bool *leader = calloc((size_t)len, sizeof *leader);
    int32_t *off = malloc(sizeof *off * ((size_t)len + 1));
    int32_t *succ = malloc(sizeof *succ * 2 * (size_t)len);
    int32_t *ipdom = malloc(sizeof *ipdom * (size_t)len);
    bool *keep_exit = malloc(sizeof *keep_exit * (size_t)len);
    bool *reach = malloc(sizeof *reach * (size_t)len);
    bool *can_exit = calloc((size_t)len, sizeof *can_exit);
    bool ok = block && first && leader && off && succ && ipdom && keep_exit && reach && can_exit;
    if (!ok) goto done;

    leader[0] = true;
    leader[len - 1] = true;     /* the end is the exit block on its own */
    for (int32_t i = start; i < end; i++) {
        int32_t s[2]; bool ends;
        int n = succ_pcs(code, i, end, is_kernel, s, &ends);
        if (!ends) continue;
        for (int k = 0; k < n; k++) leader[s[k] - start] = true;
        leader[i + 1 - start] = true;
    }
    int32_t nb = 0;
    for (int32_t i = 0; i < len; i++) {
        if (leader[i]) first[nb++] = start + i;
        block[i] = nb - 1;
    }
    /* In a kernel, lanes that exit leave every path, so a branch edge
     * straight to an exit must not hold back the reconvergence of the
     * other lanes (they could not pass a barrier otherwise): it is left
     * out when the branch has another successor.  A block whose every way
     * out was such an edge (a loop left only by returning) keeps them, so
     * that every block that can reach the exit still does. */
    for (int32_t b = 0; b < nb; b++) {
        int32_t last = (b + 1 < nb ? first[b + 1] : end + 1) - 1;
        int32_t s[2]; bool ends;
        int n = succ_pcs(code, last, end, is_kernel, s, &ends);
        keep_exit[b] = false;
        for (int k = 0; k < n; k++)
            if (exits_only(code, first, block[s[k] - start])) can_exit[b] = true;
    }
    for (bool again = true; again;) {
        int32_t ne = 0;
        for (int32_t b = 0; b < nb; b++) {
            off[b] = ne;
            int32_t last = (b + 1 < nb ? first[b + 1] : end + 1) - 1;
            int32_t s[2]; bool ends;
            int n = succ_pcs(code, last, end, is_kernel, s, &ends);
            int kept = 0;
            for (int k = 0; k < n; k++) {
                int32_t sb = block[s[k] - start];
                if (is_kernel && n == 2 && !keep_exit[b] && exits_only(code, first, sb)) continue;
                succ[ne++] = sb;
                kept++;
            }
            if (kept == 0)
                for (int k = 0; k < n; k++) succ[ne++] = block[s[k] - start];
        }
        off[nb] = ne;
        again = false;
        reaches_exit(nb, off, succ, block[len - 1], reach);
        for (int32_t b = 0; b < nb; b++)
            if (!reach[b] && !keep_exit[b] && can_exit[b]) { keep_exit[b] = true; again = true; }
    }
    ok = ws_ipdom(nb, off, succ, block[len - 1], ipdom);
    if (!ok) goto done;

    for (int32_t i = start; i < end; i++) {
        ws_insn *in = &code[i];
        if (in->cls == WS_I_BRA || in->cls == WS_I_RET)
            in->rpc = first[ipdom[block[i - start]]];
    }
done:
    free(block); free(first); free(leader); free(off); free(succ); free(ipdom);
    free(keep_exit); free(reach); free(can_exit);
    return ok;
}

int ws_cfg_successors(const ws_insn *in, int32_t pc, int32_t succ[2])
{
    switch (in->cls) {
    case WS_I_BRA:
        succ[0] = in->target;
        if (in->guard < 0) return 1;
        succ[1] = pc + 1;
        return 2;
    case WS_I_EXIT: case WS_I_RET: case WS_I_TRAP: case WS_I_FEND:
        return in->guard < 0 ? 0 : (succ[0] = pc + 1, 1);
    default:
        succ[0] = pc + 1;
        return 1;
    }
}
