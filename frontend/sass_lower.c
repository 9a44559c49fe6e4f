/* frontend/sass_lower.c — lowers decoded sm_80/sm_86 instructions to the
 * decoded program.  Each SASS instruction becomes a short sequence of PTX
 * instructions (rows of isa/opcodes.def) written as PTX text, which the PTX
 * front end then parses and validates like any other input: the decoded
 * program, the CFG/reconvergence and liveness passes, the interpreter, the
 * fault reports and the timing models are the PTX path's, unchanged.
 *
 * The mapping of the machine state: R0..R254 are .b32 registers %rN (RZ reads
 * as 0, a write to it goes to the sink %rz); UR0..UR62 are %urN; P0..P6 are
 * %pN, PT is %pt (set true at entry); the kernel parameters of constant bank
 * 0 are .param byte arrays at the offsets .nv.info gives; shared memory
 * offsets are relative to %sb, the address of the kernel's shared block.
 * Every modifier bit outside what a lowering understands is checked against
 * the value ptxas was seen to emit, so an unknown form is a precise error
 * (kernel, SASS address, raw word), never a silently wrong program.
 * Field positions and their sources: docs/sass.md. */
#include "frontend/sass.h"
#include "mx/status.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct sb { char *p; size_t n, cap; int oom; };

static void sb_put(struct sb *b, const char *fmt, ...) MX_PRINTF(2, 3);
static void sb_put(struct sb *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->p && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->n <= (size_t)k)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

/* Where each SASS instruction's sequence starts in the lowered text: the
 * line of its label, for fe_sass_load to give every PTX instruction the
 * address it was lowered from. */
struct amap { uint32_t line, addr; };

#define FE_MAX_LOC_FILES 65534   /* source files a .loc can name (mx_insn.loc_file is 16 bits) */

struct lower {
    struct sb out;
    struct amap *amap;    /* NULL: not wanted */
    uint32_t namap, amap_cap;
    size_t nl_at;         /* out.p[0..nl_at) holds nl newlines */
    uint32_t nl;
    const struct fe_cubin *c;
    const struct fe_cubin_kernel *k;
    const struct fe_sass_insn *s;
    const char *file;
    char guard[16];       /* "@%p0 " etc., prefixed to every emitted instruction */
    int ntmp;             /* next scratch register %tN (reset per instruction) */
    unsigned kidx;        /* kernel index: labels are L<kidx>_<address> */
    int uni;              /* the instruction is a uniform-datapath one: UR and UP registers */
    char *err;
    size_t errlen;
    int rc;
};

#define NTMP 12

static void emit(struct lower *L, const char *fmt, ...) MX_PRINTF(2, 3);
static void emit(struct lower *L, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    sb_put(&L->out, "\t%s%s;\n", L->guard, line);
}

/* The next line of the text starts the code of SASS address addr. */
static void amap_add(struct lower *L, uint32_t addr)
{
    if (!L->amap)
        return;
    for (size_t i = L->nl_at; i < L->out.n; i++)
        L->nl += L->out.p[i] == '\n';
    L->nl_at = L->out.n;
    if (L->namap == L->amap_cap) {
        struct amap *m = realloc(L->amap, 2 * (size_t)L->amap_cap * sizeof *m);
        if (!m) {
            L->out.oom = 1;
            return;
        }
        L->amap = m;
        L->amap_cap *= 2;
    }
    L->amap[L->namap++] = (struct amap){ L->nl + 1, addr };
}

static int unsupported(struct lower *L, const char *fmt, ...) MX_PRINTF(2, 3);
static int unsupported(struct lower *L, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (!L->rc) {
        char text[160];
        fe_sass_format(L->s, text, sizeof text);
        snprintf(L->err, L->errlen, "%s: kernel %s: SASS address 0x%04x: %s (word 0x%016" PRIx64 "%016" PRIx64 ", decoded as '%s')",
                 L->file, L->k->name, L->s->addr, why, L->s->hi, L->s->lo, text);
        L->rc = MX_EUNSUPPORTED;
    }
    return -1;
}

/* The bits 64..104 of the word that no lowering interprets must equal what
 * ptxas emits for the plain form: care = bits interpreted (relative to bit
 * 64), fixed = the expected value of the others. */
static int need_hi(struct lower *L, uint64_t care, uint64_t fixed)
{
    const uint64_t field = (1ull << 41) - 1;
    uint64_t v = L->s->hi & field & ~care;
    if (v != (fixed & ~care))
        return unsupported(L, "modifier bits 0x%" PRIx64 " (bits 64..104, expected 0x%" PRIx64 ") are outside the decoded subset",
                           v, fixed & ~care);
    return 0;
}

static const char *tmp(struct lower *L, char buf[16])
{
    snprintf(buf, 16, "%%t%d", L->ntmp < NTMP ? L->ntmp++ : NTMP - 1);
    return buf;
}

/* "{e[0], e[1], ...}", n operands, into o (a PTX vector or fragment). */
static void braced(char *o, size_t len, const char (*e)[16], unsigned n)
{
    size_t k = (size_t)snprintf(o, len, "{");
    for (unsigned i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(o + k, len - k, "%s%s", i ? ", " : "", e[i]);
    if (k < len)
        snprintf(o + k, len - k, "}");
}

#define B(s, pos, n) fe_sass_bits((s), (pos), (n))

/* A 32-bit register as a source ("0" for RZ) or for a {vector} ("%zero"). */
/* Registers by number: R0..R254 (255 = RZ) or, in a uniform instruction,
 * UR0..UR62 (63 = URZ); predicates P0..P6 or UP0..UP6 (7 = PT / UPT). */
static unsigned rz(const struct lower *L) { return L->uni ? 63 : 255; }
static const char *rpfx(const struct lower *L) { return L->uni ? "ur" : "r"; }
static void rsrc(const struct lower *L, char *o, unsigned r) { r == rz(L) ? snprintf(o, 16, "0") : snprintf(o, 16, "%%%s%u", rpfx(L), r); }
static void rvec(const struct lower *L, char *o, unsigned r) { r == rz(L) ? snprintf(o, 16, "%%zero") : snprintf(o, 16, "%%%s%u", rpfx(L), r); }
static void rdst(const struct lower *L, char *o, unsigned r) { r == rz(L) ? snprintf(o, 16, "%%rz") : snprintf(o, 16, "%%%s%u", rpfx(L), r); }
static void usrc(char *o, unsigned r) { r == 63 ? snprintf(o, 16, "0") : snprintf(o, 16, "%%ur%u", r); }
static void pname(const struct lower *L, char *o, unsigned p) { p == 7 ? snprintf(o, 16, "%%pt") : snprintf(o, 16, "%%%sp%u", L->uni ? "u" : "", p); }
static void pdst(const struct lower *L, char *o, unsigned p) { p == 7 ? snprintf(o, 16, "%%pz") : snprintf(o, 16, "%%%sp%u", L->uni ? "u" : "", p); }

/* The __constant__ variable holding bytes off..off+width-1 of bank 3. */
static const struct fe_cubin_const *const_at(const struct lower *L, uint32_t off, uint32_t width)
{
    for (uint32_t i = 0; i < L->c->nconsts; i++) {
        const struct fe_cubin_const *v = &L->c->consts[i];
        if (off >= v->offset && (uint64_t)off + width <= (uint64_t)v->offset + v->size)
            return v;
    }
    return NULL;
}

#define SASS_INV_2PI 0x3e22f983u /* 1/(2 pi) as f32: FMUL.RZ before MUFU.SIN/COS */

/* The external functions a cubin may call (CALL.ABS.NOINC through the
 * address bank 4 holds): the runtime's functions the emulator provides,
 * declared with nvcc's PTX signatures.  args: one letter a parameter, '4'
 * .b32 or '8' .b64; ret: 0 (none), 4 or 8 bytes.  ptxas passes the
 * parameters in R4 upward, a 64-bit one in the next even pair, and returns
 * the result in R4 (R4:R5) (ptxas on calls of each; docs/sass.md). */
static const struct ext_fn { const char *name; const char *args; unsigned ret; } ext_fns[] = {
    { "vprintf", "88", 4 }, { "malloc", "8", 8 }, { "free", "8", 0 }, { "__assertfail", "88488", 0 },
    { "cudaGraphSetConditional", "84", 0 },
};

static const struct ext_fn *ext_fn(const char *name)
{
    for (size_t i = 0; i < sizeof ext_fns / sizeof ext_fns[0]; i++)
        if (!strcmp(ext_fns[i].name, name))
            return &ext_fns[i];
    return NULL;
}

/* Is the relocation i the first of the module naming its function? */
static int first_ext(const struct fe_cubin *c, uint32_t i)
{
    if (!c->relocs[i].func)
        return 0;
    for (uint32_t j = 0; j < i; j++)
        if (c->relocs[j].func && !strcmp(c->relocs[j].func, c->relocs[i].func))
            return 0;
    return c->relocs[i].func && ext_fn(c->relocs[i].func);
}

static int cload(struct lower *L, unsigned bank, unsigned off, unsigned width, char *o);

/* 8 bytes at c[bank][off] as two 4-byte reads, in %x3 (o). */
static int cload_pair(struct lower *L, unsigned bank, unsigned off, char *o)
{
    char lo[16], hi[16];
    if (cload(L, bank, off, 4, lo) || cload(L, bank, off + 4, 4, hi))
        return -1;
    snprintf(o, 16, "%%x3");
    emit(L, "mov.b64 %%x3, {%s, %s}", lo, hi);
    return 0;
}

static int writes(const struct fe_sass_insn *w, unsigned *d);

/* 1 + the address of an instruction other than the current one that
 * writes R1 (the stack pointer), or 0 when there is none. */
static uint32_t moves_sp(const struct lower *L)
{
    for (uint32_t a = 0; a < L->k->text_size; a += 16) {
        struct fe_sass_insn w;
        unsigned d;
        if (a == L->s->addr || fe_sass_decode(L->k->text + a, a, L->k->name, &w, NULL, 0))
            continue;
        int n = writes(&w, &d);
        if (n > 0 && d <= 1 && d + (unsigned)n > 1)
            return a + 1;
    }
    return 0;
}

/* c[bank][off] of width bytes (4 or 8) into a register written to o. */
static int cload(struct lower *L, unsigned bank, unsigned off, unsigned width, char *o)
{
    const struct fe_cubin_kernel *k = L->k;
    char t[16];
    if (bank == 2) { /* read-only literals: their value */
        if (!k->cbank2 || (uint64_t)off + width > k->cbank2_size)
            return unsupported(L, "c[0x2][0x%x] (%u bytes) lies outside the kernel's constant bank 2 (%u bytes)", off, width,
                               k->cbank2 ? k->cbank2_size : 0);
        if (off % width)
            return unsupported(L, "misaligned constant c[0x2][0x%x] of %u bytes", off, width);
        uint64_t v = 0;
        for (unsigned i = width; i-- > 0;)
            v = v << 8 | k->cbank2[off + i];
        if (width == 8) {
            snprintf(o, 16, "%%x3");
            emit(L, "mov.b64 %%x3, 0x%016" PRIx64, v);
        } else {
            snprintf(o, 16, "%s", tmp(L, t));
            emit(L, "mov.b32 %s, 0x%08x", o, (unsigned)v);
        }
        return 0;
    }
    if (bank == 3) { /* __constant__ variables: the symbol holding the bytes */
        const struct fe_cubin_const *v = const_at(L, off, width);
        if (!v)
            return unsupported(L, "c[0x3][0x%x] (%u bytes) is not inside one __constant__ variable", off, width);
        if (width == 8) {
            snprintf(o, 16, "%%x3");
            emit(L, "ld.const.b64 %%x3, [%s+%u]", v->name, off - v->offset);
        } else {
            snprintf(o, 16, "%s", tmp(L, t));
            emit(L, "ld.const.b32 %s, [%s+%u]", o, v->name, off - v->offset);
        }
        return 0;
    }
    if (bank == 4) { /* the addresses of __device__ variables, relocated */
        if (off % width)
            return unsupported(L, "misaligned c[0x4][0x%x] of %u bytes", off, width);
        for (uint32_t i = 0; i < L->c->nrelocs; i++)
            if (L->c->relocs[i].offset == (off & ~7u)) {
                const char *fn = L->c->relocs[i].func;
                if (fn && !ext_fn(fn))
                    return unsupported(L, "c[0x4][0x%x] holds the address of %s, an external function the emulator does "
                                       "not provide", off, fn);
                emit(L, "mov.u64 %%x3, %s", fn ? fn : L->c->globals[L->c->relocs[i].global].name);
                if (L->c->relocs[i].addend)
                    emit(L, "add.u64 %%x3, %%x3, %" PRIu64, L->c->relocs[i].addend);
                if (width == 8) {
                    snprintf(o, 16, "%%x3");
                    return 0;
                }
                /* one word of the address (IMAD R4, RZ, RZ, c[0x4][0x0] and
                   R5 from c[0x4][0x4]) */
                char lo[16], hi[16];
                tmp(L, lo);
                tmp(L, hi);
                emit(L, "mov.b64 {%s, %s}, %%x3", lo, hi);
                snprintf(o, 16, "%s", off & 4 ? hi : lo);
                return 0;
            }
        return unsupported(L, "c[0x4][0x%x] is not a relocated address", off);
    }
    if (bank != 0)
        return unsupported(L, "constant bank %u (only banks 0, the parameters, 2, 3 and 4 are mapped)", bank);
    if (off % width)
        return unsupported(L, "misaligned constant c[0x0][0x%x] of %u bytes", off, width);
    if (off >= k->param_base && off < k->param_base + k->param_size &&
        (off + width <= k->param_base + k->param_size || width == 4)) {
        uint32_t rel = off - k->param_base;
        for (uint32_t i = 0; i < k->nparams; i++) {
            const struct fe_cubin_param *p = &k->params[i];
            if (rel >= p->offset && rel + width <= p->offset + p->size) {
                snprintf(o, 16, "%s", width == 8 ? "%x3" : tmp(L, t));
                emit(L, "ld.param.b%u %s, [%s_p%u+%u]", width * 8, o, k->name, i, rel - p->offset);
                return 0;
            }
        }
        /* 8 bytes over two 4-byte parameters (ULDC.64 of two ints in hotsp) */
        if (width == 8)
            return cload_pair(L, bank, off, o);
        /* 4 bytes from a parameter of 1 or 2 bytes: the word as the buffer
           holds it, each parameter starting in it zero-extended to its place
           and padding or bytes past the buffer 0 (ptxas reads an unsigned
           short that way and masks the word with 0xffff, kernel c_narrow) */
        if (width == 4) {
            char w[16], t2[16];
            snprintf(o, 16, "%s", tmp(L, t));
            tmp(L, w);
            emit(L, "mov.b32 %s, 0", o);
            for (uint32_t q = rel; q < rel + 4;) {
                const struct fe_cubin_param *p = NULL;
                uint32_t pi = 0;
                for (uint32_t i = 0; i < k->nparams; i++)
                    if (q >= k->params[i].offset && q < k->params[i].offset + k->params[i].size) {
                        p = &k->params[i];
                        pi = i;
                    }
                if (!p) {
                    q++;
                    continue;
                }
                if (p->offset != q || q + p->size > rel + 4 || p->size > 2)
                    return unsupported(L, "c[0x0][0x%x] (%u bytes) straddles kernel parameters", off, width);
                emit(L, "ld.param.u%u %s, [%s_p%u]", p->size * 8, w, k->name, pi);
                emit(L, "shl.b32 %s, %s, %u", tmp(L, t2), w, (q - rel) * 8);
                emit(L, "or.b32 %s, %s, %s", o, o, t2);
                q += p->size;
            }
            return 0;
        }
        return unsupported(L, "c[0x0][0x%x] (%u bytes) straddles kernel parameters", off, width);
    }
    static const char *const dims[] = { "%ntid.x", "%ntid.y", "%ntid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z" };
    if (width == 4 && off < 0x18) {
        snprintf(o, 16, "%s", tmp(L, t));
        emit(L, "mov.u32 %s, %s", o, dims[off / 4]);
        return 0;
    }
    /* 0x88 + 4 n: %envregN (ptxas on `mov.u32 r, %envregN`, N = 0..10 and
       31; the cooperative launch's grid-sync workspace is %envreg1:2) */
    if (width == 4 && off >= 0x88 && off <= 0x104) {
        snprintf(o, 16, "%s", tmp(L, t));
        emit(L, "mov.u32 %s, %%envreg%u", o, (off - 0x88) / 4);
        return 0;
    }
    /* 8 bytes of two launch values (ULDC.64 UR10, c[0x0][0x10]: nctaid.y
       and .z in coop_grid_sync; kernel b_launch) */
    if (width == 8 && (off < 0x18 || (off >= 0x88 && off + 8 <= 0x108)))
        return cload_pair(L, bank, off, o);
    /* 0x18: the generic address of shared offset 0, which cvta.shared adds
       and cvta.to.shared subtracts (ptxas on both; __cvta_generic_to_shared
       in async_copy): the emulator's shared window is linear, so it is the
       generic address of the kernel's shared block (kernel b_launch) */
    if (off == 0x18 || (width == 4 && off == 0x1c)) {
        emit(L, "cvt.u64.u32 %%x3, %%sb");
        emit(L, "cvta.shared.u64 %%x3, %%x3");
        if (width == 8) {
            snprintf(o, 16, "%%x3");
            return 0;
        }
        char lo[16], hi[16]; /* one word of it (IADD3 R6, P0, R4, c[0x0][0x18], RZ) */
        tmp(L, lo);
        tmp(L, hi);
        emit(L, "mov.b64 {%s, %s}, %%x3", lo, hi);
        snprintf(o, 16, "%s", off == 0x1c ? hi : lo);
        return 0;
    }
    /* 0x28: the initial stack pointer (R1); 0x118: the 64-bit global memory
       descriptor that LDG/STG name in a uniform register.  Neither has a
       meaning here: no local memory instruction is in the subset, and the
       descriptor is ignored (docs/sass.md). */
    if (width == 4 && off == 0x28 && k->frame_size) {
        /* the initial stack pointer: the top of the kernel's local frame
           (the code subtracts the frame size from it first) */
        snprintf(o, 16, "%s", tmp(L, t));
        emit(L, "mov.u32 %s, %s_frame", o, k->name);
        emit(L, "add.u32 %s, %s, %u", o, o, k->frame_size);
        return 0;
    }
    if (width == 4 && off == 0x28 && moves_sp(L)) {
        /* a frame of 0 bytes, then the code moves R1 itself: a stack whose
           depth ptxas could not bound (recursion; .nv.info attribute 0x11
           is 0).  The thread's whole local window is its stack, as big as
           cudaLimitStackSize sets it (%mx_stack_size, ours), R1 its top */
        snprintf(o, 16, "%s", tmp(L, t));
        emit(L, "mov.u32 %s, %%mx_stack_size", o);
        return 0;
    }
    if ((width == 4 && off == 0x28) || (width == 8 && off == 0x118)) {
        snprintf(o, 16, "0");
        return 0;
    }
    return unsupported(L, "constant c[0x0][0x%x] (%u bytes) is neither a kernel parameter nor a mapped launch value", off,
                       width);
}

/* An 8- or 16-bit constant, size code sz 0 U8, 1 S8, 2 U16, 3 S16 (LDC /
 * ULDC 73..75, LDG's codes: ptxas on ld.param / ld.const .u8 .s8 .u16, each
 * used as loaded; .s16 is U16 then a sign-extending PRMT, or LDC size 3
 * with an index, kernel c_narrow), widened to 32 bits in a scratch
 * register: a kernel parameter, a __constant__ variable or a literal of
 * bank 2.  Launch values and bank 4 hold no narrow values: refused. */
static int cload_narrow(struct lower *L, unsigned bank, unsigned off, unsigned sz, char *o)
{
    static const char *const ty[] = { "u8", "s8", "u16", "s16" };
    const struct fe_cubin_kernel *k = L->k;
    unsigned width = sz >= 2 ? 2 : 1;
    char t[16];
    if (off % width)
        return unsupported(L, "misaligned constant c[0x%x][0x%x] of %u bytes", bank, off, width);
    snprintf(o, 16, "%s", tmp(L, t));
    if (bank == 2) {
        if (!k->cbank2 || (uint64_t)off + width > k->cbank2_size)
            return unsupported(L, "c[0x2][0x%x] (%u bytes) lies outside the kernel's constant bank 2", off, width);
        uint32_t v = width == 2 ? (uint32_t)(k->cbank2[off] | k->cbank2[off + 1] << 8) : k->cbank2[off];
        if (sz == 1)
            v = (uint32_t)(int32_t)(int8_t)v;
        else if (sz == 3)
            v = (uint32_t)(int32_t)(int16_t)v;
        emit(L, "mov.b32 %s, 0x%08x", o, v);
        return 0;
    }
    if (bank == 3) {
        const struct fe_cubin_const *v = const_at(L, off, width);
        if (!v)
            return unsupported(L, "c[0x3][0x%x] (%u bytes) is not inside one __constant__ variable", off, width);
        emit(L, "ld.const.%s %s, [%s+%u]", ty[sz], o, v->name, off - v->offset);
        return 0;
    }
    if (bank == 0 && off >= k->param_base && off + width <= k->param_base + k->param_size) {
        uint32_t rel = off - k->param_base;
        for (uint32_t i = 0; i < k->nparams; i++) {
            const struct fe_cubin_param *p = &k->params[i];
            if (rel >= p->offset && rel + width <= p->offset + p->size) {
                emit(L, "ld.param.%s %s, [%s_p%u+%u]", ty[sz], o, k->name, i, rel - p->offset);
                return 0;
            }
        }
    }
    return unsupported(L, "c[0x%x][0x%x] (%u bytes) is not a kernel parameter, __constant__ variable or literal", bank, off,
                       width);
}

/* The operand in the "B" position by form (docs/sass.md): 1 R[32:39] (neg bit
 * 63 returned in *neg), 2/3 R[64:71], 4 imm32, 5 c[][], 6 UR[32:37]. */
static int opd_b(struct lower *L, char *o, int *neg)
{
    const struct fe_sass_insn *s = L->s;
    if (neg)
        *neg = 0;
    switch (s->form) {
    case 1:
        if (B(s, 40, 23))
            return unsupported(L, "bits 40..62 set in a register operand form");
        if (neg)
            *neg = (int)B(s, 63, 1);
        else if (B(s, 63, 1))
            return unsupported(L, "negated register operand");
        rsrc(L, o, B(s, 32, 8));
        return 0;
    case 2: case 3: rsrc(L, o, B(s, 64, 8)); return 0;
    case 4: snprintf(o, 16, "0x%08x", B(s, 32, 32)); return 0;
    case 5:
        /* bit 63 negates a constant operand as it does a register (IADD3
           R2, R2, -c[0x0][0x178] in nw's d - nb) */
        if (B(s, 59, 4))
            return unsupported(L, "bits 59..62 set in a constant operand form");
        if (neg)
            *neg = (int)B(s, 63, 1);
        else if (B(s, 63, 1))
            return unsupported(L, "negated constant operand");
        return cload(L, B(s, 54, 5), B(s, 38, 16), 4, o);
    case 6: /* bit 63 negates the UR as a register (IADD3 R24, P6, R22, -UR10 in stencil) */
        if (B(s, 38, 25))
            return unsupported(L, "bits 38..62 set in a uniform register operand form");
        if (neg)
            *neg = (int)B(s, 63, 1);
        else if (B(s, 63, 1))
            return unsupported(L, "negated uniform register operand");
        usrc(o, B(s, 32, 6));
        return 0;
    case 7: rsrc(L, o, B(s, 64, 8)); return 0;
    default: return unsupported(L, "operand form %u", s->form);
    }
}

/* The operand in the "C" position: 1/4/5/6 R[64:71], 2 imm32, 3 c[][]. */
static int opd_c(struct lower *L, char *o, unsigned width, int *neg)
{
    const struct fe_sass_insn *s = L->s;
    if (neg)
        *neg = 0;
    switch (s->form) {
    case 1: case 4: case 5: case 6: rsrc(L, o, B(s, 64, 8)); return 0;
    case 7: /* R, R, UR: the register second source in 64..71, the UR third;
               bit 63 negates it as in form 3 (IMAD.X R26, RZ, RZ, -UR23 in stencil) */
        if (B(s, 38, 25))
            return unsupported(L, "bits 38..62 set in a uniform register operand form");
        if (neg)
            *neg = (int)B(s, 63, 1);
        else if (B(s, 63, 1))
            return unsupported(L, "negated uniform register operand");
        usrc(o, B(s, 32, 6));
        return 0;
    case 2: snprintf(o, 16, "0x%08x", B(s, 32, 32)); return 0;
    case 3:
        /* bit 63 negates the constant (IMAD R9, R0, R9, -c[0x0][0x174] for
           x * 5 - q, kernel e_madc) */
        if (B(s, 59, 4))
            return unsupported(L, "bits 59..62 set in a constant operand form");
        if (neg)
            *neg = (int)B(s, 63, 1);
        else if (B(s, 63, 1))
            return unsupported(L, "negated constant operand");
        return cload(L, B(s, 54, 5), B(s, 38, 16), width, o);
    default: return unsupported(L, "operand form %u", s->form);
    }
}

/* Bit 91: set by ptxas when an operand is a UR (forms 6 and 7) and in the
 * uniform ALU instructions (UIADD3, ULOP3, UISETP, USEL, ULEA, UIMAD), not
 * in UMOV with an immediate or S2UR. */
static uint64_t uniform_bit(const struct lower *L)
{
    unsigned op = L->s->op;
    int alu = op == FE_SASS_UIADD3 || op == FE_SASS_ULOP3 || op == FE_SASS_UISETP || op == FE_SASS_USEL ||
              op == FE_SASS_ULEA || op == FE_SASS_UIMAD || op == FE_SASS_UIMAD_WIDE || op == FE_SASS_UFLO ||
              op == FE_SASS_UPRMT;
    return L->s->form >= 6 || alu ? 1ull << 27 : 0;
}

/* ---- one function per instruction family ---- */

static int l_mov(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char b[16], d[16];
    if (s->form == 2 || s->form == 3 || s->form == 7)
        return unsupported(L, "MOV operand form %u", s->form);
    if (need_hi(L, 0, (L->uni ? 0 : 0xf00) | uniform_bit(L)) || opd_b(L, b, NULL))
        return -1;
    rdst(L, d, B(s, 16, 8));
    emit(L, "mov.b32 %s, %s", d, b);
    return 0;
}

static int l_s2r(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const struct { unsigned code; const char *sreg; } sr[] = {
        { 0x00, "%laneid" }, { 0x21, "%tid.x" }, { 0x22, "%tid.y" }, { 0x23, "%tid.z" },
        { 0x25, "%ctaid.x" }, { 0x26, "%ctaid.y" }, { 0x27, "%ctaid.z" },
        /* 0x38..0x3c: lanemask_eq, _lt, _le, _gt, _ge (ptxas on mov.u32 of each) */
        { 0x38, "%lanemask_eq" }, { 0x39, "%lanemask_lt" }, { 0x3a, "%lanemask_le" }, { 0x3b, "%lanemask_gt" },
        { 0x3c, "%lanemask_ge" },
        /* 0x50: S2UR UR6, SR_0x50 for mov.u32 %clock in kernel b_sleep (CS2R's SR_CLOCKLO) */
        { 0x50, "%clock" },
    };
    char d[16];
    if (need_hi(L, 0xff00, 0) || s->form != 4 || B(s, 24, 40))
        return L->rc ? -1 : unsupported(L, "S2R operand bits");
    unsigned code = B(s, 72, 8);
    rdst(L, d, B(s, 16, 8));
    for (size_t i = 0; i < sizeof sr / sizeof sr[0]; i++)
        if (sr[i].code == code) {
            emit(L, "mov.u32 %s, %s", d, sr[i].sreg);
            return 0;
        }
    return unsupported(L, "special register SR_0x%02x is not mapped", code);
}

static int l_cs2r(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    unsigned d = B(s, 16, 8), sr = B(s, 72, 8), w = B(s, 80, 1);
    /* 72..79 the register (0xff SRZ, 0x50 SR_CLOCKLO, 0x51 SR_CLOCKHI,
       0x52 SR_GLOBALTIMERLO, 0x53 SR_GLOBALTIMERHI), 80 .64: Rd, Rd+1 from the register and the
       next (ptxas on mov of %clock, %clock_hi, %clock64, %globaltimer, the
       64-bit ones with and without their high word used; libcu++'s
       pipeline backs off by %globaltimer: CS2R.64 R10, SR_GLOBALTIMERLO;
       kernel b_clock) */
    if (need_hi(L, 0x1ff00, 0x10000) || B(s, 24, 40) || d == 255 || d + w >= 255 ||
        (sr != 0xff && (sr < 0x50 || sr > 0x53)) || (sr == 0xff && !w) || (sr != 0xff && (sr & 1) && w))
        return L->rc ? -1 : unsupported(L, "CS2R form");
    if (sr == 0xff) {
        emit(L, "mov.b32 %%r%u, 0", d);
        emit(L, "mov.b32 %%r%u, 0", d + 1);
    } else if (!w)
        emit(L, "mov.u32 %%r%u, %s", d,
             sr == 0x50 ? "%clock" : sr == 0x51 ? "%clock_hi" : sr == 0x52 ? "%globaltimer_lo" : "%globaltimer_hi");
    else {
        emit(L, "mov.u64 %%x0, %s", sr == 0x50 ? "%clock64" : "%globaltimer");
        emit(L, "mov.b64 {%%r%u, %%r%u}, %%x0", d, d + 1);
    }
    return 0;
}

/* Predicate source with its negation: "%p0" or "!%p0". */
static void psrc(const struct lower *L, char *o, unsigned p, unsigned neg)
{
    if (p == 7)
        snprintf(o, 20, "%s%%pt", neg ? "!" : "");
    else
        snprintf(o, 20, "%s%%%sp%u", neg ? "!" : "", L->uni ? "u" : "", p);
}

static int l_sel(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], d[16], p[20];
    if (s->form == 2 || s->form == 3 || s->form == 7) /* two sources: the second is in 32..63 */
        return unsupported(L, "SEL operand form %u", s->form);
    if (need_hi(L, 0x07800000, uniform_bit(L)) || opd_b(L, b, NULL))
        return -1;
    rsrc(L, a, B(s, 24, 8));
    rdst(L, d, B(s, 16, 8));
    pname(L, p, B(s, 87, 3));
    if (B(s, 90, 1))
        emit(L, "selp.b32 %s, %s, %s, %s", d, b, a, p);
    else
        emit(L, "selp.b32 %s, %s, %s, %s", d, a, b, p);
    return 0;
}

