/* tests/frontend/test_opcodes.c — consistency of the one opcode table
 * (isa/opcodes.def, modgroups.def, types.def, ...) in the manner of Spike's
 * check-opcode-overlap: what mx_isa_init() derived must agree with the rows
 * as written, every modifier spelling must reach exactly one group, names
 * must round-trip, and extension opcodes must be gated. */
#include "mxtest.h"

#include <string.h>

/* The rows as written, expanded here independently of isa/isa.c. */
static const struct row {
    const char *id, *mnemonic, *fmt, *mods, *types, *ext;
} rows[] = {
#define OP(id, mn, fmt, unit, mods, types, ext) { #id, mn, fmt, mods, types, #ext },
#include "isa/opcodes.def"
#undef OP
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

static void init(void) { assert_int_equal(mx_isa_init(), 0); }

MX_TEST(isa_init_succeeds_and_is_idempotent)
{
    assert_int_equal(mx_isa_init(), 0);
    assert_int_equal(mx_isa_init(), 0);
    assert_int_equal(NROWS, MX_OP__COUNT);
    assert_null(mx_opinfo(-1));
    assert_null(mx_opinfo(MX_OP__COUNT));
}

MX_TEST(mnemonics_are_unique_and_found_by_lookup)
{
    init();
    for (int a = 0; a < MX_OP__COUNT; a++) {
        const char *m = mx_opinfo(a)->mnemonic;
        assert_string_equal(m, rows[a].mnemonic);
        if (mx_op_lookup(m, strlen(m)) != a)
            fail_msg("mx_op_lookup(\"%s\") = %d, expected %d", m, mx_op_lookup(m, strlen(m)), a);
        for (int b = a + 1; b < MX_OP__COUNT; b++)
            if (!strcmp(m, mx_opinfo(b)->mnemonic))
                fail_msg("mnemonic '%s' is used by %s and %s", m, rows[a].id, rows[b].id);
    }
    assert_int_equal(mx_op_lookup("nosuchop", 8), -1);
    assert_int_equal(mx_op_lookup("add", 2), -1); /* "ad" is not a prefix match */
    assert_int_equal(mx_op_lookup("add.s32", 3), MX_OP_ADD);
}

/* The operand format, decoded again here: kinds, required count and the
 * optional middle slot must be what mx_isa_init() derived. */
MX_TEST(operand_formats_parse_to_the_derived_kinds)
{
    init();
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const struct mx_opinfo *oi = mx_opinfo(op);
        const char *f = rows[op].fmt;
        char kinds[MX_MAX_OPD + 1];
        int n = 0, req = 0, mid = -1, opt = 0;
        while (*f) {
            if (*f == '?') {
                opt = 1;
                f++;
            }
            int m = *f == '[';
            if (m)
                f++;
            if (!*f || !strchr("dPaqmltiC", *f) || n >= MX_MAX_OPD)
                fail_msg("%s: malformed format '%s'", rows[op].mnemonic, rows[op].fmt);
            if (m) {
                if (f[1] != ']')
                    fail_msg("%s: '[' without ']' in '%s'", rows[op].mnemonic, rows[op].fmt);
                mid = n;
            }
            if (!opt && !m && *f != 'P')
                req++;
            kinds[n++] = *f;
            f += m ? 2 : 1;
            if (*f == ',')
                f++;
        }
        if (oi->nopd != n || memcmp(oi->kinds, kinds, (size_t)n))
            fail_msg("%s: format '%s' derived as %d slots '%.*s', expected '%.*s'", rows[op].mnemonic, rows[op].fmt,
                     oi->nopd, oi->nopd, oi->kinds, n, kinds);
        assert_int_equal(oi->nreq, req);
        assert_int_equal(oi->optmid, mid);
        /* a pair destination 'P' only ever follows a destination 'd' */
        for (int s = 0; s < n; s++)
            if (kinds[s] == 'P' && (s == 0 || kinds[s - 1] != 'd'))
                fail_msg("%s: 'P' must follow 'd' in '%s'", rows[op].mnemonic, rows[op].fmt);
        /* a call format is the whole format */
        if (strchr(rows[op].fmt, 'C'))
            assert_string_equal(rows[op].fmt, "C");
    }
}

/* Splits the next space-separated word of *s; returns its length (0 at end). */
static size_t word(const char **s, const char **w)
{
    while (**s == ' ')
        (*s)++;
    *w = *s;
    while (**s && **s != ' ')
        (*s)++;
    return (size_t)(*s - *w);
}

