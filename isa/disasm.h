/* isa/disasm.h — decoded program back to PTX text. */
#ifndef MX_ISA_DISASM_H
#define MX_ISA_DISASM_H
#include <stdio.h>
#include "mx/program.h"
/* Prints the whole program as PTX that re-parses to an identical program. */
int mx_disasm_program(FILE *out, const struct mx_program *p);
/* Prints one instruction (no newline); fn is the function it belongs to. */
void mx_disasm_insn(FILE *out, const struct mx_program *p, uint32_t fn, const struct mx_insn *in);
/* Name of value register slot / predicate slot of function fn, into buf. */
const char *mx_reg_name(const struct mx_program *p, uint32_t fn, uint32_t slot, int pred, char *buf, size_t len);
/* 1 if a and b are the same program (source positions aside), else 0; on a
 * difference, a description goes to why (if not NULL). */
int mx_program_equal(const struct mx_program *a, const struct mx_program *b, char *why, size_t whylen);
#endif