static int l_imnmx(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], d[16], p[20], t1[16], t2[16];
    if (s->form == 2 || s->form == 3 || s->form == 7)
        return unsupported(L, "IMNMX operand form %u", s->form);
    if (need_hi(L, 0x07800200, uniform_bit(L)) || opd_b(L, b, NULL))
        return -1;
    const char *ty = B(s, 73, 1) ? "s32" : "u32";
    rsrc(L, a, B(s, 24, 8));
    rdst(L, d, B(s, 16, 8));
    unsigned pp = B(s, 87, 3), pn = B(s, 90, 1);
    if (pp == 7) {
        emit(L, "%s.%s %s, %s, %s", pn ? "max" : "min", ty, d, a, b);
        return 0;
    }
    pname(L, p, pp);
    tmp(L, t1);
    tmp(L, t2);
    emit(L, "min.%s %s, %s, %s", ty, t1, a, b);
    emit(L, "max.%s %s, %s, %s", ty, t2, a, b);
    emit(L, "selp.b32 %s, %s, %s, %s", d, pn ? t2 : t1, pn ? t1 : t2, p);
    return 0;
}

/* FMNMX d, a, b, p: PT min, !PT max (as IMNMX), PTX min.f32 / max.f32
 * (ptxas maps fminf / fmaxf to it one to one; kernel m_lds_ur). */
static int l_fmnmx(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], d[16], p[20], t1[16], t2[16];
    /* 72 -a, 73 |a|; in forms 1 and 5 62 |b|, 63 -b (ptxas on min / max of abs
       and neg operands, one at a time; kernel f_mnmx); both on one operand
       has not been seen and is refused */
    int na = (int)B(s, 72, 1), aa = (int)B(s, 73, 1), nb = 0, ab = 0;
    if (need_hi(L, 0x07800300, uniform_bit(L)))
        return -1;
    if ((s->form == 1 || s->form == 5) && B(s, 62, 1)) {
        ab = 1; /* (|c[0x0][0x170]| for fabsf of a parameter) */
        if ((s->form == 1 ? B(s, 40, 22) : B(s, 59, 3)) || B(s, 63, 1))
            return unsupported(L, "FMNMX operand bits");
        if (s->form == 1)
            rsrc(L, b, B(s, 32, 8));
        else if (cload(L, B(s, 54, 5), B(s, 38, 16), 4, b))
            return -1;
    } else if (s->form == 4)
        snprintf(b, 16, "0f%08X", B(s, 32, 32));
    else if (s->form != 1 && s->form != 5 && s->form != 6)
        return unsupported(L, "FMNMX operand form %u", s->form);
    else if (opd_b(L, b, &nb))
        return -1;
    if (na && aa)
        return unsupported(L, "FMNMX with -|a|");
    if (!strcmp(b, "0"))
        snprintf(b, 16, "0f00000000");
    rsrc(L, a, B(s, 24, 8));
    if (!strcmp(a, "0"))
        snprintf(a, 16, "0f00000000");
    if (na || aa) {
        emit(L, "%s.f32 %s, %s", na ? "neg" : "abs", tmp(L, t1), a);
        snprintf(a, 16, "%s", t1);
    }
    if (nb || ab) {
        emit(L, "%s.f32 %s, %s", nb ? "neg" : "abs", tmp(L, t2), b);
        snprintf(b, 16, "%s", t2);
    }
    rdst(L, d, B(s, 16, 8));
    unsigned pp = B(s, 87, 3), pn = B(s, 90, 1);
    if (pp == 7) {
        emit(L, "%s.f32 %s, %s, %s", pn ? "max" : "min", d, a, b);
        return 0;
    }
    pname(L, p, pp);
    emit(L, "min.f32 %s, %s, %s", tmp(L, t1), a, b);
    emit(L, "max.f32 %s, %s, %s", tmp(L, t2), a, b);
    emit(L, "selp.b32 %s, %s, %s, %s", d, pn ? t2 : t1, pn ? t1 : t2, p);
    return 0;
}

static int l_iabs(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char b[16], d[16];
    if (s->form == 2 || s->form == 3 || s->form == 7 || need_hi(L, 0, uniform_bit(L)) || B(s, 24, 8) || opd_b(L, b, NULL))
        return L->rc ? -1 : unsupported(L, "IABS operand bits or form");
    rdst(L, d, B(s, 16, 8));
    emit(L, "abs.s32 %s, %s", d, b);
    return 0;
}

/* Whether the carry pair (pu, pv) an IADD3 writes is read as a pair: the
 * first of the next 16 words that reads either is an IADD3.X whose two
 * carry-ins are exactly pu and pv, not negated, and the words before it are
 * ones whose predicate fields are known and touch neither (guards
 * included); anything else refuses the pair. */
static int pair_consumed(const struct lower *L, unsigned pu, unsigned pv)
{
    /* a UIADD3's pair (UP) is looked for in the UIADD3.X that follows;
       instructions of the other datapath in between do not touch these
       predicates when they are among those listed below (thrust's merge
       sort: UIADD3 UR10, UP3, UP5, -UR14, UR10, UR22, two UISETPs, then
       UIADD3.X UR11, -UR32, UR13, UR21, UP3, UP5) */
    int uni;
    fe_sass_vector_op(L->s->op, &uni);
    for (uint32_t a = L->s->addr + 16, n = 0; a < L->k->text_size && n < 16; a += 16, n++) {
        struct fe_sass_insn w;
        int wu;
        if (fe_sass_decode(L->k->text + a, a, L->k->name, &w, NULL, 0))
            return 0;
        unsigned op = fe_sass_vector_op(w.op, &wu);
        if (wu == uni && (w.guard == pu || w.guard == pv))
            return 0;
        /* 87..89, 81..83, 84..86 and (IADD3 only: in LEA and ISETP these
           bits are the shift and the comparison) 77..79 */
        unsigned f[4] = { fe_sass_bits(&w, 87, 3), fe_sass_bits(&w, 81, 3), fe_sass_bits(&w, 84, 3), fe_sass_bits(&w, 77, 3) };
        unsigned nf = 0; /* how many of f[] the instruction uses */
        switch (op) {
        case FE_SASS_IADD3:
            if (wu != uni)
                continue;
            if (fe_sass_bits(&w, 74, 1) && ((f[0] == pu && f[3] == pv) || (f[0] == pv && f[3] == pu)) &&
                !fe_sass_bits(&w, 90, 1) && !fe_sass_bits(&w, 80, 1))
                return 1;
            nf = 4;
            break;
        case FE_SASS_LEA: case FE_SASS_ISETP: nf = 3; break;    /* 87..89 read, 81..83 (84..86) written */
        case FE_SASS_LOP3: f[0] = f[1]; nf = 1; break;          /* 81..83 written */
        case FE_SASS_IMAD: case FE_SASS_IMAD_WIDE: case FE_SASS_SEL: nf = 1; break; /* 87..89 read */
        case FE_SASS_MOV: case FE_SASS_LDG: case FE_SASS_STG: case FE_SASS_LDS: case FE_SASS_STS: case FE_SASS_SHF:
        case FE_SASS_NOP: case FE_SASS_FADD: case FE_SASS_FMUL: case FE_SASS_FFMA: case FE_SASS_S2R: case FE_SASS_PRMT:
        case FE_SASS_ULDC: case FE_SASS_USHF:
            break;
        default:
            return 0;
        }
        if (wu != uni)
            continue; /* the other predicate file */
        if (op == FE_SASS_ISETP && fe_sass_bits(&w, 72, 1) &&
            (fe_sass_bits(&w, 68, 3) == pu || fe_sass_bits(&w, 68, 3) == pv))
            return 0; /* .EX reads 68..70 as well */
        for (unsigned i = 0; i < nf; i++)
            if (f[i] == pu || f[i] == pv)
                return 0;
    }
    return 0;
}

/* IADD3 d = a + b + c (each optionally negated; .X: plus the carry
 * predicates, negation is then a bitwise not); Pu = carry out. */
static int l_iadd3(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], c[16], d[16];
    int nb;
    /* care: nega 72, X 74, negc 75, Pq 77..80, Pu 81..83, Pv 84..86, Pp 87..90, Rc 64..71 */
    if (need_hi(L, 0x07ffedff, uniform_bit(L)) || opd_b(L, b, &nb) || opd_c(L, c, 4, NULL))
        return -1;
    if (s->form == 2 || s->form == 3 || s->form == 7)
        return unsupported(L, "IADD3 operand form %u", s->form);
    rsrc(L, a, B(s, 24, 8));
    rdst(L, d, B(s, 16, 8));
    int x = (int)B(s, 74, 1);
    unsigned pu = B(s, 81, 3), pv = B(s, 84, 3), pp = B(s, 87, 3), ppn = B(s, 90, 1), pq = B(s, 77, 3), pqn = B(s, 80, 1);
    if (pv != 7 && (pu == 7 || x || !pair_consumed(L, pu, pv)))
        return unsupported(L, "IADD3 with a second carry-out predicate not consumed as a pair by the next IADD3.X");
    if (!x && !(pp == 7 && ppn && pq == 7 && pqn))
        return unsupported(L, "IADD3 without .X names carry-in predicates");
    const char *term[3] = { a, b, c };
    int neg[3] = { (int)B(s, 72, 1), nb, (int)B(s, 75, 1) }, n = 0;
    for (int i = 0; i < 3; i++)
        if (strcmp(term[i], "0") || (x && neg[i]))
            n++;
    if (!x && pu == 7) {
        /* plain 32-bit sum: add/sub per term */
        char acc[16] = "";
        int left = n;
        for (int i = 0; i < 3; i++) {
            if (!strcmp(term[i], "0"))
                continue;
            left--;
            char dst[16], t[16];
            snprintf(dst, sizeof dst, "%s", left ? tmp(L, t) : d);
            if (!acc[0]) {
                if (neg[i])
                    emit(L, "neg.s32 %s, %s", dst, term[i]);
                else if (!left)
                    emit(L, "mov.b32 %s, %s", dst, term[i]);
                snprintf(acc, sizeof acc, "%s", neg[i] || !left ? dst : term[i]);
            } else {
                emit(L, "%s.u32 %s, %s, %s", neg[i] ? "sub" : "add", dst, acc, term[i]);
                snprintf(acc, sizeof acc, "%s", dst);
            }
        }
        if (!n)
            emit(L, "mov.b32 %s, 0", d);
        return 0;
    }
    if (x && pu == 7) {
        /* .X without a carry out: the low word of the sum, in 32-bit
           arithmetic (a negated term is its complement) */
        char acc[16], t[16], pr[20];
        snprintf(acc, sizeof acc, "0");
        for (int i = 0; i < 3; i++) {
            if (!neg[i] && !strcmp(term[i], "0"))
                continue;
            const char *v = term[i];
            char tn[16];
            if (neg[i]) {
                emit(L, "not.b32 %s, %s", tmp(L, tn), v);
                v = tn;
            }
            if (!strcmp(acc, "0"))
                snprintf(acc, sizeof acc, "%s", v);
            else {
                emit(L, "add.u32 %s, %s, %s", tmp(L, t), acc, v);
                snprintf(acc, sizeof acc, "%s", t);
            }
        }
        unsigned cp[2][2] = { { pp, ppn }, { pq, pqn } };
        for (int i = 0; i < 2; i++) {
            if (cp[i][0] == 7 && cp[i][1])
                continue; /* !PT adds nothing */
            psrc(L, pr, cp[i][0], cp[i][1]);
            emit(L, "selp.u32 %s, 1, 0, %s", tmp(L, t), pr);
            char t2[16];
            emit(L, "add.u32 %s, %s, %s", tmp(L, t2), acc, t);
            snprintf(acc, sizeof acc, "%s", t2);
        }
        emit(L, "mov.b32 %s, %s", d, acc);
        return 0;
    }
    if (pu != 7 && pv == 7 && n > 2)
        return unsupported(L, "IADD3 carry-out of three operands");
    if (!x && pu != 7 && pv == 7 && !neg[0] && !neg[1] && !neg[2]) {
        /* two terms and a carry out: the PTX carry flag */
        const char *u = NULL, *w = NULL;
        for (int i = 0; i < 3; i++)
            if (strcmp(term[i], "0"))
                u ? (void)(w = term[i]) : (void)(u = term[i]);
        char t[16], pd[16];
        emit(L, "add.cc.u32 %s, %s, %s", d, u ? u : "0", w ? w : "0");
        emit(L, "addc.u32 %s, 0, 0", tmp(L, t));
        pdst(L, pd, pu);
        emit(L, "setp.ne.u32 %s, %s, 0", pd, t);
        return 0;
    }
    /* 64-bit sum of the zero-extended terms: bit 32 is the carry */
    unsigned ones = 0;
    char t[16], pr[20];
    emit(L, "mov.b64 %%x0, 0");
    for (int i = 0; i < 3; i++) {
        if (!neg[i] && !strcmp(term[i], "0"))
            continue;
        if (neg[i]) {
            emit(L, "not.b32 %s, %s", tmp(L, t), term[i]);
            emit(L, "cvt.u64.u32 %%x1, %s", t);
            ones += !x;
        } else
            emit(L, "cvt.u64.u32 %%x1, %s", term[i]);
        emit(L, "add.u64 %%x0, %%x0, %%x1");
    }
    if (ones)
        emit(L, "add.u64 %%x0, %%x0, %u", ones);
    if (x) {
        psrc(L, pr, pp, ppn);
        emit(L, "selp.u64 %%x1, 1, 0, %s", pr);
        emit(L, "add.u64 %%x0, %%x0, %%x1");
        psrc(L, pr, pq, pqn);
        emit(L, "selp.u64 %%x1, 1, 0, %s", pr);
        emit(L, "add.u64 %%x0, %%x0, %%x1");
    }
    emit(L, "mov.b64 {%s, %s}, %%x0", d, tmp(L, t));
    if (pv != 7) {
        /* the carry (0..2) over two predicates: Pu = carry >= 1, Pv =
           carry >= 2; only their sum is observable to the IADD3.X that
           pair_consumed found (docs/sass.md) */
        char pd[16];
        pdst(L, pd, pu);
        emit(L, "setp.ge.u32 %s, %s, 1", pd, t);
        pdst(L, pd, pv);
        emit(L, "setp.ge.u32 %s, %s, 2", pd, t);
        return 0;
    }
    if (pu != 7) {
        emit(L, "and.b32 %s, %s, 1", t, t);
        char pd[16];
        pdst(L, pd, pu);
        emit(L, "setp.ne.u32 %s, %s, 0", pd, t);
    }
    return 0;
}

/* IMAD d = a * b + c (.X: + Pp); .WIDE: 64-bit d:d+1 = a * b + c:c+1. */
static int l_imad(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], c[16], d[16], t[16], pr[20];
    int wide = s->op == FE_SASS_IMAD_WIDE || s->op == FE_SASS_UIMAD_WIDE, hi = s->op == FE_SASS_IMAD_HI;
    if (need_hi(L, 0x07800000 | 0xe00 | 0xff, 0x000e0000 | uniform_bit(L)) || opd_b(L, b, NULL))
        return -1;
    int x = (int)B(s, 74, 1);
    unsigned pp = B(s, 87, 3), ppn = B(s, 90, 1);
    if (!x && !(pp == 7 && ppn))
        return unsupported(L, "IMAD without .X names a carry-in predicate");
    if (x && (wide || hi))
        return unsupported(L, "IMAD.X with .WIDE or .HI");
    /* IMAD.WIDE with bit 75 in form 1 or 4: a * b minus the pair in 64..71
       (`IMAD.WIDE R2, R0, 0x3b9aca07, -R2` with R2:R3 the sign-extended z of
       surface's `(long long)x * 1000000007LL - z`; kernel e_madw) */
    if (B(s, 75, 1) && (hi || (wide && s->form != 1 && s->form != 4)))
        return unsupported(L, "IMAD.WIDE or .HI with a negated addend");
    /* in forms 2, 3 and 7 bit 75 belongs to the register in 64..71, the
       multiplier (as FFMA shows): not seen for IMAD, refused */
    if (B(s, 75, 1) && (s->form == 2 || s->form == 3 || s->form == 7))
        return unsupported(L, "IMAD with bit 75 in operand form %u", s->form);
    const char *sg = B(s, 73, 1) ? "s32" : "u32";
    rsrc(L, a, B(s, 24, 8));
    unsigned dr = B(s, 16, 8);
    rdst(L, d, dr);
    if (wide) {
        if (s->form == 2)
            return unsupported(L, "IMAD.WIDE with an immediate addend");
        if (dr != rz(L) && dr >= rz(L) - 1)
            return unsupported(L, "IMAD.WIDE destination pair R%u", dr);
        if (opd_c(L, c, 8, NULL))
            return -1;
        if (!strcmp(c, "0"))
            emit(L, "mov.b64 %%x3, 0");
        else if (s->form != 3) { /* form 3: cload put the constant in %x3 */
            unsigned cr = B(s, 64, 8);
            if (cr >= rz(L) - 1)
                return unsupported(L, "IMAD.WIDE addend pair R%u", cr);
            emit(L, "mov.b64 %%x3, {%%%s%u, %%%s%u}", rpfx(L), cr, rpfx(L), cr + 1);
        }
        emit(L, "mul.wide.%s %%x0, %s, %s", sg, a, b);
        emit(L, "%s.u64 %%x0, %%x0, %%x3", B(s, 75, 1) ? "sub" : "add");
        if (dr == rz(L))
            return 0;
        emit(L, "mov.b64 {%%%s%u, %%%s%u}, %%x0", rpfx(L), dr, rpfx(L), dr + 1);
        return 0;
    }
    int nc;
    if (opd_c(L, c, 4, &nc))
        return -1;
    if (nc && (hi || B(s, 75, 1)))
        return unsupported(L, "IMAD with a negated constant addend and .HI or bit 75");
    if (hi) {
        /* bits 32..63 of a * b + {Rc+1:Rc}: the addend is a register pair,
           as IMAD.WIDE's (ptxas writes mad.hi.u32 d, a, b, c as MOV R2, RZ;
           MOV R3, c; IMAD.HI d, a, b, R2, and the integer division's
           reciprocal step as IMAD.HI R12, R13, R17, R12 with R12 = 0: rcp +
           hi(rcp * e); kernel s_dyn) */
        if (!strcmp(c, "0")) {
            emit(L, "mul.hi.%s %s, %s, %s", sg, d, a, b);
            return 0;
        }
        unsigned cr = B(s, 64, 8);
        if (s->form != 1 && s->form != 4 && s->form != 5)
            return unsupported(L, "IMAD.HI with an addend in operand form %u", s->form);
        if (cr >= rz(L) - 1)
            return unsupported(L, "IMAD.HI addend pair R%u", cr);
        emit(L, "mov.b64 %%x3, {%%%s%u, %%%s%u}", rpfx(L), cr, rpfx(L), cr + 1);
        emit(L, "mul.wide.%s %%x0, %s, %s", sg, a, b);
        emit(L, "add.u64 %%x0, %%x0, %%x3");
        emit(L, "mov.b64 {%s, %s}, %%x0", tmp(L, t), d);
        return 0;
    }
    if (B(s, 75, 1) || nc) { /* -c; in .X the complement, as IADD3.X (the high word of a 64-bit a - sext(b) in lbm) */
        char tn[16];
        emit(L, "%s %s, %s", x ? "not.b32" : "neg.s32", tmp(L, tn), c);
        snprintf(c, 16, "%s", tn);
    }
    const char *res = x ? tmp(L, t) : d;
    if (!strcmp(a, "0") || !strcmp(b, "0"))
        emit(L, "mov.b32 %s, %s", res, c);
    else if (!strcmp(c, "0"))
        emit(L, "mul.lo.u32 %s, %s, %s", res, a, b);
    else
        emit(L, "mad.lo.u32 %s, %s, %s, %s", res, a, b, c);
    if (x) {
        char t2[16];
        psrc(L, pr, pp, ppn);
        emit(L, "selp.u32 %s, 1, 0, %s", tmp(L, t2), pr);
        emit(L, "add.u32 %s, %s, %s", d, t, t2);
    }
    return 0;
}

static int l_lop3(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], c[16], d[16];
    if (need_hi(L, 0xe0000 | 0xff00 | 0xff, 0x07800000 | uniform_bit(L)) || opd_b(L, b, NULL) || opd_c(L, c, 4, NULL))
        return -1;
    if (s->form == 2 || s->form == 3 || s->form == 7)
        return unsupported(L, "LOP3 operand form %u", s->form);
    rsrc(L, a, B(s, 24, 8));
    rdst(L, d, B(s, 16, 8));
    emit(L, "lop3.b32 %s, %s, %s, %s, 0x%02x", d, a, b, c, B(s, 72, 8));
    unsigned pu = B(s, 81, 3);
    if (pu != 7) {
        char pd[16];
        pdst(L, pd, pu);
        emit(L, "setp.ne.u32 %s, %s, 0", pd, d);
    }
    return 0;
}

/* IDP d, a, b, c (0x026): dp4a / dp2a.  76 two-way (dp2a), 77 .hi (the
 * upper bytes of b), 73 a signed, 74 b signed; b a register (form 1,
 * 32..39) or a constant (form 5: ptxas puts an immediate b in bank 2), c
 * in 64..71 (ptxas on dp4a.{u32,s32}.{u32,s32} and dp2a.{lo,hi}, one
 * field at a time; kernel i_dp).  Other forms are not seen: refused. */
static int l_idp(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], c[16], d[16];
    if (s->form != 1 && s->form != 5)
        return unsupported(L, "IDP operand form %u", s->form);
    if (need_hi(L, 0xff | 0x200 | 0x400 | 0x1000 | 0x2000, 0) || opd_b(L, b, NULL))
        return -1;
    if (!B(s, 76, 1) && B(s, 77, 1))
        return unsupported(L, "IDP.4A with bit 77");
    rsrc(L, a, B(s, 24, 8));
    rsrc(L, c, B(s, 64, 8));
    rdst(L, d, B(s, 16, 8));
    const char *ta = B(s, 73, 1) ? "s32" : "u32", *tb = B(s, 74, 1) ? "s32" : "u32";
    if (B(s, 76, 1))
        emit(L, "dp2a.%s.%s.%s %s, %s, %s, %s", B(s, 77, 1) ? "hi" : "lo", ta, tb, d, a, b, c);
    else
        emit(L, "dp4a.%s.%s %s, %s, %s, %s", ta, tb, d, a, b, c);
    return 0;
}

/* PRMT d, a, sel, c: the bytes of {c:a} (a bytes 0..3, c bytes 4..7) chosen
 * by sel, in mode 72..74 (0 plain, 1 F4E, 2 B4E, 3 RC8, 4 ECL, 5 ECR, 6 RC16:
 * ptxas for prmt.b32.MODE) — PTX prmt.b32 d, a, c, sel. */
