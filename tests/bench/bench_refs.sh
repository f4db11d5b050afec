#!/bin/sh
# What a kernel file's '# kern-bench-ref:' lines can make kern bench do
# (issue 23, items 3 and 5); needs a Python with NumPy ($KERN_TEST_PYTHON,
# else python3) and reports itself skipped (77) without one.
#  3. An expression runs by default only when it is made of kern bench's
#     known functions (Note [known references] in tools/kern_bench_ref.py);
#     one that reaches os.system, a builtin, a dunder attribute or a setup
#     is a row that says it was not run, and runs only with --file-refs.
#  5. A folder named 'warp' next to the helper script or in the current
#     directory (also through a relative PYTHONPATH entry) is not imported:
#     the Warp row says "not importable" (or runs, where Warp is installed).
# Usage: bench_refs.sh KERN SOURCE_DIR
set -u
K=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); SRC=$2
PY=${KERN_TEST_PYTHON:-python3}
"$PY" -c "import numpy" 2>/dev/null || { echo "bench_refs: skipped ($PY has no NumPy)"; exit 77; }
T=$(mktemp -d /tmp/kern-bench-refs.XXXXXX)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
has() { grep -q -- "$2" "$1" || { fail "$1 lacks '$2'"; sed 's/^/  | /' "$1"; }; }
FAST="--budget 0.05 --min-samples 3 --max-samples 10 --no-cold --no-peak --backend cpu --python $PY"

# ---- 3. hostile expressions, each of which would create a file in $T/hit
mkdir "$T/hit"
H="$T/hit"
{
  echo 'import warp as wp'
  echo '# kern-bench: sq --dim 64 x=rand(float64,64,seed=1) out=zeros(float64,1)'
  echo '# kern-bench-check: out'
  echo '# kern-bench-ref: numpy: out = np.dot(x, x)'
  echo '# kern-bench-ref: numpy: out = (x * x).sum()'
  echo '# kern-bench-ref: numpy: out = np.dot(x[:32], x[:32]) + np.dot(x[32:], x[32:])'
  echo "# kern-bench-ref: numpy: out = __import__('os').system('touch $H/a') + np.dot(x, x)"
  echo "# kern-bench-ref: numpy: out = np.dot(x, x) where k = __import__('os').system('touch $H/b')"
  echo "# kern-bench-ref: numpy: out = np.dot(x, x) + 0 * len(x.__class__.__base__.__subclasses__())"
  echo "# kern-bench-ref: numpy: out = np.dot(x, x) + len(open('$H/c', 'w').name) * 0"
  echo "# kern-bench-ref: numpy: out = np.dot(x, x) + 0 * (np.save('$H/d.npy', x) is None)"
  echo "# kern-bench-ref: numpy: out = np.dot(x, x) + 0 * x.sum.__self__.tofile('$H/e')"
  echo "# kern-bench-ref: numpy: out = [f for f in (1,)] and np.dot(x, x)"
  echo '@wp.kernel'
  echo 'def sq(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):'
  echo '    i = wp.tid()'
  echo '    wp.atomic_add(out, 0, x[i] * x[i])'
} >"$T/refs.py"
"$K" bench "$T/refs.py" $FAST >"$T/refs.txt" 2>"$T/refs.err" || { fail "kern bench exited $?"; cat "$T/refs.err"; }
[ -z "$(ls "$H")" ] || { fail "an expression from the file ran by default: $(ls "$H")"; rm -f "$H"/*; }
has "$T/refs.txt" "^  numpy: np.dot(x, x) *hot "
has "$T/refs.txt" "^  numpy: (x \* x).sum() *hot "
has "$T/refs.txt" "^  numpy: np.dot(x\[:32\], x\[:32\]) + np.dot(x\[32: *hot "
[ "$(grep -c 'unavailable: not run: the expression is the kernel file.s own Python (it has .*); --file-refs runs it' "$T/refs.txt")" = 7 ] ||
  { fail "not every hostile expression was refused"; cat "$T/refs.txt"; }
has "$T/refs.txt" "it has '.system'"
has "$T/refs.txt" "it has a setup ('where ...')"
has "$T/refs.txt" "it has the name 'len'"
has "$T/refs.txt" "it has 'np.save'"
has "$T/refs.txt" "it has 'x.sum.__self__.tofile'"
has "$T/refs.txt" "it has BoolOp syntax"
# --file-refs runs the file's own Python, as documented.
"$K" bench "$T/refs.py" $FAST --file-refs >"$T/refs2.txt" 2>"$T/refs2.err"
[ -e "$H/a" ] && [ -e "$H/b" ] || fail "--file-refs did not run the file's expressions"
# Arithmetic on constants alone never finishes when it is 9 ** 9 ** 9.
sed -e '/kern-bench-ref/d' -e "s|^# kern-bench-check: out|&\\
# kern-bench-ref: numpy: out = np.dot(x, x) + 0 * (9 ** 9 ** 9)|" "$T/refs.py" >"$T/pow.py"
timeout 120 "$K" bench "$T/pow.py" $FAST >"$T/pow.txt" 2>&1 || fail "kern bench of 9 ** 9 ** 9 exited $?"
has "$T/pow.txt" "it has arithmetic on constants alone"

# ---- 5. an empty 'warp' folder next to the helper and in the current
# directory, and a relative PYTHONPATH entry
mkdir -p "$T/tools/warp" "$T/cwd/warp"
cp "$SRC/tools/kern_bench_ref.py" "$T/tools/"
cat >"$T/w.py" <<'PY'
import warp as wp
# kern-bench: sq --dim 64 x=rand(float64,64,seed=1) out=zeros(float64,1)
# kern-bench-check: out
# kern-bench-ref: warp: out = wp.utils.array_inner(x, x)
@wp.kernel
def sq(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i] * x[i])
PY
(cd "$T/cwd" && KERN_BENCH_REF="$T/tools/kern_bench_ref.py" PYTHONPATH=".:warp" \
  "$K" bench "$T/w.py" $FAST >"$T/w.txt" 2>"$T/w.err") || fail "kern bench exited $?"
grep -Eq "^  warp: .*(unavailable: warp not importable \(No module named 'warp'\)|  *hot )" "$T/w.txt" ||
  { fail "the Warp row was not 'not importable' (nor ran)"; cat "$T/w.txt"; }

if [ $fails = 0 ]; then echo "bench_refs: all passed"; else echo "bench_refs: $fails failed"; exit 1; fi
