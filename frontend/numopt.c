/* frontend/numopt.c — strict parsing of numeric settings (see numopt.h).
 * strtoull and strtod alone accept too much: leading spaces and signs
 * ("-1" is 2^64 - 1), "nan", "inf", trailing garbage when the end pointer is
 * not checked; each of those once silently turned a watchdog off. */
#include "frontend/numopt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct fe_num fe_num_max_insns = { FE_NUM_UINT, 0, UINT64_MAX, "a number of warp instructions >= 0" };
const struct fe_num fe_num_timeout = { FE_NUM_SECONDS, 0, 0, "a number of seconds >= 0" };
const struct fe_num fe_num_real = { FE_NUM_SECONDS, 0, 0, "a number >= 0" };
const struct fe_num fe_num_host_threads = { FE_NUM_UINT, 1, 256, NULL };
const struct fe_num fe_num_sms = { FE_NUM_UINT, 1, 4096, NULL };
const struct fe_num fe_num_mem_mb = { FE_NUM_UINT, 1, 1u << 20, NULL };
const struct fe_num fe_num_quantum = { FE_NUM_UINT, 1, 1u << 30, NULL };
const struct fe_num fe_num_warp_sched = { FE_NUM_CHOICE, 0, 0, "lrr|gto" }; /* EMU_SCHED_LRR, EMU_SCHED_GTO */

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int hex_value(char c)
{
    return is_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Whole-string unsigned integer: decimal (leading zeros are still decimal)
 * or 0x hexadecimal; -1 on anything else or on overflow. */
static int parse_uint(const char *s, uint64_t *out)
{
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        int d = base == 16 ? hex_value(*s) : is_digit(*s) ? *s - '0' : -1;
        if (d < 0 || v > (UINT64_MAX - (uint64_t)d) / base)
            return -1;
        v = v * base + (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* Whole-string finite real >= 0 written in decimal: starts with a digit or
 * '.', so no sign, space, "nan" or "inf" reaches strtod. */
static int parse_seconds(const char *s, double *out)
{
    if (!is_digit(s[0]) && !(s[0] == '.' && is_digit(s[1])))
        return -1;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno || !isfinite(v) || v < 0)
        return -1;
    *out = v;
    return 0;
}

int fe_num_parse(const char *s, const struct fe_num *spec, uint64_t *u, double *d, char *err, size_t errlen)
{
    if (spec->kind == FE_NUM_CHOICE) {
        uint64_t i = 0;
        for (const char *n = spec->expect; *n; i++) {
            size_t len = 0;
            while (n[len] && n[len] != '|')
                len++;
            if (len && !strncmp(s, n, len) && !s[len]) {
                if (u)
                    *u = i;
                return 0;
            }
            n += len + (n[len] == '|');
        }
        size_t o = (size_t)snprintf(err, errlen, "expected one of ");
        for (const char *n = spec->expect; *n && o + 3 < errlen; n++) {
            if (*n == '|')
                err[o++] = ',', err[o++] = ' ';
            else
                err[o++] = *n;
        }
        snprintf(err + o, errlen - o, ", got '%s'", s);
        return -1;
    }
    if (spec->kind == FE_NUM_SECONDS) {
        double v;
        if (!parse_seconds(s, &v)) {
            if (d)
                *d = v;
            return 0;
        }
    } else {
        uint64_t v;
        if (!parse_uint(s, &v) && v >= spec->min && v <= spec->max) {
            if (u)
                *u = v;
            return 0;
        }
    }
    if (spec->expect)
        snprintf(err, errlen, "expected %s, got '%s'", spec->expect, s);
    else if (spec->max == UINT64_MAX)
        snprintf(err, errlen, "expected an integer >= %llu, got '%s'", (unsigned long long)spec->min, s);
    else
        snprintf(err, errlen, "expected an integer from %llu to %llu, got '%s'", (unsigned long long)spec->min,
                 (unsigned long long)spec->max, s);
    return -1;
}
