/* tests/fuzz/fuzz_replay.c — main() for the kernel fuzz target without
 * libFuzzer: runs every file given (directories: their *.ptx files, in name
 * order, subdirectories included) once through LLVMFuzzerTestOneInput, every
 * kernel of each, and prints what the launches ended with.  The gcc build
 * uses it as a regression test over the seed corpus (meson test
 * 'fuzz-kernel-replay'); any crash or abort in the harness fails it.
 *
 * usage: fuzz_kernel_replay [--all-parse] [--min-ok N] [--mutate K] PATH...
 *   --all-parse     fail if an input does not parse
 *   --min-ok N      fail unless at least N launches completed (MX_OK)
 *   --mutate K      also run K PTX-aware mutants of each input (seeds 1..K) */
#include "tests/fuzz/fuzz_kernel.h"
#include "tests/fuzz/ptx_mutate.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define REPLAY_MAX (1u << 20)

/* The replay has no libFuzzer: its byte-level mutation flips one byte. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
    (void)max_size;
    if (size)
        data[size / 2] ^= 0x20;
    return size;
}

static unsigned mutants;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_kernel_replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    uint8_t *buf = malloc(REPLAY_MAX);
    uint8_t *mut = malloc(REPLAY_MAX);
    if (!buf || !mut) {
        fclose(f);
        free(buf);
        free(mut);
        return -1;
    }
    size_t n = fread(buf, 1, REPLAY_MAX, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    for (unsigned k = 1; k <= mutants; k++) {
        memcpy(mut, buf, n);
        size_t m = mx_ptx_mutate(mut, n, REPLAY_MAX, k);
        if (m)
            LLVMFuzzerTestOneInput(mut, m);
    }
    free(buf);
    free(mut);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st)) {
        fprintf(stderr, "fuzz_kernel_replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "fuzz_kernel_replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len)))
            break;
        snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        if (stat(names[i], &st))
            rc = -1;
        else if (S_ISDIR(st.st_mode) ? run_path(names[i])
                 : S_ISREG(st.st_mode) && len > 4 && !strcmp(names[i] + len - 4, ".ptx") && run_file(names[i]))
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long min_ok = 0;
    int npaths = 0, rc = 0, all_parse = 0;
    LLVMFuzzerInitialize(&argc, &argv);
    fk_max_kernels = 0; /* every kernel of every input */
    fk_quiet_exit = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all-parse"))
            all_parse = 1;
        else if (!strcmp(argv[i], "--min-ok") && i + 1 < argc)
            min_ok = strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--mutate") && i + 1 < argc)
            mutants = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (argv[i][0] == '-') {
            fprintf(stderr, "fuzz_kernel_replay: unknown option '%s'\n", argv[i]);
            return 2;
        } else {
            npaths++;
            if (run_path(argv[i]))
                rc = 1;
        }
    }
    if (!npaths) {
        fprintf(stderr, "usage: fuzz_kernel_replay [--all-parse] [--min-ok N] [--mutate K] PATH...\n");
        return 2;
    }
    fprintf(stderr, "fuzz_kernel_replay: %llu inputs, %llu parsed, %llu loaded, %llu launches, %llu warp instructions\n",
            (unsigned long long)fk_counts.inputs, (unsigned long long)fk_counts.parsed, (unsigned long long)fk_counts.loaded,
            (unsigned long long)fk_counts.launches, (unsigned long long)fk_counts.warp_insns);
    for (int s = 0; s < MX_STATUS__COUNT; s++)
        if (fk_counts.by_status[s])
            fprintf(stderr, "  %-16s %llu\n", mx_status_name(s), (unsigned long long)fk_counts.by_status[s]);
    if (all_parse && fk_counts.parsed != fk_counts.inputs) {
        fprintf(stderr, "fuzz_kernel_replay: FAIL: %llu of %llu inputs did not parse\n",
                (unsigned long long)(fk_counts.inputs - fk_counts.parsed), (unsigned long long)fk_counts.inputs);
        rc = 1;
    }
    if (fk_counts.by_status[MX_OK] < min_ok) {
        fprintf(stderr, "fuzz_kernel_replay: FAIL: %llu launches completed, expected at least %lu\n",
                (unsigned long long)fk_counts.by_status[MX_OK], min_ok);
        rc = 1;
    }
    return rc;
}
