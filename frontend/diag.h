/* frontend/diag.h — diagnostics in the form "file:line:col: error: message near 'tok'".
 * Owns the error list of one parse; the parse goes on after an error (up to
 * max_errors) so a file's errors are reported together. */
#ifndef MX_FE_DIAG_H
#define MX_FE_DIAG_H

#include <stdarg.h>
#include <stdio.h>

struct mx_diag {
    FILE *out;           /* where messages go as they are reported; NULL to keep quiet */
    const char *file;    /* file name shown in messages */
    unsigned nerrors;    /* errors so far */
    unsigned nwarnings;
    unsigned max_errors; /* stop reporting (and parsing) after this many; 0 = 20 */
    char first[512];     /* text of the first error, for callers and tests */
};

#if defined(__GNUC__)
#define MX_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MX_PRINTF(a, b)
#endif

/* near may be NULL (no "near" part); nearlen is its length. */
void fe_error(struct mx_diag *d, unsigned line, unsigned col, const char *near, int nearlen,
              const char *fmt, ...) MX_PRINTF(6, 7);
void fe_warning(struct mx_diag *d, unsigned line, unsigned col, const char *fmt, ...) MX_PRINTF(4, 5);
int fe_too_many_errors(const struct mx_diag *d);

#endif
