#!/bin/bash
# tests/cli/test_options.sh — numeric option values of `morpheus exec`,
# `bench`, `workloads` and `check` (`run` has its own in test_run.sh): a
# bad value — from an option, an exec --config file or a MORPHEUS_*
# variable — is a usage error, exit 2, with a message naming where it came
# from, the value and what is expected, and exec does not start the
# program; good values reach the program with options > file > environment;
# --help states the defaults.  Usage: test_options.sh PATH/TO/morpheus
set -u
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/morpheus" >&2
    exit 2
fi
M=$1
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

SECS="a number of seconds >= 0"
INSNS="a number of warp instructions >= 0"
# a program that must not start when a value is bad
STARTED=$T/started
PROG=(sh -c "touch '$STARTED'")

# exec_bad NAME FIRST_STDERR_LINE -- EXEC_ARGS...: exit 2, that message, program not started.
exec_bad() {
    local name=$1 line=$2
    shift 3
    rm -f "$STARTED"
    expect "$name" 2 "$line" -- exec "$@" -- "${PROG[@]}"
    [ ! -e "$STARTED" ] && ok "$name: program not started" || bad "$name: the program was started"
}

# ------------------------------------------------------------------ exec options
for v in nan -1 inf 1e400 '' 5s; do exec_bad "exec --timeout '$v'" "morpheus exec: --timeout: expected $SECS, got '$v'" -- --timeout "$v"; done
for v in -1 12abc 1e9 +3; do exec_bad "exec --max-insns '$v'" "morpheus exec: --max-insns: expected $INSNS, got '$v'" -- --max-insns "$v"; done
exec_bad "exec --sms abc" "morpheus exec: --sms: expected an integer from 1 to 4096, got 'abc'" -- --sms abc
exec_bad "exec --sms 0" "morpheus exec: --sms: expected an integer from 1 to 4096, got '0'" -- --sms 0
exec_bad "exec --host-threads 0" "morpheus exec: --host-threads: expected an integer from 1 to 256, got '0'" -- --host-threads 0
exec_bad "exec --warp-sched fifo" "morpheus exec: --warp-sched: expected one of lrr, gto, got 'fifo'" -- --warp-sched fifo
exec_bad "exec --quantum 0" "morpheus exec: --quantum: expected an integer from 1 to 1073741824, got '0'" -- --quantum 0
exec_bad "exec --mem-mb 1048577" "morpheus exec: --mem-mb: expected an integer from 1 to 1048576, got '1048577'" -- --mem-mb 1048577
expect "exec --sms without value" 2 "morpheus exec: --sms needs a value" -- exec --sms
expect "exec --config without value" 2 "morpheus exec: --config needs a value" -- exec --config

# ------------------------------------------------------------------ exec environment
for v in nan -1 inf; do
    MORPHEUS_TIMEOUT=$v exec_bad "MORPHEUS_TIMEOUT='$v'" "morpheus exec: MORPHEUS_TIMEOUT: expected $SECS, got '$v'" --
done
MORPHEUS_MAX_INSNS=-1 exec_bad "MORPHEUS_MAX_INSNS=-1" "morpheus exec: MORPHEUS_MAX_INSNS: expected $INSNS, got '-1'" --
MORPHEUS_SMS=abc exec_bad "MORPHEUS_SMS=abc" "morpheus exec: MORPHEUS_SMS: expected an integer from 1 to 4096, got 'abc'" --
MORPHEUS_WARP_SCHED=fifo exec_bad "MORPHEUS_WARP_SCHED=fifo" "morpheus exec: MORPHEUS_WARP_SCHED: expected one of lrr, gto, got 'fifo'" --

