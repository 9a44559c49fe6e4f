/* frontend/cmd_exec.c — `morpheus exec`: runs an unmodified CUDA program on
 * the emulator by putting our libcudart.so.13 first on its library path and
 * passing the options to it through MORPHEUS_* environment variables (in a
 * sanitizer build it also preloads the ASan runtime).  The configuration
 * goes as MORPHEUS_CONFIG (the file's absolute path) and MORPHEUS_O (the -o
 * settings, one per line); the CUDA shims resolve it with the same code
 * (fe_config_apply_env), which exec runs first to refuse a bad setting
 * before the program starts.  The program's stdout, stderr and exit status
 * pass through untouched. */
#include "frontend/cli.h"
#include "frontend/config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char exec_help[] =
    "usage: morpheus exec [OPTIONS] -- PROGRAM [ARGS...]\n"
    "\n"
    "Runs an unmodified CUDA program (built by nvcc with PTX in its fatbinary,\n"
    "e.g. -arch=compute_80, and -cudart shared) on the emulated GPU.  Without PTX,\n"
    "sm_80/sm_86 machine code goes to the SASS front end (a subset; docs/sass.md).\n"
    "A program linking NVIDIA's static runtime (nvcc's default) is told to rebuild.\n"
    "The program's output and exit status pass through; the emulator's messages\n"
    "go to stderr prefixed with 'morpheus:'.\n"
    "\n"
    "Options, each also settable by the environment variable in brackets.  Each\n"
    "of these wins over the ones before it: the configuration (--config), -o,\n"
    "the MORPHEUS_* variables, a KEY=VALUE --config file, the options.\n"
    "  --config NAME|FILE  a configuration: rtx3080 (the default),     [MORPHEUS_CONFIG]\n"
    "                      a100, h100, h200 (morpheus config list), or a JSON\n"
    "                      file; for compatibility also a file of KEY=VALUE lines\n"
    "                      (keys as in brackets without MORPHEUS_, e.g. sms=8)\n"
    "  -o KEY=VALUE        set one key of the configuration, e.g.      [MORPHEUS_O: lines]\n"
    "                      -o memsys.llc.ways=8 (repeatable; the keys: morpheus\n"
    "                      config --help)\n"
    "  --stats FILE        append one JSON record per kernel launch    [MORPHEUS_STATS]\n"
    "  --ptx FILE          use this PTX instead of the program's own,  [MORPHEUS_PTX]\n"
    "                      kernels and variables matched by name\n"
    "  --prefer ptx|sass   which code of a fatbinary that has both to  [MORPHEUS_PREFER]\n"
    "                      run: its PTX (default) or its sm_80/sm_86 machine\n"
    "                      code (sass: an error if it has none)\n"
    "  --digest FILE       at exit, write to FILE one JSON line with a [MORPHEUS_DIGEST]\n"
    "                      64-bit FNV-1a digest of every byte the program\n"
    "                      copied from device to host (cudaMemcpy*, cuMemcpyDtoH*;\n"
    "                      not host reads of managed memory)\n"
    "  --isa-ext NAME[,NAME]\n"
    "                      enable ISA extensions: indirect-mov, park   [MORPHEUS_ISA_EXT]\n"
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
    "  --warp-sched lrr|gto\n"
    "                      warp scheduler (default lrr)                [MORPHEUS_WARP_SCHED]\n"
    "  --quantum N         cycles between synchronisations of the SMs  [MORPHEUS_QUANTUM]\n"
    "                      (1 to 2^30, default 2048)\n"
    "  --mem-mb N          device memory in MiB, 1 to 1048576          [MORPHEUS_MEM_MB]\n"
    "                      (default 10240)\n"
    "  --memsys on|off     model the memory hierarchy (default off)    [MORPHEUS_MEMSYS]\n"
    "  --cache-sms N       SMs in cache mode (Morpheus), fewer than    [MORPHEUS_CACHE_SMS]\n"
    "                      --sms; kernels run on the others (default 0)\n"
    "  --xllc off|native|helper\n"
    "                      the extended LLC on the cache-mode SMs:     [MORPHEUS_XLLC]\n"
    "                      none (default), its C model, or helper kernels\n"
    "  --xllc-variant rf|l1|shm|rf+l1\n"
    "                      where it lives on a cache-mode SM:          [MORPHEUS_XLLC_VARIANT]\n"
    "                      register file, L1, shared memory, or register file\n"
    "                      and L1 (default)\n"
    "  --predictor bloom|none|perfect\n"
    "                      extended-LLC hit/miss predictor             [MORPHEUS_PREDICTOR]\n"
    "                      (default bloom)\n"
    "  --compress none|bdi extended-LLC compression (default none)     [MORPHEUS_COMPRESS]\n"
    "  --bdi-epoch N       BDI: cycles of an epoch; a set re-splits its registers among the\n"
    "                      levels once an epoch (default 10000, the paper's; docs/xllc-bdi.md)\n"
    "                      [MORPHEUS_BDI_EPOCH]\n"
    "  --mem-trace FILE    write each memory request and the level     [MORPHEUS_MEM_TRACE]\n"
    "                      that served it to FILE\n"
    "  --timing NAME[,ARGS] the timing model: none (default), latency, [MORPHEUS_TIMING]\n"
    "                      or a .so path (docs/timing.md)\n"
    "  --system NAME       one of the paper's evaluated systems: bl,   [MORPHEUS_SYSTEM]\n"
    "                      ibl, ibl-4x-llc, frequency-boost, unified-sm-mem,\n"
    "                      morpheus-basic|-compression|-indirect-mov|-all\n"
    "                      (docs/systems.md; keys you set win)\n"
    "  --compute-sms N     with --system: SMs that run the program    [MORPHEUS_COMPUTE_SMS]\n"
    "                      (auto: chosen between launches by the online\n"
    "                      controller; Morpheus systems with --timing)\n"
    "\n"
    "Counts are decimal or 0x hexadecimal integers, seconds decimal.  A value that\n"
    "is not a number in its range (a sign, NaN, trailing text), whether from an\n"
    "option, the config file or the environment, is a usage error and the program\n"
    "is not started; so is an unknown key or a bad value in a configuration.\n"
    "\n"
    "Exit status: the program's own; 127 if it cannot be started; 2 on a usage error.\n";

