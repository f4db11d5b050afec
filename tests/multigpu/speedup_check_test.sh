#!/bin/sh
# bench/speedup_check.sh on canned RESULT lines and on the real output of
# an example (issue #22: 2.34x and 4.78x on two GPUs were reported as
# speedups; they were slow one-device baselines).  No GPU needed.
# usage: speedup_check_test.sh SRCDIR MG_SUM_OF_SQUARES
set -u
SRC=$1; MG=$2
CHECK="sh $SRC/bench/speedup_check.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kern-speedup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
# expect STATUS TEXT ARGS... (stdin: the RESULT lines)
expect() {
  want=$1; text=$2; shift 2
  cat >"$tmp/in"
  $CHECK "$@" <"$tmp/in" >"$tmp/out" 2>&1
  st=$?
  if [ $st -ne "$want" ] || ! grep -qF -- "$text" "$tmp/out"; then
    echo "FAIL: speedup_check.sh $* (status $st, wanted $want and '$text'); input:"
    sed 's/^/  | /' "$tmp/in"; echo "  output:"; sed 's/^/  > /' "$tmp/out"
    fails=$((fails + 1))
  fi
}

# The run of issue #22 (old RESULT lines: no devices=, shards= is the bound).
expect 1 "MEASUREMENT ERROR: kern sum_of_squares: 2.34x on 2 shards" <<'EOF'
kern RESULT sum_of_squares shards=2 one_ms=3.1160 multi_ms=1.3316 speedup=2.340 ok=1
EOF
expect 1 "MEASUREMENT ERROR: kern stencil: 4.78x on 2 shards" <<'EOF'
kern RESULT stencil shards=2 one_ms=12.5700 multi_ms=2.6297 speedup=4.780 ok=1
EOF
# The same programs under mpirun: possible figures.
expect 0 "2 figures checked, 0 measurement errors" <<'EOF'
mpirun RESULT sum_of_squares shards=2 one_ms=2.6200 multi_ms=1.3436 speedup=1.950 ok=1
mpirun RESULT stencil shards=2 one_ms=5.2490 multi_ms=2.6245 speedup=2.000 ok=1
EOF
# One bad figure among good ones fails the whole check, and says which.
expect 1 "MEASUREMENT ERROR: kern stencil: 2.05x on 2 devices" <<'EOF'
kern RESULT sum_of_squares shards=2 devices=2 one_ms=2.6 multi_ms=1.33 speedup=1.955 sane=1 ok=1
kern RESULT stencil shards=2 devices=2 one_ms=5.33 multi_ms=2.6 speedup=2.050 sane=1 ok=1
RESULT all_reduce_1024MB shards=2 kern_busbw=325.40 nccl_busbw=326.30 ratio=0.997 ok=1
EOF
# Shards on one device: the bound is the devices, not the shards.
expect 1 "1.50x on 1 devices" <<'EOF'
RESULT stencil shards=3 devices=1 one_ms=3 multi_ms=2 speedup=1.500 sane=0 ok=1
EOF
# --gpus caps the bound (ranks sharing a GPU overstate devices=).
expect 1 "1.60x on 1 GPUs" --gpus 1 <<'EOF'
mpirun RESULT stencil shards=2 devices=2 one_ms=3.2 multi_ms=2 speedup=1.600 sane=1 ok=1
EOF
expect 0 "ok: mpirun stencil: 1.60x on 2 devices" --gpus 8 <<'EOF'
mpirun RESULT stencil shards=2 devices=2 one_ms=3.2 multi_ms=2 speedup=1.600 sane=1 ok=1
EOF
# A program's own flag (sane=0) fails even within the bound given here.
expect 1 "MEASUREMENT ERROR: training_step" <<'EOF'
RESULT training_step shards=2 devices=2 one_ms=3 multi_ms=2 speedup=1.500 sane=0 ok=1
EOF
# PyTorch's line counts its GPUs with gpus=.
expect 1 "MEASUREMENT ERROR: torch_sharded: 2.60x on 2 GPUs" <<'EOF'
RESULT torch_sharded n=1000000000 gpus=2 ms=1.0 speedup=2.600
EOF
# Explained, by NAME or LABEL NAME: printed with the reason, not a failure.
expect 0 "explained: kern stencil: 2.30x on 2 devices (one device 6 ms, all 2.6 ms): halves fit in L2" \
  --explain 'kern stencil=halves fit in L2' <<'EOF'
kern RESULT stencil shards=2 devices=2 one_ms=6 multi_ms=2.6 speedup=2.300 sane=0 ok=1
EOF
expect 1 "MEASUREMENT ERROR: kern sum_of_squares" --explain 'stencil=another figure' <<'EOF'
kern RESULT sum_of_squares shards=2 devices=2 one_ms=6 multi_ms=2.6 speedup=2.300 sane=1 ok=1
EOF
# No device count at all is an error, not a pass.
expect 1 "with no device count" <<'EOF'
RESULT mystery one_ms=2 multi_ms=1 speedup=2.000
EOF
# Bad usage.
expect 2 "--gpus needs a number" --gpus x </dev/null
expect 2 "--explain needs NAME=REASON" --explain stencil </dev/null

# The real example's line (CPU, three shards of one device): it carries the
# keys the check reads, and the check reads it -- an impossible speedup
# written into the same line is caught.
KERN_DEVICE=cpu:0,0,0 KERN_EXAMPLE_N=1000 KERN_EXAMPLE_REPS=3 \
  KERN_CACHE_DIR="$tmp/cache" "$MG" >"$tmp/ex" 2>&1 ||
  { echo "FAIL: $MG failed:"; cat "$tmp/ex"; exit 1; }
line=$(grep '^RESULT sum_of_squares ' "$tmp/ex")
for key in shards=3 devices=1 one_ms= multi_ms= speedup= rounds=3 sane= ok=1; do
  case " $line " in
    *" $key"*) ;;
    *) echo "FAIL: the example's RESULT line lacks '$key': $line"; fails=$((fails + 1)) ;;
  esac
done
echo "$line" | sed 's/speedup=[0-9.]*/speedup=9.000/; s/sane=[01]/sane=1/' >"$tmp/doctored"
expect 1 "MEASUREMENT ERROR: sum_of_squares: 9.00x on 1 devices" <"$tmp/doctored"

[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "speedup check: all cases pass"
