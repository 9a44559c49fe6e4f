/* frontend/cmd_run.c — `morpheus run`: runs one kernel of a PTX file with
 * arguments written on the command line (scalars and device buffers with
 * initialisers), writes buffers back to files, reports faults and stats. */
#include "frontend/cli.h"
#include "frontend/config.h"
#include "frontend/msys.h"
#include "frontend/numopt.h"
#include "frontend/ptx.h"
#include "frontend/sass.h"
#include "emu/emu.h"
#include "mx/status.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char run_help[] =
    "usage: morpheus run [OPTIONS] FILE.ptx|FILE.cubin KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] -- ARG...\n"
    "\n"
    "Runs kernel KERNEL of FILE.ptx on the emulated GPU.  A cubin (ELF, sm_80 or\n"
    "sm_86) runs through the SASS front end (docs/sass.md).  KERNEL is the .entry\n"
    "name, or a unique demangled name (\"vecadd\" for _Z6vecaddPfS_S_i).\n"
    "\n"
    "Each ARG is one kernel parameter, in order:\n"
    "  TYPE:VALUE           a scalar: TYPE is u8 u16 u32 u64 s8 s16 s32 s64 f32 f64;\n"
    "                       VALUE decimal, 0x hex, or a float literal\n"
    "  TYPE[COUNT]=INIT     a device buffer of COUNT elements, passed as its address;\n"
    "                       INIT is zero, iota (0,1,2,...), fill:VALUE, rand:SEED\n"
    "                       (integers: uniform 0..1023; floats: uniform [0,1)),\n"
    "                       or file:PATH (raw little-endian bytes)\n"
    "  ...>PATH             after any buffer: write it to PATH when the kernel ends\n"
    "  tex:FMT:W[xH[xD]][:OPT,...]=INIT  a texture object (its 64-bit handle) over\n"
    "                       a device buffer of its texels, initialised as a u8\n"
    "                       buffer; FMT is u8 s8 u16 s16 u32 s32 f16 f32 with x1,\n"
    "                       x2 or x4 channels (f32x1); OPT: layers=L (cubemaps: 6\n"
    "                       per cube), linear (filtering), normcoords, readnorm\n"
    "                       (8/16-bit integers as [0,1] / [-1,1] floats), wrap,\n"
    "                       mirror, border (default clamp), linmem (1D linear\n"
    "                       memory: tex1Dfetch)\n"
    "  surf:FMT:W[xH[xD]][:layers=L]=INIT  a surface object, likewise\n"
    "\n"
    "Options:\n"
    "  --grid X[,Y[,Z]]     grid dimensions in blocks (required)\n"
    "  --block X[,Y[,Z]]    block dimensions in threads (required)\n"
    "  --dyn-smem BYTES     dynamic shared memory per block (default 0)\n"
    "  --stats FILE.json    write launch statistics (JSON) to FILE\n"
    "  --print N            print the first N elements of every buffer after the run\n"
    "  -q, --quiet          no summary line on stderr\n"
    "\n"
    FE_CONFIG_HELP_HEAD
    "  --sms N              emulated SMs, 1 to 4096 (default 68)\n"
    "  --mem-mb N           device memory in MiB, 1 to 1048576 (default 10240)\n"
    "  --isa-ext NAME[,NAME]\n"
    "                       enable ISA extensions: indirect-mov, park\n"
    "  --max-insns N        watchdog: stop the kernel after N warp instructions\n"
    "                       (default 10^10, about 2 minutes of emulation; 0: no limit)\n"
    "  --timeout SECONDS    watchdog: stop the kernel after this much wall-clock time\n"
    "                       (default 0: no limit)\n"
    "  --host-threads N     run the SMs on N host threads, 1 to 256 (default 1).\n"
    "                       Stores, atomics (float atom.add sums too), volatile/\n"
    "                       acquire loads and printf follow the emulated clock:\n"
    "                       results and statistics are the same for every N and\n"
    "                       every run, data races on global memory included\n"
    "  --warp-sched lrr|gto each SM's warp scheduler: loose round-robin (default) or\n"
    "                       greedy-then-oldest (docs/execution.md)\n"
    "  --quantum N          cycles the SMs run between two synchronisations of the\n"
    "                       global clock, 1 to 2^30 (default 2048)\n"
    "  --memsys on|off      model the memory hierarchy: L1s, LLC, extended LLC,\n"
    "                       DRAM (default off)\n"
    FE_CONFIG_HELP_MEMSYS
    "\n"
    "Counts are decimal or 0x hexadecimal integers, seconds decimal; a value that\n"
    "is not a number in its range (a sign, NaN, trailing text) is a usage error.\n"
    "\n"
    "Exit status: 0 if the kernel completed, 1 if it faulted or did not load (the\n"
    "report is on stderr, in compute-sanitizer's terms), 2 on a usage error, 3 on\n"
    "I/O errors.\n";

