/* frontend/cuda/fatbin.c — finds the PTX (or, without it, the sm_80/sm_86
 * machine code the SASS front end decodes) in an nvcc fatbinary (.nv_fatbin).
 * The container is untrusted input: every offset and size is checked
 * against the limits below before it is used.  Layout (observed in nvcc 13
 * output): containers of a 16-byte header {u32 magic 0xBA55ED50, u16 version
 * 1, u16 header size 16, u64 bytes of entries that follow}, each entry
 * {u16 kind (1 PTX, 2 ELF), u16, u32 entry header size, u64 payload size
 * (padded), u32 compressed size (0 = not compressed), u32, u16 ptx minor,
 * u16 ptx major, u32 sm arch, ..., u64 flags at +40, u64 uncompressed size
 * at +56}, then the payload (zstd frame when compressed). */
#include "frontend/cuda/fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define WRAPPER_MAGIC 0x466243B1u
#define LINK_WRAPPER_VERSION 2 /* __fatBinC_Wrapper_t of a device link (fatbinary_section.h) */
#define MAX_CONTAINER (1ull << 30)
#define MAX_PTX (256ull << 20)
#define MAX_CONTAINERS 4096

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

/* Scans the containers starting at data (at most `limit` bytes, or unbounded
 * when limit is 0: then containers are followed while their magic holds). */
/* The scan of both: entries of kind `want_kind` (1 PTX, 2 ELF) whose arch passes `ok` (NULL: any); the ELF
 * architectures seen go to *elf_archs (a bit per arch / 10 - 1, up to sm_12x). */
static int find_entry(const void *data, size_t limit, unsigned want_sm, unsigned want_kind, int (*ok)(unsigned arch),
                      struct fatbin_ptx *out, unsigned *elf_archs, char *err, size_t errlen)
{
    const uint8_t *p = data;
    size_t off = 0;
    int have = 0;
    *elf_archs = 0;
    memset(out, 0, sizeof *out);
    for (int c = 0; c < MAX_CONTAINERS; c++) {
        if (limit && off + 16 > limit)
            break;
        const uint8_t *h = p + off;
        if (rd32(h) != FATBIN_MAGIC)
            break;
        uint16_t hsz = rd16(h + 6);
        uint64_t body = rd64(h + 8);
        if (hsz < 16 || hsz > 4096 || body > MAX_CONTAINER || (limit && off + hsz + body > limit)) {
            snprintf(err, errlen, "fatbinary container %d: header size %u / body size %llu out of range", c, hsz,
                     (unsigned long long)body);
            return -1;
        }
        const uint8_t *e = h + hsz, *end = h + hsz + body;
        while (e + 64 <= end) {
            uint16_t kind = rd16(e);
            uint32_t esz = rd32(e + 4);
            uint64_t psize = rd64(e + 8);
            uint32_t csize = rd32(e + 16);
            uint16_t minor = rd16(e + 24), major = rd16(e + 26);
            uint32_t arch = rd32(e + 28);
            uint64_t usize = rd64(e + 56);
            if (esz < 64 || esz > 4096 || psize > (uint64_t)(end - e) - esz) {
                snprintf(err, errlen, "fatbinary entry with header size %u and payload %llu does not fit its container", esz,
                         (unsigned long long)psize);
                return -1;
            }
            const uint8_t *payload = e + esz;
            if ((kind == 2 || kind == 0x10) && arch >= 10 && arch < 330)
                *elf_archs |= 1u << (arch / 10 - 1);
            if (kind == want_kind && (!ok || ok(arch))) {
                /* best: the highest arch <= want_sm; else the lowest above */
                int better;
                if (!have)
                    better = 1;
                else if (arch <= want_sm)
                    better = out->arch > want_sm || arch > out->arch;
                else
                    better = out->arch > want_sm && arch < out->arch;
                if (better) {
                    out->arch = arch;
                    out->ptx_major = major;
                    out->ptx_minor = minor;
                    out->payload = payload;
                    out->payload_size = csize ? csize : psize;
                    out->compressed = csize != 0;
                    out->uncompressed_size = usize;
                    have = 1;
                }
            }
            e = payload + psize;
        }
        off += hsz + body;
    }
    return have ? 0 : 1;
}

