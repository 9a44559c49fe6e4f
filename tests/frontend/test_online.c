/* tests/frontend/test_online.c — the online controller of the SM split
 * (frontend/online.c) against programs whose time on each split is a known
 * function: it must end within its finest step of the brute-force best
 * split, leave compute-bound programs on every SM, and learn kernels it
 * has no reference for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "frontend/online.h"

#define N 68

/* A memory-bound kernel: compute shrinks with SMs, the memory stall with
 * the extended LLC's capacity (the cache-mode SMs) up to a point, and the
 * application's bandwidth share shrinks with fewer compute SMs. */
static double t_mem(uint32_t c) { return 1e6 / c + 4e4 * (c > 40 ? c - 40 : 0) + 3e5 * 40.0 / c; }
/* A compute-bound kernel: all SMs are best. */
static double t_comp(uint32_t c) { return 1e8 / c; }

static const uint64_t WORK = 1000000000ull; /* thread instructions per launch: the same on every split */

/* The launch after a change runs with both LLC levels empty: 1.5x slower. */
static uint64_t timed(struct fe_online *o, double (*t)(uint32_t), uint32_t *prev)
{
    double x = t(o->cur) * (o->cur != *prev ? 1.5 : 1);
    *prev = o->cur;
    return (uint64_t)x;
}

/* Runs `launches` launches of kernel `name` with time t(c); returns the last split. */
static uint32_t run(struct fe_online *o, double (*t)(uint32_t), const char *name, int launches)
{
    uint32_t prev = o->cur;
    for (int i = 0; i < launches; i++)
        fe_online_done(o, name, WORK, timed(o, t, &prev));
    return o->cur;
}

static uint32_t brute(double (*t)(uint32_t), uint32_t lo)
{
    uint32_t b = N;
    for (uint32_t c = lo; c <= N; c++)
        if (t(c) < t(b))
            b = c;
    return b;
}

static void finds_the_memory_bound_optimum(void **state)
{
    (void)state;
    struct fe_online o;
    assert_int_equal(fe_online_init(&o, N), 0);
    assert_int_equal(o.cur, N); /* starts with every SM computing */
    uint32_t end = run(&o, t_mem, "stream", 40);
    uint32_t best = brute(t_mem, o.lo);
    assert_true(o.settled);
    assert_int_equal(end, o.best);
    assert_true(end + o.min_step >= best && end <= best + o.min_step);
    assert_true(t_mem(end) <= 1.10 * t_mem(best));
    assert_true(t_mem(end) < 0.8 * t_mem(N)); /* and far better than where it started */
    /* settled: no more changes */
    uint32_t changes = o.changes;
    run(&o, t_mem, "stream", 10);
    assert_int_equal(o.changes, changes);
    assert_int_equal(o.cur, end);
    fe_online_fini(&o);
}

static void compute_bound_stays_on_all_sms(void **state)
{
    (void)state;
    struct fe_online o;
    assert_int_equal(fe_online_init(&o, N), 0);
    assert_int_equal(run(&o, t_comp, "gemm", 30), N);
    assert_true(o.settled);
    assert_true(o.last_gain < 1); /* every trial lost */
    fe_online_fini(&o);
}

/* Two kernels alternating, one of them much shorter: judged per kernel
 * against its own reference, the short one does not pull the result. */
static double t_short(uint32_t c) { return 2e3 + 1e5 / c; }
static void alternating_kernels(void **state)
{
    (void)state;
    struct fe_online o;
    assert_int_equal(fe_online_init(&o, N), 0);
    uint32_t prev = N;
    for (int i = 0; i < 40; i++) {
        fe_online_done(&o, "a", WORK, timed(&o, t_mem, &prev));
        fe_online_done(&o, "b", WORK / 100, timed(&o, t_short, &prev));
    }
    assert_true(o.settled);
    double best = t_mem(brute(t_mem, o.lo)) + t_short(brute(t_mem, o.lo));
    assert_true(t_mem(o.cur) + t_short(o.cur) <= 1.10 * best);
    fe_online_fini(&o);
}

