/* frontend/dwarf_line.c — DWARF line-number programs (.debug_line, DWARF
 * 2 to 5, section 6.2 of the DWARF 5 standard): unit headers with their
 * directory and file tables, then the state machine run over the standard,
 * extended and special opcodes.  Every read goes through a cursor that stops
 * at the end of what it may read (the section, the unit, the header, the
 * extended opcode) and marks itself bad instead of reading past it; a bad
 * cursor ends the decoding with the offset.  Facts: docs/sass.md. */
#include "frontend/dwarf_line.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FE_DWARF_MAX_PATH 1024

/* standard opcodes (DW_LNS_*) */
enum { LNS_COPY = 1, LNS_ADVANCE_PC, LNS_ADVANCE_LINE, LNS_SET_FILE, LNS_SET_COLUMN, LNS_NEGATE_STMT,
       LNS_SET_BASIC_BLOCK, LNS_CONST_ADD_PC, LNS_FIXED_ADVANCE_PC, LNS_SET_PROLOGUE_END, LNS_SET_EPILOGUE_BEGIN,
       LNS_SET_ISA };
/* extended opcodes (DW_LNE_*) */
enum { LNE_END_SEQUENCE = 1, LNE_SET_ADDRESS, LNE_DEFINE_FILE, LNE_SET_DISCRIMINATOR };
/* DWARF 5 entry formats: content types (DW_LNCT_*) and the forms we read (DW_FORM_*) */
enum { LNCT_PATH = 1, LNCT_DIRECTORY_INDEX = 2 };
enum { FORM_BLOCK2 = 0x03, FORM_BLOCK4 = 0x04, FORM_DATA2 = 0x05, FORM_DATA4 = 0x06, FORM_DATA8 = 0x07,
       FORM_STRING = 0x08, FORM_BLOCK = 0x09, FORM_BLOCK1 = 0x0a, FORM_DATA1 = 0x0b, FORM_SDATA = 0x0d,
       FORM_STRP = 0x0e, FORM_UDATA = 0x0f, FORM_DATA16 = 0x1e, FORM_LINE_STRP = 0x1f };

struct cur {
    const uint8_t *b;     /* the section */
    size_t pos, end;      /* next byte; the first byte this cursor may not read */
    int bad;
};

static int take(struct cur *c, size_t n)
{
    if (c->bad || n > c->end - c->pos) {
        c->bad = 1;
        return 0;
    }
    return 1;
}

static uint64_t rdu(struct cur *c, unsigned n)
{
    uint64_t v = 0;
    if (!take(c, n))
        return 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)c->b[c->pos + i] << (8 * i);
    c->pos += n;
    return v;
}

static uint64_t uleb(struct cur *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (!take(c, 1))
            return 0;
        uint8_t byte = c->b[c->pos++];
        if (shift == 63 && (byte & 0x7e)) { /* more than 64 bits */
            c->bad = 1;
            return 0;
        }
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
        if (shift == 63) {
            c->bad = 1;
            return 0;
        }
    }
}

static int64_t sleb(struct cur *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t byte;
    do {
        if (!take(c, 1) || shift > 63) {
            c->bad = 1;
            return 0;
        }
        byte = c->b[c->pos++];
        v |= (uint64_t)(byte & 0x7f) << shift;
        shift += 7;
    } while (byte & 0x80);
    if (shift < 64 && (byte & 0x40))
        v |= ~(uint64_t)0 << shift;
    return (int64_t)v;
}

/* A NUL-terminated string at the cursor, or NULL (cursor bad). */
static const char *cstr(struct cur *c)
{
    if (c->bad || c->pos >= c->end) {
        c->bad = 1;
        return NULL;
    }
    const char *s = (const char *)c->b + c->pos;
    const char *z = memchr(s, 0, c->end - c->pos);
    if (!z) {
        c->bad = 1;
        return NULL;
    }
    c->pos += (size_t)(z - s) + 1;
    return s;
}

struct dec {
    struct fe_dwarf_lines *out;
    uint32_t rows_cap, files_cap;
    const uint8_t *line_str, *str;
    size_t line_str_len, str_len;
    char *err;
    size_t errlen;
};

