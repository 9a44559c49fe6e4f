/* frontend/dwarf_line.h — a decoder of DWARF line-number programs (the
 * .debug_line section, DWARF versions 2 to 5), for the line tables ptxas
 * puts in a cubin built with -lineinfo or -G.  It knows nothing about ELF or
 * relocations: it reports, for every row, the section offset of the
 * DW_LNE_set_address operand its address counts from, so that the caller
 * (frontend/cubin.c) can apply the relocation found there.  Every read is
 * checked against the section; a malformed table is an error with the
 * offset and the reason, never a read outside the buffer.  Facts:
 * docs/sass.md ("Line tables"). */
#ifndef MX_FE_DWARF_LINE_H
#define MX_FE_DWARF_LINE_H

#include <stddef.h>
#include <stdint.h>

#define FE_DWARF_NO_FILE 0xffffffffu
#define FE_DWARF_NO_BASE UINT64_MAX  /* the row's address was set by no DW_LNE_set_address */

struct fe_dwarf_row {
    uint64_t addr;         /* the address register: operand of the last set_address plus the advances since */
    uint64_t base_off;     /* section offset of that set_address operand, or FE_DWARF_NO_BASE */
    uint32_t base_size;    /* bytes of that operand (4 or 8) */
    uint32_t file;         /* index into fe_dwarf_lines.files, or FE_DWARF_NO_FILE */
    uint32_t line;         /* 0: no source line */
    uint8_t end;           /* DW_LNE_end_sequence: the first address after the sequence */
};

struct fe_dwarf_lines {
    uint32_t nfiles;
    char **files;          /* paths, directory joined to the name where the table gives one (malloc'd) */
    uint32_t nrows;
    struct fe_dwarf_row *rows; /* in the order the programs emit them (malloc'd) */
};

/* Decodes every line-number program of sec[0..len).  line_str and str are
 * the .debug_line_str and .debug_str sections (or NULL) that DWARF 5 file
 * tables may point into.  Returns 0, or -1 with "offset 0x..: reason" in err
 * (out holds nothing to free then).  Free a success with fe_dwarf_lines_free. */
int fe_dwarf_lines_read(const uint8_t *sec, size_t len, const uint8_t *line_str, size_t line_str_len,
                        const uint8_t *str, size_t str_len, struct fe_dwarf_lines *out, char *err, size_t errlen);
void fe_dwarf_lines_free(struct fe_dwarf_lines *l);

#endif
