#!/bin/sh
# Runs every examples/*.py with `kern run` and checks its outputs.
#
#   run.sh KERN NPYCMP ROOT BACKEND            compare with NumPy's answers
#   run.sh KERN NPYCMP ROOT --diff BACKEND_A BACKEND_B
#                                              compare two backends
#
# ROOT is the repository root.  Each example's `# kern-test:` line gives the
# arguments of `kern run` and each `# kern-check: NAME [rtol=R] [atol=A]`
# line an array to compare; an example without them takes them from
# tests/examples/headers/<stem>.txt.  The reference for the first form is
# tests/examples/expected/<stem>.<NAME>.npy, written by make_expected.py
# with NumPy alone.  Exits 77 (skipped) when a backend has no device here.
set -u
if [ $# -lt 4 ]; then
  echo "usage: $0 KERN NPYCMP ROOT BACKEND | --diff BACKEND_A BACKEND_B" >&2
  exit 2
fi
KERN=$1; NPYCMP=$2; ROOT=$3
if [ "$4" = "--diff" ]; then
  [ $# -eq 6 ] || { echo "usage: $0 KERN NPYCMP ROOT --diff A B" >&2; exit 2; }
  BACKENDS="$5 $6"; MODE=diff
else
  BACKENDS=$4; MODE=check
fi
EXP=$ROOT/tests/examples/expected
OUT=$(mktemp -d "${TMPDIR:-/tmp}/kern-examples.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
export KERN_CACHE_DIR="$OUT/cache"

for b in $BACKENDS; do
  if ! "$KERN" devices 2>/dev/null | grep -q "^$b: available"; then
    echo "SKIP: backend $b has no device here"
    exit 77
  fi
done

pass=0; fail=0; failed=""
for f in "$ROOT"/examples/*.py; do
  stem=$(basename "$f" .py)
  hdr=$f
  grep -q '^# kern-test: ' "$f" || hdr=$ROOT/tests/examples/headers/$stem.txt
  if [ ! -f "$hdr" ] || ! grep -q '^# kern-test: ' "$hdr"; then
    echo "FAIL $stem: no '# kern-test:' header (in the file or tests/examples/headers/$stem.txt)"
    fail=$((fail + 1)); failed="$failed $stem"; continue
  fi
  args=$(sed -n 's/^# kern-test: //p' "$hdr" | head -n 1)
  checks=$(sed -n 's/^# kern-check: //p' "$hdr")
  bad=0
  for b in $BACKENDS; do
    saves=""
    for name in $(echo "$checks" | awk '{print $1}'); do
      saves="$saves --save $name=$OUT/$stem.$b.$name.npy"
    done
    eval "set -- $args"  # quoted as a shell command line would be
    # shellcheck disable=SC2086
    if ! "$KERN" run "$f" "$@" --backend "$b" --quiet $saves >"$OUT/$stem.$b.log" 2>&1; then
      echo "FAIL $stem ($b): kern run failed"; sed 's/^/    /' "$OUT/$stem.$b.log" | head -n 20
      bad=1
    fi
  done
  if [ $bad -eq 0 ]; then
    while read -r name opts; do
      [ -z "$name" ] && continue
      rtol=$(echo "$opts" | tr ' ' '\n' | sed -n 's/^rtol=//p')
      atol=$(echo "$opts" | tr ' ' '\n' | sed -n 's/^atol=//p')
      if [ $MODE = check ]; then
        set -- "$EXP/$stem.$name.npy" "$OUT/$stem.$BACKENDS.$name.npy"; what="NumPy's answer"
      else
        set -- $(for b in $BACKENDS; do echo "$OUT/$stem.$b.$name.npy"; done); what="the other backend"
      fi
      [ -n "$rtol" ] && set -- "$@" --rtol "$rtol"
      [ -n "$atol" ] && set -- "$@" --atol "$atol"
      if ! "$NPYCMP" "$@" >"$OUT/$stem.$name.cmp" 2>&1; then
        echo "FAIL $stem: $name differs from $what"; sed 's/^/    /' "$OUT/$stem.$name.cmp" | head -n 8
        bad=1
      fi
    done <<EOF2
$checks
EOF2
  fi
  if [ $bad -eq 0 ]; then
    echo "ok $stem"; pass=$((pass + 1))
  else
    fail=$((fail + 1)); failed="$failed $stem"
  fi
done
echo "examples ($MODE: $BACKENDS): $pass passed, $fail failed"
[ -n "$failed" ] && echo "failed:$failed"
[ "$fail" -eq 0 ]
