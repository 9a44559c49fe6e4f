/* tests/frontend/test_diag_files.c — runs every tests/frontend/ *.ptx file as
 * one cmocka case (after QEMU's tests/decode/err_*.decode):
 *   err_*.ptx      must be rejected with exactly the diagnostics it names;
 *   succ_*.ptx     must parse cleanly and survive the disassembler round trip;
 *   regress_*.ptx  a found bug: an err_ file if it names diagnostics, else succ_.
 * Leading comment lines of a file drive the check:
 *   // expect: LINE:COL: error: SUBSTRING   a diagnostic that must be printed
 *   // errors: N                           exact error count (default: the
 *                                           number of expect lines)
 *   // status: MX_EUNSUPPORTED             status (default: any failure)
 *   // isa-ext: indirect-mov               extensions to enable            */
#include "mxtest.h"

#include "isa/disasm.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define DIR_REL "tests/frontend"
#define MAX_EXPECT 16

struct expect {
    unsigned line, col;
    char text[256];
};

struct header {
    struct expect e[MAX_EXPECT];
    int ne;
    int errors;      /* -1: as many as expect lines */
    int status;      /* -1: any failure */
    uint32_t ext;
};

/* Reads the leading comment block of text; fails the test on a malformed line. */
static void read_header(const char *name, const char *text, size_t len, struct header *h)
{
    memset(h, 0, sizeof *h);
    h->errors = h->status = -1;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);
        char line[512];
        if (n >= sizeof line || n < 2 || p[0] != '/' || p[1] != '/')
            break;
        memcpy(line, p, n);
        line[n] = 0;
        if (memchr(line, 0, n))
            break;
        const char *v;
        if ((v = strstr(line, "expect:"))) {
            if (h->ne >= MAX_EXPECT)
                fail_msg("%s: too many expect lines", name);
            struct expect *e = &h->e[h->ne++];
            int used = 0;
            if (sscanf(v + 7, " %u:%u: error: %n", &e->line, &e->col, &used) < 2 || !used)
                fail_msg("%s: malformed expect line '%s'", name, line);
            snprintf(e->text, sizeof e->text, "%s", v + 7 + used);
            if (!e->text[0])
                fail_msg("%s: expect line without a message: '%s'", name, line);
        } else if ((v = strstr(line, "errors:"))) {
            h->errors = atoi(v + 7);
        } else if ((v = strstr(line, "status:"))) {
            char s[64] = "";
            sscanf(v + 7, " %63s", s);
            for (int k = 0; k < MX_STATUS__COUNT; k++)
                if (!strcmp(s, mx_status_name(k)))
                    h->status = k;
            if (h->status < 0)
                fail_msg("%s: unknown status '%s'", name, s);
        } else if ((v = strstr(line, "isa-ext:"))) {
            char s[64] = "";
            sscanf(v + 8, " %63s", s);
            int e = mx_ext_lookup(s);
            if (e == MX_EXT_NONE)
                fail_msg("%s: unknown ISA extension '%s'", name, s);
            h->ext |= 1u << e;
        }
        p = eol ? eol + 1 : end;
    }
}

static void parse_file(const char *name, const char *text, size_t len, uint32_t ext, struct mxt_parse *r)
{
    memset(r, 0, sizeof *r);
    FILE *mem = open_memstream(&r->text, &r->textlen);
    assert_non_null(mem);
    struct fe_options opt = { .ext_mask = ext, .max_errors = 100, .diag_out = mem };
    r->diag.out = mem;
    r->diag.file = name;
    r->rc = fe_parse_ptx(text, len, name, &opt, &r->prog, &r->diag);
    fclose(mem);
}

