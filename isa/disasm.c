/* isa/disasm.c — prints a decoded program as PTX.  Replays the source-order
 * events (declarations, blocks, labels) so that the output re-parses to the
 * same program; the round-trip tests hold it to that.  Also owns
 * mx_program_equal(), the comparison those tests use. */
#include "isa/disasm.h"
#include "isa/opdtype.h"

#include <inttypes.h>
#include <string.h>

const char *mx_reg_name(const struct mx_program *p, uint32_t fn, uint32_t slot, int pred, char *buf, size_t len)
{
    const struct mx_func *f = &p->funcs[fn];
    for (uint32_t i = 0; i < f->nregdecls; i++) {
        const struct mx_regdecl *d = &p->regdecls[f->regdecl + i];
        if ((d->type == MX_T_PRED) != !!pred)
            continue;
        uint32_t n = d->count ? d->count : 1;
        if (slot >= d->base && slot < d->base + n) {
            if (d->count)
                snprintf(buf, len, "%s%u", mx_str(p, d->name), slot - d->base);
            else
                snprintf(buf, len, "%s", mx_str(p, d->name));
            return buf;
        }
    }
    snprintf(buf, len, "%%<bad %s slot %u>", pred ? "predicate" : "register", slot);
    return buf;
}

static const char *space_name(int sp)
{
    switch (sp) {
    case MX_SP_GLOBAL: return ".global";
    case MX_SP_CONST: return ".const";
    case MX_SP_SHARED: return ".shared";
    case MX_SP_LOCAL: return ".local";
    case MX_SP_PARAM: return ".param";
    default: return ".?";
    }
}

static void print_imm(FILE *out, const struct mx_operand *o)
{
    if (o->flags & MX_OPDF_FLOAT) {
        if (mx_type_size(o->type) == 8)
            fprintf(out, "0d%016" PRIX64, (uint64_t)o->imm);
        else
            fprintf(out, "0f%08" PRIX32, (uint32_t)o->imm);
        return;
    }
    fprintf(out, "%" PRId64, o->imm);
}

static void print_opd(FILE *out, const struct mx_program *p, uint32_t fn, const struct mx_operand *o);

static void print_list(FILE *out, const struct mx_program *p, uint32_t fn, const struct mx_operand *o, char open, char close)
{
    fputc(open, out);
    for (uint32_t i = 0; i < o->count; i++) {
        if (i)
            fputs(", ", out);
        print_opd(out, p, fn, &p->vec[o->reg + i]);
    }
    fputc(close, out);
}

static const char *label_name(const struct mx_program *p, uint32_t fn, uint32_t insn)
{
    for (uint32_t i = 0; i < p->nlabels; i++)
        if (p->labels[i].func == fn && p->labels[i].insn == insn)
            return mx_str(p, p->labels[i].name);
    return NULL;
}

