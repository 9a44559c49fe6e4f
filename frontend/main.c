/* frontend/main.c — the `morpheus` command line: a table of subcommands,
 * each with its own --help.  Owns argument parsing and exit codes only; the
 * work is done by the libraries (frontend, isa, emu, ...). */
#include "frontend/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_cmd *const commands[] = {
    &cli_cmd_exec,
    &cli_cmd_workloads,
    &cli_cmd_evaluate,
    &cli_cmd_run,
    &cli_cmd_bench,
    &cli_cmd_config,
    &cli_cmd_xllc,
    &cli_cmd_check,
    &cli_cmd_dis,
    &cli_cmd_isa,
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: morpheus COMMAND [OPTIONS] [ARGS...]\n"
            "\n"
            "Morpheus-emu %s: a functional GPU emulator that runs PTX on emulated SMs.\n"
            "\n"
            "Commands:\n",
            MX_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(out,
            "\n"
            "Options for every command:\n"
            "  -h, --help     show help (morpheus COMMAND --help for a command's options)\n"
            "  --version      print the version and exit\n"
            "\n"
            "Exit status: 0 on success, 1 if the input is invalid or a kernel faulted,\n"
            "2 on a usage error (an unknown option, a missing value, or a value that is\n"
            "not a number in its range), 3 on an I/O or internal error.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *c = argv[1];
    if (!strcmp(c, "-h") || !strcmp(c, "--help") || !strcmp(c, "help")) {
        if (argc > 2 && strcmp(c, "help") == 0) {
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
                if (!strcmp(argv[2], commands[i]->name)) {
                    fputs(commands[i]->help, stdout);
                    return 0;
                }
            fprintf(stderr, "morpheus: unknown command '%s'\n", argv[2]);
            return CLI_EXIT_USAGE;
        }
        usage(stdout);
        return 0;
    }
    if (!strcmp(c, "--version") || !strcmp(c, "version")) {
        printf("morpheus %s\n", MX_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(c, commands[i]->name)) {
            for (int k = 2; k < argc; k++) {
                if (!strcmp(argv[k], "--"))
                    break;
                if (!strcmp(argv[k], "-h") || !strcmp(argv[k], "--help")) {
                    fputs(commands[i]->help, stdout);
                    return 0;
                }
            }
            return commands[i]->run(argc - 1, argv + 1);
        }
    fprintf(stderr, "morpheus: unknown command '%s' (try 'morpheus --help')\n", c);
    return CLI_EXIT_USAGE;
}
