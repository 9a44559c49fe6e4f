#!/bin/sh
# tests/fuzz/build-fuzz.sh — builds the libFuzzer targets with clang
# (libFuzzer + ASan + UBSan, everything instrumented) and the dictionary.
# Used by run-fuzz.sh (bounded CI run) and long-run.sh.
#
# usage: tests/fuzz/build-fuzz.sh OUTDIR [TARGET...]
#        tests/fuzz/build-fuzz.sh --list-sources TARGET
#        tests/fuzz/build-fuzz.sh --check-sources FILE...   (meson test 'fuzz-sources')
#   TARGET    fuzz_ptx (the front end) or fuzz_kernel (front end + emulator);
#             default: both.  Binaries land in OUTDIR/TARGET, the dictionary
#             in OUTDIR/ptx.dict.
#   CLANG     compiler (default clang-19, then clang)
#   BUILD_JOBS  parallel compilations (default 2)
#
# Library sources follow the meson build without a second list: the front
# end's are read from the fe_sources list of frontend/meson.build;
# isa/, memsys/, timing/ and emu/ (with emu/ext/) build every .c file they
# hold, so those folders are globbed.  The meson test 'fuzz-sources' checks
# that this list and meson's agree.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)

# The front end's library sources: the fe_sources list of frontend/meson.build.
fe_sources() {
    awk '/^fe_sources = files\(/ { on = 1 } on { print } on && /\)/ { exit }' \
        "$root/frontend/meson.build" | grep -o "'[A-Za-z0-9_/]*\\.c'" | tr -d "'" | sed "s|^|$root/frontend/|"
}

lib_sources() {
    fe_sources
    for d in isa memsys timing emu emu/ext; do
        for f in "$root/$d"/*.c; do
            [ -f "$f" ] && echo "$f"
        done
    done
    return 0
}

target_sources() {
    case $1 in
    fuzz_ptx) fe_sources; for f in "$root"/isa/*.c; do echo "$f"; done ;;
    fuzz_kernel) lib_sources; echo "$root/tests/fuzz/ptx_mutate.c" ;;
    *) echo "build-fuzz.sh: unknown target '$1' (fuzz_ptx, fuzz_kernel)" >&2; return 2 ;;
    esac
    echo "$root/tests/fuzz/$1.c"
}

# --check-sources: the library sources meson builds (given) must be exactly
# the ones this script compiles into fuzz_kernel.
if [ "${1:-}" = --check-sources ]; then
    shift
    want=$(for f in "$@"; do realpath "$f"; done | sort)
    have=$(lib_sources | sort)
    if [ "$want" != "$have" ]; then
        echo "build-fuzz.sh: the fuzz build and meson disagree on library sources" >&2
        echo "$want" >"${TMPDIR:-/tmp}/fuzz-sources.meson.$$"
        echo "$have" | diff -u "${TMPDIR:-/tmp}/fuzz-sources.meson.$$" - | sed 's/^/  /' >&2
        rm -f "${TMPDIR:-/tmp}/fuzz-sources.meson.$$"
        echo "(- meson only: add it to the list build-fuzz.sh reads; + fuzz only: a .c file meson does not build)" >&2
        exit 1
    fi
    echo "build-fuzz.sh: $(echo "$have" | wc -l) library sources, same as meson"
    exit 0
fi

if [ "${1:-}" = --list-sources ]; then
    [ $# -eq 2 ] || { echo "usage: build-fuzz.sh --list-sources TARGET" >&2; exit 2; }
    target_sources "$2"
    exit
fi

[ $# -ge 1 ] || { echo "usage: build-fuzz.sh OUTDIR [TARGET...]" >&2; exit 2; }
out=$1
shift
targets=${*:-fuzz_ptx fuzz_kernel}
mkdir -p "$out/obj"

cc=${CLANG:-}
if [ -z "$cc" ]; then
    for c in clang-19 clang; do
        if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
    done
fi
[ -n "$cc" ] || { echo "build-fuzz.sh: no clang found (set CLANG)" >&2; exit 2; }

# emu/meson.build: a missing opcode family compiles as "unsupported".
defs=""
for fam in int fp cvt; do
    [ -f "$root/emu/exec_$fam.c" ] || defs="$defs -DMX_NO_EXEC_$(echo "$fam" | tr '[:lower:]' '[:upper:]')"
done
# Objects carry the fuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link);
# only the link adds libFuzzer's main().
cflags="-g -O1 -fno-omit-frame-pointer -std=gnu11 -frounding-math -fsanitize=fuzzer-no-link,address,undefined
 -fno-sanitize-recover=undefined -I$root -I$root/include $defs"
export cc cflags

all=$(for t in $targets; do target_sources "$t"; done | sort -u)
echo "build-fuzz.sh: compiling $(echo "$all" | wc -l) files with $cc into $out"
# One object per source, named after its path, compiled JOBS at a time.
# shellcheck disable=SC2016
echo "$all" | sed "s|^$root/||" | xargs -P "${BUILD_JOBS:-2}" -I{} sh -c \
    'o="$1/obj/$(echo "$2" | tr / _).o"; $cc $cflags -c "$3/$2" -o "$o" || exit 255' sh "$out" {} "$root"

for t in $targets; do
    objs=$(target_sources "$t" | sed "s|^$root/||" | tr / _ | sed "s|^|$out/obj/|; s|\\.c\$|.c.o|")
    # shellcheck disable=SC2086
    $cc -fsanitize=fuzzer,address,undefined $objs -lffi -lpthread -lm -o "$out/$t"
done

# Dictionary: the hand-written tokens plus every opcode, type, modifier and
# special register of the isa/ tables, so new rows are in it at once.
{
    cat "$root/tests/fuzz/ptx.dict"
    echo "# generated from isa/*.def by build-fuzz.sh"
    sed -n 's/^OP([A-Z0-9_]*, *"\([^"]*\)".*/"\1"/p' "$root/isa/opcodes.def"
    sed -n 's/^TYPE([A-Z0-9_]*, *"\([^"]*\)".*/".\1"/p' "$root/isa/types.def"
    sed -n 's/^MV([A-Z0-9_]*, *[A-Z0-9_]*, *"\([^"]*\)").*/".\1"/p' "$root/isa/modgroups.def"
    sed -n 's/^SREG([A-Z0-9_]*, *"\([^"]*\)".*/"\1"/p' "$root/isa/sregs.def"
} | awk '!seen[$0]++' >"$out/ptx.dict"
echo "build-fuzz.sh: built $targets; dictionary $out/ptx.dict ($(grep -c '^"' "$out/ptx.dict") tokens)"
