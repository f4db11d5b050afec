#!/bin/sh
# ltoir_test.sh KERN [N] -- `kern synth --validate compile --nvrtc-output
# ltoir` (Note [validation output] in src/synth/driver.c): N compact pairs
# (default 100) all compile to LTO IR, and every record says so: output
# "ltoir", -dlto among the options, no ptxas option and no register or
# spill counts (ptxas did not run); the dataset card says in words what
# compile_ok means.  Also the usage errors of --nvrtc-output and the
# architecture each output compiles for.  Skips (77) without NVRTC unless
# SYNTH_REQUIRE_NVRTC=1 (.ci/run).
set -eu
KERN=$1
N=${2:-100}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache"
fail() { echo "FAIL: $*"; exit 1; }

# Usage errors need no NVRTC.
set +e
"$KERN" synth -n 1 -o "$T/u" --nvrtc-output sass 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "cubin, ptx or ltoir" "$T/err" || fail "bad --nvrtc-output: $rc $(cat "$T/err")"
"$KERN" synth -n 1 -o "$T/u" --arch compute_90 --nvrtc-output cubin 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "compute_90" "$T/err" || fail "cubin for compute_90: $rc $(cat "$T/err")"
set -e
# Without validation the record still names what validation would make.
"$KERN" synth -n 3 --seed 3 -o "$T/n" --targets cuda --quiet
[ "$(grep -c '"options":\["--gpu-architecture=sm_90",[^]]*"--ptxas-options=-v"[^]]*\],"output":"cubin"' \
     "$T/n/pairs.jsonl")" -eq 3 ] || fail "default records do not say cubin"
"$KERN" synth -n 3 --seed 3 -o "$T/p" --targets cuda --nvrtc-output ptx --quiet
[ "$(grep -c '"arch":"compute_90","options":\["--gpu-architecture=compute_90",' "$T/p/pairs.jsonl")" -eq 3 ] ||
  fail "ptx output is not compiled for compute_90"
grep -q 'ptxas' "$T/p/pairs.jsonl" && fail "a PTX record lists a ptxas option"

set +e
"$KERN" synth -n "$N" --seed 2026 -o "$T/l" --targets cuda --cuda-form compact \
  --validate compile --nvrtc-output ltoir --batch 100 --quiet 2> "$T/err"
rc=$?
set -e
if [ $rc -ne 0 ] && grep -q "needs NVRTC" "$T/err"; then
  [ "${SYNTH_REQUIRE_NVRTC:-0}" = 1 ] && fail "no NVRTC: $(cat "$T/err")"
  echo "skip: $(cat "$T/err")"
  exit 77
fi
[ $rc -eq 0 ] || fail "kern synth exited $rc: $(cat "$T/err")"
L=$T/l/pairs.jsonl
[ "$(wc -l < "$L")" -eq "$N" ] || fail "not $N records"
ok=$(grep -c '"compile_ok":true' "$L" || true)
[ "$ok" -eq "$N" ] || fail "$ok of $N compiled to LTO IR"
grep -q "\"compile_ok\": $N,\$" "$T/l/stats.json" || fail "stats do not count $N compiled"
[ "$(grep -c '"options":\[[^]]*"-dlto"\],"output":"ltoir"' "$L")" -eq "$N" ] ||
  fail "not every record lists -dlto and output ltoir"
grep -q 'ptxas' "$L" && fail "an LTO IR record lists a ptxas option"
[ "$(grep -c '"registers":null,"spill_stores":null,"spill_loads":null,"stack_bytes":null' "$L")" -eq "$N" ] ||
  fail "an LTO IR record has ptxas counts"
grep -q '"nvrtc_version":"[0-9]*\.[0-9]*"' "$L" || fail "no NVRTC version recorded"
grep -q 'NVRTC output `ltoir`' "$T/l/README.md" || fail "the card does not name the output"
grep -q 'NVVM optimisation and ptxas code generation were not run' "$T/l/README.md" ||
  fail "the card does not say what compile_ok means for ltoir"
echo "ok ($N pairs to LTO IR)"