/* "sm_75 sm_90" for the bits of elf_archs (the architecture's tens). */
static void arch_list(unsigned elf_archs, char *buf, size_t len)
{
    buf[0] = 0;
    for (unsigned b = 0; b < 32; b++)
        if (elf_archs >> b & 1)
            snprintf(buf + strlen(buf), len - strlen(buf), "%ssm_%ux", buf[0] ? ", " : "", b + 1);
}

int fatbin_find_ptx(const void *data, size_t limit, unsigned want_sm, struct fatbin_ptx *out, char *err, size_t errlen)
{
    unsigned elf;
    int rc = find_entry(data, limit, want_sm, 1, NULL, out, &elf, err, errlen);
    if (rc == 1) {
        if (elf)
            snprintf(err, errlen, "the fatbinary holds machine code (SASS) only and no PTX, and none for sm_80 or sm_86, "
                                  "which the SASS front end decodes: rebuild with -arch=compute_XX (e.g. nvcc "
                                  "-arch=compute_80) so the emulator gets PTX");
        else
            snprintf(err, errlen, "no PTX found in the fatbinary");
        return -1;
    }
    return rc;
}

static int sass_arch(unsigned arch) { return arch == 80 || arch == 86; }

int fatbin_find_sass(const void *data, size_t limit, unsigned want_sm, struct fatbin_ptx *out, char *err, size_t errlen)
{
    unsigned elf;
    int rc = find_entry(data, limit, want_sm, 2, sass_arch, out, &elf, err, errlen);
    if (rc == 1) {
        char list[128];
        arch_list(elf, list, sizeof list);
        if (elf)
            snprintf(err, errlen, "the fatbinary holds no PTX and machine code for %s only; the SASS front end decodes "
                                  "sm_80 and sm_86 (docs/sass.md): rebuild with -arch=compute_XX (e.g. nvcc "
                                  "-arch=compute_80) so the emulator gets PTX, or for sm_80/sm_86", list);
        else
            snprintf(err, errlen, "no PTX and no machine code found in the fatbinary");
        return -1;
    }
    return rc;
}

/* The entry's payload, decompressed if needed, NUL-terminated, malloc'ed; what: "PTX" or "cubin". */
static char *payload(const struct fatbin_ptx *f, size_t *len, const char *what, char *err, size_t errlen)
{
    size_t r = f->payload_size;
    unsigned long long size = r;
    if (f->compressed) {
        size = ZSTD_getFrameContentSize(f->payload, f->payload_size);
        if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN)
            size = f->uncompressed_size;
        if (!size || size > MAX_PTX) {
            snprintf(err, errlen, "compressed %s of %llu bytes is out of range", what, size);
            return NULL;
        }
    }
    char *t = malloc(size + 1);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (!f->compressed) {
        memcpy(t, f->payload, r);
    } else {
        r = ZSTD_decompress(t, size, f->payload, f->payload_size);
        if (ZSTD_isError(r)) {
            snprintf(err, errlen, "cannot decompress the %s: %s", what, ZSTD_getErrorName(r));
            free(t);
            return NULL;
        }
    }
    t[r] = 0;
    *len = r;
    return t;
}

char *fatbin_ptx_text(const struct fatbin_ptx *f, size_t *len, char *err, size_t errlen)
{
    char *t = payload(f, len, "PTX", err, errlen);
    while (t && *len && t[*len - 1] == 0) /* (padding) */
        t[--*len] = 0;
    return t;
}

uint8_t *fatbin_elf_bytes(const struct fatbin_ptx *f, size_t *len, char *err, size_t errlen)
{
    return (uint8_t *)payload(f, len, "cubin", err, errlen);
}

