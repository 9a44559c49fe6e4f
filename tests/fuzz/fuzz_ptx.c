/* tests/fuzz/fuzz_ptx.c — libFuzzer target for the PTX front end.  Any input
 * must parse or be rejected with diagnostics, never crash, hang or leak;
 * whatever parses must disassemble to text that re-parses to an identical
 * program (mx_program_equal).  A mismatch aborts: that is a fuzz finding.
 * Built by tests/fuzz/meson.build (clang) or tests/fuzz/run-fuzz.sh. */
#include "frontend/ptx.h"
#include "isa/disasm.h"
#include "mx/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(const char *text, size_t len, uint32_t ext, struct mx_program *prog)
{
    struct mx_diag diag;
    memset(&diag, 0, sizeof diag); /* diag.out = NULL: diagnostics off */
    struct fe_options opt = { .ext_mask = ext, .max_errors = 20, .diag_out = NULL };
    return fe_parse_ptx(text, len, "fuzz.ptx", &opt, prog, &diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The first byte picks the ISA extensions, so gated opcodes are reached too. */
    uint32_t ext = size && (data[0] & 1) ? 1u << MX_EXT_INDIRECT_MOV : 0;
    struct mx_program prog;
    int rc = parse((const char *)data, size, ext, &prog);
    if (rc == MX_OK) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (!mem)
            abort();
        if (mx_disasm_program(mem, &prog) || fclose(mem))
            abort();
        struct mx_program again;
        int rc2 = parse(text, len, ext, &again);
        char why[256] = "";
        if (rc2 != MX_OK || !mx_program_equal(&prog, &again, why, sizeof why)) {
            fprintf(stderr, "fuzz_ptx: round trip failed: %s\n--- disassembly ---\n%.*s\n",
                    rc2 != MX_OK ? mx_status_name(rc2) : why, (int)len, text);
            abort();
        }
        mx_program_free(&again);
        free(text);
    } else if (rc != MX_EPARSE && rc != MX_EUNSUPPORTED && rc != MX_ENOMEM) {
        fprintf(stderr, "fuzz_ptx: unexpected status %s\n", mx_status_name(rc));
        abort();
    }
    mx_program_free(&prog);
    return 0;
}
