#!/bin/sh
# valgrind memcheck over handles.c: every call on a freed handle, in every
# order of frees, must be refused without an invalid read or write, and
# nothing may leak.  The environment is valgrind_examples.sh's: two CPU
# threads, no OpenCL ICDs and no Vulkan loader (third-party and slow under
# valgrind), and
# a compiler wrapper without AVX-512, which valgrind cannot decode.  Exits
# 77 (skipped) without valgrind.
#
#   handles_valgrind.sh HANDLES_TEST
set -u
TEST=${1:?usage: handles_valgrind.sh HANDLES_TEST}
if ! command -v valgrind >/dev/null 2>&1; then
  echo "SKIP: valgrind is not installed"
  exit 77
fi
OUT=$(mktemp -d "${TMPDIR:-/tmp}/kern-valgrind-handles.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
export KERN_NUM_THREADS=2
mkdir "$OUT/no-icds"
export OCL_ICD_VENDORS="$OUT/no-icds"
# nor the Vulkan loader and Mesa's layers (third-party, like PoCL)
export KERN_VULKAN_LIBRARY="$OUT/no-vulkan/libvulkan.so.1"
CC_REAL=$(command -v "${CC:-cc}")
printf '#!/bin/sh\nexec "%s" "$@" -mno-avx512f\n' "$CC_REAL" >"$OUT/cc"
chmod +x "$OUT/cc"
export CC="$OUT/cc"
if valgrind --error-exitcode=1 --leak-check=full \
     --errors-for-leak-kinds=definite,indirect,possible --quiet \
     "$TEST" >"$OUT/log" 2>&1; then
  cat "$OUT/log"
  exit 0
fi
echo "FAIL: valgrind reported errors:"
sed 's/^/    /' "$OUT/log" | head -n 80
exit 1
