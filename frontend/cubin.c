/* frontend/cubin.c — reads a cubin (ELF64, machine EM_CUDA = 190) into a
 * list of kernels: instruction words, register count, parameter layout in
 * constant bank 0, shared and local sizes.  Every offset and size read from
 * the file is checked against the buffer before use; a bad file is an error
 * naming the file and the reason, never a crash.  Facts: docs/sass.md. */
#include "frontend/cubin.h"
#include "frontend/dwarf_line.h"
#include "mx/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EM_CUDA 190
#define SHT_SYMTAB 2
#define SHT_RELA 4
#define SHT_NOBITS 8
#define SHT_REL 9
#define R_CUDA_64 2                /* relocation: 64-bit absolute (symbol value + addend) */
#define STT_OBJECT 1
#define STT_FUNC 2
#define STO_CUDA_ENTRY 0x10        /* st_other of a __global__ function */

/* .nv.info attributes (EIATTR_*) we read: numbers seen in ptxas output. */
#define EIATTR_MAX_THREADS 0x05    /* SVAL: u32 x, y, z of .maxntid (__launch_bounds__) */
#define EIATTR_PARAM_CBANK 0x0a    /* SVAL: u32 symbol, u16 offset in bank 0, u16 size */
#define EIATTR_REQNTID 0x10        /* SVAL: u32 x, y, z of .reqntid */
#define EIATTR_FRAME_SIZE 0x11     /* SVAL: u32 symbol, u32 bytes (module .nv.info) */
#define EIATTR_KPARAM_INFO 0x17    /* SVAL: u32 index, u16 ordinal, u16 offset, u32 flags (size in bits 18..31) */
#define EIATTR_CBANK_PARAM_SIZE 0x19 /* HVAL: parameter bytes */

struct shdr {
    uint32_t name, type;
    uint64_t flags, offset, size;
    uint32_t link, info;
    uint64_t entsize;
};

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static int fail(char *err, size_t errlen, int code, const char *file, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (err && errlen)
        snprintf(err, errlen, "%s: %s", file, msg);
    return code;
}

int fe_is_elf(const uint8_t *buf, size_t len)
{
    return len >= 4 && buf[0] == 0x7f && buf[1] == 'E' && buf[2] == 'L' && buf[3] == 'F';
}

/* A NUL-terminated name at off inside the string section s, or NULL. */
static const char *sec_str(const uint8_t *buf, const struct shdr *s, uint64_t off)
{
    if (off >= s->size)
        return NULL;
    const char *p = (const char *)buf + s->offset + off;
    return memchr(p, 0, s->size - off) ? p : NULL;
}

/* The section named name, or NULL. */
static const struct shdr *find_sec(const uint8_t *buf, const struct shdr *sh, uint32_t n, const struct shdr *shstr,
                                   const char *name)
{
    for (uint32_t i = 0; i < n; i++) {
        const char *s = sec_str(buf, shstr, sh[i].name);
        if (s && !strcmp(s, name))
            return &sh[i];
    }
    return NULL;
}

