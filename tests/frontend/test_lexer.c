/* tests/frontend/test_lexer.c — the PTX tokenizer (frontend/lexer.c): every
 * token kind, literal values to the bit, the one-token rule for dotted words,
 * comments, strings, positions and the lexical diagnostics. */
#include "mxtest.h"

#include "frontend/lexer.h"

#include <stdlib.h>
#include <string.h>

#define MAXTOK 64

struct lexed {
    struct fe_token t[MAXTOK];
    int n;                 /* tokens before EOF (TK_ERROR included) */
    struct mx_diag diag;
    char *text;            /* diagnostics */
    size_t len;
};

/* Lexes all of src into r (EOF not stored). */
static void lex(struct lexed *r, const char *src)
{
    memset(r, 0, sizeof *r);
    FILE *mem = open_memstream(&r->text, &r->len);
    assert_non_null(mem);
    r->diag.out = mem;
    r->diag.file = "t.ptx";
    struct fe_lexer lx;
    fe_lex_init(&lx, src, strlen(src), &r->diag);
    for (;;) {
        struct fe_token t;
        fe_lex_next(&lx, &t);
        if (t.kind == TK_EOF)
            break;
        assert_true(r->n < MAXTOK);
        r->t[r->n++] = t;
    }
    fclose(mem);
}

static void lex_free(struct lexed *r) { free(r->text); }

/* Lexes src, which must be exactly one token without diagnostics. */
static struct fe_token one(const char *src, int kind)
{
    struct lexed r;
    lex(&r, src);
    if (r.n != 1 || r.diag.nerrors || r.t[0].kind != kind)
        fail_msg("'%s': %d tokens, first kind %d (want 1 token of kind %d), %u errors:\n%s", src, r.n,
                 r.n ? r.t[0].kind : -1, kind, r.diag.nerrors, r.text);
    struct fe_token t = r.t[0];
    lex_free(&r);
    return t;
}

static void assert_text(const struct fe_token *t, const char *s)
{
    if ((size_t)t->len != strlen(s) || memcmp(t->s, s, strlen(s)))
        fail_msg("token text '%.*s', expected '%s'", t->len, t->s, s);
}

MX_TEST(words_directives_registers)
{
    const char *words[] = { "add", ".reg", "%r1", "%rd12", "$L__BB0_1", "_", "__cudart_i2opi_f", ".visible",
                            "%envreg3", "a$b" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        struct fe_token t = one(words[i], TK_WORD);
        assert_text(&t, words[i]);
    }
}

MX_TEST(dotted_words_are_one_token)
{
    const char *words[] = { "ld.global.v4.u32", "%tid.x", "L2::evict_last", "ld.global.L1::evict_last.L2::cache_hint.u32",
                            "st.shared::cta.b32", "cvt.rn.f32.s32", "setp.lt.and.s32", "bar.warp.sync" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        struct fe_token t = one(words[i], TK_WORD);
        assert_text(&t, words[i]);
    }
    /* a trailing dot or a single colon ends the word */
    struct lexed r;
    lex(&r, "a. b:c");
    assert_int_equal(r.n, 5); /* "a", a stray '.', "b", ':', "c" */
    assert_text(&r.t[0], "a");
    lex_free(&r);
    lex(&r, "L1: bra L1;");
    assert_int_equal(r.n, 5);
    assert_text(&r.t[0], "L1");
    assert_int_equal(r.t[1].kind, TK_PUNCT);
    assert_int_equal(r.t[1].ch, ':');
    assert_text(&r.t[2], "bra");
    assert_int_equal(r.t[4].ch, ';');
    lex_free(&r);
}

MX_TEST(decimal_hex_octal_binary_integers)
{
    static const struct { const char *s; uint64_t v; } cases[] = {
        { "0", 0 }, { "42", 42 }, { "0x1F", 31 }, { "0XfF", 255 }, { "017", 15 }, { "0b101", 5 }, { "0B11", 3 },
        { "18446744073709551615", UINT64_MAX }, { "0xffffffffffffffff", UINT64_MAX }, { "00", 0 },
        { "01777777777777777777777", UINT64_MAX },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fe_token t = one(cases[i].s, TK_INT);
        if (t.ival != cases[i].v)
            fail_msg("'%s' = %llu, expected %llu", cases[i].s, (unsigned long long)t.ival, (unsigned long long)cases[i].v);
        assert_int_equal(t.unsig, 0);
        assert_text(&t, cases[i].s);
    }
}

