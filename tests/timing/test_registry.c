/* tests/timing/test_registry.c — the timing-model registry: the built-in
 * "none" model subscribes to nothing; duplicate names, wrong API versions and
 * unnamed models are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mx/timing.h"

static void none_is_builtin(void **st)
{
    (void)st;
    tm_register_builtin();
    tm_register_builtin(); /* idempotent */
    const struct tm_ops *n = tm_find("none");
    assert_non_null(n);
    assert_int_equal(n->events, 0);
    void *state = (void *)1;
    struct tm_params p = { .issue_width = 1 };
    char err[256] = "";
    assert_int_equal(n->init(&state, &p, NULL, err, sizeof err), 0);
    assert_null(state);
    assert_int_equal(n->init(&state, &p, "l2=4M", err, sizeof err), -1); /* takes no arguments */
    assert_non_null(strstr(err, "l2=4M"));
    assert_null(tm_find("no-such-model"));
}

static const struct tm_ops dup = { .version = TM_API_VERSION, .name = "none" };
static const struct tm_ops old = { .version = TM_API_VERSION + 1, .name = "future" };
static const struct tm_ops anon = { .version = TM_API_VERSION, .name = NULL };
static const struct tm_ops good = { .version = TM_API_VERSION, .name = "test-model", .events = TM_EV_MEM };

static int seen;
static void count(const struct tm_ops *o, void *arg)
{
    (void)arg;
    if (!strcmp(o->name, "test-model") || !strcmp(o->name, "none"))
        seen++;
}

static void refuses_bad_models(void **st)
{
    (void)st;
    tm_register_builtin();
    assert_int_equal(tm_register(&dup), -1);
    assert_int_equal(tm_register(&old), -1);
    assert_int_equal(tm_register(&anon), -1);
    assert_int_equal(tm_register(NULL), -1);
    assert_null(tm_find("future"));
    assert_int_equal(tm_register(&good), 0);
    assert_ptr_equal(tm_find("test-model"), &good);
    seen = 0;
    tm_foreach(count, NULL);
    assert_int_equal(seen, 2);
}

/* The latency model: the configured unit and level latencies, arguments
 * overriding them, shared memory at its level, stores not waiting. */
static void latency_model(void **st)
{
    (void)st;
    tm_register_builtin();
    const struct tm_ops *l = tm_find("latency");
    assert_non_null(l);
    assert_int_equal(l->events & (TM_EV_ISSUE | TM_EV_MEM), TM_EV_ISSUE | TM_EV_MEM);
    struct tm_params p = { .unit_latency = { 2, 3, 64, 21, 39, 4, 5, 200, 32 }, .issue_width = 4 };
    p.level_latency[TM_LV_L1] = 39;
    p.level_latency[TM_LV_SHARED] = 29;
    p.level_latency[TM_LV_LLC] = 226;
    p.level_latency[TM_LV_XLLC] = 316;
    p.level_latency[TM_LV_DRAM] = 480;
    void *s = NULL;
    char err[256] = "";
    assert_int_equal(l->init(&s, &p, "sfu=9,dram=500", err, sizeof err), 0);
    struct tm_issue i = { .unit = 1 };
    assert_int_equal(l->issue(s, &i), 3);
    i.unit = 3;
    assert_int_equal(l->issue(s, &i), 9);
    i.unit = 4;
    i.shared = 1;
    assert_int_equal(l->issue(s, &i), 29);
    struct tm_mem m = { .level = TM_LV_DRAM };
    assert_int_equal(l->mem(s, &m), 500);
    m.level = TM_LV_XLLC;
    assert_int_equal(l->mem(s, &m), 316);
    m.write = 1;
    assert_int_equal(l->mem(s, &m), 39); /* a store: the ldst unit */
    m.atomic = 1;
    assert_int_equal(l->mem(s, &m), 316);
    l->fini(s);
    assert_int_equal(l->init(&s, &p, "dram=0", err, sizeof err), -1);
    assert_non_null(strstr(err, "dram=0"));
    assert_int_equal(l->init(&s, &p, "l3=5", err, sizeof err), -1);
    assert_non_null(strstr(err, "l3"));
    assert_null(tm_resolve("nope", err, sizeof err));
    assert_non_null(strstr(err, "latency"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(none_is_builtin),
        cmocka_unit_test(refuses_bad_models),
        cmocka_unit_test(latency_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
