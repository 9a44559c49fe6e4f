/* frontend/cmd_check.c — `morpheus check`, `morpheus dis` and `morpheus isa`:
 * the front-end commands (parse and validate, disassemble, list the ISA). */
#include "frontend/cli.h"
#include "frontend/numopt.h"
#include "frontend/ptx.h"
#include "frontend/sass.h"
#include "isa/disasm.h"
#include "mx/status.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cli_parse_ext(const char *list, uint32_t *mask)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int e = mx_ext_lookup(t);
        if (e == MX_EXT_NONE) {
            fprintf(stderr, "morpheus: unknown ISA extension '%s' (known:", t);
            for (int k = 1; k < MX_EXT__COUNT; k++)
                fprintf(stderr, " %s", mx_ext_name(k));
            fprintf(stderr, ")\n");
            return -1;
        }
        *mask |= 1u << e;
    }
    return 0;
}

int cli_num(const char *cmd, const char *opt, const char *v, const struct fe_num *spec, uint64_t *u, double *d)
{
    char err[256];
    if (!fe_num_parse(v, spec, u, d, err, sizeof err))
        return 0;
    fprintf(stderr, "morpheus %s: %s: %s\n", cmd, opt, err);
    return -1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Reads and parses one file; returns an mx_status and fills prog/diag. */
static int load(const char *path, const struct fe_options *opt, struct mx_program *prog, struct mx_diag *diag,
                size_t *bytes, double *seconds)
{
    char *text;
    size_t len;
    char err[512];
    memset(prog, 0, sizeof *prog);
    int rc = fe_read_file(path, &text, &len, err, sizeof err);
    if (rc) {
        fprintf(stderr, "morpheus: %s\n", err);
        snprintf(diag->first, sizeof diag->first, "%s", err);
        return rc;
    }
    double t0 = now();
    rc = fe_parse_input(text, len, path, opt, prog, diag);
    if (seconds)
        *seconds = now() - t0;
    if (bytes)
        *bytes = len;
    free(text);
    return rc;
}

static const char check_help[] =
    "usage: morpheus check [OPTIONS] FILE.ptx...\n"
    "\n"
    "Parses and validates PTX files as ptxas would and prints every problem as\n"
    "FILE:LINE:COL: error: MESSAGE near 'TOKEN'.  Exit status 0 only if every file\n"
    "is valid.\n"
    "\n"
    "Options:\n"
    "  --isa-ext NAME[,NAME]  enable ISA extensions (see 'morpheus isa --ext')\n"
    "  --max-errors N         stop reporting a file after N errors (default 20)\n"
    "  --stats                print per-file counts and parse speed\n"
    "  --json                 print one JSON object per file on stdout:\n"
    "                         {file, ok, status, errors, first_error, bytes,\n"
    "                          instructions, functions, kernels, parse_seconds}\n"
    "  --resources            also print each kernel's registers as ptxas -v does: the\n"
    "                         32-bit registers live at once (what the emulator allocates,\n"
    "                         gpu.regs live) and the registers the PTX declares; static\n"
    "                         shared and local bytes (JSON: a \"kernels_resources\" array\n"
    "                         of {kernel, live_regs, declared_regs, shared_bytes,\n"
    "                         local_bytes})\n"
    "  -q, --quiet            print nothing but errors\n";

static int run_check(int argc, char **argv)
{
    struct fe_options opt = { 0 };
    opt.diag_out = stderr;
    int stats = 0, json = 0, quiet = 0, resources = 0, nfiles = 0, bad = 0, ioerr = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--isa-ext") && i + 1 < argc) {
            if (cli_parse_ext(argv[++i], &opt.ext_mask))
                return CLI_EXIT_USAGE;
        } else if (!strncmp(a, "--isa-ext=", 10)) {
            if (cli_parse_ext(a + 10, &opt.ext_mask))
                return CLI_EXIT_USAGE;
        } else if ((!strcmp(a, "--isa-ext") || !strcmp(a, "--max-errors")) && i + 1 >= argc) {
            fprintf(stderr, "morpheus check: %s needs a value\n", a);
            return CLI_EXIT_USAGE;
        } else if (!strcmp(a, "--max-errors")) {
            static const struct fe_num max_errors = { FE_NUM_UINT, 1, 100000, NULL };
            uint64_t v;
            if (cli_num("check", a, argv[++i], &max_errors, &v, NULL))
                return CLI_EXIT_USAGE;
            opt.max_errors = (unsigned)v;
        } else if (!strcmp(a, "--stats")) {
            stats = 1;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--resources")) {
            resources = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "morpheus check: unknown option '%s'\n%s", a, check_help);
            return CLI_EXIT_USAGE;
        } else {
            nfiles++;
        }
    }
    if (!nfiles) {
        fprintf(stderr, "morpheus check: no input files\n%s", check_help);
        return CLI_EXIT_USAGE;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--isa-ext") || !strcmp(a, "--max-errors")) {
            i++;
            continue;
        }
        if (a[0] == '-' && a[1])
            continue;
        struct mx_program prog;
        struct mx_diag diag = { 0 };
        diag.out = stderr;
        diag.max_errors = opt.max_errors;
        size_t bytes = 0;
        double secs = 0;
        int rc = load(a, &opt, &prog, &diag, &bytes, &secs);
        if (rc == MX_EIO || rc == MX_ENOMEM || rc == MX_ELIMIT)
            ioerr = 1;
        else if (rc)
            bad = 1;
        unsigned kernels = 0;
        for (uint32_t f = 0; f < prog.nfuncs; f++)
            kernels += (prog.funcs[f].flags & (MX_FUNCF_ENTRY | MX_FUNCF_DECL)) == MX_FUNCF_ENTRY;
        if (json) {
            json_object *o = json_object_new_object();
            json_object_object_add(o, "file", json_object_new_string(a));
            json_object_object_add(o, "ok", json_object_new_boolean(rc == MX_OK));
            json_object_object_add(o, "status", json_object_new_string(mx_status_name(rc)));
            json_object_object_add(o, "errors", json_object_new_int((int)diag.nerrors));
            json_object_object_add(o, "first_error", diag.nerrors || rc ? json_object_new_string(diag.first) : NULL);
            json_object_object_add(o, "bytes", json_object_new_int64((int64_t)bytes));
            json_object_object_add(o, "instructions", json_object_new_int64(prog.ninsns));
            json_object_object_add(o, "functions", json_object_new_int64(prog.nfuncs));
            json_object_object_add(o, "kernels", json_object_new_int64(kernels));
            json_object_object_add(o, "parse_seconds", json_object_new_double(secs));
            if (resources && rc == MX_OK) {
                json_object *arr = json_object_new_array();
                for (uint32_t f = 0; f < prog.nfuncs; f++) {
                    const struct mx_func *fn = &prog.funcs[f];
                    if ((fn->flags & (MX_FUNCF_ENTRY | MX_FUNCF_DECL)) != MX_FUNCF_ENTRY)
                        continue;
                    json_object *k = json_object_new_object();
                    json_object_object_add(k, "kernel", json_object_new_string(mx_str(&prog, fn->name)));
                    json_object_object_add(k, "live_regs", json_object_new_int64(fn->live_regs));
                    json_object_object_add(k, "declared_regs", json_object_new_int64(fn->nregs));
                    json_object_object_add(k, "shared_bytes", json_object_new_int64(fn->shared_size));
                    json_object_object_add(k, "local_bytes", json_object_new_int64((int64_t)fn->local_size));
                    json_object_array_add(arr, k);
                }
                json_object_object_add(o, "kernels_resources", arr);
            }
            puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
            json_object_put(o);
        } else if (stats && rc == MX_OK) {
            printf("%s: %zu bytes, %u instructions, %u functions (%u kernels), parsed in %.3f ms (%.1f MB/s)\n", a,
                   bytes, prog.ninsns, prog.nfuncs, kernels, secs * 1e3, secs > 0 ? bytes / secs / 1e6 : 0.0);
        } else if (!quiet && rc == MX_OK) {
            printf("%s: ok (%u instructions, %u kernels)\n", a, prog.ninsns, kernels);
        }
        if (resources && !json && rc == MX_OK)
            for (uint32_t f = 0; f < prog.nfuncs; f++) {
                const struct mx_func *fn = &prog.funcs[f];
                if ((fn->flags & (MX_FUNCF_ENTRY | MX_FUNCF_DECL)) == MX_FUNCF_ENTRY)
                    printf("%s: %s: %u registers live, %u declared, %u bytes shared, %llu bytes local\n", a,
                           mx_str(&prog, fn->name), fn->live_regs, fn->nregs, fn->shared_size,
                           (unsigned long long)fn->local_size);
            }
        mx_program_free(&prog);
    }
    return ioerr ? CLI_EXIT_ERROR : bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

