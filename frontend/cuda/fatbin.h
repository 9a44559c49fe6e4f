/* frontend/cuda/fatbin.h — PTX out of nvcc fatbinaries (see fatbin.c). */
#ifndef MX_FATBIN_H
#define MX_FATBIN_H
#include <stddef.h>
#include <stdint.h>

struct fatbin_ptx {               /* a PTX entry, or a cubin (fatbin_find_sass) */
    unsigned arch;                /* compute capability of the PTX (80 = compute_80) or of the cubin (sm_80) */
    unsigned ptx_major, ptx_minor;
    const uint8_t *payload;       /* points into the fatbinary */
    size_t payload_size;
    int compressed;
    uint64_t uncompressed_size;
};

/* The data pointer of a __fatBinC_Wrapper_t, or NULL (message in err). */
const void *fatbin_unwrap(const void *wrapper, char *err, size_t errlen);
/* A program built with -rdc=true: the relocatable objects (their
 * fatbinaries) whose PTX makes the program's device code, to be linked
 * (fe_ptx_link); up to max of them in objs, and their count.  0 for any
 * other wrapper. */
unsigned fatbin_rdc_objects(const void *wrapper, const void **objs, unsigned max);
/* Picks the best PTX for compute capability want_sm (e.g. 86).  limit is the
 * size of the data if known, else 0.  -1 with a message (SASS-only binaries
 * get one that says how to rebuild). */
int fatbin_find_ptx(const void *data, size_t limit, unsigned want_sm, struct fatbin_ptx *out, char *err, size_t errlen);
/* The PTX text (decompressed if needed), NUL-terminated, malloc'ed. */
char *fatbin_ptx_text(const struct fatbin_ptx *f, size_t *len, char *err, size_t errlen);
/* Picks the machine code (a cubin, ELF) the SASS front end decodes (sm_80 or
 * sm_86; the one nearest want_sm at or below it first).  -1 with a message
 * naming the architectures the fatbinary holds. */
int fatbin_find_sass(const void *data, size_t limit, unsigned want_sm, struct fatbin_ptx *out, char *err, size_t errlen);
/* The cubin's bytes (decompressed if needed), malloc'ed, exactly as stored. */
uint8_t *fatbin_elf_bytes(const struct fatbin_ptx *f, size_t *len, char *err, size_t errlen);
/* The code a module of the fatbinary loads, malloc'ed: its PTX text, or
 * without PTX (or with prefer_sass: --prefer sass) the sm_80/sm_86 cubin;
 * *sass_arch is then its architecture (80, 86), else 0.  NULL with a
 * message; *none is then set if the fatbinary holds nothing loadable (no
 * PTX and no cubin we decode; with prefer_sass, no cubin we decode). */
char *fatbin_code(const void *data, unsigned want_sm, int prefer_sass, size_t *len, unsigned *sass_arch, int *none,
                  char *err, size_t errlen);
#endif