static int fail(struct dec *d, size_t off, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (d->err && d->errlen)
        snprintf(d->err, d->errlen, "offset 0x%zx: %s", off, msg);
    return -1;
}

/* A string a DWARF 5 strp / line_strp form points at, or NULL. */
static const char *str_at(const uint8_t *sec, size_t len, uint64_t off)
{
    if (!sec || off >= len)
        return NULL;
    const char *s = (const char *)sec + off;
    return memchr(s, 0, len - off) ? s : NULL;
}

/* Adds dir/name (name alone when it is absolute or dir is NULL or empty). */
static int add_file(struct dec *d, const char *dir, const char *name, size_t off)
{
    size_t dl = dir && name[0] != '/' ? strlen(dir) : 0, nl = strlen(name);
    if (dl + nl + 2 > FE_DWARF_MAX_PATH)
        return fail(d, off, "file name longer than %d bytes", FE_DWARF_MAX_PATH);
    struct fe_dwarf_lines *o = d->out;
    if (o->nfiles == d->files_cap) {
        uint32_t cap = d->files_cap ? 2 * d->files_cap : 16;
        char **f = realloc(o->files, cap * sizeof *f);
        if (!f)
            return fail(d, off, "out of memory");
        o->files = f;
        d->files_cap = cap;
    }
    char *p = malloc(dl + nl + 2);
    if (!p)
        return fail(d, off, "out of memory");
    if (dl)
        snprintf(p, dl + nl + 2, "%s%s%s", dir, dir[dl - 1] == '/' ? "" : "/", name);
    else
        memcpy(p, name, nl + 1);
    o->files[o->nfiles++] = p;
    return 0;
}

/* One attribute of a DWARF 5 directory or file entry: a string (*s) or a
 * number (*v); other forms are skipped. */
static int form_value(struct dec *d, struct cur *c, uint64_t form, unsigned offsz, const char **s, uint64_t *v)
{
    *s = NULL;
    *v = 0;
    switch (form) {
    case FORM_STRING: *s = cstr(c); break;
    case FORM_LINE_STRP:
    case FORM_STRP: {
        uint64_t off = rdu(c, offsz);
        if (c->bad)
            break;
        *s = form == FORM_LINE_STRP ? str_at(d->line_str, d->line_str_len, off) : str_at(d->str, d->str_len, off);
        if (!*s)
            return -1;
        break;
    }
    case FORM_DATA1: *v = rdu(c, 1); break;
    case FORM_DATA2: *v = rdu(c, 2); break;
    case FORM_DATA4: *v = rdu(c, 4); break;
    case FORM_DATA8: *v = rdu(c, 8); break;
    case FORM_DATA16: rdu(c, 8); rdu(c, 8); break;
    case FORM_UDATA: *v = uleb(c); break;
    case FORM_SDATA: *v = (uint64_t)sleb(c); break;
    case FORM_BLOCK1:
    case FORM_BLOCK2:
    case FORM_BLOCK4:
    case FORM_BLOCK: {
        uint64_t n = form == FORM_BLOCK ? uleb(c) : rdu(c, form == FORM_BLOCK1 ? 1 : form == FORM_BLOCK2 ? 2 : 4);
        if (take(c, n))
            c->pos += n;
        break;
    }
    default: return -1;
    }
    return c->bad ? -1 : 0;
}

/* A DWARF 5 directory or file table: its entry format, then the entries.
 * Directories go to *dirs (calloc'd, *ndirs of them), files to the output. */
