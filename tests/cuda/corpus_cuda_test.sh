#!/bin/sh
# corpus_cuda.sh on a corpus of its own (no Warp files): kernels written here
# in Warp's layout, checked with kern, then with a kern whose CUDA or PTX is
# broken on purpose -- the check must fail and name the kernel.  Needs NVRTC
# and ptxas, else 77 (CI's ctest has neither yet; .ci/run then runs the real
# corpus with both).
# usage: corpus_cuda_test.sh KERN NVRTC_CHECK SRCDIR
set -u
KERN=$1; CHECK=$2; SRC=$3
PTXAS=${PTXAS:-ptxas}
command -v "$PTXAS" >/dev/null 2>&1 || { echo "skip: no ptxas"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3 (corpus.py extracts the kernels)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kern-corpus-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/warp/tests" "$tmp/warp/examples"
# Two kernels through struct array fields (issue #22's shapes), one plain,
# one the PTX tier refuses (a struct parameter), one kern cannot compile
# (not counted), and one inside a function (a closure: excluded).
cat >"$tmp/warp/tests/test_shapes.py" <<'EOF'
import warp as wp


@wp.struct
class Pair:
    x: wp.array(dtype=float)
    y: wp.array(dtype=float)


@wp.kernel
def product(p: Pair, z: wp.array(dtype=float)):
    tid = wp.tid()
    z[tid] = p.x[tid] * p.y[tid]


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.kernel
def unknown_builtin(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.no_such_builtin(x[i])


def make():
    @wp.kernel
    def closure(x: wp.array(dtype=float)):
        x[wp.tid()] = 1.0

    return closure
EOF
fails=0
# run NAME WANT_STATUS TEXT [ENV...]: corpus_cuda.sh with kern = $KERNBIN
run() {
  name=$1; want=$2; text=$3
  PTXAS="$PTXAS" sh "$SRC/tests/cuda/corpus_cuda.sh" "$KERNBIN" "$CHECK" "$tmp/warp" \
    >"$tmp/$name.out" 2>&1
  st=$?
  if [ $st -eq 77 ] && [ "$name" = good ]; then
    cat "$tmp/$name.out"; exit 77
  fi
  if [ $st -ne "$want" ] || ! grep -qF -- "$text" "$tmp/$name.out"; then
    echo "FAIL ($name): status $st, wanted $want and '$text':"
    sed 's/^/  > /' "$tmp/$name.out"
    fails=$((fails + 1))
  fi
}
KERNBIN=$KERN
run good 0 "2 of 3 kernels compile to C (cc -c); of those:"
grep -qF "CUDA: 2 compile with NVRTC for sm_90" "$tmp/good.out" &&
  grep -qF "PTX tier: 1 assembled by ptxas for sm_90, 1 refused by the tier" "$tmp/good.out" ||
  { echo "FAIL (good): counts:"; sed 's/^/  > /' "$tmp/good.out"; fails=$((fails + 1)); }

# A kern whose CUDA names an undeclared pointer for one kernel (the bug of
# issue #22) and whose PTX for another does not assemble.
cat >"$tmp/kern" <<EOF
#!/bin/sh
# kern compile FILE [--target T] -o OUT, broken for one kernel per target
"$KERN" "\$@" || exit \$?
out=""; target=c; prev=""
for a in "\$@"; do
  [ "\$prev" = -o ] && out=\$a
  [ "\$prev" = --target ] && target=\$a
  prev=\$a
done
case \$target in
  cuda) grep -q 'def product' "\$2" &&
        printf 'extern "C" __global__ void k_broken(float *z) { z[0] = v1_x_d[0]; }\n' >>"\$out" ;;
  ptx) grep -q 'def saxpy' "\$2" && printf '\tthis is not ptx;\n' >>"\$out" ;;
esac
exit 0
EOF
chmod +x "$tmp/kern"
KERNBIN=$tmp/kern
run broken 1 "FAIL: tests/test_shapes.py:11 product: NVRTC rejected the CUDA (sm_90)"
grep -qF 'identifier "v1_x_d" is undefined' "$tmp/broken.out" &&
  grep -qF "FAIL: tests/test_shapes.py:17 saxpy: ptxas rejected the PTX (sm_90)" "$tmp/broken.out" ||
  { echo "FAIL (broken): both failures, with NVRTC's error:"; sed 's/^/  > /' "$tmp/broken.out"; fails=$((fails + 1)); }

# No ptxas: skipped, never passed.
KERNBIN=$KERN
PTXAS=$tmp/no-such-ptxas run noptxas 77 "skip: no ptxas"

[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "corpus_cuda.sh: counts, NVRTC and ptxas failures named, skip without ptxas"