/* A kernel run once (set-up) starts no trial: the loop's second launch
 * does.  The launch after a change is not measured. */
static void trials_start_in_the_loop(void **state)
{
    (void)state;
    struct fe_online o;
    assert_int_equal(fe_online_init(&o, N), 0);
    fe_online_done(&o, "init", WORK, 1000);
    assert_int_equal(o.cur, N);
    fe_online_done(&o, "loop", WORK, (uint64_t)t_mem(N));
    assert_int_equal(o.cur, N);        /* "loop" seen once: not yet */
    fe_online_done(&o, "loop", WORK, (uint64_t)t_mem(N));
    uint32_t trial = o.cur;
    assert_int_equal(trial, N - N / 4); /* its second launch: the first trial */
    assert_int_equal(o.changes, 1);
    fe_online_done(&o, "loop", WORK, 1);  /* a warm-up, however fast, is not measured */
    assert_int_equal(o.cur, trial);
    assert_int_equal(o.best, N);
    fe_online_done(&o, "loop", WORK, (uint64_t)t_mem(trial));
    assert_int_equal(o.best, trial);     /* t_mem(51) < t_mem(68) */
    assert_true(o.last_gain > 1.5);
    fe_online_fini(&o);
}

/* A kernel first seen during a trial has no reference: the controller goes
 * back to the best split to learn it instead of judging blind. */
static void learns_a_new_kernel(void **state)
{
    (void)state;
    struct fe_online o;
    assert_int_equal(fe_online_init(&o, N), 0);
    fe_online_done(&o, "init", WORK, 1000);
    fe_online_done(&o, "init", WORK, 1000); /* repeated: trials start, with a reference for "init" only */
    uint32_t trial = o.cur;
    fe_online_done(&o, "loop", WORK, 5000); /* the warm-up */
    for (int i = 0; i < FE_ONLINE_PATIENCE; i++) {
        assert_int_equal(o.cur, trial);
        fe_online_done(&o, "loop", WORK, (uint64_t)t_mem(o.cur));
    }
    assert_int_equal(o.cur, N);        /* back to learn "loop" */
    assert_int_equal(o.last_gain, 0);  /* nothing was judged */
    fe_online_done(&o, "loop", WORK, 5000); /* the warm-up */
    fe_online_done(&o, "loop", WORK, (uint64_t)t_mem(o.cur));
    assert_int_equal(o.cur, N);        /* learnt; */
    fe_online_done(&o, "loop", WORK, (uint64_t)t_mem(o.cur));
    assert_int_equal(o.cur, trial);    /* repeated: the same trial again */
    uint32_t end = run(&o, t_mem, "loop", 40);
    assert_true(t_mem(end) <= 1.10 * t_mem(brute(t_mem, o.lo)));
    fe_online_fini(&o);
}

/* A launch that measured nothing (it failed) changes nothing. */
static void failed_launch_ignored(void **state)
{
    (void)state;
    struct fe_online o;
    assert_int_equal(fe_online_init(&o, N), 0);
    assert_int_equal(fe_online_done(&o, "k", 0, 0), N);
    assert_int_equal(o.changes, 0);
    assert_int_equal(o.nk, 0);
    fe_online_fini(&o);
}

/* A tiny GPU: the steps never reach zero SMs. */
static void two_sms(void **state)
{
    (void)state;
    struct fe_online o;
    assert_int_equal(fe_online_init(&o, 2), 0);
    for (int i = 0; i < 10; i++) {
        uint32_t c = fe_online_done(&o, "k", WORK, o.cur == 1 ? 100 : 1000);
        assert_true(c >= 1 && c <= 2);
    }
    assert_int_equal(o.cur, 1);
    assert_true(o.settled);
    fe_online_fini(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_the_memory_bound_optimum), cmocka_unit_test(compute_bound_stays_on_all_sms),
        cmocka_unit_test(alternating_kernels),          cmocka_unit_test(trials_start_in_the_loop),
        cmocka_unit_test(learns_a_new_kernel),
        cmocka_unit_test(failed_launch_ignored),         cmocka_unit_test(two_sms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
