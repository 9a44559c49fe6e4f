/* frontend/cmd_xllc.c — `morpheus xllc characterize`: the helper kernel's
 * capacity per cache-mode SM, computed from its real register use on the
 * configured GPU, and the helper warp instructions it executes per hit, per
 * miss and per dirty eviction, measured by running it (MICRO'22 §5). */
#include "frontend/cli.h"
#include "frontend/config.h"
#include "frontend/msys.h"
#include "isa/isa.h"
#include "mx/status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The built-in helper kernels (frontend/msys.c embeds them). */
extern const char fe_helper_rf_brx_ptx[], fe_helper_l1_ptx[], fe_helper_shm_ptx[], fe_helper_rfl1_brx_ptx[],
    fe_helper_rfbdi_brx_ptx[];

static const char xllc_help[] =
    "usage: morpheus xllc characterize [--json FILE] [--emit-config FILE] [--config NAME|FILE]\n"
    "                                  [-o KEY=VALUE]...\n"
    "\n"
    "Characterizes the extended LLC's helper kernels (MICRO'22 sec. 5) on the\n"
    "configured GPU (default rtx3080), for each variant that has a helper kernel\n"
    "(rf with each Indirect-MOV build: brx.idx, and the native movind of --isa-ext\n"
    "indirect-mov; l1 and shm, whose blocks are in memory; rf+l1, 32 sets in registers\n"
    "and the rest in L1, with each build) and 1, 8, 16, 32 and 48\n"
    "helper warps per cache-mode SM:\n"
    "  capacity    the bytes of blocks one cache-mode SM holds: the warps that fit\n"
    "              its register file at the kernel's registers per thread (what\n"
    "              ptxas allocates for it, park replaced by nanosleep; without\n"
    "              ptxas, its PTX declarations; rounded up to 8 as the hardware\n"
    "              allocates) and, for l1 and shm, its L1 or shared memory at 4 KiB\n"
    "              per warp, times 32 ways of 128 bytes per warp\n"
    "  insns/hit   helper warp instructions for a load that hits, measured by\n"
    "              running the kernel (one request at a time, from its park to its\n"
    "              next park)\n"
    "  insns/miss  ... for a load that misses and evicts a clean block\n"
    "  insns/wb    ... more for a miss whose victim is dirty (the write-back)\n"
    "The paper's capacities (RTX 3080) are printed beside ours where it gives one;\n"
    "docs/xllc-helper.md says why they differ.\n"
    "\n"
    "  --json FILE    also write the rows as a JSON array (keys: variant warps\n"
    "                 capacity_bytes insns_per_hit insns_per_miss insns_per_writeback\n"
    "                 indirect_mov, and regs_per_thread regs_declared regs_ptxas\n"
    "                 warps_resident paper_capacity_bytes)\n"
    "  --emit-config FILE\n"
    "                 write the configuration with memsys.xllc.capacity_kib.* set to\n"
    "                 the helper kernels' capacities at the GPU's warps per SM, for\n"
    "                 the native model to use (--config FILE); the built-in\n"
    "                 configurations keep the paper's capacities\n"
    "  --ptxas PATH   the CUDA toolkit's ptxas (default /usr/local/cuda/bin/ptxas)\n"
    "  --config, -o   the GPU and memory hierarchy (morpheus config --help)\n";

/* What the runs measured for one build. */
struct meas {
    uint64_t hit, miss, miss_invalid, writeback, store_hit;
    uint32_t regs;               /* 32-bit registers per thread the kernel declares */
    uint32_t regs_ptxas;         /* ... that ptxas allocates (0: no ptxas, or not expressible for it) */
};

/* Reads device memory for the memory model (whole lines of one allocation). */
static int view_read(void *ctx, uint64_t addr, void *dst, uint32_t n)
{
    return emu_memcpy_dtoh(ctx, dst, addr, n) ? -1 : 0;
}

/* The 32-bit registers per thread that kernel `name` of p declares. */
static uint32_t declared_regs(const struct mx_program *p, const char *name)
{
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        if (strcmp(mx_str(p, p->funcs[f].name), name))
            continue;
        uint32_t n = 0;
        for (uint32_t i = 0; i < p->funcs[f].nregdecls; i++) {
            const struct mx_regdecl *d = &p->regdecls[p->funcs[f].regdecl + i];
            if (mx_type_class(d->type) == MX_TC_P)
                continue; /* predicates have their own file */
            uint32_t words = (mx_type_size(d->type) + 3) / 4;
            n += words * (d->vec ? d->vec : 1) * (d->count ? d->count : 1);
        }
        return n;
    }
    return 0;
}