static void print_opd(FILE *out, const struct mx_program *p, uint32_t fn, const struct mx_operand *o)
{
    char buf[80];
    switch (o->kind) {
    case MX_OPD_NONE:
        break;
    case MX_OPD_REG:
        fputs(mx_reg_name(p, fn, o->reg, 0, buf, sizeof buf), out);
        break;
    case MX_OPD_PRED:
        if (o->flags & MX_OPDF_NEG)
            fputc('!', out);
        fputs(mx_reg_name(p, fn, o->reg, 1, buf, sizeof buf), out);
        break;
    case MX_OPD_IMM:
        print_imm(out, o);
        break;
    case MX_OPD_SREG:
        if (mx_sreg_dims(o->reg) == 3)
            fprintf(out, "%s.%c", mx_sreg_name(o->reg), (int)('x' + o->imm));
        else if (mx_sreg_dims(o->reg) > 3)
            fprintf(out, "%s%d", mx_sreg_name(o->reg), (int)o->imm);
        else
            fputs(mx_sreg_name(o->reg), out);
        break;
    case MX_OPD_SYM:
        fputs(mx_str(p, p->syms[o->reg].name), out);
        if (o->imm)
            fprintf(out, "+%" PRId64, o->imm);
        break;
    case MX_OPD_FUNC:
    case MX_OPD_PROTO:
        fputs(mx_str(p, p->funcs[o->reg].name), out);
        break;
    case MX_OPD_ADDR:
        fputc('[', out);
        if (o->reg != MX_NONE)
            fputs(mx_reg_name(p, fn, o->reg, 0, buf, sizeof buf), out);
        else if (o->sym != MX_NONE)
            fputs(mx_str(p, p->syms[o->sym].name), out);
        if (o->reg == MX_NONE && o->sym == MX_NONE)
            fprintf(out, "%" PRId64, o->imm);
        else if (o->imm)
            fprintf(out, "+%" PRId64, o->imm);
        fputc(']', out);
        break;
    case MX_OPD_VEC:
        print_list(out, p, fn, o, '{', '}');
        break;
    case MX_OPD_TEXADDR:
        print_list(out, p, fn, o, '[', ']');
        break;
    case MX_OPD_LIST:
        print_list(out, p, fn, o, '(', ')');
        break;
    case MX_OPD_LABEL: {
        const char *l = label_name(p, fn, o->reg);
        if (l)
            fputs(l, out);
        else
            fprintf(out, "$<insn %u>", o->reg);
        break;
    }
    case MX_OPD_TARGETS:
        fputs(mx_str(p, p->syms[o->sym].name), out);
        break;
    case MX_OPD_SINK:
        fputc('_', out);
        break;
    case MX_OPD_INDREG: {
        const struct mx_func *f = &p->funcs[fn];
        const char *range = "%<bad range>";
        for (uint32_t i = 0; i < f->nregdecls; i++)
            if (p->regdecls[f->regdecl + i].base == o->reg && p->regdecls[f->regdecl + i].count &&
                p->regdecls[f->regdecl + i].type != MX_T_PRED)
                range = mx_str(p, p->regdecls[f->regdecl + i].name);
        fprintf(out, "%s[%s]", range, mx_reg_name(p, fn, (uint32_t)o->imm, 0, buf, sizeof buf));
        break;
    }
    }
}

void mx_disasm_insn(FILE *out, const struct mx_program *p, uint32_t fn, const struct mx_insn *in)
{
    char buf[80];
    const struct mx_opinfo *oi = mx_opinfo(in->op);
    if (in->guard != MX_NONE)
        fprintf(out, "@%s%s ", in->guard_neg ? "!" : "", mx_reg_name(p, fn, in->guard, 1, buf, sizeof buf));
    fputs(oi->mnemonic, out);
    for (int g = 0; g < oi->ngroups; g++) {
        int grp = oi->groups[g];
        if (in->mod[grp])
            fprintf(out, ".%s", mx_mod_name(grp, in->mod[grp]));
    }
    for (int t = 0; t < MX_MAX_TYPES; t++)
        if (in->type[t])
            fprintf(out, ".%s", mx_type_name(in->type[t]));
    int first = 1;
    for (int s = 0; s < in->nopd; s++) {
        const struct mx_operand *o = &in->opd[s];
        if (o->kind == MX_OPD_NONE)
            continue;
        if (in->op == MX_OP_CALL && o->kind == MX_OPD_LIST && !o->count && s == 0)
            continue;
        if (in->op == MX_OP_CALL && o->kind == MX_OPD_LIST && !o->count && s == 2) {
            /* keep "()" only if a prototype follows, so the arity is unambiguous */
            if (in->opd[3].kind == MX_OPD_NONE)
                continue;
        }
        if (oi->kinds[s] == MX_FK_PAIR)
            fputc('|', out);
        else
            fputs(first ? "\t" : ", ", out);
        first = 0;
        print_opd(out, p, fn, o);
    }
    fputc(';', out);
}

