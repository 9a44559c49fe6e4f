/* emu/hostcall.c — functions a PTX program may call that run on the host:
 * vprintf (CUDA device printf: format string and packed argument buffer),
 * malloc and free (device heap), __assertfail (device assert).  One table of
 * extern functions with their PTX signatures; a call unpacks each lane's
 * .param arguments by that signature and calls the host implementation
 * through libffi, so adding a function is adding a row and a C function
 * taking (struct hostctx *, args...). */
#include "emu/hostcall.h"
#include "emu/interp.h"

#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>

/* Reads a NUL-terminated string of device memory (generic address). */
static int read_str(struct emu_warp *w, const struct emu_xinsn *x, uint64_t addr, int lane, char *buf, size_t len)
{
    size_t i = 0;
    for (; i + 1 < len; i++) {
        uint8_t *p = emu_mem_lane(w, x, SP_GENERIC, addr + i, 1, lane, 0);
        if (!p)
            return -1;
        buf[i] = (char)*p;
        if (!*p)
            return 0;
    }
    buf[i] = 0;
    return 0;
}

/* CUDA printf: arguments are packed in the buffer, each aligned to its own
 * size (4 or 8); floats are promoted to double as in C varargs.  Returns
 * what CUDA's printf returns, the number of arguments parsed, or -1 after
 * a fault. */
static int do_vprintf(struct emu_warp *w, const struct emu_xinsn *x, int lane, uint64_t fmt, uint64_t args, FILE *out)
{
    char f[4096], piece[64], sbuf[1024];
    if (read_str(w, x, fmt, lane, f, sizeof f))
        return -1;
    uint64_t off = 0;
    int nargs = 0;
    for (const char *p = f; *p;) {
        if (*p != '%') {
            fputc(*p++, out);
            continue;
        }
        if (p[1] == '%') {
            fputc('%', out);
            p += 2;
            continue;
        }
        /* %[flags][width][.prec][length]conv */
        const char *s = p++;
        while (*p && strchr("-+ #0", *p))
            p++;
        while (*p >= '0' && *p <= '9')
            p++;
        if (*p == '.') {
            p++;
            while (*p >= '0' && *p <= '9')
                p++;
        }
        int lng = 0;
        while (*p && strchr("hlLqjzt", *p)) {
            if (*p == 'l' || *p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't')
                lng++;
            p++;
        }
        char conv = *p ? *p++ : 0;
        size_t n = (size_t)(p - s);
        if (n >= sizeof piece - 4 || !conv) {
            fputs(s, out);
            break;
        }
        /* rebuild the spec without length modifiers, with the right C ones */
        char spec[64];
        size_t k = 0;
        for (const char *q = s; q < p - 1; q++)
            if (!strchr("hlLqjzt", *q))
                spec[k++] = *q;
        unsigned sz = (strchr("fFeEgGaA", conv) || conv == 's' || conv == 'p' || lng) ? 8 : 4;
        off = (off + sz - 1) / sz * sz;
        uint8_t *ap = emu_mem_lane(w, x, SP_GENERIC, args + off, sz, lane, 0);
        if (!ap)
            return -1;
        uint64_t v = 0;
        memcpy(&v, ap, sz);
        off += sz;
        nargs++;
        switch (conv) {
        case 'd': case 'i':
            memcpy(spec + k, "lld", 4);
            fprintf(out, spec, sz == 8 ? (long long)v : (long long)(int32_t)v);
            break;
        case 'u': case 'x': case 'X': case 'o':
            spec[k++] = 'l';
            spec[k++] = 'l';
            spec[k++] = conv;
            spec[k] = 0;
            fprintf(out, spec, sz == 8 ? (unsigned long long)v : (unsigned long long)(uint32_t)v);
            break;
        case 'c':
            spec[k++] = 'c';
            spec[k] = 0;
            fprintf(out, spec, (int)(uint8_t)v);
            break;
        case 'p':
            spec[k++] = 'p';
            spec[k] = 0;
            fprintf(out, spec, (void *)(uintptr_t)v);
            break;
        case 's':
            if (read_str(w, x, v, lane, sbuf, sizeof sbuf))
                return -1;
            spec[k++] = 's';
            spec[k] = 0;
            fprintf(out, spec, sbuf);
            break;
        default: {
            double d;
            memcpy(&d, &v, 8);
            spec[k++] = conv;
            spec[k] = 0;
            fprintf(out, spec, d);
            break;
        }
        }
        (void)piece;
    }
    return nargs;
}


static int32_t host_vprintf(struct hostctx *c, uint64_t fmt, uint64_t args)
{
    int r = do_vprintf(c->w, c->x, c->lane, fmt, args, stdout);
    if (r < 0)
        c->status = EX_FAULT;
    return r < 0 ? -1 : r;
}

static uint64_t host_malloc(struct hostctx *c, uint64_t size)
{
    uint64_t a = 0;
    if (emu_malloc(c->w->dev, size, &a))
        a = 0; /* device malloc returns NULL when the heap is exhausted */
    return a;
}

