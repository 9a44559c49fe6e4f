/* tests/emu/test_sched_bugs.c — known bugs of the execution layer
 * (emu/sched.c), each a test of the behaviour it should have.  meson runs
 * each case on its own as an expected failure (should_fail); when a bug is
 * fixed its test passes, meson reports the unexpected pass, and the case
 * moves to test_sched.c. */
#include "test_core.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* Launches `where` in a child process that gets `seconds` to finish; the
 * child exits with the launch status, or dies of SIGALRM if it hangs. */
static void launch_or_hang(struct ct *c, const uint32_t block[3], uint32_t dyn, unsigned seconds, int *status, int *hung)
{
    uint64_t smid = ct_alloc(c, 64 * 4, NULL), info = ct_alloc(c, 8, NULL);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        alarm(seconds);
        int rc = ct_launch(c, "where", D3(2, 1, 1), block, dyn, 2, smid, info);
        if (rc)
            fprintf(stderr, "%s\n", c->fault.message);
        _exit(rc & 0xff);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    *hung = WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM;
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A block that needs more warps, threads or shared memory than one SM has
 * (while within the per-block limits) can never start: the launch must fail
 * (MX_ELAUNCH, as CUDA's "too many resources requested for launch"), not
 * wait forever.  Today run_grid() loops on quanta with nothing resident,
 * where neither watchdog fires (both name a resident CTA). */
MX_TEST(bug_block_larger_than_an_sm_hangs)
{
    static const struct { const char *what; uint32_t warps, threads, shared, block, dyn; } cases[] = {
        { "warps", 2, 1536, 102400, 128, 0 },
        { "threads", 48, 64, 102400, 128, 0 },
        { "shared memory", 48, 1536, 1000, 32, 2000 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct emu_config cfg;
        emu_config_default(&cfg);
        cfg.num_sms = 2;
        cfg.max_warps_per_sm = cases[k].warps;
        cfg.max_threads_per_sm = cases[k].threads;
        cfg.shared_per_sm = cases[k].shared;
        cfg.watchdog_insns = 100000;
        cfg.watchdog_seconds = 0.2;
        struct ct c;
        ct_open_file_cfg(&c, "sched.ptx", &cfg);
        int status, hung;
        launch_or_hang(&c, D3(cases[k].block, 1, 1), cases[k].dyn, 2, &status, &hung);
        if (hung || status != MX_ELAUNCH)
            fail_msg("a block with more %s than an SM: %s (status %d), want MX_ELAUNCH", cases[k].what,
                     hung ? "the launch hung" : "the launch ended", status);
        ct_close(&c);
    }
}

/* Two requests fault when they complete at the same quantum's end: block 1's
 * atomic (SM 1, issued at SM clock ~15) completes before block 0's (SM 0,
 * clock ~100) in the (clock, SM, issue) order, so it is the earliest fault
 * and the one to report.  Today both faults get the quantum's end as their
 * clock (emu_fault takes sm->clock, which complete_waits() does not set to
 * the request's), and take_fault() falls back to the lower SM: block 0. */
MX_TEST(bug_faults_of_requests_reported_by_sm_not_by_order)
{
    struct emu_config cfg;
    emu_config_default(&cfg);
    cfg.num_sms = 2;
    cfg.quantum = 1000;
    struct ct c;
    ct_open_file_cfg(&c, "sched.ptx", &cfg);
    uint32_t pads[2] = { 30, 1 };
    uint64_t buf = ct_alloc(&c, 16, NULL), dp = ct_alloc(&c, sizeof pads, pads);
    assert_int_equal(ct_launch(&c, "afault", D3(2, 1, 1), D3(32, 1, 1), 0, 2, buf, dp), MX_EMEMFAULT);
    ct_assert_fault(&c, MX_EMEMFAULT, "afault", D3(1, 0, 0), D3(0, 0, 0), ct_line_of(c.src, "@AFAULT"), "out of bounds");
    assert_int_equal(c.fault.addr, buf + 2 * 4096);
    ct_close(&c);
}
