/* tests/emu/test_core.h — the harness of the emu-core tests: parse a PTX
 * module, load it on a fresh device, allocate and copy buffers, launch a
 * kernel with its arguments packed by the kernel's own .param layout, and
 * check fault reports.  Every result is compared with a C reference
 * computed in the test itself. */
#ifndef MX_TEST_CORE_H
#define MX_TEST_CORE_H

#include "mxtest.h"
#include "emu/emu.h"

#include <string.h>

/* Module header used by the kernels: recent enough for redux/match/vote.sync. */
#define CT_HDR ".version 7.8\n.target sm_86\n.address_size 64\n"

/* One module on one device. */
struct ct {
    struct mxt_parse p;
    struct emu_config cfg;
    struct emu_device *dev;
    struct emu_module *mod;
    struct emu_fault fault;   /* of the last launch */
    struct emu_stats stats;   /* of the last launch */
    const char *src;          /* the module text */
    char *owned;              /* src when read from a file */
};

/* Parses src (with the ISA extensions of cfg->ext_mask), creates a device
 * (cfg NULL: defaults) and loads the module; fails the test on any error. */
#define ct_open(c, src) ct_open_((c), (src), NULL, __FILE__, __LINE__)
#define ct_open_cfg(c, src, cfg) ct_open_((c), (src), (cfg), __FILE__, __LINE__)
void ct_open_(struct ct *c, const char *src, const struct emu_config *cfg, const char *file, int line);
/* Same with tests/emu/ptx/NAME as the module. */
#define ct_open_file(c, name) ct_open_file_((c), (name), NULL, __FILE__, __LINE__)
#define ct_open_file_cfg(c, name, cfg) ct_open_file_((c), (name), (cfg), __FILE__, __LINE__)
void ct_open_file_(struct ct *c, const char *name, const struct emu_config *cfg, const char *file, int line);
void ct_close(struct ct *c);

/* Device buffer of n bytes, initialised from init (NULL: zero). */
uint64_t ct_alloc(struct ct *c, size_t n, const void *init);
/* Copies n bytes back from the device. */
void ct_read(struct ct *c, void *dst, uint64_t addr, size_t n);

#define D3(x, y, z) ((const uint32_t[3]){ (x), (y), (z) })

/* Launches kernel `name` with nargs arguments (each passed as uint64_t and
 * stored with the size of the kernel's parameter).  Returns the status;
 * c->fault and c->stats hold the report. */
int ct_launch(struct ct *c, const char *name, const uint32_t grid[3], const uint32_t block[3], uint32_t dyn, int nargs, ...);
/* Same, failing the test (with the fault report) unless it returns MX_OK. */
#define ct_run(c, name, grid, block, dyn, ...) ct_run_((c), __FILE__, __LINE__, (name), (grid), (block), (dyn), __VA_ARGS__)
void ct_run_(struct ct *c, const char *file, int line, const char *name, const uint32_t grid[3], const uint32_t block[3],
             uint32_t dyn, int nargs, ...);
/* Launch with a raw parameter buffer. */
int ct_launch_raw(struct ct *c, const char *name, const uint32_t grid[3], const uint32_t block[3], uint32_t dyn,
                  const void *params, size_t size);

/* 1-based line of src holding `marker` (fails the test if absent). */
unsigned ct_line_of(const char *src, const char *marker);

/* Fails unless s contains sub (printing both). */
#define assert_contains(s, sub) ct_assert_contains_((s), (sub), __FILE__, __LINE__)
void ct_assert_contains_(const char *s, const char *sub, const char *file, int line);

/* Runs a known-good kernel in a second module on the same device and checks
 * its results: the device is still usable after a fault. */
#define ct_assert_alive(c) ct_assert_alive_((c), __FILE__, __LINE__)
void ct_assert_alive_(struct ct *c, const char *file, int line);

/* Checks the fault of the last launch: status, kernel, thread and block,
 * PTX line (0: any) and message substring (NULL: any). */
#define ct_assert_fault(c, status, kname, cta, tid, line, msg) \
    ct_assert_fault_((c), (status), (kname), (cta), (tid), (line), (msg), __FILE__, __LINE__)
void ct_assert_fault_(struct ct *c, int status, const char *kname, const uint32_t cta[3], const uint32_t tid[3], unsigned line,
                      const char *msg, const char *file, int fline);

/* Compares n 32-bit words, reporting the first mismatch with its index. */
#define assert_u32_array(got, want, n) ct_assert_u32_array_((got), (want), (n), __FILE__, __LINE__)
void ct_assert_u32_array_(const uint32_t *got, const uint32_t *want, size_t n, const char *file, int line);
#define assert_u64_array(got, want, n) ct_assert_u64_array_((got), (want), (n), __FILE__, __LINE__)
void ct_assert_u64_array_(const uint64_t *got, const uint64_t *want, size_t n, const char *file, int line);

/* stdout captured into a temporary file around a launch (device printf). */
struct ct_capture { int saved; FILE *f; };
void ct_capture_start(struct ct_capture *cp);
/* Ends the capture; returns what was printed (malloc'd). */
char *ct_capture_end(struct ct_capture *cp);

#endif
