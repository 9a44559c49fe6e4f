/* isa/isa.c — expands the .def tables into lookup tables and validates them.
 * Owns: opcode info (operand formats, modifier groups, type masks parsed from
 * the opcodes.def strings), type/modifier/special-register/extension names. */
#include "isa/isa.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct mx_opinfo optab[MX_OP__COUNT] = {
#define OP(id, mn, fmt_, unit_, mods, types, ext_) \
    { .mnemonic = mn, .fmt = fmt_, .unit = MX_UNIT_##unit_, .ext = MX_EXT_##ext_ },
#include "isa/opcodes.def"
#undef OP
};
static const char *const opmods[MX_OP__COUNT] = {
#define OP(id, mn, fmt, unit, mods, types, ext) mods,
#include "isa/opcodes.def"
#undef OP
};
static const char *const optypes[MX_OP__COUNT] = {
#define OP(id, mn, fmt, unit, mods, types, ext) types,
#include "isa/opcodes.def"
#undef OP
};

static const struct { const char *name; uint8_t size, cls; } typetab[MX_T__COUNT] = {
    [MX_T_NONE] = { "", 0, MX_TC_B },
#define TYPE(id, nm, bytes, c) [MX_T_##id] = { nm, bytes, MX_TC_##c },
#include "isa/types.def"
#undef TYPE
};

static const struct { const char *name, *def; } tsettab[] = {
#define TSET(id, def) { #id, def },
#include "isa/typesets.def"
#undef TSET
};

static const char *const mgnames[MX_MG__COUNT] = {
#define MG(g) #g,
#define MV(g, v, s)
#include "isa/modgroups.def"
#undef MG
#undef MV
};
static const struct { uint8_t group; const char *s; } mvtab[] = {
#define MG(g) { 0xff, NULL },
#define MV(g, v, s) { MX_MG_##g, s },
#include "isa/modgroups.def"
#undef MG
#undef MV
};
static uint16_t mgfirst[MX_MG__COUNT]; /* index in mvtab of value 1 */
static uint8_t mgcount[MX_MG__COUNT];

static const struct { const char *name; uint8_t dims, type; } sregtab[MX_SREG__COUNT] = {
#define SREG(id, nm, d, t) { nm, d, MX_T_##t },
#include "isa/sregs.def"
#undef SREG
};

static const struct { const char *name, *doc; } exttab[MX_EXT__COUNT] = {
    { "none", "base PTX ISA" },
#define EXT(id, nm, d) { nm, d },
#include "isa/extensions.def"
#undef EXT
};

static const char *const unitnames[] = { "INT", "FP", "DP", "SFU", "LDST", "CTRL", "SYNC", "TEX", "TENSOR" };

/* Mnemonic hash: open addressing over the table, built once. */
#define OPHASH 512
static int16_t ophash[OPHASH];

