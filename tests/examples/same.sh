#!/bin/sh
# Runs each examples/*.py that has a `# kern-test-same: KERNEL --dim ...`
# line (a tile kernel and its plain version, say): the `# kern-test:`
# kernel and KERNEL, launched as that line says on the kern-test line's
# inputs, must leave every `# kern-check:` array equal to each other's and
# to real Warp's (expected/<stem>.warp.<NAME>.npy, of the kern-test kernel,
# from make_warp_expected.py), within the kern-check tolerances.
#
#   same.sh KERN NPYCMP ROOT BACKEND
#
# Exits 77 (skipped) when the backend has no device here.
set -u
if [ $# -ne 4 ]; then
  echo "usage: $0 KERN NPYCMP ROOT BACKEND" >&2
  exit 2
fi
KERN=$1; NPYCMP=$2; ROOT=$3; B=$4
EXP=$ROOT/tests/examples/expected
OUT=$(mktemp -d "${TMPDIR:-/tmp}/kern-same.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
export KERN_CACHE_DIR="$OUT/cache"
if ! "$KERN" devices 2>/dev/null | grep -q "^$B: available"; then
  echo "SKIP: backend $B has no device here"
  exit 77
fi

pass=0; fail=0
for f in "$ROOT"/examples/*.py; do
  grep -q '^# kern-test-same: ' "$f" || continue
  stem=$(basename "$f" .py)
  test=$(sed -n 's/^# kern-test: //p' "$f" | head -n 1)
  same=$(sed -n 's/^# kern-test-same: //p' "$f" | head -n 1)
  checks=$(sed -n 's/^# kern-check: //p' "$f")
  bad=0
  # the second run: KERNEL and its launch options, then the kern-test
  # line's NAME=SPEC arguments
  eval "set -- $test"
  specs=""
  for a in "$@"; do
    case $a in *=*) specs="$specs '$a'" ;; esac
  done
  for run in 1 2; do
    if [ $run = 1 ]; then line=$test; else line="$same $specs"; fi
    saves=""
    for name in $(echo "$checks" | awk '{print $1}'); do
      saves="$saves --save $name=$OUT/$stem.$run.$name.npy"
    done
    eval "set -- $line"
    # shellcheck disable=SC2086
    if ! "$KERN" run "$f" "$@" --backend "$B" --quiet $saves >"$OUT/$stem.$run.log" 2>&1; then
      echo "FAIL $stem: kern run $1 failed"; sed 's/^/    /' "$OUT/$stem.$run.log" | head -n 20
      bad=1
    fi
  done
  if [ $bad -eq 0 ]; then
    while read -r name opts; do
      [ -z "$name" ] && continue
      tol=""
      for o in $opts; do
        case $o in rtol=*) tol="$tol --rtol ${o#rtol=}" ;; atol=*) tol="$tol --atol ${o#atol=}" ;; esac
      done
      k1=${test%% *}; k2=${same%% *}
      for pair in "1 2 $k1 $k2" "1 w $k1 Warp's:$k1" "2 w $k2 Warp's:$k1"; do
        set -- $pair
        a=$OUT/$stem.$1.$name.npy; b=$OUT/$stem.$2.$name.npy
        [ "$2" = w ] && b=$EXP/$stem.warp.$name.npy
        # shellcheck disable=SC2086
        if ! "$NPYCMP" "$b" "$a" $tol >"$OUT/cmp" 2>&1; then
          echo "FAIL $stem: $name of $3 differs from $4" | tr : ' '
          sed 's/^/    /' "$OUT/cmp" | head -n 8
          bad=1
        fi
      done
    done <<EOF2
$checks
EOF2
  fi
  if [ $bad -eq 0 ]; then
    echo "ok $stem"; pass=$((pass + 1))
  else
    fail=$((fail + 1))
  fi
done
echo "examples same ($B): $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
