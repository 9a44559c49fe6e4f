/* emu/hostcall.c — functions a PTX program may call that run on the host:
 * vprintf (CUDA device printf: format string and packed argument buffer),
 * malloc and free (device heap), __assertfail (device assert).  One table;
 * add a row to add a function. */
#include "emu/interp.h"

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
 * size (4 or 8); floats are promoted to double as in C varargs. */
static int do_vprintf(struct emu_warp *w, const struct emu_xinsn *x, int lane, uint64_t fmt, uint64_t args, FILE *out)
{
    char f[4096], piece[64], sbuf[1024];
    if (read_str(w, x, fmt, lane, f, sizeof f))
        return -1;
    uint64_t off = 0;
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
    return (int)off;
}

int emu_hostcall(struct emu_warp *w, const struct emu_xinsn *x, const char *name, uint32_t mask, uint8_t *args,
                 uint32_t args_stride, uint8_t *ret, uint32_t ret_stride, int *handled)
{
    *handled = 1;
    if (!strcmp(name, "vprintf")) {
        uint32_t mm = mask;
        while (mm) {
            int l = __builtin_ctz(mm);
            mm &= mm - 1;
            uint64_t fmt, ap;
            memcpy(&fmt, args + (size_t)l * args_stride, 8);
            memcpy(&ap, args + (size_t)l * args_stride + 8, 8);
            int r = do_vprintf(w, x, l, fmt, ap, stdout);
            if (r < 0)
                return EX_FAULT;
            int32_t rv = r;
            memcpy(ret + (size_t)l * ret_stride, &rv, 4);
        }
        return EX_NEXT;
    }
    if (!strcmp(name, "malloc")) {
        uint32_t mm = mask;
        while (mm) {
            int l = __builtin_ctz(mm);
            mm &= mm - 1;
            uint64_t size, a = 0;
            memcpy(&size, args + (size_t)l * args_stride, 8);
            if (emu_malloc(w->dev, size, &a))
                a = 0; /* device malloc returns NULL when the heap is exhausted */
            memcpy(ret + (size_t)l * ret_stride, &a, 8);
        }
        return EX_NEXT;
    }
    if (!strcmp(name, "free")) {
        uint32_t mm = mask;
        while (mm) {
            int l = __builtin_ctz(mm);
            mm &= mm - 1;
            uint64_t a;
            memcpy(&a, args + (size_t)l * args_stride, 8);
            emu_free(w->dev, a);
        }
        return EX_NEXT;
    }
    if (!strcmp(name, "__assertfail")) {
        int l = __builtin_ctz(mask);
        uint64_t msg, file, func;
        uint32_t line;
        uint8_t *a = args + (size_t)l * args_stride;
        memcpy(&msg, a, 8);
        memcpy(&file, a + 8, 8);
        memcpy(&line, a + 16, 4);
        memcpy(&func, a + 24, 8);
        char m[256] = "?", fl[256] = "?", fn[256] = "?";
        read_str(w, x, msg, l, m, sizeof m);
        read_str(w, x, file, l, fl, sizeof fl);
        read_str(w, x, func, l, fn, sizeof fn);
        return emu_fault(w, x, MX_EASSERT, l, 0, 0, "%s:%u: %s: Assertion `%s` failed.", fl, line, fn, m);
    }
    *handled = 0;
    return EX_NEXT;
}
