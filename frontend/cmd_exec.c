/* frontend/cmd_exec.c — `morpheus exec`: runs an unmodified CUDA program on
 * the emulator by putting our libcudart.so.13 first on its library path and
 * passing the options to it through MORPHEUS_* environment variables (in a
 * sanitizer build it also preloads the ASan runtime).  The program's stdout,
 * stderr and exit status pass through untouched. */
#include "frontend/cli.h"
#include "frontend/numopt.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char exec_help[] =
    "usage: morpheus exec [OPTIONS] -- PROGRAM [ARGS...]\n"
    "\n"
    "Runs an unmodified CUDA program (built by nvcc with PTX in its fatbinary,\n"
    "e.g. -arch=compute_80, and the default -cudart shared) on the emulated GPU.\n"
    "The program's output and exit status pass through; the emulator's messages\n"
    "go to stderr prefixed with 'morpheus:'.\n"
    "\n"
    "Options (each also settable by the environment variable in brackets, or in\n"
    "a config file of KEY=VALUE lines given with --config; options win over the\n"
    "file, the file over the environment):\n"
    "  --stats FILE        append one JSON record per kernel launch   [MORPHEUS_STATS]\n"
    "  --ptx FILE          use this PTX instead of the program's own,\n"
    "                      kernels and variables matched by name       [MORPHEUS_PTX]\n"
    "  --isa-ext NAME      enable an ISA extension: indirect-mov, park [MORPHEUS_ISA_EXT]\n"
    "  --max-insns N       watchdog: warp instructions per launch      [MORPHEUS_MAX_INSNS]\n"
    "                      (default 10^11, about 18 minutes of emulation; 0: no limit)\n"
    "  --timeout SECONDS   watchdog: wall-clock time per launch        [MORPHEUS_TIMEOUT]\n"
    "                      (default 0: no limit)\n"
    "  --host-threads N    run the SMs on N host threads, 1 to 256     [MORPHEUS_HOST_THREADS]\n"
    "                      (default 1).  Stores, atomics, volatile/acquire loads and\n"
    "                      printf follow the emulated clock, so results and\n"
    "                      statistics are the same for every N and every run, data\n"
    "                      races on global memory included\n"
    "  --sms N             emulated SMs, 1 to 4096 (default 68)        [MORPHEUS_SMS]\n"
    "  --warp-sched lrr|gto  warp scheduler (default lrr)             [MORPHEUS_WARP_SCHED]\n"
    "  --quantum N         cycles between synchronisations of the SMs  [MORPHEUS_QUANTUM]\n"
    "                      (1 to 2^30, default 16384)\n"
    "  --mem-mb N          device memory in MiB, 1 to 1048576          [MORPHEUS_MEM_MB]\n"
    "                      (default 10240)\n"
    "  --config FILE       read KEY=VALUE settings (keys as in brackets, without MORPHEUS_)\n"
    "\n"
    "Counts are decimal or 0x hexadecimal integers, seconds decimal.  A value that\n"
    "is not a number in its range (a sign, NaN, trailing text), whether from an\n"
    "option, the config file or the environment, is a usage error and the program\n"
    "is not started.\n"
    "\n"
    "Exit status: the program's own; 127 if it cannot be started; 2 on a usage error.\n";

/* The settings passed to the CUDA shims; num says what a numeric value
 * must be (the shims check the variables with the same fe_num), NULL for a
 * path or a list. */
static const struct { const char *opt, *env; const struct fe_num *num; } opts[] = {
    { "--stats", "MORPHEUS_STATS", NULL },
    { "--ptx", "MORPHEUS_PTX", NULL },
    { "--isa-ext", "MORPHEUS_ISA_EXT", NULL },
    { "--max-insns", "MORPHEUS_MAX_INSNS", &fe_num_max_insns },
    { "--timeout", "MORPHEUS_TIMEOUT", &fe_num_timeout },
    { "--host-threads", "MORPHEUS_HOST_THREADS", &fe_num_host_threads },
    { "--sms", "MORPHEUS_SMS", &fe_num_sms },
    { "--warp-sched", "MORPHEUS_WARP_SCHED", &fe_num_warp_sched },
    { "--quantum", "MORPHEUS_QUANTUM", &fe_num_quantum },
    { "--mem-mb", "MORPHEUS_MEM_MB", &fe_num_mem_mb },
};
#define NOPTS (sizeof opts / sizeof opts[0])

/* Checks value v of setting k, named `where` in the message; -1 if bad. */
static int check_value(size_t k, const char *where, const char *v)
{
    char err[256];
    if (!opts[k].num || !fe_num_parse(v, opts[k].num, NULL, NULL, err, sizeof err))
        return 0;
    fprintf(stderr, "morpheus exec: %s: %s\n", where, err);
    return -1;
}

/* Directory holding libcudart.so.13: next to this executable's build tree, or the configured one. */
static int cudart_dir(char *out, size_t len)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            const char *cands[] = { "/frontend/cuda", "/../lib", "/../lib/x86_64-linux-gnu" };
            for (size_t i = 0; i < 3; i++) {
                snprintf(out, len, "%s%s", self, cands[i]);
                char lib[PATH_MAX + 32];
                snprintf(lib, sizeof lib, "%s/libcudart.so.13", out);
                if (!access(lib, R_OK))
                    return 0;
            }
        }
    }
