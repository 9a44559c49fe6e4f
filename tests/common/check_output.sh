#!/bin/sh
# tests/common/check_output.sh — runs a command and checks its exit status
# and what it printed, for tests whose verdict is in their output rather
# than (only) in their exit status (CUDA programs, `morpheus check` on a bad
# file).
#
#   check_output.sh [--stdout FILE] [--stdout-has TEXT]... [--stderr-has TEXT]...
#                   [--status N] -- COMMAND [ARGS...]
#
#   --stdout FILE       stdout must equal FILE exactly (a diff is shown if not)
#   --stdout-has TEXT   stdout must contain TEXT (a fixed string; repeatable)
#   --stderr-has TEXT   stderr must contain TEXT (a fixed string; repeatable)
#   --status N          the exit status must be exactly N (default 0); a
#                       nonzero N also needs a message to look for
#                       (--stderr-has or --stdout-has): a failure passes only
#                       for the reason the caller expects
# Prints `PASS NAME` or `FAIL NAME: reason` (NAME from MX_TEST_NAME, else
# the command's base name) and exits 0 or 1.
set -u
want_stdout=
want_status=0
stdout_has_file=$(mktemp) || exit 1
stderr_has_file=$(mktemp) || exit 1
out=$(mktemp) || exit 1
err=$(mktemp) || exit 1
trap 'rm -f "$stdout_has_file" "$stderr_has_file" "$out" "$err"' EXIT
while [ $# -gt 0 ]; do
    case $1 in
    --stdout) want_stdout=$2; shift 2 ;;
    --stdout-has) printf '%s\n' "$2" >>"$stdout_has_file"; shift 2 ;;
    --stderr-has) printf '%s\n' "$2" >>"$stderr_has_file"; shift 2 ;;
    --status) want_status=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "check_output.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "check_output.sh: no command" >&2; exit 2; }
case $want_status in
'' | *[!0-9]*) echo "check_output.sh: --status needs a number, got '$want_status'" >&2; exit 2 ;;
esac
if [ "$want_status" -ne 0 ] && [ ! -s "$stderr_has_file" ] && [ ! -s "$stdout_has_file" ]; then
    echo "check_output.sh: --status $want_status needs --stderr-has or --stdout-has (the message expected)" >&2
    exit 2
fi
name=${MX_TEST_NAME:-$(basename "$1")}

"$@" >"$out" 2>"$err"
status=$?
echo "---- stdout of: $*"
cat "$out"
echo "---- stderr"
cat "$err"
echo "---- exit status $status"

fail() {
    echo "FAIL $name: $*"
    exit 1
}
[ "$status" -eq "$want_status" ] || fail "exit status $status, expected $want_status"
if [ -n "$want_stdout" ]; then
    diff -u "$want_stdout" "$out" >&2 || fail "stdout differs from $want_stdout (diff above, on stderr)"
fi
while IFS= read -r text; do
    grep -qF -- "$text" "$out" || fail "stdout does not contain '$text'"
done <"$stdout_has_file"
while IFS= read -r text; do
    grep -qF -- "$text" "$err" || fail "stderr does not contain '$text'"
done <"$stderr_has_file"
echo "PASS $name"
exit 0