static int l_prmt(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const mode[] = { "", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16", NULL };
    char a[16], b[16], c[16], d[16];
    if (need_hi(L, 0x7ff, uniform_bit(L)) || opd_b(L, b, NULL) || opd_c(L, c, 4, NULL))
        return -1;
    if (!mode[B(s, 72, 3)])
        return unsupported(L, "PRMT mode 7");
    rsrc(L, a, B(s, 24, 8));
    rdst(L, d, B(s, 16, 8));
    if (s->form == 3 || s->form == 7)  /* forms 1, 2 (selector in 64..71, c immediate), 4, 5, 6 seen */
        return unsupported(L, "PRMT operand form %u", s->form);
    emit(L, "prmt.b32%s %s, %s, %s, %s", mode[B(s, 72, 3)], d, a, c, b);
    return 0;
}

/* SHF / USHF: the 64-bit value {c:a} shifted left or right (arithmetic for
 * .S32/.S64) by b, clamped to 32 (.U32/.S32) or 64; the low or (.HI) high
 * word.  Uniform: registers are UR (6-bit fields). */
static int l_shf(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    int u = s->op == FE_SASS_USHF;
    char a[16], b[16], c[16], d[16], t[16], lo[16], hi[16];
    if (need_hi(L, 0x11600 | 0x800 | (u ? 0x3f : 0xff), (u ? 1ull << 27 : 0) | uniform_bit(L)))
        return -1;
    if (s->form == 2 || s->form == 3 || s->form == 7 || (u && s->form != 4 && s->form != 1))
        return unsupported(L, "SHF operand form %u", s->form);
    if (u && s->form == 1) { /* USHF with the shift amount in a UR (lbm) */
        if (B(s, 38, 26))
            return unsupported(L, "USHF register bits");
        usrc(b, B(s, 32, 6));
    } else if (opd_b(L, b, NULL))
        return -1;
    unsigned ty = B(s, 73, 2), right = B(s, 76, 1), high = B(s, 80, 1);
    if (u) {
        unsigned ra = B(s, 24, 6), rc = B(s, 64, 6), rd = B(s, 16, 6);
        if (B(s, 30, 2) || B(s, 22, 2))
            return unsupported(L, "USHF register bits");
        ra == 63 ? snprintf(a, 16, "%%zero") : snprintf(a, 16, "%%ur%u", ra);
        rc == 63 ? snprintf(c, 16, "%%zero") : snprintf(c, 16, "%%ur%u", rc);
        rd == 63 ? snprintf(d, 16, "%%rz") : snprintf(d, 16, "%%ur%u", rd);
    } else {
        rvec(L, a, B(s, 24, 8));
        rvec(L, c, B(s, 64, 8));
        rdst(L, d, B(s, 16, 8));
    }
    if (ty >= 2 && !B(s, 75, 1)) {
        /* 32-bit types, clamped amount: one PTX instruction.  Left: the low
           word is a << n, the high a funnel shift; right: the low word a
           funnel shift (the sign of {c:a} never reaches it for n <= 32),
           the high word c >> n, arithmetic for .S32 */
        if (!right)
            high ? emit(L, "shf.l.clamp.b32 %s, %s, %s, %s", d, a, c, b) : emit(L, "shl.b32 %s, %s, %s", d, a, b);
        else if (!high)
            emit(L, "shf.r.clamp.b32 %s, %s, %s, %s", d, a, c, b);
        else
            emit(L, "shr.%s32 %s, %s, %s", ty == 2 ? "s" : "u", d, c, b);
        return 0;
    }
    emit(L, "mov.b64 %%x0, {%s, %s}", a, c);
    if (B(s, 75, 1)) { /* .W: the amount wraps (mod 32) instead of clamping: shf.{l,r}.wrap.b32, __funnelshift_l */
        if (ty < 2)
            return unsupported(L, "SHF.W of a 64-bit type");
        emit(L, "and.b32 %s, %s, 31", tmp(L, t), b);
    } else
        emit(L, "min.u32 %s, %s, %u", tmp(L, t), b, ty >= 2 ? 32 : 64);
    if (!right)
        emit(L, "shl.b64 %%x0, %%x0, %s", t);
    else if (ty == 0 || ty == 2)  /* .S64 / .S32: the sign is that of the high word */
        emit(L, "shr.s64 %%x0, %%x0, %s", t);
    else
        emit(L, "shr.u64 %%x0, %%x0, %s", t);
    emit(L, "mov.b64 {%s, %s}, %%x0", tmp(L, lo), tmp(L, hi));
    emit(L, "mov.b32 %s, %s", d, high ? hi : lo);
    return 0;
}

/* LEA d = ({c:a} << s).lo + b, .HI: ({c:a} << s).hi + b; .X adds Pp; Pu = carry. */
static int l_lea(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], c[16], d[16], t[16], t2[16], pr[20];
    if (need_hi(L, 0xff | 0x100 | 0x200 | 0x400 | 0xf800 | 0x10000 | 0xe0000 | 0x07800000, uniform_bit(L)))
        return -1;
    if (s->form == 2 || s->form == 3 || s->form == 7)
        return unsupported(L, "LEA operand form %u", s->form);
    /* 72: b - (a << s), the carry out that of b + ~(a << s) + 1 (ptxas on
       the 64-bit x - (y << 30): LEA R8, P0, -R6, R4, 0x1e then IADD3.X R9,
       R5, -R9, RZ, P0 with R9 the high word of y << 30; ULEA the same in
       thrust's radix-sort histogram; kernel l_neg) */
    if (B(s, 72, 1)) {
        char pd[16];
        int nb0;
        if (B(s, 73, 2) || B(s, 80, 1) || opd_b(L, b, &nb0) || nb0)
            return L->rc ? -1 : unsupported(L, "LEA with a negated shifted operand and .X, .HI, .SX32 or -b");
        rvec(L, a, B(s, 24, 8));
        rdst(L, d, B(s, 16, 8));
        emit(L, "shl.b32 %s, %s, %u", tmp(L, t), a, B(s, 75, 5));
        emit(L, "not.b32 %s, %s", t, t);
        emit(L, "cvt.u64.u32 %%x0, %s", t);
        emit(L, "cvt.u64.u32 %%x1, %s", b);
        emit(L, "add.u64 %%x0, %%x0, %%x1");
        emit(L, "add.u64 %%x0, %%x0, 1");
        emit(L, "mov.b64 {%s, %s}, %%x0", d, tmp(L, t2));
        if (B(s, 81, 3) != 7) {
            pdst(L, pd, B(s, 81, 3));
            emit(L, "setp.ne.u32 %s, %s, 0", pd, t2);
        }
        return 0;
    }
    int nb;
    if (opd_b(L, b, &nb))
        return -1;
    unsigned sh = B(s, 75, 5), high = B(s, 80, 1), x = B(s, 74, 1), pu = B(s, 81, 3), pp = B(s, 87, 3), ppn = B(s, 90, 1);
    unsigned sx = B(s, 73, 1); /* .SX32: the high word is a's sign (Rc is RZ) */
    if (!x && !(pp == 7 && ppn))
        return unsupported(L, "LEA without .X names a carry-in predicate");
    if (sx && (!high || B(s, 64, 8) != rz(L)))
        return unsupported(L, "LEA.SX32 without .HI or with a high-word register");
    rvec(L, a, B(s, 24, 8));
    rvec(L, c, high ? B(s, 64, 8) : rz(L));
    if (sx)
        emit(L, "shr.s32 %s, %s, 31", tmp(L, c), a);
    if (nb) { /* (a << s) - b: only without carries (u_ops: LEA R4, R4, -c[0x0][0x17c], 0x1) */
        if (x || pu != 7 || high)
            return unsupported(L, "LEA with a negated operand and a carry or .HI");
        char tn[16];
        emit(L, "neg.s32 %s, %s", tmp(L, tn), b);
        snprintf(b, 16, "%s", tn);
    }
    rdst(L, d, B(s, 16, 8));
    if (pu == 7) {
        /* no carry out: 32-bit arithmetic, the high word by a funnel shift */
        if (high)
            emit(L, "shf.l.clamp.b32 %s, %s, %s, %u", tmp(L, t), a, c, sh);
        else
            emit(L, "shl.b32 %s, %s, %u", tmp(L, t), a, sh);
        if (x) {
            psrc(L, pr, pp, ppn);
            emit(L, "selp.u32 %s, 1, 0, %s", tmp(L, t2), pr);
            emit(L, "add.u32 %s, %s, %s", t, t, t2);
        }
        emit(L, "add.u32 %s, %s, %s", d, t, b);
        return 0;
    }
    if (!x && !high) { /* (a << s) + b with a carry out: the PTX carry flag */
        char pd[16];
        emit(L, "shl.b32 %s, %s, %u", tmp(L, t), a, sh);
        emit(L, "add.cc.u32 %s, %s, %s", d, t, b);
        emit(L, "addc.u32 %s, 0, 0", tmp(L, t2));
        pdst(L, pd, pu);
        emit(L, "setp.ne.u32 %s, %s, 0", pd, t2);
        return 0;
    }
    emit(L, "mov.b64 %%x0, {%s, %s}", a, c);
    emit(L, "shl.b64 %%x0, %%x0, %u", sh);
    tmp(L, t);
    tmp(L, t2);
    emit(L, "mov.b64 {%s, %s}, %%x0", t, t2);
    emit(L, "cvt.u64.u32 %%x0, %s", high ? t2 : t);
    emit(L, "cvt.u64.u32 %%x1, %s", b);
    emit(L, "add.u64 %%x0, %%x0, %%x1");
    if (x) {
        psrc(L, pr, pp, ppn);
        emit(L, "selp.u64 %%x1, 1, 0, %s", pr);
        emit(L, "add.u64 %%x0, %%x0, %%x1");
    }
    emit(L, "mov.b64 {%s, %s}, %%x0", d, t2);
    if (pu != 7) {
        char pd[16];
        pdst(L, pd, pu);
        emit(L, "setp.ne.u32 %s, %s, 0", pd, t2);
    }
    return 0;
}

static int l_isetp(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const icmp[] = { NULL, "lt", "eq", "le", "gt", "ne", "ge", NULL };
    static const char *const fcmp[] = { NULL, "lt", "eq", "le", "gt", "ne", "ge", "num", "nan", "ltu", "equ", "leu",
                                        "gtu", "neu", "geu", NULL };
    static const char *const bop[] = { "and", "or", "xor", NULL };
    char a[16], b[16], pu[16], pv[16], pp[20];
    int f = s->op == FE_SASS_FSETP;
    /* FSETP: 72 -a, 73 |a|, 80 .FTZ; form 1: 62 |b|, 63 -b (ptxas on
       setp.CMP{.ftz}.f32 of abs.f32 / neg.f32 operands, kernel f_setp) */
    uint64_t care = 0x07fe0c00ull | (f ? 0xf000 | 0x100 | 0x200 | 0x10000 : 0x7200);
    unsigned absb = 0, negb = 0, ex = !f && B(s, 72, 1);
    /* ISETP.EX (72): the high words of a 64-bit compare, Pq (68..70, ! 71)
       the low words' unsigned compare (ptxas on long long <, <=, >, >=,
       ==, != and their unsigned forms, kernel w_cmp) */
    if (ex)
        care |= 0x1f0;
    if (need_hi(L, care, (f ? 0 : 0x70) | uniform_bit(L)))
        return -1;
    if (f && s->form == 1) {
        if (B(s, 40, 22))
            return unsupported(L, "bits 40..61 set in a register operand form");
        absb = B(s, 62, 1);
        negb = B(s, 63, 1);
        rsrc(L, b, B(s, 32, 8));
    } else if (opd_b(L, b, NULL))
        return -1;
    if (s->form == 2 || s->form == 3 || s->form == 7)
        return unsupported(L, "SETP operand form %u", s->form);
    const char *cmp = f ? fcmp[B(s, 76, 4)] : icmp[B(s, 76, 3)];
    const char *op = bop[B(s, 74, 2)];
    if (!cmp || !op)
        return unsupported(L, "comparison or boolean operation outside the subset");
    rsrc(L, a, B(s, 24, 8));
    pdst(L, pu, B(s, 81, 3));
    pdst(L, pv, B(s, 84, 3));
    psrc(L, pp, B(s, 87, 3), B(s, 90, 1));
    if (f && s->form == 4)
        snprintf(b, 16, "0f%08X", B(s, 32, 32));
    else if (f && !strcmp(b, "0"))
        snprintf(b, 16, "0f00000000");
    if (f && !strcmp(a, "0"))
        snprintf(a, 16, "0f00000000");
    if (f) {
        char t[16];
        if (B(s, 73, 1))
            emit(L, "abs.f32 %s, %s", tmp(L, t), a), snprintf(a, 16, "%s", t);
        if (B(s, 72, 1))
            emit(L, "neg.f32 %s, %s", tmp(L, t), a), snprintf(a, 16, "%s", t);
        if (absb)
            emit(L, "abs.f32 %s, %s", tmp(L, t), b), snprintf(b, 16, "%s", t);
        if (negb)
            emit(L, "neg.f32 %s, %s", tmp(L, t), b), snprintf(b, 16, "%s", t);
    }
    if (ex) {
        /* LT/LE: hi < || (hi == && Pq); GT/GE: hi > || (hi == && Pq);
           EQ: hi == && Pq; NE: hi != || Pq */
        const char *ty = B(s, 73, 1) ? "s32" : "u32";
        unsigned cc = B(s, 76, 3);
        const char *strict = cc == 1 || cc == 3 ? "lt" : cc == 4 || cc == 6 ? "gt" : cc == 5 ? "ne" : "eq";
        char t1[16], t2[16], t3[16], pq[20];
        psrc(L, pq, B(s, 68, 3), B(s, 71, 1));
        emit(L, "setp.%s.%s %%pr, %s, %s", strict, ty, a, b);
        emit(L, "selp.u32 %s, 1, 0, %%pr", tmp(L, t1));
        emit(L, "setp.eq.%s %%pr, %s, %s", ty, a, b);
        emit(L, "selp.u32 %s, 1, 0, %%pr", tmp(L, t2));
        emit(L, "selp.u32 %s, 1, 0, %s", tmp(L, t3), pq);
        if (cc == 2)
            emit(L, "and.b32 %s, %s, %s", t1, t2, t3);
        else if (cc == 5)
            emit(L, "or.b32 %s, %s, %s", t1, t1, t3);
        else {
            emit(L, "and.b32 %s, %s, %s", t2, t2, t3);
            emit(L, "or.b32 %s, %s, %s", t1, t1, t2);
        }
        emit(L, "setp.ne.u32.%s %s|%s, %s, 0, %s", op, pu, pv, t1, pp);
        return 0;
    }
    emit(L, "setp.%s%s.%s.%s %s|%s, %s, %s, %s", cmp, f && B(s, 80, 1) ? ".ftz" : "", f ? "f32" : B(s, 73, 1) ? "s32" : "u32",
         op, pu, pv, a, b, pp);
    return 0;
}

/* PLOP3.LUT Pu, PT, Pa, Pb, Pc, lut: Pu = lut[a<<2 | b<<1 | c] (LOP3's
 * convention), the 8-bit table split over bits 64..66 (low three) and 72..76
 * (high five); Pa 87..89 (!: 90), Pb 77..79 (!: 80), Pc 68..70 (!: 71; bit
 * 67: Pc is a uniform UP).  The second output (84..86, table in 16..23) is
 * PT in everything seen and required so. */
static int l_plop3(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    uint64_t care = 0x7 | 0x8 | 0x70 | 0x80 | 0x1f00 | 0xe000 | 0x10000 | 0xe0000 | 0x03800000 | 0x04000000;
    if (need_hi(L, care, 0x03f0e070) || (s->lo >> 16))
        return L->rc ? -1 : unsupported(L, "PLOP3 operand bits");
    unsigned lut = B(s, 64, 3) | B(s, 72, 5) << 3, pu = B(s, 81, 3);
    /* UPLOP3 (0x09c): the same fields on UP0..UP6, bit 91 clear (thrust's
       radix-sort histogram: UPLOP3.LUT UP0, UPT, UP1, UPT, UP0, 0xae, !UP1
       | UP0, whose table and inputs follow the PTX as each setp feeding it
       is changed: 0x5d for !UP1 | !UP0, 0xea for UP1 | UP0; kernel p_ulogic) */
    unsigned u = (unsigned)L->uni;
    if (u && B(s, 67, 1))
        return unsupported(L, "UPLOP3 with bit 67 set");
    if (pu == 7)
        return 0;
    struct { unsigned p, neg, uni; } in[3] = {
        { B(s, 87, 3), B(s, 90, 1), u }, { B(s, 77, 3), B(s, 80, 1), u }, { B(s, 68, 3), B(s, 71, 1), u | B(s, 67, 1) } };
    char m[3][16], pr[20], pd[16];
    for (int i = 0; i < 3; i++) {
        int save = L->uni;
        L->uni = (int)in[i].uni;
        psrc(L, pr, in[i].p, in[i].neg);
        L->uni = save;
        emit(L, "selp.b32 %s, -1, 0, %s", tmp(L, m[i]), pr);
    }
    emit(L, "lop3.b32 %s, %s, %s, %s, 0x%02x", m[0], m[0], m[1], m[2], lut);
    pdst(L, pd, pu);
    emit(L, "setp.ne.u32 %s, %s, 0", pd, m[0]);
    return 0;
}

/* FADD / FMUL / FFMA: rounding 78..79 (RN RM RP RZ), .SAT 77, .FTZ 80 (ptxas
 * on {add,mul,fma}.{rn,rm,rp,rz}{.ftz}{.sat}.f32, one at a time). */
static int l_fp(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const rnd[] = { ".rn", ".rm", ".rp", ".rz" };
    char a[16], b[16], c[16], d[16], t[16], md[24];
    int nb = 0;
    uint64_t care = (1u << 8) | 0x2000 | 0xc000 | 0x10000 | (s->op == FE_SASS_FFMA ? (1u << 11) | 0xff : 0);
    if (need_hi(L, care, (s->op == FE_SASS_FMUL ? 0x00400000 : 0) | uniform_bit(L)))
        return -1;
    snprintf(md, sizeof md, "%s%s%s", rnd[B(s, 78, 2)], B(s, 80, 1) ? ".ftz" : "", B(s, 77, 1) ? ".sat" : "");
    if (s->op == FE_SASS_FADD && s->form == 2) {
        if (B(s, 64, 8))
            return unsupported(L, "FADD form 2 with a register in bits 64..71");
        snprintf(b, 16, "0f%08X", B(s, 32, 32));
    } else if (s->op == FE_SASS_FADD && s->form == 3) {
        /* FADD R, R, [-]c[][]: the constant in the third slot, bit 63 its
           negation (x - p in kernel f_addc) */
        if (B(s, 64, 8) || B(s, 59, 4))
            return unsupported(L, "FADD form 3 with bits 64..71 or 59..62 set");
        nb = (int)B(s, 63, 1);
        if (cload(L, B(s, 54, 5), B(s, 38, 16), 4, b))
            return -1;
    } else if (s->op == FE_SASS_FADD && s->form == 7) {
        /* FADD R, R, [-]UR: the UR in the third slot (32..37) as the
           constant of form 3, bit 63 its negation (`FADD R9, -RZ, -UR4`, the
           negated divisor in the slow path of a division by 13: kernel
           f_div13); 64..71 clear */
        if (B(s, 64, 8))
            return unsupported(L, "FADD form 7 with a register in bits 64..71");
        if (opd_c(L, b, 4, &nb))
            return -1;
        if (!strcmp(b, "0"))
            snprintf(b, 16, "0f00000000");
    } else if (s->form == 4)
        snprintf(b, 16, "0f%08X", B(s, 32, 32));
    else if (s->form == 1 || s->form == 5 || (s->op != FE_SASS_FADD && s->form == 6) ||
             (s->op == FE_SASS_FFMA && (s->form == 2 || s->form == 3 || s->form == 7))) {
        if (opd_b(L, b, s->op == FE_SASS_FMUL ? NULL : &nb))
            return -1;
    } else
        return unsupported(L, "floating-point operand form %u", s->form);
    if (!strcmp(b, "0"))
        snprintf(b, 16, "0f00000000");
    rvec(L, a, B(s, 24, 8));
    if (!strcmp(a, "%zero"))
        snprintf(a, 16, "0f00000000");
    rdst(L, d, B(s, 16, 8));
    int na = (int)B(s, 72, 1);
    if (s->op == FE_SASS_FMUL) {
        if (na)
            return unsupported(L, "FMUL with a negated operand");
        if (s->form == 4 && B(s, 32, 32) == SASS_INV_2PI && B(s, 78, 2) == 3 && !B(s, 80, 1) && B(s, 16, 8) != 255)
            emit(L, "mov.b32 %%sc%u, %s", B(s, 16, 8), a); /* the angle, for a MUFU.SIN/COS reading d (l_mufu) */
        emit(L, "mul%s.f32 %s, %s, %s", md, d, a, b);
        return 0;
    }
    if (s->op == FE_SASS_FADD) {
        if (na && nb && B(s, 24, 8) == 255) /* -RZ - b: neg (see DADD) */
            emit(L, "neg.f32 %s, %s", d, b);
        else if (na && nb) { /* (-a) - b: negating the sum instead would flip a NaN result's sign */
            emit(L, "neg.f32 %s, %s", tmp(L, t), a);
            emit(L, "sub%s.f32 %s, %s, %s", md, d, t, b);
        } else if (na)
            emit(L, "sub%s.f32 %s, %s, %s", md, d, b, a);
        else
            emit(L, "%s%s.f32 %s, %s, %s", nb ? "sub" : "add", md, d, a, b);
        return 0;
    }
    /* FFMA */
    if (s->form == 2)
        snprintf(c, 16, "0f%08X", B(s, 32, 32));
    else if (opd_c(L, c, 4, NULL))
        return -1;
    if (!strcmp(c, "0"))
        snprintf(c, 16, "0f00000000");
    /* bit 75 negates the operand in 64..71: Rc in forms 1, 4, 5, 6 but the
       multiplier B in forms 2, 3 and 7, where B sits there (lbm's
       fmaf(-1.5f, usq, 1.0f) is FFMA R32, R16, R21, 0x3f800000 with bit 75
       and R21 = 1.5; kernel f_negb) */
    int negc = (int)B(s, 75, 1);
    if (s->form == 2 || s->form == 3 || s->form == 7) {
        if (nb)
            return unsupported(L, "FFMA negation in form %u", s->form);
        nb = negc;
        negc = 0;
    }
    if (na != nb) {
        emit(L, "neg.f32 %s, %s", tmp(L, t), a);
        snprintf(a, 16, "%s", t);
    }
    if (negc) {
        char t2[16];
        emit(L, "neg.f32 %s, %s", tmp(L, t2), c);
        snprintf(c, 16, "%s", t2);
    }
    emit(L, "fma%s.f32 %s, %s, %s, %s", md, d, a, b, c);
    return 0;
}

/* A register pair as an f64 in the .b64 scratch register x ("%xN"), or an
 * immediate's high word (the low word is 0) as 0dHHHHHHHH00000000. */
static int d64(struct lower *L, unsigned r, const char *x, char *o)
{
    if (r == 255) {
        snprintf(o, 24, "0d0000000000000000");
        return 0;
    }
    if (r >= 254)
        return unsupported(L, "f64 register pair R%u", r);
    emit(L, "mov.b64 %s, {%%r%u, %%r%u}", x, r, r + 1);
    snprintf(o, 24, "%s", x);
    return 0;
}

static void dneg(struct lower *L, char *o, const char *x, int neg)
{
    if (!neg)
        return;
    emit(L, "neg.f64 %s, %s", x, o);
    snprintf(o, 24, "%s", x);
}

/* DADD / DMUL / DFMA (0x029, 0x028, 0x02b): the f32 instructions' fields on
 * register pairs, rounding 78..79, 72 -a, 75 -(the operand in 64..71), 63
 * -(the operand in 32..63); DADD keeps its second operand in 64..71 (form
 * 1) or a constant (form 3), DMUL in 32..39 (1), an immediate's high word
 * (4) or a constant (5), DFMA as FFMA (1, 2, 5).  DSETP (0x02a): FSETP's
 * fields, B in 32..39 (1), an immediate (2) or a constant (3).  F2F (0x110)
 * F64 -> F32 (hi 0x301000) and F32 -> F64 (0x201800), rounding 78..79.
 * ptxas on {add,sub,mul,fma}.RND.f64, setp.CMP.f64 with abs / neg, cvt
 * between f32 and f64, one at a time; kernel d_ops. */
static int l_dfp(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const rnd[] = { ".rn", ".rm", ".rp", ".rz" };
    char a[24], b[24], c[24];
    unsigned op = s->op, f = s->form, rd = B(s, 16, 8);
    if (op == FE_SASS_F2F) {
        uint64_t v = s->hi & ((1ull << 41) - 1) & ~0xc000ull;
        if (f != 1 || B(s, 24, 8) || B(s, 40, 24) || (v != 0x301000 && v != 0x201800))
            return unsupported(L, "F2F other than F64<->F32 in a register");
        unsigned rb = B(s, 32, 8);
        if (v == 0x301000) { /* F64 -> F32 */
            if (d64(L, rb, "%x1", b))
                return -1;
            rdst(L, c, rd);
            emit(L, "cvt%s.f32.f64 %s, %s", rnd[B(s, 78, 2)], c, b);
        } else {
            if (B(s, 78, 2))
                return unsupported(L, "F2F.F64.F32 with a rounding mode");
            if (rd != 255 && rd >= 254)
                return unsupported(L, "f64 register pair R%u", rd);
            rsrc(L, b, rb);
            emit(L, "cvt.f64.f32 %%x0, %s", !strcmp(b, "0") ? "0f00000000" : b);
            if (rd != 255)
                emit(L, "mov.b64 {%%r%u, %%r%u}, %%x0", rd, rd + 1);
        }
        return 0;
    }
    int setp = op == FE_SASS_DSETP;
    /* DMUL's 72 (-a) has not been seen (ptxas negates the product with
       DADD -RZ, -R instead): refused, as FMUL's */
    uint64_t care = setp ? 0x07fe0c00ull | 0xf000 | 0x300 : (op != FE_SASS_DMUL ? 0x100 | 0x800 : 0) | 0xc000 |
                                                               (op == FE_SASS_DFMA || (op == FE_SASS_DADD && f == 1) ? 0xff : 0);
    if (need_hi(L, care, 0))
        return -1;
    if (d64(L, B(s, 24, 8), "%x0", a))
        return -1;
    int nega = (int)B(s, 72, 1) && !setp;
    if (op != FE_SASS_DADD) /* DADD folds its negations into sub (NaN signs as the PTX path's sub.f64) */
        dneg(L, a, "%x0", nega);
    int negb = 0, negc = 0;
    /* the second operand */
    int bhi = (op == FE_SASS_DADD && f == 1) || (op == FE_SASS_DFMA && f == 2);
    if (bhi) {
        if (B(s, 32, 32) && !(op == FE_SASS_DFMA && f == 2))
            return unsupported(L, "DADD form 1 with bits 32..63 set");
        if (d64(L, B(s, 64, 8), "%x1", b))
            return -1;
        negb = (int)B(s, 75, 1);
    } else if (f == 1) {
        if (B(s, 40, 22) || (setp ? 0 : B(s, 62, 1)))
            return unsupported(L, "bits 40..62 set in a register operand form");
        if (d64(L, B(s, 32, 8), "%x1", b))
            return -1;
        if (setp && B(s, 62, 1))
            emit(L, "abs.f64 %%x1, %s", b), snprintf(b, 24, "%%x1");
        negb = (int)B(s, 63, 1);
    } else if ((op == FE_SASS_DMUL && f == 4) || (setp && f == 2)) {
        snprintf(b, 24, "0d%08X00000000", B(s, 32, 32));
    } else if ((op == FE_SASS_DADD && f == 3) || ((op == FE_SASS_DMUL || op == FE_SASS_DFMA) && f == 5) || (setp && f == 3)) {
        if (B(s, 59, 4) || (op == FE_SASS_DFMA ? 0 : B(s, 64, 8)))
            return unsupported(L, "constant operand bits");
        negb = (int)B(s, 63, 1);
        if (cload(L, B(s, 54, 5), B(s, 38, 16), 8, b))
            return -1;
    } else
        return unsupported(L, "f64 operand form %u", f);
    if (op == FE_SASS_DFMA) {
        if (f == 2)
            snprintf(c, 24, "0d%08X00000000", B(s, 32, 32));
        else {
            if (d64(L, B(s, 64, 8), "%x2", c))
                return -1;
            negc = (int)B(s, 75, 1);
        }
    }
    if (op == FE_SASS_DADD) {
        const char *r = rnd[B(s, 78, 2)];
        if (nega && negb && B(s, 24, 8) == 255) {
            /* -RZ - b: ptxas's neg.f64 (equal for every non-NaN b; a NaN
               keeps the sign flip neg gives, as on the PTX path; kernel d_neg) */
            emit(L, "neg.f64 %%x0, %s", b);
        } else if (nega && negb) {
            dneg(L, a, "%x0", 1);
            emit(L, "sub%s.f64 %%x0, %s, %s", r, a, b);
        } else if (nega)
            emit(L, "sub%s.f64 %%x0, %s, %s", r, b, a);
        else
            emit(L, "%s%s.f64 %%x0, %s, %s", negb ? "sub" : "add", r, a, b);
        if (rd != 255 && rd >= 254)
            return unsupported(L, "f64 register pair R%u", rd);
        if (rd != 255)
            emit(L, "mov.b64 {%%r%u, %%r%u}, %%x0", rd, rd + 1);
        return 0;
    }
    dneg(L, b, "%x1", negb);
    if (negc)
        dneg(L, c, "%x2", 1);
    if (setp) {
        static const char *const fcmp[] = { NULL, "lt", "eq", "le", "gt", "ne", "ge", "num", "nan", "ltu", "equ", "leu",
                                            "gtu", "neu", "geu", NULL };
        static const char *const bop[] = { "and", "or", "xor", NULL };
        char pu[16], pv[16], pp[20];
        const char *cmp = fcmp[B(s, 76, 4)], *bo = bop[B(s, 74, 2)];
        if (!cmp || !bo)
            return unsupported(L, "comparison or boolean operation outside the subset");
        if (B(s, 73, 1))
            emit(L, "abs.f64 %%x0, %s", a), snprintf(a, 24, "%%x0");
        if (B(s, 72, 1))
            emit(L, "neg.f64 %%x0, %s", a), snprintf(a, 24, "%%x0");
        pdst(L, pu, B(s, 81, 3));
        pdst(L, pv, B(s, 84, 3));
        psrc(L, pp, B(s, 87, 3), B(s, 90, 1));
        emit(L, "setp.%s.f64.%s %s|%s, %s, %s, %s", cmp, bo, pu, pv, a, b, pp);
        return 0;
    }
    if (op == FE_SASS_DFMA)
        emit(L, "fma%s.f64 %%x0, %s, %s, %s", rnd[B(s, 78, 2)], a, b, c);
    else
        emit(L, "%s%s.f64 %%x0, %s, %s", op == FE_SASS_DADD ? "add" : "mul", rnd[B(s, 78, 2)], a, b);
    if (rd == 255)
        return 0;
    if (rd >= 254)
        return unsupported(L, "f64 register pair R%u", rd);
    emit(L, "mov.b64 {%%r%u, %%r%u}, %%x0", rd, rd + 1);
    return 0;
}

