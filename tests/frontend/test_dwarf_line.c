/* tests/frontend/test_dwarf_line.c — the DWARF line-program decoder
 * (frontend/dwarf_line.c): the table ptxas 13 writes for a -lineinfo kernel
 * (DWARF 2, bytes copied from a cubin) decoded row by row as binutils'
 * readelf --debug-dump=line shows it; hand-made DWARF 3, 4 (64-bit) and 5
 * units for what ptxas does not emit (const_add_pc, fixed_advance_pc,
 * define_file, vendor opcodes, DWARF 5 entry formats and .debug_line_str);
 * and malformed tables: every truncation, bad header fields, ULEB128
 * overflow and random byte flips are errors with an offset, never a read
 * outside the buffer. */
#include "mxtest.h"

#include "frontend/dwarf_line.h"

#include <stdlib.h>
#include <string.h>

/* ptxas -lineinfo, k.cu (a kernel on lines 1..7 of /tmp/sl/k.cu): .debug_line */
static const uint8_t nv_v2[] = {
    0x54, 0x00, 0x00, 0x00, 0x02, 0x00, 0x24, 0x00, 0x00, 0x00, 0x01, 0x01, 0xfb, 0x0e, 0x0a, 0x00, 0x01, 0x01,
    0x01, 0x01, 0x00, 0x00, 0x00, 0x01, 0x2f, 0x74, 0x6d, 0x70, 0x2f, 0x73, 0x6c, 0x00, 0x00, 0x6b, 0x2e, 0x63,
    0x75, 0x00, 0x01, 0x9d, 0xa9, 0xa8, 0xd8, 0x06, 0x7a, 0x00, 0x00, 0x09, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x04, 0x01, 0x03, 0x00, 0x01, 0xf1, 0xf0, 0x03, 0x01, 0x02, 0x30, 0x01, 0xee, 0x03, 0x01,
    0x02, 0x20, 0x01, 0xf0, 0x03, 0x01, 0x02, 0x80, 0x01, 0x01, 0x02, 0xf0, 0x01, 0x00, 0x01, 0x01,
};

/* a byte buffer to build units in */
struct buf { uint8_t b[1024]; size_t n; };

static void u8(struct buf *b, unsigned v) { b->b[b->n++] = (uint8_t)v; }
static void un(struct buf *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        u8(b, (unsigned)(v >> (8 * i)) & 0xff);
}
static void uleb(struct buf *b, uint64_t v)
{
    do {
        u8(b, (v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        v >>= 7;
    } while (v);
}
static void sleb(struct buf *b, int64_t v)
{
    for (;;) {
        uint8_t byte = v & 0x7f;
        v >>= 7;
        if ((v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40))) {
            u8(b, byte);
            return;
        }
        u8(b, byte | 0x80);
    }
}
static void str(struct buf *b, const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(b->b + b->n, s, n);
    b->n += n;
}
/* patches a length field of n bytes at off to the bytes from off + n to the end */
static void patch_len(struct buf *b, size_t off, unsigned n)
{
    uint64_t v = b->n - off - n;
    for (unsigned i = 0; i < n; i++)
        b->b[off + i] = (uint8_t)(v >> (8 * i));
}

static int decode(const uint8_t *p, size_t n, struct fe_dwarf_lines *l, char *err, size_t errlen)
{
    err[0] = 0;
    return fe_dwarf_lines_read(p, n, NULL, 0, NULL, 0, l, err, errlen);
}

static void row_is(const struct fe_dwarf_lines *l, uint32_t i, uint64_t addr, uint32_t file, uint32_t line, int end)
{
    assert_true(i < l->nrows);
    assert_int_equal(l->rows[i].addr, addr);
    assert_int_equal(l->rows[i].file, file);
    assert_int_equal(l->rows[i].line, line);
    assert_int_equal(l->rows[i].end, end);
}

MX_TEST(dwarf_ptxas_v2)
{
    struct fe_dwarf_lines l;
    char err[256];
    assert_int_equal(decode(nv_v2, sizeof nv_v2, &l, err, sizeof err), 0);
    assert_int_equal(l.nfiles, 1);
    assert_string_equal(l.files[0], "/tmp/sl/k.cu");
    /* readelf: 0 line 1, 0x10 3, 0x20 4, 0x50 5, 0x60 4, 0x80 5, 0x90 6, 0x110 7, end 0x200 */
    static const uint32_t addr[] = { 0, 0x10, 0x20, 0x50, 0x60, 0x80, 0x90, 0x110 }, line[] = { 1, 3, 4, 5, 4, 5, 6, 7 };
    assert_int_equal(l.nrows, 9);
    for (int i = 0; i < 8; i++) {
        row_is(&l, (uint32_t)i, addr[i], 0, line[i], 0);
        assert_int_equal(l.rows[i].base_off, 0x31); /* DW_LNE_set_address's operand: what .rel.debug_line relocates */
        assert_int_equal(l.rows[i].base_size, 8);
    }
    row_is(&l, 8, 0x200, 0, 7, 1);
    fe_dwarf_lines_free(&l);
}

/* A DWARF 3/4 header up to the opcode lengths; returns the offset of header_length. */
static size_t header34(struct buf *b, unsigned version, int dwarf64, unsigned opcode_base, size_t *len_at)
{
    if (dwarf64)
        un(b, 0xffffffffu, 4);
    *len_at = b->n;
    un(b, 0, dwarf64 ? 8 : 4);
    un(b, version, 2);
    size_t hl = b->n;
    un(b, 0, dwarf64 ? 8 : 4);
    u8(b, 4);            /* minimum_instruction_length */
    if (version >= 4)
        u8(b, 1);        /* maximum_operations_per_instruction */
    u8(b, 1);            /* default_is_stmt */
    u8(b, (uint8_t)-3);  /* line_base */
    u8(b, 12);           /* line_range */
    u8(b, opcode_base);
    static const uint8_t std[] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 2, 0 };
    for (unsigned i = 0; i + 1 < opcode_base; i++)
        u8(b, i < sizeof std ? std[i] : 0);
    return hl;
}