MX_TEST(modifier_groups_are_the_ones_written)
{
    init();
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const struct mx_opinfo *oi = mx_opinfo(op);
        const char *s = rows[op].mods, *w;
        size_t n;
        int k = 0;
        while ((n = word(&s, &w))) {
            if (k >= oi->ngroups)
                fail_msg("%s: group '%.*s' was not derived", rows[op].mnemonic, (int)n, w);
            const char *gn = mx_mg_name(oi->groups[k]);
            if (strlen(gn) != n || memcmp(gn, w, n))
                fail_msg("%s: group #%d is %s, written '%.*s'", rows[op].mnemonic, k, gn, (int)n, w);
            if (mx_mg_nvalues(oi->groups[k]) == 0)
                fail_msg("%s: group %s has no values", rows[op].mnemonic, gn);
            for (int j = 0; j < k; j++)
                if (oi->groups[j] == oi->groups[k])
                    fail_msg("%s: group %s listed twice", rows[op].mnemonic, gn);
            k++;
        }
        assert_int_equal(oi->ngroups, k);
    }
}

MX_TEST(type_slots_are_the_ones_written)
{
    init();
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const struct mx_opinfo *oi = mx_opinfo(op);
        int slots = rows[op].types[0] ? 1 : 0;
        for (const char *t = rows[op].types; *t; t++)
            slots += *t == '|';
        assert_int_equal(oi->ntypes, slots);
        assert_true(oi->ntypes_req <= oi->ntypes);
        for (int s = 0; s < oi->ntypes; s++) {
            if (!oi->typemask[s])
                fail_msg("%s: type slot %d is empty", rows[op].mnemonic, s);
            if (oi->typemask[s] & 1)
                fail_msg("%s: type slot %d allows MX_T_NONE", rows[op].mnemonic, s);
            if (oi->typemask[s] >> MX_T__COUNT)
                fail_msg("%s: type slot %d has bits past the last type", rows[op].mnemonic, s);
        }
    }
    /* spot checks against the rows */
    const struct mx_opinfo *cvt = mx_opinfo(MX_OP_CVT);
    assert_int_equal(cvt->ntypes, 2);
    assert_int_equal(cvt->ntypes_req, 2);
    assert_true(cvt->typemask[0] >> MX_T_F32 & 1);
    assert_false(cvt->typemask[0] >> MX_T_PRED & 1);
    const struct mx_opinfo *add = mx_opinfo(MX_OP_ADD);
    assert_false(add->typemask[0] >> MX_T_PRED & 1);
    assert_false(add->typemask[0] >> MX_T_U8 & 1); /* ARITH starts at 16 bits */
    assert_true(add->typemask[0] >> MX_T_S32 & 1);
    assert_int_equal(mx_opinfo(MX_OP_RET)->ntypes, 0);
    const struct mx_opinfo *mma = mx_opinfo(MX_OP_WMMA_MMA);
    assert_int_equal(mma->ntypes, 4);
    assert_int_equal(mma->ntypes_req, 2);
}

/* Within one opcode, a spelling found in two of its groups is decided by
 * first fit.  That is only intended for a group listed with its twin. */
static int twin(int g1, int g2)
{
    return (g1 == MX_MG_LAYOUT && g2 == MX_MG_LAYOUT2) || (g1 == MX_MG_SPACE && g2 == MX_MG_SPACE2);
}

MX_TEST(modifier_spellings_resolve_to_one_group)
{
    init();
    int bad = 0;
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const struct mx_opinfo *oi = mx_opinfo(op);
        for (int a = 0; a < oi->ngroups; a++)
            for (int b = a + 1; b < oi->ngroups; b++) {
                int ga = oi->groups[a], gb = oi->groups[b];
                for (unsigned v = 1; v <= mx_mg_nvalues(ga); v++) {
                    const char *sp = mx_mod_name(ga, (int)v);
                    if (!mx_mod_lookup(gb, sp, strlen(sp)) || twin(ga, gb))
                        continue;
                    print_error("%s: modifier .%s is in both %s and %s\n", oi->mnemonic, sp, mx_mg_name(ga), mx_mg_name(gb));
                    bad++;
                }
            }
    }
    assert_int_equal(bad, 0);
}