static void print_param(FILE *out, const struct mx_program *p, const struct mx_symbol *s)
{
    fprintf(out, ".param");
    if (s->align != mx_type_size(s->type))
        fprintf(out, " .align %u", s->align);
    fprintf(out, " .%s", mx_type_name(s->type));
    if (s->flags & MX_SYMF_PTR) {
        fputs(" .ptr", out);
        if (s->ptr_space != 0xff)
            fprintf(out, " %s", space_name(s->ptr_space));
        if (s->ptr_align)
            fprintf(out, " .align %u", s->ptr_align);
    }
    fprintf(out, " %s", mx_str(p, s->name));
    if (s->ndims)
        fprintf(out, "[%u]", s->dims[0]);
}

static void print_params(FILE *out, const struct mx_program *p, uint32_t first, uint32_t n)
{
    fputc('(', out);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ",\n\t" : "\n\t", out);
        print_param(out, p, &p->syms[first + i]);
    }
    fputs(n ? "\n)" : ")", out);
}

static uint64_t rd(const uint8_t *d, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)d[i] << (8 * i);
    return v;
}

static void print_var(FILE *out, const struct mx_program *p, uint32_t si, const char *indent)
{
    const struct mx_symbol *s = &p->syms[si];
    fputs(indent, out);
    if (s->flags & MX_SYMF_VISIBLE)
        fputs(".visible ", out);
    if (s->flags & MX_SYMF_EXTERN)
        fputs(".extern ", out);
    if (s->flags & MX_SYMF_WEAK)
        fputs(".weak ", out);
    if (s->flags & MX_SYMF_COMMON)
        fputs(".common ", out);
    fprintf(out, "%s ", space_name(s->space));
    if (s->flags & MX_SYMF_MANAGED)
        fputs(".attribute(.managed) ", out);
    fprintf(out, ".align %u ", s->align);
    if (s->vec > 1)
        fprintf(out, ".v%u ", s->vec);
    fprintf(out, ".%s %s", mx_type_name(s->type), mx_str(p, s->name));
    for (uint32_t d = 0; d < s->ndims; d++) {
        if (s->dims[d])
            fprintf(out, "[%u]", s->dims[d]);
        else
            fputs("[]", out);
    }
    if (s->init) {
        unsigned esz = mx_type_size(s->type);
        uint64_t n = esz ? s->size / esz : 0;
        fputs(" = {", out);
        for (uint64_t i = 0; i < n; i++) {
            if (i)
                fputs(", ", out);
            /* relocations inside this element */
            int printed = 0;
            for (uint32_t r = 0; r < p->nrelocs && !printed; r++) {
                const struct mx_reloc *rl = &p->relocs[r];
                if (rl->sym != si || rl->offset != i * esz)
                    continue;
                const char *tn = (rl->generic & 2) ? mx_str(p, p->funcs[rl->target].name) : mx_str(p, p->syms[rl->target].name);
                int masked = rl->size != esz || rl->shift || esz < 4; /* narrow elements need the mask form */
                if (masked) {
                    uint64_t mask = (rl->size == 8 ? UINT64_MAX : ((1ull << (8 * rl->size)) - 1)) << rl->shift;
                    fprintf(out, "0x%" PRIX64 "(", mask);
                }
                if (rl->generic & 1)
                    fprintf(out, "generic(%s)", tn);
                else
                    fputs(tn, out);
                if (rl->addend)
                    fprintf(out, "+%" PRId64, rl->addend);
                if (masked)
                    fputc(')', out);
                printed = 1;
            }
            if (printed)
                continue;
            uint64_t v = rd(p->data + s->offset + i * esz, esz);
            if (s->type == MX_T_F32)
                fprintf(out, "0f%08" PRIX32, (uint32_t)v);
            else if (s->type == MX_T_F64)
                fprintf(out, "0d%016" PRIX64, v);
            else if (esz == 8)
                fprintf(out, "%" PRIu64, v);
            else
                fprintf(out, "%" PRIu64, v);
        }
        fputc('}', out);
    }
    fputs(";\n", out);
}

