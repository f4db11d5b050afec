#!/bin/sh
# long_run.sh -- one harness for a fixed total time, restarting after a crash.
#
#   sh fuzz/long_run.sh BIN_DIR HARNESS SECONDS WORK_DIR
#
# Fuzzes WORK_DIR/corpus (seeded from tests/conformance, tests/errors and
# examples) with BIN_DIR/HARNESS
# until SECONDS of fuzzing have passed in total.  When libFuzzer stops on a
# crash, the artifact stays in WORK_DIR/artifacts and the run restarts with
# the time left, with whatever BIN_DIR/HARNESS is then (so a fixed binary
# can be dropped in while it runs).  Each segment runs its own copy of the
# binary (WORK_DIR/HARNESS.segN), so the sanitizer symbolizes a report
# against the binary that produced it.  Each segment's log is
# WORK_DIR/logN.txt; WORK_DIR/segments.txt lists each segment's seconds and
# exit status.  Segments are numbered on from an earlier run in WORK_DIR.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BIN=${1:?usage: long_run.sh BIN_DIR HARNESS SECONDS WORK_DIR}
H=${2:?}
TOTAL=${3:?}
W=${4:?}
mkdir -p "$W/corpus" "$W/artifacts"
left=$TOTAL
n=0
while [ -e "$W/log$((n + 1)).txt" ]; do n=$((n + 1)); done
while [ "$left" -gt 30 ]; do
  n=$((n + 1))
  cp "$BIN/$H" "$W/$H.seg$n" || exit 1
  t0=$(date +%s)
  # The working corpus comes first: libFuzzer writes new inputs there.
  nice -n 10 "$W/$H.seg$n" -dict="$HERE/kern.dict" -max_total_time="$left" \
    -rss_limit_mb=2048 -timeout=10 -max_len=20000 -print_final_stats=1 \
    -artifact_prefix="$W/artifacts/" "$W/corpus" "$ROOT/tests/conformance" "$ROOT/tests/errors" "$ROOT/examples" \
    >"$W/log$n.txt" 2>&1
  rc=$?
  t1=$(date +%s)
  echo "segment $n: $((t1 - t0)) s, exit $rc" >>"$W/segments.txt"
  left=$((left - (t1 - t0)))
  [ $rc -eq 0 ] && break
  sleep 5
done
echo "done" >>"$W/segments.txt"
