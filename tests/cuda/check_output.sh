#!/bin/sh
# tests/cuda/check_output.sh — runs a command and checks what it printed,
# for the CUDA tests whose verdict is in their output rather than (only) in
# their exit status.
#
#   check_output.sh [--stdout FILE] [--stdout-has TEXT]... [--stderr-has TEXT]...
#                   [--status N] -- COMMAND [ARGS...]
#
#   --stdout FILE       stdout must equal FILE exactly (a diff is shown if not)
#   --stdout-has TEXT   stdout must contain TEXT (a fixed string; repeatable)
#   --stderr-has TEXT   stderr must contain TEXT (a fixed string; repeatable)
#   --status N          the exit status must be N (default 0); "nonzero"
#                       accepts any failure that is not a signal or 127
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
if [ "$want_status" = nonzero ]; then
    [ "$status" -ne 0 ] && [ "$status" -lt 126 ] || fail "exit status $status, expected a clean failure (1..125)"
else
    [ "$status" -eq "$want_status" ] || fail "exit status $status, expected $want_status"
fi
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