static int v5_table(struct dec *d, struct cur *c, unsigned offsz, int files, const char ***dirs, uint64_t *ndirs)
{
    uint64_t fmt[2 * 255];
    size_t at = c->pos;
    unsigned nfmt = (unsigned)rdu(c, 1);
    for (unsigned i = 0; i < nfmt; i++) {
        fmt[2 * i] = uleb(c);
        fmt[2 * i + 1] = uleb(c);
    }
    uint64_t n = uleb(c);
    if (c->bad)
        return fail(d, at, "truncated %s table format", files ? "file" : "directory");
    if (n > c->end - c->pos) /* every entry takes a byte at least */
        return fail(d, at, "%llu %s entries in a header of %zu bytes", (unsigned long long)n,
                    files ? "file" : "directory", c->end - at);
    if (!files) {
        *dirs = n ? calloc(n, sizeof **dirs) : NULL;
        if (n && !*dirs)
            return fail(d, at, "out of memory");
        *ndirs = n;
    }
    for (uint64_t e = 0; e < n; e++) {
        const char *path = NULL;
        uint64_t dir = 0;
        size_t eat = c->pos;
        for (unsigned i = 0; i < nfmt; i++) {
            const char *s;
            uint64_t v;
            if (form_value(d, c, fmt[2 * i + 1], offsz, &s, &v))
                return fail(d, eat, "%s entry %llu: unreadable form 0x%llx", files ? "file" : "directory",
                            (unsigned long long)e, (unsigned long long)fmt[2 * i + 1]);
            if (fmt[2 * i] == LNCT_PATH)
                path = s;
            else if (fmt[2 * i] == LNCT_DIRECTORY_INDEX)
                dir = v;
        }
        if (!path)
            return fail(d, eat, "%s entry %llu has no path", files ? "file" : "directory", (unsigned long long)e);
        if (!files)
            (*dirs)[e] = path;
        else if (add_file(d, dir < *ndirs ? (*dirs)[dir] : NULL, path, eat))
            return -1;
    }
    return 0;
}

/* The state machine's registers (DWARF 5, 6.2.2); what rows do not carry
 * (column, is_stmt, isa, discriminator, ...) is decoded and dropped. */
struct regs {
    uint64_t addr, base_off;
    uint32_t base_size, op_index;
    uint64_t file;
    int64_t line;
};

static void reset(struct regs *r)
{
    *r = (struct regs){ 0, FE_DWARF_NO_BASE, 0, 0, 1, 1 };
}

struct unit {
    unsigned version, offsz, min_inst, max_ops, line_range, opcode_base;
    int line_base;
    const uint8_t *std_len;  /* opcode_base - 1 argument counts */
    uint32_t file0;          /* the unit's first file in the output */
};

static int emit(struct dec *d, const struct unit *u, const struct regs *r, int end, size_t off)
{
    struct fe_dwarf_lines *o = d->out;
    if (r->line < 0 || r->line > (int64_t)UINT32_MAX)
        return fail(d, off, "line number %lld out of range", (long long)r->line);
    if (o->nrows == d->rows_cap) {
        uint32_t cap = d->rows_cap ? 2 * d->rows_cap : 256;
        struct fe_dwarf_row *n = realloc(o->rows, cap * sizeof *n);
        if (!n)
            return fail(d, off, "out of memory");
        o->rows = n;
        d->rows_cap = cap;
    }
    /* file register: 1-based before DWARF 5, 0-based from 5 on */
    uint64_t f = u->version >= 5 ? r->file : r->file - 1;
    uint32_t nf = o->nfiles - u->file0;
    o->rows[o->nrows++] = (struct fe_dwarf_row){ r->addr, r->base_off, r->base_size,
                                                 f < nf ? u->file0 + (uint32_t)f : FE_DWARF_NO_FILE,
                                                 (uint32_t)r->line, (uint8_t)end };
    return 0;
}

/* operation advance (DWARF 5, 6.2.5.1): address and op_index */
static void advance(const struct unit *u, struct regs *r, uint64_t adv)
{
    if (u->max_ops == 1) {
        r->addr += u->min_inst * adv;
        return;
    }
    uint64_t t = r->op_index + adv;
    r->addr += u->min_inst * (t / u->max_ops);
    r->op_index = (uint32_t)(t % u->max_ops);
}