/* The registers ptxas allocates for kernel `name` of `ptx` on sm_XY (cc),
 * the park extension replaced by a nanosleep (same control flow, no
 * registers) and any non-ASCII character of a comment by '?': 0 if ptxas is
 * not there or says nothing. */
static uint32_t ptxas_regs(const char *ptxas, const char *ptx, const char *name, uint32_t cc_major, uint32_t cc_minor)
{
    if (!ptxas || access(ptxas, X_OK))
        return 0;
    char path[] = "/tmp/morpheus-xllc-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(path);
        return 0;
    }
    for (const char *p = ptx; *p;) {
        if (!strncmp(p, "  park;", 7)) {
            fputs("  nanosleep.u32 1;", f);
            p += 7;
        } else {
            fputc((unsigned char)*p & 0x80 ? '?' : *p, f);
            p++;
        }
    }
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_%u%u -v -o /dev/null '%s' 2>&1", ptxas, cc_major, cc_minor, path);
    FILE *o = popen(cmd, "r");
    uint32_t regs = 0;
    int mine = 0;
    char line[512];
    while (o && fgets(line, sizeof line, o)) {
        const char *q = strstr(line, "Compiling entry function '");
        if (q) {
            q += strlen("Compiling entry function '");
            mine = !strncmp(q, name, strlen(name)) && q[strlen(name)] == '\'';
        } else if (mine && (q = strstr(line, "Used "))) {
            regs = (uint32_t)strtoul(q + 5, NULL, 10);
            mine = 0;
        }
    }
    if (o)
        pclose(o);
    unlink(path);
    return regs;
}

/* One request of op for block k of set 0 through the port, as a one-lane
 * access of 4 bytes; returns the helper warp instructions it took. */
static int one(struct emu_device *dev, const struct mx_memif *mi, uint64_t line, int op, uint64_t *insns, char *err,
               size_t errlen)
{
    struct mx_memreq r;
    memset(&r, 0, sizeof r);
    r.space = MX_MS_GLOBAL;
    r.op = (uint8_t)op;
    r.cop = MX_CACHE_CG; /* not served by the L1: every request reaches the set */
    r.bytes = 4;
    r.mask = 1;
    r.addr[0] = line;
    static struct mx_port p;
    struct mx_memview view = { dev, view_read };
    uint64_t before = emu_helper_insns(dev);
    if (mi->request(mi->ctx, &r) != MX_MEMREQ_PORT) {
        snprintf(err, errlen, "line 0x%llx is not the extended LLC's", (unsigned long long)line);
        return -1;
    }
    if (mi->port_begin(mi->ctx, &r, &p, &view, err, errlen))
        return -1;
    if (op != MX_MOP_LD) {
        p.l[0].data[0] ^= 0x5a;
        p.l[0].wmask[0] = 0xf;
    }
    if (mi->port_end(mi->ctx, &r, &p, &view, err, errlen))
        return -1;
    *insns = emu_helper_insns(dev) - before;
    return 0;
}

/* Runs the built-in helper kernel of one Indirect-MOV build on a device of
 * one compute and one cache-mode SM, one set, every request of a set. */
