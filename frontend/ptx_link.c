/* frontend/ptx_link.c — links the PTX of several translation units into one
 * module, as the device linker does for programs built with -rdc=true and
 * as cuLinkCreate/cuLinkAddData/cuLinkComplete do at run time.
 *
 * The input is each unit's PTX text; the output is one PTX text that our
 * parser reads like any other: the highest .version and .target, then each
 * unit's top-level statements in order, with
 *   - an `.extern` declaration of a function another unit defines turned
 *     into that definition's prototype (PTX allows a prototype before the
 *     body), and of a variable another unit defines replaced by the
 *     definition itself (hoisted to its first use, emitted once);
 *   - `.weak` definitions (inline functions and template instances every
 *     unit carries) kept once, the first;
 *   - names with internal linkage (`$str` of printf, static functions and
 *     variables) that another unit also uses renamed NAME_mxlN in unit N (0-based);
 *   - `.file` indices renumbered (and the `.loc` lines that name them).
 * Two units defining one external name, or a use of one nobody defines
 * (other than the runtime's functions, vprintf & co.), is an error naming
 * the symbol and the units, as nvlink's.  Variables declared several names
 * to a statement are not produced by nvcc or clang and are not supported. */
#include "frontend/ptx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { L_NONE, L_VISIBLE, L_EXTERN, L_WEAK };
enum { K_OTHER, K_HEADER, K_FILE, K_FUNC, K_VAR };

struct stmt {
    size_t beg, end;   /* [beg, end) in the unit's text */
    size_t hdr_end;    /* K_FUNC with a body: where the '{' is */
    int kind, link, body;
    char name[256];
};

struct unit {
    const char *t;
    size_t n;
    struct stmt *s;
    size_t ns, cap;
    unsigned file_off, file_max;
    char **ren;        /* internal names renamed in this unit */
    size_t nren;
};

struct out { char *p; size_t n, cap; int oom; };

static void put(struct out *o, const char *s, size_t k)
{
    if (o->oom)
        return;
    if (o->n + k + 1 > o->cap) {
        size_t c = o->cap ? o->cap : 65536;
        while (c < o->n + k + 1)
            c *= 2;
        char *p = realloc(o->p, c);
        if (!p) {
            o->oom = 1;
            return;
        }
        o->p = p, o->cap = c;
    }
    memcpy(o->p + o->n, s, k);
    o->n += k;
    o->p[o->n] = 0;
}

static int id_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%'; }
static int id_char(int c) { return id_start(c) || (c >= '0' && c <= '9'); }

/* Skips a comment or string at t[p] (returns the position after it), or returns p. */
static size_t skip_lit(const char *t, size_t n, size_t p)
{
    if (p + 1 < n && t[p] == '/' && t[p + 1] == '/') {
        while (p < n && t[p] != '\n')
            p++;
        return p;
    }
    if (p + 1 < n && t[p] == '/' && t[p + 1] == '*') {
        p += 2;
        while (p + 1 < n && !(t[p] == '*' && t[p + 1] == '/'))
            p++;
        return p + 2 <= n ? p + 2 : n;
    }
    if (t[p] == '"') {
        for (p++; p < n && t[p] != '"'; p++)
            if (t[p] == '\\' && p + 1 < n)
                p++;
        return p < n ? p + 1 : n;
    }
    return p;
}