MX_TEST(dwarf_v4_64bit_and_v3)
{
    struct buf b = { .n = 0 };
    size_t len_at;
    /* unit 1: DWARF 4, 64-bit, opcode_base 14 (opcode 13: a vendor one with two ULEB128 operands) */
    size_t hl = header34(&b, 4, 1, 14, &len_at);
    str(&b, "/src");
    str(&b, "inc");
    str(&b, "");
    str(&b, "a.cu");   uleb(&b, 1); uleb(&b, 0); uleb(&b, 0);
    str(&b, "b.h");    uleb(&b, 2); uleb(&b, 0); uleb(&b, 0);
    str(&b, "/abs.cu"); uleb(&b, 1); uleb(&b, 0); uleb(&b, 0);
    str(&b, "c.cu");   uleb(&b, 0); uleb(&b, 0); uleb(&b, 0);
    str(&b, "");
    patch_len(&b, hl, 8);
    u8(&b, 0); uleb(&b, 5); u8(&b, 2); un(&b, 0x1000, 4);      /* set_address 0x1000 (4 bytes) */
    u8(&b, 3); sleb(&b, 9);                                     /* line 10 */
    u8(&b, 5); uleb(&b, 7);                                     /* column */
    u8(&b, 6);                                                  /* negate_stmt */
    u8(&b, 1);                                                  /* copy: 0x1000 a.cu:10 */
    u8(&b, 14 + 2 * 12 + 4);                                    /* special: +2 ops (8 bytes), line +1: 0x1008 :11 */
    u8(&b, 8);                                                  /* const_add_pc: (255-14)/12 = 20 ops, 80 bytes */
    u8(&b, 4); uleb(&b, 2);                                     /* file b.h */
    u8(&b, 13); uleb(&b, 300); uleb(&b, 1);                     /* vendor opcode 13, skipped */
    u8(&b, 10); u8(&b, 11); u8(&b, 12); uleb(&b, 3);            /* prologue_end, epilogue_begin, set_isa */
    u8(&b, 1);                                                  /* copy: 0x1058 b.h:11 */
    u8(&b, 9); un(&b, 0x100, 2);                                /* fixed_advance_pc 0x100 */
    u8(&b, 0); uleb(&b, 9); u8(&b, 3); str(&b, "d.cu"); uleb(&b, 0); uleb(&b, 0); uleb(&b, 0); /* define_file: 5 */
    u8(&b, 4); uleb(&b, 5);
    u8(&b, 3); sleb(&b, -5);
    u8(&b, 1);                                                  /* copy: 0x1158 d.cu:6 */
    u8(&b, 0); uleb(&b, 2); u8(&b, 4); uleb(&b, 9);             /* set_discriminator */
    u8(&b, 0); uleb(&b, 3); u8(&b, 0x80); u8(&b, 1); u8(&b, 2); /* DW_LNE_lo_user: skipped */
    u8(&b, 4); uleb(&b, 3);
    u8(&b, 1);                                                  /* /abs.cu:6 */
    u8(&b, 4); uleb(&b, 4);
    u8(&b, 1);                                                  /* c.cu:6 (directory 0) */
    u8(&b, 2); uleb(&b, 1);
    u8(&b, 0); uleb(&b, 1); u8(&b, 1);                          /* end_sequence at 0x115c */
    u8(&b, 1);                                                  /* after it: registers reset, 0 :1 with no address */
    u8(&b, 0); uleb(&b, 1); u8(&b, 1);
    patch_len(&b, len_at, 8);
    /* unit 2: DWARF 3, 32-bit, opcode_base 10, its own file table */
    hl = header34(&b, 3, 0, 10, &len_at);
    str(&b, "");
    str(&b, "e.cu"); uleb(&b, 0); uleb(&b, 0); uleb(&b, 0);
    str(&b, "");
    patch_len(&b, hl, 4);
    u8(&b, 0); uleb(&b, 9); u8(&b, 2); un(&b, 0x40, 8);
    u8(&b, 10 + 12 * 1 + 3);                                    /* special: 1 op (4 bytes), line 1 - 3 + 3 = 1 */
    u8(&b, 0); uleb(&b, 1); u8(&b, 1);
    patch_len(&b, len_at, 4);

    struct fe_dwarf_lines l;
    char err[256];
    assert_int_equal(decode(b.b, b.n, &l, err, sizeof err), 0);
    assert_int_equal(l.nfiles, 6);
    assert_string_equal(l.files[0], "/src/a.cu");
    assert_string_equal(l.files[1], "inc/b.h");
    assert_string_equal(l.files[2], "/abs.cu");
    assert_string_equal(l.files[3], "c.cu");
    assert_string_equal(l.files[4], "d.cu");
    assert_string_equal(l.files[5], "e.cu");
    assert_int_equal(l.nrows, 11);
    row_is(&l, 0, 0x1000, 0, 10, 0);
    assert_int_equal(l.rows[0].base_size, 4);
    row_is(&l, 1, 0x1008, 0, 11, 0);
    row_is(&l, 2, 0x1058, 1, 11, 0);
    row_is(&l, 3, 0x1158, 4, 6, 0);
    row_is(&l, 4, 0x1158, 2, 6, 0);
    row_is(&l, 5, 0x1158, 3, 6, 0);
    row_is(&l, 6, 0x115c, 3, 6, 1);
    row_is(&l, 7, 0, 0, 1, 0);
    assert_int_equal(l.rows[7].base_off, FE_DWARF_NO_BASE);
    row_is(&l, 8, 0, 0, 1, 1);
    row_is(&l, 9, 0x44, 5, 1, 0);
    row_is(&l, 10, 0x44, 5, 1, 1);
    fe_dwarf_lines_free(&l);
}