static unsigned hashstr(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int init_status = -2;

static int type_set_mask(const char *s, size_t n, uint64_t *mask, int depth);

/* Adds the type or set named s[0..n) to *mask. */
static int type_word(const char *s, size_t n, uint64_t *mask, int depth)
{
    int t = mx_type_lookup(s, n);
    if (t != MX_T_NONE) {
        *mask |= 1ull << t;
        return 0;
    }
    for (size_t i = 0; i < sizeof tsettab / sizeof tsettab[0]; i++)
        if (strlen(tsettab[i].name) == n && !memcmp(tsettab[i].name, s, n))
            return type_set_mask(tsettab[i].def, strlen(tsettab[i].def), mask, depth + 1);
    fprintf(stderr, "isa: unknown type or type set '%.*s'\n", (int)n, s);
    return -1;
}

static int type_set_mask(const char *s, size_t n, uint64_t *mask, int depth)
{
    if (depth > 8) {
        fprintf(stderr, "isa: type sets nest too deep\n");
        return -1;
    }
    size_t i = 0;
    while (i < n) {
        while (i < n && s[i] == ' ')
            i++;
        size_t j = i;
        while (j < n && s[j] != ' ')
            j++;
        if (j > i && type_word(s + i, j - i, mask, depth) < 0)
            return -1;
        i = j;
    }
    return 0;
}

static int parse_row(int op)
{
    struct mx_opinfo *oi = &optab[op];
    const char *f = oi->fmt;
    int opt = 0;
    oi->optmid = -1;
    oi->nopd = 0;
    oi->nreq = 0;
    while (*f) {
        if (oi->nopd >= MX_MAX_OPD)
            goto bad_fmt;
        if (*f == '?') {
            opt = 1;
            f++;
        }
        int mid = 0;
        if (*f == '[') {
            mid = 1;
            f++;
        }
        if (!*f || !strchr("dPaqmltiC", *f))
            goto bad_fmt;
        char kind = *f;
        if (mid) {
            if (f[1] != ']' || oi->optmid >= 0)
                goto bad_fmt;
            oi->optmid = (int8_t)oi->nopd;
            f++; /* onto the ']' */
        }
        oi->kinds[oi->nopd++] = kind;
        if (!opt && !mid && kind != 'P')
            oi->nreq++;
        f++;
        if (*f == ',')
            f++;
        else if (*f)
            goto bad_fmt;
    }
    /* groups */
    const char *m = opmods[op];
    oi->ngroups = 0;
    while (*m) {
        while (*m == ' ')
            m++;
        const char *e = m;
        while (*e && *e != ' ')
            e++;
        if (e == m)
            break;
        int g;
        for (g = 0; g < MX_MG__COUNT; g++)
            if (strlen(mgnames[g]) == (size_t)(e - m) && !memcmp(mgnames[g], m, e - m))
                break;
        if (g == MX_MG__COUNT || oi->ngroups >= MX_MAX_GROUPS) {
            fprintf(stderr, "isa: %s: unknown or too many modifier groups at '%.*s'\n",
                    oi->mnemonic, (int)(e - m), m);
            return -1;
        }
        oi->groups[oi->ngroups++] = (uint8_t)g;
        m = e;
    }
    /* types */
    const char *t = optypes[op];
    oi->ntypes = 0;
    oi->ntypes_req = 0;
    while (*t) {
        const char *e = strchr(t, '|');
        size_t n = e ? (size_t)(e - t) : strlen(t);
        int optional = 0;
        if (n && *t == '?') {
            optional = 1;
            t++;
            n--;
        }
        if (oi->ntypes >= MX_MAX_TYPES) {
            fprintf(stderr, "isa: %s: too many type slots\n", oi->mnemonic);
            return -1;
        }
        uint64_t mask = 0;
        if (type_set_mask(t, n, &mask, 0) < 0 || !mask) {
            fprintf(stderr, "isa: %s: bad type slot\n", oi->mnemonic);
            return -1;
        }
        oi->typemask[oi->ntypes++] = mask;
        if (!optional)
            oi->ntypes_req = oi->ntypes;
        t += n;
        if (*t == '|')
            t++;
    }
    return 0;
bad_fmt:
    fprintf(stderr, "isa: %s: malformed operand format '%s'\n", oi->mnemonic, oi->fmt);
    return -1;
}

static void do_init(void)
{
    int rc = 0;
    for (int op = 0; op < MX_OP__COUNT; op++)
        if (parse_row(op) < 0)
            rc = -1;
    unsigned idx = 0;
    for (unsigned i = 0; i < sizeof mvtab / sizeof mvtab[0]; i++) {
        if (mvtab[i].group == 0xff) {
            idx = 0;
            continue;
        }
        int g = mvtab[i].group;
        if (!idx)
            mgfirst[g] = (uint16_t)i;
        mgcount[g]++;
        idx++;
    }
    memset(ophash, -1, sizeof ophash);
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const char *mn = optab[op].mnemonic;
        unsigned h = hashstr(mn, strlen(mn)) % OPHASH;
        while (ophash[h] >= 0) {
            if (!strcmp(optab[ophash[h]].mnemonic, mn)) {
                fprintf(stderr, "isa: duplicate mnemonic '%s'\n", mn);
                rc = -1;
                break;
            }
            h = (h + 1) % OPHASH;
        }
        ophash[h] = (int16_t)op;
    }
    init_status = rc;
}

