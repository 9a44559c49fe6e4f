/* tests/common/mxtest.h — the shared vocabulary of Morpheus-emu's cmocka
 * tests: MX_TEST() self-registering test cases (after apk-tools' APK_TEST),
 * parsing PTX snippets with their diagnostics captured, and domain asserts on
 * the decoded program (operands, symbols, diagnostics).  Include this instead
 * of <cmocka.h>. */
#ifndef MX_TEST_H
#define MX_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "frontend/ptx.h"
#include "mx/program.h"
#include "mx/status.h"

/* ------------------------------------------------------------ registration */

typedef void (*mxt_fn)(void **state);

/* Adds a test case; name and state must outlive mxt_run(). */
void mxt_add(const char *name, mxt_fn fn, void *state);
/* Runs every added test as one cmocka group; argv[1], if given, is a cmocka
 * name filter ("ipdom*"), argv[2] one of tests to skip.  Returns the number of failed tests. */
int mxt_run(int argc, char **argv);

/* MX_TEST(name) { ... } defines a test and registers it before main(). */
#define MX_TEST(name)                                                          \
    static void name(void **state);                                           \
    __attribute__((constructor)) static void mxt_reg_##name(void)             \
    {                                                                          \
        mxt_add(#name, name, NULL);                                           \
    }                                                                          \
    static void name(void **state)

/* ------------------------------------------------------------- PTX snippets */

/* A module header and a kernel "k" around a body: the body starts on line 6. */
#define MXT_HEADER ".version 7.0\n.target sm_70\n.address_size 64\n"
#define MXT_KERNEL(body) MXT_HEADER ".visible .entry k()\n{\n" body "\n}\n"
#define MXT_BODY_LINE 6

struct mxt_parse {
    struct mx_program prog;
    struct mx_diag diag;
    int rc;               /* enum mx_status from fe_parse_ptx */
    char *text;           /* every diagnostic printed, one per line (never NULL after mxt_parse) */
    size_t textlen;
};

/* Parses src (named "t.ptx") with the given extensions enabled; never fails
 * the test by itself. */
int mxt_parse(struct mxt_parse *r, const char *src, uint32_t ext_mask);
void mxt_parse_free(struct mxt_parse *r);

/* Parses and fails the test (printing the diagnostics) unless it is MX_OK. */
#define mxt_parse_ok(r, src) mxt_parse_ok_((r), (src), 0, __FILE__, __LINE__)
#define mxt_parse_ok_ext(r, src, ext) mxt_parse_ok_((r), (src), (ext), __FILE__, __LINE__)
void mxt_parse_ok_(struct mxt_parse *r, const char *src, uint32_t ext_mask, const char *file, int line);

/* Parses and fails unless the status is `status` and a diagnostic
 * "t.ptx:LINE:COL: error: ...SUBSTR..." was printed (col 0: any column). */
#define mxt_parse_err(r, src, status, line, col, substr) \
    mxt_parse_err_((r), (src), 0, (status), (line), (col), (substr), __FILE__, __LINE__)
#define mxt_parse_err_ext(r, src, ext, status, line, col, substr) \
    mxt_parse_err_((r), (src), (ext), (status), (line), (col), (substr), __FILE__, __LINE__)
void mxt_parse_err_(struct mxt_parse *r, const char *src, uint32_t ext_mask, int status, unsigned line, unsigned col,
                    const char *substr, const char *file, int fline);

/* 1 if text holds a line "<any>:LINE:COL: error: <...substr...>" (col 0 = any). */
int mxt_has_diag(const char *text, unsigned line, unsigned col, const char *substr);
/* Number of "error:" lines in text. */
unsigned mxt_count_errors(const char *text);

/* ----------------------------------------------------------- program lookups */

/* Function index by name; fails the test if absent. */
uint32_t mxt_func(const struct mx_program *p, const char *name);
/* The n-th instruction of function fn (fails if out of range). */
const struct mx_insn *mxt_insn(const struct mx_program *p, uint32_t fn, uint32_t n);
/* Symbol index by name, in function fn or module scope (fn = MX_NONE); fails if absent. */
uint32_t mxt_sym(const struct mx_program *p, uint32_t fn, const char *name);
/* Register declaration by name in function fn; fails if absent. */
const struct mx_regdecl *mxt_regdecl(const struct mx_program *p, uint32_t fn, const char *name);
/* Label's instruction index (absolute) by name; fails if absent. */
uint32_t mxt_label(const struct mx_program *p, uint32_t fn, const char *name);

/* ------------------------------------------------------------ domain asserts */

#define assert_opd_reg(o, slot_, type_) mxt_assert_opd_((o), MX_OPD_REG, (slot_), (type_), __FILE__, __LINE__)
#define assert_opd_pred(o, slot_) mxt_assert_opd_((o), MX_OPD_PRED, (slot_), MX_T_PRED, __FILE__, __LINE__)
void mxt_assert_opd_(const struct mx_operand *o, int kind, uint32_t reg, int type, const char *file, int line);

#define assert_opd_imm(o, bits_, type_, flags_) mxt_assert_imm_((o), (bits_), (type_), (flags_), __FILE__, __LINE__)
void mxt_assert_imm_(const struct mx_operand *o, int64_t bits, int type, int flags, const char *file, int line);

/* Parses src, disassembles it, re-parses the text and fails unless the two
 * programs are mx_program_equal. */
#define assert_round_trip(src, ext) mxt_assert_round_trip_((src), (ext), __FILE__, __LINE__)
void mxt_assert_round_trip_(const char *src, uint32_t ext_mask, const char *file, int line);

/* Reads a whole file under SOURCE_ROOT (malloc'd, NUL-terminated), or NULL. */
char *mxt_read_source(const char *relpath, size_t *len);

#endif