static void check_round_trip(const char *name, const struct mx_program *a, uint32_t ext)
{
    char *dis = NULL;
    size_t dlen = 0;
    FILE *mem = open_memstream(&dis, &dlen);
    assert_non_null(mem);
    assert_int_equal(mx_disasm_program(mem, a), 0);
    fclose(mem);
    struct mxt_parse b;
    parse_file("<disassembly>", dis, dlen, ext, &b);
    char why[256] = "";
    if (b.rc != MX_OK)
        fail_msg("%s: the disassembly does not re-parse:\n%s\n%s", name, b.text, dis);
    if (!mx_program_equal(a, &b.prog, why, sizeof why))
        fail_msg("%s: round trip differs: %s\n%s", name, why, dis);
    mxt_parse_free(&b);
    free(dis);
}

static void run_file(void **state)
{
    const char *name = *state;
    char rel[512];
    size_t len;
    snprintf(rel, sizeof rel, DIR_REL "/%s", name);
    char *text = mxt_read_source(rel, &len);
    if (!text)
        fail_msg("cannot read %s", rel);
    struct header h;
    read_header(name, text, len, &h);
    int want_fail = !strncmp(name, "err_", 4) || (!strncmp(name, "regress_", 8) && h.ne);
    if (!strncmp(name, "err_", 4) && !h.ne)
        fail_msg("%s: an err_ file must name its diagnostics with '// expect:' lines", name);
    if (!strncmp(name, "succ_", 5) && h.ne)
        fail_msg("%s: a succ_ file cannot expect diagnostics", name);

    struct mxt_parse r;
    parse_file(name, text, len, h.ext, &r);
    if (!want_fail) {
        if (r.rc != MX_OK || r.diag.nerrors)
            fail_msg("%s: expected a clean parse, got %s:\n%s", name, mx_status_name(r.rc), r.text);
        check_round_trip(name, &r.prog, h.ext);
    } else {
        if (r.rc == MX_OK)
            fail_msg("%s: parsed without errors, expected a failure", name);
        if (h.status >= 0 && r.rc != h.status)
            fail_msg("%s: status %s, expected %s:\n%s", name, mx_status_name(r.rc), mx_status_name(h.status), r.text);
        if (r.rc != MX_EPARSE && r.rc != MX_EUNSUPPORTED)
            fail_msg("%s: status %s is not a parse status", name, mx_status_name(r.rc));
        int missing = 0;
        for (int i = 0; i < h.ne; i++) {
            char pos[300];
            snprintf(pos, sizeof pos, "%s:%u:%u: error: ", name, h.e[i].line, h.e[i].col);
            int found = 0;
            for (const char *l = r.text; l && *l && !found;) {
                const char *eol = strchr(l, '\n');
                size_t n = eol ? (size_t)(eol - l) : strlen(l);
                char buf[1024];
                snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), l);
                found = !strncmp(buf, pos, strlen(pos)) && strstr(buf + strlen(pos), h.e[i].text);
                l = eol ? eol + 1 : NULL;
            }
            if (!found) {
                print_error("%s: missing diagnostic %s%s\n", name, pos, h.e[i].text);
                missing++;
            }
        }
        unsigned want_n = h.errors >= 0 ? (unsigned)h.errors : (unsigned)h.ne;
        if (missing || r.diag.nerrors != want_n)
            fail_msg("%s: %d expected diagnostic(s) missing, %u error(s) reported, %u expected; got:\n%s", name,
                     missing, r.diag.nerrors, want_n, r.text);
        assert_int_equal(mxt_count_errors(r.text), r.diag.nerrors);
    }
    mxt_parse_free(&r);
    free(text);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/" DIR_REL, SOURCE_ROOT);
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0, nerr = 0, nsucc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ptx"))
            continue;
        int err = !strncmp(e->d_name, "err_", 4), succ = !strncmp(e->d_name, "succ_", 5);
        if (!err && !succ && strncmp(e->d_name, "regress_", 8))
            continue;
        nerr += err;
        nsucc += succ;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                return 1;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    /* a broken directory scan must not look like a pass */
    if (nerr < 30 || nsucc < 3) {
        fprintf(stderr, "%s: found %zu err_ and %zu succ_ files, expected at least 30 and 3\n", dir, nerr, nsucc);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        mxt_add(names[i], run_file, names[i]);
    int failed = mxt_run(argc, argv);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return failed ? 1 : 0;
}
