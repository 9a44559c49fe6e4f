/* tests/fuzz/ptx_mutate.h — structure-aware mutations of PTX text for the
 * libFuzzer targets: swap opcodes, types, vector widths, state spaces,
 * modifiers and operands, drop/duplicate/move lines.  Opcode, type and
 * modifier names come from the isa/ tables, so new rows are fuzzed at once. */
#ifndef MX_FUZZ_PTX_MUTATE_H
#define MX_FUZZ_PTX_MUTATE_H

#include <stddef.h>
#include <stdint.h>

/* Mutates data[0..size) in place into at most max_size bytes, with every
 * choice drawn from seed (same seed and input, same output).  Returns the
 * new size, or 0 when no structured mutation applied (the caller then falls
 * back to a byte-level one). */
size_t mx_ptx_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed);

/* Line-level crossover: out = a with a run of b's lines spliced in.
 * Returns the size written to out (at most max_out), 0 if none. */
size_t mx_ptx_crossover(const uint8_t *a, size_t asz, const uint8_t *b, size_t bsz, uint8_t *out, size_t max_out,
                        unsigned seed);

#endif
