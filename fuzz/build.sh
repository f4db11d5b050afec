#!/bin/sh
# build.sh -- builds the libFuzzer harnesses with clang.
#
#   sh fuzz/build.sh [OUTDIR]        (default OUTDIR: build-fuzz)
#
# Compiles the compiler proper (src/base, src/lang, src/lower, src/ir,
# src/emit and src/compile, which holds kern__compile) with
# -fsanitize=fuzzer-no-link,address,undefined, then links fuzz_frontend and
# fuzz_compiler with -fsanitize=fuzzer.  Those two only compile, never run
# anything, so the backends are left out of them; fuzz_roundtrip, which
# runs what it compiles on the CPU backend, links src/runtime as well.
# CC may name another clang (default: clang, else clang-14).
#
# Exit status: 0 built; 77 no clang or no libFuzzer runtime (skipped);
# anything else a build error.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
OUT=${1:-$ROOT/build-fuzz}
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac

if [ -z "${CC:-}" ]; then
  for c in clang clang-14; do
    if command -v "$c" >/dev/null 2>&1; then CC=$c; break; fi
  done
fi
if [ -z "${CC:-}" ] || ! command -v "$CC" >/dev/null 2>&1; then
  echo "fuzz/build.sh: skipped: no clang found (install the clang package)" >&2
  exit 77
fi

mkdir -p "$OUT/obj"
# Does this clang have the libFuzzer runtime?  (Debian: libclang-rt-14-dev.)
probe=$OUT/obj/probe.c
printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
  'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }' >"$probe"
if ! "$CC" -fsanitize=fuzzer,address,undefined "$probe" -o "$OUT/obj/probe" \
     >"$OUT/obj/probe.log" 2>&1; then
  echo "fuzz/build.sh: skipped: $CC cannot link -fsanitize=fuzzer,address,undefined" >&2
  echo "  (on Debian install clang and libclang-rt-14-dev); the error was:" >&2
  sed -n 1,5p "$OUT/obj/probe.log" >&2
  exit 77
fi

CFLAGS="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
  -fsanitize=address,undefined -fno-sanitize-recover=undefined \
  -fsanitize=fuzzer-no-link -I$ROOT/include ${EXTRA_CFLAGS:-}"
# Every compiler floor's directory (see CMakeLists.txt: headers are
# included by bare name).
for d in base lang lower ir emit compile; do CFLAGS="$CFLAGS -I$ROOT/src/$d"; done

# Every source of the compiler's floors (docs/ARCHITECTURE.md): globbed, so a
# new file joins the fuzz build by itself (a hand list here fell behind
# CMakeLists.txt twice).
SRCS=$(cd "$ROOT" && ls src/base/*.c src/lang/*.c src/lower/*.c src/ir/*.c \
  src/emit/*.c src/compile/*.c)

OBJS=
pids=
for s in $SRCS; do
  o=$OUT/obj/$(echo "$s" | tr / _).o
  OBJS="$OBJS $o"
  # shellcheck disable=SC2086
  "$CC" $CFLAGS -c "$ROOT/$s" -o "$o" &
  pids="$pids $!"
done
st=0
for p in $pids; do wait "$p" || st=1; done
[ $st -eq 0 ] || { echo "fuzz/build.sh: compile failed" >&2; exit 1; }

for h in fuzz_frontend fuzz_compiler; do
  # shellcheck disable=SC2086
  "$CC" $CFLAGS -fsanitize=fuzzer "$HERE/$h.c" $OBJS -lm -o "$OUT/$h"
done

# fuzz_roundtrip builds and runs what it compiles, so it links the whole
# runtime as well (the backends load their vendor libraries with dlopen).
RT_SRCS=$(cd "$ROOT" && ls src/runtime/*.c)
RT_OBJS=
pids=
for s in $RT_SRCS; do
  o=$OUT/obj/$(echo "$s" | tr / _).o
  RT_OBJS="$RT_OBJS $o"
  # shellcheck disable=SC2086
  "$CC" $CFLAGS -I"$ROOT/src/runtime" -c "$ROOT/$s" -o "$o" &
  pids="$pids $!"
done
st=0
for p in $pids; do wait "$p" || st=1; done
[ $st -eq 0 ] || { echo "fuzz/build.sh: compile failed" >&2; exit 1; }
# shellcheck disable=SC2086
"$CC" $CFLAGS -fsanitize=fuzzer "$HERE/fuzz_roundtrip.c" $OBJS $RT_OBJS \
  -lm -ldl -lpthread -o "$OUT/fuzz_roundtrip"
echo "fuzz/build.sh: built $OUT/fuzz_frontend $OUT/fuzz_compiler $OUT/fuzz_roundtrip"