/* Whether a fatbinary holds PTX. */
static int has_ptx(const void *data)
{
    struct fatbin_ptx fp;
    char e[256];
    return data && !fatbin_find_ptx(data, 0, 0, &fp, e, sizeof e);
}

char *fatbin_code(const void *data, unsigned want_sm, int prefer_sass, size_t *len, unsigned *sass_arch, int *none,
                  char *err, size_t errlen)
{
    struct fatbin_ptx fp;
    *sass_arch = 0;
    *none = 0;
    if (!prefer_sass && !fatbin_find_ptx(data, 0, want_sm, &fp, err, errlen))
        return fatbin_ptx_text(&fp, len, err, errlen);
    if (fatbin_find_sass(data, 0, want_sm, &fp, err, errlen)) {
        if (prefer_sass) {
            char why[384];
            snprintf(why, sizeof why, "%s", has_ptx(data) ? "the fatbinary holds PTX but no sm_80/sm_86 machine code (build "
                     "with e.g. -gencode arch=compute_80,code=[compute_80,sm_86])" : err);
            snprintf(err, errlen, "--prefer sass (MORPHEUS_PREFER): %s", why);
        }
        *none = 1;
        return NULL;
    }
    *sass_arch = fp.arch;
    return (char *)fatbin_elf_bytes(&fp, len, err, errlen);
}

/* Whether a fatbinary is CUDA's device runtime (libcudadevrt.a, linked by every -rdc program that launches
 * kernels from kernels): its PTX defines the __cudaCDP2 entry points, which the emulator provides itself. */
static int is_device_runtime(const void *data)
{
    struct fatbin_ptx fp;
    char e[256];
    size_t len;
    if (fatbin_find_ptx(data, 0, 0, &fp, e, sizeof e))
        return 0;
    char *t = fatbin_ptx_text(&fp, &len, e, sizeof e);
    int r = t && strstr(t, ".visible .func (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2(") != NULL;
    free(t);
    return r;
}

static unsigned rdc_objects(const uint8_t *w, const void **objs, unsigned max);

const void *fatbin_unwrap(const void *wrapper, char *err, size_t errlen)
{
    const uint8_t *w = wrapper;
    if (!w || rd32(w) != WRAPPER_MAGIC) {
        snprintf(err, errlen, "not a fatbinary wrapper (bad magic)");
        return NULL;
    }
    const void *data;
    memcpy(&data, w + 8, sizeof data);
    if (rd32(w + 4) != LINK_WRAPPER_VERSION || has_ptx(data))
        return data;
    /* nvcc -rdc=true: the device link's fatbinary (data) holds machine code or nothing; the objects' own
     * fatbinaries, PTX to be linked when loaded, follow in a NULL-terminated list (fatbin_rdc_objects). */
    const void *first;
    unsigned n = rdc_objects(w, &first, 1);
    if (n)
        return first;
    snprintf(err, errlen, "no PTX found in the fatbinary (nor in the relocatable objects it links)");
    return NULL;
}

/* The objects of a link wrapper (version 2) whose fatbinaries hold the program's PTX (not the device runtime's,
 * emu/cdp.c), up to max of them in objs; their count. */
static unsigned rdc_objects(const uint8_t *w, const void **objs, unsigned max)
{
    const void *data;
    memcpy(&data, w + 8, sizeof data);
    if (rd32(w) != WRAPPER_MAGIC || rd32(w + 4) != LINK_WRAPPER_VERSION || has_ptx(data))
        return 0;
    const void *const *list;
    memcpy(&list, w + 16, sizeof list);
    unsigned n = 0, with_ptx = 0;
    for (; list && n < MAX_CONTAINERS && list[n]; n++)
        if (has_ptx(list[n]) && !is_device_runtime(list[n])) {
            if (with_ptx < max)
                objs[with_ptx] = list[n];
            with_ptx++;
        }
    return with_ptx;
}

unsigned fatbin_rdc_objects(const void *wrapper, const void **objs, unsigned max)
{
    return wrapper ? rdc_objects(wrapper, objs, max) : 0;
}