static void host_free(struct hostctx *c, uint64_t a) { emu_free(c->w->dev, a); }

static void host_assertfail(struct hostctx *c, uint64_t msg, uint64_t file, uint32_t line, uint64_t func, uint64_t charsize)
{
    (void)charsize;
    char m[256] = "?", fl[256] = "?", fn[256] = "?";
    read_str(c->w, c->x, msg, c->lane, m, sizeof m);
    read_str(c->w, c->x, file, c->lane, fl, sizeof fl);
    read_str(c->w, c->x, func, c->lane, fn, sizeof fn);
    c->status = emu_fault(c->w, c->x, MX_EASSERT, c->lane, 0, 0, "%s:%u: %s: Assertion `%s` failed.", fl, line, fn, m);
}

/* cudaGraphSetConditional(handle, value): a conditional handle is the device
 * address of its 4-byte word (frontend/cuda/graph.c); a bad one faults. */
static void host_set_conditional(struct hostctx *c, uint64_t handle, uint32_t value)
{
    uint8_t *p = emu_mem_lane(c->w, c->x, SP_GENERIC, handle, 4, c->lane, 1);
    if (!p)
        c->status = EX_FAULT;
    else
        memcpy(p, &value, 4);
}

static const struct hostfn hostfns[] = {
    { "vprintf", FN(host_vprintf), HK_B32, 2, { HK_B64, HK_B64 }, 0 },
    { "malloc", FN(host_malloc), HK_B64, 1, { HK_B64 }, 0 },
    { "free", FN(host_free), HK_VOID, 1, { HK_B64 }, 0 },
    { "__assertfail", FN(host_assertfail), HK_VOID, 5, { HK_B64, HK_B64, HK_B32, HK_B64, HK_B64 }, 1 },
    { "cudaGraphSetConditional", FN(host_set_conditional), HK_VOID, 2, { HK_B64, HK_B32 }, 0 },
    EMU_CDP_HOSTFNS /* the device runtime of dynamic parallelism (cdp.c) */
};

static ffi_type *fft(enum hk k)
{
    return k == HK_VOID ? &ffi_type_void : k == HK_B32 ? &ffi_type_uint32 : k == HK_DIM3 ? &ffi_type_pointer
                                                                                      : &ffi_type_uint64;
}

int emu_hostcall(struct emu_warp *w, const struct emu_xinsn *x, const char *name, uint32_t mask, uint8_t *args,
                 uint32_t args_stride, uint8_t *ret, uint32_t ret_stride, int *handled)
{
    const struct hostfn *f = NULL;
    for (size_t i = 0; i < sizeof hostfns / sizeof hostfns[0]; i++)
        if (!strcmp(hostfns[i].name, name))
            f = &hostfns[i];
    *handled = f != NULL;
    if (!f)
        return EX_NEXT;
    ffi_cif cif;
    ffi_type *types[7];
    types[0] = &ffi_type_pointer;
    for (int i = 0; i < f->nargs; i++)
        types[i + 1] = fft(f->args[i]);
    if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, (unsigned)f->nargs + 1, fft(f->ret), types) != FFI_OK)
        return emu_fault(w, x, MX_EHOSTCALL, -1, 0, 0, "cannot prepare the host call to %s", name);
    uint32_t mm = mask;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        struct hostctx c = { w, x, l, EX_NEXT };
        struct hostctx *cp = &c;
        uint64_t vals[6];
        uint32_t dims[6][3];
        void *dimp[6];
        void *avals[7] = { &cp };
        uint32_t off = 0;
        const uint8_t *a = args + (size_t)l * args_stride;
        for (int i = 0; i < f->nargs; i++) {
            unsigned sz = f->args[i] == HK_B32 ? 4 : f->args[i] == HK_DIM3 ? 12 : 8;
            unsigned al = f->args[i] == HK_DIM3 ? 4 : sz;
            off = (off + al - 1) / al * al; /* natural alignment of .param arguments (dim3: .align 4 .b8[12]) */
            if (off + sz > args_stride)
                return emu_fault(w, x, MX_EHOSTCALL, l, 0, 0, "the arguments of %s exceed %u bytes", name, args_stride);
            if (f->args[i] == HK_DIM3) {
                memcpy(dims[i], a + off, 12);
                dimp[i] = dims[i];
                avals[i + 1] = &dimp[i];
            } else {
                vals[i] = 0;
                memcpy(&vals[i], a + off, sz);
                avals[i + 1] = &vals[i];
            }
            off += sz;
        }
        ffi_arg rv = 0;
        ffi_call(&cif, f->impl, &rv, avals);
        if (c.status != EX_NEXT)
            return c.status;
        if (f->ret != HK_VOID) {
            uint64_t v = f->ret == HK_B32 ? (uint32_t)rv : (uint64_t)rv;
            memcpy(ret + (size_t)l * ret_stride, &v, f->ret == HK_B32 ? 4 : 8);
        }
        if (f->once)
            break;
    }
    return EX_NEXT;
}