MX_TEST(dwarf_v5_entry_formats)
{
    static const char line_str[] = "\0/cu\0x.cu\0";
    struct buf b = { .n = 0 };
    un(&b, 0, 4);
    un(&b, 5, 2);
    u8(&b, 8);  /* address_size */
    u8(&b, 0);  /* segment_selector_size */
    size_t hl = b.n;
    un(&b, 0, 4);
    u8(&b, 1); u8(&b, 1); u8(&b, 1); u8(&b, (uint8_t)-5); u8(&b, 14); u8(&b, 13);
    static const uint8_t std[] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
    for (unsigned i = 0; i < sizeof std; i++)
        u8(&b, std[i]);
    u8(&b, 1); uleb(&b, 1); uleb(&b, 0x1f);                           /* directories: path as line_strp */
    uleb(&b, 2); un(&b, 1, 4); un(&b, 1, 4);                         /* both "/cu" */
    u8(&b, 3);                                                       /* files: path, directory, MD5 */
    uleb(&b, 1); uleb(&b, 0x08); uleb(&b, 2); uleb(&b, 0x0b); uleb(&b, 5); uleb(&b, 0x1e);
    uleb(&b, 2);
    str(&b, "main.cu"); u8(&b, 0); un(&b, 0, 8); un(&b, 0, 8);
    str(&b, "k.h"); u8(&b, 1); un(&b, ~0ull, 8); un(&b, ~0ull, 8);
    patch_len(&b, hl, 4);
    u8(&b, 0); uleb(&b, 9); u8(&b, 2); un(&b, 0x80, 8);
    u8(&b, 4); uleb(&b, 0);                                          /* file 0: main.cu (0-based from DWARF 5) */
    u8(&b, 13 + 14 * 16 + 5);                                        /* +16, line +0: 0x90 main.cu:1 */
    u8(&b, 4); uleb(&b, 1);
    u8(&b, 3); sleb(&b, 41);
    u8(&b, 1);
    u8(&b, 4); uleb(&b, 2);                                          /* no such file */
    u8(&b, 1);
    u8(&b, 0); uleb(&b, 1); u8(&b, 1);
    patch_len(&b, 0, 4);

    struct fe_dwarf_lines l;
    char err[256];
    /* without .debug_line_str the line_strp directory cannot be read */
    assert_int_equal(decode(b.b, b.n, &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "directory entry 0: unreadable form 0x1f"));
    assert_int_equal(fe_dwarf_lines_read(b.b, b.n, (const uint8_t *)line_str, sizeof line_str, NULL, 0, &l, err,
                                         sizeof err), 0);
    assert_int_equal(l.nfiles, 2);
    assert_string_equal(l.files[0], "/cu/main.cu");
    assert_string_equal(l.files[1], "/cu/k.h");
    assert_int_equal(l.nrows, 4);
    row_is(&l, 0, 0x90, 0, 1, 0);
    row_is(&l, 1, 0x90, 1, 42, 0);
    row_is(&l, 2, 0x90, FE_DWARF_NO_FILE, 42, 0);
    row_is(&l, 3, 0x90, FE_DWARF_NO_FILE, 42, 1);
    fe_dwarf_lines_free(&l);
}