/* The extended opcode at c (after its 0 byte). */
static int extended(struct dec *d, struct unit *u, struct cur *c, struct regs *r, size_t off)
{
    uint64_t len = uleb(c);
    if (c->bad || len == 0 || len > c->end - c->pos)
        return fail(d, off, "extended opcode of %llu bytes past the end of its unit", (unsigned long long)len);
    struct cur e = { c->b, c->pos, c->pos + len, 0 };
    c->pos += len;
    unsigned op = (unsigned)rdu(&e, 1);
    switch (op) {
    case LNE_END_SEQUENCE:
        if (emit(d, u, r, 1, off))
            return -1;
        reset(r);
        break;
    case LNE_SET_ADDRESS:
        if (len - 1 != 4 && len - 1 != 8)
            return fail(d, off, "DW_LNE_set_address with a %llu-byte address", (unsigned long long)(len - 1));
        r->base_off = e.pos;
        r->base_size = (uint32_t)(len - 1);
        r->addr = rdu(&e, (unsigned)(len - 1));
        r->op_index = 0;
        break;
    case LNE_DEFINE_FILE: {
        if (u->version >= 5)
            return fail(d, off, "DW_LNE_define_file in a DWARF 5 unit");
        const char *name = cstr(&e);
        uleb(&e); /* directory (its table is not kept past the header), time, size */
        uleb(&e);
        uleb(&e);
        if (e.bad)
            return fail(d, off, "truncated DW_LNE_define_file");
        if (add_file(d, NULL, name, off))
            return -1;
        break;
    }
    case LNE_SET_DISCRIMINATOR:
        uleb(&e);
        break;
    default: /* vendor or unknown: its length says how far to skip */
        return 0;
    }
    if (e.bad || e.pos != e.end)
        return fail(d, off, "extended opcode %u: operand does not fill its %llu bytes", op, (unsigned long long)len);
    return 0;
}

/* The line-number program of one unit, c covering [program start, unit end). */
static int program(struct dec *d, struct unit *u, struct cur *c)
{
    struct regs r;
    reset(&r);
    while (c->pos < c->end) {
        size_t off = c->pos;
        unsigned op = (unsigned)rdu(c, 1);
        if (op >= u->opcode_base) { /* special opcode */
            unsigned adj = op - u->opcode_base;
            advance(u, &r, adj / u->line_range);
            r.line += u->line_base + (int)(adj % u->line_range);
            if (emit(d, u, &r, 0, off))
                return -1;
            continue;
        }
        switch (op) {
        case 0:
            if (extended(d, u, c, &r, off))
                return -1;
            continue;
        case LNS_COPY:
            if (emit(d, u, &r, 0, off))
                return -1;
            break;
        case LNS_ADVANCE_PC: advance(u, &r, uleb(c)); break;
        case LNS_ADVANCE_LINE: r.line = (int64_t)((uint64_t)r.line + (uint64_t)sleb(c)); break;
        case LNS_SET_FILE: r.file = uleb(c); break;
        case LNS_CONST_ADD_PC: advance(u, &r, (255 - u->opcode_base) / u->line_range); break;
        case LNS_FIXED_ADVANCE_PC:
            r.addr += rdu(c, 2);
            r.op_index = 0;
            break;
        case LNS_NEGATE_STMT:
        case LNS_SET_BASIC_BLOCK:
        case LNS_SET_PROLOGUE_END:
        case LNS_SET_EPILOGUE_BEGIN:
            break;
        case LNS_SET_COLUMN:
        case LNS_SET_ISA:
            uleb(c);
            break;
        default: /* an opcode this decoder does not know: the header gives its ULEB128 operands */
            for (unsigned i = 0; i < u->std_len[op - 1]; i++)
                uleb(c);
            break;
        }
        if (c->bad)
            return fail(d, off, "truncated operand of standard opcode %u", op);
        if (r.line < -(int64_t)UINT32_MAX || r.line > 2 * (int64_t)UINT32_MAX)
            return fail(d, off, "line number %lld out of range", (long long)r.line);
    }
    return 0;
}