static int measure(const struct fe_config *conf, uint32_t variant, int movind, int bdi, struct meas *m, char *err,
                   size_t errlen)
{
    struct emu_config ec = conf->emu;
    ec.num_sms = 2;
    ec.cache_sms = 1;
    ec.memif = NULL;
    if (movind)
        ec.ext_mask |= 1u << MX_EXT_INDIRECT_MOV;
    struct mx_memsys_config mc = conf->memsys;
    mc.xllc = MX_XLLC_HELPER;
    mc.xllc_variant = variant;
    mc.predictor = MX_PRED_NONE;      /* every load is looked up: no fills */
    /* BDI: its build of the rf kernel, with an epoch that does not end here (every register uncompressed) */
    mc.compress = bdi ? MX_COMP_BDI : MX_COMP_NONE;
    mc.bdi_epoch = 1u << 30;
    mc.llc_partitions = 1;            /* one partition: mx_memsys_xllc_line gives the lines of set 0 */
    mc.llc_sets = 1;
    mc.llc_hash = MX_HASH_LINEAR;
    mc.dram_channels = 1;
    mc.xllc_check = 1;
    mc.mem_trace = NULL;
    struct fe_msys f;
    struct emu_device *dev = NULL;
    int rc = fe_msys_open(&f, &mc, &ec, err, errlen);
    if (rc)
        return rc;
    if ((rc = emu_device_create(&ec, &dev))) {
        snprintf(err, errlen, "cannot create the device: %s", mx_strstatus(rc));
        fe_msys_close(&f);
        return rc;
    }
    if ((rc = fe_msys_attach(&f, dev, ec.ext_mask, NULL, err, errlen)))
        goto out;
    static const char *const kname[MX_XV_COUNT] = { "xllc_helper_rf_serve", "xllc_helper_l1_serve",
                                                    "xllc_helper_shm_serve", "xllc_helper_rfl1_serve" };
    m->regs = declared_regs(f.prog, bdi ? "xllc_helper_rfbdi_serve" : kname[variant]);
    const struct mx_memif *mi = mx_memsys_memif(f.ms);
    /* the lines of set 0 (one partition: a line's number is its number in the partition), in a buffer that holds
     * 40 of them and a period before them */
    uint64_t buf, span = mx_memsys_xllc_line(f.ms, 0, 0, 0, 40);
    if ((rc = emu_malloc(dev, 3 * (span + 1) * 128, &buf))) {
        snprintf(err, errlen, "out of device memory");
        goto out;
    }
#define LINE(k) (mx_memsys_xllc_line(f.ms, 0, 0, buf / 128, (uint64_t)(k)) * 128)
#define ONE(k, op, res) if ((rc = one(dev, mi, LINE(k), op, res, err, errlen) ? MX_EXLLC : 0)) goto out
    uint64_t t;
    ONE(0, MX_MOP_LD, &m->miss_invalid);  /* a miss into an empty way */
    for (int k = 1; k < 32; k++)
        ONE(k, MX_MOP_LD, &t);            /* the set is full, every block clean */
    ONE(0, MX_MOP_LD, &m->hit);
    ONE(32, MX_MOP_LD, &m->miss);         /* evicts block 1, clean */
    ONE(0, MX_MOP_ST, &m->store_hit);
    for (int k = 2; k < 33; k++)
        ONE(k, MX_MOP_ST, &t);            /* every block dirty */
    uint64_t dirty_miss;
    ONE(33, MX_MOP_LD, &dirty_miss);      /* evicts block 2, dirty: written back */
    m->writeback = dirty_miss - m->miss;
#undef ONE
#undef LINE
out:
    fe_msys_detach(&f);
    emu_device_destroy(dev);
    fe_msys_close(&f);
    return rc;
}

static int run_xllc(int argc, char **argv)
{
    const char *json = NULL, *emit = NULL, *ptxas = "/usr/local/cuda/bin/ptxas";
    struct fe_config_cli cl;
    memset(&cl, 0, sizeof cl);
    if (argc < 2 || strcmp(argv[1], "characterize")) {
        fprintf(stderr, "morpheus xllc: %s (morpheus xllc --help)\n",
                argc < 2 ? "which subcommand? characterize" : "unknown subcommand");
        return CLI_EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) {
        int r = fe_config_cli_arg(&cl, "xllc", argc, argv, &i);
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r)
            continue;
        if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            json = argv[++i];
        } else if (!strcmp(argv[i], "--emit-config") && i + 1 < argc) {
            emit = argv[++i];
        } else if (!strcmp(argv[i], "--ptxas") && i + 1 < argc) {
            ptxas = argv[++i];
        } else {
            fprintf(stderr, "morpheus xllc characterize: unknown argument '%s' (morpheus xllc --help)\n", argv[i]);
            return CLI_EXIT_USAGE;
        }
    }
    struct fe_config conf;
    if (fe_config_cli_resolve(&conf, &cl, "xllc", 0, 1))
        return CLI_EXIT_USAGE;
    /* the kernels: the rf variant's two Indirect-MOV builds, the l1 and shm variants (blocks in memory) */
