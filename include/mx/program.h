/* include/mx/program.h — the decoded program: the front end's only output and
 * the emulator's only input.  Immutable once built; no parser state, no
 * timing fields.  Registers are resolved to per-function slot numbers, labels
 * to instruction indices, symbols to indices into prog->syms, immediates to
 * bit patterns of the instruction's type. */
#ifndef MX_PROGRAM_H
#define MX_PROGRAM_H

#include <stdint.h>
#include <stddef.h>
#include "isa/isa.h"

#define MX_NONE 0xffffffffu   /* "no register / symbol / index" */

enum mx_opd_kind {
    MX_OPD_NONE = 0,
    MX_OPD_REG,     /* reg: slot (64-bit lanes) */
    MX_OPD_PRED,    /* reg: predicate slot; flags MX_OPDF_NEG for !p */
    MX_OPD_IMM,     /* imm: value as bits of the instruction type (floats converted) */
    MX_OPD_SREG,    /* reg: enum mx_sreg; imm: component (0..2 for .x/.y/.z, or range index) */
    MX_OPD_SYM,     /* reg: symbol index (address of a variable, or a function); imm: offset */
    MX_OPD_ADDR,    /* [base+sym+imm]: reg = base register slot or MX_NONE, sym = symbol or MX_NONE,
                       flags MX_OPDF_BASE32 if the base register is 32-bit */
    MX_OPD_VEC,     /* {a, b, ...}: reg = index of the first element in prog->vec, count elements */
    MX_OPD_TEXADDR, /* [tex, sampler?, {coords}]: reg = index into prog->vec, count elements */
    MX_OPD_LABEL,   /* reg: absolute instruction index */
    MX_OPD_TARGETS, /* brx.idx targets: reg = index into prog->vec (LABEL elements), count */
    MX_OPD_LIST,    /* call (a, b): reg = index into prog->vec, count (SYM or REG elements) */
    MX_OPD_FUNC,    /* call target: reg = function index */
    MX_OPD_PROTO,   /* call prototype: reg = function index of the .callprototype */
    MX_OPD_SINK,    /* '_' */
    MX_OPD_INDREG,  /* %r[%i]: reg = first slot of the range, sym = range length, imm = index register slot */
    MX_OPD__COUNT
};

enum mx_opd_flags {
    MX_OPDF_NEG = 1,     /* !p */
    MX_OPDF_BASE32 = 2,  /* address base register holds 32 bits */
    MX_OPDF_FLOAT = 4,   /* immediate was written as a float literal */
};

struct mx_operand {
    uint8_t kind;        /* enum mx_opd_kind */
    uint8_t flags;       /* enum mx_opd_flags */
    uint8_t type;        /* enum mx_type the operand is read/written as (register's declared type for REG) */
    uint8_t pad_;
    uint32_t count;      /* VEC/LIST/TARGETS/TEXADDR element count */
    uint32_t reg;        /* see enum mx_opd_kind */
    uint32_t sym;        /* ADDR: symbol or MX_NONE; INDREG: range length */
    int64_t imm;         /* IMM value, ADDR/SYM offset, SREG component, INDREG index slot */
};

struct mx_insn {
    uint16_t op;                  /* enum mx_op */
    uint8_t nopd;                 /* operands used in opd[] */
    uint8_t guard_neg;            /* guard is @!p */
    uint32_t guard;               /* guard predicate slot, or MX_NONE */
    uint8_t type[MX_MAX_TYPES];   /* enum mx_type per type slot; MX_T_NONE if absent */
    uint8_t mod[MX_MG__COUNT];    /* modifier value per group (0 = absent) */
    struct mx_operand opd[MX_MAX_OPD];
    uint32_t ipdom;               /* reconvergence point (immediate post-dominator) of a branch, MX_NONE = function exit */
    uint32_t line;                /* PTX source line (1-based) */
    uint16_t col;                 /* PTX source column */
    uint16_t loc_file;            /* .loc file number, 0 if none */
    uint32_t loc_line;            /* .loc line, 0 if none */
};

enum mx_space_kind { MX_SP_GLOBAL, MX_SP_CONST, MX_SP_SHARED, MX_SP_LOCAL, MX_SP_PARAM,
                     MX_SP_TARGETS /* .branchtargets list: offset = index into prog->vec, size = count */,
                     MX_SP__COUNT };

