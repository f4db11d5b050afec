#!/bin/sh
# synth_outputs.sh KERN [N] [BATCH] -- kern synth's compile validation rate for
# each NVRTC output and CUDA form, all rows in one run (bench/NOTES.md, "kern
# synth round four").  Pairs per second per core = N / (user + sys CPU s)
# of the whole `kern synth` process (NVRTC's threads included), fresh DIR,
# --quiet; each row also checks that every pair compiled (stats.json's
# compile_ok equals N).  The last row is generation + CUDA codegen alone
# (10,000 pairs, no validation) for reference.
set -e
KERN=$1 N=${2:-1000} B=${3:-200}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache"
row() { # NAME N ARGS...
  name=$1 n=$2; shift 2
  rm -rf "$T/o"
  /usr/bin/time -f "%U %S %e" -o "$T/t" "$KERN" synth -n "$n" --seed 7 --targets cuda \
    "$@" -o "$T/o" --quiet || echo "($name: kern synth failed)"
  ok=$(grep -o '"compile_ok": [0-9]*,$' "$T/o/stats.json" | head -1 | tr -dc 0-9)
  awk -v name="$name" -v n="$n" -v ok="$ok" '{ cpu = $1 + $2;
    printf "%-44s N %5d  user %6.2f  sys %5.2f  wall %6.2f  ms/pair %6.3f  pairs/s/core %6.0f  compiled %s\n",
           name, n, $1, $2, $3, 1000 * cpu / n, n / cpu, ok }' "$T/t"
}
V="--validate compile --batch $B"
row "(a) production, cubin (sm_90)" "$N" $V
row "(b) compact, cubin (sm_90)" "$N" $V --cuda-form compact
row "(c) compact, ptx (compute_90)" "$N" $V --cuda-form compact --nvrtc-output ptx
row "(d) compact, ltoir (sm_90 -dlto)" "$N" $V --cuda-form compact --nvrtc-output ltoir
row "(e) production, ltoir (sm_90 -dlto)" "$N" $V --nvrtc-output ltoir
row "(d') compact, ltoir, --batch 64 (default)" "$N" --validate compile --cuda-form compact --nvrtc-output ltoir
row "(d'') compact, ltoir, --batch 500" "$N" --validate compile --batch 500 --cuda-form compact --nvrtc-output ltoir
row "generation + CUDA codegen (no validation)" 10000 --validate none
row "same, compact" 10000 --validate none --cuda-form compact
