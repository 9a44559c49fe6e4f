/* tests/frontend/test_forms.c — the parser accepts exactly the instruction
 * forms ptxas accepts, over the modifier x type matrices recorded in
 * tests/frontend/forms/ *.forms (by gen_forms.py, from ptxas 13.0): cvt,
 * set, setp, and the arithmetic family.  One cmocka case per file; each row
 * becomes one kernel with one instruction per column, and every line must be
 * rejected by the parser exactly when ptxas rejected it. */
#include "mxtest.h"

#include <stdlib.h>
#include <string.h>

#define MAX_AXES 6
#define MAX_VALUES 24
#define MAX_COLS 4096

/* The register declarations gen_forms.py's kernels start with. */
static const char head[] = ".version 9.0\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n"
                           "  .reg .b16 %h<8>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
                           "  .reg .f32 %f<8>;\n  .reg .f64 %fd<8>;\n  .reg .pred %p<8>;\n";
#define FIRST_LINE 12 /* line of the first instruction */

struct axes {
    int n;
    int nval[MAX_AXES];
    char val[MAX_AXES][MAX_VALUES][32]; /* modifier spelling ("" = absent) */
    char opd[MAX_AXES][MAX_VALUES][16]; /* operand text it adds */
};

struct tally {
    unsigned rows, cells, accepted, mismatches;
};

/* Parses "axis: a | b@,%p3 | ..." into the next axis. */
static void add_axis(struct axes *ax, const char *s, const char *file)
{
    if (ax->n >= MAX_AXES)
        fail_msg("%s: too many axes", file);
    int k = ax->n++, n = 0;
    for (const char *p = s;; p++) {
        const char *e = strchr(p, '|');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char v[64];
        snprintf(v, sizeof v, "%.*s", (int)len, p);
        char *b = v, *z = v + strlen(v);
        while (*b == ' ')
            b++;
        while (z > b && (z[-1] == ' ' || z[-1] == '\n'))
            *--z = 0;
        if (n >= MAX_VALUES)
            fail_msg("%s: axis with too many values", file);
        char *at = strchr(b, '@');
        snprintf(ax->opd[k][n], sizeof ax->opd[k][n], "%s", at ? at + 1 : "");
        if (at)
            *at = 0;
        snprintf(ax->val[k][n], sizeof ax->val[k][n], "%s", b);
        n++;
        if (!e)
            break;
        p = e;
    }
    ax->nval[k] = n;
}

/* Instruction text of column c (first axis slowest) into buf. */
static void column_text(const struct axes *ax, unsigned c, const char *op, const char *types, const char *opds,
                        char *buf, size_t size)
{
    unsigned idx[MAX_AXES];
    for (int k = ax->n - 1; k >= 0; k--) {
        idx[k] = c % (unsigned)ax->nval[k];
        c /= (unsigned)ax->nval[k];
    }
    size_t n = (size_t)snprintf(buf, size, "%s", op);
    for (int k = 0; k < ax->n && n < size; k++)
        if (ax->val[k][idx[k]][0])
            n += (size_t)snprintf(buf + n, size - n, ".%s", ax->val[k][idx[k]]);
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, ".%s ", types);
    for (const char *o = opds; *o && n + 2 < size; o++) { /* "a,b" -> "a, b" */
        buf[n++] = *o;
        if (*o == ',')
            buf[n++] = ' ';
    }
    buf[n] = 0;
    for (int k = 0; k < ax->n; k++)
        strncat(buf, ax->opd[k][idx[k]], size - strlen(buf) - 2);
    strncat(buf, ";", size - strlen(buf) - 1);
}