enum mx_sym_flags {
    MX_SYMF_EXTERN = 1, MX_SYMF_VISIBLE = 2, MX_SYMF_WEAK = 4, MX_SYMF_COMMON = 8,
    MX_SYMF_ENTRY_PARAM = 16, /* kernel parameter */
    MX_SYMF_FUNC_PARAM = 32,  /* .func input parameter */
    MX_SYMF_FUNC_RET = 64,    /* .func return parameter */
    MX_SYMF_PTR = 128,        /* .ptr attribute on a kernel parameter */
    MX_SYMF_DYNAMIC = 256,    /* extern .shared with unsized array: dynamic shared memory */
    MX_SYMF_MANAGED = 512,    /* .attribute(.managed): a __managed__ variable */
};

struct mx_symbol {
    uint32_t name;        /* offset into prog->strtab */
    uint8_t space;        /* enum mx_space_kind */
    uint8_t type;         /* element type (enum mx_type) */
    uint8_t vec;          /* vector width of the element, 1 if scalar */
    uint8_t ptr_space;    /* .ptr .space of a kernel parameter (enum mx_space_kind), 0xff if none */
    uint32_t flags;       /* enum mx_sym_flags */
    uint32_t align;       /* bytes */
    uint32_t ptr_align;   /* .ptr .align N of a kernel parameter (alignment of the pointee), 0 if none */
    uint64_t size;        /* bytes (0 for unsized extern arrays) */
    uint32_t ndims;       /* array dimensions written (0 = scalar) */
    uint32_t dims[4];     /* array extents as written (0 = unsized) */
    uint32_t func;        /* owning function for function-scope symbols, MX_NONE if module scope */
    uint64_t offset;      /* GLOBAL/CONST: offset in prog->data; SHARED: in the function's static layout;
                             LOCAL: in the function's frame; PARAM: in the param buffer of its kind;
                             TARGETS: see enum mx_space_kind */
    uint32_t init;        /* GLOBAL/CONST: 1 if prog->data holds an initialiser, else 0 */
    uint32_t line;        /* declaration line */
};

/* What a program was written as, in source order, so that the disassembler
 * prints declarations, blocks and labels where they were (and a round trip
 * rebuilds the same indices).  Module level: prog->items; function bodies:
 * prog->events, func->ev_first .. + func->nev, pos = instruction index. */
enum mx_event_kind {
    MX_EV_VAR,        /* module variable: index = symbol */
    MX_EV_FUNC_DECL,  /* function prototype: index = function */
    MX_EV_FUNC_DEF,   /* function definition: index = function */
    MX_EV_FILE,       /* .file: index into prog->files */
    MX_EV_OPEN,       /* '{' */
    MX_EV_CLOSE,      /* '}' */
    MX_EV_REG,        /* .reg: index = regdecl */
    MX_EV_SYM,        /* function-scope variable or .branchtargets: index = symbol */
    MX_EV_LABEL,      /* index = label */
    MX_EV_PROTO,      /* .callprototype: index = function */
};
struct mx_event { uint32_t kind; uint32_t pos; uint32_t index; };

/* An initialiser word that holds an address: resolved when the module is loaded. */
struct mx_reloc {
    uint32_t sym;         /* variable whose initial data holds the address */
    uint32_t target;      /* symbol whose address is stored */
    uint64_t offset;      /* byte offset inside sym's data */
    int64_t addend;
    uint8_t size;         /* bytes written: 1, 2, 4 or 8 */
    uint8_t shift;        /* the bytes written are (address >> shift): mask initialisers 0xFF00(sym) */
    uint8_t generic;      /* generic(sym) address rather than state-space address */
};

/* A .reg declaration: either one register or a range %name<count>. */
struct mx_regdecl {
    uint32_t name;        /* strtab offset of the name or range prefix */
    uint32_t base;        /* first slot (in the predicate or the value slot space) */
    uint32_t count;       /* registers in the range; 0 for a single register */
    uint8_t type;         /* enum mx_type */
    uint8_t vec;          /* .v2/.v4 register (1 if scalar) */
    uint16_t depth;       /* block nesting depth of the declaration ({ } scopes), 0 = function body */
};

enum mx_func_flags {
    MX_FUNCF_ENTRY = 1, MX_FUNCF_DECL = 2 /* prototype only */, MX_FUNCF_EXTERN = 4,
    MX_FUNCF_VISIBLE = 8, MX_FUNCF_WEAK = 16, MX_FUNCF_PROTO = 32 /* .callprototype */,
    MX_FUNCF_NORETURN = 64,
};