/* One half-precision pair operand already in src (a register, a constant
 * read) with swizzle sw (0 both halves as they are, 2 H0_H0, 3 H1_H1; 1 is
 * the .F32 form's) and negation, into a .b32 value written to o; bf: a
 * bf16 pair, whose negation flips the sign bits as the operand negation
 * does (f16: neg.f16x2). */
static int hpair_str(struct lower *L, const char *src, unsigned sw, unsigned neg, int bf, char *o)
{
    char t[16];
    if (sw == 1)
        return unsupported(L, "half-precision operand swizzle 1");
    if (!sw && !neg) {
        snprintf(o, 16, "%s", src);
        return 0;
    }
    tmp(L, t);
    if (sw)
        emit(L, "prmt.b32 %s, %s, 0, 0x%s", t, src, sw == 2 ? "1010" : "3232");
    else
        emit(L, "mov.b32 %s, %s", t, src);
    if (neg && bf)
        emit(L, "xor.b32 %s, %s, 0x80008000", t, t);
    else if (neg)
        emit(L, "neg.f16x2 %s, %s", t, t);
    snprintf(o, 16, "%s", t);
    return 0;
}

/* hpair_str of register r. */
static int hpair_of(struct lower *L, unsigned r, unsigned sw, unsigned neg, int bf, char *o)
{
    char src[16];
    rsrc(L, src, r);
    return hpair_str(L, src, sw, neg, bf, o);
}

/* The constant pair of a half-precision instruction's form 3 / 5 (bank
 * 54..58, offset 38..53, 32..37 clear) with its swizzle 60..61 and
 * negation 63 (62 clear), into o. */
static int hconst(struct lower *L, int bf, char *o)
{
    const struct fe_sass_insn *s = L->s;
    char v[16];
    if (B(s, 32, 6) || B(s, 62, 1))
        return unsupported(L, "half-precision constant operand bits");
    if (cload(L, B(s, 54, 5), B(s, 38, 16), 4, v))
        return -1;
    return hpair_str(L, v, B(s, 60, 2), B(s, 63, 1), bf, o);
}

/* HADD2 / HMUL2 (0x030, 0x032) Rd, Ra.sw, Rb.sw: f16x2 arithmetic, A's
 * swizzle 74..75 and negation 72, B's 60..61 and 63 (register form only),
 * .FTZ 80; .F32 (78) only as ptxas's f16 -> f32 conversion HADD2.F32 Rd,
 * -RZ, Rb.Hx_Hx (cvt.f32.f16).  HFMA2 (0x031) Rd, Ra, Rb, Rc without
 * swizzles.  F2FP.PACK_AB (0x03e) Rd, Ra, Rb: cvt.rn.f16x2.f32 (Ra to the
 * high half).  ptxas on {add,sub,mul,fma}.f16x2, add.f16 of halves, cvt
 * between f16 and f32, one at a time; kernel h_ops. */
static int l_half(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], c[16], d[16];
    rdst(L, d, B(s, 16, 8));
    if (s->op == FE_SASS_F2FP) {
        if (need_hi(L, 0, 0xff) || s->form != 1 || B(s, 40, 24))
            return L->rc ? -1 : unsupported(L, "F2FP operand bits");
        rsrc(L, a, B(s, 24, 8));
        rsrc(L, b, B(s, 32, 8));
        emit(L, "cvt.rn.f16x2.f32 %s, %s, %s", d, !strcmp(a, "0") ? "0f00000000" : a, !strcmp(b, "0") ? "0f00000000" : b);
        return 0;
    }
    if (s->op == FE_SASS_HFMA2 || s->op == FE_SASS_HFMA2_MMA) {
        /* HFMA2{.MMA}{.BF16_V2} Rd, Ra.sw, Rb.sw | imm, Rc.sw: A's swizzle
           74..75 and negation 72, B's 60..61 and 63 (form 1) or the pair
           as an immediate in 32..63 (form 4), C (64..71) its swizzle 81..82
           and negation 84, 85 bf16 pairs (ptxas on fma.rn.{f16,bf16}{x2}
           of halves, negated halves and constants; cuda_bf16.h's x + x is
           fma(x, 1.0, x)) */
        int bf = B(s, 85, 1), f = s->form;
        if ((f != 1 && f != 3 && f != 4 && f != 5) || (f == 1 && (B(s, 40, 20) || B(s, 62, 1))) ||
            (f == 3 && (B(s, 81, 2) || B(s, 84, 1))) ||
            need_hi(L, 0xff | 1u << 8 | 3u << 10 | 3u << 17 | 1u << 20 | 1u << 21, 0))
            return L->rc ? -1 : unsupported(L, "HFMA2 form %u", s->form);
        if (hpair_of(L, B(s, 24, 8), B(s, 74, 2), B(s, 72, 1), bf, a))
            return -1;
        if (f == 3) { /* C the constant, B the register in 64..71 (its swizzle and negation not seen: clear) */
            if (hconst(L, bf, c) || hpair_of(L, B(s, 64, 8), 0, 0, bf, b))
                return -1;
        } else if (hpair_of(L, B(s, 64, 8), B(s, 81, 2), B(s, 84, 1), bf, c)) {
            return -1;
        } else if (f == 4) {
            snprintf(b, sizeof b, "0x%08x", B(s, 32, 32));
        } else if (f == 5 ? hconst(L, bf, b) : hpair_of(L, B(s, 32, 8), B(s, 60, 2), B(s, 63, 1), bf, b)) {
            return -1;
        }
        emit(L, "fma.rn.%s %s, %s, %s, %s", bf ? "bf16x2" : "f16x2", d, a, b, c);
        return 0;
    }
    /* HADD2 form 3 / HMUL2 form 5: B a constant pair (ptxas on __hadd2, __hsub2 and __hmul2 of a parameter) */
    int cb = (s->op == FE_SASS_HADD2 && s->form == 3) || (s->op == FE_SASS_HMUL2 && s->form == 5);
    if (!cb && (s->form != 1 || B(s, 40, 20) || B(s, 62, 1)))
        return unsupported(L, "half-precision operand form %u", s->form);
    if (need_hi(L, 0x100 | 0xc00 | 0x4000 | 0x10000, 0))
        return -1;
    if (B(s, 78, 1)) { /* .F32: only the conversion idiom */
        if (s->op != FE_SASS_HADD2 || cb || B(s, 24, 8) != 255 || !B(s, 72, 1) || B(s, 63, 1) || B(s, 74, 2) || B(s, 80, 1) ||
            B(s, 60, 2) < 2)
            return unsupported(L, "HADD2.F32 other than -RZ + Rb.H0_H0 / .H1_H1");
        char t[16];
        rsrc(L, b, B(s, 32, 8));
        emit(L, "mov.b32 {%%h0, %%h1}, %s", !strcmp(b, "0") ? "%zero" : b);
        emit(L, "cvt.f32.f16 %s, %%h%u", tmp(L, t), B(s, 60, 2) == 3);
        emit(L, "mov.b32 %s, %s", d, t);
        return 0;
    }
    if (hpair_of(L, B(s, 24, 8), B(s, 74, 2), B(s, 72, 1), 0, a) ||
        (cb ? hconst(L, 0, b) : hpair_of(L, B(s, 32, 8), B(s, 60, 2), B(s, 63, 1), 0, b)))
        return -1;
    emit(L, "%s.rn%s.f16x2 %s, %s, %s", s->op == FE_SASS_HADD2 ? "add" : "mul", B(s, 80, 1) ? ".ftz" : "", d, a, b);
    return 0;
}

/* HFMA2.MMA Rd, -RZ, RZ, imm: ptxas's way of writing a 32-bit constant on
 * sm_80 ((-0) * 0 + h = h for both halves, -0 included); only that idiom. */
static int l_hfma2(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char d[16];
    if (s->form != 2) /* the fields of HFMA2 (ptxas on sm_80: __hfma2, __hmul2 of a parameter; kernels h_ops, h_const) */
        return l_half(L);
    if (need_hi(L, 0, 0x1ff) || s->form != 2 || B(s, 24, 8) != 255)
        return L->rc ? -1 : unsupported(L, "HFMA2.MMA other than the constant idiom -RZ * RZ + imm");
    rdst(L, d, B(s, 16, 8));
    emit(L, "mov.b32 %s, 0x%08x", d, B(s, 32, 32));
    return 0;
}

static int l_uldc(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char o[16];
    if (need_hi(L, 0xe00, 0) || B(s, 24, 14))
        return L->rc ? -1 : unsupported(L, "ULDC operand bits");
    unsigned sz = B(s, 73, 3), d = B(s, 16, 6);
    if (sz > 5 || B(s, 22, 2) || (sz == 5 && d != 63 && d >= 62))
        return unsupported(L, "ULDC size or destination");
    if (sz < 4 ? cload_narrow(L, B(s, 54, 5), B(s, 38, 16), sz, o) : cload(L, B(s, 54, 5), B(s, 38, 16), sz == 5 ? 8 : 4, o))
        return -1;
    if (d == 63)
        return 0;
    if (sz != 5)
        emit(L, "mov.b32 %%ur%u, %s", d, o);
    else if (!strcmp(o, "0")) {
        emit(L, "mov.b32 %%ur%u, 0", d);
        emit(L, "mov.b32 %%ur%u, 0", d + 1);
    } else
        emit(L, "mov.b64 {%%ur%u, %%ur%u}, %s", d, d + 1, o);
    return 0;
}

/* LDC Rd, c[bank][Ra + off] and ULDC (0x0bb) URd, c[bank][URa + off]: size
 * 73..75 as ULDC (4: 32 bits, 5: 64).  With an index register only bank 3,
 * the __constant__ variables, is mapped: the variable holding off is the
 * base (kmeans' c_centroids[k], mri-q's c_k[i]). */
static int l_ldc(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    int u = s->op == FE_SASS_ULDC_IDX;
    char o[16], d0[16], d1[16], ra[16];
    if (need_hi(L, 0xe00, u ? 1ull << 27 : 0) || s->form != 5 || B(s, 59, 5))
        return L->rc ? -1 : unsupported(L, "LDC operand bits");
    L->uni = u;
    unsigned sz = B(s, 73, 3), d = B(s, 16, 8), a = B(s, 24, 8), bank = B(s, 54, 5), off = B(s, 38, 16);
    /* sizes 0 U8, 1 S8, 2 U16, 3 S16 (cload_narrow), 4 32 bits, 5 64 */
    static const char *const nty[] = { "u8", "s8", "u16", "s16" };
    unsigned width = sz == 5 ? 8 : sz == 4 ? 4 : sz >= 2 ? 2 : 1;
    if (sz > 5 || (u && (d > 63 || a > 63)) || (width == 8 && d != rz(L) && d >= rz(L) - 1))
        return unsupported(L, "LDC size, destination or index");
    rdst(L, d0, d);
    rdst(L, d1, d == rz(L) ? d : d + 1);
    if (a == rz(L)) {
        if (sz < 4 ? cload_narrow(L, bank, off, sz, o) : cload(L, bank, off, width, o))
            return -1;
        if (d == rz(L))
            return 0;
        if (width <= 4)
            emit(L, "mov.b32 %s, %s", d0, o);
        else if (!strcmp(o, "0")) {
            emit(L, "mov.b32 %s, 0", d0);
            emit(L, "mov.b32 %s, 0", d1);
        }
        else
            emit(L, "mov.b64 {%s, %s}, %s", d0, d1, o);
        return 0;
    }
    if (bank == 4 || bank == 2) {
        /* bank 4 with an index (LDC.64 R2, c[0x4][R0+0x0] with R0 = 0 before
           a CALL.ABS): the array __sass_bank4 holds bank 4's slots,
           relocated; bank 2 (a table of function pointers ptxas moved
           there, LDC.64 R6, c[0x2][R0+0x0] in kernel x_fptr): the array
           __sass_bank2_K its bytes (fe_sass_lower_text) */
        if (bank == 4 && (!L->c->cbank4 || L->c->cbank4_size % 8 || width < 4))
            return unsupported(L, "indexed constant bank 4 of %u bytes, read %u bytes at a time",
                               L->c->cbank4 ? L->c->cbank4_size : 0, width);
        if (bank == 2 && (!L->k->cbank2 || width < 4))
            return unsupported(L, "indexed constant bank 2 of %u bytes, read %u bytes at a time",
                               L->k->cbank2 ? L->k->cbank2_size : 0, width);
        rsrc(L, ra, a);
        if (bank == 4)
            emit(L, "mov.u64 %%x1, __sass_bank4");
        else
            emit(L, "mov.u64 %%x1, __sass_bank2_%u", L->kidx);
        emit(L, "cvt.u64.u32 %%x2, %s", ra);
        emit(L, "add.u64 %%x1, %%x1, %%x2");
        if (width == 4)
            emit(L, "ld.const.b32 %s, [%%x1%+d]", d0, (int16_t)off);
        else
            emit(L, "ld.const.v2.b32 {%s, %s}, [%%x1%+d]", d0, d1, (int16_t)off);
        return 0;
    }
    if (bank != 3)
        return unsupported(L, "indexed constant bank %u (only banks 2, 3 and 4 are mapped)", bank);
    /* the offset is signed with an index (LDC R9, c[0x3][R11-0x4] in lib):
       the base is the variable holding it, or the only variable of the bank */
    int32_t soff = (int16_t)off;
    const struct fe_cubin_const *v = soff >= 0 ? const_at(L, (uint32_t)soff, width) : NULL;
    if (!v && L->c->nconsts == 1)
        v = &L->c->consts[0];
    if (!v)
        return unsupported(L, "c[0x3][%d] with an index is not inside one __constant__ variable", soff);
    rsrc(L, ra, a);
    emit(L, "mov.u64 %%x1, %s", v->name);
    emit(L, "cvt.u64.u32 %%x2, %s", ra);
    emit(L, "add.u64 %%x1, %%x1, %%x2");
    if (sz < 4)
        emit(L, "ld.const.%s %s, [%%x1%+d]", nty[sz], d0, soff - (int32_t)v->offset);
    else if (width == 4)
        emit(L, "ld.const.b32 %s, [%%x1%+d]", d0, soff - (int32_t)v->offset);
    else
        emit(L, "ld.const.v2.b32 {%s, %s}, [%%x1%+d]", d0, d1, soff - (int32_t)v->offset);
    return 0;
}

/* ATOMS Rd, [Ra.scale + off], Rb (0x18c): op 87..90 (0 ADD, 1 MIN, 2 MAX, 3
 * INC, 4 DEC, 5 AND, 6 OR, 7 XOR, 8 EXCH: ptxas on atom.shared.OP, one at a
 * time), 73 signed, 78..79 address scale as LDS; form 7 with op 10 and no
 * data register is POPC.INC, ptxas's atomicAdd(p, 1) with the result
 * unused: one increment per active lane.  RED.E.ADD [Ra.64 + off], Rb
 * (0x18e): the one form seen (global, 73..74: 0 U32, 3 F32). */
static int l_atom(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const aop[] = { "add.u32", "min", "max", "inc.u32", "dec.u32", "and.b32", "or.b32", "xor.b32", "exch.b32" };
    static const unsigned scale[] = { 1, 4, 8, 16 };
    char d[16], a[16], b[16], t[16], op[16];
    int32_t off = (int32_t)(B(s, 40, 24) << 8) / 256;
    unsigned ra = B(s, 24, 8);
    if (s->op == FE_SASS_RED) {
        if (need_hi(L, 0xff | 0x600, 0x000c10e100) || s->form != 4 || B(s, 16, 8))
            return L->rc ? -1 : unsupported(L, "RED form");
        /* type 73..74: 0 U32, 2 U64 (Rb:Rb+1, low word first; ptxas on
           red.global.add.u64, kernel a_red64), 3 F32 */
        unsigned ty = B(s, 73, 2), rb = B(s, 32, 8);
        if (ty == 1)
            return unsupported(L, "RED type %u", ty);
        if (ra >= 254)
            return unsupported(L, "RED address register R%u", ra);
        emit(L, "mov.b64 %%x0, {%%r%u, %%r%u}", ra, ra + 1);
        if (ty == 2) {
            if (rb != 255 && (rb & 1))
                return unsupported(L, "RED.64 data register R%u (not an even pair)", rb);
            if (rb == 255)
                emit(L, "mov.b64 %%x1, 0");
            else
                emit(L, "mov.b64 %%x1, {%%r%u, %%r%u}", rb, rb + 1);
            emit(L, "red.global.add.u64 [%%x0%+d], %%x1", off);
            return 0;
        }
        rsrc(L, b, rb);
        emit(L, "red.global.add.%s [%%x0%+d], %s", ty ? "f32" : "u32", off, !strcmp(b, "0") && ty ? "0f00000000" : b);
        return 0;
    }
    unsigned o = B(s, 87, 4), sg = B(s, 73, 1);
    unsigned ur = 63;
    if (s->form == 7) { /* POPC.INC */
        /* 64..71: a UR added to the address, unscaled (URZ: none); ptxas on
           atomicAdd(&h[q & 3][v], 1) with h a [4][256] shared array puts
           (q << 10) & 0xc00 in UR4 and v in R2: [R2.X4+UR4] (kernel
           a_popc_ur; CUB's histogram has [R30.X4+UR24]) */
        ur = B(s, 64, 8);
        if (need_hi(L, 0xc000 | 0xff, 0x0d000000) || B(s, 16, 8) != 255 || B(s, 32, 8) || ur > 63)
            return L->rc ? -1 : unsupported(L, "ATOMS form 7 other than POPC.INC RZ");
        snprintf(op, sizeof op, "add.u32");
        snprintf(b, sizeof b, "1");
    } else {
        if (need_hi(L, 0x200 | 0xc000 | 0x07800000, 0) || s->form != 1)
            return L->rc ? -1 : unsupported(L, "ATOMS form");
        if (o > 8 || (sg && o != 1 && o != 2))
            return unsupported(L, "ATOMS operation %u%s", o, sg ? " (signed)" : "");
        snprintf(op, sizeof op, "%s", o == 1 || o == 2 ? (sg ? (o == 1 ? "min.s32" : "max.s32") : (o == 1 ? "min.u32" : "max.u32")) : aop[o]);
        rsrc(L, b, B(s, 32, 8));
    }
    rsrc(L, a, ra);
    rdst(L, d, B(s, 16, 8));
    if (ra == 255)
        emit(L, "mov.b32 %s, %%sb", tmp(L, t));
    else
        emit(L, "mad.lo.u32 %s, %s, %u, %%sb", tmp(L, t), a, scale[B(s, 78, 2)]);
    if (ur != 63)
        emit(L, "add.u32 %s, %s, %%ur%u", t, t, ur);
    emit(L, "atom.shared.%s %s, [%s%+d], %s", op, d, t, off, b);
    return 0;
}

/* LDG / STG / LDS / STS: size code 0 U8, 1 S8, 2 U16, 3 S16, 4 32, 5 64, 6 128. */
static int l_mem(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const ty[] = { "u8", "s8", "u16", "s16", "b32", "b32", "b32" };
    static const unsigned nvec[] = { 1, 1, 1, 1, 1, 2, 4 };
    /* LD / ST (0x180, 0x185): generic addresses, the LDG / STG fields
       (ptxas on ld / st without a state space, each size and volatile) */
    int generic = s->op == FE_SASS_LD || s->op == FE_SASS_ST;
    int global = s->op == FE_SASS_LDG || s->op == FE_SASS_STG || generic;
    int local = s->op == FE_SASS_LDL || s->op == FE_SASS_STL;
    int load = s->op == FE_SASS_LDG || s->op == FE_SASS_LDS || s->op == FE_SASS_LDL || s->op == FE_SASS_LD;
    /* LDL 85: .LU, set by ptxas on the last reload of a spill slot (the
       slot is stored again, or never read, after it; a kernel spilling
       under -maxrregcount 16 and __launch_bounds__, kernel m_spill): a
       cache hint, the same load */
    uint64_t care = 0xe00 | (global || local ? 0 : 0xc000) | (s->op == FE_SASS_STG || s->op == FE_SASS_ST ? 0xff : 0) |
                    (s->op == FE_SASS_LDL ? 0x200000 : 0);
    /* LDL / STL: the LDS / STS fields, bit 84 set, a 32-bit local address */
    uint64_t fixed = s->op == FE_SASS_LDG ? 0x0c1e1100 : s->op == FE_SASS_STG || generic ? 0x0c101100 : local ? 0x100000 : 0;
    /* LDS with bit 91: a UR (32..37) added to the address (LDS.128 R4,
       [UR4] in mri-gri's loop over a shared array; kernel m_lds_ur) */
    unsigned ur = s->op == FE_SASS_LDS && B(s, 91, 1) ? B(s, 32, 8) : 0;
    if (ur)
        fixed |= 1ull << 27;
    if (ur > 63 || (ur && B(s, 24, 8) != 255 && B(s, 78, 2)))
        return unsupported(L, "LDS with a UR and a scaled register");
    /* LDG / STG cache and ordering variants: the hi bits other than the
       UR descriptor, size and .E, compared with what ptxas emits for
       __ldg (.nc), volatile, __ldcs / __stcs (.cs), __ldlu (.lu), __ldcv
       (the volatile word), __ldca (.ca), __stwt (the volatile word); each
       becomes the PTX qualifier it came from, the same access on the
       emulator (kernel m_hints) */
    const char *cop = "";
    if (global) {
        static const struct { int st; uint64_t bits; const char *q; } hint[] = {
            { 0, 0x0c1e9100, ".nc" }, { 0, 0x0c1f5100, ".volatile" }, { 0, 0x0c0e1100, ".cs" }, { 0, 0x0c3e1100, ".lu" },
            { 0, 0x0c1eb100, ".ca" }, { 1, 0x0c115100, ".volatile" }, { 1, 0x0c001100, ".cs" },
            { 2, 0x0c115100, ".volatile" }, { 3, 0x0c115100, ".volatile" },
            /* bits 77..80, the memory order: 7 .relaxed.gpu, 5 .relaxed.cta
               (10, .relaxed.sys, is the volatile word; LDG's .relaxed.cta is
               __ldca's word, kept as .ca); acquire / release add a CCTL.IVALL
               after / MEMBAR before (ptxas on ld / st / ld.global /
               st.global .relaxed.{cta,gpu,sys}, .acquire, .release; kernel
               m_strong) */
            { 0, 0x0c1ef100, ".relaxed.gpu" }, { 1, 0x0c10f100, ".relaxed.gpu" }, { 1, 0x0c10b100, ".relaxed.cta" },
            { 2, 0x0c10f100, ".relaxed.gpu" }, { 2, 0x0c10b100, ".relaxed.cta" },
            { 3, 0x0c10f100, ".relaxed.gpu" }, { 3, 0x0c10b100, ".relaxed.cta" },
        };
        uint64_t v = s->hi & ((1ull << 41) - 1) & ~care;
        for (size_t i = 0; i < sizeof hint / sizeof hint[0]; i++)
            if (hint[i].st == 2 * generic + !load && v == hint[i].bits) {
                cop = hint[i].q;
                fixed = v;
            }
    }
    if (need_hi(L, care, fixed))
        return -1;
    unsigned expect_form = s->op == FE_SASS_STS || s->op == FE_SASS_STL ? 1 : 4;
    if (s->form != expect_form)
        return unsupported(L, "memory operand form %u", s->form);
    unsigned sz = B(s, 73, 3);
    if (sz > 6)
        return unsupported(L, "access size code %u", sz);
    int32_t off = (int32_t)(B(s, 40, 24) << 8) / 256;
    unsigned ra = B(s, 24, 8), r = load ? B(s, 16, 8) : B(s, 32, 8);
    if (!global && !load && B(s, 16, 8))
        return unsupported(L, "STS with bits 16..23 set");
    if (!global && load && B(s, 32, 8) && !B(s, 91, 1))
        return unsupported(L, "LDS with bits 32..39 set");
    if (r != 255 && r + nvec[sz] > 255)
        return unsupported(L, "register group R%u..R%u", r, r + nvec[sz] - 1);
    if (nvec[sz] > 1 && r != 255 && r % nvec[sz])
        return unsupported(L, "misaligned register group R%u", r);
    char addr[48], data[80], t[16];
    if (global) {
        if (ra != 255 && ra >= 254)
            return unsupported(L, "address register pair R%u", ra);
        if (ra == 255)
            emit(L, "mov.b64 %%x0, 0");
        else
            emit(L, "mov.b64 %%x0, {%%r%u, %%r%u}", ra, ra + 1);
        snprintf(addr, sizeof addr, "[%%x0%+d]", off);
    } else if (local) {
        if (ra == 255)
            return unsupported(L, "local access without an address register");
        snprintf(addr, sizeof addr, "[%%r%u%+d]", ra, off);
    } else {
        static const unsigned scale[] = { 1, 4, 8, 16 };
        char a[16];
        rsrc(L, a, ra);
        tmp(L, t);
        if (ra == 255)
            emit(L, "mov.b32 %s, %%sb", t);
        else
            emit(L, "mad.lo.u32 %s, %s, %u, %%sb", t, a, scale[B(s, 78, 2)]);
        if (ur && ur != 63)
            emit(L, "add.u32 %s, %s, %%ur%u", t, t, ur);
        snprintf(addr, sizeof addr, "[%s%+d]", t, off);
    }
    if (nvec[sz] == 1)
        load ? rdst(L, data, r) : rvec(L, data, r);
    else {
        char e[4][16];
        for (unsigned i = 0; i < nvec[sz]; i++)
            load ? rdst(L, e[i], r == 255 ? 255 : r + i) : rvec(L, e[i], r == 255 ? 255 : r + i);
        braced(data, sizeof data, (const char (*)[16])e, nvec[sz]);
    }
    const char *sp = generic ? "" : global ? ".global" : local ? ".local" : ".shared";
    const char *v = nvec[sz] == 2 ? ".v2" : nvec[sz] == 4 ? ".v4" : "";
    /* .volatile and .relaxed.SCOPE come before the state space, cache
       operators after it */
    int sem = !strcmp(cop, ".volatile") || !strncmp(cop, ".relaxed", 8);
    if (load)
        emit(L, "ld%s%s%s%s.%s %s, %s", sem ? cop : "", sp, sem ? "" : cop, v, ty[sz], data, addr);
    else
        emit(L, "st%s%s%s%s.%s %s, %s", sem ? cop : "", sp, sem ? "" : cop, v, sz < 4 ? (sz < 2 ? "u8" : "u16") : ty[sz],
             addr, data);
    return 0;
}

