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
    assert_int_equal(n->init(&state, NULL), 0);
    assert_null(state);
    assert_int_equal(n->init(&state, "l2=4M"), -1); /* takes no arguments */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(none_is_builtin),
        cmocka_unit_test(refuses_bad_models),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
