/* isa/opdtype.h — operand type rules (see opdtype.c). */
#ifndef MX_ISA_OPDTYPE_H
#define MX_ISA_OPDTYPE_H
#include "mx/program.h"
/* Type operand slot `slot` of `in` is read/written as: an enum mx_type,
 * MX_T_PRED for predicates, MX_T_NONE where no register type applies. */
int mx_opd_type(const struct mx_insn *in, int slot);
#endif