static void print_perf(FILE *out, const struct mx_func *f)
{
    if (f->flags & MX_FUNCF_NORETURN)
        fputs("\n.noreturn", out);
    if (f->maxntid[0])
        fprintf(out, "\n.maxntid %u, %u, %u", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
    if (f->reqntid[0])
        fprintf(out, "\n.reqntid %u, %u, %u", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    if (f->minnctapersm)
        fprintf(out, "\n.minnctapersm %u", f->minnctapersm);
    if (f->maxnctapersm)
        fprintf(out, "\n.maxnctapersm %u", f->maxnctapersm);
    if (f->maxnreg)
        fprintf(out, "\n.maxnreg %u", f->maxnreg);
}

static void print_header(FILE *out, const struct mx_program *p, uint32_t fi)
{
    const struct mx_func *f = &p->funcs[fi];
    if (f->flags & MX_FUNCF_EXTERN)
        fputs(".extern ", out);
    if (f->flags & MX_FUNCF_VISIBLE)
        fputs(".visible ", out);
    if (f->flags & MX_FUNCF_WEAK)
        fputs(".weak ", out);
    if (f->flags & MX_FUNCF_ENTRY) {
        fprintf(out, ".entry %s", mx_str(p, f->name));
    } else {
        fputs(".func ", out);
        if (f->nrets) {
            print_params(out, p, f->ret, f->nrets);
            fputc(' ', out);
        }
        fputs(mx_str(p, f->name), out);
    }
    if (f->nparams || (f->flags & MX_FUNCF_ENTRY)) {
        fputc(' ', out);
        print_params(out, p, f->param, f->nparams);
    }
    print_perf(out, f);
}

static void print_body(FILE *out, const struct mx_program *p, uint32_t fi)
{
    const struct mx_func *f = &p->funcs[fi];
    char buf[80];
    uint32_t ev = f->ev_first, evend = f->ev_first + f->nev;
    int depth = 1;
    uint16_t lf = 0;
    uint32_t ll = 0;
    for (uint32_t i = 0; i <= f->ninsns; i++) {
        while (ev < evend && p->events[ev].pos == i) {
            const struct mx_event *e = &p->events[ev++];
            switch (e->kind) {
            case MX_EV_OPEN:
                fprintf(out, "%*s{\n", depth * 2, "");
                depth++;
                break;
            case MX_EV_CLOSE:
                depth--;
                fprintf(out, "%*s}\n", depth * 2, "");
                break;
            case MX_EV_REG: {
                const struct mx_regdecl *d = &p->regdecls[e->index];
                fprintf(out, "%*s.reg .%s %s", depth * 2, "", mx_type_name(d->type), mx_str(p, d->name));
                if (d->count)
                    fprintf(out, "<%u>", d->count);
                fputs(";\n", out);
                break;
            }
            case MX_EV_SYM: {
                const struct mx_symbol *s = &p->syms[e->index];
                if (s->space == MX_SP_TARGETS) {
                    int calls = !!(s->flags & MX_SYMF_FUNC_PARAM);
                    fprintf(out, "%s: %s ", mx_str(p, s->name), calls ? ".calltargets" : ".branchtargets");
                    for (uint64_t k = 0; k < s->size; k++) {
                        const struct mx_operand *o = &p->vec[s->offset + k];
                        if (k)
                            fputs(", ", out);
                        if (calls)
                            fputs(mx_str(p, p->funcs[o->reg].name), out);
                        else {
                            const char *l = label_name(p, fi, o->reg);
                            fputs(l ? l : "$<bad>", out);
                        }
                    }
                    fputs(";\n", out);
                } else {
                    char ind[64];
                    snprintf(ind, sizeof ind, "%*s", depth * 2, "");
                    print_var(out, p, e->index, ind);
                }
                break;
            }
            case MX_EV_LABEL:
                fprintf(out, "%s:\n", mx_str(p, p->labels[e->index].name));
                break;
            case MX_EV_PROTO: {
                const struct mx_func *pf = &p->funcs[e->index];
                fprintf(out, "%s: .callprototype ", mx_str(p, pf->name));
                if (pf->nrets) {
                    print_params(out, p, pf->ret, pf->nrets);
                    fputc(' ', out);
                }
                fputs("_ ", out);
                print_params(out, p, pf->param, pf->nparams);
                print_perf(out, pf);
                fputs(";\n", out);
                break;
            }
            }
        }
        if (i == f->ninsns)
            break;
        const struct mx_insn *in = &p->insns[f->first + i];
        if (in->loc_file != lf || in->loc_line != ll) {
            fprintf(out, "%*s.loc %u %u 0\n", depth * 2, "", in->loc_file, in->loc_line);
            lf = in->loc_file;
            ll = in->loc_line;
        }
        fprintf(out, "%*s", depth * 2, "");
        mx_disasm_insn(out, p, fi, in);
        fputc('\n', out);
    }
    (void)buf;
}

int mx_disasm_program(FILE *out, const struct mx_program *p)
{
    fprintf(out, "//\n// Disassembled by morpheus from %s\n//\n\n", p->source_name ? p->source_name : "<input>");
    fprintf(out, ".version %u.%u\n", p->version_major, p->version_minor);
    if (p->target_sm || p->target_flags) { /* a module without .target disassembles without one */
        static const char *const flagname[] = { "texmode_independent", "map_f64_to_f32", "debug" };
        const char *sep = " ";
        fputs(".target", out);
        if (p->target_sm) {
            fprintf(out, " sm_%u", p->target_sm);
            sep = ", ";
        }
        for (int b = 0; b < 3; b++)
            if (p->target_flags >> b & 1) {
                fprintf(out, "%s%s", sep, flagname[b]);
                sep = ", ";
            }
        fputc('\n', out);
    }
    fprintf(out, ".address_size %u\n\n", p->address_size);
    for (uint32_t k = 0; k < p->nitems; k++) {
        const struct mx_event *e = &p->items[k];
        switch (e->kind) {
        case MX_EV_VAR:
            print_var(out, p, e->index, "");
            break;
        case MX_EV_FILE:
            fprintf(out, ".file %u \"%s\"\n", p->files[e->index].num, mx_str(p, p->files[e->index].name));
            break;
        case MX_EV_FUNC_DECL:
            print_header(out, p, e->index);
            fputs(";\n\n", out);
            break;
        case MX_EV_FUNC_DEF:
            print_header(out, p, e->index);
            fputs("\n{\n", out);
            print_body(out, p, e->index);
            fputs("}\n\n", out);
            break;
        }
    }
    return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------ equality */

#define DIFF(...) do { if (why) snprintf(why, whylen, __VA_ARGS__); return 0; } while (0)

static int opd_eq(const struct mx_operand *x, const struct mx_operand *y)
{
    return x->kind == y->kind && x->flags == y->flags && x->type == y->type && x->count == y->count &&
           x->reg == y->reg && x->sym == y->sym && x->imm == y->imm;
}

int mx_program_equal(const struct mx_program *a, const struct mx_program *b, char *why, size_t whylen)
{
    if (a->version_major != b->version_major || a->version_minor != b->version_minor || a->target_sm != b->target_sm ||
        a->address_size != b->address_size || a->target_flags != b->target_flags)
        DIFF("module header differs");
    if (a->ninsns != b->ninsns)
        DIFF("instruction count %u vs %u", a->ninsns, b->ninsns);
    for (uint32_t i = 0; i < a->ninsns; i++) {
        const struct mx_insn *x = &a->insns[i], *y = &b->insns[i];
        int same = x->op == y->op && x->nopd == y->nopd && x->guard == y->guard && x->guard_neg == y->guard_neg &&
                   !memcmp(x->type, y->type, sizeof x->type) && !memcmp(x->mod, y->mod, sizeof x->mod) &&
                   x->ipdom == y->ipdom && x->loc_file == y->loc_file && x->loc_line == y->loc_line;
        for (int s = 0; same && s < x->nopd; s++)
            same = opd_eq(&x->opd[s], &y->opd[s]);
        if (!same)
            DIFF("instruction %u (line %u vs %u) differs", i, x->line, y->line);
    }
    if (a->nvec != b->nvec)
        DIFF("operand-list element count %u vs %u", a->nvec, b->nvec);
    for (uint32_t i = 0; i < a->nvec; i++)
        if (!opd_eq(&a->vec[i], &b->vec[i]))
            DIFF("operand-list element %u differs", i);
    if (a->nsyms != b->nsyms)
        DIFF("symbol count %u vs %u", a->nsyms, b->nsyms);
    for (uint32_t i = 0; i < a->nsyms; i++) {
        const struct mx_symbol *x = &a->syms[i], *y = &b->syms[i];
        if (strcmp(mx_str(a, x->name), mx_str(b, y->name)) || x->space != y->space || x->type != y->type ||
            x->vec != y->vec || x->ptr_space != y->ptr_space || x->ptr_align != y->ptr_align || x->flags != y->flags || x->align != y->align ||
            x->size != y->size || x->ndims != y->ndims || memcmp(x->dims, y->dims, sizeof x->dims) ||
            x->func != y->func || x->init != y->init || (x->space != MX_SP_GLOBAL && x->space != MX_SP_CONST && x->offset != y->offset))
            DIFF("symbol %u (%s) differs", i, mx_str(a, x->name));
        if (x->init && memcmp(a->data + x->offset, b->data + y->offset, x->size))
            DIFF("initial data of %s differs", mx_str(a, x->name));
    }
    if (a->nfuncs != b->nfuncs)
        DIFF("function count %u vs %u", a->nfuncs, b->nfuncs);
    for (uint32_t i = 0; i < a->nfuncs; i++) {
        const struct mx_func *x = &a->funcs[i], *y = &b->funcs[i];
        if (strcmp(mx_str(a, x->name), mx_str(b, y->name)) || x->flags != y->flags || x->first != y->first ||
            x->ninsns != y->ninsns || x->nregs != y->nregs || x->npreds != y->npreds || x->nparams != y->nparams ||
            x->param != y->param || x->nrets != y->nrets || x->ret != y->ret || x->param_size != y->param_size ||
            x->ret_size != y->ret_size || x->scratch_size != y->scratch_size || x->local_size != y->local_size ||
            x->shared_size != y->shared_size || memcmp(x->maxntid, y->maxntid, sizeof x->maxntid) ||
            memcmp(x->reqntid, y->reqntid, sizeof x->reqntid) || x->minnctapersm != y->minnctapersm ||
            x->maxnreg != y->maxnreg || x->nshared != y->nshared || x->nregdecls != y->nregdecls)
            DIFF("function %s differs", mx_str(a, x->name));
        for (uint32_t k = 0; k < 2 * x->nshared; k++)
            if (a->shared_layout[x->shared_layout + k] != b->shared_layout[y->shared_layout + k])
                DIFF("shared layout of %s differs", mx_str(a, x->name));
    }
    if (a->nregdecls != b->nregdecls)
        DIFF("register declaration count differs");
    for (uint32_t i = 0; i < a->nregdecls; i++) {
        const struct mx_regdecl *x = &a->regdecls[i], *y = &b->regdecls[i];
        if (strcmp(mx_str(a, x->name), mx_str(b, y->name)) || x->base != y->base || x->count != y->count ||
            x->type != y->type || x->vec != y->vec || x->depth != y->depth)
            DIFF("register declaration %s differs", mx_str(a, x->name));
    }
    if (a->nlabels != b->nlabels)
        DIFF("label count %u vs %u", a->nlabels, b->nlabels);
    for (uint32_t i = 0; i < a->nlabels; i++)
        if (strcmp(mx_str(a, a->labels[i].name), mx_str(b, b->labels[i].name)) || a->labels[i].insn != b->labels[i].insn ||
            a->labels[i].func != b->labels[i].func)
            DIFF("label %s differs", mx_str(a, a->labels[i].name));
    if (a->nrelocs != b->nrelocs)
        DIFF("relocation count differs");
    for (uint32_t i = 0; i < a->nrelocs; i++) {
        const struct mx_reloc *x = &a->relocs[i], *y = &b->relocs[i];
        if (x->sym != y->sym || x->target != y->target || x->offset != y->offset || x->addend != y->addend ||
            x->size != y->size || x->shift != y->shift || x->generic != y->generic)
            DIFF("relocation %u differs", i);
    }
    if (a->nfiles != b->nfiles)
        DIFF("file count differs");
    return 1;
}
