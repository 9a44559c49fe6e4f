/* frontend/cubin.h — the reader of NVIDIA cubins (ELF64, EM_CUDA) for the
 * SASS front end.  Owns nothing but the kernel list it builds: pointers into
 * the caller's buffer (which must outlive the fe_cubin), checked to lie
 * inside it.  Knows sections, symbols, .nv.info attributes, constant bank 0
 * and the shared/local sizes, and maps code addresses to source lines
 * through the line table (frontend/dwarf_line.c); knows nothing about
 * instruction words (frontend/sass_decode.c).  Layout facts and how they were found: docs/sass.md. */
#ifndef MX_FE_CUBIN_H
#define MX_FE_CUBIN_H

#include <stddef.h>
#include <stdint.h>

#define FE_CUBIN_MAX_PARAMS 1024     /* parameters of one kernel (4 KiB of constant bank 0 at most) */

struct fe_cubin_param {
    uint32_t ordinal;      /* position in the kernel's parameter list */
    uint32_t offset;       /* byte offset in the parameter buffer (0 = first parameter) */
    uint32_t size;         /* bytes */
};

struct fe_cubin_kernel {
    const char *name;            /* symbol name, NUL-terminated inside the buffer */
    const uint8_t *text;         /* instruction words (16 bytes each) */
    uint32_t text_size;          /* bytes, a multiple of 16 */
    uint32_t nregs;              /* registers per thread (the .text section's sh_info >> 24) */
    uint32_t param_base;         /* byte offset of the first parameter in constant bank 0 */
    uint32_t param_size;         /* bytes of the parameter buffer */
    uint32_t nparams;
    struct fe_cubin_param *params; /* nparams entries, sorted by ordinal (malloc'd) */
    const uint8_t *cbank0;       /* initial contents of constant bank 0 (.nv.constant0.NAME), or NULL */
    uint32_t cbank0_size;
    const uint8_t *cbank2;       /* constant bank 2, literals ptxas placed there (.nv.constant2.NAME), or NULL */
    uint32_t cbank2_size;
    uint32_t shared_size;        /* static shared memory bytes (.nv.shared.NAME) */
    uint32_t frame_size;         /* local memory (stack frame) bytes per thread (EIATTR_FRAME_SIZE) */
    uint32_t nfuncs;             /* device functions ptxas placed in the kernel's .text */
    uint32_t *funcs;             /* their start offsets, sorted (the FUNC symbols of the section; malloc'd) */
    uint32_t maxntid[3];         /* .maxntid x, y, z (EIATTR_MAX_THREADS), or 0 */
    uint32_t reqntid[3];         /* .reqntid x, y, z (EIATTR_REQNTID), or 0 */
    uint32_t nlines;
    const struct fe_cubin_line *lines; /* its rows of the line table, sorted by address (in fe_cubin.lines) */
};

/* A row of a kernel's line table (.debug_line, -lineinfo / -G): the code
 * from addr up to the next row's address comes from line of file. */
struct fe_cubin_line {
    uint32_t addr;               /* offset in the kernel's .text */
    uint32_t file;               /* index into fe_cubin.files, or FE_CUBIN_NO_FILE */
    uint32_t line;               /* 0: no source line (the end of a sequence) */
};
#define FE_CUBIN_NO_FILE 0xffffffffu

/* A __constant__ variable: a symbol in the module's constant bank 3. */
struct fe_cubin_const {
    const char *name;
    uint32_t offset, size;       /* in bank 3 */
};

/* A __device__ variable: a symbol in .nv.global (zero-initialised) or
 * .nv.global.init (init points at its initial bytes). */
struct fe_cubin_global {
    const char *name;
    uint32_t offset, size;       /* in its section */
    const uint8_t *init;         /* NULL for .nv.global */
};

/* One 64-bit slot of constant bank 4 that the loader relocates to the
 * address of a __device__ variable plus addend, or to the address of a
 * function the module does not define (an undefined FUNC symbol:
 * __assertfail, malloc, free, cudaGraphSetConditional, ...). */
struct fe_cubin_reloc {
    uint32_t offset;             /* in bank 4 */
    uint32_t global;             /* index in globals (when func is NULL) */
    const char *func;            /* the external function's name, or NULL */
    uint64_t addend;
};

struct fe_cubin {
    uint32_t arch;               /* 80 for sm_80, 86 for sm_86 */
    uint32_t nkernels;
    struct fe_cubin_kernel *kernels; /* malloc'd */
    const uint8_t *cbank3;       /* .nv.constant3: the __constant__ variables' initial bytes, or NULL */
    uint32_t cbank3_size;
    uint32_t nconsts;
    struct fe_cubin_const *consts; /* sorted by offset, non-overlapping (malloc'd) */
    uint32_t nglobals;
    struct fe_cubin_global *globals; /* malloc'd */
    const uint8_t *cbank4;       /* .nv.constant4: 64-bit addresses of __device__ variables, or NULL */
    uint32_t cbank4_size;
    uint32_t nrelocs;
    struct fe_cubin_reloc *relocs; /* malloc'd */
    uint32_t nfiles;
    char **files;                /* source files of the line table, directory joined; '"', '\\' and control
                                    characters replaced by '?' (malloc'd) */
    struct fe_cubin_line *lines; /* every kernel's rows (malloc'd) */
    char warning[320];           /* "FILE: warning: ..." when the line table was ignored, else "" */
};

/* Is buf an ELF file (the four magic bytes)? */
int fe_is_elf(const uint8_t *buf, size_t len);

/* Reads the cubin buf[0..len) named file in messages.  Returns MX_OK, or
 * MX_EPARSE / MX_EUNSUPPORTED / MX_ENOMEM with "FILE: reason" in err.  On
 * error *c holds nothing to free; on success free it with fe_cubin_free.  A
 * line table that cannot be read is no error: it is dropped, with the reason
 * in c->warning. */
int fe_cubin_read(const uint8_t *buf, size_t len, const char *file, struct fe_cubin *c, char *err, size_t errlen);
void fe_cubin_free(struct fe_cubin *c);
/* The source line of the instruction at addr of kernel k, or NULL when the
 * line table names none. */
const struct fe_cubin_line *fe_cubin_line_at(const struct fe_cubin_kernel *k, uint32_t addr);

#endif