static int cmp_const(const void *a, const void *b)
{
    const struct fe_cubin_const *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_param(const void *a, const void *b)
{
    const struct fe_cubin_param *x = a, *y = b;
    return (x->ordinal > y->ordinal) - (x->ordinal < y->ordinal);
}

/* Walks one .nv.info section: calls back per (attribute, payload, size). */
typedef int (*info_fn)(void *ctx, unsigned attr, const uint8_t *v, uint32_t n);
static int walk_info(const uint8_t *p, uint64_t size, info_fn fn, void *ctx)
{
    uint64_t i = 0;
    while (i + 4 <= size) {
        unsigned fmt = p[i], attr = p[i + 1];
        uint32_t n = 0;
        const uint8_t *v = p + i + 2;
        if (fmt == 4) {                  /* EIFMT_SVAL: u16 size, then payload */
            n = rd16(p + i + 2);
            v = p + i + 4;
            if (n > size - i - 4)
                return -1;
            i += 4 + n;
        } else if (fmt >= 1 && fmt <= 3) { /* NVAL / BVAL / HVAL: two bytes of value */
            n = 2;
            i += 4;
        } else
            return -1;
        if (fn && fn(ctx, attr, v, n))
            return -1;
    }
    return i == size ? 0 : -1;
}

struct kinfo { struct fe_cubin_kernel *k; int bad; };

static int kinfo_fn(void *ctx, unsigned attr, const uint8_t *v, uint32_t n)
{
    struct kinfo *ki = ctx;
    struct fe_cubin_kernel *k = ki->k;
    if (attr == EIATTR_KPARAM_INFO) {
        if (n < 12)
            return -1;
        if (k->nparams >= FE_CUBIN_MAX_PARAMS)
            return -1;
        struct fe_cubin_param *p = &k->params[k->nparams++];
        p->ordinal = rd16(v + 4);
        p->offset = rd16(v + 6);
        p->size = rd32(v + 8) >> 18;
    } else if (attr == EIATTR_PARAM_CBANK) {
        if (n < 8)
            return -1;
        k->param_base = rd16(v + 4);
        k->param_size = rd16(v + 6);
    } else if (attr == EIATTR_MAX_THREADS || attr == EIATTR_REQNTID) {
        if (n != 12)
            return -1;
        uint32_t *d = attr == EIATTR_MAX_THREADS ? k->maxntid : k->reqntid;
        for (int i = 0; i < 3; i++) {
            d[i] = rd32(v + 4 * i);
            if (d[i] < 1 || d[i] > 1024)
                return -1;
        }
    } else if (attr == EIATTR_CBANK_PARAM_SIZE) {
        if (n < 2)
            return -1;
        if (rd16(v) != k->param_size && k->param_size)
            ki->bad = 1;
    }
    return 0;
}

struct minfo { const uint8_t *buf; const struct shdr *symtab; uint32_t symidx; uint32_t frame; };

static int minfo_fn(void *ctx, unsigned attr, const uint8_t *v, uint32_t n)
{
    struct minfo *mi = ctx;
    if (attr == EIATTR_FRAME_SIZE && n >= 8 && rd32(v) == mi->symidx)
        mi->frame = rd32(v + 4);
    return 0;
}

/* ---- line table ---- */

static void line_warn(struct fe_cubin *c, const char *file, const char *fmt, ...)
{
    char msg[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->warning, sizeof c->warning, "%s: warning: line table ignored: %s", file, msg);
}

struct lrow { struct fe_cubin_line l; uint32_t kernel, idx; uint8_t end; };

static int cmp_lrow(const void *a, const void *b)
{
    const struct lrow *x = a, *y = b;
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    if (x->l.addr != y->l.addr)
        return x->l.addr < y->l.addr ? -1 : 1;
    if (x->end != y->end) /* a sequence ending where another starts: the start describes the code */
        return x->end ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx); /* several rows at one address: the last one describes it */
}

/* The kernel and kernel-relative address a set_address operand at off of
 * .debug_line is relocated to: 0, or -1 when no relocation names a kernel's
 * code there, -2 when one is not of a type we apply. */
static int line_reloc(const uint8_t *buf, const struct shdr *rel, const struct shdr *sh, uint32_t shnum,
                      const struct shdr *symtab, const struct fe_cubin *c, uint64_t off, uint32_t *kernel,
                      uint64_t *value)
{
    uint64_t esz = rel->type == SHT_RELA ? 24 : 16;
    for (uint64_t i = 0; i + esz <= rel->size; i += esz) {
        const uint8_t *p = buf + rel->offset + i;
        if (rd64(p) != off)
            continue;
        uint64_t info = rd64(p + 8);
        uint32_t sym = (uint32_t)(info >> 32);
        if ((uint32_t)info != R_CUDA_64)
            return -2;
        if (sym >= symtab->size / 24)
            return -1;
        const uint8_t *q = buf + symtab->offset + (uint64_t)sym * 24;
        uint32_t shndx = rd16(q + 6);
        if (shndx >= shnum || sh[shndx].type == SHT_NOBITS)
            return -1;
        for (uint32_t k = 0; k < c->nkernels; k++)
            if (c->kernels[k].text == buf + sh[shndx].offset) {
                *kernel = k;
                *value = rd64(q + 8) + (rel->type == SHT_RELA ? rd64(p + 16) : 0);
                return 0;
            }
        return -1;
    }
    return -1;
}

/* .debug_line (nvcc -lineinfo / -G, ptxas -lineinfo): each kernel's rows,
 * the addresses relocated by .rel.debug_line to the kernel's symbol.  Any
 * problem drops the whole table with a warning. */