/* Checks one row: every column's instruction in one kernel. */
static void check_row(const char *file, const struct axes *ax, const char *op, const char *types, const char *opds,
                      const char *mask, struct tally *t)
{
    unsigned ncol = 1;
    for (int k = 0; k < ax->n; k++)
        ncol *= (unsigned)ax->nval[k];
    if (strlen(mask) != ncol || ncol > MAX_COLS)
        fail_msg("%s: row %s.%s has %zu columns, the axes make %u", file, op, types, strlen(mask), ncol);
    char *src = NULL;
    size_t srclen = 0;
    FILE *s = open_memstream(&src, &srclen);
    assert_non_null(s);
    fputs(head, s);
    char insn[256];
    for (unsigned c = 0; c < ncol; c++) {
        column_text(ax, c, op, types, opds, insn, sizeof insn);
        fprintf(s, "  %s\n", insn);
    }
    fputs("  ret;\n}\n", s);
    fclose(s);

    char *diag = NULL;
    size_t dlen = 0;
    FILE *mem = open_memstream(&diag, &dlen);
    assert_non_null(mem);
    struct mx_program prog;
    struct mx_diag d = { .out = mem, .file = "f.ptx", .max_errors = ncol + 10 };
    struct fe_options opt = { .max_errors = ncol + 10, .diag_out = mem };
    fe_parse_ptx(src, srclen, "f.ptx", &opt, &prog, &d);
    fclose(mem);
    mx_program_free(&prog);

    static unsigned char bad[MAX_COLS];
    memset(bad, 0, ncol);
    for (const char *l = diag; l && *l;) {
        unsigned line;
        if (sscanf(l, "f.ptx:%u:", &line) == 1 && line >= FIRST_LINE && line < FIRST_LINE + ncol)
            bad[line - FIRST_LINE] = 1;
        else if (strstr(l, "error"))
            fail_msg("%s: diagnostic outside the instructions: %.*s", file, (int)strcspn(l, "\n"), l);
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    t->rows++;
    for (unsigned c = 0; c < ncol; c++) {
        int want_ok = mask[c] == '+';
        t->cells++;
        t->accepted += want_ok;
        if (want_ok == !bad[c])
            continue;
        column_text(ax, c, op, types, opds, insn, sizeof insn);
        if (t->mismatches++ < 40) {
            char why[300] = "";
            if (bad[c]) { /* quote the parser's reason */
                char pos[32];
                snprintf(pos, sizeof pos, "f.ptx:%u:", FIRST_LINE + c);
                const char *l = strstr(diag, pos);
                if (l)
                    snprintf(why, sizeof why, "  (%.*s)", (int)strcspn(l, "\n"), l);
            }
            print_error("%s: '%s' %s by ptxas, %s by the parser%s\n", file, insn, want_ok ? "accepted" : "rejected",
                        want_ok ? "rejected" : "accepted", why);
        }
    }
    free(diag);
    free(src);
}

static void run_file(void **state)
{
    const char *name = *state;
    char rel[256];
    snprintf(rel, sizeof rel, "tests/frontend/forms/%s", name);
    size_t len;
    char *text = mxt_read_source(rel, &len);
    if (!text)
        fail_msg("cannot read %s", rel);
    struct axes *ax = calloc(1, sizeof *ax);
    assert_non_null(ax);
    struct tally t = { 0 };
    char op[32] = "";
    for (char *l = text; l && *l;) {
        char *eol = strchr(l, '\n');
        if (eol)
            *eol = 0;
        if (!strncmp(l, "axis:", 5)) {
            add_axis(ax, l + 5, name);
        } else if (!strncmp(l, "op:", 3)) {
            if (sscanf(l + 3, " %31s", op) != 1)
                fail_msg("%s: malformed op line '%s'", name, l);
        } else if (!strncmp(l, "row:", 4)) {
            char types[64], opds[128], mask[MAX_COLS + 1];
            if (!op[0] || sscanf(l + 4, " %63s %127s %4096s", types, opds, mask) != 3)
                fail_msg("%s: malformed row '%s'", name, l);
            check_row(name, ax, op, types, opds, mask, &t);
        } else if (*l && *l != '#') {
            fail_msg("%s: unknown line '%s'", name, l);
        }
        l = eol ? eol + 1 : NULL;
    }
    print_message("%s: %u rows, %u forms, %u accepted by ptxas, %u mismatches\n", name, t.rows, t.cells, t.accepted,
                  t.mismatches);
    /* a truncated or empty table must not look like a pass */
    assert_true(t.rows > 0 && t.accepted > 0 && t.accepted < t.cells);
    if (t.mismatches)
        fail_msg("%s: the parser disagrees with ptxas on %u of %u forms", name, t.mismatches, t.cells);
    free(ax);
    free(text);
}

int main(int argc, char **argv)
{
    static const char *files[] = { "cvt.forms", "set.forms", "setp.forms", "arith.forms", "arith_rnd.forms" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        mxt_add(files[i], run_file, (void *)files[i]);
    return mxt_run(argc, argv) ? 1 : 0;
}
