# tests/cli/lib.sh — helpers of the shell-level command-line tests, sourced
# by test_*.sh after they set M (the morpheus binary).  Each check prints
# one line; `finish` prints "N checks, M failed" and sets the exit status.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
checks=0
failed=0

ok() { checks=$((checks + 1)); echo "ok   $1"; }
bad() { checks=$((checks + 1)); failed=$((failed + 1)); echo "FAIL $1"; shift; for l in "$@"; do echo "     $l"; done; }

# run ARGS...: runs morpheus with ARGS; $rc, $T/out, $T/err hold the result.
run() {
    "$M" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# expect NAME CODE FIRST_STDERR_LINE -- ARGS...: exit code and the exact first line of stderr.
expect() {
    local name=$1 code=$2 line=$3
    shift 4
    run "$@"
    local first
    first=$(head -n 1 "$T/err")
    if [ "$rc" -eq "$code" ] && [ "$first" = "$line" ]; then
        ok "$name"
    else
        bad "$name" "exit $rc (want $code)" "stderr: $first" "want:   $line"
    fi
}

# has NAME FILE TEXT: FILE contains TEXT (fixed string).
has() {
    if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1" "$(basename "$2") lacks: $3" "$(head -c 600 "$2")"; fi
}

finish() {
    echo "$checks checks, $failed failed"
    [ "$failed" -eq 0 ]
}
