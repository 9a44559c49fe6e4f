/* tests/fuzz/fuzz_kernel.c — libFuzzer target for the emulator: PTX text is
 * parsed, loaded on a small device, and every kernel (.entry) is launched on
 * a tiny grid under a watchdog, with parameters derived from the kernel's
 * name and signature: pointers to a few KiB of patterned device memory,
 * texture handles, small scalars.  A guest fault (bad address, watchdog,
 * deadlock, unsupported instruction) is the emulator doing its job; a host
 * crash, sanitizer report, leak or broken fault report is a finding.
 * The PTX-aware mutator is ptx_mutate.c.  Built by run-fuzz.sh (clang,
 * libFuzzer, ASan, UBSan) and, without libFuzzer, by fuzz_replay.c. */
#include "tests/fuzz/fuzz_kernel.h"
#include "tests/fuzz/ptx_mutate.h"
#include "frontend/ptx.h"
#include "emu/emu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Environment knobs (read once):
 *   MX_FUZZ_INSNS     warp-instruction watchdog per launch (default 200000)
 *   MX_FUZZ_WALL      wall-clock watchdog per launch, seconds (default 1)
 *   MX_FUZZ_KERNELS   kernels launched per input at most (default 4, 0 = all)
 *   MX_FUZZ_VERBOSE   1: one line per launch on stderr, fault reports included
 *   MX_FUZZ_STDOUT    1: keep the guests' printf output (default: /dev/null)
 *   MX_FUZZ_BYTES     1: libFuzzer's byte-level mutations only (to compare) */
#define BUF_BYTES 8192u   /* device buffer behind each pointer parameter */
#define GRID 2u
#define BLOCK 64u
#define DYN_SMEM 2048u    /* given to kernels that declare dynamic shared memory */

struct fk_counts fk_counts;
unsigned fk_max_kernels = 4;
int fk_quiet_exit;
static uint64_t opt_insns = 200000;
static double opt_wall = 1.0;
static int opt_verbose;
static int opt_bytes_only;
static FILE *devnull;

/* At exit (a run that ended without a finding): what the launches did, so
 * a log shows the harness really runs kernels. */
static void print_counts(void)
{
    if (fk_quiet_exit || !fk_counts.inputs) /* a fork-mode parent runs nothing itself */
        return;
    fprintf(stderr, "fuzz_kernel: %llu inputs, %llu parsed, %llu loaded, %llu launches (%llu completed, %llu watchdog), "
            "%llu warp instructions\n", (unsigned long long)fk_counts.inputs, (unsigned long long)fk_counts.parsed,
            (unsigned long long)fk_counts.loaded, (unsigned long long)fk_counts.launches,
            (unsigned long long)fk_counts.by_status[MX_OK], (unsigned long long)fk_counts.by_status[MX_EWATCHDOG],
            (unsigned long long)fk_counts.warp_insns);
}

static uint64_t envnum(const char *name, uint64_t def)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 0) : def;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    opt_insns = envnum("MX_FUZZ_INSNS", opt_insns);
    fk_max_kernels = (unsigned)envnum("MX_FUZZ_KERNELS", fk_max_kernels);
    const char *w = getenv("MX_FUZZ_WALL");
    if (w && *w)
        opt_wall = strtod(w, NULL);
    opt_verbose = (int)envnum("MX_FUZZ_VERBOSE", 0);
    opt_bytes_only = (int)envnum("MX_FUZZ_BYTES", 0);
    devnull = fopen("/dev/null", "w");
    if (!devnull)
        abort();
    /* device printf writes to stdout: thousands of lines per second otherwise */
    if (!envnum("MX_FUZZ_STDOUT", 0) && !freopen("/dev/null", "w", stdout))
        abort();
    if (mx_isa_init() < 0)
        abort();
    atexit(print_counts);
    return 0;
}

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

/* A device buffer of BUF_BYTES with one of three patterns: small indices
 * (in range for the buffer when used as element numbers), floats in
 * [0, 4), or arbitrary bits. */
static int new_buffer(struct emu_device *dev, uint64_t *seed, uint64_t *addr)
{
    static uint32_t img[BUF_BYTES / 4];
    unsigned kind = (unsigned)(mix(seed) % 3);
    for (uint32_t i = 0; i < BUF_BYTES / 4; i++) {
        uint64_t r = mix(seed);
        if (kind == 0)
            img[i] = (uint32_t)(r % 64);
        else if (kind == 1) {
            float f = (float)(r % 4096) / 1024.0f;
            memcpy(&img[i], &f, 4);
        } else
            img[i] = (uint32_t)r;
    }
    if (emu_malloc(dev, BUF_BYTES, addr) || emu_memcpy_htod(dev, *addr, img, BUF_BYTES))
        return -1;
    return 0;
}