struct arg {
    int type;            /* enum mx_type */
    int is_buf;
    uint64_t count;
    uint64_t value;      /* scalar bits, or buffer address */
    const char *out;     /* >PATH */
    const char *text;
};

/* --grid/--block X[,Y[,Z]]: each a strict integer from 1 to 2^31 - 1. */
static int dims(const char *opt, const char *s, uint32_t d[3])
{
    static const struct fe_num dim = { FE_NUM_UINT, 1, 0x7fffffff, "X[,Y[,Z]] of integers from 1 to 2147483647" };
    char part[32], err[128];
    d[0] = d[1] = d[2] = 1;
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        size_t n = strcspn(p, ",");
        uint64_t v;
        snprintf(part, sizeof part, "%.*s", (int)(n < sizeof part - 1 ? n : sizeof part - 1), p);
        if (n >= sizeof part || fe_num_parse(part, &dim, &v, NULL, err, sizeof err))
            break;
        d[i] = (uint32_t)v;
        if (!p[n])
            return 0;
        p += n + 1;
    }
    fprintf(stderr, "morpheus run: %s: expected %s, got '%s'\n", opt, dim.expect, s);
    return -1;
}

static int scalar_type(const char *s, size_t n)
{
    static const char *const ok[] = { "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f32", "f64", "b8", "b16", "b32", "b64" };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strlen(ok[i]) == n && !memcmp(ok[i], s, n))
            return mx_type_lookup(s, n);
    return MX_T_NONE;
}

/* Parses VALUE as the bits of type t. */
static int parse_value(const char *v, int t, uint64_t *bits)
{
    char *end;
    errno = 0;
    if (t == MX_T_F32 || t == MX_T_F64) {
        double d = strtod(v, &end);
        if (end == v || *end)
            return -1;
        if (t == MX_T_F32) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            *bits = b;
        } else
            memcpy(bits, &d, 8);
        return 0;
    }
    unsigned sz = mx_type_size(t) * 8;
    if (mx_type_is_signed(t)) {
        long long x = strtoll(v, &end, 0);
        if (end == v || *end || errno)
            return -1;
        if (sz < 64 && (x < -(1ll << (sz - 1)) || x >= (1ll << (sz - 1))))
            return -1;
        *bits = (uint64_t)x & (sz < 64 ? (1ull << sz) - 1 : ~0ull);
        return 0;
    }
    if (*v == '-')
        return -1;
    unsigned long long x = strtoull(v, &end, 0);
    if (end == v || *end || errno || (sz < 64 && x >> sz))
        return -1;
    *bits = x;
    return 0;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void put(uint8_t *p, uint64_t v, unsigned n) { memcpy(p, &v, n); }

