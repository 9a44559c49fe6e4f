/* frontend/diag.c — diagnostics: formatting and counting (see diag.h). */
#include "frontend/diag.h"

#include <string.h>

static unsigned maxerr(const struct mx_diag *d) { return d->max_errors ? d->max_errors : 20; }

int fe_too_many_errors(const struct mx_diag *d) { return d->nerrors >= maxerr(d); }

void fe_error(struct mx_diag *d, unsigned line, unsigned col, const char *near, int nearlen,
              const char *fmt, ...)
{
    char msg[400], full[512];
    va_list ap;
    if (d->nerrors >= maxerr(d)) {
        d->nerrors++;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (nearlen > 40)
        nearlen = 40;
    if (near && nearlen > 0)
        snprintf(full, sizeof full, "%s:%u:%u: error: %s near '%.*s'", d->file ? d->file : "<input>",
                 line, col, msg, nearlen, near);
    else
        snprintf(full, sizeof full, "%s:%u:%u: error: %s", d->file ? d->file : "<input>", line, col, msg);
    if (!d->nerrors)
        snprintf(d->first, sizeof d->first, "%s", full);
    d->nerrors++;
    if (d->out) {
        fprintf(d->out, "%s\n", full);
        if (d->nerrors == maxerr(d))
            fprintf(d->out, "%s: too many errors, stopping\n", d->file ? d->file : "<input>");
    }
}

void fe_warning(struct mx_diag *d, unsigned line, unsigned col, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->nwarnings++;
    if (d->out)
        fprintf(d->out, "%s:%u:%u: warning: %s\n", d->file ? d->file : "<input>", line, col, msg);
}
