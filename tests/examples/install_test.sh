#!/bin/sh
# Installs kern from a build tree into a scratch prefix and builds
# examples/api_example.c against the INSTALLED library, then runs it.
#
#   install_test.sh pkgconfig CMAKE BUILD_DIR ROOT
#   install_test.sh cmake     CMAKE BUILD_DIR ROOT
#
# pkgconfig: cc api_example.c $(pkg-config --cflags --libs kern)
# cmake:     a tiny project with find_package(kern) and kern::kern
# The program runs on $KERN_DEVICE, else the CPU.  Exits 77 (skipped) when
# pkg-config or a C compiler is missing.
set -u
if [ $# -ne 4 ]; then
  echo "usage: $0 pkgconfig|cmake CMAKE BUILD_DIR ROOT" >&2
  exit 2
fi
MODE=$1; CMAKE=$2; BUILD=$3; ROOT=$4
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kern-install.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export KERN_CACHE_DIR="$TMP/cache"
CC=${CC:-cc}
# Extra flags for the consumer program.  The sanitizer build sets
# -fsanitize=address,undefined (tests/reliability/CMakeLists.txt): a
# sanitized libkern.so needs the ASan runtime first in the program's
# library list, which only a sanitized program gives it.
EXTRA_CFLAGS=${KERN_CONSUMER_CFLAGS:-}
command -v "$CC" >/dev/null 2>&1 || { echo "SKIP: no C compiler '$CC'"; exit 77; }

"$CMAKE" --install "$BUILD" --prefix "$TMP/inst" >"$TMP/install.log" 2>&1 || {
  echo "FAIL: cmake --install"; cat "$TMP/install.log"; exit 1; }
# lib, lib64 or lib/x86_64-linux-gnu, as GNUInstallDirs chose
so=$(find "$TMP/inst" -name 'libkern.so' | head -n 1)
[ -n "$so" ] || { echo "FAIL: no libkern.so under $TMP/inst"; exit 1; }
LIBDIR=$(dirname "$so")
echo "installed library: $LIBDIR"

case $MODE in
pkgconfig)
  command -v pkg-config >/dev/null 2>&1 || { echo "SKIP: no pkg-config"; exit 77; }
  export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
  flags=$(pkg-config --cflags --libs kern) || { echo "FAIL: pkg-config kern"; exit 1; }
  echo "pkg-config --cflags --libs kern: $flags"
  case $flags in
  *"-I$TMP/inst/"*) ;;
  *)
    # kern.pc names the prefix given at configure time, not the one given
    # to `cmake --install --prefix`; point pkg-config at the real one.
    echo "NOTE: kern.pc does not follow 'cmake --install --prefix'; using --define-variable=prefix"
    flags=$(pkg-config --define-variable=prefix="$TMP/inst" --cflags --libs kern)
    echo "pkg-config --define-variable=prefix=... --cflags --libs kern: $flags"
    ;;
  esac
  # shellcheck disable=SC2086
  "$CC" -std=c11 -Wall -Wextra -Werror $EXTRA_CFLAGS "$ROOT/examples/api_example.c" $flags -o "$TMP/api" || {
    echo "FAIL: compiling api_example.c against the installed library"; exit 1; }
  ;;
cmake)
  "$CMAKE" -S "$ROOT/tests/examples/cmake_consumer" -B "$TMP/consumer" \
    -DCMAKE_PREFIX_PATH="$TMP/inst" -DKERN_EXAMPLE="$ROOT/examples/api_example.c" \
    -DCMAKE_C_FLAGS="$EXTRA_CFLAGS" \
    >"$TMP/configure.log" 2>&1 || { echo "FAIL: configuring the consumer project"; cat "$TMP/configure.log"; exit 1; }
  "$CMAKE" --build "$TMP/consumer" >"$TMP/build.log" 2>&1 || {
    echo "FAIL: building the consumer project"; cat "$TMP/build.log"; exit 1; }
  cp "$TMP/consumer/api_example" "$TMP/api"
  ;;
*)
  echo "unknown mode $MODE" >&2; exit 2 ;;
esac

# once from the built-in string, once from examples/saxpy.py
LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$TMP/api" || {
  echo "FAIL: api_example (kernel from a string)"; exit 1; }
LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$TMP/api" "$ROOT/examples/saxpy.py" || {
  echo "FAIL: api_example examples/saxpy.py"; exit 1; }
echo "PASS ($MODE)"