/* LDGSTS (0x1ae) [Rd + soff], [Ra.64 + goff], Pp: cp.async of 4, 8 or 16
 * bytes (size 73..75 as LDG: 4, 5, 6) from global to shared.  Rd is a
 * shared offset as in STS, soff 44..63 and goff 32..43 signed; 81 .ca (clear:
 * .cg, BYPASS), 72 the L2::128B prefetch; Pp (87..90) false reads nothing
 * and fills zeros (ignore-src); 82 ZFILL: the low bits of the global address
 * are the number of bytes at the end to fill with zeros, the copy reads the
 * rest from the aligned address (ptxas writes src-size n as the address
 * plus (size - n) mod size, and Pp = n != 0).  ptxas on cp.async with
 * offsets, constant and register src-sizes, ignore-src (docs/sass.md). */
static int l_ldgsts(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    /* care: UR descriptor 64..69, 72 L2::128B, 73..75 size, 81 .ca, 82 ZFILL, 87..90 Pp */
    if (need_hi(L, 0x3f | 0x100 | 0xe00 | 0x20000 | 0x40000 | 0x07800000, 0x0b901040) || s->form != 7)
        return L->rc ? -1 : unsupported(L, "LDGSTS form");
    unsigned sz = B(s, 73, 3), ra = B(s, 24, 8), rd = B(s, 16, 8), pp = B(s, 87, 3), ppn = B(s, 90, 1);
    if (sz < 4 || sz > 6)
        return unsupported(L, "LDGSTS size code %u", sz);
    if (ra >= 254)
        return unsupported(L, "LDGSTS address register pair R%u", ra);
    unsigned n = sz == 4 ? 4 : sz == 5 ? 8 : 16;
    int32_t soff = (int32_t)(B(s, 44, 20) << 12) / 4096, goff = (int32_t)(B(s, 32, 12) << 20) / (1 << 20);
    const char *cop = B(s, 81, 1) ? "ca" : "cg", *pf = B(s, 72, 1) ? ".L2::128B" : "";
    char sa[16], t[16], src[40] = "", pr[20];
    if (rd == 255)
        emit(L, "mov.b32 %s, %%sb", tmp(L, sa));
    else
        emit(L, "add.u32 %s, %%r%u, %%sb", tmp(L, sa), rd);
    emit(L, "mov.b64 %%x0, {%%r%u, %%r%u}", ra, ra + 1);
    if (B(s, 82, 1)) {
        /* ZFILL: src-size = n - (address mod n), from the aligned address; 0 when !Pp */
        emit(L, "add.u64 %%x0, %%x0, %d", goff);
        emit(L, "cvt.u32.u64 %s, %%x0", tmp(L, t));
        emit(L, "and.b32 %s, %s, %u", t, t, n - 1);
        emit(L, "sub.u32 %s, %u, %s", t, n, t);
        if (pp != 7 || ppn) {
            psrc(L, pr, pp, ppn);
            emit(L, "selp.u32 %s, %s, 0, %s", t, t, pr);
        }
        emit(L, "and.b64 %%x0, %%x0, %d", -(int)n);
        goff = 0;
        snprintf(src, sizeof src, ", %s", t);
    } else if (pp != 7 || ppn) {
        /* ignore-src is the negation of Pp */
        psrc(L, pr, pp, 0);
        emit(L, "%s.pred %%pr, %s", ppn ? "mov" : "not", pr);
        snprintf(src, sizeof src, ", %%pr");
    }
    emit(L, "cp.async.%s.shared.global%s [%s%+d], [%%x0%+d], %u%s", cop, pf, sa, soff, goff, n, src);
    return 0;
}

/* LDGDEPBAR (0x1af): closes the group of the LDGSTS before it
 * (cp.async.commit_group); DEPBAR.LE SB0, N (0x11a): waits until at most N
 * groups are pending (cp.async.wait_group N; ptxas on wait_group 0, 1, 3,
 * 7, 63 and wait_all).  N 38..43, the scoreboard 44..46, 47 .LE; the other
 * scoreboards to drain in 32..37 (below). */
static int l_depbar(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    if (need_hi(L, 0, 0) || s->form != 4 || B(s, 16, 16))
        return L->rc ? -1 : unsupported(L, "LDGDEPBAR / DEPBAR form");
    if (s->op == FE_SASS_LDGDEPBAR) {
        if (B(s, 32, 32))
            return unsupported(L, "LDGDEPBAR operand bits");
        emit(L, "cp.async.commit_group");
        return 0;
    }
    /* 32..37: more scoreboards to drain, a mask (bit k: SBk); 44..46 the
       counted one.  libcu++'s pipeline code has DEPBAR.LE SB0, 0x0, {0x2}
       right after R2UR UR6, R10 with write scoreboard 1, and DEPBAR.LE SB1,
       0x0, {0x4} after an R2UR with write scoreboard 2 and read scoreboard 1:
       register scoreboards, which the emulator never needs (an instruction's
       results exist when it has run).  SB0 is the one LDGDEPBAR counts on
       (m_cpasync), so a wait on it stays cp.async.wait_group N; a list naming
       SB0 is refused.  A count on SBn, n != 0, waits for the variable-latency
       instructions that set it (ptxas counts its TEX on SB5: `DEPBAR.LE SB5,
       0x8` in kernel x_texa): every instruction completes at issue here but
       cp.async, so it is nothing to run in a kernel without LDGSTS */
    if ((B(s, 32, 6) & 1) || B(s, 44, 3) > 5 || !B(s, 47, 1) || B(s, 48, 16))
        return unsupported(L, "DEPBAR other than .LE SBk, N {SB1..SB5}");
    if (B(s, 44, 3) == 0) {
        emit(L, "cp.async.wait_group %u", B(s, 38, 6));
        return 0;
    }
    for (uint32_t a = 0; !B(s, 32, 6) && a < L->k->text_size; a += 16) {
        struct fe_sass_insn w;
        if (!fe_sass_decode(L->k->text + a, a, L->k->name, &w, NULL, 0) && w.op == FE_SASS_LDGSTS)
            return unsupported(L, "DEPBAR on scoreboard %u in a kernel with LDGSTS", B(s, 44, 3));
    }
    return 0;
}

/* LDSM (0x03b, form 4) `.16.M88.N Rd, [Ra + UR + off]`: ldmatrix of N = 1,
 * 2, 4 8x8 matrices of 16-bit elements (72..73: 0, 1, 2), .MT88 the
 * transposed load (78), into Rd..Rd+N-1; the shared address is Ra (a shared
 * offset, RZ: none) plus, with bit 91, the UR in 32..37, plus the signed
 * offset 40..63.  ptxas on `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{,.trans}
 * .shared.b16` with offsets and addresses in registers and a symbol.  The
 * warp-collective exchange is the PTX instruction's. */
static int l_ldsm(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    if (need_hi(L, 0x300 | 0x4000 | 0x8000000, 0) || s->form != 4)
        return L->rc ? -1 : unsupported(L, "LDSM form");
    unsigned n = 1u << B(s, 72, 2), rd = B(s, 16, 8), ra = B(s, 24, 8), ur = B(s, 91, 1) ? B(s, 32, 8) : 63;
    if (n > 4 || (!B(s, 91, 1) && B(s, 32, 8)) || ur > 63)
        return unsupported(L, "LDSM count or UR operand");
    if (rd == 255 || rd + n > 255 || rd % n)
        return unsupported(L, "LDSM register group R%u..R%u", rd, rd + n - 1);
    if (s->guard != 7)
        return unsupported(L, "guarded LDSM (a warp-collective load)");
    int32_t off = (int32_t)(B(s, 40, 24) << 8) / 256;
    char t[16], data[64];
    tmp(L, t);
    if (ra == 255)
        emit(L, "mov.b32 %s, %%sb", t);
    else
        emit(L, "add.u32 %s, %%r%u, %%sb", t, ra);
    if (ur != 63)
        emit(L, "add.u32 %s, %s, %%ur%u", t, t, ur);
    char e[4][16];
    for (unsigned i = 0; i < n; i++)
        snprintf(e[i], sizeof e[i], "%%r%u", rd + i);
    braced(data, sizeof data, (const char (*)[16])e, n);
    emit(L, "ldmatrix.sync.aligned.m8n8.x%u%s.shared.b16 %s, [%s%+d]", n, B(s, 78, 1) ? ".trans" : "", data, t, off);
    return 0;
}

/* MOVM.16.MT88 Rd, Ra (0x03a, form 1, no other bits): ptxas's
 * movmatrix.sync.aligned.m8n8.trans.b16 (ptxas on one movmatrix; wmma's
 * col_major bf16/f16 fragments), lowered to it.  A warp-collective move:
 * a guarded one is refused. */
static int l_movm(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    if (need_hi(L, 0, 0) || s->form != 1 || (s->lo >> 32))
        return L->rc ? -1 : unsupported(L, "MOVM form");
    if (s->guard != 7)
        return unsupported(L, "guarded MOVM (a warp-collective move)");
    unsigned rd = B(s, 16, 8), ra = B(s, 24, 8);
    char a[16];
    snprintf(a, sizeof a, ra == 255 ? "%%zero" : "%%r%u", ra);
    if (rd == 255)
        emit(L, "movmatrix.sync.aligned.m8n8.trans.b16 %%rz, %s", a);
    else
        emit(L, "movmatrix.sync.aligned.m8n8.trans.b16 %%r%u, %s", rd, a);
    return 0;
}

/* A register of a source group as a vector element: RZ (a group at RZ)
 * reads 0. */
static int group_elt(struct lower *L, unsigned r, unsigned i, char *o)
{
    if (r == 255) {
        snprintf(o, 16, "%%zero");
        return 0;
    }
    if (r + i > 254)
        return unsupported(L, "register group R%u..R%u", r, r + i);
    snprintf(o, 16, "%%r%u", r + i);
    return 0;
}

/* "{%rR, %rR+1, ...}" for a fragment of n registers from R (RZ: zeros). */
static int frag(struct lower *L, unsigned r, unsigned n, char *o, size_t len)
{
    char e[4][16]; /* (l_mma's fragments: at most 4 registers) */
    for (unsigned i = 0; i < n && i < 4; i++)
        if (group_elt(L, r, i, e[i]))
            return -1;
    braced(o, len, (const char (*)[16])e, n < 4 ? n : 4);
    return 0;
}

/* A jump that has a guard: the guard becomes a branch around it ("@%pN " or
 * "@!%pN " skips to L<k>_<addr>_b when it fails), so the jump's own
 * predicates stay free; 1 if there was one (guard_skip_end places the label). */
static int guard_skip(struct lower *L)
{
    char g[16];
    snprintf(g, sizeof g, "%s", L->guard);
    if (!g[0])
        return 0;
    L->guard[0] = 0; /* (emit() puts the guard on what it writes) */
    emit(L, "@%s%s bra L%u_%04x_b", g[1] == '!' ? "" : "!", g + (g[1] == '!' ? 2 : 1), L->kidx, L->s->addr);
    return 1;
}

static void guard_skip_end(struct lower *L, int skip)
{
    if (skip)
        sb_put(&L->out, "L%u_%04x_b:\n", L->kidx, L->s->addr);
}

/* HMMA (0x03c), IMMA (0x037), DMMA (0x03f), form 1: D (16..23) = A (24..31)
 * x B (32..39) + C (64..71, RZ: zero), each a group of consecutive
 * registers; ptxas on one-instruction mma.sync.aligned.SHAPE.row.col kernels
 * (docs/sass.md).  HMMA: m16n8kK, 75 K = 16 (else 8), 76 f32 C/D (else
 * f16), 82 bf16 A/B, 83 tf32 A/B (else f16), with tf32 78 K = 4 (else 8).  IMMA: 74 set (8-bit inputs), 86 M = 16
 * (else 8), 75 K = 32 (else 16), 76 / 78 A / B s8 (else u8), 82
 * .satfinite.  DMMA: m8n8k4 f64, no modifier bits.  Lowered to the PTX mma
 * whose fragments are the same registers; a guarded one is refused. */
static int l_mma(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const uint64_t care[] = { 0xff | 1u << 11 | 1u << 12 | 1u << 14 | 1u << 18 | 1u << 19, /* HMMA */
                                     0xff | 1u << 11 | 1u << 12 | 1u << 14 | 1u << 18 | 1u << 22, /* IMMA */
                                     0xff };                                                         /* DMMA */
    int i = s->op == FE_SASS_HMMA ? 0 : s->op == FE_SASS_IMMA ? 1 : 2;
    if (need_hi(L, care[i], i == 1 ? 1u << 10 : 0) || s->form != 1 || B(s, 40, 24))
        return L->rc ? -1 : unsupported(L, "%s form", fe_sass_name(s->op));
    unsigned rd = B(s, 16, 8), ra = B(s, 24, 8), rb = B(s, 32, 8), rc = B(s, 64, 8);
    unsigned M = 16, K, na, nb, nc;
    char shape[64], fd[96], fa[96], fb[96], fc[96];
    if (i == 0) {
        int f32 = (int)B(s, 76, 1), bf = (int)B(s, 82, 1), tf = (int)B(s, 83, 1);
        if (bf && !f32)
            return unsupported(L, "HMMA.BF16 with an f16 accumulator");
        if (tf ? bf || !f32 || B(s, 75, 1) : B(s, 78, 1))
            return unsupported(L, "HMMA modifiers 75 / 78 / 82 / 83 in a combination not seen");
        K = tf ? (B(s, 78, 1) ? 4 : 8) : (B(s, 75, 1) ? 16 : 8);
        na = tf ? K / 2 : K / 4, nb = tf ? K / 4 : K / 8, nc = f32 ? 4 : 2;
        const char *ab = tf ? "tf32" : bf ? "bf16" : "f16";
        snprintf(shape, sizeof shape, "m16n8k%u.row.col.%s.%s.%s.%s", K, f32 ? "f32" : "f16", ab, ab, f32 ? "f32" : "f16");
    } else if (i == 1) {
        M = B(s, 86, 1) ? 16 : 8, K = B(s, 75, 1) ? 32 : 16;
        if (M == 8 && K == 32)
            return unsupported(L, "IMMA.8832 on 8-bit inputs");
        na = M * K / 128, nb = K / 16, nc = M / 4;
        snprintf(shape, sizeof shape, "m%un8k%u.row.col%s.s32.%s.%s.s32", M, K, B(s, 82, 1) ? ".satfinite" : "",
                 B(s, 76, 1) ? "s8" : "u8", B(s, 78, 1) ? "s8" : "u8");
    } else {
        snprintf(shape, sizeof shape, "m8n8k4.row.col.f64.f64.f64.f64");
        na = nb = 1, nc = 2;
    }
    if (rd == 255 || rd + nc > 255 || (ra != 255 && ra + na > 255) || (rb != 255 && rb + nb > 255))
        return unsupported(L, "%s register groups", fe_sass_name(s->op));
    if (i < 2) {
        if (frag(L, rd, nc, fd, sizeof fd) || frag(L, ra, na, fa, sizeof fa) || frag(L, rb, nb, fb, sizeof fb) ||
            frag(L, rc, nc, fc, sizeof fc))
            return -1;
        /* a guard (tensor_wmma's `@P3 IMMA.16816.S8.S8.SAT`): a branch
           around the warp-collective instruction, which the whole warp then
           runs or skips (lanes that disagree reach it diverged, which
           mma.sync.aligned reports) */
        int skip = guard_skip(L);
        emit(L, "mma.sync.aligned.%s %s, %s, %s, %s", shape, fd, fa, fb, fc);
        guard_skip_end(L, skip);
        return 0;
    }
    if (s->guard != 7)
        return unsupported(L, "guarded DMMA (a warp-collective matrix instruction)");
    /* f64: the pairs in the .b64 scratch registers %x4 (A), %x5 (B), %x6..%x7 (C), then D over C */
    if (rd + 4 > 255 || (rc != 255 && rc + 4 > 255) || ra >= 254 || rb >= 254)
        return unsupported(L, "DMMA register pairs");
    emit(L, "mov.b64 %%x4, {%%r%u, %%r%u}", ra, ra + 1);
    emit(L, "mov.b64 %%x5, {%%r%u, %%r%u}", rb, rb + 1);
    for (unsigned j = 0; j < 2; j++)
        if (rc == 255)
            emit(L, "mov.b64 %%x%u, 0", 6 + j);
        else
            emit(L, "mov.b64 %%x%u, {%%r%u, %%r%u}", 6 + j, rc + 2 * j, rc + 2 * j + 1);
    emit(L, "mma.sync.aligned.%s {%%x6, %%x7}, {%%x4}, {%%x5}, {%%x6, %%x7}", shape);
    for (unsigned j = 0; j < 2; j++)
        emit(L, "mov.b64 {%%r%u, %%r%u}, %%x%u", rd + 2 * j, rd + 2 * j + 1, 6 + j);
    return 0;
}


/* The 32-bit handle of a texture / surface in %x2: from c[bank][40..53 * 4]
 * (a kernel parameter, a __constant__ variable) or from register r.  The
 * hardware reads 32 bits (the register forms take one register, the next
 * one holds something else); the runtime's handles are small integers. */
static int tex_handle(struct lower *L, int reg, unsigned r)
{
    char h[16];
    if (reg) {
        if (group_elt(L, r, 0, h))
            return -1;
    } else if (cload(L, B(L->s, 54, 5), B(L->s, 40, 14) * 4, 4, h))
        return -1;
    emit(L, "cvt.u64.u32 %%x2, %s", h);
    return 0;
}

/* TEX (0x160) / TEX.B (0x161), float coordinates, and TLD (0x166) / TLD.B
 * (0x167), integer ones: ptxas's tex.GEOM.v4.DTYPE.{f32,s32} [h, {c}].
 * 61..63 geometry (TEX: 1 2D, 2 3D, 3 CUBE, 4 ARRAY_1D, 5 ARRAY_2D, 7
 * ARRAY_CUBE; ptxas makes a 1D float fetch a 2D one with y = 0; TLD 0 1D);
 * 87..88 the LOD (1 LZ: level 0; 3 LL: a level register, -32.0 for plain
 * tex); 81..83 Pu, true where a texel is not resident (PTX's |p is its
 * complement: ptxas selects with !Pu), 84 set.  The sources are the list
 * layer, coordinates, handle (.B), level (LL), n of them: with n <= 4 (bit
 * 60 set) Ra holds the first two (the first alone when n = 2) and Rb the
 * rest; with more (bit 60 clear) Ra holds the layer and coordinates and Rb
 * the handle and level.
 * The mask 72..75 picks the components written, in order, to Rd, Rd+1,
 * then Rd2 (64..71), Rd2+1.  The word names no result type: .b32 gives
 * what the texture's format gives (exec_tex.c).  The level is not read
 * (the emulator has no mipmaps, as for tex.level).  ptxas on each
 * geometry, with and without .level, the handle in a parameter and in a
 * register, each component used alone (docs/sass.md). */
static int l_tex(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const geo[8] = { "1d", "2d", "3d", "cube", "a1d", "a2d", NULL, "acube" };
    static const unsigned ncoord[8] = { 1, 2, 3, 3, 2, 3, 0, 4 }, nvec[8] = { 1, 2, 4, 4, 2, 4, 0, 4 };
    int reg = s->op == FE_SASS_TEX_B || s->op == FE_SASS_TLD_B, tld = s->op == FE_SASS_TLD || s->op == FE_SASS_TLD_B;
    if (need_hi(L, 0xff | 0xf00 | 0xe0000 | 0x1800000, 0x100000))
        return -1;
    unsigned g = B(s, 61, 3), lod = B(s, 87, 2), mask = B(s, 72, 4), pu = B(s, 81, 3);
    unsigned rd = B(s, 16, 8), rd2 = B(s, 64, 8), ra = B(s, 24, 8), rb = B(s, 32, 8);
    if (s->form != (reg ? 1 : 5) || B(s, 59, 1) != (unsigned)reg || (reg && B(s, 40, 19)))
        return unsupported(L, "texture operand form %u", s->form);
    if (!geo[g] || (g == 0 && !tld) || (tld && (g == 3 || g == 7)))
        return unsupported(L, "texture geometry %u", g);
    if (lod != 1 && !(lod == 3 && !tld))
        return unsupported(L, "texture level mode %u", lod);
    unsigned nc = ncoord[g], n = nc + (unsigned)reg + (lod == 3), split = B(s, 60, 1);
    if (split != (n <= 4))
        return unsupported(L, "bit 60 %s with %u source registers", split ? "set" : "clear", n);
    /* element i of the list: Ra + i for the first na, then Rb */
    unsigned na = !split ? nc : n <= 2 ? 1 : 2;
    char c[4][16];
    for (unsigned i = 0; i < nc; i++)
        if (group_elt(L, i < na ? ra : rb, i < na ? i : i - na, c[i]))
            return -1;
    unsigned hreg = rb + (nc - na); /* .B: the handle follows the coordinates in Rb */
    if (reg && (rb == 255 || hreg > 254))
        return unsupported(L, "handle register R%u", hreg);
    if (tex_handle(L, reg, hreg))
        return -1;
    unsigned ncomp = (unsigned)__builtin_popcount(mask);
    if (!mask || (ncomp <= 2 && rd2 != 255))
        return unsupported(L, "texture mask 0x%x with Rd2 R%u", mask, rd2);
    char t[4][16], coords[80], p[24] = "";
    for (int i = 0; i < 4; i++)
        tmp(L, t[i]);
    for (unsigned i = nc; i < nvec[g]; i++) /* (a vector wider than the coordinates: the last one again) */
        snprintf(c[i], sizeof c[i], "%s", c[nc - 1]);
    braced(coords, sizeof coords, (const char (*)[16])c, nvec[g]);
    if (pu != 7)
        snprintf(p, sizeof p, "|%%pr");
    emit(L, "tex.%s.v4.b32.%s {%s, %s, %s, %s}%s, [%%x2, %s]", geo[g], tld ? "s32" : "f32", t[0], t[1], t[2], t[3], p,
         coords);
    for (unsigned i = 0, j = 0; i < 4; i++) {
        if (!(mask >> i & 1))
            continue;
        unsigned r = j < 2 ? rd : rd2, o = j < 2 ? j : j - 2;
        j++;
        if (r == 255)
            continue;
        if (r + o > 254)
            return unsupported(L, "destination group R%u..R%u", r, r + o);
        emit(L, "mov.b32 %%r%u, %s", r + o, t[i]);
    }
    if (pu != 7) /* Pu is true where a texel is not resident: PTX's |p negated */
        emit(L, "not.pred %%p%u, %%pr", pu);
    return 0;
}

/* SULD (0x199) / SULD.B (0x19a) Rd, [Ra], h and SUST (0x19d) / SUST.B
 * (0x19e) [Ra], Rb, h: suld.b / sust.b of 1, 2, 4, 8 or 16 bytes (73..75:
 * LDG's codes 0 U8, 2 U16, 4, 5, 6; 72 set: .b; ptxas packs narrower
 * vector elements into the registers itself), 59..60 the out-of-range mode
 * (0 .zero, 1 .clamp, 2 .trap), 61..63 geometry (0 1D, 2 ARRAY_1D, 3 2D, 4
 * ARRAY_2D, 5 3D); the coordinates Ra.. in the order x, y, z / layer (the
 * layer last, PTX puts it first); x in bytes.  The handle: c[54..58][40..53
 * * 4], or a register in 64..71 (.B).  77, 79, 84 set
 * (and SULD's 81..83 PT).  ptxas on each geometry, size, vector and mode,
 * the handle in a parameter and in a register (docs/sass.md). */
static int l_surf(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const geo[8] = { "1d", NULL, "a1d", "2d", "a2d", "3d", NULL, NULL };
    static const char *const mode[4] = { ".zero", ".clamp", ".trap", NULL };
    static const unsigned ncoord[8] = { 1, 0, 2, 2, 3, 3, 0, 0 };
    int st = s->op == FE_SASS_SUST || s->op == FE_SASS_SUST_B, reg = s->op == FE_SASS_SULD_B || s->op == FE_SASS_SUST_B;
    if (need_hi(L, 0xe00 | (reg ? 0xff : 0), 0x10a100 | (st ? 0 : 0xe0000)))
        return -1;
    unsigned g = B(s, 61, 3), m = B(s, 59, 2), sz = B(s, 73, 3);
    unsigned rd = B(s, 16, 8), ra = B(s, 24, 8), rb = B(s, 32, 8);
    if (s->form != (reg ? 4 : 5) || (reg && B(s, 40, 19)) || (st ? rd != 0 : rb != 0))
        return unsupported(L, "surface operand form %u", s->form);
    if (!geo[g] || !mode[m])
        return unsupported(L, "surface geometry %u, mode %u", g, m);
    static const char *const ty[8] = { ".b8", NULL, ".b16", NULL, ".b32", ".v2.b32", ".v4.b32", NULL };
    static const unsigned nv[8] = { 1, 0, 1, 0, 1, 2, 4, 0 };
    if (!ty[sz])
        return unsupported(L, "surface access size code %u", sz);
    unsigned nc = ncoord[g];
    char c[3][16], coords[96], data[80];
    for (unsigned i = 0; i < nc; i++)
        if (group_elt(L, ra, i, c[i]))
            return -1;
    if (tex_handle(L, reg, B(s, 64, 8)))
        return -1;
    /* PTX order: the layer first, 3d (and a2d) four elements */
    if (g == 2)
        snprintf(coords, sizeof coords, "{%s, %s}", c[1], c[0]);
    else if (g == 4)
        snprintf(coords, sizeof coords, "{%s, %s, %s, %s}", c[2], c[0], c[1], c[1]);
    else if (g == 5)
        snprintf(coords, sizeof coords, "{%s, %s, %s, %s}", c[0], c[1], c[2], c[2]);
    else if (g == 3)
        snprintf(coords, sizeof coords, "{%s, %s}", c[0], c[1]);
    else
        snprintf(coords, sizeof coords, "{%s}", c[0]);
    unsigned r = st ? rb : rd;
    size_t k = (size_t)snprintf(data, sizeof data, "{");
    for (unsigned i = 0; i < nv[sz]; i++) {
        char e[16];
        if (r != 255 && r + i > 254)
            return unsupported(L, "register group R%u..R%u", r, r + i);
        st ? rvec(L, e, r == 255 ? 255 : r + i) : rdst(L, e, r == 255 ? 255 : r + i);
        k += (size_t)snprintf(data + k, sizeof data - k, "%s%s", i ? ", " : "", e);
    }
    snprintf(data + k, sizeof data - k, "}");
    if (st)
        emit(L, "sust.b.%s%s%s [%%x2, %s], %s", geo[g], ty[sz], mode[m], coords, data);
    else
        emit(L, "suld.b.%s%s%s %s, [%%x2, %s]", geo[g], ty[sz], mode[m], data, coords);
    return 0;
}

static int is_jump_target(const struct fe_cubin_kernel *k, uint32_t a);

static int64_t branch_target(const struct fe_sass_insn *s)
{
    int64_t off = (int64_t)(((s->hi & 0x3ffff) << 32 | s->lo >> 32) << 14) / (1 << 14);
    if (s->op == FE_SASS_BRA)
        off -= B(s, 32, 2); /* BRA's modifier (DIV, CONV), not part of the offset */
    return (int64_t)s->addr + 16 + off;
}

/* The member mask of a BRA.DIV / BRA.CONV (24..31: a UR, or 0x7f, ~URZ,
 * every lane) into o; -1 for a form not seen. */
static int conv_mask(const struct fe_sass_insn *s, char *o)
{
    unsigned u = B(s, 24, 8);
    if (u == 0x7f)
        snprintf(o, 16, "0xffffffff");
    else if (u < 63)
        snprintf(o, 16, "%%ur%u", u);
    else
        return -1;
    return 0;
}

