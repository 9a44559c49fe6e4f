/* frontend/cli.h — subcommands of the `morpheus` program and the helpers they share. */
#ifndef MX_FE_CLI_H
#define MX_FE_CLI_H

#include <stdint.h>
#include <stdio.h>

#ifndef MX_VERSION
#define MX_VERSION "0.1.0"
#endif

/* The revision of what a run reports: change it with every change to the
 * emulator that changes a run's cycles, energy or memory counts (a timing
 * model, the hierarchy, a system's preset in code), so that `morpheus
 * evaluate` redoes the runs an earlier build finished instead of mixing them
 * with the new ones (docs/evaluate.md, Resuming). */
#define MX_RESULTS_REV "2026-12-08b"

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_ERROR = 3 };

struct cli_cmd {
    const char *name;
    const char *summary;   /* one line for `morpheus --help` */
    const char *help;      /* full text for `morpheus NAME --help` */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

extern const struct cli_cmd cli_cmd_check, cli_cmd_dis, cli_cmd_isa, cli_cmd_run, cli_cmd_bench, cli_cmd_exec, cli_cmd_workloads, cli_cmd_config,
    cli_cmd_xllc, cli_cmd_evaluate;

/* Value of KEY= in workloads/NAME/INFO (class, kernels, pattern, sizes,
 * footprint_mib, ...), or "?". */
void cli_workload_info(const char *name, const char *key, char *out, size_t n);
/* The workloads' problem sizes (workloads/common/mx_workload.h): 1 if NAME is one. */
#define CLI_SIZES "small, twice-llc, medium or large"
int cli_size_known(const char *name);
/* The folder of the running morpheus binary (the build directory): 0, or -1. */
int cli_exe_dir(char *out, size_t n);
/* mkdir -p PATH: 0, or -1 after "morpheus CMD: cannot create ...". */
int cli_mkdir_p(const char *cmd, const char *path);

/* Parses "--isa-ext NAME[,NAME...]" values into *mask; prints an error and
 * returns -1 for an unknown name. */
int cli_parse_ext(const char *list, uint32_t *mask);

struct fe_num;
/* The one way a command reads a numeric option: value v of option opt of
 * command cmd ("run"), parsed strictly by fe_num_parse (frontend/numopt.h)
 * into *u or *d.  On a bad value prints "morpheus CMD: OPT: expected ...,
 * got 'V'" and returns -1; the caller exits with CLI_EXIT_USAGE. */
int cli_num(const char *cmd, const char *opt, const char *v, const struct fe_num *spec, uint64_t *u, double *d);

#endif