# ------------------------------------------------------------------ exec --config
printf '# settings\nsms = 8\ntimeout = nan\n' >"$T/bad1.cfg"
exec_bad "config timeout = nan" "morpheus exec: $T/bad1.cfg:3: timeout: expected $SECS, got 'nan'" -- --config "$T/bad1.cfg"
printf 'MAX_INSNS=12abc\n' >"$T/bad2.cfg"
exec_bad "config MAX_INSNS=12abc" "morpheus exec: $T/bad2.cfg:1: MAX_INSNS: expected $INSNS, got '12abc'" -- --config "$T/bad2.cfg"
printf 'host-threads=\n' >"$T/bad3.cfg"
exec_bad "config host-threads= (empty)" "morpheus exec: $T/bad3.cfg:1: host-threads: expected an integer from 1 to 256, got ''" -- \
    --config "$T/bad3.cfg"

# ------------------------------------------------------------------ exec: good values reach the program
# (needs the emulator's libcudart.so.13, built only with the CUDA headers)
if [ -e "$(dirname "$M")/frontend/cuda/libcudart.so.13" ]; then
    SHOW=(sh -c 'echo "$MORPHEUS_SMS $MORPHEUS_TIMEOUT $MORPHEUS_MAX_INSNS"')
    printf 'sms=0x10\ntimeout=2.5\n' >"$T/good.cfg"
    MORPHEUS_SMS=abc MORPHEUS_TIMEOUT=nan MORPHEUS_MAX_INSNS=0 run exec --config "$T/good.cfg" --sms 4 -- "${SHOW[@]}"
    [ "$rc" -eq 0 ] && [ "$(cat "$T/out")" = "4 2.5 0" ] && ok "option > config > environment; overridden bad values are not read" ||
        bad "precedence" "exit $rc" "stdout: $(cat "$T/out")" "$(cat "$T/err")"
    MORPHEUS_SMS= run exec -- "${SHOW[@]}"
    [ "$rc" -eq 0 ] && ok "an empty MORPHEUS_* variable is unset" || bad "empty variable" "exit $rc" "$(cat "$T/err")"
else
    echo "skip exec good values: $(dirname "$M")/frontend/cuda/libcudart.so.13 not built"
fi

# ------------------------------------------------------------------ exec --help: defaults
run exec --help
has "exec --help: --max-insns default" "$T/out" "(default 10^11, about 18 minutes of emulation; 0: no limit)"
grep -A1 -e '--timeout SECONDS' "$T/out" | grep -qF "(default 0: no limit)" && ok "exec --help: --timeout default 0: no limit" ||
    bad "exec --help: --timeout default" "$(grep -A1 -e '--timeout' "$T/out")"
has "exec --help: values from every source are checked" "$T/out" "option, the config file or the environment, is a usage error"
has "exec --help: --host-threads: the same for every N, races included" "$T/out" "statistics are the same for every N and every run, data"
for c in exec workloads bench; do
    run "$c" --help
    grep -qi "identical" "$T/out" && bad "$c --help promises identical results" || ok "$c --help: no promise of identical results"
done

# ------------------------------------------------------------------ bench, workloads, check
for v in 0 257 abc -1; do
    expect "bench --host-threads '$v'" 2 "morpheus bench: --host-threads: expected an integer from 1 to 256, got '$v'" -- \
        bench --host-threads "$v"
done
for v in 0 1x; do expect "bench --repeat '$v'" 2 "morpheus bench: --repeat: expected an integer from 1 to 256, got '$v'" -- bench --repeat "$v"; done
expect "bench --repeat without value" 2 "morpheus bench: --repeat needs a value" -- bench --repeat
for v in 0 abc 3.5; do
    expect "workloads --host-threads '$v'" 2 "morpheus workloads: --host-threads: expected an integer from 1 to 256, got '$v'" -- \
        workloads run --host-threads "$v" sgemm
done
expect "workloads --host-threads without value" 2 "morpheus workloads: --host-threads needs a value" -- workloads run --all --host-threads
for v in 0 100001 abc -5; do
    expect "check --max-errors '$v'" 2 "morpheus check: --max-errors: expected an integer from 1 to 100000, got '$v'" -- \
        check --max-errors "$v" "$HERE/run.ptx"
done
expect "check --max-errors without value" 2 "morpheus check: --max-errors needs a value" -- check "$HERE/run.ptx" --max-errors

finish