/* Builds the host image of a buffer argument. */
static int fill_buffer(const char *init, int t, uint64_t count, uint8_t **out, char *err, size_t errlen)
{
    unsigned es = mx_type_size(t);
    if (count > (1ull << 34) / es) {
        snprintf(err, errlen, "buffer of %llu elements is too large", (unsigned long long)count);
        return -1;
    }
    uint8_t *buf = calloc(count ? count : 1, es);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *out = buf;
    int isf = t == MX_T_F32 || t == MX_T_F64;
    if (!init || !strcmp(init, "zero"))
        return 0;
    if (!strcmp(init, "iota")) {
        for (uint64_t i = 0; i < count; i++) {
            uint64_t b;
            if (t == MX_T_F32) { float f = (float)i; uint32_t u; memcpy(&u, &f, 4); b = u; }
            else if (t == MX_T_F64) { double d = (double)i; memcpy(&b, &d, 8); }
            else b = i;
            put(buf + i * es, b, es);
        }
        return 0;
    }
    if (!strncmp(init, "fill:", 5)) {
        uint64_t b;
        if (parse_value(init + 5, t, &b)) {
            snprintf(err, errlen, "bad fill value '%s' for .%s", init + 5, mx_type_name(t));
            return -1;
        }
        for (uint64_t i = 0; i < count; i++)
            put(buf + i * es, b, es);
        return 0;
    }
    if (!strncmp(init, "rand:", 5)) {
        char *end;
        uint64_t seed = strtoull(init + 5, &end, 0);
        if (*end || end == init + 5) {
            snprintf(err, errlen, "bad seed '%s'", init + 5);
            return -1;
        }
        for (uint64_t i = 0; i < count; i++) {
            uint64_t r = splitmix(&seed), b;
            if (t == MX_T_F32) { float f = (float)(r >> 40) / (float)(1 << 24); uint32_t u; memcpy(&u, &f, 4); b = u; }
            else if (t == MX_T_F64) { double d = (double)(r >> 11) / 9007199254740992.0; memcpy(&b, &d, 8); }
            else b = r % 1024;
            put(buf + i * es, b, es);
        }
        (void)isf;
        return 0;
    }
    if (!strncmp(init, "file:", 5)) {
        FILE *f = fopen(init + 5, "rb");
        if (!f) {
            snprintf(err, errlen, "%s: %s", init + 5, strerror(errno));
            return -2;
        }
        size_t n = fread(buf, 1, count * es, f);
        int extra = fgetc(f) != EOF;
        fclose(f);
        if (n != count * es) {
            snprintf(err, errlen, "%s: has %zu bytes, the buffer needs %llu", init + 5, n, (unsigned long long)(count * es));
            return -1;
        }
        if (extra) {
            snprintf(err, errlen, "%s: is longer than the %llu-byte buffer", init + 5, (unsigned long long)(count * es));
            return -1;
        }
        return 0;
    }
    snprintf(err, errlen, "unknown initialiser '%s' (zero, iota, fill:V, rand:SEED, file:PATH)", init);
    return -1;
}

/* tex:FMT:W[xH[xD]][:OPT,...] / surf:... (without =INIT): a texture or
 * surface object (docs in run_help).  The descriptor, but its base, into
 * *d; -1 with a message in err. */
static int parse_tex(const char *a, int surface, struct emu_tex_desc *d, char *err, size_t errlen)
{
    static const struct { const char *n; uint8_t bits, kind; } fmt[] = {
        { "u8", 8, EMU_TEX_UNSIGNED }, { "s8", 8, EMU_TEX_SIGNED }, { "u16", 16, EMU_TEX_UNSIGNED },
        { "s16", 16, EMU_TEX_SIGNED }, { "u32", 32, EMU_TEX_UNSIGNED }, { "s32", 32, EMU_TEX_SIGNED },
        { "f16", 16, EMU_TEX_FLOAT }, { "f32", 32, EMU_TEX_FLOAT },
    };
    char f[16], opts[128] = "";
    unsigned ch, w, h = 0, dp = 0;
    int k = 0;
    memset(d, 0, sizeof *d);
    d->addr[0] = d->addr[1] = d->addr[2] = EMU_TEX_CLAMP;
    if (sscanf(a, "%15[a-wyz0-9]x%u:%n", f, &ch, &k) != 2 || !k) {
        snprintf(err, errlen, "expected %s:FMT:W[xH[xD]][:OPT,...]=INIT", surface ? "surf" : "tex");
        return -1;
    }
    size_t i = 0;
    while (i < sizeof fmt / sizeof fmt[0] && strcmp(fmt[i].n, f))
        i++;
    if (i == sizeof fmt / sizeof fmt[0] || (ch != 1 && ch != 2 && ch != 4)) {
        snprintf(err, errlen, "unknown format '%sx%u' (u8 s8 u16 s16 u32 s32 f16 f32, x1 x2 x4)", f, ch);
        return -1;
    }
    d->bits = fmt[i].bits;
    d->kind = fmt[i].kind;
    d->channels = (uint8_t)ch;
    a += k;
    int m = 0, c = sscanf(a, "%ux%ux%u%n", &w, &h, &dp, &m);
    if (c < 3) {
        m = 0;
        c = sscanf(a, "%ux%u%n", &w, &h, &m);
    }
    if (c < 2) {
        m = 0;
        c = sscanf(a, "%u%n", &w, &m);
    }
    if (c < 1 || !m || (a[m] && a[m] != ':')) {
        snprintf(err, errlen, "bad size '%s' (W, WxH or WxHxD)", a);
        return -1;
    }
    d->dims = (uint32_t)c;
    d->width = w;
    d->height = h;
    d->depth = dp;
    d->surface = (uint8_t)surface;
    if (a[m])
        snprintf(opts, sizeof opts, "%s", a + m + 1);
    for (char *save = NULL, *o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
        unsigned l;
        int e = 0;
        if (sscanf(o, "layers=%u%n", &l, &e) == 1 && !o[e])
            d->layers = l;
        else if (surface)
            e = -1;
        else if (!strcmp(o, "linear"))
            d->filter_linear = 1;
        else if (!strcmp(o, "normcoords"))
            d->norm_coords = 1;
        else if (!strcmp(o, "readnorm"))
            d->read_normalized = 1;
        else if (!strcmp(o, "linmem"))
            d->linear_mem = 1;
        else if (!strcmp(o, "wrap") || !strcmp(o, "mirror") || !strcmp(o, "border"))
            d->addr[0] = d->addr[1] = d->addr[2] = o[0] == 'w' ? EMU_TEX_WRAP : o[0] == 'm' ? EMU_TEX_MIRROR : EMU_TEX_BORDER;
        else
            e = -1;
        if (e < 0) {
            snprintf(err, errlen, "unknown option '%s'", o);
            return -1;
        }
    }
    return 0;
}

