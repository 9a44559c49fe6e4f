/* frontend/cmd_config.c — `morpheus config list|show`: the built-in
 * configurations (configs/NAME.json) with their one-line descriptions, and
 * a configuration resolved as a command would resolve it, printed as JSON
 * in the layout of the files (frontend/config.h). */
#include "frontend/cli.h"
#include "frontend/config.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char config_help[] =
    "usage: morpheus config list\n"
    "       morpheus config show [NAME|FILE] [-o KEY=VALUE]... [OPTIONS]\n"
    "\n"
    "A configuration holds the emulated GPU (section gpu), its memory hierarchy\n"
    "(memsys) and the emulator's settings (emu).  The built-in ones are\n"
    "configs/NAME.json: rtx3080 (the paper's baseline and the defaults), a100,\n"
    "h100, h200.  `morpheus run`, `exec`, `workloads run` and `bench` take one with\n"
    "--config NAME|FILE (a FILE is a path: it has a '/' or ends in .json; keys it\n"
    "leaves out keep their defaults), then -o KEY=VALUE for single keys (dotted:\n"
    "-o memsys.llc.ways=8), then their options (--sms, --cache-sms, ...), each\n"
    "winning over the ones before.\n"
    "\n"
    "  list     the built-in configurations, one line each\n"
    "  show     the resolved configuration as JSON: every key, the layout of the\n"
    "           files (the output is itself a configuration file).  Without NAME,\n"
    "           the built-in defaults.  OPTIONS are those of `morpheus run`\n"
    "           that set keys (--sms, --memsys, --cache-sms, --xllc, ...)\n"
    "\n"
"The options of run, exec, workloads run and bench, the MORPHEUS_* variables\n"
    "of exec (and of the CUDA libraries), and the keys they set:\n"
    "  --config NAME|FILE  MORPHEUS_CONFIG         (the configuration)\n"
    "  -o KEY=VALUE        MORPHEUS_O              (KEY=VALUE lines)\n"
    "  --sms               MORPHEUS_SMS            gpu.num_sms\n"
    "  --mem-mb            MORPHEUS_MEM_MB         gpu.mem_mb\n"
    "  --host-threads      MORPHEUS_HOST_THREADS   emu.host_threads\n"
    "  --quantum           MORPHEUS_QUANTUM        emu.quantum\n"
    "  --warp-sched        MORPHEUS_WARP_SCHED     emu.warp_sched\n"
    "  --max-insns         MORPHEUS_MAX_INSNS      emu.max_insns\n"
    "  --timeout           MORPHEUS_TIMEOUT        emu.timeout\n"
    "  --isa-ext           MORPHEUS_ISA_EXT        emu.isa_ext\n"
    "  --memsys            MORPHEUS_MEMSYS         memsys.enabled\n"
    "  --cache-sms         MORPHEUS_CACHE_SMS      memsys.cache_sms\n"
    "  --xllc              MORPHEUS_XLLC           memsys.xllc.mode\n"
    "  --xllc-variant      MORPHEUS_XLLC_VARIANT   memsys.xllc.variant\n"
    "  --predictor         MORPHEUS_PREDICTOR      memsys.predictor\n"
    "  --compress          MORPHEUS_COMPRESS       memsys.compress\n"
    "  --bdi-epoch         MORPHEUS_BDI_EPOCH      memsys.bdi_epoch\n"
    "  --mem-trace         MORPHEUS_MEM_TRACE      memsys.mem_trace\n"
    "  --xllc-check        MORPHEUS_XLLC_CHECK     memsys.xllc.check\n"
    "  --xllc-helper       MORPHEUS_XLLC_HELPER    memsys.xllc.helper\n"
    "\n"
    "Values: integers decimal or 0x hexadecimal, in the key's range; choices by\n"
    "name; booleans true or false (on, off, true, false in -o); lists as JSON\n"
    "arrays (0,8,16 in -o).  Two keys may be null, the command's default:\n"
    "memsys.enabled (on for `workloads run`, off elsewhere) and emu.max_insns\n"
    "(the watchdog: 10^10 for run, 10^11 for exec, 2^40 for bench).  An unknown\n"
    "key or a bad value is an error naming the key.  For exec the MORPHEUS_*\n"
    "variables win over the configuration and -o, and options over both.\n"
    "\n"
    "Exit status: 0; 2 on a usage error or a bad configuration.\n";

static int list(void)
{
    char dir[PATH_MAX];
    if (fe_config_dir(dir, sizeof dir)) {
        fprintf(stderr, "morpheus config: no configs/ folder next to the binary or in %s\n", SOURCE_ROOT);
        return CLI_EXIT_ERROR;
    }
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "morpheus config: cannot read %s\n", dir);
        return CLI_EXIT_ERROR;
    }
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < n; i++) {
        char name[256];
        size_t l = strlen(names[i]->d_name);
        if (l > 5 && l < sizeof name && !strcmp(names[i]->d_name + l - 5, ".json")) {
            snprintf(name, sizeof name, "%.*s", (int)(l - 5), names[i]->d_name);
            struct fe_config c;
            char err[1024];
            fe_config_default(&c, 0, 0);
            if (fe_config_load(&c, name, err, sizeof err)) {
                fprintf(stderr, "morpheus config: %s\n", err);
                rc = CLI_EXIT_ERROR;
            } else
                printf("%-10s %s\n", name, c.description);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

static int run_config(int argc, char **argv)
{
    if (argc < 2) {
        fputs(config_help, stderr);
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "list")) {
        if (argc > 2) {
            fprintf(stderr, "morpheus config list: unexpected '%s'\n", argv[2]);
            return CLI_EXIT_USAGE;
        }
        return list();
    }
    if (strcmp(argv[1], "show")) {
        fprintf(stderr, "morpheus config: unknown action '%s' (list, show)\n", argv[1]);
        return CLI_EXIT_USAGE;
    }
    struct fe_config_cli cl;
    memset(&cl, 0, sizeof cl);
    for (int i = 2; i < argc; i++) {
        const char *prev = cl.config;
        int r = fe_config_cli_arg(&cl, "config", argc, argv, &i);
        if (r > 0 && prev && cl.config != prev) {
            fprintf(stderr, "morpheus config: two configurations given ('%s' and '%s')\n", prev, cl.config);
            return CLI_EXIT_USAGE;
        }
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r)
            continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "morpheus config: unknown option '%s' (see morpheus config --help)\n", argv[i]);
            return CLI_EXIT_USAGE;
        }
        if (cl.config) {
            fprintf(stderr, "morpheus config: unexpected '%s' (one NAME or FILE)\n", argv[i]);
            return CLI_EXIT_USAGE;
        }
        /* NAME|FILE: checked as --config would be */
        char *args[] = { "--config", argv[i] };
        int k = 0;
        if (fe_config_cli_arg(&cl, "config", 2, args, &k) < 0)
            return CLI_EXIT_USAGE;
    }
    struct fe_config c;
    if (fe_config_cli_resolve(&c, &cl, "config", 0, 0))
        return CLI_EXIT_USAGE;
    if (fe_config_write(&c, stdout) || fflush(stdout)) {
        perror("morpheus config: stdout");
        return CLI_EXIT_ERROR;
    }
    return CLI_EXIT_OK;
}

const struct cli_cmd cli_cmd_config = { "config", "list the built-in configurations, show one resolved", config_help,
                                        run_config };