MX_TEST(unsigned_suffix)
{
    struct fe_token t = one("7U", TK_INT);
    assert_int_equal(t.ival, 7);
    assert_int_equal(t.unsig, 1);
    t = one("0x10u", TK_INT);
    assert_int_equal(t.ival, 16);
    assert_int_equal(t.unsig, 1);
    assert_int_equal(t.len, 5);
}

MX_TEST(hex_float_literals_keep_exact_bits)
{
    struct fe_token t = one("0f3F800000", TK_F32);
    assert_int_equal(t.ival, 0x3F800000u);
    t = one("0F7FC00001", TK_F32); /* a signalling-ish NaN payload survives */
    assert_int_equal(t.ival, 0x7FC00001u);
    t = one("0f80000000", TK_F32);
    assert_int_equal(t.ival, 0x80000000u);
    t = one("0d3FF0000000000000", TK_F64);
    assert_int_equal(t.ival, 0x3FF0000000000000ull);
    t = one("0DFFF0000000000001", TK_F64);
    assert_int_equal(t.ival, 0xFFF0000000000001ull);
}

MX_TEST(decimal_floats)
{
    struct fe_token t = one("1.5", TK_FLOAT);
    assert_true(t.fval == 1.5);
    t = one("2e3", TK_FLOAT);
    assert_true(t.fval == 2000.0);
    t = one("1.25e-2", TK_FLOAT);
    assert_true(t.fval == 0.0125);
    t = one("3.", TK_FLOAT);
    assert_true(t.fval == 3.0);
    /* "1e" is not a float: an exponent needs digits */
    struct lexed r;
    lex(&r, "1e");
    assert_true(r.diag.nerrors == 1);
    lex_free(&r);
}

static void assert_lex_error(const char *src, unsigned line, unsigned col, const char *msg)
{
    struct lexed r;
    lex(&r, src);
    if (r.diag.nerrors != 1 || !mxt_has_diag(r.text, line, col, msg))
        fail_msg("'%s': expected one diagnostic %u:%u '%s', got %u:\n%s", src, line, col, msg, r.diag.nerrors, r.text);
    lex_free(&r);
}

MX_TEST(malformed_numbers_are_diagnosed_once)
{
    assert_lex_error("0f123", 1, 1, "malformed f32 literal");
    assert_lex_error("0f3F80000000", 1, 1, "malformed f32 literal");  /* too many digits */
    assert_lex_error("0d3FF0", 1, 1, "malformed f64 literal");
    assert_lex_error("  0x", 1, 3, "malformed number");
    assert_lex_error("0b102", 1, 1, "malformed number");
    assert_lex_error("12abc", 1, 1, "malformed number");
    assert_lex_error("\n\n 0x1ffffffffffffffff", 3, 2, "integer literal does not fit in 64 bits");
    assert_lex_error("18446744073709551616", 1, 1, "does not fit in 64 bits");
    /* the bad literal is still one number token, so the parser sees an operand */
    struct lexed r;
    lex(&r, "0x1ffffffffffffffff;");
    assert_int_equal(r.n, 2);
    assert_int_equal(r.t[0].kind, TK_INT);
    assert_int_equal(r.t[1].ch, ';');
    lex_free(&r);
    lex(&r, "0f123,");
    assert_int_equal(r.n, 2);
    assert_int_equal(r.t[0].kind, TK_F32);
    lex_free(&r);
}

