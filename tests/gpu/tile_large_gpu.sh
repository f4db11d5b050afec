#!/bin/sh
# Large tiles on a GPU (issue #24): tests/conformance/tile_large.py (192 KiB
# of tiles in one kernel, near kern's 256 KiB, Note [fixed-size array
# limit]) on BACKEND at several block sizes.  Each thread of a block holds
# the whole tile (Note [tiles, first stage]), so the launch needs 192 KiB of
# local memory a thread: each run must agree with Warp's goldens or fail
# with kern's error, never hang or crash.  Prints one line a run.
# usage: tile_large_gpu.sh KERN NPYCMP BACKEND [BLOCK_DIMS]
set -u
K=$1; NPYCMP=$2; BE=$3; BDS=${4:-1 32 256 1024}
F=tests/conformance/tile_large.py; D=tests/conformance/expected
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
args=$(sed -n 's/^# kern-test: //p' "$F" | head -n 1)
checks=$(sed -n 's/^# kern-check: //p' "$F" | awk '{print $1}')
# each check's tolerances as its kern-check line gives them (run.sh's way)
tol() { sed -n "s/^# kern-check: $1 *//p" "$F" | tr ' ' '\n' | sed -n 's/^rtol=/--rtol /p; s/^atol=/--atol /p'; }
bad=0
for bd in $BDS; do
  a=$(echo "$args" | sed "s/--block-dim [0-9]*/--block-dim $bd/")
  saves=""; for c in $checks; do saves="$saves --save $c=$T/$c.npy"; done
  opt=--backend; case $BE in *:*) opt=--device ;; esac
  eval "set -- $a"
  s=$(date +%s%N)
  # shellcheck disable=SC2086
  timeout 120 "$K" run "$F" "$@" $opt "$BE" --quiet $saves >"$T/log" 2>"$T/err"
  rc=$?; e=$(( ($(date +%s%N) - s) / 1000000 ))
  if [ $rc = 0 ]; then
    agree=0; n=0
    for c in $checks; do
      n=$((n + 1))
      # shellcheck disable=SC2046
      "$NPYCMP" "$D/tile_large.$c.npy" "$T/$c.npy" $(tol $c) >/dev/null 2>&1 && agree=$((agree + 1))
    done
    echo "tile_large $BE block_dim $bd: ran in ${e} ms, $agree of $n arrays agree with Warp"
    [ $agree = $n ] || bad=1
  elif [ $rc -ge 124 ]; then
    echo "tile_large $BE block_dim $bd: HUNG or CRASHED (rc $rc after ${e} ms)"; bad=1
  else
    echo "tile_large $BE block_dim $bd: refused in ${e} ms (rc $rc): $(head -c 300 "$T/err" | tr '\n' ' ')"
  fi
done
exit $bad
