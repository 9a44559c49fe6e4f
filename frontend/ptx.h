/* frontend/ptx.h — PTX text to decoded program (include/mx/program.h).
 * The parser is hand written (recursive descent, one function per rule) and
 * lowers as it goes: registers to slots, labels to instruction indices,
 * symbols to indices, immediates to bit patterns, operands checked against
 * the opcode table as ptxas would.  Every problem is a diagnostic
 * "file:line:col: error: ..."; nothing in the input can crash it. */
#ifndef MX_FE_PTX_H
#define MX_FE_PTX_H

#include <stddef.h>
#include <stdint.h>
#include "mx/program.h"
#include "frontend/diag.h"

/* Fixed limits: inputs past them get a diagnostic, never unbounded work. */
#define FE_MAX_SOURCE (256u << 20)   /* bytes of PTX text */
#define FE_MAX_NESTING 64            /* { } block depth */
#define FE_MAX_INSNS (16u << 20)     /* instructions in a module */
#define FE_MAX_REGS (1u << 20)       /* register slots of one function */
#define FE_MAX_VAR_BYTES (1ull << 34) /* size of one variable */
#define FE_MAX_INIT_BYTES (256u << 20) /* initialiser bytes of a module */
#define FE_MAX_VEC 64                /* elements of one {vector} / (list) operand */

struct fe_options {
    uint32_t ext_mask;     /* ISA extensions enabled: bit (1 << enum mx_ext) */
    unsigned max_errors;   /* 0 = 20 */
    FILE *diag_out;        /* where diagnostics are printed (NULL: not printed) */
};

/* Parses src[0..len) (named name in diagnostics) into *prog.  Returns MX_OK,
 * MX_EPARSE (diagnostics in *diag), MX_EUNSUPPORTED (a form we do not handle
 * yet, with an "unsupported" diagnostic) or MX_ENOMEM.  *prog is valid (and
 * must be freed with mx_program_free) whatever the result. */
int fe_parse_ptx(const char *src, size_t len, const char *name, const struct fe_options *opt,
                 struct mx_program *prog, struct mx_diag *diag);

/* Reads a whole file; MX_EIO with a message in errbuf on failure. */
/* Links the PTX of n translation units (-rdc=true objects, cuLinkAddData)
 * into one module's text (frontend/ptx_link.c), malloc'ed, NUL-terminated;
 * NULL with a message naming the symbol and the units (1-based) when two
 * define one name or a called function is defined by none. */
char *fe_ptx_link(const char *const *texts, const size_t *lens, unsigned n, size_t *outlen, char *err, size_t errlen);
int fe_read_file(const char *path, char **text, size_t *len, char *errbuf, size_t errlen);

#endif
