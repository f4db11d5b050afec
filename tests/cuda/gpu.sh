#!/usr/bin/env bash
# gpu.sh -- everything the CUDA backend needs checked on the lent GPU
# machine, in one call (the machine starts bare every time):
#
#   tests/cuda/gpu.sh [--standalone]
#
# Builds kern from source there (a binary built elsewhere may not run), runs
# the CUDA tests and prints a short summary last.  With --standalone, or when
# the full CMake build fails (parts of the runtime still missing), it builds
# only backend_cuda.c with tests/cuda/stub_runtime.c in place of the rest of
# the runtime.  Logs go to $OUT (or ./gpu-out) for fetching.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
LOG=$OUT/gpu.log
: > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }

say "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$LOG"
export PATH=/usr/local/cuda/bin:$PATH

mode=cmake
[ "${1:-}" = "--standalone" ] && mode=standalone
B=/tmp/kern-gpu-build
if [ $mode = cmake ]; then
  say "== cmake build"
  if cmake -S . -B $B -DCMAKE_BUILD_TYPE=RelWithDebInfo >>"$LOG" 2>&1 &&
     cmake --build $B -j 16 >>"$LOG" 2>&1; then
    NVRTC_CHECK=$B/tests/cuda/nvrtc_check
    BACKEND_TEST=$B/tests/cuda/cuda_backend_test
  else
    say "full build failed (see gpu.log); falling back to --standalone"
    tail -n 20 "$LOG"
    mode=standalone
  fi
fi
if [ $mode = standalone ]; then
  say "== standalone build (backend_cuda.c + stub runtime)"
  mkdir -p $B/sa
  F="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -O2 -g -Iinclude -Isrc/base -Isrc/compile -Isrc/runtime"
  gcc $F -c src/runtime/backend_cuda.c -o $B/sa/backend_cuda.o >>"$LOG" 2>&1 &&
  gcc $F tests/cuda/nvrtc_check.c $B/sa/backend_cuda.o tests/cuda/stub_runtime.c \
      -ldl -o $B/sa/nvrtc_check >>"$LOG" 2>&1 &&
  gcc $F -DKERN_CUDA_TEST_DIR="\"$PWD/tests/cuda\"" tests/cuda/backend_test.c \
      $B/sa/backend_cuda.o tests/cuda/stub_runtime.c -ldl -lm \
      -o $B/sa/backend_test >>"$LOG" 2>&1 || { say "standalone build FAILED"; tail -n 30 "$LOG"; exit 1; }
  NVRTC_CHECK=$B/sa/nvrtc_check
  BACKEND_TEST=$B/sa/backend_test
fi

status=0
say "== nvrtc_check"
for arch in sm_80 sm_90 compute_90; do
  $NVRTC_CHECK tests/cuda/abi_saxpy.cu --arch $arch 2>&1 | tee -a "$LOG"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done
say "== backend_test"
$BACKEND_TEST tests/cuda/abi_saxpy.cu 2>&1 | tee "$OUT/backend_test.txt" | tee -a "$LOG"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
if command -v compute-sanitizer >/dev/null; then
  say "== backend_test under compute-sanitizer (leak check, fault test expected)"
  compute-sanitizer --leak-check full --print-limit 5 $BACKEND_TEST tests/cuda/abi_saxpy.cu \
    > "$OUT/sanitizer.txt" 2>&1
  grep -E "ERROR SUMMARY|LEAK SUMMARY|all passed" "$OUT/sanitizer.txt" | tee -a "$LOG"
fi
say "== backend_test with AddressSanitizer + UBSan (host-side memory errors)"
S="-std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -Iinclude -Isrc/base -Isrc/compile -Isrc/runtime"
if gcc $S -DKERN_CUDA_TEST_DIR="\"$PWD/tests/cuda\"" tests/cuda/backend_test.c \
     src/runtime/backend_cuda.c tests/cuda/stub_runtime.c -ldl -lm -o $B/asan_test >>"$LOG" 2>&1; then
  # The driver maps memory where ASan's shadow gap would be.
  ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 \
    $B/asan_test tests/cuda/abi_saxpy.cu > "$OUT/asan.txt" 2>&1
  rc=$?
  grep -E "ERROR: AddressSanitizer|runtime error|all passed" "$OUT/asan.txt" | head -5 | tee -a "$LOG"
  [ $rc = 0 ] || { say "asan run FAILED (rc $rc)"; status=1; }
fi
if [ $mode = cmake ]; then
  say "== ctest (cuda)"
  (cd $B && ctest -R cuda --output-on-failure) 2>&1 | tail -n 15 | tee -a "$LOG"
fi

say "== summary ($mode build)"
grep -E "^cuda:0|launch \+ synchronize|module_build|oom message|fault message|after fault|all passed|FAIL|failed" "$OUT/backend_test.txt" | tee -a "$LOG"
say "status: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
