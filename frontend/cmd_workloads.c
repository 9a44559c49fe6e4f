/* frontend/cmd_workloads.c — `morpheus workloads list|run`: the paper's
 * applications (workloads/NAME/) run on the emulator through `morpheus exec`
 * semantics, one table row each: PASS/FAIL (the program checks itself
 * against its host reference), kernels launched, thread-instructions, wall
 * time and rate, summed from the per-launch statistics.  The configuration
 * (memory hierarchy on by default) is resolved once, written to a
 * temporary JSON file and given to each `morpheus exec --config`, with the
 * configuration options again so that they still win over MORPHEUS_*. */
#include "frontend/cli.h"
#include "frontend/config.h"
#include "mx/timing.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define all fe_workloads
#define NALL FE_NWORKLOADS

static const char wl_help[] =
    "usage: morpheus workloads list [--long]\n"
    "       morpheus workloads run [OPTIONS] (NAME... | --all)\n"
    "\n"
    "The paper's 17 applications (Table 2), written for this project, each\n"
    "checking its result against a host reference.  'list' shows each with its\n"
    "class (memory- or compute-bound), footprint at sizes small, twice-llc and\n"
    "medium (and the last two over the LLC), kernels, and with --long the access\n"
    "pattern.  'run' runs them on the emulator (the programs built from\n"
    "workloads/NAME/NAME.cu; nothing is built) and prints one row per\n"
    "application: PASS/FAIL, kernels launched,\n"
    "thread-instructions, wall time, thread-instructions per second, the device\n"
    "memory it touched (MiB); with the memory hierarchy on, hit rates and LLC MPKI,\n"
    "and a note naming the applications whose data fit in the LLC.\n"
    "\n"
    "Options of run:\n"
    "  --size SIZE                 problem size: small (default), twice-llc (the memory-bound inputs at about\n"
    "                              twice rtx3080's 5 MiB LLC), medium (several times it) or large\n"
    "  --compiler nvcc|clang|sass  PTX from nvcc (in the program) or clang (workloads/NAME/NAME.clang.ptx),\n"
    "                              or sm_86 machine code only (the program NAME-sass: the SASS front end)\n"
    "  --compare-paths             run each application twice, its PTX (nvcc) and its machine code (sass),\n"
    "                              and print both paths' instruction counts side by side; PASS needs both\n"
    "                              to pass and to read back the same bytes (morpheus exec --digest)\n"
    "  --stats DIR                 keep per-launch JSON records in DIR/NAME.jsonl\n"
    "  --json FILE                 write the table as JSON\n"
    "  --all                       every application\n"
    "\n"
    FE_CONFIG_HELP_HEAD
    "  --host-threads N     run the SMs on N host threads, 1 to 256 (default 1;\n"
    "                       results are the same for every N, data races on\n"
    "                       global memory included)\n"
    "  --sms N, --mem-mb N, --isa-ext NAME, --max-insns N, --timeout SECONDS,\n"
    "  --warp-sched lrr|gto, --quantum N\n"
    "                       as for morpheus exec (the watchdog's default: 10^11)\n"
    "  --memsys on|off      model the memory hierarchy (default on, unless the\n"
    "                       configuration sets memsys.enabled)\n"
    FE_CONFIG_HELP_MEMSYS
    "                       (here one file per application: FILE.NAME)\n"
    "\n"
    "With the hierarchy on, each record of --stats DIR has a \"memsys\" object:\n"
    "l1, llc, xllc (accesses hits misses evictions writebacks), llc.mpki,\n"
    "predictor, dram (bytes, per channel), sms (docs/memsys.md).\n"
    "\n"
    "Exit status 0 only if every application passes.\n";