/* exec's own settings (the others are the configuration's, fe_config_opts) */
static const struct { const char *opt, *env; } own[] = {
    { "--stats", "MORPHEUS_STATS" },
    { "--ptx", "MORPHEUS_PTX" },
    { "--prefer", "MORPHEUS_PREFER" },
    { "--digest", "MORPHEUS_DIGEST" },
};
#define NOWN (sizeof own / sizeof own[0])

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

/* Whether `path` is a --config file of KEY=VALUE lines (the first thing in
 * it is not a '{'), kept for compatibility; a NAME is never one. */
static int is_keyvalue_file(const char *path)
{
    size_t l = strlen(path);
    if (!strchr(path, '/') && !(l > 5 && !strcmp(path + l - 5, ".json")))
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int c;
    while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        ;
    fclose(f);
    return c != '{' && c != EOF;
}

/* Reads a --config file of KEY=VALUE lines: each is checked and put in the
 * environment as MORPHEUS_KEY.  -1 after a message. */
static int apply_keyvalue_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "morpheus exec: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int ln = 0;
    struct fe_config scratch;
    fe_config_default(&scratch, 0, 0);
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
        const struct fe_config_opt *o = NULL;
        size_t i;
        for (i = 0; i < fe_config_nopts && strcmp(fe_config_opts[i].env, env); i++)
            ;
        if (i < fe_config_nopts)
            o = &fe_config_opts[i];
        for (i = 0; !o && i < NOWN && strcmp(own[i].env, env); i++)
            ;
        if (!o && i == NOWN) {
            fprintf(stderr, "morpheus exec: %s:%d: unknown setting '%s'\n", path, ln, p);
            fclose(f);
            return -1;
        }
        char where[PATH_MAX + 160], err[1024];
        snprintf(where, sizeof where, "%s:%d: %s", path, ln, p);
        if (o && fe_config_option(&scratch, o, where, v, err, sizeof err)) {
            fprintf(stderr, "morpheus exec: %s\n", err);
            fclose(f);
            return -1;
        }
        setenv(env, v, 1);
    }
    fclose(f);
    return 0;
}