/* Reads the next token of a statement's start: a directive (.word), an identifier or a single character. */
static size_t token(const char *t, size_t n, size_t p, size_t end, char *tok, size_t cap)
{
    for (;;) {
        while (p < end && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r'))
            p++;
        size_t q = skip_lit(t, n, p);
        if (q == p || t[p] == '"')
            break;
        p = q;
    }
    size_t b = p;
    if (p < end && (t[p] == '.' || id_char(t[p])))
        for (p++; p < end && id_char(t[p]); p++)
            ;
    else if (p < end)
        p++;
    size_t k = p - b < cap - 1 ? p - b : cap - 1;
    memcpy(tok, t + b, k);
    tok[k] = 0;
    return p;
}

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Classifies statement s: its linkage, kind and the name it declares. */
static void classify(struct unit *u, struct stmt *s)
{
    char tok[256];
    size_t p = s->beg;
    s->kind = K_OTHER;
    s->link = L_NONE;
    p = token(u->t, u->n, p, s->end, tok, sizeof tok);
    if (!strcmp(tok, ".version") || !strcmp(tok, ".target") || !strcmp(tok, ".address_size")) {
        s->kind = K_HEADER;
        return;
    }
    if (!strcmp(tok, ".file")) {
        s->kind = K_FILE;
        return;
    }
    if (!strcmp(tok, ".visible"))
        s->link = L_VISIBLE;
    else if (!strcmp(tok, ".extern"))
        s->link = L_EXTERN;
    else if (!strcmp(tok, ".weak") || !strcmp(tok, ".common"))
        s->link = L_WEAK;
    if (s->link != L_NONE)
        p = token(u->t, u->n, p, s->end, tok, sizeof tok);
    if (!strcmp(tok, ".entry") || !strcmp(tok, ".func")) {
        s->kind = K_FUNC;
        p = token(u->t, u->n, p, s->end, tok, sizeof tok);
        if (!strcmp(tok, "(")) { /* the return parameters */
            int d = 1;
            while (d && p < s->end) {
                p = token(u->t, u->n, p, s->end, tok, sizeof tok);
                d += !strcmp(tok, "(") - !strcmp(tok, ")");
            }
            p = token(u->t, u->n, p, s->end, tok, sizeof tok);
        }
        snprintf(s->name, sizeof s->name, "%s", tok);
        return;
    }
    static const char *const spaces[] = { ".global", ".const", ".shared", ".local", ".tex", ".texref", ".surfref",
                                          ".samplerref" };
    for (size_t i = 0; i < sizeof spaces / sizeof *spaces; i++)
        if (!strcmp(tok, spaces[i])) {
            s->kind = K_VAR;
            while (p < s->end) { /* the first identifier after the state space, types and .align N */
                p = token(u->t, u->n, p, s->end, tok, sizeof tok);
                if (tok[0] != '.' && id_start((unsigned char)tok[0])) {
                    snprintf(s->name, sizeof s->name, "%s", tok);
                    return;
                }
            }
            return;
        }
}

/* Splits a unit into top-level statements. */
static int split(struct unit *u, unsigned idx, char *err, size_t errlen)
{
    const char *t = u->t;
    size_t n = u->n, p = 0;
    while (p < n) {
        size_t q;
        for (;;) { /* blanks and comments between statements */
            while (p < n && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r'))
                p++;
            if (p < n && t[p] != '"' && (q = skip_lit(t, n, p)) != p) {
                p = q;
                continue;
            }
            break;
        }
        if (p >= n)
            break;
        struct stmt s = { 0 };
        s.beg = p;
        int paren = 0, last = 0;
        char tok[16];
        token(t, n, p, n, tok, sizeof tok);
        if (!strcmp(tok, ".version") || !strcmp(tok, ".target") || !strcmp(tok, ".address_size") ||
            !strcmp(tok, ".file")) { /* directives without a ';': to the end of the line */
            while (p < n && t[p] != '\n')
                p = t[p] == '"' ? skip_lit(t, n, p) : p + 1;
            s.end = p;
            goto done;
        }
        for (;;) {
            if (p >= n)
                return fail(err, errlen, "unit %u: the PTX ends inside a statement", idx + 1);
            q = skip_lit(t, n, p);
            if (q != p) {
                p = q;
                continue;
            }
            char c = t[p];
            if (c == '(')
                paren++;
            else if (c == ')')
                paren--;
            else if (c == ';' && !paren) {
                p++;
                break;
            } else if (c == '{') {
                int init = last == '=', d = 0;
                if (!init)
                    s.hdr_end = p, s.body = 1;
                for (; p < n; p++) { /* to the matching brace */
                    q = skip_lit(t, n, p);
                    if (q != p) {
                        p = q - 1;
                        continue;
                    }
                    d += (t[p] == '{') - (t[p] == '}');
                    if (!d)
                        break;
                }
                if (p >= n)
                    return fail(err, errlen, "unit %u: unbalanced braces", idx + 1);
                p++;
                if (!init)
                    break;
                last = '}';
                continue;
            }
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                last = c;
            p++;
        }
        s.end = p;
    done:
        classify(u, &s);
        if (u->ns == u->cap) {
            size_t c = u->cap ? 2 * u->cap : 64;
            struct stmt *ns = realloc(u->s, c * sizeof *ns);
            if (!ns)
                return fail(err, errlen, "out of memory");
            u->s = ns, u->cap = c;
        }
        u->s[u->ns++] = s;
    }
    return 0;
}

/* Where name is defined with external linkage (a function with a body, a variable not extern): the first unit
 * and statement, or -1. */
struct def { const char *name; unsigned u; size_t s; int emitted, proto; };

static struct def *find_def(struct def *d, size_t nd, const char *name)
{
    for (size_t i = 0; i < nd; i++)
        if (!strcmp(d[i].name, name))
            return &d[i];
    return NULL;
}

static int renamed(const struct unit *u, const char *name, size_t k)
{
    for (size_t i = 0; i < u->nren; i++)
        if (strlen(u->ren[i]) == k && !memcmp(u->ren[i], name, k))
            return 1;
    return 0;
}

/* Copies t[b, e) of unit ui: renamed identifiers get _mxlN, .file/.loc indices their offset. */
static void emit(struct out *o, const struct unit *u, unsigned ui, size_t b, size_t e)
{
    const char *t = u->t;
    size_t p = b;
    int renumber = 0;
    while (p < e) {
        size_t q = skip_lit(t, u->n, p);
        if (q != p) {
            put(o, t + p, (q < e ? q : e) - p);
            p = q;
            continue;
        }
        if (t[p] == '.' || id_start((unsigned char)t[p])) {
            size_t s = p;
            for (p++; p < e && id_char(t[p]); p++)
                ;
            int after = s > b && (id_char(t[s - 1]) || t[s - 1] == '.');
            put(o, t + s, p - s);
            if (t[s] != '.' && !after && renamed(u, t + s, p - s)) {
                char suf[24];
                snprintf(suf, sizeof suf, "_mxl%u", ui);
                put(o, suf, strlen(suf));
            }
            renumber = (p - s == 4 && !memcmp(t + s, ".loc", 4)) || (p - s == 5 && !memcmp(t + s, ".file", 5));
            continue;
        }
        if (renumber && t[p] >= '0' && t[p] <= '9') {
            unsigned v = 0;
            for (; p < e && t[p] >= '0' && t[p] <= '9'; p++)
                v = v * 10 + (unsigned)(t[p] - '0');
            char num[24];
            snprintf(num, sizeof num, "%u", v + u->file_off);
            put(o, num, strlen(num));
            renumber = 0;
            continue;
        }
        if (t[p] != ' ' && t[p] != '\t')
            renumber = 0;
        put(o, t + p, 1);
        p++;
    }
}

/* The functions of the CUDA runtime that PTX declares .extern and the emulator provides. */
static int runtime_fn(const char *name)
{
    static const char *const fns[] = { "vprintf", "malloc", "free", "__assertfail", "__cudaCDP2",
                                       "cudaGraphSetConditional" };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (!strncmp(name, fns[i], strlen(fns[i])))
            return 1;
    return 0;
}

char *fe_ptx_link(const char *const *texts, const size_t *lens, unsigned n, size_t *outlen, char *err, size_t errlen)
{
    struct unit *u = calloc(n ? n : 1, sizeof *u);
    struct def *defs = NULL;
    size_t nd = 0, cd = 0;
    struct out o = { 0 };
    int bad = 0;
    if (!u) {
        fail(err, errlen, "out of memory");
        return NULL;
    }
    unsigned vmaj = 0, vmin = 0, sm = 0, best_t = 0;
    size_t best_ts = 0;
    for (unsigned i = 0; i < n && !bad; i++) {
        u[i].t = texts[i];
        u[i].n = lens[i];
        if (split(&u[i], i, err, errlen)) {
            bad = 1;
            break;
        }
        for (size_t k = 0; k < u[i].ns; k++) {
            struct stmt *s = &u[i].s[k];
            char tok[64];
            if (s->kind == K_HEADER) {
                size_t p = token(u[i].t, u[i].n, s->beg, s->end, tok, sizeof tok);
                if (!strcmp(tok, ".version")) {
                    unsigned a = 0, b = 0;
                    while (p < s->end && (u[i].t[p] == ' ' || u[i].t[p] == '\t'))
                        p++;
                    if (sscanf(u[i].t + p, "%u.%u", &a, &b) == 2 && (a > vmaj || (a == vmaj && b > vmin)))
                        vmaj = a, vmin = b;
                } else if (!strcmp(tok, ".target")) {
                    token(u[i].t, u[i].n, p, s->end, tok, sizeof tok);
                    unsigned v = 0;
                    if (sscanf(tok, "sm_%u", &v) == 1 && v >= sm)
                        sm = v, best_t = i, best_ts = k;
                }
            } else if (s->kind == K_FILE) {
                unsigned f = 0;
                size_t p = token(u[i].t, u[i].n, s->beg, s->end, tok, sizeof tok);
                if (sscanf(u[i].t + p, " %u", &f) == 1 && f > u[i].file_max)
                    u[i].file_max = f;
            } else if ((s->kind == K_FUNC && s->body && s->link != L_NONE) ||
                       (s->kind == K_VAR && s->link != L_EXTERN && s->link != L_NONE)) {
                struct def *d = find_def(defs, nd, s->name);
                if (d && s->link != L_WEAK && u[d->u].s[d->s].link != L_WEAK) {
                    fail(err, errlen, "%s '%s' is defined in unit %u and in unit %u", s->kind == K_FUNC ? "function" :
                         "variable", s->name, d->u + 1, i + 1);
                    bad = 1;
                    break;
                }
                if (d && s->link != L_WEAK) /* a strong definition wins over a weak one */
                    d->u = i, d->s = k;
                if (d)
                    continue;
                if (nd == cd) {
                    cd = cd ? 2 * cd : 64;
                    struct def *nn = realloc(defs, cd * sizeof *nn);
                    if (!nn) {
                        fail(err, errlen, "out of memory");
                        bad = 1;
                        break;
                    }
                    defs = nn;
                }
                defs[nd++] = (struct def){ s->name, i, k, 0, 0 };
            }
        }
        if (i + 1 < n)
            u[i + 1].file_off = u[i].file_off + u[i].file_max;
    }
    if (!bad && !sm) {
        fail(err, errlen, "no .target in the PTX");
        bad = 1;
    }
    /* internal names another unit also declares are renamed in their unit; uses of external names checked */
    for (unsigned i = 0; i < n && !bad; i++)
        for (size_t k = 0; k < u[i].ns && !bad; k++) {
            struct stmt *s = &u[i].s[k];
            if ((s->kind != K_FUNC && s->kind != K_VAR) || !s->name[0])
                continue;
            if (s->link == L_EXTERN && s->kind == K_FUNC && !find_def(defs, nd, s->name) && !runtime_fn(s->name)) {
                fail(err, errlen, "unit %u calls function '%s', which no unit defines", i + 1, s->name);
                bad = 1;
            }
            if (s->link != L_NONE || renamed(&u[i], s->name, strlen(s->name)))
                continue;
            int clash = 0;
            for (unsigned j = 0; j < n && !clash; j++)
                for (size_t m = 0; j != i && m < u[j].ns && !clash; m++)
                    clash = !strcmp(u[j].s[m].name, s->name);
            if (clash) {
                char **r = realloc(u[i].ren, (u[i].nren + 1) * sizeof *r);
                if (!r || !(r[u[i].nren] = strdup(s->name))) {
                    free(r == u[i].ren ? NULL : r);
                    fail(err, errlen, "out of memory");
                    bad = 1;
                    break;
                }
                u[i].ren = r;
                u[i].nren++;
            }
        }
    if (!bad) {
        char hdr[64];
        snprintf(hdr, sizeof hdr, ".version %u.%u\n", vmaj ? vmaj : 7, vmaj ? vmin : 0);
        put(&o, hdr, strlen(hdr));
        emit(&o, &u[best_t], best_t, u[best_t].s[best_ts].beg, u[best_t].s[best_ts].end);
        put(&o, "\n.address_size 64\n", 18);
        for (unsigned i = 0; i < n; i++) {
            char note[64];
            snprintf(note, sizeof note, "\n// ---- unit %u\n", i + 1);
            put(&o, note, strlen(note));
            for (size_t k = 0; k < u[i].ns; k++) {
                struct stmt *s = &u[i].s[k];
                if (s->kind == K_HEADER)
                    continue;
                struct def *d = (s->kind == K_FUNC || s->kind == K_VAR) && s->link != L_NONE ?
                                find_def(defs, nd, s->name) : NULL;
                if (d && (d->u != i || d->s != k)) {
                    /* a declaration of, or a weak duplicate of, what unit d->u defines */
                    if (d->emitted || d->proto)
                        continue;
                    const struct stmt *ds = &u[d->u].s[d->s];
                    if (s->kind == K_FUNC) { /* the definition's prototype */
                        emit(&o, &u[d->u], d->u, ds->beg, ds->hdr_end);
                        put(&o, ";\n", 2);
                        d->proto = 1;
                    } else {                 /* the variable itself, here where it is first used */
                        emit(&o, &u[d->u], d->u, ds->beg, ds->end);
                        put(&o, "\n", 1);
                        d->emitted = 1;
                    }
                    continue;
                }
                if (d && s->kind == K_VAR && d->emitted)
                    continue;
                if (d) {
                    d->emitted = 1;
                } else if (s->link == L_EXTERN && s->kind == K_VAR) { /* e.g. .extern .shared: once per name */
                    int seen = 0;
                    for (unsigned j = 0; j <= i && !seen; j++)
                        for (size_t m = 0; m < (j == i ? k : u[j].ns) && !seen; m++)
                            seen = u[j].s[m].link == L_EXTERN && !strcmp(u[j].s[m].name, s->name);
                    if (seen)
                        continue;
                }
                emit(&o, &u[i], i, s->beg, s->end);
                put(&o, "\n", 1);
            }
        }
        if (o.oom) {
            fail(err, errlen, "out of memory");
            bad = 1;
        }
    }
    for (unsigned i = 0; i < n; i++) {
        for (size_t k = 0; k < u[i].nren; k++)
            free(u[i].ren[k]);
        free(u[i].ren);
        free(u[i].s);
    }
    free(u);
    free(defs);
    if (bad) {
        free(o.p);
        return NULL;
    }
    *outlen = o.n;
    return o.p;
}
