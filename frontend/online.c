/* frontend/online.c — the online controller of the SM split (online.h). */
#include "frontend/online.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fe_online_init(struct fe_online *o, uint32_t n)
{
    memset(o, 0, sizeof *o);
    o->n = n ? n : 1;
    o->lo = o->n / 4 ? o->n / 4 : 1;
    o->cur = o->best = o->n;
    o->step = o->n / 4 ? o->n / 4 : 1;
    o->min_step = o->n / 16 ? o->n / 16 : 1;
    o->tried = calloc(o->n + 1, 1);
    if (!o->tried)
        return -1;
    o->tried[o->n] = 1;
    return 0;
}

void fe_online_fini(struct fe_online *o)
{
    free(o->tried);
    o->tried = NULL;
}

static struct fe_online_kernel *find(struct fe_online_kernel *k, uint32_t *nk, const char *name, int add)
{
    for (uint32_t i = 0; i < *nk; i++)
        if (!strcmp(k[i].name, name))
            return &k[i];
    if (!add || *nk == FE_ONLINE_KERNELS)
        return NULL;
    struct fe_online_kernel *e = &k[(*nk)++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    return e;
}

/* The next split to try around the best one, or 0 when the search is over. */
static uint32_t next_trial(struct fe_online *o)
{
    while (o->step >= o->min_step) {
        uint32_t down = o->best > o->step ? o->best - o->step : 0, up = o->best + o->step;
        if (down >= o->lo && !o->tried[down])
            return down;
        if (up <= o->n && !o->tried[up])
            return up;
        o->step /= 2;
    }
    return 0;
}

/* Runs the next launches on t compute-mode SMs; the first after a change
 * is a warm-up (both LLC levels were emptied) and is not measured. */
static void move(struct fe_online *o, uint32_t t)
{
    if (t != o->cur) {
        o->changes++;
        o->warmup = 1;
    }
    o->cur = t;
}

/* Moves to the next trial, or settles on the best split. */
static void advance(struct fe_online *o)
{
    uint32_t t = o->settled ? 0 : next_trial(o);
    if (!t) {
        o->settled = 1;
        t = o->best;
    } else {
        o->tried[t] = 1;
        o->trial_best = o->trial_cycles = 0;
        o->trial_launches = 0;
        o->ntrial_k = 0;
    }
    move(o, t);
}

uint32_t fe_online_done(struct fe_online *o, const char *kernel, uint64_t thread_insns, uint64_t cycles)
{
    o->launches++;
    if (!cycles)
        return o->cur; /* nothing measured (a failed launch) */
    if (o->warmup) {
        o->warmup = 0;
        return o->cur;
    }
    if (o->cur == o->best) {
        struct fe_online_kernel *k = find(o->k, &o->nk, kernel, 1);
        int again = k && k->insns; /* the program repeats a kernel: it is in its loop, trials may start */
        if (k) {
            k->insns += thread_insns;
            k->cycles += cycles;
        }
        if (again)
            advance(o);
        return o->cur;
    }
    /* a trial */
    const struct fe_online_kernel *ref = find(o->k, &o->nk, kernel, 0);
    struct fe_online_kernel *tk = find(o->trial_k, &o->ntrial_k, kernel, 1);
    if (tk) {
        tk->insns += thread_insns;
        tk->cycles += cycles;
    }
    o->trial_launches++;
    if (ref && ref->insns) {
        o->trial_best += (double)thread_insns * (double)ref->cycles / (double)ref->insns;
        o->trial_cycles += (double)cycles;
    }
    if (!o->trial_cycles && o->trial_launches < FE_ONLINE_PATIENCE)
        return o->cur; /* nothing to compare yet */
    if (!o->trial_cycles) {
        /* no launch to compare: back to the best split to learn these kernels; this split is tried again */
        o->tried[o->cur] = 0;
        move(o, o->best);
        return o->cur;
    }
    o->last_gain = o->trial_best / o->trial_cycles;
    if (o->last_gain > 1 + FE_ONLINE_GAIN) {
        /* the trial wins: its kernels' rates are the references now (the others are learnt again) */
        o->best = o->cur;
        memcpy(o->k, o->trial_k, o->ntrial_k * sizeof *o->k);
        o->nk = o->ntrial_k;
    } else {
        for (uint32_t i = 0; i < o->ntrial_k; i++)
            if (o->nk < FE_ONLINE_KERNELS && !find(o->k, &o->nk, o->trial_k[i].name, 0)) {
                move(o, o->best); /* back to the best split: it learns the kernels it lacks */
                return o->cur;
            }
    }
    advance(o);
    return o->cur;
}