MX_TEST(twin_groups_hold_the_same_spellings_in_order)
{
    init();
    static const int pairs[][2] = { { MX_MG_LAYOUT, MX_MG_LAYOUT2 }, { MX_MG_SPACE, MX_MG_SPACE2 } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int g1 = pairs[i][0], g2 = pairs[i][1];
        /* every value of the second group is a value of the first, at the same index */
        for (unsigned v = 1; v <= mx_mg_nvalues(g2); v++)
            assert_string_equal(mx_mod_name(g1, (int)v), mx_mod_name(g2, (int)v));
    }
    /* ... and wherever the twin is listed, the first group comes before it */
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const struct mx_opinfo *oi = mx_opinfo(op);
        int pos[MX_MG__COUNT];
        for (int g = 0; g < MX_MG__COUNT; g++)
            pos[g] = -1;
        for (int k = 0; k < oi->ngroups; k++)
            pos[oi->groups[k]] = k;
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
            if (pos[pairs[i][1]] >= 0 && !(pos[pairs[i][0]] >= 0 && pos[pairs[i][0]] < pos[pairs[i][1]]))
                fail_msg("%s: %s listed without %s before it", oi->mnemonic, mx_mg_name(pairs[i][1]),
                         mx_mg_name(pairs[i][0]));
    }
}

MX_TEST(no_modifier_is_spelled_like_a_type)
{
    init();
    int bad = 0;
    for (int g = 0; g < MX_MG__COUNT; g++)
        for (unsigned v = 1; v <= mx_mg_nvalues(g); v++) {
            const char *sp = mx_mod_name(g, (int)v);
            if (mx_type_lookup(sp, strlen(sp)) != MX_T_NONE) {
                print_error("modifier %s.%s is spelled like a type\n", mx_mg_name(g), sp);
                bad++;
            }
        }
    assert_int_equal(bad, 0);
}

/* A dotted mnemonic must not be shadowed: for "cp.async.wait_group" the
 * shorter "cp.async" must not take "wait_group" as a modifier. */
MX_TEST(dotted_mnemonics_are_not_modifiers_of_a_shorter_one)
{
    init();
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const char *m = mx_opinfo(op)->mnemonic;
        int ndots = 0;
        for (const char *d = m; (d = strchr(d, '.')); d++) {
            ndots++;
            int shorter = mx_op_lookup(m, (size_t)(d - m));
            if (shorter < 0)
                continue;
            const char *next = d + 1, *end = strchr(next, '.');
            size_t n = end ? (size_t)(end - next) : strlen(next);
            const struct mx_opinfo *si = mx_opinfo(shorter);
            for (int g = 0; g < si->ngroups; g++)
                if (mx_mod_lookup(si->groups[g], next, n))
                    fail_msg("'%s' is also '%s' with modifier .%.*s", m, si->mnemonic, (int)n, next);
        }
        if (ndots > 4)
            fail_msg("'%s' has more dots than the parser's longest-prefix search covers", m);
    }
}

MX_TEST(modifier_names_round_trip)
{
    init();
    unsigned total = 0;
    for (int g = 0; g < MX_MG__COUNT; g++) {
        unsigned n = mx_mg_nvalues(g);
        assert_true(n >= 1);
        for (unsigned v = 1; v <= n; v++) {
            const char *sp = mx_mod_name(g, (int)v);
            assert_true(sp[0] != 0 && sp[0] != '.');
            if (mx_mod_lookup(g, sp, strlen(sp)) != (int)v)
                fail_msg("%s value %u '%s' looks up as %d", mx_mg_name(g), v, sp, mx_mod_lookup(g, sp, strlen(sp)));
            total++;
        }
        assert_string_equal(mx_mod_name(g, 0), "?");
        assert_string_equal(mx_mod_name(g, (int)n + 1), "?");
        assert_int_equal(mx_mod_lookup(g, "no_such_modifier", 16), 0);
    }
    assert_true(total > 150);
    assert_string_equal(mx_mg_name(MX_MG_CMP), "CMP");
    assert_int_equal(mx_mod_lookup(MX_MG_CMP, "lt", 2), MX_CMP_LT);
    assert_int_equal(mx_mod_lookup(MX_MG_MULMODE, "lo", 2), MX_MULMODE_LO);
    assert_int_equal(mx_mod_lookup(MX_MG_CMP, "lo", 2), MX_CMP_LO);
    assert_string_equal(mx_mod_name(MX_MG_L2EV, MX_L2EV_L2_EVICT_LAST), "L2::evict_last");
    assert_string_equal(mx_mg_name(-1), "?");
    assert_int_equal(mx_mod_lookup(MX_MG__COUNT, "lt", 2), 0);
}