#ifdef MX_CUDART_DIR
    snprintf(out, len, "%s", MX_CUDART_DIR);
    char lib[PATH_MAX + 32];
    snprintf(lib, sizeof lib, "%s/libcudart.so.13", out);
    if (!access(lib, R_OK))
        return 0;
#endif
    return -1;
}

/* Puts `first` at the front of the colon-separated list in variable `var`. */
static int env_prepend(const char *var, const char *first)
{
    const char *old = getenv(var);
    char *v = malloc(strlen(first) + (old ? strlen(old) : 0) + 2);
    if (!v)
        return -1;
    sprintf(v, "%s%s%s", first, old && *old ? ":" : "", old && *old ? old : "");
    int rc = setenv(var, v, 1);
    free(v);
    return rc;
}

/* Reads a --config file: each KEY=VALUE is checked and put in the
 * environment; set[k] marks the settings it gave.  -1 after a message. */
static int apply_config(const char *path, int set[NOPTS])
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "morpheus exec: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || !*p)
            continue;
        char *eq = strchr(p, '=');
        if (!eq) {
            fprintf(stderr, "morpheus exec: %s:%d: expected KEY=VALUE\n", path, ln);
            fclose(f);
            return -1;
        }
        *eq = 0;
        char *v = eq + 1, *e = v + strlen(v);
        while (e > v && (e[-1] == '\n' || e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            *--e = 0;
        while (*v == ' ' || *v == '\t')
            v++;
        char *k = p + strlen(p);
        while (k > p && (k[-1] == ' ' || k[-1] == '\t'))
            *--k = 0;
        char env[128];
        snprintf(env, sizeof env, "MORPHEUS_%s", p);
        for (char *c = env; *c; c++)
            *c = (char)(*c == '-' ? '_' : *c >= 'a' && *c <= 'z' ? *c - 32 : *c);
        size_t i;
        for (i = 0; i < NOPTS && strcmp(opts[i].env, env); i++)
            ;
        if (i == NOPTS) {
            fprintf(stderr, "morpheus exec: %s:%d: unknown setting '%s'\n", path, ln, p);
            fclose(f);
            return -1;
        }
        char where[PATH_MAX + 160];
        snprintf(where, sizeof where, "%s:%d: %s", path, ln, p);
        if (check_value(i, where, v)) {
            fclose(f);
            return -1;
        }
        setenv(env, v, 1);
        set[i] = 1;
    }
    fclose(f);
    return 0;
}

static int run_exec(int argc, char **argv)
{
    int prog = -1, set[NOPTS] = { 0 };
    const char *values[NOPTS] = { 0 }, *config = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            prog = i + 1;
            break;
        }
        if (a[0] != '-') {
            prog = i;
            break;
        }
        size_t k;
        for (k = 0; k < NOPTS && strcmp(a, opts[k].opt); k++)
            ;
        if (k == NOPTS && strcmp(a, "--config")) {
            fprintf(stderr, "morpheus exec: unknown option '%s'\n%s", a, exec_help);
            return CLI_EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "morpheus exec: %s needs a value\n", a);
            return CLI_EXIT_USAGE;
        }
        const char *v = argv[++i];
        if (k == NOPTS) {
            config = v;
            continue;
        }
        if (check_value(k, a, v))
            return CLI_EXIT_USAGE;
        values[k] = v;
    }
    if (prog < 0 || prog >= argc) {
        fprintf(stderr, "morpheus exec: no program given\n%s", exec_help);
        return CLI_EXIT_USAGE;
    }
    if (config && apply_config(config, set))
        return CLI_EXIT_USAGE;
    for (size_t k = 0; k < NOPTS; k++) {
        if (values[k]) {
            setenv(opts[k].env, values[k], 1);
            continue;
        }
        /* what the environment alone gives (empty is unset, as for the shims) */
        const char *v = getenv(opts[k].env);
        if (!set[k] && v && *v && check_value(k, opts[k].env, v))
            return CLI_EXIT_USAGE;
    }
    const char *ptx = getenv("MORPHEUS_PTX");
    if (ptx && *ptx && access(ptx, R_OK)) {
        fprintf(stderr, "morpheus exec: --ptx %s: %s\n", ptx, strerror(errno));
        return CLI_EXIT_ERROR;
    }
    char dir[PATH_MAX];
    if (cudart_dir(dir, sizeof dir)) {
        fprintf(stderr, "morpheus exec: cannot find the emulator's libcudart.so.13 (was it built? it needs the CUDA headers)\n");
        return CLI_EXIT_ERROR;
    }
    if (env_prepend("LD_LIBRARY_PATH", dir))
        return CLI_EXIT_ERROR;
#ifdef MX_ASAN_RUNTIME
    /* A sanitizer build: the program (nvcc-built, not instrumented) loads our
       instrumented libraries, and ASan must be first in its initial library
       list, so its runtime is preloaded (once: also when the program itself
       is instrumented, the dynamic linker loads it once). */
    const char *pre = getenv("LD_PRELOAD");
    if ((!pre || !strstr(pre, MX_ASAN_RUNTIME)) && env_prepend("LD_PRELOAD", MX_ASAN_RUNTIME))
        return CLI_EXIT_ERROR;
#endif
    execvp(argv[prog], argv + prog);
    fprintf(stderr, "morpheus exec: cannot run %s: %s\n", argv[prog], strerror(errno));
    return 127;
}

const struct cli_cmd cli_cmd_exec = { "exec", "run an unmodified CUDA program on the emulator", exec_help, run_exec };
