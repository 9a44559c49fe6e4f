/* timing/example/example_model.c — the example of a timing model in a shared
 * object (docs/timing.md): every warp instruction keeps its warp busy for
 * N cycles (the argument, default 1), memory accesses add nothing, and
 * each kernel's start is written to stderr.  Build
 * your own the same way:
 *
 *     cc -shared -fPIC -I include -o mymodel.so mymodel.c
 *     morpheus run --timing ./mymodel.so,ARGS ...
 *
 * The emulator looks for the symbol `mx_timing_model` and refuses a model
 * whose version is not its TM_API_VERSION. */
#include "mx/timing.h"

#include <stdio.h>
#include <stdlib.h>

struct fixed {
    uint32_t cycles;
};

static int fixed_init(void **state, const struct tm_params *p, const char *args, char *err, size_t errlen)
{
    (void)p;
    char *end;
    unsigned long n = args && *args ? strtoul(args, &end, 10) : 1;
    if (args && *args && (*end || n < 1 || n > 1000000)) {
        snprintf(err, errlen, "example-fixed: the argument is cycles per instruction (1 to 1000000), got '%s'", args);
        return -1;
    }
    struct fixed *f = malloc(sizeof *f);
    if (!f) {
        snprintf(err, errlen, "example-fixed: out of memory");
        return -1;
    }
    f->cycles = (uint32_t)n;
    *state = f;
    return 0;
}

/* Called concurrently for different SMs: read-only state needs no lock. */
static uint32_t fixed_issue(void *state, const struct tm_issue *ev)
{
    (void)ev;
    return ((const struct fixed *)state)->cycles;
}

/* A grid got its first CTAs (TM_EV_LAUNCH): between quanta, on one thread. */
static void fixed_launch(void *state, const char *kernel, uint32_t nctas, uint32_t threads_per_cta)
{
    (void)state;
    fprintf(stderr, "example-fixed: kernel %s starts: %u CTAs of %u threads\n", kernel, nctas, threads_per_cta);
}

static void fixed_fini(void *state) { free(state); }

const struct tm_ops mx_timing_model = {
    .version = TM_API_VERSION,
    .name = "example-fixed",
    .summary = "every warp instruction takes N cycles (--timing PATH.so,N); an example",
    .events = TM_EV_LAUNCH | TM_EV_ISSUE,
    .init = fixed_init,
    .on_launch = fixed_launch,
    .issue = fixed_issue,
    .fini = fixed_fini,
};