static void info_path(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/workloads/%s/INFO", SOURCE_ROOT, name); }

int cli_size_known(const char *name)
{
    return !strcmp(name, "small") || !strcmp(name, "twice-llc") || !strcmp(name, "medium") || !strcmp(name, "large");
}

void cli_workload_info(const char *name, const char *key, char *out, size_t n)
{
    char path[PATH_MAX], line[1024];
    info_path(path, sizeof path, name);
    snprintf(out, n, "?");
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl) && line[kl] == '=') {
            line[strcspn(line, "\n")] = 0;
            snprintf(out, n, "%s", line + kl + 1);
            break;
        }
    fclose(f);
}

int cli_exe_dir(char *out, size_t n)
{
    char self[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0)
        return -1;
    self[k] = 0;
    char *s = strrchr(self, '/');
    if (!s)
        return -1;
    *s = 0;
    snprintf(out, n, "%s", self);
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct result {
    int pass, launches, started;
    unsigned long long tinsns, winsns, footprint;
    double wall, kernel_s;
    char last[PATH_MAX + 128];
    char digest[17];              /* the FNV-1a of the bytes read back (morpheus exec --digest), "" if none */
    json_object *memsys;          /* the launches' memsys counts added up (NULL: hierarchy off) */
    json_object *first;           /* the first launch's record: system, timing model */
    json_object *last_rec;        /* the last launch's: the SM split it ended on */
    unsigned long long cycles;    /* the launches' cycles added up (a timing model; launches run in turn) */
    double time_s, energy_j;      /* likewise; -1: no timing model */
    double energy[TM_EPARTS];     /* energy_j by part (the records' "energy"), added up likewise */
};

/* Adds the integer members of memsys object b into a (recursively; arrays
 * element by element; llc.mpki is recomputed by the caller). */
static void ms_add(json_object *a, json_object *b)
{
    json_object_object_foreach(b, key, bv) {
        json_object *av;
        if (!json_object_object_get_ex(a, key, &av))
            continue;
        if (json_object_is_type(bv, json_type_int) && json_object_is_type(av, json_type_int))
            json_object_set_int64(av, json_object_get_int64(av) + json_object_get_int64(bv));
        else if (json_object_is_type(bv, json_type_object) && json_object_is_type(av, json_type_object))
            ms_add(av, bv);
        else if (json_object_is_type(bv, json_type_array) && json_object_is_type(av, json_type_array))
            for (size_t i = 0; i < json_object_array_length(bv) && i < json_object_array_length(av); i++)
                ms_add(json_object_array_get_idx(av, i), json_object_array_get_idx(bv, i));
    }
}

/* Member `level`.`key` of a memsys object as an integer (0 if absent). */
static long long ms_get(json_object *m, const char *level, const char *key)
{
    json_object *l, *v;
    return m && json_object_object_get_ex(m, level, &l) && json_object_object_get_ex(l, key, &v) ? json_object_get_int64(v) : 0;
}

static int run_one(const char *name, const char *size, const char *compiler, const char *statsdir, const char *config,
                   const char *mem_trace, const char *compute_sms,
                   const struct fe_config_cli *cl, struct result *r)
{
    char dir[PATH_MAX], bin[PATH_MAX + 64], stats[PATH_MAX + 64], ptx[PATH_MAX + 64], out[PATH_MAX + 64];
    char dig[PATH_MAX + 64];
    memset(r, 0, sizeof *r);
    if (cli_exe_dir(dir, sizeof dir))
        return -1;
    snprintf(bin, sizeof bin, "%s/workloads/%s%s", dir, name, !strcmp(compiler, "sass") ? "-sass" : "");
    if (access(bin, X_OK)) {
        snprintf(r->last, sizeof r->last, "not built (%s missing: needs nvcc at build time)", bin);
        return -1;
    }
    if (statsdir)
        snprintf(stats, sizeof stats, "%s/%s.jsonl", statsdir, name);
    else
        snprintf(stats, sizeof stats, "/tmp/morpheus-wl-%d-%s.jsonl", (int)getpid(), name);
    unlink(stats);
    snprintf(out, sizeof out, "/tmp/morpheus-wl-%d-%s.out", (int)getpid(), name);
    snprintf(dig, sizeof dig, "/tmp/morpheus-wl-%d-%s.digest", (int)getpid(), name);
    unlink(dig);
    snprintf(ptx, sizeof ptx, "%s/workloads/%s/%s.clang.ptx", SOURCE_ROOT, name, name);
    char self[PATH_MAX + 16];
    snprintf(self, sizeof self, "%s/morpheus", dir);
    double t0 = now();
    fflush(stdout); /* the child must not inherit (and print again) our buffered table */
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (!pid) {
        FILE *o = freopen(out, "w", stdout);
        (void)o;
        const char *argv[20 + 2 * FE_CONFIG_NOPTS + 2 * (sizeof cl->o / sizeof cl->o[0])];
        int a = 0;
        argv[a++] = self;
        argv[a++] = "exec";
        argv[a++] = "--stats";
        argv[a++] = stats;
        argv[a++] = "--config";
        argv[a++] = config;
        argv[a++] = "--digest";
        argv[a++] = dig;
        /* the -o settings are in the file already; again, so that a --system preset leaves them alone */
        for (int k = 0; k < cl->no; k++) {
            argv[a++] = "-o";
            argv[a++] = cl->o[k];
        }
        for (size_t k = 0; k < FE_CONFIG_NOPTS; k++)
            if (cl->opt[k]) {
                argv[a++] = fe_config_opts[k].opt;
                argv[a++] = cl->opt[k];
            }
        if (compute_sms) { /* the system's per-application SM count */
            argv[a++] = "--compute-sms";
            argv[a++] = compute_sms;
        }
        char trace[PATH_MAX + 64];
        if (mem_trace && mem_trace[0]) { /* one trace per application: FILE.NAME */
            snprintf(trace, sizeof trace, "%s.%s", mem_trace, name);
            argv[a++] = "--mem-trace";
            argv[a++] = trace;
        }
        if (!strcmp(compiler, "clang")) {
            argv[a++] = "--ptx";
            argv[a++] = ptx;
        }
        argv[a++] = "--";
        argv[a++] = bin;
        argv[a++] = "--size";
        argv[a++] = size;
        argv[a] = NULL;
        execv(self, (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    r->wall = now() - t0;
    r->started = 1;
    FILE *f = fopen(out, "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (line[0] && line[0] != '\n') {
                line[strcspn(line, "\n")] = 0;
                snprintf(r->last, sizeof r->last, "%s", line);
            }
        fclose(f);
    }
    unlink(out);
    f = fopen(dig, "r");
    if (f) {
        char line[256], *h;
        if (fgets(line, sizeof line, f) && (h = strstr(line, "\"d2h_fnv1a64\": \"")) && strlen(h + 16) >= 16)
            snprintf(r->digest, sizeof r->digest, "%.16s", h + 16);
        fclose(f);
    }
    unlink(dig);
    r->pass = WIFEXITED(st) && WEXITSTATUS(st) == 0 && !strncmp(r->last, "PASS", 4);
    f = fopen(stats, "r");
    if (f) {
        static char line[1 << 16]; /* a record with 64 DRAM channels is about 4 KiB */
        while (fgets(line, sizeof line, f)) {
            json_object *o = json_tokener_parse(line), *v;
            if (!o)
                continue;
            r->launches++;
            if (json_object_object_get_ex(o, "thread_instructions", &v))
                r->tinsns += (unsigned long long)json_object_get_int64(v);
            if (json_object_object_get_ex(o, "warp_instructions", &v))
                r->winsns += (unsigned long long)json_object_get_int64(v);
            if (json_object_object_get_ex(o, "memory_touched_bytes", &v) &&
                (unsigned long long)json_object_get_int64(v) > r->footprint)
                r->footprint = (unsigned long long)json_object_get_int64(v);
            if (json_object_object_get_ex(o, "memsys", &v)) {
                if (!r->memsys)
                    r->memsys = json_object_get(v);
                else
                    ms_add(r->memsys, v);
            }
            if (json_object_object_get_ex(o, "wall_seconds", &v))
                r->kernel_s += json_object_get_double(v);
            if (json_object_object_get_ex(o, "cycles", &v))
                r->cycles += (unsigned long long)json_object_get_int64(v);
            if (json_object_object_get_ex(o, "time_s", &v) && json_object_is_type(v, json_type_double) && r->time_s >= 0)
                r->time_s += json_object_get_double(v);
            else
                r->time_s = -1;
            if (json_object_object_get_ex(o, "energy_j", &v) && json_object_is_type(v, json_type_double) && r->energy_j >= 0)
                r->energy_j += json_object_get_double(v);
            else
                r->energy_j = -1;
            /* (a record has its energy object exactly when it has energy_j) */
            if (json_object_object_get_ex(o, "energy", &v) && json_object_is_type(v, json_type_object))
                for (int k = 0; k < TM_EPARTS; k++) {
                    json_object *pv;
                    if (json_object_object_get_ex(v, tm_energy_part_names[k], &pv))
                        r->energy[k] += json_object_get_double(pv);
                }
            if (!r->first)
                r->first = json_object_get(o);
            if (r->last_rec)
                json_object_put(r->last_rec);
            r->last_rec = json_object_get(o);
            json_object_put(o);
        }
        fclose(f);
    }
    if (!statsdir)
        unlink(stats);
    if (!r->pass && WIFSIGNALED(st))
        snprintf(r->last, sizeof r->last, "killed by signal %d", WTERMSIG(st));
    return 0;
}

static void result_free(struct result *r)
{
    json_object_put(r->first);
    json_object_put(r->last_rec);
    json_object_put(r->memsys);
    r->first = r->last_rec = r->memsys = NULL;
}

/* One path of a --compare-paths row as JSON. */
static json_object *path_json(const struct result *r)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "pass", json_object_new_boolean(r->pass));
    json_object_object_add(o, "last_line", json_object_new_string(r->last));
    json_object_object_add(o, "kernels_launched", json_object_new_int(r->launches));
    json_object_object_add(o, "thread_instructions", json_object_new_int64((int64_t)r->tinsns));
    json_object_object_add(o, "warp_instructions", json_object_new_int64((int64_t)r->winsns));
    json_object_object_add(o, "wall_seconds", json_object_new_double(r->wall));
    json_object_object_add(o, "kernel_seconds", json_object_new_double(r->kernel_s));
    json_object_object_add(o, "d2h_fnv1a64", r->digest[0] ? json_object_new_string(r->digest) : NULL);
    return o;
}

/* --compare-paths: each application through its PTX and its machine code; the two paths' counts side by side. */
static int compare_paths(const int *sel, const char *size, const char *statsdir, const char *config, const char *mem_trace,
                         char (*csms)[16], const struct fe_config_cli *cl, json_object *arr)
{
    int failed = 0;
    printf("%-8s %-6s %-7s %16s %16s %7s %10s %10s %-5s\n", "name", "size", "result", "ptx thread-instr",
           "sass thread-instr", "sass/ptx", "ptx M/s", "sass M/s", "same");
    for (size_t k = 0; k < NALL; k++) {
        if (!sel[k])
            continue;
        struct result r[2];
        static const char *const paths[2] = { "nvcc", "sass" };
        for (int p = 0; p < 2; p++)
            run_one(all[k], size, paths[p], statsdir, config, mem_trace, csms[k][0] ? csms[k] : NULL, cl, &r[p]);
        int same = r[0].digest[0] && !strcmp(r[0].digest, r[1].digest);
        int pass = r[0].pass && r[1].pass && same;
        failed |= !pass;
        const char *why = !r[0].pass ? r[0].last : !r[1].pass ? r[1].last : !same ? "the paths read back different bytes" : "";
        printf("%-8s %-6s %-7s %16llu %16llu %7.3f %10.1f %10.1f %-5s%s%s%s\n", all[k], size, pass ? "PASS" : "FAIL",
               r[0].tinsns, r[1].tinsns, r[0].tinsns ? (double)r[1].tinsns / (double)r[0].tinsns : 0.0,
               r[0].kernel_s > 0 ? r[0].tinsns / r[0].kernel_s / 1e6 : 0.0,
               r[1].kernel_s > 0 ? r[1].tinsns / r[1].kernel_s / 1e6 : 0.0, same ? "yes" : "no", why[0] ? "  " : "",
               !r[0].pass ? "ptx: " : !r[1].pass ? "sass: " : "", why);
        fflush(stdout);
        json_object *o = json_object_new_object();
        json_object_object_add(o, "name", json_object_new_string(all[k]));
        json_object_object_add(o, "size", json_object_new_string(size));
        json_object_object_add(o, "pass", json_object_new_boolean(pass));
        json_object_object_add(o, "same_output", json_object_new_boolean(same));
        json_object_object_add(o, "ptx", path_json(&r[0]));
        json_object_object_add(o, "sass", path_json(&r[1]));
        json_object_array_add(arr, o);
        result_free(&r[0]);
        result_free(&r[1]);
    }
    return failed;
}

int cli_mkdir_p(const char *cmd, const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            char c = *p;
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST) {
                fprintf(stderr, "morpheus %s: cannot create %s: %s\n", cmd, buf, strerror(errno));
                return -1;
            }
            if (!c)
                return 0;
            *p = c;
        }
    }
}