#define NB 8
    static const char *const build[NB] = { "brx", "movind", "none", "none", "brx", "movind", "brx", "movind" };
    static const char *const vname[NB] = { "rf", "rf", "l1", "shm", "rf+l1", "rf+l1", "rf-bdi", "rf-bdi" };
    static const uint32_t variant[NB] = { MX_XV_RF, MX_XV_RF, MX_XV_L1, MX_XV_SHM, MX_XV_RF_L1, MX_XV_RF_L1,
                                          MX_XV_RF, MX_XV_RF };
    static const int bdi[NB] = { 0, 0, 0, 0, 0, 0, 1, 1 }; /* --compress bdi's build of the rf kernel */
    static const uint32_t warps[] = { 1, 8, 16, 32, 48 };
    struct meas m[NB];
    char err[600];
    /* what ptxas allocates: base PTX only, so the brx build stands for movind (the same registers: movind
     * replaces the switches, not the data array) */
    static const char *const base_ptx[NB] = { fe_helper_rf_brx_ptx, fe_helper_rf_brx_ptx, fe_helper_l1_ptx,
                                              fe_helper_shm_ptx, fe_helper_rfl1_brx_ptx, fe_helper_rfl1_brx_ptx,
                                              fe_helper_rfbdi_brx_ptx, fe_helper_rfbdi_brx_ptx };
    static const char *const kname[NB] = { "xllc_helper_rf_serve", "xllc_helper_rf_serve", "xllc_helper_l1_serve",
                                           "xllc_helper_shm_serve", "xllc_helper_rfl1_serve", "xllc_helper_rfl1_serve",
                                           "xllc_helper_rfbdi_serve", "xllc_helper_rfbdi_serve" };
    for (int b = 0; b < NB; b++) {
        memset(&m[b], 0, sizeof m[b]);
        if (measure(&conf, variant[b], !strcmp(build[b], "movind"), bdi[b], &m[b], err, sizeof err)) {
            fprintf(stderr, "morpheus xllc characterize: the %s (%s) helper kernel: %s\n", vname[b], build[b], err);
            return CLI_EXIT_ERROR;
        }
        m[b].regs_ptxas = b & 1 && variant[b] != MX_XV_L1 && variant[b] != MX_XV_SHM && m[b - 1].regs_ptxas
                              ? m[b - 1].regs_ptxas
                              : ptxas_regs(ptxas, base_ptx[b], kname[b], conf.emu.cc_major, conf.emu.cc_minor);
    }
    FILE *jf = NULL;
    if (json && !(jf = fopen(json, "w"))) {
        fprintf(stderr, "morpheus xllc characterize: cannot write %s: %s\n", json, strerror(errno));
        return CLI_EXIT_ERROR;
    }
    const struct emu_config *g = &conf.emu;
    printf("GPU %s: %u registers per SM, at most %u per thread, %u warps per SM\n", conf.name, g->regs_per_sm,
           g->max_regs_per_thread, g->max_warps_per_sm);
    printf("%-7s %-7s %5s %9s %8s %13s %12s %9s %10s %8s\n", "variant", "imov", "warps", "regs/thr", "resident",
           "capacity KiB", "paper KiB", "insns/hit", "insns/miss", "insns/wb");
    if (jf)
        fputs("[\n", jf);
    int firstrow = 1;
    /* a set's blocks (32 ways x 128 B) in the l1 variant: the L1 left with no shared memory; in shm: the
     * shared memory an SM has */
    uint64_t l1_bytes = (uint64_t)conf.memsys.l1_unified_kib * 1024, shm_bytes = g->shared_per_sm;
    for (int b = 0; b < NB; b++)
        for (size_t i = 0; i < sizeof warps / sizeof warps[0]; i++) {
            uint32_t regs = m[b].regs_ptxas ? m[b].regs_ptxas : m[b].regs, w = warps[i], r8 = (regs + 7) / 8 * 8;
            uint64_t fit = r8 <= g->max_regs_per_thread ? g->regs_per_sm / ((uint64_t)r8 * 32) : 0;
            if (variant[b] == MX_XV_L1 && fit > l1_bytes / 4096)
                fit = l1_bytes / 4096;
            if (variant[b] == MX_XV_SHM && fit > shm_bytes / 4096)
                fit = shm_bytes / 4096;
            if (variant[b] == MX_XV_RF_L1 && fit > 32 + l1_bytes / 4096)
                fit = 32 + l1_bytes / 4096; /* 32 sets in registers, the rest in the L1 */
            uint64_t res = w < fit ? w : fit;
            res = res < g->max_warps_per_sm ? res : g->max_warps_per_sm;
            uint64_t cap = res * 32 * 128;
            /* the capacity at every warp the SM has, for --emit-config */
            uint64_t all = fit < g->max_warps_per_sm ? fit : g->max_warps_per_sm;
            if (!bdi[b] && (variant[b] != MX_XV_RF || !strcmp(build[b], "brx")))
                conf.memsys.xllc_kib[variant[b]] = (uint32_t)(all * 32 * 128 / 1024);
            /* the paper's capacities on the RTX 3080 (sec. 5): RF 8 warps 239 KiB, 48 warps 192 KiB; L1 8 warps
             * 128 KiB */
            long paper = -1;
            if (!strcmp(conf.name, "rtx3080") && !bdi[b])
                paper = variant[b] == MX_XV_RF ? (w == 8 ? 239 : w == 48 ? 192 : -1)
                      : variant[b] == MX_XV_L1 && w == 8 ? 128 : variant[b] == MX_XV_RF_L1 && w == 48 ? 328 : -1;
            char pk[16] = "-";
            if (paper >= 0)
                snprintf(pk, sizeof pk, "%ld", paper);
            printf("%-7s %-7s %5u %9u %8llu %13.1f %12s %9llu %10llu %8llu\n", vname[b], build[b], w, regs,
                   (unsigned long long)res, cap / 1024.0, pk, (unsigned long long)m[b].hit,
                   (unsigned long long)m[b].miss, (unsigned long long)m[b].writeback);
            if (jf) {
                fprintf(jf,
                        "%s  {\"variant\": \"%s\", \"warps\": %u, \"capacity_bytes\": %llu, \"insns_per_hit\": %llu, "
                        "\"insns_per_miss\": %llu, \"insns_per_writeback\": %llu, \"indirect_mov\": \"%s\", "
                        "\"regs_per_thread\": %u, \"regs_declared\": %u, \"regs_ptxas\": %u, \"warps_resident\": %llu, "
                        "\"paper_capacity_bytes\": ",
                        firstrow ? "" : ",\n", vname[b], w, (unsigned long long)cap, (unsigned long long)m[b].hit,
                        (unsigned long long)m[b].miss, (unsigned long long)m[b].writeback, build[b], regs, m[b].regs,
                        m[b].regs_ptxas, (unsigned long long)res);
                if (paper >= 0)
                    fprintf(jf, "%ld}", paper * 1024);
                else
                    fputs("null}", jf);
                firstrow = 0;
            }
        }
    printf("Registers per thread: %s (declared in the PTX: rf %u, l1/shm %u, rf+l1 %u, rf-bdi %u).\n",
           m[0].regs_ptxas ? "what ptxas allocates (the brx build for movind)" : "declared in the PTX (no ptxas: --ptxas PATH)",
           m[0].regs, m[2].regs, m[4].regs, m[6].regs);
    printf("rf-bdi: --compress bdi's rf kernel, every register uncompressed (capacity and counts as measured; with\n"
           "compressible data its 32 registers hold up to 125 blocks instead of 32: 31 high registers of 4 blocks and\n"
           "one uncompressed, docs/xllc-bdi.md).\n");
    printf("Also measured: a load miss into an empty way %llu (rf brx) / %llu (rf movind) / %llu (l1) / %llu (shm),\n"
           "a store hit %llu / %llu / %llu / %llu.\n", (unsigned long long)m[0].miss_invalid,
           (unsigned long long)m[1].miss_invalid, (unsigned long long)m[2].miss_invalid,
           (unsigned long long)m[3].miss_invalid, (unsigned long long)m[0].store_hit, (unsigned long long)m[1].store_hit,
           (unsigned long long)m[2].store_hit, (unsigned long long)m[3].store_hit);
    printf("rf+l1: the first 32 sets of a cache-mode SM in registers (the instruction counts above: a set in\n"
           "registers), the others in the L1 (as l1).\n");
    if (emit) {
        FILE *cf = fopen(emit, "w");
        if (!cf || fe_config_write(&conf, cf) || fclose(cf)) {
            fprintf(stderr, "morpheus xllc characterize: cannot write %s%s%s\n", emit, errno ? ": " : "",
                    errno ? strerror(errno) : "");
            if (jf)
                fclose(jf);
            return CLI_EXIT_ERROR;
        }
        printf("Wrote %s: capacity_kib rf %u, l1 %u, shm %u, rf+l1 %u (--config %s runs the native model with them).\n",
               emit, conf.memsys.xllc_kib[MX_XV_RF], conf.memsys.xllc_kib[MX_XV_L1], conf.memsys.xllc_kib[MX_XV_SHM],
               conf.memsys.xllc_kib[MX_XV_RF_L1], emit);
    }
    if (jf) {
        fputs("\n]\n", jf);
        if (fclose(jf)) {
            fprintf(stderr, "morpheus xllc characterize: cannot write %s\n", json);
            return CLI_EXIT_ERROR;
        }
    }
    return CLI_EXIT_OK;
}

const struct cli_cmd cli_cmd_xllc = { "xllc", "characterize the extended LLC's helper kernels (capacity, instructions)",
                                      xllc_help, run_xllc };
