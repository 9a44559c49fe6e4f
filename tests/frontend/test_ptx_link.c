/* tests/frontend/test_ptx_link.c — the PTX linker (frontend/ptx_link.c) that
 * joins the units of an -rdc=true program or of cuLinkAddData: each case
 * links small units, checks the text against what the rule says by hand and
 * parses the result with our parser (a link that does not parse is a
 * failure); the errors name the symbol and the units. */
#include "mxtest.h"

#include <stdlib.h>
#include <string.h>

#define HDR(v, sm) ".version " v "\n.target " sm "\n.address_size 64\n"

/* Links n units; the text (caller frees) or NULL with err filled. */
static char *link_units(const char *const *u, unsigned n, char *err, size_t errlen)
{
    size_t lens[8], len = 0;
    for (unsigned i = 0; i < n; i++)
        lens[i] = strlen(u[i]);
    err[0] = 0;
    char *t = fe_ptx_link(u, lens, n, &len, err, errlen);
    if (t)
        assert_int_equal(strlen(t), len);
    return t;
}

/* Occurrences of s in t. */
static unsigned count(const char *t, const char *s)
{
    unsigned k = 0;
    for (const char *p = t; (p = strstr(p, s)); p += strlen(s))
        k++;
    return k;
}

/* Links and parses; fails the test on either error. */
static char *link_ok(struct mxt_parse *r, const char *const *u, unsigned n)
{
    char err[256];
    char *t = link_units(u, n, err, sizeof err);
    if (!t)
        fail_msg("link failed: %s", err);
    mxt_parse_ok(r, t);
    return t;
}

MX_TEST(link_calls_across_units)
{
    const char *u[] = {
        HDR("8.0", "sm_80")
        ".extern .func (.param .b32 r) twice(.param .b32 a);\n"
        ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<3>;\n .reg .b64 %rd<2>;\n"
        " ld.param.u64 %rd1, [p];\n mov.u32 %r1, 21;\n"
        " { .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %r1;\n"
        "   call.uni (r0), twice, (a0); ld.param.b32 %r2, [r0]; }\n"
        " st.global.u32 [%rd1], %r2;\n ret;\n}\n",
        HDR("9.0", "sm_86")
        ".visible .func (.param .b32 r) twice(.param .b32 a)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [a];\n add.s32 %r2, %r1, %r1;\n st.param.b32 [r], %r2;\n ret;\n}\n",
    };
    struct mxt_parse r;
    char *t = link_ok(&r, u, 2);
    /* the highest version and target; the extern became the definition's prototype */
    assert_non_null(strstr(t, ".version 9.0\n"));
    assert_non_null(strstr(t, ".target sm_86"));
    assert_int_equal(count(t, ".extern"), 0);
    assert_int_equal(count(t, ".visible .func (.param .b32 r) twice(.param .b32 a)"), 2); /* prototype, body */
    mxt_func(&r.prog, "k");
    mxt_func(&r.prog, "twice");
    mxt_parse_free(&r);
    free(t);
}

MX_TEST(link_weak_once_strong_wins)
{
    const char *u[] = {
        HDR("8.0", "sm_80")
        ".weak .func (.param .b32 r) f()\n{\n .reg .b32 %r<2>;\n mov.u32 %r1, 111;\n st.param.b32 [r], %r1;\n ret;\n}\n"
        ".weak .func (.param .b32 r) g()\n{\n .reg .b32 %r<2>;\n mov.u32 %r1, 333;\n st.param.b32 [r], %r1;\n ret;\n}\n",
        HDR("8.0", "sm_80")
        ".visible .func (.param .b32 r) f()\n{\n .reg .b32 %r<2>;\n mov.u32 %r1, 222;\n st.param.b32 [r], %r1;\n ret;\n}\n"
        ".weak .func (.param .b32 r) g()\n{\n .reg .b32 %r<2>;\n mov.u32 %r1, 333;\n st.param.b32 [r], %r1;\n ret;\n}\n",
    };
    struct mxt_parse r;
    char *t = link_ok(&r, u, 2);
    assert_int_equal(count(t, "111"), 0);  /* the weak f lost to the strong one */
    assert_int_equal(count(t, "222"), 1);
    assert_int_equal(count(t, "333"), 1);  /* the weak g kept once, the first */
    mxt_parse_free(&r);
    free(t);
}