const struct cli_cmd cli_cmd_check = { "check", "parse and validate PTX files", check_help, run_check };

static const char dis_help[] =
    "usage: morpheus dis [OPTIONS] FILE.ptx|FILE.cubin\n"
    "\n"
    "Parses FILE.ptx and prints the decoded program back as PTX (registers,\n"
    "labels and symbols by name, immediates in canonical form).  The output\n"
    "re-parses to an identical decoded program.  A cubin (sm_80/sm_86) is\n"
    "lowered by the SASS front end first.\n"
    "\n"
    "Options:\n"
    "  --sass                 FILE is a cubin: print its decoded machine code (address,\n"
    "                         instruction, control bits) instead\n"
    "  --lowered              FILE is a cubin: print the PTX its kernels lower to\n"
    "  --isa-ext NAME[,NAME]  enable ISA extensions\n"
    "  -o FILE                write to FILE instead of stdout\n"
    "  --verify               re-parse the output and check it decodes identically\n";

/* dis --sass / --lowered: the cubin's machine code as decoded, or its lowering. */
static int dis_sass(const char *in, const char *outpath, int lowered)
{
    char *text, err[768];
    size_t len;
    int rc = fe_read_file(in, &text, &len, err, sizeof err);
    if (rc) {
        fprintf(stderr, "morpheus: %s\n", err);
        return CLI_EXIT_ERROR;
    }
    struct fe_cubin c;
    if ((rc = fe_cubin_read((const uint8_t *)text, len, in, &c, err, sizeof err))) {
        fprintf(stderr, "morpheus dis: %s\n", err);
        free(text);
        return rc == MX_ENOMEM ? CLI_EXIT_ERROR : CLI_EXIT_FAIL;
    }
    if (c.warning[0])
        fprintf(stderr, "%s\n", c.warning);
    FILE *out = stdout;
    if (outpath && !(out = fopen(outpath, "w"))) {
        perror(outpath);
        fe_cubin_free(&c);
        free(text);
        return CLI_EXIT_ERROR;
    }
    if (lowered) {
        char *ptx = fe_sass_lower_text(&c, in, err, sizeof err);
        if (ptx)
            fputs(ptx, out);
        else
            fprintf(stderr, "morpheus dis: %s\n", err);
        rc = ptx ? MX_OK : MX_EUNSUPPORTED;
        free(ptx);
    } else
        rc = fe_sass_disasm(&c, in, out, stderr);
    if (out != stdout && fclose(out)) {
        perror(outpath);
        rc = MX_EIO;
    }
    fe_cubin_free(&c);
    free(text);
    return rc == MX_EIO ? CLI_EXIT_ERROR : rc ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

static int run_dis(int argc, char **argv)
{
    struct fe_options opt = { 0 };
    const char *in = NULL, *outpath = NULL;
    int verify = 0, sass = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--isa-ext") && i + 1 < argc) {
            if (cli_parse_ext(argv[++i], &opt.ext_mask))
                return CLI_EXIT_USAGE;
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            outpath = argv[++i];
        } else if (!strcmp(a, "--verify")) {
            verify = 1;
        } else if (!strcmp(a, "--sass")) {
            sass = 1;
        } else if (!strcmp(a, "--lowered")) {
            sass = 2;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "morpheus dis: unknown option '%s'\n%s", a, dis_help);
            return CLI_EXIT_USAGE;
        } else if (in) {
            fprintf(stderr, "morpheus dis: one input file only\n");
            return CLI_EXIT_USAGE;
        } else {
            in = a;
        }
    }
    if (!in) {
        fprintf(stderr, "morpheus dis: no input file\n%s", dis_help);
        return CLI_EXIT_USAGE;
    }
    if (sass)
        return dis_sass(in, outpath, sass == 2);
    struct mx_program prog;
    struct mx_diag diag = { 0 };
    diag.out = stderr;
    int rc = load(in, &opt, &prog, &diag, NULL, NULL);
    if (rc) {
        mx_program_free(&prog);
        return rc == MX_EIO || rc == MX_ENOMEM ? CLI_EXIT_ERROR : CLI_EXIT_FAIL;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem || mx_disasm_program(mem, &prog) || fclose(mem)) {
        fprintf(stderr, "morpheus dis: out of memory\n");
        mx_program_free(&prog);
        free(buf);
        return CLI_EXIT_ERROR;
    }
    int status = CLI_EXIT_OK;
    if (verify) {
        struct mx_program again;
        struct mx_diag d2 = { 0 };
        d2.out = stderr;
        d2.file = "<disassembly>";
        char why[256] = "";
        if (fe_parse_ptx(buf, len, "<disassembly>", &opt, &again, &d2) != MX_OK) {
            fprintf(stderr, "morpheus dis: the disassembly does not re-parse\n");
            status = CLI_EXIT_FAIL;
        } else if (!mx_program_equal(&prog, &again, why, sizeof why)) {
            fprintf(stderr, "morpheus dis: round trip differs: %s\n", why);
            status = CLI_EXIT_FAIL;
        }
        mx_program_free(&again);
    }
    FILE *out = stdout;
    if (outpath && !(out = fopen(outpath, "w"))) {
        perror(outpath);
        status = CLI_EXIT_ERROR;
    } else {
        fwrite(buf, 1, len, out);
        if (out != stdout && fclose(out)) {
            perror(outpath);
            status = CLI_EXIT_ERROR;
        }
    }
    free(buf);
    mx_program_free(&prog);
    return status;
}