MX_TEST(punctuation)
{
    const char *p = ",;:[]{}()<>|!+-*/@=~&^";
    struct lexed r;
    lex(&r, p);
    assert_int_equal(r.n, (int)strlen(p));
    for (int i = 0; i < r.n; i++) {
        assert_int_equal(r.t[i].kind, TK_PUNCT);
        assert_int_equal(r.t[i].ch, p[i]);
        assert_int_equal(r.t[i].col, (unsigned)i + 1);
    }
    assert_int_equal(r.diag.nerrors, 0);
    lex_free(&r);
}

MX_TEST(comments_are_skipped)
{
    struct lexed r;
    lex(&r, "a // b c\nd /* e\nf */ g/**/h //");
    assert_int_equal(r.diag.nerrors, 0);
    assert_int_equal(r.n, 4);
    assert_text(&r.t[0], "a");
    assert_text(&r.t[1], "d");
    assert_text(&r.t[2], "g");
    assert_int_equal(r.t[2].line, 3);
    assert_int_equal(r.t[2].col, 6);
    assert_text(&r.t[3], "h");
    assert_int_equal(r.t[3].col, 11);
    lex_free(&r);
}

MX_TEST(unterminated_comment_points_at_its_start)
{
    struct lexed r;
    lex(&r, "add\n  x /* never\nclosed");
    assert_int_equal(r.diag.nerrors, 1);
    assert_true(mxt_has_diag(r.text, 2, 5, "unterminated comment"));
    lex_free(&r);
    /* the end of input is placed after the comment, even after its last newline */
    struct mx_diag quiet = { 0 };
    struct fe_lexer lx;
    struct fe_token t;
    const char *src = "ret; /* open\n}\n";
    fe_lex_init(&lx, src, strlen(src), &quiet);
    fe_lex_next(&lx, &t);
    fe_lex_next(&lx, &t);
    fe_lex_next(&lx, &t);
    assert_int_equal(t.kind, TK_ERROR);
    fe_lex_next(&lx, &t);
    assert_int_equal(t.kind, TK_EOF);
    assert_int_equal(t.line, 3);
    assert_int_equal(t.col, 1);
    assert_int_equal(quiet.nerrors, 1);
    assert_lex_error("/*", 1, 1, "unterminated comment");
    assert_lex_error("/* *", 1, 1, "unterminated comment");
}

MX_TEST(strings)
{
    struct fe_token t = one("\"kernel.cu\"", TK_STRING);
    assert_int_equal(t.len, 11); /* quotes included */
    t = one("\"a\\\"b\"", TK_STRING);
    assert_int_equal(t.len, 6);
    assert_lex_error("x \"open", 1, 3, "unterminated string");
    assert_lex_error("\"line\nbreak", 1, 1, "unterminated string"); /* a string ends at the line's end */
}

MX_TEST(lines_and_columns)
{
    struct lexed r;
    lex(&r, "  .version 7.0\r\n\t.target sm_70\n\n   ret;");
    assert_int_equal(r.n, 6);
    assert_int_equal(r.t[0].line, 1);
    assert_int_equal(r.t[0].col, 3);
    assert_int_equal(r.t[1].kind, TK_FLOAT);
    assert_int_equal(r.t[1].col, 12);
    assert_int_equal(r.t[2].line, 2);
    assert_int_equal(r.t[2].col, 2); /* a tab is one column */
    assert_int_equal(r.t[3].line, 2);
    assert_int_equal(r.t[3].col, 10);
    assert_int_equal(r.t[4].line, 4);
    assert_int_equal(r.t[4].col, 4);
    assert_int_equal(r.t[5].col, 7);
    lex_free(&r);
}

MX_TEST(stray_bytes)
{
    assert_lex_error("a # b", 1, 3, "unexpected character");
    assert_lex_error("\x01", 1, 1, "unexpected byte 0x01");
    assert_lex_error("ab \xff", 1, 4, "unexpected byte 0xff");
    assert_lex_error(" %", 1, 2, "stray character");
    assert_lex_error(". x", 1, 1, "stray character");
    /* lexing goes on after an error */
    struct lexed r;
    lex(&r, "a ` b");
    assert_int_equal(r.n, 3);
    assert_int_equal(r.t[1].kind, TK_ERROR);
    assert_text(&r.t[2], "b");
    lex_free(&r);
}
