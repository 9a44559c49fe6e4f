/* tests/memsys/gen_trace.c — the C half of the differential test: drives
 * memsys with a pseudo-random request stream (4 SMs called in a random
 * interleaving, loads with every cache operator, strong and .nc loads,
 * stores, atomics, reductions, all four spaces, lanes straddling lines,
 * shared-memory sizes that move the L1 carve-out, register-file allocations
 * that move the ways it lends the L1, clocks that sometimes go
 * back, two quanta) on a small geometry, and writes OUTDIR/config.json (the
 * geometry), OUTDIR/trace.txt (--mem-trace) and OUTDIR/stats.json.
 * tests/memsys/lru_ref.py recomputes the counts from the trace alone.
 *
 * usage: gen_trace OUTDIR linear|xor */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mx/memsys.h"
#include "mx/status.h"

#define NSM 4

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[2], "linear") && strcmp(argv[2], "xor"))) {
        fprintf(stderr, "usage: gen_trace OUTDIR linear|xor\n");
        return 2;
    }
    char path[4096];
    struct mx_memsys_config c;
    mx_memsys_config_default(&c);
    /* small enough that every level evicts: L1 32/24/16 ways x 4 sets,
     * LLC 3 x 8 sets x 4 ways, 5 channels (not the partition count) */
    c.num_sms = NSM;
    c.l1_unified_kib = 16;
    c.l1_ncarveouts = 3;
    c.l1_carveouts_kib[0] = 0, c.l1_carveouts_kib[1] = 4, c.l1_carveouts_kib[2] = 8;
    c.l1_rf_kib = 8; /* up to 16 more ways while the register file is unallocated */
    c.llc_partitions = 3;
    c.llc_sets = 8;
    c.llc_ways = 4;
    c.dram_channels = 5;
    c.llc_hash = argv[2][0] == 'x' ? MX_HASH_XOR : MX_HASH_LINEAR;
    snprintf(path, sizeof path, "%s/trace.txt", argv[1]);
    c.mem_trace = path;
    struct mx_memsys *m;
    char err[512];
    if (mx_memsys_create(&c, &m, err, sizeof err)) {
        fprintf(stderr, "gen_trace: %s\n", err);
        return 1;
    }
    const struct mx_memif *mi = mx_memsys_memif(m);

    uint64_t s = 12345, clock[NSM] = { 0 }, nreq = 0;
    uint32_t smem[NSM] = { 0 }, rf[NSM] = { 0 };
    static const uint32_t smems[] = { 0, 3000, 4096, 6000, 9000 };
    static const uint32_t rfs[] = { 0, 511, 2048, 5000, 8192, 12000 }; /* bytes; 12000: more than the 8 KiB lent */
    static const uint8_t ld_cops[] = { 0, 1, 2, 3, 4, 5 };    /* none ca cg cs lu cv */
    static const uint8_t st_cops[] = { 0, 6, 2, 3, 7 };       /* none wb cg cs wt */
    for (int q = 0; q < 2; q++) {
        for (int i = 0; i < 4 * 3000; i++) {
            struct mx_memreq r;
            memset(&r, 0, sizeof r);
            uint64_t x = rnd(&s);
            r.sm = (uint32_t)(x % NSM);
            x /= NSM;
            clock[r.sm] += x % 4;
            if (x % 97 == 0 && clock[r.sm] > 5)
                clock[r.sm] -= 5; /* a clock that goes back: the queue is sorted at the quantum's end */
            r.clock = clock[r.sm] + (uint64_t)q * 100000;
            if (x % 211 == 0)
                smem[r.sm] = smems[x / 211 % 5];
            r.smem = smem[r.sm];
            if (x % 173 == 0)
                rf[r.sm] = rfs[x / 173 % 6];
            r.rf = rf[r.sm];
            uint64_t y = rnd(&s);
            r.space = (uint8_t)(y % 4);
            unsigned k = (unsigned)(y / 4 % 20);
            r.op = k < 12 ? MX_MOP_LD : k < 16 ? MX_MOP_ST : k < 18 ? MX_MOP_ATOM : MX_MOP_RED;
            if (r.op == MX_MOP_LD) {
                r.cop = ld_cops[y / 80 % 6];
                r.strong = y / 480 % 20 == 0;
                r.nc = y / 9600 % 10 == 0;
            } else if (r.op == MX_MOP_ST) {
                r.cop = st_cops[y / 80 % 5];
            }
            r.cta = y >> 40 & 7;
            r.warp = (uint32_t)(y >> 43 & 3);
            r.pc = (uint32_t)(y >> 45 & 63);
            /* a hot region of 48 lines and a cold one of 600, 1-16 lanes */
            uint64_t z = rnd(&s);
            uint64_t base = (z & 1 ? z / 2 % 48 : 1000 + z / 2 % 600) * 128;
            unsigned lanes = 1 + (unsigned)(z >> 20 & 15);
            r.bytes = (uint8_t)(4u << (z >> 24 & 1));
            for (unsigned l = 0; l < lanes; l++) {
                uint64_t w = rnd(&s);
                r.mask |= 1u << l;
                r.addr[l] = base + (w % 64) * 4; /* up to half a line further: some lanes straddle two lines */
            }
            uint64_t t = mi->request(mi->ctx, &r);
            if (t != r.clock)
                return 1;
            nreq++;
        }
        mi->quantum_end(mi->ctx, (uint64_t)(q + 1) * 100000, NULL);
    }
    struct mx_memsys_stats st;
    mx_memsys_stats(m, &st);
    mx_memsys_destroy(m);

    char buf[8192];
    mx_memsys_stats_json(&st, nreq, buf, sizeof buf);
    snprintf(path, sizeof path, "%s/stats.json", argv[1]);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "%s\n", buf);
    fclose(f);
    snprintf(path, sizeof path, "%s/config.json", argv[1]);
    f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f,
            "{\"l1_unified_kib\":%u,\"l1_rf_kib\":%u,\"l1_sets\":%u,\"l1_line\":%u,\"l1_sector\":%u,\"l1_carveouts_kib\":[%u,%u,%u],"
            "\"llc_partitions\":%u,\"llc_sets\":%u,\"llc_ways\":%u,\"llc_hash\":\"%s\",\"dram_channels\":%u}\n",
            c.l1_unified_kib, c.l1_rf_kib, c.l1_sets, c.l1_line, c.l1_sector, c.l1_carveouts_kib[0], c.l1_carveouts_kib[1],
            c.l1_carveouts_kib[2], c.llc_partitions, c.llc_sets, c.llc_ways, argv[2], c.dram_channels);
    fclose(f);
    return 0;
}