MX_TEST(link_internal_names_kept_apart)
{
    const char *u[] = {
        HDR("8.0", "sm_80")
        ".global .align 1 .b8 $str[2] = {65, 0};\n"
        ".func (.param .b32 r) scale(.param .b32 a)\n{\n .reg .b32 %r<3>;\n ld.param.b32 %r1, [a];\n"
        " mul.lo.s32 %r2, %r1, 3;\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".visible .entry k1()\n{\n .reg .b64 %rd<2>;\n mov.u64 %rd1, $str;\n ret;\n}\n",
        HDR("8.0", "sm_80")
        ".global .align 1 .b8 $str[3] = {66, 67, 0};\n"
        ".func (.param .b32 r) scale(.param .b32 a)\n{\n .reg .b32 %r<3>;\n ld.param.b32 %r1, [a];\n"
        " mul.lo.s32 %r2, %r1, 5;\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".visible .entry k2()\n{\n .reg .b64 %rd<2>;\n mov.u64 %rd1, $str;\n ret;\n}\n",
    };
    struct mxt_parse r;
    char *t = link_ok(&r, u, 2);
    /* each unit's copies get the unit's suffix, uses included; a parameter named like nothing else is untouched */
    assert_int_equal(count(t, "$str_mxl0"), 2);
    assert_int_equal(count(t, "$str_mxl1"), 2);
    assert_int_equal(count(t, "scale_mxl0"), 1);
    assert_int_equal(count(t, "scale_mxl1"), 1);
    mxt_sym(&r.prog, MX_NONE, "$str_mxl0");
    mxt_sym(&r.prog, MX_NONE, "$str_mxl1");
    mxt_func(&r.prog, "scale_mxl0");
    mxt_func(&r.prog, "scale_mxl1");
    mxt_parse_free(&r);
    free(t);
}

MX_TEST(link_extern_variable_and_files)
{
    const char *u[] = {
        HDR("8.0", "sm_80")
        ".file 1 \"a.cu\"\n"
        ".extern .global .align 4 .u32 v;\n"
        ".visible .entry k()\n{\n .reg .b32 %r<2>;\n .loc 1 7 3\n ld.global.u32 %r1, [v];\n ret;\n}\n",
        HDR("8.0", "sm_80")
        ".file 1 \"b.cu\"\n.file 2 \"b.h\"\n"
        ".visible .global .align 4 .u32 v = 7;\n"
        ".visible .entry k2()\n{\n .reg .b32 %r<2>;\n .loc 2 9 1\n ld.global.u32 %r1, [v];\n ret;\n}\n",
    };
    struct mxt_parse r;
    char *t = link_ok(&r, u, 2);
    assert_int_equal(count(t, ".visible .global .align 4 .u32 v = 7;"), 1); /* in place of the extern, once */
    assert_true(strstr(t, "v = 7") < strstr(t, ".entry k()"));
    assert_non_null(strstr(t, ".file 1 \"a.cu\""));
    assert_non_null(strstr(t, ".file 2 \"b.cu\""));
    assert_non_null(strstr(t, ".file 3 \"b.h\""));
    assert_non_null(strstr(t, ".loc 1 7 3"));
    assert_non_null(strstr(t, ".loc 3 9 1"));
    mxt_sym(&r.prog, MX_NONE, "v");
    mxt_parse_free(&r);
    free(t);
}

MX_TEST(link_errors_name_symbol_and_units)
{
    char err[256];
    const char *dup[] = {
        HDR("8.0", "sm_80") ".visible .global .u32 w;\n",
        HDR("8.0", "sm_80") ".visible .func f()\n{\n ret;\n}\n",
        HDR("8.0", "sm_80") ".visible .global .u32 w;\n",
    };
    assert_null(link_units(dup, 3, err, sizeof err));
    assert_string_equal(err, "variable 'w' is defined in unit 1 and in unit 3");
    const char *undef[] = {
        HDR("8.0", "sm_80") ".extern .func h();\n.extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n",
    };
    assert_null(link_units(undef, 1, err, sizeof err));
    assert_string_equal(err, "unit 1 calls function 'h', which no unit defines");
    const char *brace[] = { HDR("8.0", "sm_80") ".visible .entry k()\n{\n ret;\n" };
    assert_null(link_units(brace, 1, err, sizeof err));
    assert_string_equal(err, "unit 1: unbalanced braces");
    const char *notarget[] = { ".version 8.0\n.visible .entry k()\n{\n ret;\n}\n" };
    assert_null(link_units(notarget, 1, err, sizeof err));
    assert_string_equal(err, "no .target in the PTX");
    const char *open_stmt[] = { HDR("8.0", "sm_80") ".visible .global .u32 w" };
    assert_null(link_units(open_stmt, 1, err, sizeof err));
    assert_string_equal(err, "unit 1: the PTX ends inside a statement");
}
