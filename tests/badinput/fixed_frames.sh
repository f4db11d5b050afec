#!/bin/sh
# Fixed-size local arrays (wp.zeros in a kernel) live on the thread's stack
# or in its private memory, so a kernel's arrays, with those of the
# functions it calls, are bounded in total (issue 23 item 6; Note [fixed
# array frames] in src/lower/check_fixed.c).  200 arrays of 64 KiB used to
# compile and then kill `kern run` with SIGSEGV; here every such kernel
# must be refused with a positioned error, never crash or hang, and a
# kernel just inside the bound must run and give the right values.
#   sh fixed_frames.sh KERN BACKEND
set -u
KERN=${1:?usage: fixed_frames.sh KERN BACKEND}
BACKEND=${2:-cpu}
T=$(mktemp -d "${TMPDIR:-/tmp}/kern-frames.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
export KERN_CACHE_DIR="$T/cache"
"$KERN" devices 2>/dev/null | grep -q "^$BACKEND: available" || { echo "skip: no $BACKEND device"; exit 77; }
fail=0

# many N: a kernel with N arrays of 16384 float32 (64 KiB) each
many() {
  printf 'import warp as wp\n\n\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n'
  i=0
  while [ $i -lt "$1" ]; do
    printf '    f%d = wp.zeros(shape=(16384,), dtype=float)\n    f%d[%d] = 1.0\n' $i $i $i
    i=$((i + 1))
  done
  printf '    a[0] = f0[0] + f1[1]\n'
}

# expect FILE MESSAGE: `kern run` exits 1 (not a signal, not a timeout)
# with MESSAGE as the first line of stderr.
expect() {
  f=$1 msg=$2
  timeout 120 "$KERN" run "$f" k --dim 1 "a=zeros(float32,1)" --device "$BACKEND" --quiet \
    >"$T/out" 2>"$T/err"
  rc=$?
  first=$(sed -n 1p "$T/err")
  if [ $rc -ne 1 ] || [ "$first" != "$msg" ]; then
    echo "FAIL $(basename "$f"): exit $rc (124: timed out, >128: signal), expected 1 and:"
    echo "  $msg"
    echo "  got: $first"
    fail=1
  else
    echo "ok   $(basename "$f")"
  fi
}

LIMIT="kern allows at most 262144 bytes of them per kernel on every target, the functions it calls included (they live on the thread's stack, in CUDA's local memory of 512 KiB a thread or in OpenCL's private memory)"
for n in 200 300; do
  many $n > "$T/many$n.py"
  expect "$T/many$n.py" "$T/many$n.py:14:13: error: the fixed-size arrays of kernel 'k' take $((n * 65536)) bytes together; $LIMIT"
done

# The bound counts the functions a kernel calls, through a chain of calls.
cat > "$T/chain.py" <<'PY'
import warp as wp


@wp.func
def leaf(i: int) -> float:
    t = wp.zeros(shape=(24000,), dtype=float)
    t[i] = 2.0
    return t[i]


@wp.func
def middle(i: int) -> float:
    u = wp.zeros(shape=(24000,), dtype=float)
    u[i] = 1.0
    return u[i] + leaf(i)


@wp.kernel
def k(a: wp.array(dtype=float)):
    v = wp.zeros(shape=(20000,), dtype=float)
    v[0] = 3.0
    a[0] = v[0] + middle(0)
PY
expect "$T/chain.py" "$T/chain.py:22:19: error: calling 'middle' brings the fixed-size arrays of kernel 'k' and the functions it calls to 272000 bytes; kern allows at most 262144 bytes of them per kernel on every target (they live on the thread's stack, in CUDA's local memory of 512 KiB a thread or in OpenCL's private memory)"

# Just inside the bound (17536 + 2 * 24000 floats = 262144 bytes): runs,
# on one thread and on 64 (the CPU pool's threads: Note [worker stacks]
# in src/runtime/context.c).
sed 's/shape=(20000,)/shape=(17536,)/' "$T/chain.py" > "$T/fits.py"
for dim in 1 64; do
  out=$(timeout 120 "$KERN" run "$T/fits.py" k --dim $dim "a=zeros(float32,1)" --device "$BACKEND" --threads 4 2>&1)
  rc=$?
  if [ $rc -ne 0 ] || ! printf '%s' "$out" | grep -qF "a = [6.]"; then
    echo "FAIL fits.py --dim $dim: exit $rc, expected 0 and a = [6.]"; echo "  got: $out"; fail=1
  else
    echo "ok   fits.py --dim $dim"
  fi
done
[ $fail -eq 0 ] && echo "fixed-size array frames ($BACKEND): all correct"
exit $fail