const struct cli_cmd cli_cmd_dis = { "dis", "print a PTX file's decoded program back as PTX", dis_help, run_dis };

static const char isa_help[] =
    "usage: morpheus isa [--json | --ext]\n"
    "\n"
    "Lists the opcode table: every PTX opcode the emulator knows with its\n"
    "operand format, unit class, modifier groups, allowed types and the ISA\n"
    "extension it belongs to.  --ext lists the ISA extensions instead.\n";

static int run_isa(int argc, char **argv)
{
    int json = 0, ext = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--ext"))
            ext = 1;
        else {
            fprintf(stderr, "morpheus isa: unknown option '%s'\n%s", argv[i], isa_help);
            return CLI_EXIT_USAGE;
        }
    }
    if (mx_isa_init() < 0)
        return CLI_EXIT_ERROR;
    if (ext) {
        for (int e = 1; e < MX_EXT__COUNT; e++)
            printf("%-14s %s\n", mx_ext_name(e), mx_ext_doc(e));
        return 0;
    }
    json_object *arr = json ? json_object_new_array() : NULL;
    for (int op = 0; op < MX_OP__COUNT; op++) {
        const struct mx_opinfo *oi = mx_opinfo(op);
        char mods[512] = "", types[1024] = "";
        size_t m = 0, t = 0;
        for (int g = 0; g < oi->ngroups; g++)
            for (unsigned v = 1; v <= mx_mg_nvalues(oi->groups[g]); v++)
                m += (size_t)snprintf(mods + m, m < sizeof mods ? sizeof mods - m : 0, "%s.%s", m ? " " : "",
                                      mx_mod_name(oi->groups[g], (int)v));
        for (int s = 0; s < oi->ntypes; s++) {
            t += (size_t)snprintf(types + t, t < sizeof types ? sizeof types - t : 0, "%s", s ? " | " : "");
            for (int ty = 1; ty < MX_T__COUNT; ty++)
                if (oi->typemask[s] >> ty & 1)
                    t += (size_t)snprintf(types + t, t < sizeof types ? sizeof types - t : 0, ".%s ", mx_type_name(ty));
        }
        if (json) {
            json_object *o = json_object_new_object();
            json_object_object_add(o, "mnemonic", json_object_new_string(oi->mnemonic));
            json_object_object_add(o, "operands", json_object_new_string(oi->fmt));
            json_object_object_add(o, "unit", json_object_new_string(mx_unit_name(oi->unit)));
            json_object_object_add(o, "modifiers", json_object_new_string(mods));
            json_object_object_add(o, "types", json_object_new_string(types));
            json_object_object_add(o, "extension", oi->ext ? json_object_new_string(mx_ext_name(oi->ext)) : NULL);
            json_object_array_add(arr, o);
        } else {
            printf("%-26s %-14s %-6s %s%s%s\n", oi->mnemonic, oi->fmt[0] ? oi->fmt : "-", mx_unit_name(oi->unit),
                   types[0] ? types : "(no type)", oi->ext ? "  [ext " : "", oi->ext ? mx_ext_name(oi->ext) : "");
        }
    }
    if (json) {
        puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY));
        json_object_put(arr);
    }
    return 0;
}

const struct cli_cmd cli_cmd_isa = { "isa", "list the opcode table and ISA extensions", isa_help, run_isa };
