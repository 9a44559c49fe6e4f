/* isa/isa.h — what PTX instructions are: opcodes, types, modifiers, special
 * registers and ISA extensions, all expanded from the .def tables beside this
 * file.  No execution, no timing.  Call mx_isa_init() once before use (it is
 * cheap, idempotent and thread-safe). */
#ifndef MX_ISA_H
#define MX_ISA_H

#include <stddef.h>
#include <stdint.h>

enum mx_op {
#define OP(id, mn, fmt, unit, mods, types, ext) MX_OP_##id,
#include "isa/opcodes.def"
#undef OP
    MX_OP__COUNT
};

enum mx_type {
    MX_T_NONE = 0,
#define TYPE(id, name, bytes, cls) MX_T_##id,
#include "isa/types.def"
#undef TYPE
    MX_T__COUNT
};

/* Type classes (column 4 of types.def). */
enum mx_tclass { MX_TC_B, MX_TC_U, MX_TC_S, MX_TC_F, MX_TC_H, MX_TC_P, MX_TC_O };

enum mx_mg {
#define MG(g) MX_MG_##g,
#define MV(g, v, s)
#include "isa/modgroups.def"
#undef MG
#undef MV
    MX_MG__COUNT
};

/* Modifier values: MX_<GROUP>_<VALUE>, counting from 1 inside each group. */
enum mx_modval_abs_ {
#define MG(g) MX_ABS_##g##__BASE,
#define MV(g, v, s) MX_ABS_##g##_##v,
#include "isa/modgroups.def"
#undef MG
#undef MV
    MX_ABS__COUNT
};
enum mx_modval {
#define MG(g)
#define MV(g, v, s) MX_##g##_##v = MX_ABS_##g##_##v - MX_ABS_##g##__BASE,
#include "isa/modgroups.def"
#undef MG
#undef MV
};

enum mx_sreg {
#define SREG(id, name, dims, type) MX_SREG_##id,
#include "isa/sregs.def"
#undef SREG
    MX_SREG__COUNT
};

enum mx_ext {
    MX_EXT_NONE = 0,
#define EXT(id, name, doc) MX_EXT_##id,
#include "isa/extensions.def"
#undef EXT
    MX_EXT__COUNT
};

enum mx_unit { MX_UNIT_INT, MX_UNIT_FP, MX_UNIT_DP, MX_UNIT_SFU, MX_UNIT_LDST,
               MX_UNIT_CTRL, MX_UNIT_SYNC, MX_UNIT_TEX, MX_UNIT_TENSOR };

/* Operand kinds of an opcode's operand format (see opcodes.def). */
enum mx_fmtkind {
    MX_FK_DST = 'd', MX_FK_PAIR = 'P', MX_FK_SRC = 'a', MX_FK_PRED = 'q',
    MX_FK_MEM = 'm', MX_FK_LABEL = 'l', MX_FK_TARGETS = 't',
    MX_FK_INDREG = 'i', MX_FK_CALL = 'C'
};

#define MX_MAX_OPD 6    /* operands of one instruction, after normalisation */
#define MX_MAX_TYPES 4  /* type slots of one instruction (wmma.mma has 4) */
#define MX_MAX_GROUPS 12 /* modifier groups one opcode accepts */

struct mx_opinfo {
    const char *mnemonic;
    const char *fmt;             /* operand format string, as written */
    uint8_t unit;                /* enum mx_unit */
    uint8_t ext;                 /* enum mx_ext, MX_EXT_NONE if base ISA */
    /* derived by mx_isa_init(): */
    uint8_t nopd;                /* operand slots */
    uint8_t nreq;                /* operands that must be written */
    int8_t optmid;               /* slot that may be left out in the middle, -1 if none */
    char kinds[MX_MAX_OPD];      /* enum mx_fmtkind per slot */
    uint8_t ngroups;
    uint8_t groups[MX_MAX_GROUPS]; /* enum mx_mg, canonical print order */
    uint8_t ntypes;              /* type slots */
    uint8_t ntypes_req;          /* leading slots that must be present */
    uint64_t typemask[MX_MAX_TYPES]; /* allowed types per slot, bit = enum mx_type */
};

int mx_isa_init(void);  /* 0, or -1 if a table row is malformed (message on stderr) */
const struct mx_opinfo *mx_opinfo(int op);
/* Opcode whose mnemonic is exactly s[0..len), or -1. */
int mx_op_lookup(const char *s, size_t len);

const char *mx_type_name(int t);    /* "u32" (no dot); "" for NONE */
unsigned mx_type_size(int t);       /* bytes */
int mx_type_class(int t);           /* enum mx_tclass */
int mx_type_lookup(const char *s, size_t len); /* without the dot; MX_T_NONE if unknown */
static inline int mx_type_is_float(int t) { return mx_type_class(t) == MX_TC_F || mx_type_class(t) == MX_TC_H; }
static inline int mx_type_is_signed(int t) { return mx_type_class(t) == MX_TC_S; }

const char *mx_mg_name(int g);      /* "CMP" */
unsigned mx_mg_nvalues(int g);
const char *mx_mod_name(int g, int v); /* spelling without the dot */
int mx_mod_lookup(int g, const char *s, size_t len); /* value, or 0 */

const char *mx_sreg_name(int s);    /* "%tid" */
unsigned mx_sreg_dims(int s);       /* 1, 3 (.x/.y/.z) or a range count */
int mx_sreg_type(int s);
int mx_sreg_lookup(const char *s, size_t len); /* -1 if none */

const char *mx_ext_name(int e);
const char *mx_ext_doc(int e);
int mx_ext_lookup(const char *s);   /* MX_EXT_NONE if unknown */

const char *mx_unit_name(int u);

#endif