int mx_isa_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, do_init);
    return init_status;
}

const struct mx_opinfo *mx_opinfo(int op)
{
    if (op < 0 || op >= MX_OP__COUNT)
        return NULL;
    return &optab[op];
}

int mx_op_lookup(const char *s, size_t len)
{
    unsigned h = hashstr(s, len) % OPHASH;
    while (ophash[h] >= 0) {
        const char *mn = optab[ophash[h]].mnemonic;
        if (strlen(mn) == len && !memcmp(mn, s, len))
            return ophash[h];
        h = (h + 1) % OPHASH;
    }
    return -1;
}

const char *mx_type_name(int t) { return (t >= 0 && t < MX_T__COUNT) ? typetab[t].name : "?"; }
unsigned mx_type_size(int t) { return (t >= 0 && t < MX_T__COUNT) ? typetab[t].size : 0; }
int mx_type_class(int t) { return (t >= 0 && t < MX_T__COUNT) ? typetab[t].cls : MX_TC_B; }

int mx_type_lookup(const char *s, size_t len)
{
    for (int t = 1; t < MX_T__COUNT; t++)
        if (strlen(typetab[t].name) == len && !memcmp(typetab[t].name, s, len))
            return t;
    return MX_T_NONE;
}

const char *mx_mg_name(int g) { return (g >= 0 && g < MX_MG__COUNT) ? mgnames[g] : "?"; }
unsigned mx_mg_nvalues(int g) { return (g >= 0 && g < MX_MG__COUNT) ? mgcount[g] : 0; }

const char *mx_mod_name(int g, int v)
{
    if (g < 0 || g >= MX_MG__COUNT || v < 1 || v > mgcount[g])
        return "?";
    return mvtab[mgfirst[g] + v - 1].s;
}

int mx_mod_lookup(int g, const char *s, size_t len)
{
    if (g < 0 || g >= MX_MG__COUNT)
        return 0;
    for (unsigned v = 0; v < mgcount[g]; v++) {
        const char *n = mvtab[mgfirst[g] + v].s;
        if (strlen(n) == len && !memcmp(n, s, len))
            return (int)v + 1;
    }
    return 0;
}

const char *mx_sreg_name(int s) { return (s >= 0 && s < MX_SREG__COUNT) ? sregtab[s].name : "%?"; }
unsigned mx_sreg_dims(int s) { return (s >= 0 && s < MX_SREG__COUNT) ? sregtab[s].dims : 0; }
int mx_sreg_type(int s) { return (s >= 0 && s < MX_SREG__COUNT) ? sregtab[s].type : MX_T_NONE; }

int mx_sreg_lookup(const char *s, size_t len)
{
    for (int i = 0; i < MX_SREG__COUNT; i++)
        if (strlen(sregtab[i].name) == len && !memcmp(sregtab[i].name, s, len))
            return i;
    return -1;
}

const char *mx_ext_name(int e) { return (e >= 0 && e < MX_EXT__COUNT) ? exttab[e].name : "?"; }
const char *mx_ext_doc(int e) { return (e >= 0 && e < MX_EXT__COUNT) ? exttab[e].doc : "?"; }

int mx_ext_lookup(const char *s)
{
    for (int e = 1; e < MX_EXT__COUNT; e++)
        if (!strcmp(exttab[e].name, s))
            return e;
    return MX_EXT_NONE;
}

const char *mx_unit_name(int u)
{
    return (u >= 0 && u < (int)(sizeof unitnames / sizeof unitnames[0])) ? unitnames[u] : "?";
}
