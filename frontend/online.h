/* frontend/online.h — an online controller of the SM split: how many SMs
 * run the application and how many are the extended LLC, chosen while the
 * program runs (`--compute-sms auto` with a Morpheus system).  The paper
 * picks the split per application offline and leaves online profiling to
 * future work (§6, in a footnote); this is one such controller, kept apart
 * from the mechanism (mx_memsys_reshape, emu_device_reshape) so that others
 * are easy to try.
 *
 * It changes the split between launches only, and measures each launch's
 * rate: thread instructions per cycle (the work is the same on every split,
 * so a higher rate is a shorter run).  Launches are compared by kind: the
 * caller names a kind (frontend/msys.c: the kernel with its grid and block,
 * as launches of one shape do comparable work; a kernel whose grid grows
 * from launch to launch is latency-bound and would look faster each time).
 * The program starts with every SM computing.  Each kind's rate on the best
 * split so far is its reference.  Trials start once the program repeats a
 * kind (it is in its loop, and the references cover the loop's kinds).  The launch after a change is a
 * warm-up and is not measured: a change empties both LLC levels
 * (mx_memsys_reshape).  A trial then runs until a launch of a kernel with a
 * reference finished, and is judged by the time its launches would have
 * taken on the best split over the time they took; it becomes the best if
 * it wins by more than FE_ONLINE_GAIN.  The trials are a pattern search
 * over compute-mode SM counts: best - step, then best + step, the step
 * halved when neither wins, from a quarter of the SMs down to a sixteenth,
 * between a quarter of the SMs and all of them.  When no step is left it
 * settles on the best split.  Each launch's record says where it stands
 * (the "online" object, docs/systems.md). */
#ifndef MX_FE_ONLINE_H
#define MX_FE_ONLINE_H

#include <stdint.h>

#define FE_ONLINE_KERNELS 64  /* launch kinds with a reference rate (more: the extra ones are not compared) */
#define FE_ONLINE_KEY 192     /* bytes of a launch kind's name */
#define FE_ONLINE_GAIN 0.02   /* a trial must be this much faster than the best split to replace it */
#define FE_ONLINE_PATIENCE 8  /* launches a trial may run without one it can compare: then it lost */

struct fe_online_kernel {
    char name[FE_ONLINE_KEY];
    uint64_t insns, cycles;   /* on the best split */
};

struct fe_online {
    uint32_t n;               /* SMs */
    uint32_t lo;              /* fewest compute-mode SMs it tries */
    uint32_t cur;             /* compute-mode SMs of the next launch */
    uint32_t best;            /* the best split found so far (compute-mode SMs) */
    uint32_t step, min_step;  /* the pattern search's step, and the smallest */
    int settled;              /* no step left: the split stays `best` */
    int warmup;               /* the next launch follows a change: not measured */
    uint32_t changes;         /* splits asked for (each a reshape) */
    uint32_t launches;        /* launches measured */
    struct fe_online_kernel k[FE_ONLINE_KERNELS], trial_k[FE_ONLINE_KERNELS];
    uint32_t nk, ntrial_k;
    double trial_best;        /* cycles the trial's comparable launches would have taken on the best split */
    double trial_cycles;      /* and the cycles they took */
    uint32_t trial_launches;  /* launches of the trial so far */
    double last_gain;         /* the last judged trial's speedup over the best split (0: none yet) */
    uint8_t *tried;           /* [n + 1]: 1 when that count was tried */
};

/* Starts with all n SMs computing.  0, or -1 out of memory. */
int fe_online_init(struct fe_online *o, uint32_t n);
void fe_online_fini(struct fe_online *o);
/* A launch of `kernel` on o->cur compute-mode SMs finished: its thread
 * instructions and cycles.  Returns the compute-mode SMs for the next
 * launch (o->cur afterwards). */
uint32_t fe_online_done(struct fe_online *o, const char *kernel, uint64_t thread_insns, uint64_t cycles);

#endif
