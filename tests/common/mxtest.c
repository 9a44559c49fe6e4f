/* tests/common/mxtest.c — registration, the runner, PTX snippet parsing with
 * captured diagnostics, program lookups and domain asserts (see mxtest.h). */
#include "mxtest.h"

#include "isa/disasm.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ registration */

static struct CMUnitTest *tests;
static size_t ntests, tests_cap;

void mxt_add(const char *name, mxt_fn fn, void *state)
{
    if (ntests == tests_cap) {
        size_t nc = tests_cap ? tests_cap * 2 : 64;
        struct CMUnitTest *t = realloc(tests, nc * sizeof *t);
        if (!t) {
            fprintf(stderr, "mxtest: out of memory registering %s\n", name);
            exit(2);
        }
        tests = t;
        tests_cap = nc;
    }
    tests[ntests++] = (struct CMUnitTest){ .name = name, .test_func = fn, .initial_state = state };
}

int mxt_run(int argc, char **argv)
{
    const char *group = argc > 0 ? strrchr(argv[0], '/') : NULL;
    group = group ? group + 1 : argc > 0 ? argv[0] : "tests";
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    if (argc > 2)
        cmocka_set_skip_filter(argv[2]);
    if (!ntests) {
        fprintf(stderr, "%s: no tests registered\n", group);
        return 1; /* a test program that tests nothing is a broken test program */
    }
    int failed = _cmocka_run_group_tests(group, tests, ntests, NULL, NULL);
    free(tests);
    tests = NULL;
    ntests = tests_cap = 0;
    return failed;
}

/* ------------------------------------------------------------- PTX snippets */

int mxt_parse(struct mxt_parse *r, const char *src, uint32_t ext_mask)
{
    memset(r, 0, sizeof *r);
    FILE *mem = open_memstream(&r->text, &r->textlen);
    assert_non_null(mem);
    struct fe_options opt = { .ext_mask = ext_mask, .max_errors = 100, .diag_out = mem };
    r->diag.out = mem;
    r->diag.file = "t.ptx";
    r->rc = fe_parse_ptx(src, strlen(src), "t.ptx", &opt, &r->prog, &r->diag);
    fclose(mem);
    return r->rc;
}

void mxt_parse_free(struct mxt_parse *r)
{
    mx_program_free(&r->prog);
    free(r->text);
    r->text = NULL;
}

void mxt_parse_ok_(struct mxt_parse *r, const char *src, uint32_t ext_mask, const char *file, int line)
{
    mxt_parse(r, src, ext_mask);
    if (r->rc != MX_OK || r->diag.nerrors) {
        print_error("expected the snippet to parse, got %s with:\n%s\n--- snippet ---\n%s\n", mx_status_name(r->rc),
                    r->text, src);
        _fail(file, line);
    }
}

int mxt_has_diag(const char *text, unsigned line, unsigned col, const char *substr)
{
    char pos[48];
    if (col)
        snprintf(pos, sizeof pos, ":%u:%u: error: ", line, col);
    else
        snprintf(pos, sizeof pos, ":%u:", line);
    for (const char *l = text; l && *l;) {
        const char *eol = strchr(l, '\n');
        size_t n = eol ? (size_t)(eol - l) : strlen(l);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), l);
        const char *at = strstr(buf, pos);
        if (at && (col || strstr(at, ": error: ")) && strstr(at, substr))
            return 1;
        l = eol ? eol + 1 : NULL;
    }
    return 0;
}

unsigned mxt_count_errors(const char *text)
{
    unsigned n = 0;
    for (const char *s = text; s && (s = strstr(s, ": error: ")); s++)
        n++;
    return n;
}

void mxt_parse_err_(struct mxt_parse *r, const char *src, uint32_t ext_mask, int status, unsigned line, unsigned col,
                    const char *substr, const char *file, int fline)
{
    mxt_parse(r, src, ext_mask);
    if (r->rc != status) {
        print_error("expected status %s, got %s; diagnostics:\n%s\n", mx_status_name(status), mx_status_name(r->rc), r->text);
        _fail(file, fline);
    }
    if (!mxt_has_diag(r->text, line, col, substr)) {
        print_error("expected a diagnostic t.ptx:%u:%u: error: ...%s...; got:\n%s\n", line, col, substr, r->text);
        _fail(file, fline);
    }
}

/* ----------------------------------------------------------- program lookups */

uint32_t mxt_func(const struct mx_program *p, const char *name)
{
    int f = mx_program_find_func(p, name);
    if (f < 0)
        fail_msg("no function '%s'", name);
    return (uint32_t)f;
}

