/* frontend/cfg.c — control-flow graph of each function and the immediate
 * post-dominator of every branch block, the reconvergence point of the SIMT
 * stack (Cooper, Harvey & Kennedy's iterative dominator algorithm run on the
 * reverse CFG, with one virtual exit node). */
#include "frontend/fe-internal.h"
#include "mx/status.h"

#include <stdlib.h>
#include <string.h>

struct cfg {
    uint32_t nb;          /* blocks, plus the virtual exit at index nb */
    uint32_t *start;      /* first insn (function-relative) of each block */
    uint32_t *succ;       /* successors, CSR */
    uint32_t *succ_off;
    uint32_t *pred;       /* predecessors, CSR (reverse edges) */
    uint32_t *pred_off;
};

static int is_branch(const struct mx_insn *in) { return in->op == MX_OP_BRA || in->op == MX_OP_BRX; }
static int is_end(const struct mx_insn *in)
{
    return (in->op == MX_OP_RET || in->op == MX_OP_EXIT || in->op == MX_OP_TRAP || in->op == MX_OP_BRKPT) &&
           in->guard == MX_NONE;
}

static int func_ipdom(struct mx_program *g, struct mx_func *f)
{
    uint32_t n = f->ninsns, base = f->first;
    if (!n)
        return 0;
    int rc = -1;
    uint8_t *leader = calloc(n + 1, 1);
    uint32_t *blk = malloc((n + 1) * sizeof *blk);
    uint32_t *start = malloc((n + 1) * sizeof *start);
    uint32_t *outcnt = NULL, *succ = NULL, *soff = NULL, *pcnt = NULL, *pred = NULL, *poff = NULL;
    uint32_t *order = NULL, *rpo = NULL, *ipdom = NULL, *stack = NULL;
    uint8_t *seen = NULL;
    if (!leader || !blk || !start)
        goto out;
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const struct mx_insn *in = &g->insns[base + i];
        if (is_branch(in) || is_end(in) || (in->op == MX_OP_RET || in->op == MX_OP_EXIT))
            leader[i + 1] = 1;
        if (in->op == MX_OP_BRA && in->opd[0].kind == MX_OPD_LABEL && in->opd[0].reg - base < n)
            leader[in->opd[0].reg - base] = 1;
        if (in->op == MX_OP_BRX && in->opd[1].kind == MX_OPD_TARGETS)
            for (uint32_t k = 0; k < in->opd[1].count; k++) {
                uint32_t t = g->vec[in->opd[1].reg + k].reg;
                if (t - base < n)
                    leader[t - base] = 1;
            }
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i])
            start[nb++] = i;
        blk[i] = nb - 1;
    }
    uint32_t exitb = nb;
    start[nb] = n;
    /* successors: at most 2 per block, or a brx.idx list */
    uint32_t cap = 0;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t last = (b + 1 < nb ? start[b + 1] : n) - 1;
        const struct mx_insn *in = &g->insns[base + last];
        cap += in->op == MX_OP_BRX ? in->opd[1].count + 1 : 2;
    }
    succ = malloc((cap + 1) * sizeof *succ);
    soff = malloc((nb + 2) * sizeof *soff);
    if (!succ || !soff)
        goto out;
    uint32_t ns = 0;
    for (uint32_t b = 0; b < nb; b++) {
        soff[b] = ns;
        uint32_t last = (b + 1 < nb ? start[b + 1] : n) - 1;
        const struct mx_insn *in = &g->insns[base + last];
        int fall = 1;
        if (in->op == MX_OP_BRA) {
            uint32_t t = in->opd[0].reg - base;
            succ[ns++] = t < n ? blk[t] : exitb;
            fall = in->guard != MX_NONE;
        } else if (in->op == MX_OP_BRX) {
            for (uint32_t k = 0; k < in->opd[1].count; k++) {
                uint32_t t = g->vec[in->opd[1].reg + k].reg - base;
                succ[ns++] = t < n ? blk[t] : exitb;
            }
            fall = in->guard != MX_NONE;
        } else if (in->op == MX_OP_RET || in->op == MX_OP_EXIT || in->op == MX_OP_TRAP || in->op == MX_OP_BRKPT) {
            succ[ns++] = exitb;
            fall = in->guard != MX_NONE;
        }
        if (fall)
            succ[ns++] = last + 1 < n ? blk[last + 1] : exitb;
    }
    soff[nb] = ns;
    soff[nb + 1] = ns;
    /* predecessors (reverse edges) */
    pcnt = calloc(nb + 2, sizeof *pcnt);
    pred = malloc((ns + 1) * sizeof *pred);
    poff = malloc((nb + 2) * sizeof *poff);
    if (!pcnt || !pred || !poff)
        goto out;
    for (uint32_t e = 0; e < ns; e++)
        pcnt[succ[e]]++;
    uint32_t acc = 0;
    for (uint32_t b = 0; b <= nb; b++) {
        poff[b] = acc;
        acc += pcnt[b];
        pcnt[b] = poff[b];
    }
    poff[nb + 1] = acc;
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t e = soff[b]; e < soff[b + 1]; e++)
            pred[pcnt[succ[e]]++] = b;
    /* post-order of the reverse graph from exit (DFS over predecessors) */
    order = malloc((nb + 1) * sizeof *order);
    rpo = malloc((nb + 1) * sizeof *rpo);
    ipdom = malloc((nb + 1) * sizeof *ipdom);
    stack = malloc((nb + 1) * 2 * sizeof *stack);
    seen = calloc(nb + 1, 1);
    if (!order || !rpo || !ipdom || !stack || !seen)
        goto out;
    uint32_t npo = 0, sp = 0;
    stack[sp++] = exitb;
    stack[sp++] = poff[exitb];
    seen[exitb] = 1;
    while (sp) {
        uint32_t b = stack[sp - 2], *it = &stack[sp - 1];
        if (*it < poff[b + 1]) {
            uint32_t p = pred[(*it)++];
            if (!seen[p]) {
                seen[p] = 1;
                stack[sp++] = p;
                stack[sp++] = poff[p];
            }
        } else {
            rpo[b] = npo;
            order[npo++] = b;
            sp -= 2;
        }
    }
    for (uint32_t b = 0; b <= nb; b++)
        ipdom[b] = MX_NONE;
    ipdom[exitb] = exitb;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t k = npo; k-- > 0;) {
            uint32_t b = order[k];
            if (b == exitb)
                continue;
            uint32_t nd = MX_NONE;
            for (uint32_t e = soff[b]; e < soff[b + 1]; e++) {
                uint32_t s = succ[e];
                if (ipdom[s] == MX_NONE)
                    continue;
                if (nd == MX_NONE) {
                    nd = s;
                    continue;
                }
                uint32_t x = s, y = nd;
                while (x != y) {
                    while (rpo[x] < rpo[y])
                        x = ipdom[x];
                    while (rpo[y] < rpo[x])
                        y = ipdom[y];
                }
                nd = x;
            }
            if (nd != MX_NONE && ipdom[b] != nd) {
                ipdom[b] = nd;
                changed = 1;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        struct mx_insn *in = &g->insns[base + i];
        if (!is_branch(in))
            continue;
        uint32_t d = ipdom[blk[i]];
        in->ipdom = (d == MX_NONE || d == exitb) ? MX_NONE : base + start[d];
    }
    rc = 0;
out:
    free(leader);
    free(blk);
    free(start);
    free(outcnt);
    free(succ);
    free(soff);
    free(pcnt);
    free(pred);
    free(poff);
    free(order);
    free(rpo);
    free(ipdom);
    free(stack);
    free(seen);
    return rc;
}

int fe_compute_reconvergence(struct mx_program *prog, struct mx_diag *diag)
{
    for (uint32_t f = 0; f < prog->nfuncs; f++) {
        struct mx_func *fn = &prog->funcs[f];
        if (fn->flags & MX_FUNCF_DECL)
            continue;
        if (func_ipdom(prog, fn) < 0) {
            fe_error(diag, fn->line, 1, NULL, 0, "out of memory computing reconvergence points");
            return MX_ENOMEM;
        }
    }
    return MX_OK;
}