struct mx_func {
    uint32_t name;         /* strtab */
    uint32_t flags;        /* enum mx_func_flags */
    uint32_t first;        /* first instruction (index into prog->insns) */
    uint32_t ninsns;
    uint32_t nregs;        /* value register slots */
    uint32_t npreds;       /* predicate slots */
    uint32_t live_regs;    /* 32-bit registers live at once at most (frontend/cfg.c): what a register
                              allocator needs, 0 before the analysis */
    uint32_t regbit;       /* first of nregs entries in prog->regbit (MX_NONE: none): each value
                              register's bit 0..63 in a timing model's scoreboard (tm_issue.def), given so
                              that registers live at the same time get different bits where 64 suffice */
    uint32_t regdecl;      /* first entry in prog->regdecls */
    uint32_t nregdecls;
    uint32_t param;        /* first parameter symbol: nparams consecutive symbols */
    uint32_t nparams;
    uint32_t ret;          /* first return-parameter symbol */
    uint32_t nrets;
    uint32_t param_size;   /* bytes of the incoming parameter buffer */
    uint32_t ret_size;     /* bytes of the return parameter buffer */
    uint32_t scratch_size; /* bytes of .param variables declared in the body (call arguments) */
    uint64_t local_size;   /* bytes of .local variables of this function's frame (64-bit: a
                              4 GiB array must not wrap to a small frame) */
    uint32_t shared_size;  /* entries: static shared bytes incl. every reachable function's */
    uint32_t shared_align;
    uint32_t shared_layout;  /* entries: first (sym, offset) pair in prog->shared_layout */
    uint32_t nshared;        /* entries: number of pairs */
    uint32_t maxntid[3], reqntid[3]; /* 0 = not given */
    uint32_t minnctapersm, maxnreg, maxnctapersm;
    uint32_t ev_first, nev;  /* body events in prog->events */
    uint32_t line;
};

struct mx_label {
    uint32_t name;   /* strtab */
    uint32_t insn;   /* absolute instruction index */
    uint32_t func;
};

struct mx_file { uint32_t num; uint32_t name; }; /* .file num "name" */

struct mx_program {
    char *strtab; size_t strtab_len, strtab_cap;
    struct mx_insn *insns; uint32_t ninsns, insns_cap;
    struct mx_operand *vec; uint32_t nvec, vec_cap;        /* elements of VEC/LIST/TARGETS/TEXADDR operands */
    struct mx_symbol *syms; uint32_t nsyms, syms_cap;
    struct mx_func *funcs; uint32_t nfuncs, funcs_cap;
    struct mx_regdecl *regdecls; uint32_t nregdecls, regdecls_cap;
    uint8_t *regbit; uint32_t nregbit, regbit_cap;         /* scoreboard bits of the functions' registers */
    struct mx_label *labels; uint32_t nlabels, labels_cap;
    struct mx_reloc *relocs; uint32_t nrelocs, relocs_cap;
    struct mx_file *files; uint32_t nfiles, files_cap;
    uint8_t *data; uint64_t data_len, data_cap;             /* initial contents of .global/.const variables */
    struct mx_event *items; uint32_t nitems, items_cap;    /* module-level source order */
    struct mx_event *events; uint32_t nevents, events_cap; /* function-body source order */
    uint32_t *shared_layout; uint32_t nshared_layout, shared_layout_cap; /* (sym, offset) pairs per entry, see mx_func */
    uint32_t version_major, version_minor;   /* .version */
    uint32_t target_sm;                      /* .target sm_NN */
    uint32_t target_flags;                   /* 1: texmode_independent, 2: map_f64_to_f32, 4: debug */
    uint32_t address_size;                   /* 32 or 64 */
    uint32_t ext_mask;                       /* ISA extensions the program was validated with (1 << enum mx_ext) */
    char *source_name;                       /* file name for diagnostics */
    uint32_t *sass_addr;                     /* lowered from machine code (frontend/sass_lower.c): the SASS
                                                address each instruction was lowered from (ninsns entries;
                                                .loc gives the source line of -lineinfo cubins); else NULL */
};

static inline const char *mx_str(const struct mx_program *p, uint32_t off) { return p->strtab + off; }

void mx_program_free(struct mx_program *p);
/* Index of the function named name, or -1. */
int mx_program_find_func(const struct mx_program *p, const char *name);

#endif