const struct mx_insn *mxt_insn(const struct mx_program *p, uint32_t fn, uint32_t n)
{
    assert_true(fn < p->nfuncs);
    if (n >= p->funcs[fn].ninsns)
        fail_msg("function %s has %u instructions, asked for #%u", mx_str(p, p->funcs[fn].name), p->funcs[fn].ninsns, n);
    return &p->insns[p->funcs[fn].first + n];
}

uint32_t mxt_sym(const struct mx_program *p, uint32_t fn, const char *name)
{
    for (uint32_t i = 0; i < p->nsyms; i++)
        if (p->syms[i].func == fn && !strcmp(mx_str(p, p->syms[i].name), name))
            return i;
    fail_msg("no symbol '%s' in %s", name, fn == MX_NONE ? "module scope" : mx_str(p, p->funcs[fn].name));
    return MX_NONE;
}

const struct mx_regdecl *mxt_regdecl(const struct mx_program *p, uint32_t fn, const char *name)
{
    const struct mx_func *f = &p->funcs[fn];
    for (uint32_t i = 0; i < f->nregdecls; i++)
        if (!strcmp(mx_str(p, p->regdecls[f->regdecl + i].name), name))
            return &p->regdecls[f->regdecl + i];
    fail_msg("no register declaration '%s'", name);
    return NULL;
}

uint32_t mxt_label(const struct mx_program *p, uint32_t fn, const char *name)
{
    for (uint32_t i = 0; i < p->nlabels; i++)
        if (p->labels[i].func == fn && !strcmp(mx_str(p, p->labels[i].name), name))
            return p->labels[i].insn;
    fail_msg("no label '%s'", name);
    return MX_NONE;
}

/* ------------------------------------------------------------ domain asserts */

static const char *kind_name(int k)
{
    static const char *const names[] = { "NONE", "REG", "PRED", "IMM", "SREG", "SYM", "ADDR", "VEC", "TEXADDR",
                                         "LABEL", "TARGETS", "LIST", "FUNC", "PROTO", "SINK", "INDREG" };
    return k >= 0 && k < MX_OPD__COUNT ? names[k] : "?";
}

void mxt_assert_opd_(const struct mx_operand *o, int kind, uint32_t reg, int type, const char *file, int line)
{
    if (o->kind != kind || o->reg != reg || o->type != type) {
        print_error("operand is %s reg=%u type=.%s, expected %s reg=%u type=.%s\n", kind_name(o->kind), o->reg,
                    mx_type_name(o->type), kind_name(kind), reg, mx_type_name(type));
        _fail(file, line);
    }
}

void mxt_assert_imm_(const struct mx_operand *o, int64_t bits, int type, int flags, const char *file, int line)
{
    if (o->kind != MX_OPD_IMM || o->imm != bits || o->type != type || o->flags != flags) {
        print_error("operand is %s imm=0x%llx type=.%s flags=%u, expected IMM imm=0x%llx type=.%s flags=%u\n",
                    kind_name(o->kind), (unsigned long long)o->imm, mx_type_name(o->type), o->flags,
                    (unsigned long long)bits, mx_type_name(type), (unsigned)flags);
        _fail(file, line);
    }
}

void mxt_assert_round_trip_(const char *src, uint32_t ext_mask, const char *file, int line)
{
    struct mxt_parse a, b;
    mxt_parse(&a, src, ext_mask);
    if (a.rc != MX_OK) {
        print_error("round trip: the source does not parse:\n%s\n", a.text);
        mxt_parse_free(&a);
        _fail(file, line);
        return;
    }
    char *dis = NULL;
    size_t dlen = 0;
    FILE *mem = open_memstream(&dis, &dlen);
    assert_non_null(mem);
    assert_int_equal(mx_disasm_program(mem, &a.prog), 0);
    fclose(mem);
    mxt_parse(&b, dis, ext_mask);
    char why[256] = "";
    int ok = b.rc == MX_OK && mx_program_equal(&a.prog, &b.prog, why, sizeof why);
    if (!ok)
        print_error("round trip failed (%s%s%s); disassembly:\n%s\n", b.rc == MX_OK ? "" : "re-parse: ",
                    b.rc == MX_OK ? why : b.text, "", dis);
    free(dis);
    mxt_parse_free(&a);
    mxt_parse_free(&b);
    if (!ok)
        _fail(file, line);
}

char *mxt_read_source(const char *relpath, size_t *len)
{
    char path[4096], err[512];
    char *text = NULL;
    snprintf(path, sizeof path, "%s/%s", SOURCE_ROOT, relpath);
    if (fe_read_file(path, &text, len, err, sizeof err) != MX_OK)
        return NULL;
    return text;
}