/* %pr = the lanes of mask m are not all active (conv: are all active): the
 * warp is diverged with respect to m (what BRA.DIV tests and BRA.CONV
 * negates, and when WARPSYNC has lanes to wait for), and false in the
 * lanes the instruction's guard turns off.  The active lanes are read in
 * every lane: a guard does not split the warp, so branching around the test
 * would make it see only the guarded lanes. */
static void diverged(struct lower *L, const char *m, int conv)
{
    char g[16];
    snprintf(g, sizeof g, "%s", L->guard);
    L->guard[0] = 0;
    emit(L, "activemask.b32 %%t10");
    emit(L, "and.b32 %%t10, %%t10, %s", m);
    emit(L, "setp.%s.u32 %%pr, %%t10, %s", conv ? "eq" : "ne", m);
    if (g[0]) /* "@%pN " or "@!%pN ": false where the guard fails */
        emit(L, "@%s%s setp.ne.u32 %%pr, %%zero, %%zero", g[1] == '!' ? "" : "!", g + (g[1] == '!' ? 2 : 1));
}

/* Whether the word after the current one is a warp-synchronous instruction
 * (SHFL, VOTE, REDUX) or a barrier: the WARPSYNC before it is the one ptxas
 * writes for that instruction's member mask, not a PTX bar.warp.sync. */
static int syncs_next(const struct lower *L)
{
    struct fe_sass_insn w;
    uint32_t a = L->s->addr + 16;
    if (a + 16 > L->k->text_size || is_jump_target(L->k, a) ||
        fe_sass_decode(L->k->text + a, a, L->k->name, &w, NULL, 0))
        return 0;
    return w.op == FE_SASS_SHFL || w.op == FE_SASS_VOTE || w.op == FE_SASS_REDUX || w.op == FE_SASS_BAR;
}

/* RET's dispatch over the sorted return addresses sites[lo..hi): a binary
 * search down to four, then compares; a value that is none of them traps
 * (a guarded trap, so the CFG's edges are the return sites only). */
static void ret_tree(struct lower *L, unsigned ra, const uint32_t *sites, uint32_t lo, uint32_t hi)
{
    if (hi - lo > 4) {
        uint32_t mid = lo + (hi - lo) / 2;
        emit(L, "setp.lt.u32 %%pr, %%r%u, %u", ra, sites[mid]);
        emit(L, "@%%pr bra L%u_%04x_r%u", L->kidx, L->s->addr, mid);
        ret_tree(L, ra, sites, mid, hi);
        sb_put(&L->out, "L%u_%04x_r%u:\n", L->kidx, L->s->addr, mid);
        ret_tree(L, ra, sites, lo, mid);
        return;
    }
    for (uint32_t i = lo; i + 1 < hi; i++) {
        emit(L, "setp.eq.u32 %%pr, %%r%u, %u", ra, sites[i]);
        emit(L, "@%%pr bra L%u_%04x", L->kidx, sites[i]);
    }
    emit(L, "setp.ne.u32 %%pr, %%r%u, %u", ra, sites[hi - 1]);
    emit(L, "@%%pr trap");
    emit(L, "bra L%u_%04x", L->kidx, sites[hi - 1]);
}

/* CALL.ABS.NOINC Ra (0x143, form 1; Ra in 24..31, 32..63 zero, 64..104 as
 * CALL.REL's): a call of the function at the absolute address Ra:Ra+1,
 * which ptxas loads from bank 4: an external function (ext_fns).  Lowered
 * as a compare of Ra:Ra+1 with the address of each external function the
 * module's bank 4 names (the value its bank-4 read gave, the PTX path's
 * address of the function), a PTX call of the one matched with its
 * parameters from R4 up and its result to R4, and the return to R20:R21,
 * which must be the next word (ptxas: LEPC R, then R20:R21 = R + the
 * distance to the return site); anything else traps. */
static int l_call_abs(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    unsigned ra = B(s, 24, 8);
    if (need_hi(L, 0, 0x03c00000) || s->form != 1 || B(s, 16, 8) || B(s, 32, 32) || ra >= 254 || (ra & 1))
        return L->rc ? -1 : unsupported(L, "CALL.ABS form");
    if (L->guard[0])
        return unsupported(L, "guarded CALL.ABS");
    emit(L, "mov.b64 %%x2, {%%r%u, %%r%u}", ra, ra + 1);
    for (uint32_t i = 0; i < L->c->nrelocs; i++)
        if (first_ext(L->c, i)) {
            emit(L, "mov.u64 %%x1, %s", L->c->relocs[i].func);
            emit(L, "setp.eq.u64 %%pr, %%x2, %%x1");
            emit(L, "@%%pr bra L%u_%04x_c%u", L->kidx, s->addr, i);
        }
    emit(L, "trap");
    for (uint32_t i = 0; i < L->c->nrelocs; i++) {
        if (!first_ext(L->c, i))
            continue;
        const struct ext_fn *f = ext_fn(L->c->relocs[i].func);
        char args[160] = "";
        size_t n = 0;
        unsigned r = 4;
        sb_put(&L->out, "L%u_%04x_c%u:\n\t{\n", L->kidx, s->addr, i);
        for (unsigned j = 0; f->args[j]; j++) {
            if (f->args[j] == '8') {
                r = (r + 1) & ~1u;
                emit(L, ".param .b64 a%u", j);
                emit(L, "mov.b64 %%x0, {%%r%u, %%r%u}", r, r + 1);
                emit(L, "st.param.b64 [a%u], %%x0", j);
                r += 2;
            } else {
                emit(L, ".param .b32 a%u", j);
                emit(L, "st.param.b32 [a%u], %%r%u", j, r++);
            }
            n += (size_t)snprintf(args + n, sizeof args - n, "%sa%u", j ? ", " : "", j);
        }
        if (f->ret) {
            emit(L, ".param .b%u rv", f->ret * 8);
            emit(L, "call (rv), %s, (%s)", f->name, args);
            if (f->ret == 8) {
                emit(L, "ld.param.b64 %%x0, [rv]");
                emit(L, "mov.b64 {%%r4, %%r5}, %%x0");
            } else
                emit(L, "ld.param.b32 %%r4, [rv]");
        } else
            emit(L, "call %s, (%s)", f->name, args);
        sb_put(&L->out, "\t}\n");
        emit(L, "bra L%u_%04x_r", L->kidx, s->addr);
    }
    sb_put(&L->out, "L%u_%04x_r:\n", L->kidx, s->addr);
    emit(L, "setp.ne.u32 %%pr, %%r20, %u", s->addr + 16);
    emit(L, "@%%pr trap");
    emit(L, "setp.ne.u32 %%pr, %%r21, 0");
    emit(L, "@%%pr trap");
    return 0;
}

/* CALL.REL.NOINC Ra base (form 1; Ra in 24..31): a call through a function
 * pointer, to Ra:Ra+1 + base, base (the offset in 34..81, from the next
 * word) the .text start in everything seen: function pointers are offsets
 * in the kernel's .text (a vtable in .nv.global.init holds them with no
 * relocation).  Lowered as a compare with the start of each device function
 * of the .text (a value that is none of them traps), so the CFG has the real
 * call edges; the return address was set by a MOV as for the direct form. */
static int l_call_reg(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    unsigned ra = B(s, 24, 8);
    if (need_hi(L, 0x3ffff, 0x03c00000) || B(s, 16, 8) || ra >= 254 || (ra & 1))
        return L->rc ? -1 : unsupported(L, "CALL form");
    if (branch_target(s) != 0)
        return unsupported(L, "CALL through a register relative to 0x%" PRIx64 " rather than the .text start",
                           (uint64_t)branch_target(s));
    if (!L->k->nfuncs)
        return unsupported(L, "CALL through a register in a kernel without device functions");
    int skip = guard_skip(L);
    emit(L, "mov.b64 %%x2, {%%r%u, %%r%u}", ra, ra + 1);
    for (uint32_t i = 0; i < L->k->nfuncs; i++) {
        emit(L, "setp.eq.u64 %%pr, %%x2, %u", L->k->funcs[i]);
        emit(L, "@%%pr bra L%u_%04x", L->kidx, L->k->funcs[i]);
    }
    emit(L, "trap");
    guard_skip_end(L, skip);
    return 0;
}

/* The 32-bit word at byte o of the kernel's bank 2. */
static uint32_t bank2_word(const struct fe_cubin_kernel *k, uint32_t o)
{
    return (uint32_t)k->cbank2[o] | (uint32_t)k->cbank2[o + 1] << 8 | (uint32_t)k->cbank2[o + 2] << 16 |
           (uint32_t)k->cbank2[o + 3] << 24;
}

/* BRX Ra base (0x149, form 4; Ra in 24..31, the offset in 34..81 the
 * distance to the .text start, 87..90 BRA's PT): a jump to Ra:Ra+1 + base
 * through a table ptxas puts in bank 2 (PTX brx.idx; texture_layered's
 * switch over the cube face): 32-bit offsets in the kernel's .text, read
 * with an indexed LDC and sign-extended.  Lowered as a compare with each
 * word of the kernel's bank 2 that is an instruction address of the kernel
 * (a value that is none of them traps), so the CFG has the real edges. */
static int l_brx(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    const struct fe_cubin_kernel *k = L->k;
    unsigned ra = B(s, 24, 8);
    if (need_hi(L, 0x3ffff, 0x03800000) || s->form != 4 || B(s, 16, 8) || ra >= 254 || (ra & 1))
        return L->rc ? -1 : unsupported(L, "BRX form");
    if (branch_target(s) != 0)
        return unsupported(L, "BRX relative to 0x%" PRIx64 " rather than the .text start", (uint64_t)branch_target(s));
    int skip = guard_skip(L);
    emit(L, "mov.b64 %%x2, {%%r%u, %%r%u}", ra, ra + 1);
    unsigned n = 0;
    for (uint32_t o = 0; k->cbank2 && o + 4 <= k->cbank2_size; o += 4) {
        uint32_t t = bank2_word(k, o);
        int dup = 0;
        for (uint32_t p = 0; p < o; p += 4)
            dup |= !memcmp(k->cbank2 + p, k->cbank2 + o, 4);
        if (!t || t % 16 || t >= k->text_size || dup)
            continue;
        emit(L, "setp.eq.u64 %%pr, %%x2, %u", t);
        emit(L, "@%%pr bra L%u_%04x", L->kidx, t);
        n++;
    }
    if (!n)
        return unsupported(L, "BRX in a kernel whose constant bank 2 holds no address of its code");
    emit(L, "trap");
    guard_skip_end(L, skip);
    return 0;
}

static int l_ctrl(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    switch (s->op) {
    case FE_SASS_NOP:
        if (need_hi(L, 0, 0) || (s->lo >> 16))
            return L->rc ? -1 : unsupported(L, "NOP operand bits");
        return 0;
    case FE_SASS_EXIT:
        if (need_hi(L, 0, 0x03800000) || (s->lo >> 16))
            return L->rc ? -1 : unsupported(L, "EXIT operand bits");
        emit(L, "exit");
        return 0;
    case FE_SASS_BPT:
        /* BPT.TRAP 0x4 (form 4, immediate 4, 84..85 = 3): ptxas's `trap`
           (__trap()), guarded or not; any other BPT is refused */
        if (need_hi(L, 0, 0x00300000) || s->form != 4 || (s->lo >> 16) != 4ull << 16)
            return L->rc ? -1 : unsupported(L, "BPT form other than BPT.TRAP 0x4");
        emit(L, "trap");
        return 0;
    case FE_SASS_BAR: {
        /* form 5: barrier 54..57, thread count 42..53 (0: the whole CTA);
           77..78 mode 0 SYNC, 1 ARV, 2 RED with 74..75 the reduction (0
           POPC, 1 AND, 2 OR) of the predicate 87..89 (! 90) whose result
           B2R.RESULT reads next; 80 set for bar.sync / barrier.sync.aligned,
           clear for bar.arrive and for barrier.sync (ptxas on each, one at
           a time; kernel b_bars), which ptxas puts after a BRA.CONV ~URZ
           (or a WARPSYNC 0xffffffff on the diverged path: kernel b_sync) */
        unsigned mode = B(s, 77, 2), rop = B(s, 74, 2), id = B(s, 54, 4), cnt = B(s, 42, 12), al = B(s, 80, 1);
        uint64_t care = 0x10000 | 0x6000 | (mode == 2 ? 0x0f800c00 : 0);
        if (need_hi(L, care, 0) || s->form != 5 || B(s, 16, 26) || B(s, 58, 6) || mode == 3 || (mode == 2 && (rop == 3 || !al)) ||
            (mode == 1 && (al || !cnt)))
            return L->rc ? -1 : unsupported(L, "BAR form");
        char n[16] = "";
        if (cnt)
            snprintf(n, sizeof n, ", %u", cnt);
        if (mode == 0)
            emit(L, "%s %u%s", al ? "bar.sync" : "barrier.sync", id, n);
        else if (mode == 1)
            emit(L, "bar.arrive %u%s", id, n);
        else {
            char p[20];
            psrc(L, p, B(s, 87, 3), B(s, 90, 1));
            if (rop == 0)
                emit(L, "bar.red.popc.u32 %%rbar, %u%s, %s", id, n, p);
            else
                emit(L, "bar.red.%s.pred %%pbar, %u%s, %s", rop == 1 ? "and" : "or", id, n, p);
        }
        return 0;
    }
    case FE_SASS_B2R: {
        /* B2R.RESULT Rd, Pu: the result of the BAR.RED before it, the count
           in Rd (POPC) or the predicate in Pu (AND, OR, with Rd = RZ);
           ptxas puts it a few words after the BAR.RED in the same straight
           line of code (bar.red.{popc,and,or}; kernel b_bars): the nearest
           BAR before it, with no jump target on the way, must be that
           BAR.RED */
        struct fe_sass_insn w = { 0 };
        unsigned d = B(s, 16, 8), pu = B(s, 81, 3);
        int found = 0;
        for (uint32_t a = s->addr; a >= 16 && a + 256 > s->addr && !found; a -= 16) {
            if (is_jump_target(L->k, a) ||
                fe_sass_decode(L->k->text + a - 16, a - 16, L->k->name, &w, NULL, 0) || w.op == FE_SASS_B2R)
                break;
            found = w.op == FE_SASS_BAR;
        }
        if (need_hi(L, 0xe0000, 0x4000) || s->form != 1 || B(s, 24, 40) != 0 || !found || B(&w, 77, 2) != 2 ||
            (B(&w, 74, 2) == 0) != (d != 255 && pu == 7) || (B(&w, 74, 2) != 0 && (d != 255 || pu == 7)))
            return L->rc ? -1 : unsupported(L, "B2R other than the result of a BAR.RED before it in straight-line code");
        char o[16];
        if (d != 255) {
            rdst(L, o, d);
            emit(L, "mov.b32 %s, %%rbar", o);
        } else {
            pdst(L, o, pu);
            emit(L, "mov.pred %s, %%pbar", o);
        }
        return 0;
    }
    case FE_SASS_MEMBAR: {
        /* 76..77 scope (0 CTA, 2 GPU, 3 SYS), 79 set for .acq_rel, clear for
           .sc (ptxas on fence.{sc,acq_rel}.{cta,gpu,sys}; membar.cta, .gl
           and .sys give the .sc words) */
        static const char *const scope[] = { "cta", NULL, "gpu", "sys" };
        if (need_hi(L, 0xb000, 0) || s->form != 4 || (s->lo >> 16) || !scope[B(s, 76, 2)])
            return L->rc ? -1 : unsupported(L, "MEMBAR form");
        emit(L, "fence.%s.%s", B(s, 79, 1) ? "acq_rel" : "sc", scope[B(s, 76, 2)]);
        return 0;
    }
    case FE_SASS_ERRBAR: case FE_SASS_CCTL:
        /* the two words ptxas puts after a MEMBAR of GPU or system scope
           (0x1ab, then 0x18f with RZ and 0x2000000 in 64..104; named as in
           NVIDIA's instruction list: an error barrier and an L1
           invalidation): the fence is the MEMBAR's, and the emulator's
           caches hold no data, so nothing to run */
        if (s->form != 4 || need_hi(L, 0, s->op == FE_SASS_CCTL ? 0x2000000 : 0) ||
            (s->lo >> 16) != (s->op == FE_SASS_CCTL ? 0xff00u : 0))
            return L->rc ? -1 : unsupported(L, "%s form", s->op == FE_SASS_CCTL ? "CCTL" : "ERRBAR");
        return 0;
    case FE_SASS_BSSY: case FE_SASS_BSYNC: case FE_SASS_BREAK:
        /* convergence barriers: the decoded program reconverges at immediate
           post-dominators (frontend/cfg.c), which is where ptxas places BSYNC
           for the structured code it emits; nothing to run.  BREAK Bn (0x142,
           Bn 16..19): the guarded lanes leave region Bn, and a BRA with the
           same guard follows to a place past its BSYNC (the division's slow
           path for a constant divisor, kernel f_div13): with no-op BSYNCs,
           nothing to run either */
        if (need_hi(L, s->op == FE_SASS_BSSY ? 0x3ffff : 0, 0x03800000) || B(s, 20, s->op == FE_SASS_BSSY ? 14 : 44))
            return L->rc ? -1 : unsupported(L, "convergence barrier form");
        return 0;
    case FE_SASS_BRA: {
        /* 87..90: a second predicate, taken only when it holds too
           (@!P1 BRA !P2 in the division's slow path: to the NaN result
           when both operands are infinite; kernel b_pred).  Bit 91: BRA.DIV
           (32..33 = 2) / BRA.CONV (3) with a member mask in 24..31, ptxas's
           test of whether every lane of the mask is active before a
           warp-synchronous instruction, __syncwarp or barrier.sync (kernels
           b_sync, w_div) */
        int conv = B(s, 91, 1), uhint = !conv && B(s, 32, 2) == 1;
        if (need_hi(L, 0x3ffff | 0x07800000 | 0x08000000, 0x03800000) || B(s, 16, conv ? 8 : 16) ||
            B(s, 32, 2) != (conv ? B(s, 32, 2) | 2 : (uint32_t)uhint) || ((conv || uhint) && (B(s, 87, 4) != 7)))
            return L->rc ? -1 : unsupported(L, "BRA form");
        int64_t t = branch_target(s);
        if (t < 0 || t >= L->k->text_size || t % 16)
            return unsupported(L, "branch target 0x%" PRIx64 " outside the kernel", (uint64_t)t);
        if (conv) {
            char m[16];
            if (conv_mask(s, m))
                return unsupported(L, "BRA.%s member mask 0x%02x", B(s, 32, 2) == 2 ? "DIV" : "CONV", B(s, 24, 8));
            diverged(L, m, B(s, 32, 2) == 3);
            emit(L, "@%%pr bra L%u_%04x", L->kidx, (unsigned)t);
            return 0;
        }
        if (uhint && L->guard[0]) {
            /* BRA.U (32..33 = 1, modifier group 1's U in Kuter Dinel's
               table; ptxas on wmma's f64 GEMM loop, @P0 BRA.U): the guard
               is uniform over the active lanes, which is then a plain
               branch's meaning whatever the hardware does otherwise; a
               guard that is not uniform traps here rather than guess */
            char g[16], p[8];
            snprintf(g, sizeof g, "%s", L->guard);
            snprintf(p, sizeof p, "%.*s", (int)strcspn(g + (g[1] == '!' ? 2 : 1), " "), g + (g[1] == '!' ? 2 : 1));
            L->guard[0] = 0;
            emit(L, "activemask.b32 %%t10");
            emit(L, "vote.sync.ballot.b32 %%t11, %s, %%t10", p);
            emit(L, "setp.ne.u32 %%pr, %%t11, 0");
            emit(L, "setp.ne.and.u32 %%pr, %%t11, %%t10, %%pr");
            emit(L, "@%%pr trap");
            snprintf(L->guard, sizeof L->guard, "%s", g);
        }
        unsigned pp = B(s, 87, 3), ppn = B(s, 90, 1);
        if (pp == 7 && ppn)
            return 0;                          /* BRA !PT: never taken */
        if (pp == 7) {
            emit(L, "bra L%u_%04x", L->kidx, (unsigned)t);
            return 0;
        }
        int skip = guard_skip(L);
        emit(L, "@%s%%p%u bra L%u_%04x", ppn ? "!" : "", pp, L->kidx, (unsigned)t);
        guard_skip_end(L, skip);
        return 0;
    }
    case FE_SASS_NANOSLEEP: {
        /* NANOSLEEP t (0x15d): an immediate (form 4), a constant (5) or a
           register (1, 32..39), BRA's PT in 87..90 (ptxas on nanosleep.u32
           450, of a parameter and of %tid.x; CUB's look-back backs off with
           NANOSLEEP 0x1c2): PTX nanosleep, which lets the other warps run */
        char t[16];
        if (need_hi(L, 0, 0x03800000) || (s->lo & 0xffff0000u) || (s->form == 1 && B(s, 40, 24)) ||
            (s->form != 1 && s->form != 4 && s->form != 5) || opd_b(L, t, NULL))
            return L->rc ? -1 : unsupported(L, "NANOSLEEP form");
        emit(L, "nanosleep.u32 %s", t);
        return 0;
    }
    case FE_SASS_YIELD: /* a scheduling hint at loop heads */
        if (need_hi(L, 0, 0x03800000) || (s->lo >> 16))
            return L->rc ? -1 : unsupported(L, "YIELD form");
        return 0;
    case FE_SASS_WARPSYNC: {
        /* WARPSYNC m: an immediate (form 4), a register (1, 32..39) or a
           constant (5).  Before SHFL, VOTE, REDUX or BAR it is the member
           mask of that instruction, whose PTX form (shfl.sync, vote.sync,
           redux.sync, barrier.sync) does not wait for the other lanes of
           the mask on the PTX path either: nothing to run.  Elsewhere it is
           __syncwarp's bar.warp.sync m, run when a lane of m is not active
           (the lanes a guard turns off are converged with the others, as in
           split_syncthreads' if-converted `@P0 WARPSYNC 0xffffffff`) */
        char m[16];
        if (need_hi(L, 0, 0x03800000) || B(s, 16, 16) || (s->form == 1 && B(s, 40, 24)) ||
            (s->form != 1 && s->form != 4 && s->form != 5))
            return L->rc ? -1 : unsupported(L, "WARPSYNC form");
        if (s->form == 4)
            snprintf(m, sizeof m, "%u", B(s, 32, 32));
        else if (s->form == 1)
            rsrc(L, m, B(s, 32, 8));
        else if (B(s, 59, 5) || cload(L, B(s, 54, 5), B(s, 38, 16), 4, m))
            return L->rc ? -1 : unsupported(L, "WARPSYNC constant operand");
        if (syncs_next(L))
            return 0;
        diverged(L, m, 0);
        emit(L, "@%%pr bar.warp.sync %s", m);
        return 0;
    }
    case FE_SASS_CALL: {
        /* CALL.REL.NOINC: a jump to a subroutine of the same .text whose
           return address ptxas has put in a register (MOV R4, 0x1e0); no
           call stack is involved, so it is a branch */
        if (s->form == 1)
            return l_call_reg(L);
        if (need_hi(L, 0x3ffff, 0x03c00000) || B(s, 16, 16))
            return L->rc ? -1 : unsupported(L, "CALL form");
        int64_t t = branch_target(s);
        if (t < 0 || t >= L->k->text_size || t % 16)
            return unsupported(L, "call target 0x%" PRIx64 " outside the kernel", (uint64_t)t);
        emit(L, "bra L%u_%04x", L->kidx, (unsigned)t);
        return 0;
    }
    case FE_SASS_LEPC:
        /* LEPC Rd: Rd:Rd+1 = the address of this instruction (ptxas
           computes a CALL.ABS's return address as LEPC + (return site - the
           LEPC's address)); the kernel's .text is at 0, the base REL
           addresses and function pointers are relative to */
        if (need_hi(L, 0, 0) || B(s, 24, 40) || B(s, 16, 8) >= 254)
            return L->rc ? -1 : unsupported(L, "LEPC form");
        emit(L, "mov.b32 %%r%u, %u", B(s, 16, 8), s->addr);
        emit(L, "mov.b32 %%r%u, 0", B(s, 16, 8) + 1);
        return 0;
    case FE_SASS_CALL_ABS:
        return l_call_abs(L);
    case FE_SASS_BRX:
        return l_brx(L);
    case FE_SASS_BMOV_R: case FE_SASS_BMOV_B:
        /* BMOV.32.CLEAR Rd, Bn (0x155: Rd 16..23, Bn 24..31, 84 set) and
           BMOV.32 Bn, Ra (0x156: Bn 24..31, Ra 32..39): a recursive
           function saving its caller's convergence barrier B6 on entry and
           restoring it before RET.  The convergence barriers are no-ops
           here (BSSY / BSYNC above): the saved value is 0 and the restore
           sets nothing */
        if (s->op == FE_SASS_BMOV_R && B(s, 16, 8) != 255)
            emit(L, "mov.b32 %%r%u, 0", B(s, 16, 8));
        return 0;
    case FE_SASS_RET: {
        /* RET.REL.NODEC Ra, base: to Ra:Ra+1 + base (base = the function's
           start in everything seen).  The return addresses a CALL can have
           set are the words after the kernel's CALLs: the register is
           compared with each (a value that is none of them traps), so the
           CFG sees the real return edges. */
        if (need_hi(L, 0x3ffff, 0x03c00000) || B(s, 16, 8))
            return L->rc ? -1 : unsupported(L, "RET form");
        if (L->guard[0])
            return unsupported(L, "guarded RET");
        if (branch_target(s) != 0)
            return unsupported(L, "RET relative to 0x%" PRIx64 " rather than the function start", (uint64_t)branch_target(s));
        unsigned ra = B(s, 24, 8);
        if (ra >= 254)
            return unsupported(L, "RET through register R%u", ra);
        /* the subroutine holding this RET starts at the greatest CALL
           target or device function symbol not after it; its callers are
           the CALLs to that target and, for a device function, every CALL
           through a register */
        uint32_t *sites = malloc((L->k->text_size / 16 + 1) * sizeof *sites), n = 0;
        int64_t sub = -1;
        int fn = 0;
        if (!sites)
            return unsupported(L, "out of memory");
        for (uint32_t i = 0; i < L->k->nfuncs; i++)
            if (L->k->funcs[i] <= s->addr)
                sub = L->k->funcs[i];
        for (int pass = 0; pass < 2; pass++) {
            for (uint32_t i = 0; pass == 1 && i < L->k->nfuncs; i++)
                fn |= L->k->funcs[i] == sub;
            for (uint32_t a = 0; a + 16 < L->k->text_size; a += 16) {
                struct fe_sass_insn w;
                if (fe_sass_decode(L->k->text + a, a, L->k->name, &w, NULL, 0) || w.op != FE_SASS_CALL)
                    continue;
                int64_t t = w.form == 1 ? -1 : branch_target(&w);
                if (pass == 0 && t <= (int64_t)s->addr && t > sub)
                    sub = t;
                if (pass == 1 && (t == sub || (w.form == 1 && fn)))
                    sites[n++] = a + 16;
            }
        }
        if (!n) {
            free(sites);
            return unsupported(L, "RET in a kernel without a CALL to its subroutine");
        }
        emit(L, "setp.ne.u32 %%pr, %%r%u, 0", ra + 1);
        emit(L, "@%%pr trap");
        ret_tree(L, ra, sites, 0, n);
        free(sites);
        return 0;
    }
    default:
        return unsupported(L, "instruction outside the lowered subset");
    }
}

/* Registers an instruction writes, for sincos_angle's backward scan: the
 * count from bit 16 (*d), 0 for none; -1 when the instruction is not one
 * whose destinations are known. */