/* Base name of an Itanium-mangled function (_Z6vecaddPf -> vecadd, _ZN2ns1kE -> ns::k). */
static int demangled_base(const char *m, char *out, size_t len)
{
    if (strncmp(m, "_Z", 2))
        return -1;
    const char *p = m + 2;
    size_t o = 0;
    int nested = *p == 'N';
    if (nested)
        p++;
    do {
        if (*p < '0' || *p > '9')
            return o ? 0 : -1;
        unsigned n = 0;
        while (*p >= '0' && *p <= '9')
            n = n * 10 + (unsigned)(*p++ - '0');
        if (strlen(p) < n || o + n + 3 >= len)
            return -1;
        if (o)
            out[o++] = ':', out[o++] = ':';
        memcpy(out + o, p, n);
        o += n;
        out[o] = 0;
        p += n;
    } while (nested && *p != 'E');
    return 0;
}

static int find_kernel(const struct mx_program *g, const char *name)
{
    int found = -1, count = 0;
    for (uint32_t i = 0; i < g->nfuncs; i++) {
        const struct mx_func *f = &g->funcs[i];
        if (!(f->flags & MX_FUNCF_ENTRY) || (f->flags & MX_FUNCF_DECL))
            continue;
        if (!strcmp(mx_str(g, f->name), name))
            return (int)i;
    }
    for (uint32_t i = 0; i < g->nfuncs; i++) {
        const struct mx_func *f = &g->funcs[i];
        if (!(f->flags & MX_FUNCF_ENTRY) || (f->flags & MX_FUNCF_DECL))
            continue;
        char base[256];
        if (!demangled_base(mx_str(g, f->name), base, sizeof base) && !strcmp(base, name)) {
            found = (int)i;
            count++;
        }
    }
    return count == 1 ? found : count > 1 ? -2 : -1;
}

static void print_buffer(const struct arg *a, const uint8_t *buf, uint64_t n)
{
    unsigned es = mx_type_size(a->type);
    fprintf(stderr, "morpheus: %s:", a->text);
    for (uint64_t i = 0; i < n && i < a->count; i++) {
        uint64_t v = 0;
        memcpy(&v, buf + i * es, es);
        if (a->type == MX_T_F32) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); fprintf(stderr, " %.9g", f); }
        else if (a->type == MX_T_F64) { double d; memcpy(&d, &v, 8); fprintf(stderr, " %.17g", d); }
        else if (mx_type_is_signed(a->type)) fprintf(stderr, " %lld", (long long)(es == 8 ? (int64_t)v : es == 4 ? (int32_t)v : es == 2 ? (int16_t)v : (int8_t)v));
        else fprintf(stderr, " %llu", (unsigned long long)v);
    }
    fputc('\n', stderr);
}

