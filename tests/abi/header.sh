#!/bin/sh
# Compiles header_use.c against include/kern.h as strict C11 and, when a
# C++ compiler is installed, as strict C++11 (-Wall -Wextra -pedantic
# -Werror), and runs each program.  Skips (77) only when no C compiler.
#
#   header.sh INCLUDE_DIR HEADER_USE_C
set -u
INC=${1:?usage: header.sh INCLUDE_DIR HEADER_USE_C}
SRC=${2:?usage: header.sh INCLUDE_DIR HEADER_USE_C}
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || { echo "SKIP: no C compiler"; exit 77; }
OUT=$(mktemp -d "${TMPDIR:-/tmp}/kern-header.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
FLAGS="-Wall -Wextra -pedantic -Werror -I$INC"
fail=0
if "$CC" -std=c11 $FLAGS -o "$OUT/c" "$SRC" && "$OUT/c"; then
  echo "ok: C11"
else
  echo "FAIL: kern.h as C11"; fail=1
fi
CXX=${CXX:-c++}
if command -v "$CXX" >/dev/null 2>&1; then
  if "$CXX" -std=c++11 $FLAGS -x c++ -o "$OUT/cxx" "$SRC" && "$OUT/cxx"; then
    echo "ok: C++11"
  else
    echo "FAIL: kern.h as C++11"; fail=1
  fi
else
  echo "no C++ compiler: C++ check skipped"
fi
exit $fail