static int run_exec(int argc, char **argv)
{
    int prog = -1;
    const char *ownv[NOWN] = { 0 };
    struct fe_config_cli cl;
    memset(&cl, 0, sizeof cl);
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
        for (k = 0; k < NOWN && strcmp(a, own[k].opt); k++)
            ;
        if (k < NOWN) {
            if (i + 1 >= argc) {
                fprintf(stderr, "morpheus exec: %s needs a value\n", a);
                return CLI_EXIT_USAGE;
            }
            ownv[k] = argv[++i];
            continue;
        }
        if (!strcmp(a, "--config")) {
            /* a KEY=VALUE file is read below; anything else is a configuration */
            if (i + 1 >= argc) {
                fprintf(stderr, "morpheus exec: --config needs a value\n");
                return CLI_EXIT_USAGE;
            }
            if (is_keyvalue_file(argv[i + 1])) {
                cl.config = argv[++i];
                continue;
            }
        }
        int took = fe_config_cli_arg(&cl, "exec", argc, argv, &i);
        if (took < 0)
            return CLI_EXIT_USAGE;
        if (!took) {
            fprintf(stderr, "morpheus exec: unknown option '%s'\n%s", a, exec_help);
            return CLI_EXIT_USAGE;
        }
    }
    if (prog < 0 || prog >= argc) {
        fprintf(stderr, "morpheus exec: no program given\n%s", exec_help);
        return CLI_EXIT_USAGE;
    }
    /* Everything goes to the environment, where the shims read it: the
       configuration's absolute path, the -o settings after the environment's
       own, a KEY=VALUE file's settings and the options over the variables. */
    char err[1024];
    if (cl.config && is_keyvalue_file(cl.config)) {
        if (apply_keyvalue_file(cl.config))
            return CLI_EXIT_USAGE;
    } else if (cl.config) {
        char path[FE_CONFIG_PATH_MAX], real[PATH_MAX];
        if (fe_config_path(cl.config, path, sizeof path, err, sizeof err)) {
            fprintf(stderr, "morpheus exec: %s\n", err);
            return CLI_EXIT_USAGE;
        }
        setenv("MORPHEUS_CONFIG", realpath(path, real) ? real : path, 1);
    }
    if (cl.no) {
        const char *old = getenv("MORPHEUS_O");
        size_t n = (old ? strlen(old) : 0) + 2;
        for (int k = 0; k < cl.no; k++)
            n += strlen(cl.o[k]) + 1;
        char *list = malloc(n);
        if (!list)
            return CLI_EXIT_ERROR;
        size_t o = (size_t)snprintf(list, n, "%s", old && *old ? old : "");
        for (int k = 0; k < cl.no; k++)
            o += (size_t)snprintf(list + o, n - o, "%s%s", o ? "\n" : "", cl.o[k]);
        setenv("MORPHEUS_O", list, 1);
        free(list);
    }
    for (size_t k = 0; k < NOWN; k++)
        if (ownv[k])
            setenv(own[k].env, ownv[k], 1);
    for (size_t k = 0; k < fe_config_nopts; k++)
        if (cl.opt[k])
            setenv(fe_config_opts[k].env, cl.opt[k], 1);
    /* what the shims will make of it (empty variables are unset) */
    struct fe_config conf;
    fe_config_default(&conf, 100000000000ull, 0);
    if (fe_config_apply_env(&conf, err, sizeof err) || fe_config_finish(&conf, err, sizeof err)) {
        fprintf(stderr, "morpheus exec: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    const char *ptx = getenv("MORPHEUS_PTX"), *pref = getenv("MORPHEUS_PREFER");
    if (pref && *pref && strcmp(pref, "ptx") && strcmp(pref, "sass")) {
        fprintf(stderr, "morpheus exec: --prefer is ptx or sass, not '%s'\n", pref);
        return CLI_EXIT_USAGE;
    }
    if (pref && !strcmp(pref, "sass") && ptx && *ptx) {
        fprintf(stderr, "morpheus exec: --prefer sass and --ptx exclude each other (--ptx replaces the program's code "
                        "with PTX)\n");
        return CLI_EXIT_USAGE;
    }
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
