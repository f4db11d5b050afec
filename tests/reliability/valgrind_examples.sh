#!/bin/sh
# valgrind memcheck over every examples/*.py run with `kern run` on the CPU
# backend: no invalid reads or writes, no uses of uninitialised values and
# no leaks (definite or possible) in the tool, the library, or the kernels'
# .so (loaded into the process).  Each example runs twice, with a cold
# cache (compile, cc, store) and then warm (load a verified entry).  The C
# compiler runs as a child, which valgrind does not follow.  Exits 77
# (skipped) without valgrind.
#
#   valgrind_examples.sh KERN ROOT
set -u
KERN=${1:?usage: valgrind_examples.sh KERN ROOT}
ROOT=${2:?usage: valgrind_examples.sh KERN ROOT}
if ! command -v valgrind >/dev/null 2>&1; then
  echo "SKIP: valgrind is not installed"
  exit 77
fi
OUT=$(mktemp -d "${TMPDIR:-/tmp}/kern-valgrind.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
export KERN_CACHE_DIR="$OUT/cache"
# Two threads: the pool's start, hand-off and join are exercised, and
# valgrind (which serialises threads) is not slowed by more.
export KERN_NUM_THREADS=2
# This checks kern on the CPU backend, so the OpenCL ICD loader is pointed at
# an empty vendor directory: PoCL would otherwise start its own threads and
# LLVM at every context, taking minutes under valgrind and reporting its own
# allocations (third-party code, not kern's).
mkdir "$OUT/no-icds"
export OCL_ICD_VENDORS="$OUT/no-icds"
# nor the Vulkan loader and Mesa's layers (third-party, like PoCL)
export KERN_VULKAN_LIBRARY="$OUT/no-vulkan/libvulkan.so.1"
# valgrind 3.19 cannot decode AVX-512, which -march=native emits on CPUs
# that have it (SIGILL inside the kernel).  A one-line compiler wrapper
# appends -mno-avx512f; it is the test's choice of $CC, and kern still
# starts it with posix_spawn.  Its path is part of the cache key.
CC_REAL=$(command -v "${CC:-cc}")
printf '#!/bin/sh\nexec "%s" "$@" -mno-avx512f\n' "$CC_REAL" >"$OUT/cc"
chmod +x "$OUT/cc"
export CC="$OUT/cc"
fail=0
for f in "$ROOT"/examples/*.py; do
  stem=$(basename "$f" .py)
  hdr=$f
  grep -q '^# kern-test: ' "$f" || hdr=$ROOT/tests/examples/headers/$stem.txt
  args=$(sed -n 's/^# kern-test: //p' "$hdr" | head -n 1)
  [ -n "$args" ] || { echo "FAIL $stem: no '# kern-test:' line"; fail=1; continue; }
  for pass in cold warm; do
    eval "set -- $args"  # quoted as a shell command line would be
    # shellcheck disable=SC2086
    if valgrind --error-exitcode=1 --leak-check=full \
         --errors-for-leak-kinds=definite,indirect,possible --quiet \
         "$KERN" run "$f" "$@" --backend cpu --quiet \
         >"$OUT/$stem.$pass.log" 2>&1; then
      echo "ok $stem ($pass)"
    else
      echo "FAIL $stem ($pass):"; sed 's/^/    /' "$OUT/$stem.$pass.log" | head -n 60
      fail=1
    fi
  done
done
exit $fail