static void bad(const uint8_t *p, size_t n, const char *why)
{
    struct fe_dwarf_lines l;
    char err[256];
    assert_int_equal(decode(p, n, &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 0x"));
    if (why && !strstr(err, why))
        fail_msg("expected '%s' in '%s'", why, err);
    assert_int_equal(l.nrows, 0);
    assert_null(l.rows);
}

MX_TEST(dwarf_malformed)
{
    uint8_t t[sizeof nv_v2 + 16];
    /* every truncation (each copied to a buffer of exactly that size) */
    for (size_t n = 1; n < sizeof nv_v2; n++) {
        uint8_t *p = malloc(n);
        memcpy(p, nv_v2, n);
        bad(p, n, NULL);
        free(p);
    }
    /* one byte changed: where, to what, and what the error says (NULL: any error) */
    static const struct { size_t off; uint8_t v; const char *why; } one[] = {
        { 4, 6, "DWARF version 6" },
        { 13, 0, "line_range 0" },
        { 14, 0, "opcode_base 0" },
        { 6, 0x60, "header of 96 bytes" },
        { 0x2f, 0x05, NULL },                      /* a 4-byte set_address: the rest of the 8 bytes, a 0-byte opcode */
        { 0x2f, 0x03, "2-byte address" },
        { 0x2f, 0x40, "past the end of its unit" }, /* an extended opcode longer than the unit */
    };
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
        memcpy(t, nv_v2, sizeof nv_v2);
        t[one[i].off] = one[i].v;
        bad(t, sizeof nv_v2, one[i].why);
    }
    memcpy(t, nv_v2, sizeof nv_v2);
    t[0] = 0xf5; t[1] = t[2] = t[3] = 0xff;
    bad(t, sizeof nv_v2, "reserved unit length");
    memcpy(t, nv_v2, sizeof nv_v2);
    t[0x3c] = 0x7f;                               /* advance_line by -1 from line 1 to 0, then -129 ... */
    t[0x3e] = 0x03; t[0x3f] = 0x80; t[0x40] = 0x7e; /* ... line below 0 at the next copy */
    bad(t, sizeof nv_v2, "line number");
    /* ULEB128 longer than 64 bits */
    struct buf b = { .n = 0 };
    memcpy(b.b, nv_v2, 0x3b);
    b.n = 0x3b;
    u8(&b, 2);
    for (int i = 0; i < 10; i++)
        u8(&b, 0xff);
    u8(&b, 0x7f);
    u8(&b, 0);
    patch_len(&b, 0, 4);
    bad(b.b, b.n, "truncated operand of standard opcode 2");
}

MX_TEST(dwarf_random_flips)
{
    uint32_t seed = 14;
    for (int i = 0; i < 20000; i++) {
        size_t n = sizeof nv_v2;
        uint8_t *p = malloc(n);
        memcpy(p, nv_v2, n);
        for (int k = 0; k < 1 + i % 4; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % n;
            seed = seed * 1103515245u + 12345u;
            p[at] = (uint8_t)(seed >> 16);
        }
        struct fe_dwarf_lines l;
        char err[256];
        if (decode(p, n, &l, err, sizeof err) == 0) {
            for (uint32_t r = 0; r < l.nrows; r++)
                assert_true(l.rows[r].file == FE_DWARF_NO_FILE || l.rows[r].file < l.nfiles);
            fe_dwarf_lines_free(&l);
        } else
            assert_non_null(strstr(err, "offset 0x"));
        free(p);
    }
}