static int writes(const struct fe_sass_insn *w, unsigned *d)
{
    static const unsigned nvec[8] = { 1, 1, 1, 1, 1, 2, 4, 0 };
    *d = fe_sass_bits(w, 16, 8);
    switch (w->op) {
    case FE_SASS_FMUL: case FE_SASS_FADD: case FE_SASS_FFMA: case FE_SASS_MOV: case FE_SASS_IMAD: case FE_SASS_IMAD_HI:
    case FE_SASS_IADD3: case FE_SASS_LOP3: case FE_SASS_SHF: case FE_SASS_MUFU: case FE_SASS_FSEL: case FE_SASS_SEL:
    case FE_SASS_I2F: case FE_SASS_I2F_MUFU: case FE_SASS_F2I: case FE_SASS_FRND: case FE_SASS_PRMT: case FE_SASS_LEA:
    case FE_SASS_IMNMX: case FE_SASS_FMNMX: case FE_SASS_S2R: case FE_SASS_HFMA2_MMA: case FE_SASS_IABS: case FE_SASS_IDP:
    case FE_SASS_P2R: case FE_SASS_BMSK: case FE_SASS_ATOM: case FE_SASS_ATOMG:
        return 1;
    case FE_SASS_IMAD_WIDE: case FE_SASS_CS2R: return 2;
    case FE_SASS_LDG: case FE_SASS_LDS: case FE_SASS_LDL: case FE_SASS_LD: return (int)nvec[fe_sass_bits(w, 73, 3)];
    case FE_SASS_ISETP: case FE_SASS_FSETP: case FE_SASS_PLOP3: case FE_SASS_UPLOP3: case FE_SASS_STG: case FE_SASS_STS:
    case FE_SASS_STL:
    case FE_SASS_ST:
    case FE_SASS_BAR: case FE_SASS_NOP: case FE_SASS_BSSY: case FE_SASS_BSYNC: case FE_SASS_BREAK: case FE_SASS_FCHK: case FE_SASS_BPT:
    case FE_SASS_UMOV: case FE_SASS_UIADD3: case FE_SASS_ULDC: case FE_SASS_ULDC_IDX: case FE_SASS_S2UR: case FE_SASS_YIELD:
    case FE_SASS_USHF: case FE_SASS_ULOP3: case FE_SASS_UIMAD: case FE_SASS_UIMAD_WIDE: case FE_SASS_UISETP:
    case FE_SASS_USEL: case FE_SASS_ULEA: case FE_SASS_VOTEU: case FE_SASS_REDUX: case FE_SASS_R2UR: /* uniform registers only */
    case FE_SASS_LDGSTS: case FE_SASS_LDGDEPBAR: case FE_SASS_DEPBAR: case FE_SASS_R2P: case FE_SASS_NANOSLEEP:
        return 0;
    default: return -1;
    }
}

/* MUFU.SIN / MUFU.COS Rd, Rt: ptxas writes sin.approx / cos.approx x as
 * FMUL.RZ Rt, Rx, 1/(2 pi) then MUFU on Rt (the unit takes turns, not
 * radians).  The PTX instruction's meaning, sin x within its bound, is what
 * the lowering keeps: FMUL.RZ by 0x3e22f983 saves x in %scT, and MUFU reads
 * it back, provided a backward scan within the basic block finds that FMUL
 * as Rt's last writer (no branch target in between, every instruction on
 * the way one whose destinations are known).  Otherwise refused. */
static int is_jump_target(const struct fe_cubin_kernel *k, uint32_t a)
{
    for (uint32_t i = 0; i < k->nfuncs; i++)
        if (k->funcs[i] == a)
            return 1; /* a device function: a CALL through a register may reach it */
    for (uint32_t b = 0; b < k->text_size; b += 16) {
        struct fe_sass_insn w;
        if (fe_sass_decode(k->text + b, b, k->name, &w, NULL, 0))
            continue;
        if ((w.op == FE_SASS_BRA || w.op == FE_SASS_CALL || w.op == FE_SASS_BSSY) && branch_target(&w) == (int64_t)a)
            return 1;
        if (w.op == FE_SASS_CALL && b + 16 == a)
            return 1; /* a return site */
        for (uint32_t o = 0; w.op == FE_SASS_BRX && k->cbank2 && o + 4 <= k->cbank2_size; o += 4)
            if (bank2_word(k, o) == a && a)
                return 1; /* a BRX target (its table in bank 2) */
    }
    return 0;
}

static int sincos_angle(struct lower *L, unsigned t)
{
    const struct fe_cubin_kernel *k = L->k;
    for (uint32_t a = L->s->addr;;) {
        if (a < 16 || is_jump_target(k, a))
            return -1;
        a -= 16;
        struct fe_sass_insn w;
        unsigned d;
        if (fe_sass_decode(k->text + a, a, k->name, &w, NULL, 0))
            return -1;
        int n = writes(&w, &d);
        if (n < 0)
            return -1;
        if (w.op == FE_SASS_FMUL && d == t && w.form == 4 && fe_sass_bits(&w, 32, 32) == SASS_INV_2PI && w.guard == 7 &&
            !w.guard_neg && (w.hi & ((1ull << 41) - 1)) == 0x40c000)
            return 0;
        if (n && d != 255 && t >= d && t < d + (unsigned)n)
            return -1;
    }
}

/* MUFU (0x108): function 74..77 (ptxas on {rcp,sqrt,rsqrt,ex2,lg2,sin,cos}.
 * approx.ftz.f32 and tanh.approx.f32: 0 COS, 1 SIN, 2 EX2, 3 LG2, 4 RCP, 5
 * RSQ, 8 SQRT, 9 TANH), the operand in the B slot.  MUFU is the .ftz form.
 * SIN and COS: sincos_angle. */
static int l_mufu(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const fn[16] = { [2] = "ex2.approx.ftz", [3] = "lg2.approx.ftz", [4] = "rcp.approx.ftz",
                                        [5] = "rsqrt.approx.ftz", [8] = "sqrt.approx.ftz", [9] = "tanh.approx" };
    char b[16], d[16];
    if (need_hi(L, 0x3c00, uniform_bit(L)) || B(s, 24, 8))
        return L->rc ? -1 : unsupported(L, "MUFU operand bits");
    unsigned f = B(s, 74, 4);
    if (f <= 1) {
        if (s->form != 1 || B(s, 40, 24) || B(s, 32, 8) == 255)
            return unsupported(L, "MUFU.%s form", f ? "SIN" : "COS");
        if (sincos_angle(L, B(s, 32, 8)))
            return unsupported(L, "MUFU.%s whose operand is not FMUL.RZ R, R, 1/(2 pi) in the same block", f ? "SIN" : "COS");
        rdst(L, d, B(s, 16, 8));
        emit(L, "%s.approx.f32 %s, %%sc%u", f ? "sin" : "cos", d, B(s, 32, 8));
        return 0;
    }
    if (!fn[f])
        return unsupported(L, "MUFU function %u", f);
    if (s->form == 4)
        snprintf(b, 16, "0f%08X", B(s, 32, 32));
    else if (s->form != 1 && s->form != 5 && s->form != 6) /* 6: a UR (MUFU.RCP R7, UR4 in kernel f_div13) */
        return unsupported(L, "MUFU operand form %u", s->form);
    else if (opd_b(L, b, NULL))
        return -1;
    if (!strcmp(b, "0"))
        snprintf(b, 16, "0f00000000");
    rdst(L, d, B(s, 16, 8));
    emit(L, "%s.f32 %s, %s", fn[B(s, 74, 4)], d, b);
    return 0;
}

/* VOTEU.ANY URd, UPu, Pp (0x086; 72..73 mode, 1 ANY): whether Pp holds in
 * any active lane, into a uniform predicate (stencil: then @UP0 UIMAD),
 * and the ballot of Pp into URd (ptxas's warp-aggregated atomics: VOTEU.ANY
 * UR8, UPT, PT, the mask of active lanes). */
static int l_voteu(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char pr[20];
    if (need_hi(L, 0x300 | 0xe0000 | 0x07800000, 0) || s->form != 4 || B(s, 24, 40) || B(s, 16, 8) > 63)
        return L->rc ? -1 : unsupported(L, "VOTEU operand bits");
    if (B(s, 72, 2) != 1)
        return unsupported(L, "VOTEU mode %u", B(s, 72, 2));
    unsigned pu = B(s, 81, 3), rd = B(s, 16, 8);
    psrc(L, pr, B(s, 87, 3), B(s, 90, 1));
    emit(L, "activemask.b32 %%t0");
    if (rd != 63)
        emit(L, "vote.sync.ballot.b32 %%ur%u, %s, %%t0", rd, pr);
    if (pu != 7)
        emit(L, "vote.sync.any.pred %%up%u, %s, %%t0", pu, pr);
    return 0;
}

/* FLO{.U32} Rd, Rb (0x100): the highest set bit, 73 signed (ptxas on
 * bfind.{u32,s32}); POPC Rd, Rb (0x109): popc.b32; BREV Rd, Rb (0x101):
 * brev.b32 (__brev, kernel b_bits).  Operand forms 1, 4, 5,
 * 6 (a UR: FLO.U32 R12, UR8 on a ballot). */
static int l_bits(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char b[16], d[16];
    int flo = s->op == FE_SASS_FLO || s->op == FE_SASS_UFLO; /* UFLO (0x0bd): on URs, fill2d's leader lane */
    if (need_hi(L, flo ? 0x200 : 0, (flo ? 0xe0000 : 0) | uniform_bit(L)) || B(s, 24, 8) || s->form == 2 || s->form == 3 ||
        s->form == 7 || opd_b(L, b, NULL))
        return L->rc ? -1 : unsupported(L, "FLO/POPC operand bits or form");
    rdst(L, d, B(s, 16, 8));
    if (flo)
        emit(L, "bfind.%s32 %s, %s", B(s, 73, 1) ? "s" : "u", d, b);
    else
        emit(L, "%s.b32 %s, %s", s->op == FE_SASS_BREV ? "brev" : "popc", d, b);
    return 0;
}

/* R2P PR, Ra.Bk, mask (0x004, form 4): P_i = bit 8k + i of Ra for each bit i
 * of the mask; the other predicates keep their values (ptxas on setp.ne of
 * and.b32 with single bits of a loaded value, each ballotted: bits 0..3
 * give mask 0x0f, bits 1, 3, 5 give 0x2a and the VOTEs read P1, P3, P5,
 * bits 8..14 set 76 (.B1), 16..21 77 (.B2, mask 0x3f), 24..30 both; with
 * bits 4..9 ptxas sets P2..P5 by LOP3 and then R2P PR, R2.B1, 0x3 writes
 * P0 and P1 only; kernel w_r2p).  CUB's radix sort writes R2P PR, Rx, 0x7f
 * before a ballot of each digit bit. */
/* P2R Rd, PR, RZ, mask (0x003, form 4): Rd = the predicates of the mask at
 * their bit positions, 0 elsewhere (ptxas keeping ten live predicates in a
 * loop: P2R R18, PR, RZ, 0x2 after the ISETP that sets P1, and later
 * ISETP.NE.AND P1, PT, R18, RZ to get it back; P2R R19, PR, RZ, 0x1 the
 * same for P0; kernel w_r2p).  Ra other than RZ (the bits outside the mask
 * would come from it) and a byte selector have not been seen: refused. */
static int l_r2p(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    unsigned mask = B(s, 32, 32), k = B(s, 76, 2);
    int p2r = s->op == FE_SASS_P2R;
    if (need_hi(L, p2r ? 0 : 0x3000, 0) || s->form != 4 || B(s, p2r ? 24 : 16, 8) != (p2r ? 255u : 0u) || !mask ||
        mask > 0x7f)
        return L->rc ? -1 : unsupported(L, "%s form", p2r ? "P2R" : "R2P");
    char a[16], t[16], t2[16], pd[16];
    if (p2r) {
        char d[16];
        rdst(L, d, B(s, 16, 8));
        emit(L, "mov.b32 %s, 0", tmp(L, t));
        tmp(L, t2);
        for (unsigned i = 0; i < 7; i++)
            if (mask >> i & 1) {
                pname(L, pd, i);
                emit(L, "selp.b32 %s, 0x%x, 0, %s", t2, 1u << i, pd);
                emit(L, "or.b32 %s, %s, %s", t, t, t2);
            }
        emit(L, "mov.b32 %s, %s", d, t);
        return 0;
    }
    rsrc(L, a, B(s, 24, 8));
    if (!strcmp(a, "0"))
        return unsupported(L, "R2P of RZ");
    tmp(L, t);
    for (unsigned i = 0; i < 7; i++)
        if (mask >> i & 1) {
            pdst(L, pd, i);
            emit(L, "and.b32 %s, %s, 0x%x", t, a, 1u << (8 * k + i));
            emit(L, "setp.ne.u32 %s, %s, 0", pd, t);
        }
    return 0;
}

/* BMSK Rd, Ra, b (0x01b): PTX bmsk, a mask of b bits from bit a; 75 .W
 * (wrap; clear: clamp); b a register (form 1, 32..39), an immediate (4) or
 * a constant (5).  ptxas on bmsk.{clamp,wrap}.b32 with a and b registers,
 * parameters and immediates, one at a time (kernel b_bmsk); CUB's radix
 * sort has BMSK R4, RZ, R4. */
static int l_bmsk(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], b[16], d[16];
    if (need_hi(L, 0x800, 0) || (s->form != 1 && s->form != 4 && s->form != 5) || opd_b(L, b, NULL))
        return L->rc ? -1 : unsupported(L, "BMSK form");
    rsrc(L, a, B(s, 24, 8));
    rdst(L, d, B(s, 16, 8));
    emit(L, "bmsk.%s.b32 %s, %s, %s", B(s, 75, 1) ? "wrap" : "clamp", d, a, b);
    return 0;
}

/* ATOMG.E.OP Rd, [Ra.64 + off], Rb (0x1a8): op 87..90 as ATOMS, 73..74 type
 * (0 U32, 1 S32, 3 F32 with ADD), the memory order bits of the plain form
 * (hi 0x00081ee100, UR descriptor in 64..71).  ATOMG.CAS (0x1a9) Rd,
 * [Ra.64 + off], Rb (compare), Rc (new value), hi 0x00001ee100; ATOMS.CAS
 * (0x18d) likewise on shared memory, hi 0.  32-bit only.  ptxas on
 * atom.{global,shared}.OP, one at a time; kernel a_glob. */
static int l_atomg(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const aop[] = { "add", "min", "max", "inc", "dec", "and", "or", "xor", "exch" };
    char d[16], b[16], c[16], t[16], op[24];
    int32_t off = (int32_t)(B(s, 40, 24) << 8) / 256;
    unsigned ra = B(s, 24, 8), o = B(s, 87, 4), ty = B(s, 73, 2);
    /* ATOM / ATOM.CAS (0x18a, 0x18b): the same words with a generic
       address (ptxas on atom.OP without a state space, one OP at a time,
       and .relaxed.gpu, which gives the plain word; grid.sync()'s arrival
       atomic is atom.add.release.gpu: MEMBAR, ERRBAR, then this word) */
    int generic = s->op == FE_SASS_ATOM || s->op == FE_SASS_ATOM_CAS;
    if (s->op == FE_SASS_ATOMG || s->op == FE_SASS_ATOM) {
        if (need_hi(L, 0xff | 0x600 | 0x07800000, 0x00081ee100) || s->form != 4)
            return L->rc ? -1 : unsupported(L, "ATOMG form");
        if (o > 8 || ty == 2 || (ty == 3 && o != 0) || (ty == 1 && o != 1 && o != 2))
            return unsupported(L, "ATOMG operation %u type %u", o, ty);
        snprintf(op, sizeof op, "%s.%s", aop[o], ty == 3 ? "f32" : ty == 1 ? "s32" : o >= 5 ? "b32" : "u32");
    } else if (s->op == FE_SASS_ATOMG_CAS || s->op == FE_SASS_ATOM_CAS) {
        if (need_hi(L, 0xff, 0x00001ee100) || s->form != 1)
            return L->rc ? -1 : unsupported(L, "ATOMG.CAS form");
        snprintf(op, sizeof op, "cas.b32");
    } else {
        if (need_hi(L, 0xff, 0) || s->form != 1)
            return L->rc ? -1 : unsupported(L, "ATOMS.CAS form");
        snprintf(op, sizeof op, "cas.b32");
    }
    rsrc(L, b, B(s, 32, 8));
    rdst(L, d, B(s, 16, 8));
    if (s->op != FE_SASS_ATOMG && s->op != FE_SASS_ATOM)
        rsrc(L, c, B(s, 64, 8));
    char addr[40];
    if (s->op == FE_SASS_ATOMS_CAS) {
        char a[16];
        rsrc(L, a, ra);
        emit(L, "add.u32 %s, %s, %%sb", tmp(L, t), a);
        snprintf(addr, sizeof addr, "[%s%+d]", t, off);
    } else {
        if (ra >= 254)
            return unsupported(L, "address register pair R%u", ra);
        emit(L, "mov.b64 %%x0, {%%r%u, %%r%u}", ra, ra + 1);
        snprintf(addr, sizeof addr, "[%%x0%+d]", off);
    }
    const char *sp = s->op == FE_SASS_ATOMS_CAS ? ".shared" : generic ? "" : ".global";
    if (s->op == FE_SASS_ATOMG || s->op == FE_SASS_ATOM)
        emit(L, "atom%s.%s %s, %s, %s", sp, op, d, addr, ty == 3 && !strcmp(b, "0") ? "0f00000000" : b);
    else
        emit(L, "atom%s.%s %s, %s, %s, %s", sp, op, d, addr, b, c);
    return 0;
}

/* I2F (0x112) and F2I (0x111) with a 64-bit side: 75..76 the
 * destination's size and 84..85 the source's (2: 32 bits, 3: 64; for I2F
 * the destination is f32 or f64, for F2I the source), the sign bit (I2F 74,
 * F2I 72) and rounding 78..79 as in the 32-bit forms (ptxas on cvt between
 * f32/f64 and s32/u32/s64/u64, one at a time; kernel c_cvt64). */
static int l_cvt64(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const ir[] = { ".rn", ".rm", ".rp", ".rz" };
    static const char *const fr[] = { ".rni", ".rmi", ".rpi", ".rzi" };
    int i2f = s->op == FE_SASS_I2F64;
    unsigned sgbit = i2f ? 74 : 72;
    /* a 32-bit source may also be a constant (form 5: `I2F.F64.S32 R2,
       c[0x3][0x140]`, tests/cuda symbols) or a UR (form 6, bit 91; kernel
       c_cvtc) */
    unsigned f = s->form;
    if (need_hi(L, (1u << (sgbit - 64)) | 0x1800 | 0xc000 | 0x300000, f == 6 ? 1u << 27 : 0) || B(s, 24, 8) ||
        (f == 1 && B(s, 40, 24)) || (f == 5 && B(s, 59, 5)) || (f == 6 && B(s, 38, 26)) || (f != 1 && f != 5 && f != 6) ||
        (f != 1 && B(s, 84, 2) != 2))
        return L->rc ? -1 : unsupported(L, "conversion operand bits or form");
    unsigned ds = B(s, 75, 2), ss = B(s, 84, 2), sg = B(s, sgbit, 1), r = B(s, 78, 2);
    unsigned rb = B(s, 32, 8), rd = B(s, 16, 8);
    if (ds < 2 || ss < 2)
        return unsupported(L, "conversion of %u-bit values", ds < 2 ? 8u << ds : 8u << ss);
    char src[16], dst[16];
    if (ss == 3) {
        if (rb != 255 && rb >= 254)
            return unsupported(L, "register pair R%u", rb);
        if (rb == 255)
            emit(L, "mov.b64 %%x1, 0");
        else
            emit(L, "mov.b64 %%x1, {%%r%u, %%r%u}", rb, rb + 1);
        snprintf(src, sizeof src, "%%x1");
    } else if (f == 5) {
        if (cload(L, B(s, 54, 5), B(s, 38, 16), 4, src))
            return -1;
    } else if (f == 6)
        usrc(src, B(s, 32, 6));
    else
        rsrc(L, src, rb);
    if (ss == 2 && !i2f && !strcmp(src, "0"))
        snprintf(src, sizeof src, "0f00000000");
    int wide = ds == 3;
    if (wide && rd != 255 && rd >= 254)
        return unsupported(L, "register pair R%u", rd);
    if (wide)
        snprintf(dst, sizeof dst, "%%x0");
    else
        rdst(L, dst, rd);
    if (i2f)
        emit(L, "cvt%s.%s.%s%u %s, %s", ir[r], wide ? "f64" : "f32", sg ? "s" : "u", ss == 3 ? 64 : 32, dst, src);
    else
        emit(L, "cvt%s.%s%u.%s %s, %s", fr[r], sg ? "s" : "u", wide ? 64 : 32, ss == 3 ? "f64" : "f32", dst, src);
    if (wide && rd != 255)
        emit(L, "mov.b64 {%%r%u, %%r%u}, %%x0", rd, rd + 1);
    return 0;
}

/* SHFL.MODE Pu, Rd, Ra, lane, clamp (0x189): mode 58..59 (IDX UP DOWN
 * BFLY); form 1 lane R (32..39) and clamp R (64..71), 2 lane R and clamp
 * imm (40..52), 4 lane imm (53..57) and clamp R, 7 both immediate (ptxas on
 * shfl.sync.MODE.b32 with each operand register or immediate; kernel
 * w_shfl).  Form 4's clamp register: ptxas on shfl.sync.{down,up,idx,bfly}
 * with lane 1 or 3 and c a parameter or %tid.x put that register in 64..71
 * in all four modes (kernel w_shflc, whose c values change the result);
 * form 1 likewise with the lane register in 32..39 (kernel w_shflr).
 * The SASS word has no member mask: the active lanes are it. */
static int l_shfl(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const md[] = { "idx", "up", "down", "bfly" };
    char a[16], b[16], c[16], d[16], pd[16];
    int creg = s->form == 1 || s->form == 4, lreg = s->form == 1 || s->form == 2;
    /* seen: 1, 2, 4, 7 (form 1: ptxas on all four modes with lane and c
       registers, kernel w_shflr) */
    if (s->form != 1 && s->form != 2 && s->form != 4 && s->form != 7)
        return unsupported(L, "SHFL operand form %u", s->form);
    if (need_hi(L, 0xe0000 | (creg ? 0xff : 0), 0) || B(s, 60, 4) || (lreg && B(s, 53, 5)) || (creg && B(s, 40, 13)) ||
        (!lreg && B(s, 32, 8)))
        return L->rc ? -1 : unsupported(L, "SHFL operand bits");
    rsrc(L, a, B(s, 24, 8));
    rdst(L, d, B(s, 16, 8));
    if (lreg)
        rsrc(L, b, B(s, 32, 8));
    else
        snprintf(b, 16, "%u", B(s, 53, 5));
    if (creg)
        rsrc(L, c, B(s, 64, 8));
    else
        snprintf(c, 16, "0x%x", B(s, 40, 13));
    pdst(L, pd, B(s, 81, 3));
    emit(L, "activemask.b32 %%t11");
    if (!strcmp(pd, "%pz"))
        emit(L, "shfl.sync.%s.b32 %s, %s, %s, %s, %%t11", md[B(s, 58, 2)], d, a, b, c);
    else
        emit(L, "shfl.sync.%s.b32 %s|%s, %s, %s, %s, %%t11", md[B(s, 58, 2)], d, pd, a, b, c);
    return 0;
}

/* REDUX.OP URd, Ra (0x1c4, form 1): the reduction of Ra over the warp into
 * a uniform register; 78..80 the operation (0 AND, 1 OR, 2 XOR, 3 SUM, 4
 * MIN, 5 MAX), 73 signed (ptxas on redux.sync.{and,or,xor}.b32 and
 * redux.sync.{add,min,max}.{u32,s32}, one at a time; add.s32 sets 73 too).
 * The word has no member mask: an immediate mask, full or partial, gives
 * the same word, a mask in a register a WARPSYNC R before it and a partial
 * one in diverged code ptxas's BRA.CONV and a WARPSYNC of that mask; so the
 * active lanes are the members (kernel w_redux).  Not seen guarded, nor signed with AND/OR/XOR: refused. */
static int l_redux(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const rop[6] = { "and", "or", "xor", "add", "min", "max" };
    char a[16], d[16];
    unsigned op = B(s, 78, 3), sg = B(s, 73, 1), rd = B(s, 16, 8);
    if (need_hi(L, 0x200 | 0x1c000, 0) || s->form != 1 || B(s, 32, 32) || rd > 63)
        return L->rc ? -1 : unsupported(L, "REDUX operand bits");
    if (op > 5 || (sg && op < 3))
        return unsupported(L, "REDUX operation %u%s", op, sg ? " signed" : "");
    if (L->guard[0])
        return unsupported(L, "guarded REDUX");
    rvec(L, a, B(s, 24, 8));
    if (rd == 63)
        snprintf(d, 16, "%%rz");
    else
        snprintf(d, 16, "%%ur%u", rd);
    emit(L, "activemask.b32 %%t11");
    emit(L, "redux.sync.%s.%s %s, %s, %%t11", rop[op], op < 3 ? "b32" : sg ? "s32" : "u32", d, a);
    return 0;
}

/* R2UR Pu, URd, Ra (0x1c2, form 1): Ra into a uniform register, Pu (81..83)
 * set when Ra holds one value in every active lane (our reading: an R2UR
 * takes one value for the warp; not measured, no GPU).  Seen as R2UR UR16,
 * R6 (thrust's merge sort, values ptxas knows to be uniform) and, with URd =
 * URZ and Pu, in ptxas's member-mask check of a per-lane mask m:
 *   REDUX.OR URx, m; R2UR Pu, URZ, m; @!Pu BRA.DIV URx, slow; VOTE.ANY ...
 * where the fall-through VOTE.ANY over the active lanes stands for
 * vote.sync.ballot(m) and the slow path is WARPSYNC m, VOTE.ANY, AND m.
 * The fall-through runs when Pu holds or every lane of the OR is active; it
 * gives the PTX path's ballot exactly when every lane's m covers the active
 * lanes.  The two cases where it would not (masks that differ while their
 * OR is the active lanes: tiled partitions of a converged warp; a lane
 * outside its own mask) depend on what the hardware's Pu and BRA.DIV do
 * there, which is not pinned: they trap at this instruction rather than
 * give an answer the PTX path would not.  A plain R2UR of a value that is
 * not the same in every active lane traps for the same reason (which lane
 * the hardware reads is not pinned); the lowered program keeps URs per
 * thread. */
static int mask_check(const struct lower *L, unsigned ra, unsigned p)
{
    struct fe_sass_insn w;
    const struct fe_cubin_kernel *k = L->k;
    int ur = -1;
    for (uint32_t a = L->s->addr; a >= 16 && a + 5 * 16 > L->s->addr && ur < 0; a -= 16) {
        if (is_jump_target(k, a) || fe_sass_decode(k->text + a - 16, a - 16, k->name, &w, NULL, 0))
            return 0;
        if (w.op == FE_SASS_REDUX && B(&w, 78, 3) == 1 && B(&w, 24, 8) == ra)
            ur = (int)B(&w, 16, 8);
    }
    for (uint32_t a = L->s->addr + 16; ur >= 0 && a + 16 <= k->text_size && a < L->s->addr + 9 * 16; a += 16) {
        if (is_jump_target(k, a) || fe_sass_decode(k->text + a, a, k->name, &w, NULL, 0))
            return 0;
        if (w.op == FE_SASS_BRA && B(&w, 91, 1))
            return B(&w, 32, 2) == 2 && B(&w, 24, 8) == (unsigned)ur && w.guard == p && w.guard_neg;
        if (B(&w, 81, 3) == p || B(&w, 84, 3) == p || w.op == FE_SASS_BRA || w.op == FE_SASS_CALL || w.op == FE_SASS_EXIT)
            return 0;
    }
    return 0;
}

