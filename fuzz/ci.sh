#!/bin/sh
# ci.sh -- builds the fuzzers and runs each for a short fixed budget.
#
#   sh fuzz/ci.sh [OUTDIR [SECONDS]]    (defaults: build-fuzz, 60)
#
# Each harness fuzzes a scratch corpus seeded from the kernels already in
# the repo (tests/conformance, tests/errors, examples) and tests/fuzz/crashes
# (fuzz_roundtrip: from fuzz/roundtrip_seeds) for SECONDS
# (-rss_limit_mb=2048 -timeout=10, fuzz/kern.dict).  The seed
# comes from $FUZZ_SEED when set, else libFuzzer picks one and prints it.
#
# Exit status: 0 no crash; 1 a crash, leak, timeout, out-of-memory or
# broken invariant (the reproducer is under OUTDIR/artifacts and the
# report is printed); 77 skipped because clang or its libFuzzer runtime is
# missing (Debian: apt-get install clang libclang-rt-14-dev).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
OUT=${1:-$ROOT/build-fuzz}
SECS=${2:-60}
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac

sh "$HERE/build.sh" "$OUT"
rc=$?
if [ $rc -eq 77 ]; then
  echo "fuzz/ci.sh: skipped: libFuzzer is unavailable" >&2
  exit 77
fi
[ $rc -eq 0 ] || { echo "fuzz/ci.sh: build failed" >&2; exit 1; }

rm -rf "$OUT/artifacts"
mkdir -p "$OUT/artifacts"
status=0
for h in fuzz_frontend fuzz_compiler fuzz_roundtrip; do
  work=$OUT/work-$h
  # fuzz_roundtrip's inputs are a name and a text, not kernels.
  seeds="$ROOT/tests/conformance $ROOT/tests/errors $ROOT/examples $ROOT/tests/fuzz/crashes"
  [ $h = fuzz_roundtrip ] && seeds="$HERE/roundtrip_seeds"
  rm -rf "$work"
  mkdir -p "$work"
  seed=
  [ -n "${FUZZ_SEED:-}" ] && seed=-seed=$FUZZ_SEED
  # Distinct exit codes so no failure can read as "skipped" (77 is
  # libFuzzer's default for a crash).
  # shellcheck disable=SC2086
  "$OUT/$h" -dict="$HERE/kern.dict" -max_total_time="$SECS" \
    -rss_limit_mb=2048 -timeout=10 -max_len=20000 -print_final_stats=1 \
    -error_exitcode=1 -timeout_exitcode=1 $seed \
    -artifact_prefix="$OUT/artifacts/$h-" \
    "$work" $seeds >"$OUT/$h.log" 2>&1
  r=$?
  stats=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE)' "$OUT/$h.log" | tail -n 1)
  if [ $r -eq 0 ]; then
    echo "fuzz/ci.sh: $h: ok: $stats"
  else
    status=1
    echo "fuzz/ci.sh: $h: FAILED (exit $r); log $OUT/$h.log"
    # The report: the sanitizer or invariant message and the first frames.
    grep -v '^INFO:\|^#[0-9]' "$OUT/$h.log" | sed -n 1,60p
    for a in "$OUT/artifacts/$h-"*; do
      [ -f "$a" ] || continue
      echo "fuzz/ci.sh: reproduce with: $OUT/$h $a"
      echo "fuzz/ci.sh: minimize with:  $OUT/$h -minimize_crash=1 -runs=10000 $a"
    done
  fi
done
exit $status