static int run_run(int argc, char **argv)
{
    struct fe_config_cli cl;
    memset(&cl, 0, sizeof cl);
    struct fe_options fopt = { 0 };
    fopt.diag_out = stderr;
    const char *file = NULL, *kname = NULL, *stats_path = NULL;
    uint32_t grid[3] = { 0, 0, 0 }, block[3] = { 0, 0, 0 }, dyn = 0;
    int have_grid = 0, have_block = 0, quiet = 0, argi = argc;
    uint64_t print_n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--")) {
            argi = i + 1;
            break;
        }
#define NEEDV()                                                                            \
    do {                                                                                   \
        if (!v) {                                                                          \
            fprintf(stderr, "morpheus run: %s needs a value\n", a);                       \
            return CLI_EXIT_USAGE;                                                         \
        }                                                                                  \
        i++;                                                                               \
    } while (0)
        int took = fe_config_cli_arg(&cl, "run", argc, argv, &i);
        if (took < 0)
            return CLI_EXIT_USAGE;
        if (took)
            continue;
        if (!strcmp(a, "--grid")) {
            NEEDV();
            if (dims(a, v, grid))
                return CLI_EXIT_USAGE;
            have_grid = 1;
        } else if (!strcmp(a, "--block")) {
            NEEDV();
            if (dims(a, v, block))
                return CLI_EXIT_USAGE;
            have_block = 1;
        } else if (!strcmp(a, "--dyn-smem")) {
            static const struct fe_num dyn_smem = { FE_NUM_UINT, 0, 1u << 30, NULL };
            uint64_t x;
            NEEDV();
            if (cli_num("run", a, v, &dyn_smem, &x, NULL))
                return CLI_EXIT_USAGE;
            dyn = (uint32_t)x;
        } else if (!strcmp(a, "--stats")) {
            NEEDV();
            stats_path = v;
        } else if (!strcmp(a, "--print")) {
            static const struct fe_num print = { FE_NUM_UINT, 0, UINT64_MAX, NULL };
            NEEDV();
            if (cli_num("run", a, v, &print, &print_n, NULL))
                return CLI_EXIT_USAGE;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "morpheus run: unknown option '%s' (see morpheus run --help)\n", a);
            return CLI_EXIT_USAGE;
        } else if (!file) {
            file = a;
        } else if (!kname) {
            kname = a;
        } else {
            fprintf(stderr, "morpheus run: unexpected '%s' (kernel arguments go after --)\n", a);
            return CLI_EXIT_USAGE;
        }
    }
    if (!file || !kname || !have_grid || !have_block) {
        fprintf(stderr, "morpheus run: need FILE.ptx, KERNEL, --grid and --block\n\n%s", run_help);
        return CLI_EXIT_USAGE;
    }
    /* the configuration: built-in defaults (watchdog 10^10 warp instructions,
       memory hierarchy off), --config, -o, options */
    struct fe_config conf;
    if (fe_config_cli_resolve(&conf, &cl, "run", 10000000000ull, 0))
        return CLI_EXIT_USAGE;
    struct emu_config cfg = conf.emu;
    struct fe_msys msys = { 0 };
    fopt.ext_mask = cfg.ext_mask;
    char *text;
    size_t len;
    char err[512];
    if (fe_read_file(file, &text, &len, err, sizeof err)) {
        fprintf(stderr, "morpheus: %s\n", err);
        return CLI_EXIT_ERROR;
    }
    struct mx_program prog;
    struct mx_diag diag = { 0 };
    diag.out = stderr;
    int rc = fe_parse_input(text, len, file, &fopt, &prog, &diag);
    free(text);
    if (rc) {
        mx_program_free(&prog);
        return rc == MX_ENOMEM ? CLI_EXIT_ERROR : CLI_EXIT_FAIL;
    }
    int status = CLI_EXIT_FAIL;
    struct emu_device *dev = NULL;
    struct emu_module *mod = NULL;
    struct arg *args = NULL;
    uint8_t **hostbufs = NULL;
    uint8_t *params = NULL;
    int fi = find_kernel(&prog, kname);
    if (fi < 0) {
        if (fi == -2)
            fprintf(stderr, "morpheus run: '%s' matches several kernels of %s; use the mangled .entry name\n", kname, file);
        else {
            fprintf(stderr, "morpheus run: no kernel '%s' in %s; kernels:", kname, file);
            for (uint32_t i = 0; i < prog.nfuncs; i++)
                if ((prog.funcs[i].flags & (MX_FUNCF_ENTRY | MX_FUNCF_DECL)) == MX_FUNCF_ENTRY)
                    fprintf(stderr, " %s", mx_str(&prog, prog.funcs[i].name));
            fputc('\n', stderr);
        }
        status = CLI_EXIT_USAGE;
        goto out;
    }
    const struct mx_func *k = &prog.funcs[fi];
    int nargs = argc - argi;
    if ((uint32_t)nargs != k->nparams) {
        fprintf(stderr, "morpheus run: kernel %s takes %u parameter%s, %d given\n", mx_str(&prog, k->name), k->nparams,
                k->nparams == 1 ? "" : "s", nargs);
        status = CLI_EXIT_USAGE;
        goto out;
    }
    if ((conf.memsys_on && fe_msys_open(&msys, &conf.memsys, &cfg, err, sizeof err)) ||
        fe_timing_open(&msys, &conf, &cfg, err, sizeof err)) {
        fprintf(stderr, "morpheus run: %s\n", err);
        status = CLI_EXIT_USAGE;
        goto out;
    }
    if ((rc = emu_device_create(&cfg, &dev))) {
        fprintf(stderr, "morpheus run: cannot create the device: %s\n", mx_strstatus(rc));
        status = CLI_EXIT_ERROR;
        goto out;
    }
    if ((rc = fe_msys_attach(&msys, dev, cfg.ext_mask, conf.xllc_helper, err, sizeof err))) {
        fprintf(stderr, "morpheus run: %s\n", err);
        status = CLI_EXIT_ERROR;
        goto out;
    }
    if ((rc = emu_module_load(dev, &prog, &mod, err, sizeof err))) {
        fprintf(stderr, "morpheus run: cannot load %s: %s\n", file, err);
        goto out;
    }
    args = calloc((size_t)nargs + 1, sizeof *args);
    hostbufs = calloc((size_t)nargs + 1, sizeof *hostbufs);
    params = calloc(k->param_size + 1, 1);
    if (!args || !hostbufs || !params) {
        status = CLI_EXIT_ERROR;
        goto out;
    }
    for (int j = 0; j < nargs; j++) {
        char *a = argv[argi + j];
        struct arg *g = &args[j];
        g->text = a;
        const struct mx_symbol *ps = &prog.syms[k->param + (uint32_t)j];
        char *gt = strchr(a, '>');
        if (gt) {
            *gt = 0;
            g->out = gt + 1;
            if (!*g->out) {
                fprintf(stderr, "morpheus run: argument %d: empty output path after '>'\n", j + 1);
                status = CLI_EXIT_USAGE;
                goto out;
            }
        }
        if (!strncmp(a, "tex:", 4) || !strncmp(a, "surf:", 5)) {
            /* a texture or surface object over its own buffer of texels */
            int surf = a[0] == 's', fr;
            struct emu_tex_desc td;
            char *eq = strrchr(a, '='); /* after layers=L */
            if (eq)
                *eq = 0;
            if (g->out || !eq || parse_tex(a + (surf ? 5 : 4), surf, &td, err, sizeof err)) {
                fprintf(stderr, "morpheus run: argument %d '%s': %s\n", j + 1, a,
                        g->out ? "'>PATH' applies to buffers only" : !eq ? "expected =INIT" : err);
                status = CLI_EXIT_USAGE;
                goto out;
            }
            uint64_t bytes = (uint64_t)td.width * td.channels * (td.bits / 8) * (td.height ? td.height : 1) *
                             (td.depth ? td.depth : 1) * (td.layers ? td.layers : 1);
            if ((fr = fill_buffer(eq + 1, MX_T_U8, bytes, &hostbufs[j], err, sizeof err))) {
                fprintf(stderr, "morpheus run: argument %d: %s\n", j + 1, err);
                status = fr == -2 ? CLI_EXIT_ERROR : CLI_EXIT_USAGE;
                goto out;
            }
            if (ps->size != 8 || (rc = emu_malloc(dev, bytes, &td.base)) ||
                (rc = emu_memcpy_htod(dev, td.base, hostbufs[j], bytes))) {
                fprintf(stderr, "morpheus run: argument %d: %s\n", j + 1,
                        ps->size != 8 ? "a texture or surface parameter is 8 bytes" : "cannot allocate its texels");
                status = ps->size != 8 ? CLI_EXIT_USAGE : CLI_EXIT_ERROR;
                goto out;
            }
            if ((rc = emu_tex_create(dev, &td, &g->value))) {
                fprintf(stderr, "morpheus run: argument %d '%s': %s\n", j + 1, a, mx_strstatus(rc));
                status = CLI_EXIT_USAGE;
                goto out;
            }
            memcpy(params + ps->offset, &g->value, 8);
            continue;
        }
        size_t tl = strcspn(a, ":[");
        g->type = scalar_type(a, tl);
        if (g->type == MX_T_NONE) {
            fprintf(stderr, "morpheus run: argument %d '%s': unknown type (u8 u16 u32 u64 s8 s16 s32 s64 f32 f64)\n", j + 1, a);
            status = CLI_EXIT_USAGE;
            goto out;
        }
        if (a[tl] == ':') {
            if (g->out) {
                fprintf(stderr, "morpheus run: argument %d: '>PATH' applies to buffers only\n", j + 1);
                status = CLI_EXIT_USAGE;
                goto out;
            }
            if (parse_value(a + tl + 1, g->type, &g->value)) {
                fprintf(stderr, "morpheus run: argument %d: bad .%s value '%s'\n", j + 1, mx_type_name(g->type), a + tl + 1);
                status = CLI_EXIT_USAGE;
                goto out;
            }
            if (ps->size != mx_type_size(g->type)) {
                fprintf(stderr, "morpheus run: argument %d is .%s (%u bytes) but parameter %s is %llu bytes\n", j + 1,
                        mx_type_name(g->type), mx_type_size(g->type), mx_str(&prog, ps->name), (unsigned long long)ps->size);
                status = CLI_EXIT_USAGE;
                goto out;
            }
            memcpy(params + ps->offset, &g->value, mx_type_size(g->type));
        } else if (a[tl] == '[') {
            char *end;
            g->is_buf = 1;
            g->count = strtoull(a + tl + 1, &end, 0);
            if (end == a + tl + 1 || *end != ']' || (end[1] && end[1] != '=')) {
                fprintf(stderr, "morpheus run: argument %d '%s': expected TYPE[COUNT]=INIT\n", j + 1, a);
                status = CLI_EXIT_USAGE;
                goto out;
            }
            const char *init = end[1] == '=' ? end + 2 : NULL;
            int fr = fill_buffer(init, g->type, g->count, &hostbufs[j], err, sizeof err);
            if (fr) {
                fprintf(stderr, "morpheus run: argument %d: %s\n", j + 1, err);
                status = fr == -2 ? CLI_EXIT_ERROR : CLI_EXIT_USAGE;
                goto out;
            }
            uint64_t bytes = g->count * mx_type_size(g->type);
            if ((rc = emu_malloc(dev, bytes, &g->value)) || (rc = emu_memcpy_htod(dev, g->value, hostbufs[j], bytes))) {
                fprintf(stderr, "morpheus run: argument %d: cannot allocate %llu bytes of device memory\n", j + 1,
                        (unsigned long long)bytes);
                status = CLI_EXIT_ERROR;
                goto out;
            }
            if (ps->size != 8) {
                fprintf(stderr, "morpheus run: argument %d is a buffer (8-byte address) but parameter %s is %llu bytes\n", j + 1,
                        mx_str(&prog, ps->name), (unsigned long long)ps->size);
                status = CLI_EXIT_USAGE;
                goto out;
            }
            memcpy(params + ps->offset, &g->value, 8);
        } else {
            fprintf(stderr, "morpheus run: argument %d '%s': expected TYPE:VALUE or TYPE[COUNT]=INIT\n", j + 1, a);
            status = CLI_EXIT_USAGE;
            goto out;
        }
    }
    struct emu_launch l = { (uint32_t)fi, { grid[0], grid[1], grid[2] }, { block[0], block[1], block[2] }, dyn, params, k->param_size, 0 };
    struct emu_stats st;
    struct emu_fault fault;
    fflush(stdout);
    rc = emu_launch(dev, mod, &l, &st, &fault);
    fflush(stdout);
    if (rc) {
        fprintf(stderr, "morpheus: kernel %s failed\n", mx_str(&prog, k->name));
        emu_fault_print(stderr, &fault);
        status = CLI_EXIT_FAIL;
    } else {
        status = CLI_EXIT_OK;
        if (!quiet)
            fprintf(stderr, "morpheus: %s grid (%u,%u,%u) block (%u,%u,%u): %llu thread-instructions (%llu warp) in %.3f s, %.1f M thread-instr/s\n",
                    mx_str(&prog, k->name), grid[0], grid[1], grid[2], block[0], block[1], block[2],
                    (unsigned long long)st.thread_insns, (unsigned long long)st.warp_insns, st.wall_seconds,
                    st.wall_seconds > 0 ? st.thread_insns / st.wall_seconds / 1e6 : 0.0);
    }
    for (int j = 0; j < nargs && rc == MX_OK; j++) {
        struct arg *g = &args[j];
        if (!g->is_buf)
            continue;
        uint64_t bytes = g->count * mx_type_size(g->type);
        emu_memcpy_dtoh(dev, hostbufs[j], g->value, bytes);
        if (print_n)
            print_buffer(g, hostbufs[j], print_n);
        if (g->out) {
            FILE *f = fopen(g->out, "wb");
            if (!f || fwrite(hostbufs[j], 1, bytes, f) != bytes || fclose(f)) {
                fprintf(stderr, "morpheus run: cannot write %s: %s\n", g->out, strerror(errno));
                status = CLI_EXIT_ERROR;
            }
        }
    }
    if (stats_path) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "kernel", json_object_new_string(mx_str(&prog, k->name)));
        json_object *ga = json_object_new_array(), *ba = json_object_new_array();
        for (int i = 0; i < 3; i++) {
            json_object_array_add(ga, json_object_new_int64(grid[i]));
            json_object_array_add(ba, json_object_new_int64(block[i]));
        }
        json_object_object_add(o, "grid", ga);
        json_object_object_add(o, "block", ba);
        json_object_object_add(o, "status", json_object_new_string(mx_status_name(rc)));
        json_object_object_add(o, "warp_instructions", json_object_new_int64((int64_t)st.warp_insns));
        json_object_object_add(o, "thread_instructions", json_object_new_int64((int64_t)st.thread_insns));
        json_object_object_add(o, "wall_seconds", json_object_new_double(st.wall_seconds));
        json_object_object_add(o, "thread_instructions_per_second",
                               json_object_new_double(st.wall_seconds > 0 ? st.thread_insns / st.wall_seconds : 0));
        json_object *units = json_object_new_object();
        for (int u = 0; u <= MX_UNIT_TENSOR; u++)
            json_object_object_add(units, mx_unit_name(u), json_object_new_int64((int64_t)st.unit_insns[u]));
        json_object_object_add(o, "warp_instructions_by_unit", units);
        json_object_object_add(o, "ctas", json_object_new_int64((int64_t)st.ctas));
        json_object_object_add(o, "warps", json_object_new_int64((int64_t)st.warps));
        if (msys.ms) {
            char ms[8192];
            fe_msys_json(&msys, st.warp_insns, ms, sizeof ms);
            json_object *m = json_tokener_parse(ms);
            if (m)
                json_object_object_add(o, "memsys", m);
        }
        fe_timing_json(o, &msys, &st); /* (after fe_msys_json: the energy takes its counts) */
        if (json_object_to_file_ext(stats_path, o, JSON_C_TO_STRING_PRETTY)) {
            fprintf(stderr, "morpheus run: cannot write %s: %s\n", stats_path, strerror(errno));
            status = CLI_EXIT_ERROR;
        }
        json_object_put(o);
    }
out:
    if (hostbufs)
        for (int j = 0; j <= nargs && j >= 0; j++)
            free(hostbufs[j]);
    free(hostbufs);
    free(args);
    free(params);
    emu_module_unload(mod);
    fe_msys_detach(&msys);
    emu_device_destroy(dev);
    fe_msys_close(&msys);
    mx_program_free(&prog);
    return status;
}

const struct cli_cmd cli_cmd_run = { "run", "run one kernel of a PTX file with command-line arguments", run_help, run_run };