static int run_list(int argc, char **argv)
{
    int lng = argc > 2 && (!strcmp(argv[2], "--long") || !strcmp(argv[2], "-l"));
    if (argc > 2 && !lng) {
        fprintf(stderr, "morpheus workloads list: unknown option '%s' (--long)\n", argv[2]);
        return CLI_EXIT_USAGE;
    }
    /* the footprints (device memory the largest launch touches, measured: workloads/NAME/INFO) against the
       built-in configuration's LLC */
    struct fe_config conf;
    fe_config_default(&conf, 0, 1);
    const struct mx_memsys_config *mc = &conf.memsys;
    double llc = (double)mx_memsys_llc_bytes(mc) / 1048576.0;
    printf("%-8s %-7s %9s %13s %10s %-13s %s\n", "name", "class", "small MiB", "twice-llc MiB", "medium MiB", "x LLC (t,m)",
           lng ? "kernels; access pattern" : "kernels");
    for (size_t i = 0; i < NALL; i++) {
        char cls[32], k[256], pat[512], fs[32], fl[32], fm[32], ratio[32] = "-";
        cli_workload_info(all[i], "class", cls, sizeof cls);
        cli_workload_info(all[i], "kernels", k, sizeof k);
        cli_workload_info(all[i], "pattern", pat, sizeof pat);
        cli_workload_info(all[i], "footprint_mib.small", fs, sizeof fs);
        cli_workload_info(all[i], "footprint_mib.twice-llc", fl, sizeof fl);
        cli_workload_info(all[i], "footprint_mib.medium", fm, sizeof fm);
        if (fm[0] != '?' && fl[0] != '?')
            snprintf(ratio, sizeof ratio, "%.1f,%.1f", atof(fl) / llc, atof(fm) / llc);
        printf("%-8s %-7s %9s %13s %10s %-13s %s%s%s\n", all[i], cls, fs, fl, fm, ratio, k, lng ? "; " : "",
               lng ? pat : "");
    }
    printf("(footprint: device memory the largest launch touches, measured; x LLC: twice-llc's and medium's over the "
           "%.1f MiB LLC of rtx3080)\n", llc);
    return 0;
}