static int l_r2ur(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char a[16], d[16], pu[16];
    unsigned rd = B(s, 16, 8), p = B(s, 81, 3);
    if (need_hi(L, 0xe0000, 0) || s->form != 1 || B(s, 32, 32) || rd > 63)
        return L->rc ? -1 : unsupported(L, "R2UR operand bits");
    if (L->guard[0])
        return unsupported(L, "guarded R2UR");
    if (rd == 63 && p == 7)
        return 0;
    if (p != 7 && (rd != 63 || !mask_check(L, B(s, 24, 8), p)))
        return unsupported(L, "R2UR with a predicate outside ptxas's member-mask check (REDUX.OR, R2UR, @!P BRA.DIV)");
    rsrc(L, a, B(s, 24, 8));
    emit(L, "activemask.b32 %%t9");
    emit(L, "redux.sync.or.b32 %%t10, %s, %%t9", a);
    emit(L, "redux.sync.and.b32 %%t11, %s, %%t9", a);
    emit(L, "setp.eq.u32 %%pr, %%t10, %%t11");          /* one value in every active lane */
    if (p == 7) {
        emit(L, "@!%%pr trap");
    } else {
        /* the fast path runs (Pu, or no lane of the OR inactive) where it
           would not be the ballot of each lane's mask (the AND of the masks
           misses an active lane): trap */
        pname(L, pu, p);
        emit(L, "mov.pred %s, %%pr", pu);
        emit(L, "and.b32 %%t10, %%t10, %%t9");
        emit(L, "setp.eq.u32 %%pr, %%t10, %%t9");      /* lanes of the OR all active, given the OR covers them */
        emit(L, "or.pred %%pr, %%pr, %s", pu);
        emit(L, "and.b32 %%t11, %%t11, %%t9");
        emit(L, "setp.ne.u32 %%pg, %%t11, %%t9");      /* a lane's mask misses an active lane */
        emit(L, "and.pred %%pr, %%pr, %%pg");
        emit(L, "@%%pr trap");
    }
    if (rd != 63) {
        snprintf(d, sizeof d, "%%ur%u", rd);
        emit(L, "mov.b32 %s, %s", d, a);
    }
    return 0;
}

/* VOTE.MODE Rd, Pu, Pp (0x006): 72..73 mode (0 ALL, 1 ANY), Rd the ballot
 * of Pp, Pu the vote (ptxas on __ballot_sync, __any_sync, __all_sync;
 * kernel w_shfl), over the active lanes. */
static int l_vote(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char d[16], pr[20], pd[16];
    if (need_hi(L, 0x300 | 0xe0000 | 0x07800000, 0) || s->form != 4 || B(s, 24, 40))
        return L->rc ? -1 : unsupported(L, "VOTE operand bits");
    unsigned mode = B(s, 72, 2), rd = B(s, 16, 8), pu = B(s, 81, 3);
    if (mode > 1)
        return unsupported(L, "VOTE mode %u", mode);
    psrc(L, pr, B(s, 87, 3), B(s, 90, 1));
    emit(L, "activemask.b32 %%t11");
    if (rd != 255) {
        rdst(L, d, rd);
        emit(L, "vote.sync.ballot.b32 %s, %s, %%t11", d, pr);
    }
    if (pu != 7) {
        pdst(L, pd, pu);
        emit(L, "vote.sync.%s.pred %s, %s, %%t11", mode ? "any" : "all", pd, pr);
    }
    return 0;
}

/* FCHK Pu, a, b: whether a / b must take the division's slow path.  Lowered
 * as always true: the slow path ptxas emits (a subroutine called when Pu is
 * set) is a complete IEEE division, correct for every input, so only the
 * speed differs (docs/sass.md). */
static int l_fchk(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    char pd[16];
    /* 72: -a (FCHK P0, -R146, R183 before a negated quotient in lib); no
       effect on an always-true check */
    /* form 4: an immediate divisor in 32..63 (x / 6.0f, kernel f_divk) */
    if (need_hi(L, 0xe0000 | 0x100, 0) || (s->form != 1 && s->form != 4) || B(s, 16, 8) || (s->form == 1 && B(s, 40, 24)))
        return L->rc ? -1 : unsupported(L, "FCHK form");
    pdst(L, pd, B(s, 81, 3));
    if (strcmp(pd, "%pz"))
        emit(L, "setp.eq.u32 %s, %%zero, 0", pd);
    return 0;
}

/* I2F (0x045): signed 74, rounding 78..79 (RN RM RP RZ); F2I (0x105): signed
 * 72, rounding 78..79 (RNI RMI RPI RZI).  32-bit integers and f32 only
 * (ptxas on cvt.RND.f32.{s32,u32} and cvt.RNDi.{s32,u32}.f32). */
static int l_cvt(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    static const char *const ir[] = { ".rn", ".rm", ".rp", ".rz" };
    static const char *const fr[] = { ".rni", ".rmi", ".rpi", ".rzi" };
    int i2f = s->op == FE_SASS_I2F || s->op == FE_SASS_I2F_MUFU;
    char b[16], d[16];
    if (s->op == FE_SASS_FRND) { /* FRND (0x107): 78..79 RNI RMI RPI RZI, 80 .FTZ: cvt.RNDi{.ftz}.f32.f32 */
        if (need_hi(L, 0xc000 | 0x10000, 0x201000 | uniform_bit(L)) || B(s, 24, 8))
            return L->rc ? -1 : unsupported(L, "FRND operand bits");
        if (s->form != 1 && s->form != 5 && s->form != 6)
            return unsupported(L, "FRND operand form %u", s->form);
        if (opd_b(L, b, NULL))
            return -1;
        rdst(L, d, B(s, 16, 8));
        emit(L, "cvt%s%s.f32.f32 %s, %s", fr[B(s, 78, 2)], B(s, 80, 1) ? ".ftz" : "", d, !strcmp(b, "0") ? "0f00000000" : b);
        return 0;
    }
    /* I2F 84..85: the source's size, 0 8 bits, 1 16, 2 32 (the low byte or
       half of the register: (float)(v & 255) is I2F.U8 of v itself; kernel
       c_cvt8) */
    uint64_t care = (i2f ? 0x400 | 0x300000 : 0x100 | 0x10000) | 0xc000; /* F2I 80: .FTZ (the integer division's F2I.FTZ.U32.TRUNC) */
    if (need_hi(L, care, (i2f ? 0x201000 : 0x203000) | uniform_bit(L)) || B(s, 24, 8))
        return L->rc ? -1 : unsupported(L, "conversion operand bits");
    unsigned isz = i2f ? B(s, 84, 2) : 2;
    if (isz == 3)
        return unsupported(L, "I2F of a 64-bit integer");
    if (s->form != 1 && s->form != 5 && s->form != 6)
        return unsupported(L, "conversion operand form %u", s->form);
    if (opd_b(L, b, NULL))
        return -1;
    rdst(L, d, B(s, 16, 8));
    unsigned sg = B(s, i2f ? 74 : 72, 1), r = B(s, 78, 2);
    if (i2f && isz < 2) {
        char t[16];
        unsigned bits = isz ? 16 : 8;
        tmp(L, t);
        if (sg) {
            emit(L, "shl.b32 %s, %s, %u", t, b, 32 - bits);
            emit(L, "shr.s32 %s, %s, %u", t, t, 32 - bits);
        } else
            emit(L, "and.b32 %s, %s, 0x%x", t, b, (1u << bits) - 1);
        snprintf(b, 16, "%s", t);
    }
    if (i2f)
        emit(L, "cvt%s.f32.%s %s, %s", ir[r], sg ? "s32" : "u32", d, b);
    else
        emit(L, "cvt%s%s.%s.f32 %s, %s", fr[r], B(s, 80, 1) ? ".ftz" : "", sg ? "s32" : "u32", d, !strcmp(b, "0") ? "0f00000000" : b);
    return 0;
}

static int lower_insn(struct lower *L)
{
    const struct fe_sass_insn *s = L->s;
    unsigned op = fe_sass_vector_op(s->op, &L->uni);
    if (L->uni) {
        /* uniform datapath: 6-bit register numbers in the 8-bit fields; the
           guard is a UP (lower_kernel) */
        if (B(s, 16, 8) > 63 || B(s, 24, 8) > 63 || (op != FE_SASS_ISETP && B(s, 64, 8) > 63) ||
            (s->form == 1 && B(s, 32, 8) > 63))
            return unsupported(L, "uniform register number above 63");
        /* UIMAD form 2: URa * UR[64..69] + imm32, as IMAD's (ptxas on a
           product of %nctaid and a parameter plus 12345, kernel u_imadi) */
        if (s->form != 1 && s->form != 4 && !(s->op == FE_SASS_UMOV && s->form == 6) &&
            !(s->op == FE_SASS_UIMAD && s->form == 2))
            return unsupported(L, "uniform instruction in operand form %u", s->form);
    }
    switch (op) {
    case FE_SASS_MOV: return l_mov(L);
    case FE_SASS_S2R: return l_s2r(L);
    case FE_SASS_CS2R: return l_cs2r(L);
    case FE_SASS_SEL: return l_sel(L);
    case FE_SASS_IMNMX: return l_imnmx(L);
    case FE_SASS_IABS: return l_iabs(L);
    case FE_SASS_IADD3: return l_iadd3(L);
    case FE_SASS_IMAD: case FE_SASS_IMAD_WIDE: case FE_SASS_IMAD_HI: return l_imad(L);
    case FE_SASS_LOP3: return l_lop3(L);
    case FE_SASS_PRMT: return l_prmt(L);
    case FE_SASS_IDP: return l_idp(L);
    case FE_SASS_SHF: case FE_SASS_USHF: return l_shf(L);
    case FE_SASS_LEA: return l_lea(L);
    case FE_SASS_ISETP: case FE_SASS_FSETP: return l_isetp(L);
    case FE_SASS_PLOP3: return l_plop3(L);
    case FE_SASS_FADD: case FE_SASS_FMUL: case FE_SASS_FFMA: return l_fp(L);
    case FE_SASS_ULDC: return l_uldc(L);
    case FE_SASS_HFMA2_MMA: return l_hfma2(L);
    case FE_SASS_LDG: case FE_SASS_STG: case FE_SASS_LDS: case FE_SASS_STS: case FE_SASS_LDL: case FE_SASS_STL:
    case FE_SASS_LD: case FE_SASS_ST:
        return l_mem(L);
    case FE_SASS_MUFU: return l_mufu(L);
    case FE_SASS_HADD2: case FE_SASS_HMUL2: case FE_SASS_HFMA2: case FE_SASS_F2FP: return l_half(L);
    case FE_SASS_F2I64: case FE_SASS_I2F64: return l_cvt64(L);
    case FE_SASS_DADD: case FE_SASS_DMUL: case FE_SASS_DFMA: case FE_SASS_DSETP: case FE_SASS_F2F: return l_dfp(L);
    case FE_SASS_VOTEU: return l_voteu(L);
    case FE_SASS_FLO: case FE_SASS_POPC: case FE_SASS_BREV: return l_bits(L);
    case FE_SASS_ATOMG: case FE_SASS_ATOMG_CAS: case FE_SASS_ATOMS_CAS: case FE_SASS_ATOM: case FE_SASS_ATOM_CAS:
        return l_atomg(L);
    case FE_SASS_R2P: case FE_SASS_P2R: return l_r2p(L);
    case FE_SASS_BMSK: return l_bmsk(L);
    case FE_SASS_SHFL: return l_shfl(L);
    case FE_SASS_VOTE: return l_vote(L);
    case FE_SASS_REDUX: return l_redux(L);
    case FE_SASS_R2UR: return l_r2ur(L);
    case FE_SASS_FMNMX: return l_fmnmx(L);
    case FE_SASS_ATOMS: case FE_SASS_RED: return l_atom(L);
    case FE_SASS_LDC: case FE_SASS_ULDC_IDX: return l_ldc(L);
    case FE_SASS_FCHK: return l_fchk(L);
    case FE_SASS_I2F: case FE_SASS_F2I: case FE_SASS_FRND: return l_cvt(L);
    case FE_SASS_LDGSTS: return l_ldgsts(L);
    case FE_SASS_LDSM: return l_ldsm(L);
    case FE_SASS_MOVM: return l_movm(L);
    case FE_SASS_HMMA: case FE_SASS_IMMA: case FE_SASS_DMMA: return l_mma(L);
    case FE_SASS_LDGDEPBAR: case FE_SASS_DEPBAR: return l_depbar(L);
    case FE_SASS_TEX: case FE_SASS_TEX_B: case FE_SASS_TLD: case FE_SASS_TLD_B: return l_tex(L);
    case FE_SASS_SULD: case FE_SASS_SULD_B: case FE_SASS_SUST: case FE_SASS_SUST_B: return l_surf(L);
    default: return l_ctrl(L);
    }
}

static unsigned align_of(uint32_t off, uint32_t size)
{
    unsigned a = 1;
    while (a < 16 && a < size && !(off & (a * 2 - 1)) && (a * 2) <= 16)
        a *= 2;
    return a;
}

static int lower_kernel(struct lower *L, const struct fe_cubin_kernel *k)
{
    struct sb *o = &L->out;
    L->k = k;
    sb_put(o, "\n");
    amap_add(L, 0); /* (the entry's own instructions: address 0) */
    sb_put(o, ".visible .entry %s(", k->name);
    for (uint32_t i = 0; i < k->nparams; i++)
        sb_put(o, "%s\n\t.param .align %u .b8 %s_p%u[%u]", i ? "," : "", align_of(k->params[i].offset, k->params[i].size),
               k->name, i, k->params[i].size);
    sb_put(o, ")\n");
    if (k->maxntid[0])
        sb_put(o, ".maxntid %u, %u, %u\n", k->maxntid[0], k->maxntid[1], k->maxntid[2]);
    if (k->reqntid[0])
        sb_put(o, ".reqntid %u, %u, %u\n", k->reqntid[0], k->reqntid[1], k->reqntid[2]);
    sb_put(o, "{\n");
    sb_put(o, "\t.reg .b32 %%sc<255>;\n\t.reg .b16 %%h<2>;\n");
    sb_put(o, "\t.reg .b32 %%r<255>;\n\t.reg .b32 %%ur<63>;\n\t.reg .pred %%p<7>;\n\t.reg .pred %%up<7>;\n");
    sb_put(o, "\t.reg .pred %%pt, %%pz, %%pg, %%pr, %%pbar;\n\t.reg .b32 %%rbar;\n\t.reg .b32 %%rz, %%zero, %%sb, %%t<%d>;\n\t.reg .b64 %%x<8>;\n", NTMP);
    if (k->shared_size)
        sb_put(o, "\t.shared .align 16 .b8 %s_smem[%u];\n", k->name, k->shared_size);
    if (k->frame_size)
        sb_put(o, "\t.local .align 16 .b8 %s_frame[%u];\n", k->name, k->frame_size);
    sb_put(o, "\tmov.b32 %%zero, 0;\n\tsetp.eq.u32 %%pt, %%zero, 0;\n");
    if (k->shared_size)
        sb_put(o, "\tmov.u32 %%sb, %s_smem;\n", k->name);
    else
        sb_put(o, "\tmov.b32 %%sb, 0;\n");
    uint32_t loc_file = 0, loc_line = 0;
    for (uint32_t a = 0; a < k->text_size && !L->rc; a += 16) {
        struct fe_sass_insn s;
        if (fe_sass_decode(k->text + a, a, k->name, &s, L->err, L->errlen)) {
            char m[512];
            snprintf(m, sizeof m, "%s: %s", L->file, L->err);
            snprintf(L->err, L->errlen, "%s", m);
            L->rc = MX_EUNSUPPORTED;
            break;
        }
        L->s = &s;
        L->ntmp = 0;
        char text[160];
        fe_sass_format(&s, text, sizeof text);
        amap_add(L, a);
        sb_put(o, "L%u_%04x:\t// %s\n", L->kidx, a, text);
        const struct fe_cubin_line *src = fe_cubin_line_at(k, a); /* the line table's row, as .file/.loc */
        if (src && src->file >= FE_MAX_LOC_FILES)
            src = NULL;
        if ((src ? src->file + 1 : 0) != loc_file || (src ? src->line : 0) != loc_line) {
            loc_file = src ? src->file + 1 : 0;
            loc_line = src ? src->line : 0;
            sb_put(o, "\t.loc %u %u 0\n", loc_file, loc_line);
        }
        L->guard[0] = 0;
        if (s.guard == 7 && s.guard_neg)
            continue;                    /* @!PT: never runs */
        if (s.guard != 7) {
            int uni;
            fe_sass_vector_op(s.op, &uni);
            /* a uniform instruction runs once per warp: its guard is a UP
               (VOTEU.ANY UP0, P1 then @UP0 UIMAD in stencil); the other
               uniform-register writers are refused with a guard */
            if (s.op == FE_SASS_USHF || s.op == FE_SASS_ULDC || s.op == FE_SASS_ULDC_IDX || s.op == FE_SASS_VOTEU) {
                L->s = &s;
                unsupported(L, "guarded uniform instruction");
                break;
            }
            if (!uni && (s.op == FE_SASS_BRA || s.op == FE_SASS_EXIT || s.op == FE_SASS_CALL || s.op == FE_SASS_BRX))
                snprintf(L->guard, sizeof L->guard, "@%s%%p%u ", s.guard_neg ? "!" : "", s.guard);
            else {
                sb_put(o, "\tmov.pred %%pg, %%%sp%u;\n", uni ? "u" : "", s.guard);
                snprintf(L->guard, sizeof L->guard, "@%s%%pg ", s.guard_neg ? "!" : "");
            }
        }
        lower_insn(L);
    }
    sb_put(o, "}\n");
    return L->rc;
}

/* Does kernel k read constant bank `bank` with an index (LDC / ULDC with a
 * register)? */
static int bank_indexed(const struct fe_cubin_kernel *k, unsigned bank)
{
    for (uint32_t a = 0; a < k->text_size; a += 16) {
        struct fe_sass_insn w;
        if (fe_sass_decode(k->text + a, a, k->name, &w, NULL, 0))
            continue;
        unsigned rz = w.op == FE_SASS_ULDC_IDX ? 63 : 255;
        if ((w.op == FE_SASS_LDC || w.op == FE_SASS_ULDC_IDX) && fe_sass_bits(&w, 54, 5) == bank &&
            fe_sass_bits(&w, 24, 8) != rz)
            return 1;
    }
    return 0;
}

static int bank4_indexed(const struct fe_cubin *c)
{
    for (uint32_t k = 0; k < c->nkernels; k++)
        if (bank_indexed(&c->kernels[k], 4))
            return c->cbank4 && c->cbank4_size % 8 == 0;
    return 0;
}

/* The PTX text of the cubin; with m, where each SASS instruction's code
 * starts in it (*m malloc'd, *nm entries, in order of line). */
static char *lower_text(const struct fe_cubin *c, const char *file, char *err, size_t errlen, struct amap **m,
                        uint32_t *nm)
{
    struct lower L = { .c = c, .file = file, .err = err, .errlen = errlen };
    if (m && !(L.amap = malloc(256 * sizeof *L.amap))) {
        snprintf(err, errlen, "%s: out of memory", file);
        return NULL;
    }
    L.amap_cap = m ? 256 : 0;
    sb_put(&L.out, "// lowered from %s (sm_%u) by the Morpheus SASS front end\n.version 9.0\n.target sm_%u\n"
           ".address_size 64\n", file, c->arch, c->arch);
    for (uint32_t i = 0; i < c->nfiles && i < FE_MAX_LOC_FILES; i++) /* the line table's source files */
        sb_put(&L.out, ".file %u \"%s\"\n", i + 1, c->files[i]);
    for (uint32_t i = 0; i < c->nrelocs; i++)
        if (first_ext(c, i)) { /* the external functions bank 4 holds the addresses of */
            const struct ext_fn *f = ext_fn(c->relocs[i].func);
            sb_put(&L.out, "\n.extern .func ");
            if (f->ret)
                sb_put(&L.out, "(.param .b%u rv) ", f->ret * 8);
            sb_put(&L.out, "%s (", f->name);
            for (unsigned j = 0; f->args[j]; j++)
                sb_put(&L.out, "%s.param .b%u a%u", j ? ", " : "", f->args[j] == '8' ? 64 : 32, j);
            sb_put(&L.out, ");\n");
        }
    for (uint32_t i = 0; i < c->nglobals; i++) {
        const struct fe_cubin_global *v = &c->globals[i];
        sb_put(&L.out, "\n.visible .global .align %u .b8 %s[%u]", align_of(v->offset, v->size), v->name, v->size);
        int nonzero = 0;
        for (uint32_t j = 0; v->init && j < v->size; j++)
            nonzero |= v->init[j];
        if (nonzero) {
            sb_put(&L.out, " = {");
            for (uint32_t j = 0; j < v->size; j++)
                sb_put(&L.out, "%s%u", j ? (j % 32 ? ", " : ",\n\t") : "", v->init[j]);
            sb_put(&L.out, "}");
        }
        sb_put(&L.out, ";\n");
    }
    if (bank4_indexed(c)) {
        /* bank 4 as an array, for reads with an index: each 64-bit slot the
           address its relocation names (plus the addend), or its bytes */
        sb_put(&L.out, "\n.const .align 8 .u64 __sass_bank4[%u] = {", c->cbank4_size / 8);
        for (uint32_t s = 0; s < c->cbank4_size / 8; s++) {
            const struct fe_cubin_reloc *r = NULL;
            for (uint32_t i = 0; i < c->nrelocs; i++)
                if (c->relocs[i].offset == s * 8)
                    r = &c->relocs[i];
            if (r && r->func && !ext_fn(r->func))
                r = NULL; /* (a read of it is refused) */
            if (r)
                sb_put(&L.out, "%s%s+%" PRIu64, s ? ", " : "", r->func ? r->func : c->globals[r->global].name, r->addend);
            else {
                uint64_t v = 0;
                for (unsigned j = 8; j-- > 0;)
                    v = v << 8 | c->cbank4[s * 8 + j];
                sb_put(&L.out, "%s%" PRIu64, s ? ", " : "", v);
            }
        }
        sb_put(&L.out, "};\n");
    }
    for (uint32_t k = 0; k < c->nkernels; k++) {
        /* a kernel's bank 2 as an array, for reads with an index */
        const struct fe_cubin_kernel *kk = &c->kernels[k];
        if (!kk->cbank2 || !bank_indexed(kk, 2))
            continue;
        sb_put(&L.out, "\n.const .align 8 .b8 __sass_bank2_%u[%u] = {", k, kk->cbank2_size);
        for (uint32_t j = 0; j < kk->cbank2_size; j++)
            sb_put(&L.out, "%s%u", j ? (j % 32 ? ", " : ",\n\t") : "", kk->cbank2[j]);
        sb_put(&L.out, "};\n");
    }
    for (uint32_t i = 0; i < c->nconsts; i++) {
        const struct fe_cubin_const *v = &c->consts[i];
        int nonzero = 0;
        for (uint32_t j = 0; j < v->size; j++)
            nonzero |= c->cbank3[v->offset + j];
        sb_put(&L.out, "\n.const .align %u .b8 %s[%u]", align_of(v->offset, v->size), v->name, v->size);
        if (nonzero) {
            sb_put(&L.out, " = {");
            for (uint32_t j = 0; j < v->size; j++)
                sb_put(&L.out, "%s%u", j ? (j % 32 ? ", " : ",\n\t") : "", c->cbank3[v->offset + j]);
            sb_put(&L.out, "}");
        }
        sb_put(&L.out, ";\n");
    }
    for (uint32_t i = 0; i < c->nkernels && !L.rc; i++) {
        L.kidx = i;
        lower_kernel(&L, &c->kernels[i]);
    }
    if (!L.rc && L.out.oom) {
        snprintf(err, errlen, "%s: out of memory", file);
        L.rc = MX_ENOMEM;
    }
    if (L.rc) {
        free(L.out.p);
        free(L.amap);
        return NULL;
    }
    if (m) {
        *m = L.amap;
        *nm = L.namap;
    }
    return L.out.p;
}

char *fe_sass_lower_text(const struct fe_cubin *c, const char *file, char *err, size_t errlen)
{
    return lower_text(c, file, err, errlen, NULL, NULL);
}

/* prog->sass_addr: each instruction's SASS address, from the line of the
 * lowered text it was parsed from. */
static int sass_addrs(struct mx_program *prog, const struct amap *m, uint32_t nm)
{
    prog->sass_addr = malloc((prog->ninsns ? prog->ninsns : 1) * sizeof *prog->sass_addr);
    if (!prog->sass_addr)
        return MX_ENOMEM;
    for (uint32_t i = 0; i < prog->ninsns; i++) {
        uint32_t line = prog->insns[i].line, lo = 0, hi = nm;
        while (lo < hi) { /* the last sequence starting at or before the line */
            uint32_t mid = lo + (hi - lo) / 2;
            if (m[mid].line <= line)
                lo = mid + 1;
            else
                hi = mid;
        }
        prog->sass_addr[i] = lo ? m[lo - 1].addr : 0;
    }
    return MX_OK;
}

int fe_sass_load(const struct fe_cubin *c, const char *file, const struct fe_options *opt, struct mx_program *prog,
                 struct mx_diag *diag)
{
    char err[sizeof diag->first];
    memset(prog, 0, sizeof *prog);
    struct amap *m = NULL;
    uint32_t nm = 0;
    char *text = lower_text(c, file, err, sizeof err, &m, &nm);
    if (!text) {
        if (diag) {
            diag->nerrors++;
            snprintf(diag->first, sizeof diag->first, "%s", err);
            if (diag->out)
                fprintf(diag->out, "%s\n", err);
        }
        return strstr(err, "out of memory") ? MX_ENOMEM : MX_EUNSUPPORTED;
    }
    char name[300];
    snprintf(name, sizeof name, "%s (lowered)", file);
    int rc = fe_parse_ptx(text, strlen(text), name, opt, prog, diag);
    free(text);
    if (!rc)
        rc = sass_addrs(prog, m, nm);
    free(m);
    if (rc)
        return rc;
    /* the parameter layout the PTX declarations produced must be the cubin's */
    for (uint32_t i = 0; i < c->nkernels; i++) {
        const struct fe_cubin_kernel *k = &c->kernels[i];
        int f = mx_program_find_func(prog, k->name);
        if (f < 0)
            return MX_EUNSUPPORTED;
        const struct mx_func *fn = &prog->funcs[f];
        for (uint32_t j = 0; j < k->nparams && j < fn->nparams; j++)
            if (prog->syms[fn->param + j].offset != k->params[j].offset) {
                if (diag) {
                    diag->nerrors++;
                    snprintf(diag->first, sizeof diag->first, "%s: kernel %s: parameter %u at offset %u cannot be laid out "
                             "as in the cubin", file, k->name, j, k->params[j].offset);
                    if (diag->out)
                        fprintf(diag->out, "%s\n", diag->first);
                }
                return MX_EUNSUPPORTED;
            }
    }
    return MX_OK;
}

int fe_parse_input(const char *src, size_t len, const char *name, const struct fe_options *opt, struct mx_program *prog,
                   struct mx_diag *diag)
{
    if (!fe_is_elf((const uint8_t *)src, len))
        return fe_parse_ptx(src, len, name, opt, prog, diag);
    struct fe_cubin c;
    char err[sizeof diag->first];
    memset(prog, 0, sizeof *prog);
    int rc = fe_cubin_read((const uint8_t *)src, len, name, &c, err, sizeof err);
    if (rc) {
        if (diag) {
            diag->nerrors++;
            snprintf(diag->first, sizeof diag->first, "%s", err);
            if (diag->out)
                fprintf(diag->out, "%s\n", err);
        }
        return rc;
    }
    if (c.warning[0] && diag) {
        diag->nwarnings++;
        if (diag->out)
            fprintf(diag->out, "%s\n", c.warning);
    }
    rc = fe_sass_load(&c, name, opt, prog, diag);
    fe_cubin_free(&c);
    return rc;
}