/* One unit from c->pos: header, tables, program; c->pos moves past it. */
static int unit(struct dec *d, struct cur *c)
{
    size_t at = c->pos;
    struct unit u = { .file0 = d->out->nfiles };
    uint64_t len = rdu(c, 4);
    u.offsz = 4;
    if (len == 0xffffffffu) {
        len = rdu(c, 8);
        u.offsz = 8;
    } else if (len >= 0xfffffff0u)
        return fail(d, at, "reserved unit length 0x%llx", (unsigned long long)len);
    if (c->bad || len > c->end - c->pos)
        return fail(d, at, "unit of %llu bytes past the end of the section", (unsigned long long)len);
    struct cur h = { c->b, c->pos, c->pos + len, 0 };
    c->pos += len;
    u.version = (unsigned)rdu(&h, 2);
    if (h.bad || u.version < 2 || u.version > 5)
        return fail(d, at, "DWARF version %u (2 to 5 are read)", u.version);
    if (u.version >= 5) {
        unsigned asz = (unsigned)rdu(&h, 1), ssz = (unsigned)rdu(&h, 1);
        if (h.bad || (asz != 4 && asz != 8) || ssz)
            return fail(d, at, "address size %u, segment selector size %u", asz, ssz);
    }
    uint64_t hlen = rdu(&h, u.offsz);
    if (h.bad || hlen > h.end - h.pos)
        return fail(d, at, "header of %llu bytes past the end of its unit", (unsigned long long)hlen);
    struct cur p = { c->b, h.pos + hlen, h.end, 0 };
    h.end = h.pos + hlen;
    u.min_inst = (unsigned)rdu(&h, 1);
    u.max_ops = u.version >= 4 ? (unsigned)rdu(&h, 1) : 1;
    rdu(&h, 1); /* default_is_stmt */
    u.line_base = (int8_t)rdu(&h, 1);
    u.line_range = (unsigned)rdu(&h, 1);
    u.opcode_base = (unsigned)rdu(&h, 1);
    if (h.bad)
        return fail(d, at, "truncated header");
    if (!u.max_ops || !u.line_range || !u.opcode_base)
        return fail(d, at, "header with %s 0", !u.max_ops ? "maximum_operations_per_instruction"
                                                : !u.line_range ? "line_range" : "opcode_base");
    u.std_len = h.b + h.pos;
    if (!take(&h, u.opcode_base - 1))
        return fail(d, at, "truncated standard_opcode_lengths");
    h.pos += u.opcode_base - 1;
    const char **dirs = NULL;
    uint64_t ndirs = 0;
    int rc = 0;
    if (u.version >= 5) {
        rc = v5_table(d, &h, u.offsz, 0, &dirs, &ndirs);
        if (!rc)
            rc = v5_table(d, &h, u.offsz, 1, &dirs, &ndirs);
    } else {
        /* include_directories, then file_names, each ended by an empty string */
        uint32_t cap = 0;
        for (const char *s; (s = cstr(&h)) && *s;) {
            if (ndirs == cap) {
                cap = cap ? 2 * cap : 8;
                const char **n = realloc(dirs, cap * sizeof *n);
                if (!n) {
                    free(dirs);
                    return fail(d, at, "out of memory");
                }
                dirs = n;
            }
            dirs[ndirs++] = s;
        }
        for (const char *s; !rc && (s = cstr(&h)) && *s;) {
            uint64_t dir = uleb(&h);
            uleb(&h);
            uleb(&h);
            if (!h.bad) /* directory 0: the compilation's, not in the table */
                rc = add_file(d, dir >= 1 && dir <= ndirs ? dirs[dir - 1] : NULL, s, at);
        }
        if (!rc && h.bad)
            rc = fail(d, at, "truncated directory or file table");
    }
    free(dirs); /* (bytes left before header_length: a later version's fields, skipped) */
    return rc ? rc : program(d, &u, &p);
}

int fe_dwarf_lines_read(const uint8_t *sec, size_t len, const uint8_t *line_str, size_t line_str_len,
                        const uint8_t *str, size_t str_len, struct fe_dwarf_lines *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct dec d = { out, 0, 0, line_str, str, line_str_len, str_len, err, errlen };
    struct cur c = { sec, 0, len, 0 };
    while (c.pos < c.end)
        if (unit(&d, &c)) {
            fe_dwarf_lines_free(out);
            return -1;
        }
    return 0;
}

void fe_dwarf_lines_free(struct fe_dwarf_lines *l)
{
    for (uint32_t i = 0; i < l->nfiles; i++)
        free(l->files[i]);
    free(l->files);
    free(l->rows);
    memset(l, 0, sizeof *l);
}
