/* frontend/fe-internal.h — declarations shared inside the front end only. */
#ifndef MX_FE_INTERNAL_H
#define MX_FE_INTERNAL_H
#include "mx/program.h"
#include "frontend/diag.h"
/* Sets insn->ipdom of every branch (bra, brx.idx) to the first instruction of
 * the branch block's immediate post-dominator (MX_NONE: function exit). */
int fe_compute_reconvergence(struct mx_program *prog, struct mx_diag *diag);

/* One lowered instruction and where its opcode word was written, for the
 * form rules of rules.c. */
struct fe_form {
    const struct mx_insn *in;     /* the instruction, operands lowered */
    struct mx_diag *diag;
    unsigned line, col;           /* position of the opcode word */
    const char *s;                /* the opcode word ("cvt.rn.f32.s32"), for "near" */
    int len;
    uint16_t mcol[MX_MG__COUNT];  /* offset in the word of each written modifier group's '.' */
    uint16_t tcol[MX_MAX_TYPES];  /* offset of each written type's '.' */
};
/* Checks the type/modifier/operand combination of f->in against the PTX ISA
 * rules the opcode table cannot express; 0, or -1 after one diagnostic. */
int fe_check_form(const struct fe_form *f);
#endif
