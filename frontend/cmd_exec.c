/* frontend/cmd_exec.c — `morpheus exec`: runs an unmodified CUDA program on
 * the emulator by putting our libcudart.so.13 first on its library path and
 * passing the options to it through MORPHEUS_* environment variables (in a
 * sanitizer build it also preloads the ASan runtime).  The program's stdout,
 * stderr and exit status pass through untouched. */
#include "frontend/cli.h"

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
    "  --isa-ext NAME      enable an ISA extension (indirect-mov)      [MORPHEUS_ISA_EXT]\n"
    "  --max-insns N       watchdog: warp instructions per launch      [MORPHEUS_MAX_INSNS]\n"
    "  --timeout SECONDS   watchdog: wall-clock time per launch        [MORPHEUS_TIMEOUT]\n"
    "  --host-threads N    run blocks on N host threads                [MORPHEUS_HOST_THREADS]\n"
    "  --sms N             emulated SMs (default 68)                   [MORPHEUS_SMS]\n"
    "  --mem-mb N          device memory in MiB (default 10240)        [MORPHEUS_MEM_MB]\n"
    "  --config FILE       read KEY=VALUE settings (keys as in brackets, without MORPHEUS_)\n"
    "\n"
    "Exit status: the program's own; 127 if it cannot be started; 2 on a usage error.\n";

static const struct { const char *opt, *env; } opts[] = {
    { "--stats", "MORPHEUS_STATS" },       { "--ptx", "MORPHEUS_PTX" },
    { "--isa-ext", "MORPHEUS_ISA_EXT" },   { "--max-insns", "MORPHEUS_MAX_INSNS" },
    { "--timeout", "MORPHEUS_TIMEOUT" },   { "--host-threads", "MORPHEUS_HOST_THREADS" },
    { "--sms", "MORPHEUS_SMS" },           { "--mem-mb", "MORPHEUS_MEM_MB" },
};
#define NOPTS (sizeof opts / sizeof opts[0])

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

static int apply_config(const char *path)
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
        setenv(env, v, 1);
    }
    fclose(f);
    return 0;
}

static int run_exec(int argc, char **argv)
{
    int prog = -1;
    const char *values[NOPTS] = { 0 }, *config = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            prog = i + 1;
            break;
        }
        if (!strcmp(argv[i], "--config") && i + 1 < argc) {
            config = argv[++i];
            continue;
        }
        size_t k;
        for (k = 0; k < NOPTS && strcmp(argv[i], opts[k].opt); k++)
            ;
        if (k == NOPTS || i + 1 >= argc) {
            if (argv[i][0] != '-') {
                prog = i;
                break;
            }
            fprintf(stderr, "morpheus exec: %s '%s'\n%s", k == NOPTS ? "unknown option" : "missing value for", argv[i], exec_help);
            return CLI_EXIT_USAGE;
        }
        values[k] = argv[++i];
    }
    if (prog < 0 || prog >= argc) {
        fprintf(stderr, "morpheus exec: no program given\n%s", exec_help);
        return CLI_EXIT_USAGE;
    }
    if (config && apply_config(config))
        return CLI_EXIT_USAGE;
    for (size_t k = 0; k < NOPTS; k++)
        if (values[k])
            setenv(opts[k].env, values[k], 1);
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