/* A texture over a fresh buffer, its shape drawn from the seed. */
static uint64_t new_texture(struct emu_device *dev, uint64_t *seed)
{
    uint64_t base;
    if (new_buffer(dev, seed, &base))
        return 0;
    uint64_t r = mix(seed);
    struct emu_tex_desc d;
    memset(&d, 0, sizeof d);
    d.base = base;
    d.dims = 1 + (uint32_t)(r % 3);
    d.channels = (uint8_t)(1u << ((r >> 2) % 3));
    d.bits = (uint8_t)(8u << ((r >> 4) % 3));
    d.kind = (uint8_t)((r >> 6) % 3);
    if (d.kind == EMU_TEX_FLOAT && d.bits == 8)
        d.bits = 32;
    /* the texels must fit the buffer: width * height * depth * texel bytes */
    d.width = d.dims == 1 ? 64 : d.dims == 2 ? 16 : 8;
    d.height = d.dims >= 2 ? (d.dims == 2 ? 16 : 8) : 1;
    d.depth = d.dims == 3 ? 4 : 1;
    d.read_normalized = (uint8_t)((r >> 8) & 1);
    d.filter_linear = (uint8_t)((r >> 9) & 1) && d.kind == EMU_TEX_FLOAT;
    d.norm_coords = (uint8_t)((r >> 10) & 1);
    d.linear_mem = d.dims == 1 && ((r >> 11) & 1);
    for (int i = 0; i < 3; i++)
        d.addr[i] = (uint8_t)((r >> (12 + 2 * i)) % 4);
    uint64_t h = 0;
    if (emu_tex_create(dev, &d, &h))
        return 0;
    return h;
}

/* Small scalar bits for a parameter of type t. */
static uint64_t small_scalar(int t, uint64_t *seed)
{
    static const uint32_t ints[] = { 128, 64, 1, 2, 3, 16, 32, 100, 0, 7 };
    uint64_t r = mix(seed);
    if (t == MX_T_F32) {
        float f = (float)(r % 9) * 0.5f;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    if (t == MX_T_F64) {
        double d = (double)(r % 9) * 0.5;
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    return ints[r % (sizeof ints / sizeof ints[0])];
}

/* Fills the parameter buffer of kernel f: the choice for each parameter
 * depends on the kernel's name and the parameter's position and type only,
 * so mutating a kernel body keeps its arguments. */
static int make_params(struct emu_device *dev, const struct mx_program *g, const struct mx_func *f, uint8_t *buf)
{
    uint64_t seed = hash_str(mx_str(g, f->name));
    /* 64-bit parameters of a kernel that samples textures may be handles */
    int tex = 0;
    for (uint32_t i = f->first; i < f->first + f->ninsns; i++)
        tex |= mx_opinfo(g->insns[i].op)->unit == MX_UNIT_TEX;
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct mx_symbol *s = &g->syms[f->param + i];
        uint64_t ps = seed ^ (i * 0x100000001B3ull) ^ s->type;
        if (s->offset + s->size > f->param_size)
            abort(); /* the front end laid the parameters out wrongly */
        uint8_t *p = buf + s->offset;
        if (s->type >= MX_T_TEXREF) {
            uint64_t h = new_texture(dev, &ps);
            memcpy(p, &h, s->size < 8 ? s->size : 8);
        } else if (s->size == 8 && !mx_type_is_float(s->type) && s->vec <= 1) {
            /* mostly a buffer: a wrong guess faults at the first access */
            unsigned r = (unsigned)(mix(&ps) % 16);
            uint64_t v;
            if (tex && r < 8)
                v = new_texture(dev, &ps);
            else if ((s->flags & MX_SYMF_PTR) || r) {
                if (new_buffer(dev, &ps, &v))
                    return -1;
            } else
                v = small_scalar(s->type, &ps);
            memcpy(p, &v, 8);
        } else if (s->size <= 8 && s->vec <= 1) {
            uint64_t v = small_scalar(s->type, &ps);
            memcpy(p, &v, s->size);
        } else {
            /* an aggregate (.b8 array, vector): pointers in some 8-byte slots */
            for (uint64_t o = 0; o < s->size; o += 8) {
                uint64_t v = mix(&ps) % 3 == 0 || (s->offset + o) % 8 ? small_scalar(MX_T_U32, &ps) : 0;
                if (!v && new_buffer(dev, &ps, &v))
                    return -1;
                memcpy(p + o, &v, s->size - o < 8 ? s->size - o : 8);
            }
        }
    }
    return 0;
}

static int uses_dynamic_shared(const struct mx_program *g)
{
    for (uint32_t i = 0; i < g->nsyms; i++)
        if (g->syms[i].flags & MX_SYMF_DYNAMIC)
            return 1;
    return 0;
}

/* Block shape: .reqntid if given, else 64 threads or fewer under .maxntid. */
static void block_of(const struct mx_func *f, uint32_t b[3])
{
    b[0] = BLOCK, b[1] = b[2] = 1;
    if (f->reqntid[0]) {
        memcpy(b, f->reqntid, sizeof f->reqntid);
        for (int i = 0; i < 3; i++)
            b[i] = b[i] ? b[i] : 1;
    } else if (f->maxntid[0]) {
        uint64_t m = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) * (f->maxntid[2] ? f->maxntid[2] : 1);
        if (m < BLOCK)
            b[0] = (uint32_t)m;
    }
}