MX_TEST(type_names_round_trip)
{
    init();
    for (int t = 1; t < MX_T__COUNT; t++) {
        const char *n = mx_type_name(t);
        assert_int_equal(mx_type_lookup(n, strlen(n)), t);
        assert_true(mx_type_size(t) >= 1 && mx_type_size(t) <= 16);
        assert_true(mx_type_class(t) >= MX_TC_B && mx_type_class(t) <= MX_TC_O);
    }
    assert_string_equal(mx_type_name(MX_T_NONE), "");
    assert_int_equal(mx_type_lookup("s33", 3), MX_T_NONE);
    assert_int_equal(mx_type_lookup("u3", 2), MX_T_NONE);
    assert_int_equal(mx_type_size(MX_T_F64), 8);
    assert_int_equal(mx_type_size(MX_T_B128), 16);
    assert_int_equal(mx_type_class(MX_T_S16), MX_TC_S);
    assert_true(mx_type_is_float(MX_T_F32));
    assert_true(mx_type_is_float(MX_T_BF16X2));
    assert_false(mx_type_is_float(MX_T_B32));
    assert_true(mx_type_is_signed(MX_T_S8));
    assert_false(mx_type_is_signed(MX_T_U64));
}

MX_TEST(sreg_ext_and_unit_names_round_trip)
{
    init();
    for (int s = 0; s < MX_SREG__COUNT; s++) {
        const char *n = mx_sreg_name(s);
        assert_int_equal(n[0], '%');
        assert_int_equal(mx_sreg_lookup(n, strlen(n)), s);
        assert_true(mx_sreg_dims(s) >= 1);
        int t = mx_sreg_type(s);
        assert_true(t == MX_T_U32 || t == MX_T_U64 || t == MX_T_PRED); /* %is_explicit_cluster is a predicate */
    }
    assert_int_equal(mx_sreg_lookup("%tid", 4), MX_SREG_TID);
    assert_int_equal(mx_sreg_dims(MX_SREG_TID), 3);
    assert_int_equal(mx_sreg_lookup("%nosuch", 7), -1);
    for (int e = 1; e < MX_EXT__COUNT; e++) {
        assert_int_equal(mx_ext_lookup(mx_ext_name(e)), e);
        assert_true(strlen(mx_ext_doc(e)) > 0);
    }
    assert_int_equal(mx_ext_lookup("indirect-mov"), MX_EXT_INDIRECT_MOV);
    assert_int_equal(mx_ext_lookup("none"), MX_EXT_NONE);
    assert_int_equal(mx_ext_lookup("bogus"), MX_EXT_NONE);
    for (int op = 0; op < MX_OP__COUNT; op++)
        assert_string_not_equal(mx_unit_name(mx_opinfo(op)->unit), "?");
}

MX_TEST(ext_column_matches_the_table)
{
    init();
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const struct mx_opinfo *oi = mx_opinfo(op);
        assert_true(oi->ext < MX_EXT__COUNT);
        if (!strcmp(rows[op].ext, "NONE"))
            assert_int_equal(oi->ext, MX_EXT_NONE);
        else
            assert_int_not_equal(oi->ext, MX_EXT_NONE);
    }
    assert_int_equal(mx_opinfo(MX_OP_MOVIND)->ext, MX_EXT_INDIRECT_MOV);
}

/* Every extension opcode: rejected with the extension off, accepted (as an
 * opcode; its operands may still be wrong) with it on. */
MX_TEST(extension_opcodes_are_gated)
{
    init();
    int next = 0;
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const struct mx_opinfo *oi = mx_opinfo(op);
        if (oi->ext == MX_EXT_NONE)
            continue;
        next++;
        char src[512], want[128];
        const char *ty = "";
        for (int t = 1; t < MX_T__COUNT && oi->ntypes; t++)
            if (oi->typemask[0] >> t & 1) {
                ty = mx_type_name(t);
                break;
            }
        snprintf(src, sizeof src, MXT_KERNEL("%s%s%s;"), oi->mnemonic, *ty ? "." : "", ty);
        snprintf(want, sizeof want, "belongs to ISA extension '%s'", mx_ext_name(oi->ext));
        struct mxt_parse r;
        mxt_parse(&r, src, 0);
        assert_int_not_equal(r.rc, MX_OK);
        if (!mxt_has_diag(r.text, MXT_BODY_LINE, 1, want))
            fail_msg("%s with the extension off: no '%s' diagnostic in:\n%s", oi->mnemonic, want, r.text);
        mxt_parse_free(&r);
        mxt_parse(&r, src, 1u << oi->ext);
        if (strstr(r.text, "belongs to ISA extension"))
            fail_msg("%s with the extension on is still rejected:\n%s", oi->mnemonic, r.text);
        mxt_parse_free(&r);
        /* other extensions do not enable it */
        mxt_parse(&r, src, ~(1u << oi->ext));
        assert_true(strstr(r.text, "belongs to ISA extension") != NULL);
        mxt_parse_free(&r);
    }
    assert_true(next >= 1);
}