static int run_workloads(int argc, char **argv)
{
    if (argc < 2) {
        fputs(wl_help, stderr);
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "list"))
        return run_list(argc, argv);
    if (strcmp(argv[1], "run")) {
        fprintf(stderr, "morpheus workloads: unknown action '%s' (list, run)\n", argv[1]);
        return CLI_EXIT_USAGE;
    }
    const char *size = "small", *compiler = NULL, *statsdir = NULL, *json = NULL;
    int sel[NALL] = { 0 }, any = 0, compare = 0;
    struct fe_config_cli cl;
    memset(&cl, 0, sizeof cl);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int took = fe_config_cli_arg(&cl, "workloads", argc, argv, &i);
        if (took < 0)
            return CLI_EXIT_USAGE;
        if (took)
            continue;
        if (!strcmp(a, "--size") && v) {
            if (!cli_size_known(v)) {
                fprintf(stderr, "morpheus workloads: --size is " CLI_SIZES ", got '%s'\n", v);
                return CLI_EXIT_USAGE;
            }
            size = v, i++;
        } else if (!strcmp(a, "--compiler") && v) {
            if (strcmp(v, "nvcc") && strcmp(v, "clang") && strcmp(v, "sass")) {
                fprintf(stderr, "morpheus workloads: --compiler is nvcc, clang or sass\n");
                return CLI_EXIT_USAGE;
            }
            compiler = v, i++;
        } else if (!strcmp(a, "--stats") && v) {
            statsdir = v, i++;
        } else if (!strcmp(a, "--json") && v) {
            json = v, i++;
        } else if (!v && (!strcmp(a, "--size") || !strcmp(a, "--compiler") || !strcmp(a, "--stats") ||
                          !strcmp(a, "--json"))) {
            fprintf(stderr, "morpheus workloads: %s needs a value\n", a);
            return CLI_EXIT_USAGE;
        } else if (!strcmp(a, "--compare-paths")) {
            compare = 1;
        } else if (!strcmp(a, "--all")) {
            for (size_t k = 0; k < NALL; k++)
                sel[k] = 1;
            any = 1;
        } else if (a[0] == '-') {
            fprintf(stderr, "morpheus workloads: unknown option '%s'\n%s", a, wl_help);
            return CLI_EXIT_USAGE;
        } else {
            size_t k;
            for (k = 0; k < NALL && strcmp(all[k], a); k++)
                ;
            if (k == NALL) {
                fprintf(stderr, "morpheus workloads: unknown application '%s' (see morpheus workloads list)\n", a);
                return CLI_EXIT_USAGE;
            }
            sel[k] = 1;
            any = 1;
        }
    }
    if (!any) {
        fprintf(stderr, "morpheus workloads run: name applications or give --all\n");
        return CLI_EXIT_USAGE;
    }
    if (compare && compiler) {
        fprintf(stderr, "morpheus workloads run: --compare-paths runs both nvcc's PTX and the machine code: no --compiler\n");
        return CLI_EXIT_USAGE;
    }
    if (!compiler)
        compiler = "nvcc";
    /* the configuration: rtx3080 with the memory hierarchy on, --config, -o,
       options; memsys.enabled is written as resolved (exec's default is off) */
    /* a --system preset is applied by each application's run (its SM count is per application): the file
       the runs share is resolved without it, the table's configuration with it (the first application's) */
    const size_t o_sys = (size_t)(fe_config_find_opt("--system") - fe_config_opts),
                 o_csms = (size_t)(fe_config_find_opt("--compute-sms") - fe_config_opts);
    struct fe_config_cli base_cl = cl;
    base_cl.opt[o_sys] = base_cl.opt[o_csms] = NULL;
    struct fe_config conf, shown;
    if (fe_config_cli_resolve(&conf, &base_cl, "workloads", 100000000000ull, 1))
        return CLI_EXIT_USAGE;
    conf.memsys_on_set = 1;
    uint32_t sysid = 0;
    char csms[NALL][16];
    memset(csms, 0, sizeof csms);
    if (cl.opt[o_sys]) {
        struct fe_config_cli scl = cl;
        for (sysid = 0; sysid < FE_SYS_COUNT && strcmp(fe_system_name(sysid), cl.opt[o_sys]); sysid++)
            ;
        for (size_t k = 0; k < NALL; k++)
            if (sel[k] && !cl.opt[o_csms] && fe_system_per_app(sysid))
                snprintf(csms[k], sizeof csms[k], "%u", fe_system_paper_sms(sysid, all[k], conf.emu.num_sms));
        for (size_t k = 0; k < NALL; k++)
            if (sel[k] && csms[k][0]) {
                scl.opt[o_csms] = csms[k];
                break;
            }
        if (fe_config_cli_resolve(&shown, &scl, "workloads", 100000000000ull, 1))
            return CLI_EXIT_USAGE;
    } else {
        shown = conf;
    }
    if (statsdir && cli_mkdir_p("workloads", statsdir))
        return CLI_EXIT_ERROR;
    char config[64];
    snprintf(config, sizeof config, "/tmp/morpheus-wl-%d-XXXXXX.json", (int)getpid());
    int fd = mkstemps(config, 5);
    FILE *cf = fd < 0 ? NULL : fdopen(fd, "w");
    if (!cf || fe_config_write(&conf, cf) || fclose(cf)) {
        fprintf(stderr, "morpheus workloads: cannot write %s: %s\n", config, strerror(errno));
        if (fd >= 0)
            unlink(config);
        return CLI_EXIT_ERROR;
    }
    json_object *arr = json_object_new_array();
    int failed = 0;
    if (compare) {
        failed = compare_paths(sel, size, statsdir, config, conf.mem_trace, csms, &cl, arr);
        goto done;
    }
    printf("%-8s %-6s %-7s %-5s %8s %16s %9s %10s %8s%s\n", "name", "size", "result", "ptx", "kernels", "thread-instr",
           "wall s", "M instr/s", "MiB", shown.memsys_on ? "  L1 hit%  LLC hit% LLC MPKI xLLC hit%" : "");
    const struct mx_memsys_config *mc = &shown.memsys;
    uint64_t llc_bytes = mx_memsys_llc_bytes(mc);
    char small_fp[1024] = "";
    for (size_t k = 0; k < NALL; k++) {
        if (!sel[k])
            continue;
        struct result r;
        run_one(all[k], size, compiler, statsdir, config, conf.mem_trace, csms[k][0] ? csms[k] : NULL, &cl, &r);
        failed |= !r.pass;
        char msc[80] = "";
        if (r.memsys) { /* the hierarchy's summary; llc.mpki over the whole application */
            long long l1a = ms_get(r.memsys, "l1", "accesses"), lla = ms_get(r.memsys, "llc", "accesses");
            long long xa = ms_get(r.memsys, "xllc", "accesses"), llm = ms_get(r.memsys, "llc", "misses");
            double mpki = r.winsns ? 1000.0 * (double)llm / (double)r.winsns : 0;
            json_object *llc;
            if (json_object_object_get_ex(r.memsys, "llc", &llc))
                json_object_object_add(llc, "mpki", json_object_new_double(mpki));
            snprintf(msc, sizeof msc, " %9.1f %9.1f %8.2f %9s", l1a ? 100.0 * ms_get(r.memsys, "l1", "hits") / l1a : 0.0,
                     lla ? 100.0 * ms_get(r.memsys, "llc", "hits") / lla : 0.0, mpki, "");
            if (xa)
                snprintf(msc + strlen(msc) - 9, sizeof msc - (strlen(msc) - 9), " %8.1f",
                         100.0 * ms_get(r.memsys, "xllc", "hits") / xa);
        }
        printf("%-8s %-6s %-7s %-5s %8d %16llu %9.2f %10.1f %8.1f%s%s%s\n", all[k], size, r.pass ? "PASS" : "FAIL",
               compiler, r.launches, r.tinsns, r.wall, r.kernel_s > 0 ? r.tinsns / r.kernel_s / 1e6 : 0.0,
               r.footprint / 1048576.0, msc, r.pass ? "" : "  ", r.pass ? "" : r.last);
        if (shown.memsys_on && r.started && r.footprint && r.footprint <= llc_bytes &&
            strlen(small_fp) + strlen(all[k]) + 2 < sizeof small_fp)
            snprintf(small_fp + strlen(small_fp), sizeof small_fp - strlen(small_fp), " %s", all[k]);
        fflush(stdout);
        json_object *o = json_object_new_object();
        json_object_object_add(o, "name", json_object_new_string(all[k]));
        json_object_object_add(o, "size", json_object_new_string(size));
        json_object_object_add(o, "compiler", json_object_new_string(compiler));
        json_object_object_add(o, "pass", json_object_new_boolean(r.pass));
        json_object_object_add(o, "last_line", json_object_new_string(r.last));
        json_object_object_add(o, "kernels_launched", json_object_new_int(r.launches));
        json_object_object_add(o, "thread_instructions", json_object_new_int64((int64_t)r.tinsns));
        json_object_object_add(o, "wall_seconds", json_object_new_double(r.wall));
        json_object_object_add(o, "kernel_seconds", json_object_new_double(r.kernel_s));
        json_object_object_add(o, "memory_touched_bytes", json_object_new_int64((int64_t)r.footprint));
        /* the run as a whole: the system and SM split of its launches, cycles, time and energy added up
           (launches run one after another), IPC and power over the whole run */
        static const char *const from_first[] = { "system", "gated_sms", "timing" };
        for (size_t f = 0; f < sizeof from_first / sizeof *from_first; f++) {
            json_object *v = NULL;
            if (r.first && json_object_object_get_ex(r.first, from_first[f], &v))
                json_object_object_add(o, from_first[f], json_object_get(v));
        }
        /* the split of the last launch: with --compute-sms auto, where the online controller ended (its
           "online" object says how it got there) */
        static const char *const from_last[] = { "compute_sms", "cache_sms", "online" };
        for (size_t f = 0; f < sizeof from_last / sizeof *from_last; f++) {
            json_object *v = NULL;
            if (r.last_rec && json_object_object_get_ex(r.last_rec, from_last[f], &v))
                json_object_object_add(o, from_last[f], json_object_get(v));
        }
        int timed = r.launches && r.time_s >= 0 && r.energy_j >= 0;
        json_object_object_add(o, "cycles", json_object_new_int64((int64_t)r.cycles));
        json_object_object_add(o, "ipc", json_object_new_double(r.cycles ? (double)r.winsns / (double)r.cycles : 0));
        json_object_object_add(o, "time_s", timed ? json_object_new_double(r.time_s) : NULL);
        json_object_object_add(o, "energy_j", timed ? json_object_new_double(r.energy_j) : NULL);
        json_object_object_add(o, "power_w", timed && r.time_s > 0 ? json_object_new_double(r.energy_j / r.time_s) : NULL);
        json_object *parts = timed ? json_object_new_object() : NULL;
        for (int q = 0; parts && q < TM_EPARTS; q++)
            json_object_object_add(parts, tm_energy_part_names[q], json_object_new_double(r.energy[q]));
        json_object_object_add(o, "energy", parts);
        json_object_object_add(o, "warp_instructions", json_object_new_int64((int64_t)r.winsns));
        if (r.memsys)
            json_object_object_add(o, "memsys", json_object_get(r.memsys));
        result_free(&r);
        json_object_array_add(arr, o);
    }
    if (small_fp[0]) /* (stderr: the table stays one row per application) */
        fprintf(stderr, "morpheus workloads: note: the data of%s fits in the %.1f MiB LLC at size %s: the LLC is not "
                "exercised (a larger --size, or -o memsys.llc.sets=N to shrink it)\n", small_fp, llc_bytes / 1048576.0, size);
done:
    if (json && json_object_to_file_ext(json, arr, JSON_C_TO_STRING_PRETTY))
        fprintf(stderr, "morpheus workloads: cannot write %s\n", json);
    json_object_put(arr);
    unlink(config);
    return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

const struct cli_cmd cli_cmd_workloads = { "workloads", "list or run the paper's 17 applications", wl_help, run_workloads };