static void launch_one(struct emu_device *dev, struct emu_module *mod, const struct mx_program *g, uint32_t fi)
{
    const struct mx_func *f = &g->funcs[fi];
    uint8_t *params = calloc(f->param_size + 8, 1);
    if (!params)
        abort();
    if (make_params(dev, g, f, params)) {
        free(params); /* device memory full: a guest limit, not a finding */
        return;
    }
    struct emu_launch l;
    memset(&l, 0, sizeof l);
    l.func = fi;
    l.grid[0] = GRID, l.grid[1] = l.grid[2] = 1;
    block_of(f, l.block);
    l.dyn_smem = uses_dynamic_shared(g) ? DYN_SMEM : 0;
    l.params = params;
    l.params_size = f->param_size;
    struct emu_stats st;
    struct emu_fault fault;
    int rc = emu_launch(dev, mod, &l, &st, &fault);
    free(params);
    fk_counts.launches++;
    fk_counts.warp_insns += st.warp_insns;
    if (rc < 0 || rc >= MX_STATUS__COUNT) {
        fprintf(stderr, "fuzz_kernel: %s: emu_launch returned %d, not a status\n", mx_str(g, f->name), rc);
        abort();
    }
    fk_counts.by_status[rc]++;
    /* the watchdog must hold; it is checked at the end of each quantum, in
     * which every SM issues at most cfg.quantum instructions (emu/sched.c) */
    const struct emu_config *dc = emu_device_config(dev);
    if (opt_insns && st.warp_insns > opt_insns + (uint64_t)dc->quantum * dc->num_sms) {
        fprintf(stderr, "fuzz_kernel: %s ran %llu warp instructions past a %llu watchdog\n", mx_str(g, f->name),
                (unsigned long long)st.warp_insns, (unsigned long long)opt_insns);
        abort();
    }
    if (rc != MX_OK) {
        /* every failure must be explained: status recorded and a message */
        if (fault.status != rc || !fault.message[0]) {
            fprintf(stderr, "fuzz_kernel: %s failed with %s but the fault report says %s, '%s'\n", mx_str(g, f->name),
                    mx_status_name(rc), mx_status_name(fault.status), fault.message);
            abort();
        }
        emu_fault_print(opt_verbose ? stderr : devnull, &fault);
    }
    if (opt_verbose)
        fprintf(stderr, "fuzz_kernel: %s block %u,%u,%u: %s, %llu warp instructions\n", mx_str(g, f->name), l.block[0],
                l.block[1], l.block[2], mx_status_name(rc), (unsigned long long)st.warp_insns);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull)
        LLVMFuzzerInitialize(NULL, NULL);
    fk_counts.inputs++;
    struct mx_diag diag;
    memset(&diag, 0, sizeof diag);
    /* every extension on: the extension gating itself is fuzz_ptx's business */
    uint32_t ext = 0;
    for (int e = 1; e < MX_EXT__COUNT; e++)
        ext |= 1u << e;
    struct fe_options opt = { .ext_mask = ext, .max_errors = 1, .diag_out = opt_verbose ? stderr : NULL };
    diag.out = opt.diag_out;
    struct mx_program prog;
    int rc = fe_parse_ptx((const char *)data, size, "fuzz.ptx", &opt, &prog, &diag);
    if (rc != MX_OK) {
        mx_program_free(&prog);
        return -1; /* not worth keeping in the corpus */
    }
    fk_counts.parsed++;
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = 2;
    cfg.mem_size = 64ull << 20;
    cfg.ext_mask = ext;
    cfg.watchdog_insns = opt_insns;
    cfg.watchdog_seconds = opt_wall;
    cfg.host_threads = 1;
    cfg.local_per_thread = 16 * 1024;
    struct emu_device *dev = NULL;
    struct emu_module *mod = NULL;
    char err[512];
    if (emu_device_create(&cfg, &dev))
        abort();
    rc = emu_module_load(dev, &prog, &mod, err, sizeof err);
    if (rc == MX_OK) {
        fk_counts.loaded++;
        unsigned n = 0;
        for (uint32_t i = 0; i < prog.nfuncs && (!fk_max_kernels || n < fk_max_kernels); i++)
            if ((prog.funcs[i].flags & (MX_FUNCF_ENTRY | MX_FUNCF_DECL)) == MX_FUNCF_ENTRY) {
                launch_one(dev, mod, &prog, i);
                n++;
            }
    } else if (opt_verbose)
        fprintf(stderr, "fuzz_kernel: module not loaded: %s: %s\n", mx_status_name(rc), err);
    emu_module_unload(mod);
    emu_device_destroy(dev);
    mx_program_free(&prog);
    return 0;
}

/* libFuzzer's own byte-level mutator (defined by libFuzzer, or by the
 * replay driver). */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed);

/* Three in four mutations are PTX-aware; the rest are libFuzzer's own,
 * which still use the dictionary and reach what no table lists. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (seed % 4 && !opt_bytes_only) {
        size_t n = mx_ptx_mutate(data, size, max_size, seed);
        if (n)
            return n;
    }
    return LLVMFuzzerMutate(data, size, max_size);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed)
{
    return opt_bytes_only ? 0 : mx_ptx_crossover(d1, s1, d2, s2, out, max_out, seed);
}