static void read_lines(const uint8_t *buf, const struct shdr *sh, uint32_t shnum, const struct shdr *shstr,
                       const struct shdr *symtab, struct fe_cubin *c, const char *file)
{
    const struct shdr *dl = find_sec(buf, sh, shnum, shstr, ".debug_line");
    if (!dl || dl->type == SHT_NOBITS)
        return;
    const struct shdr *ls = find_sec(buf, sh, shnum, shstr, ".debug_line_str");
    const struct shdr *ds = find_sec(buf, sh, shnum, shstr, ".debug_str");
    const struct shdr *rel = find_sec(buf, sh, shnum, shstr, ".rel.debug_line");
    if (!rel)
        rel = find_sec(buf, sh, shnum, shstr, ".rela.debug_line");
    if (ls && ls->type == SHT_NOBITS)
        ls = NULL;
    if (ds && ds->type == SHT_NOBITS)
        ds = NULL;
    if (rel && (rel->type == SHT_NOBITS || (rel->type != SHT_REL && rel->type != SHT_RELA))) {
        line_warn(c, file, "its relocation section is of type %u", rel->type);
        return;
    }
    struct fe_dwarf_lines dw;
    char why[200];
    if (fe_dwarf_lines_read(buf + dl->offset, dl->size, ls ? buf + ls->offset : NULL, ls ? ls->size : 0,
                            ds ? buf + ds->offset : NULL, ds ? ds->size : 0, &dw, why, sizeof why)) {
        line_warn(c, file, ".debug_line %s", why);
        return;
    }
    struct lrow *rows = calloc(dw.nrows ? dw.nrows : 1, sizeof *rows);
    uint32_t n = 0;
    if (!rows) {
        fe_dwarf_lines_free(&dw);
        line_warn(c, file, "out of memory");
        return;
    }
    uint64_t last_off = FE_DWARF_NO_BASE, value = 0;
    uint32_t kernel = 0;
    int found = -1;
    for (uint32_t i = 0; i < dw.nrows; i++) {
        const struct fe_dwarf_row *r = &dw.rows[i];
        if (r->base_off == FE_DWARF_NO_BASE || !rel)
            continue; /* an address no relocation places in a kernel */
        if (r->base_off != last_off) {
            last_off = r->base_off;
            found = line_reloc(buf, rel, sh, shnum, symtab, c, r->base_off, &kernel, &value);
            if (found == -2) {
                line_warn(c, file, ".rel.debug_line: a relocation at offset 0x%llx is not of type %u (64-bit absolute)",
                          (unsigned long long)r->base_off, R_CUDA_64);
                break;
            }
        }
        uint64_t a = value + r->addr; /* (the operand's bytes, advanced: REL's addend) */
        if (found || a > c->kernels[kernel].text_size || (a == c->kernels[kernel].text_size && !r->end))
            continue;
        rows[n++] = (struct lrow){ { (uint32_t)a, r->end ? FE_CUBIN_NO_FILE : r->file, r->end ? 0 : r->line },
                                   kernel, i, r->end };
    }
    if (c->warning[0]) {
        free(rows);
        fe_dwarf_lines_free(&dw);
        return;
    }
    qsort(rows, n, sizeof *rows, cmp_lrow);
    c->lines = calloc(n ? n : 1, sizeof *c->lines);
    if (!c->lines) {
        free(rows);
        fe_dwarf_lines_free(&dw);
        line_warn(c, file, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        struct fe_cubin_kernel *k = &c->kernels[rows[i].kernel];
        if (!k->nlines)
            k->lines = &c->lines[i];
        c->lines[i] = rows[i].l;
        k->nlines++;
    }
    free(rows);
    c->files = dw.files;
    c->nfiles = dw.nfiles;
    free(dw.rows);
    /* the names go into PTX strings and one-line reports: a quote, backslash or control character becomes '?' */
    for (uint32_t i = 0; i < c->nfiles; i++)
        for (char *p = c->files[i]; *p; p++)
            if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
}

const struct fe_cubin_line *fe_cubin_line_at(const struct fe_cubin_kernel *k, uint32_t addr)
{
    uint32_t lo = 0, hi = k->nlines; /* the last row at or before addr: lines[lo - 1] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->lines[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    const struct fe_cubin_line *l = lo ? &k->lines[lo - 1] : NULL;
    return l && l->line && l->file != FE_CUBIN_NO_FILE ? l : NULL;
}

int fe_cubin_read(const uint8_t *buf, size_t len, const char *file, struct fe_cubin *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    if (!fe_is_elf(buf, len))
        return fail(err, errlen, MX_EPARSE, file, "not an ELF file (no \\x7fELF magic)");
    if (len < 64 || buf[4] != 2 || buf[5] != 1)
        return fail(err, errlen, MX_EPARSE, file, "not a little-endian 64-bit ELF file, as cubins are");
    if (rd16(buf + 18) != EM_CUDA)
        return fail(err, errlen, MX_EPARSE, file, "ELF machine %u is not NVIDIA CUDA (190)", rd16(buf + 18));
    uint32_t flags = rd32(buf + 48);
    c->arch = (flags >> 8) & 0xff;
    if (c->arch != 80 && c->arch != 86)
        return fail(err, errlen, MX_EUNSUPPORTED, file,
                    "cubin for sm_%u; the SASS front end decodes sm_80 and sm_86 only (ELF flags 0x%x)", c->arch, flags);
    uint64_t shoff = rd64(buf + 40);
    uint32_t shentsize = rd16(buf + 58), shnum = rd16(buf + 60), shstrndx = rd16(buf + 62);
    if (shentsize != 64 || shnum == 0 || shstrndx >= shnum || shoff > len || (uint64_t)shnum * 64 > len - shoff)
        return fail(err, errlen, MX_EPARSE, file, "corrupt ELF: section header table outside the file");
    struct shdr *sh = calloc(shnum, sizeof *sh);
    if (!sh)
        return fail(err, errlen, MX_ENOMEM, file, "out of memory");
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *p = buf + shoff + (uint64_t)i * 64;
        sh[i] = (struct shdr){ rd32(p), rd32(p + 4), rd64(p + 8), rd64(p + 24), rd64(p + 32), rd32(p + 40), rd32(p + 44),
                               rd64(p + 56) };
        if (sh[i].type != SHT_NOBITS && (sh[i].offset > len || sh[i].size > len - sh[i].offset)) {
            free(sh);
            return fail(err, errlen, MX_EPARSE, file, "corrupt ELF: section %u lies outside the file", i);
        }
    }
    const struct shdr *shstr = &sh[shstrndx], *symtab = NULL;
    if (shstr->type == SHT_NOBITS) {
        free(sh);
        return fail(err, errlen, MX_EPARSE, file, "corrupt ELF: no section name table");
    }
    for (uint32_t i = 0; i < shnum; i++)
        if (sh[i].type == SHT_SYMTAB)
            symtab = &sh[i];
    if (!symtab || symtab->entsize != 24 || symtab->link >= shnum || sh[symtab->link].type == SHT_NOBITS) {
        free(sh);
        return fail(err, errlen, MX_EPARSE, file, "corrupt ELF: no symbol table");
    }
    const struct shdr *strtab = &sh[symtab->link];
    const struct shdr *modinfo = find_sec(buf, sh, shnum, shstr, ".nv.info");
    int rc = MX_OK;
    uint64_t nsyms = symtab->size / 24;
    c->kernels = calloc(nsyms ? nsyms : 1, sizeof *c->kernels);
    if (!c->kernels) {
        free(sh);
        return fail(err, errlen, MX_ENOMEM, file, "out of memory");
    }
    for (uint64_t s = 0; s < nsyms && rc == MX_OK; s++) {
        const uint8_t *p = buf + symtab->offset + s * 24;
        uint32_t nm = rd32(p);
        unsigned info = p[4], other = p[5], shndx = rd16(p + 6);
        if ((info & 0xf) != STT_FUNC || !(other & STO_CUDA_ENTRY))
            continue;
        const char *name = sec_str(buf, strtab, nm);
        char secname[512];
        if (!name || shndx >= shnum || strlen(name) > 400) {
            rc = fail(err, errlen, MX_EPARSE, file, "corrupt ELF: kernel symbol %llu has a bad name or section",
                      (unsigned long long)s);
            break;
        }
        const struct shdr *text = &sh[shndx];
        const char *tname = sec_str(buf, shstr, text->name);
        snprintf(secname, sizeof secname, ".text.%s", name);
        if (!tname || strcmp(tname, secname) || text->type == SHT_NOBITS || text->size % 16) {
            rc = fail(err, errlen, MX_EPARSE, file, "corrupt ELF: kernel %s has no .text section of 16-byte words", name);
            break;
        }
        struct fe_cubin_kernel *k = &c->kernels[c->nkernels++];
        k->name = name;
        k->text = buf + text->offset;
        k->text_size = (uint32_t)text->size;
        k->nregs = text->info >> 24;
        k->params = calloc(FE_CUBIN_MAX_PARAMS, sizeof *k->params);
        if (!k->params) {
            rc = fail(err, errlen, MX_ENOMEM, file, "out of memory");
            break;
        }
        if (text->size > 0xffffffffu) {
            rc = fail(err, errlen, MX_ELIMIT, file, "kernel %s: code larger than 4 GiB", name);
            break;
        }
        /* the device functions inside it (whole-program code: LOCAL FUNC
           symbols $KERNEL$NAME, the targets of CALLs through a register) */
        k->funcs = calloc(nsyms ? nsyms : 1, sizeof *k->funcs);
        if (!k->funcs) {
            rc = fail(err, errlen, MX_ENOMEM, file, "out of memory");
            break;
        }
        for (uint64_t f = 0; f < nsyms; f++) {
            const uint8_t *q = buf + symtab->offset + f * 24;
            uint64_t at = rd64(q + 8);
            if (f != s && (q[4] & 0xf) == STT_FUNC && rd16(q + 6) == shndx && at < text->size && at % 16 == 0 && at)
                k->funcs[k->nfuncs++] = (uint32_t)at;
        }
        qsort(k->funcs, k->nfuncs, sizeof *k->funcs, cmp_u32);
        snprintf(secname, sizeof secname, ".nv.info.%s", name);
        const struct shdr *ki = find_sec(buf, sh, shnum, shstr, secname);
        struct kinfo kctx = { k, 0 };
        if (!ki || ki->type == SHT_NOBITS || walk_info(buf + ki->offset, ki->size, kinfo_fn, &kctx) || kctx.bad) {
            rc = fail(err, errlen, MX_EPARSE, file, "kernel %s: missing or corrupt %s section", name, secname);
            break;
        }
        qsort(k->params, k->nparams, sizeof *k->params, cmp_param);
        for (uint32_t i = 0; i < k->nparams; i++)
            if (k->params[i].ordinal != i || k->params[i].size == 0 ||
                (uint64_t)k->params[i].offset + k->params[i].size > k->param_size) {
                rc = fail(err, errlen, MX_EPARSE, file, "kernel %s: parameter %u of the .nv.info layout is inconsistent "
                          "(ordinal %u, offset %u, size %u, buffer %u bytes)", name, i, k->params[i].ordinal,
                          k->params[i].offset, k->params[i].size, k->param_size);
                break;
            }
        if (rc)
            break;
        snprintf(secname, sizeof secname, ".nv.constant0.%s", name);
        const struct shdr *cb = find_sec(buf, sh, shnum, shstr, secname);
        if (cb && cb->type != SHT_NOBITS) {
            k->cbank0 = buf + cb->offset;
            k->cbank0_size = cb->size > 0x10000 ? 0x10000 : (uint32_t)cb->size;
        }
        if (k->param_size && (uint64_t)k->param_base + k->param_size > (cb ? cb->size : 0)) {
            rc = fail(err, errlen, MX_EPARSE, file, "kernel %s: parameters at c[0x0][0x%x] (%u bytes) lie outside %s", name,
                      k->param_base, k->param_size, secname);
            break;
        }
        /* bank 2: literals ptxas moved out of the code (a 64-bit addend in
           spmv); read-only, no relocation section names it (checked below) */
        snprintf(secname, sizeof secname, ".nv.constant2.%s", name);
        cb = find_sec(buf, sh, shnum, shstr, secname);
        if (cb && cb->type != SHT_NOBITS) {
            k->cbank2 = buf + cb->offset;
            k->cbank2_size = cb->size > 0x10000 ? 0x10000 : (uint32_t)cb->size;
            snprintf(secname, sizeof secname, ".rel.nv.constant2.%s", name);
            char rela[512];
            snprintf(rela, sizeof rela, ".rela.nv.constant2.%s", name);
            if (find_sec(buf, sh, shnum, shstr, secname) || find_sec(buf, sh, shnum, shstr, rela)) {
                rc = fail(err, errlen, MX_EUNSUPPORTED, file, "kernel %s: relocations in constant bank 2 are not applied", name);
                break;
            }
        }
        snprintf(secname, sizeof secname, ".nv.shared.%s", name);
        const struct shdr *shm = find_sec(buf, sh, shnum, shstr, secname);
        if (shm) {
            if (shm->size > 0x40000) {
                rc = fail(err, errlen, MX_EPARSE, file, "kernel %s: %llu bytes of shared memory", name,
                          (unsigned long long)shm->size);
                break;
            }
            k->shared_size = (uint32_t)shm->size;
        }
        if (modinfo && modinfo->type != SHT_NOBITS) {
            struct minfo mi = { buf, symtab, (uint32_t)s, 0 };
            if (walk_info(buf + modinfo->offset, modinfo->size, minfo_fn, &mi)) {
                rc = fail(err, errlen, MX_EPARSE, file, "corrupt .nv.info section");
                break;
            }
            k->frame_size = mi.frame;
        }
    }
    /* bank 3: the module's __constant__ variables, one OBJECT symbol each */
    const struct shdr *c3 = find_sec(buf, sh, shnum, shstr, ".nv.constant3");
    if (rc == MX_OK && c3 && c3->type != SHT_NOBITS) {
        if (c3->size > 0x10000 || find_sec(buf, sh, shnum, shstr, ".rel.nv.constant3") ||
            find_sec(buf, sh, shnum, shstr, ".rela.nv.constant3"))
            rc = fail(err, errlen, MX_EUNSUPPORTED, file, ".nv.constant3 larger than 64 KiB or relocated");
        c->cbank3 = buf + c3->offset;
        c->cbank3_size = (uint32_t)c3->size;
        c->consts = calloc(nsyms ? nsyms : 1, sizeof *c->consts);
        if (!c->consts && rc == MX_OK)
            rc = fail(err, errlen, MX_ENOMEM, file, "out of memory");
        uint32_t c3idx = (uint32_t)(c3 - sh);
        for (uint64_t s = 0; s < nsyms && rc == MX_OK; s++) {
            const uint8_t *p = buf + symtab->offset + s * 24;
            if ((p[4] & 0xf) != STT_OBJECT || rd16(p + 6) != c3idx || rd64(p + 16) == 0)
                continue;
            const char *name = sec_str(buf, strtab, rd32(p));
            uint64_t off = rd64(p + 8), size = rd64(p + 16);
            if (!name || strlen(name) > 400 || off > c3->size || size > c3->size - off) {
                rc = fail(err, errlen, MX_EPARSE, file, "corrupt ELF: constant symbol %llu outside .nv.constant3",
                          (unsigned long long)s);
                break;
            }
            c->consts[c->nconsts++] = (struct fe_cubin_const){ name, (uint32_t)off, (uint32_t)size };
        }
        qsort(c->consts, c->nconsts, sizeof *c->consts, cmp_const);
        for (uint32_t i = 1; i < c->nconsts && rc == MX_OK; i++)
            if (c->consts[i].offset < c->consts[i - 1].offset + c->consts[i - 1].size)
                rc = fail(err, errlen, MX_EPARSE, file, "constant symbols %s and %s overlap", c->consts[i - 1].name,
                          c->consts[i].name);
    }
    /* __device__ variables (.nv.global, .nv.global.init) and bank 4, whose
       64-bit slots .rel.nv.constant4 relocates to their addresses (type 2:
       64-bit absolute, the slot's bytes the addend) */
    const struct shdr *gz = find_sec(buf, sh, shnum, shstr, ".nv.global");
    const struct shdr *gi = find_sec(buf, sh, shnum, shstr, ".nv.global.init");
    uint32_t gzi = gz ? (uint32_t)(gz - sh) : 0xffffffffu, gii = gi ? (uint32_t)(gi - sh) : 0xffffffffu;
    if (rc == MX_OK && (gz || gi)) {
        c->globals = calloc(nsyms ? nsyms : 1, sizeof *c->globals);
        if (!c->globals)
            rc = fail(err, errlen, MX_ENOMEM, file, "out of memory");
        for (uint64_t s = 0; s < nsyms && rc == MX_OK; s++) {
            const uint8_t *p = buf + symtab->offset + s * 24;
            uint32_t ndx = rd16(p + 6);
            if ((p[4] & 0xf) != STT_OBJECT || (ndx != gzi && ndx != gii) || rd64(p + 16) == 0)
                continue;
            const struct shdr *g = ndx == gzi ? gz : gi;
            const char *name = sec_str(buf, strtab, rd32(p));
            uint64_t off = rd64(p + 8), size = rd64(p + 16);
            if (!name || strlen(name) > 400 || off > g->size || size > g->size - off || (g == gi && gi->type == SHT_NOBITS)) {
                rc = fail(err, errlen, MX_EPARSE, file, "corrupt ELF: __device__ variable symbol %llu outside its section",
                          (unsigned long long)s);
                break;
            }
            c->globals[c->nglobals++] = (struct fe_cubin_global){ name, (uint32_t)off, (uint32_t)size,
                                                                  g == gi ? buf + gi->offset + off : NULL };
        }
    }
    const struct shdr *c4 = find_sec(buf, sh, shnum, shstr, ".nv.constant4");
    const struct shdr *r4 = find_sec(buf, sh, shnum, shstr, ".rel.nv.constant4");
    if (rc == MX_OK && find_sec(buf, sh, shnum, shstr, ".rela.nv.constant4"))
        rc = fail(err, errlen, MX_EUNSUPPORTED, file, ".rela.nv.constant4 is not read");
    if (rc == MX_OK && c4 && c4->type != SHT_NOBITS && c4->size <= 0x10000) {
        c->cbank4 = buf + c4->offset;
        c->cbank4_size = (uint32_t)c4->size;
        if (r4 && r4->type != SHT_NOBITS) {
            uint64_t n = r4->entsize == 16 ? r4->size / 16 : 0;
            c->relocs = calloc(n ? n : 1, sizeof *c->relocs);
            if (!c->relocs || r4->entsize != 16)
                rc = fail(err, errlen, c->relocs ? MX_EPARSE : MX_ENOMEM, file, "bad .rel.nv.constant4");
            for (uint64_t i = 0; i < n && rc == MX_OK; i++) {
                const uint8_t *p = buf + r4->offset + i * 16;
                uint64_t off = rd64(p), info = rd64(p + 8);
                uint32_t sym = (uint32_t)(info >> 32), type = (uint32_t)info;
                if (type != 2 || off + 8 > c4->size || sym >= nsyms) {
                    rc = fail(err, errlen, MX_EUNSUPPORTED, file, "relocation %llu of constant bank 4 (type %u) is not read",
                              (unsigned long long)i, type);
                    break;
                }
                const uint8_t *q = buf + symtab->offset + (uint64_t)sym * 24;
                const char *name = sec_str(buf, strtab, rd32(q));
                uint32_t g = 0;
                while (name && g < c->nglobals && strcmp(c->globals[g].name, name))
                    g++;
                /* an external function: an undefined FUNC symbol (calls
                   load its address and CALL.ABS it; docs/sass.md) */
                int ext = name && (q[4] & 0xf) == STT_FUNC && rd16(q + 6) == 0 && strlen(name) <= 400;
                if (!name || (g == c->nglobals && !ext) || (ext && rd64(c->cbank4 + off))) {
                    rc = fail(err, errlen, MX_EUNSUPPORTED, file, "constant bank 4 holds the address of %s, neither a __device__ "
                              "variable nor an external function", name ? name : "a nameless symbol");
                    break;
                }
                c->relocs[c->nrelocs++] = (struct fe_cubin_reloc){ (uint32_t)off, ext ? 0 : g, ext ? name : NULL,
                                                                   rd64(c->cbank4 + off) };
            }
        }
    }
    if (rc == MX_OK)
        read_lines(buf, sh, shnum, shstr, symtab, c, file);
    free(sh);
    if (rc == MX_OK && c->nkernels == 0)
        rc = fail(err, errlen, MX_ENOTFOUND, file, "no kernel (.text.NAME with an entry symbol) in the cubin");
    if (rc)
        fe_cubin_free(c);
    return rc;
}

void fe_cubin_free(struct fe_cubin *c)
{
    for (uint32_t i = 0; i < c->nkernels; i++) {
        free(c->kernels[i].params);
        free(c->kernels[i].funcs);
    }
    free(c->kernels);
    free(c->consts);
    free(c->globals);
    free(c->relocs);
    for (uint32_t i = 0; i < c->nfiles; i++)
        free(c->files[i]);
    free(c->files);
    free(c->lines);
    memset(c, 0, sizeof *c);
}
