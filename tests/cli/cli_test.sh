#!/bin/sh
# cli_test.sh -- end-to-end tests of the `kern` command-line tool.
#
#   sh cli_test.sh KERN_BINARY NPYCMP_BINARY SRCDIR
#
# SRCDIR is tests/cli (or the repository root).  The tests pin what scripts
# rely on: exit statuses (0 ok, 1 error, 2 bad usage), that each error
# message names the offending parameter or file, the SPEC grammar (checked
# against .npy files NumPy made, see make_expected.py), NumPy-style printing
# and .npy round trips.  Everything runs on the CPU backend, which every
# machine has, and with a private kernel cache.
#
# Output is TAP-like: one "ok"/"not ok" line per check; the exit status is
# 1 if any check failed.

set -u

if [ $# -ne 3 ]; then
  echo "usage: $0 KERN_BINARY NPYCMP_BINARY SRCDIR" >&2
  exit 2
fi
KERN=$1
NPYCMP=$2
SRC=$3
[ -f "$SRC/kernels.py" ] || SRC=$SRC/tests/cli
if [ ! -f "$SRC/kernels.py" ]; then
  echo "cli_test.sh: no kernels.py under $3" >&2
  exit 2
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/kern_cli.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

KERN_CACHE_DIR=$T/cache
KERN_DEVICE=cpu
export KERN_CACHE_DIR KERN_DEVICE

K=$SRC/kernels.py
n=0
failed=0
desc=

fail() {
  failed=$((failed + 1))
  echo "not ok $n - $desc: $1"
  if [ -s "$T/err" ]; then sed 's/^/#   stderr: /' "$T/err"; fi
}

# check DESC STATUS CMD...: runs CMD with stdout in $T/out and stderr in
# $T/err and checks its exit status.
check() {
  desc=$1
  want=$2
  shift 2
  n=$((n + 1))
  "$@" >"$T/out" 2>"$T/err"
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    fail "exit status $rc, expected $want"
  else
    echo "ok $n - $desc"
  fi
}

# Further conditions on the last check's output.
err_has() {
  grep -F -e "$1" "$T/err" >/dev/null || fail "stderr lacks '$1'"
}
out_has() {
  grep -F -e "$1" "$T/out" >/dev/null || fail "stdout lacks '$1'"
}
out_line() {
  grep -x -F -e "$1" "$T/out" >/dev/null || {
    fail "stdout has no line '$1'"
    sed 's/^/#   stdout: /' "$T/out"
  }
}
out_empty() {
  [ ! -s "$T/out" ] || fail "stdout is not empty"
}
err_empty() {
  [ ! -s "$T/err" ] || fail "stderr is not empty"
}
# The one-line "kern: error: ..." form of user errors.
err_one_line() {
  [ "$(grep -c 'kern: error: ' "$T/err")" -eq 1 ] ||
    fail "expected one 'kern: error:' line"
}

# ---------------------------------------------------------------- usage

check "no arguments is bad usage" 2 "$KERN"
err_has "--help"
check "unknown command is bad usage" 2 "$KERN" frobnicate
err_has "unknown command 'frobnicate'"
err_has "--help"
check "unknown global option is bad usage" 2 "$KERN" --frobnicate
check "--help" 0 "$KERN" --help
out_has "Usage: kern"
out_has "KERN_DEVICE"
out_has "Exit status"
check "help command" 0 "$KERN" help
out_has "Usage: kern"
check "help run" 0 "$KERN" help run
out_has "rand(T,N"
check "run --help" 0 "$KERN" run --help
out_has "zeros(T,N"
out_has "KERN_NUM_THREADS"
out_has "KERN_CACHE_DIR"
check "compile --help" 0 "$KERN" compile --help
out_has "--target"
check "devices --help" 0 "$KERN" devices --help
check "--version" 0 "$KERN" --version
out_has "kern "
check "help for an unknown command" 2 "$KERN" help frobnicate

check "run without --dim" 2 "$KERN" run "$K" scale \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1
err_has "--dim"
err_has "--help"
check "run without KERNEL" 2 "$KERN" run "$K" --dim 4
err_has "KERNEL"
check "run without FILE" 2 "$KERN" run
check "run with a malformed --dim" 2 "$KERN" run "$K" scale --dim abc \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1
check "run with --dim lacking its value" 2 "$KERN" run "$K" scale --dim
check "run with an unknown option" 2 "$KERN" run "$K" scale --dim 4 --frob
err_has "--frob"
check "run with an unknown backend" 2 "$KERN" run "$K" scale --dim 4 \
  --backend tpu 'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1
check "run with a stray argument" 2 "$KERN" run "$K" scale --dim 4 stray
err_has "stray"
check "compile without FILE" 2 "$KERN" compile
check "compile with an unknown target" 2 "$KERN" compile "$K" --target fpga

# ---------------------------------------------------------------- user errors

check "nonexistent kernel file" 1 "$KERN" run "$T/nope.py" scale --dim 4
err_has "nope.py"
err_one_line
check "compile of a nonexistent file" 1 "$KERN" compile "$T/nope.py"
err_has "nope.py"
check "unknown kernel" 1 "$KERN" run "$K" nosuchkernel --dim 4
err_has "nosuchkernel"
err_has "scale"
check "compile error" 1 "$KERN" run "$SRC/bad.py" broken --dim 4 \
  'x=zeros(float32,4)'
err_has "bad.py:7:"
err_has "error"
err_has "undefined_name"
check "compile error from kern compile" 1 "$KERN" compile "$SRC/bad.py"
err_has "bad.py:7:"

check "bad scalar SPEC" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' s=abc
err_has "parameter 's'"
err_has "abc"
err_one_line
check "integer parameter refuses 2.5" 1 "$KERN" run "$K" fill_int --dim 4 \
  'a=zeros(int32,4)' v=2.5
err_has "parameter 'v'"
err_has "not an integer"
check "integer out of range" 1 "$KERN" run "$K" fill_int --dim 4 \
  'a=zeros(int32,4)' v=3000000000
err_has "parameter 'v'"
err_has "out of range"
check "float32 out of range" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1e39
err_has "parameter 's'"
check "missing parameter" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float32,4)' 'y=zeros(float32,4)'
err_has "'s'"
err_has "missing"
check "unknown parameter" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1 z=2
err_has "'z'"
check "parameter given twice" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1 s=2
err_has "'s'"
check "array element type mismatch" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float64,4)' 'y=zeros(float32,4)' s=1
err_has "parameter 'x'"
err_has "float64"
check "array ndim mismatch" 1 "$KERN" run "$K" grid --dim 3,4 \
  'm=zeros(float32,12)'
err_has "parameter 'm'"
check "arange is 1-d only" 1 "$KERN" run "$K" grid --dim 3,4 \
  'm=arange(float32,3,4)'
err_has "parameter 'm'"
check "unknown type in SPEC" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(floot32,4)' 'y=zeros(float32,4)' s=1
err_has "floot32"
check "full needs a value" 1 "$KERN" run "$K" scale --dim 4 \
  'x=full(float32,4)' 'y=zeros(float32,4)' s=1
err_has "parameter 'x'"
check "bad rand seed" 1 "$KERN" run "$K" scale --dim 4 \
  'x=rand(float32,4,seed=-1)' 'y=zeros(float32,4)' s=1
err_has "parameter 'x'"
check "array SPEC for a value parameter" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' 's=zeros(float32,4)'
err_has "parameter 's'"
check "number for an array parameter" 1 "$KERN" run "$K" scale --dim 4 \
  x=3 'y=zeros(float32,4)' s=1
err_has "parameter 'x'"
check "vector with too few components" 1 "$KERN" run "$K" add_vec --dim 4 \
  'a=zeros(vec3,4)' b=1,2
err_has "parameter 'b'"
err_has "3"
check "missing .npy file" 1 "$KERN" run "$K" scale --dim 4 \
  "x=$T/missing.npy" 'y=zeros(float32,4)' s=1
err_has "missing.npy"
err_has "parameter 'x'"
check "Fortran-order .npy" 1 "$KERN" run "$K" grid --dim 2,4 \
  "m=$SRC/fortran_order.npy"
err_has "fortran_order.npy"
err_has "fortran"
check "unavailable device is an error, not a fallback" 1 "$KERN" run "$K" \
  scale --dim 4 --device cuda:99 'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1
check "--save of an unknown parameter" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1 --save "w=$T/w.npy"
err_has "'w'"
check "--save of a value parameter" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1 --save "s=$T/s.npy"
err_has "'s'"

# ---------------------------------------------------------------- success

check "devices" 0 "$KERN" devices
out_has "cpu: available"
out_has "fp64 yes, int64 atomics yes, warp 1, max group 1, driver "
out_has "cuda: "
out_has "opencl: "

check "compile to stdout" 0 "$KERN" compile "$K" --target c
[ -s "$T/out" ] || fail "no generated code"
check "compile -o" 0 "$KERN" compile "$K" --target c -o "$T/gen.c"
out_empty
[ -s "$T/gen.c" ] || fail "no $T/gen.c"
[ ! -e "$T/gen.c.tmp" ] || fail "left $T/gen.c.tmp behind"
# the adjoint and the tangent of a kernel, as kern run --adjoint/--tangent
# launches them (kern_compile_source's TARGET+adjoint:K)
check "compile --adjoint" 0 "$KERN" compile "$K" --adjoint scale
out_has "kern_k_scale_adj("
out_has "p3_adj_x"
check "compile --tangent for cuda" 0 "$KERN" compile "$K" --tangent scale -t cuda
out_has "p4_tan_y"
check "compile --adjoint of no such kernel" 1 "$KERN" compile "$K" --adjoint nope
err_has "no kernel 'nope' to differentiate"
check "compile --adjoint and --tangent" 2 "$KERN" compile "$K" --adjoint scale --tangent scale
check "compile --adjoint for ptx" 2 "$KERN" compile "$K" --adjoint scale -t ptx
cat > "$T/nobw.py" <<'PY'
import warp as wp


@wp.kernel(enable_backward=False)
def k(a: wp.array(dtype=float)):
    a[wp.tid()] = 2.0 * a[wp.tid()]
PY
check "compile --adjoint of enable_backward=False" 1 "$KERN" compile "$T/nobw.py" --adjoint k
err_has "nobw.py:5:5: error: kernel 'k' is compiled with enable_backward=False"
# a float carried by a loop inside a @wp.func: Warp's adjoint (Note [loops
# in functions] in src/ir/adjoint.c; its values: tests/autodiff/func_loop.py)
cat > "$T/funcloop.py" <<'PY'
import warp as wp


@wp.func
def powish(x: float, n: int):
    p = float(1.0)
    for k in range(n):
        p = p * x
    return p


@wp.kernel
def k(a: wp.array(dtype=float), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    out[i] = powish(a[i], n) * a[i]
PY
check "compile --adjoint of a loop in a @wp.func" 0 "$KERN" compile "$T/funcloop.py" --adjoint k
check "compile --tangent of a loop in a @wp.func" 0 "$KERN" compile "$T/funcloop.py" --tangent k
check "compile -o into a missing directory" 1 "$KERN" compile "$K" \
  -o "$T/no/such/dir/gen.c"
err_has "$T/no/such/dir/gen.c"

check "run prints arrays NumPy-style" 0 "$KERN" run "$K" scale --dim 4 \
  'x=arange(float32,4)' 'y=zeros(float32,4)' s=2
out_line "x = [0. 1. 2. 3.]"
out_line "y = [0. 2. 4. 6.]"
check "scalar SPEC forms: hex, exponent, wp. prefix" 0 "$KERN" run "$K" \
  scale --dim 4 'x=ones(wp.float32,4)' 'y=zeros(float32,4)' s=0x10
out_line "y = [16. 16. 16. 16.]"
check "full() and a float exponent" 0 "$KERN" run "$K" scale --dim 3 \
  'x=full(float32,3,4)' 'y=zeros(float32,3)' s=5e-1
out_line "y = [2. 2. 2.]"
check "--quiet prints nothing" 0 "$KERN" run "$K" scale --dim 4 \
  'x=arange(float32,4)' 'y=zeros(float32,4)' s=2 --quiet
out_empty
err_empty

check "--save writes .npy" 0 "$KERN" run "$K" scale --dim 8 \
  'x=arange(float32,8)' 'y=zeros(float32,8)' s=2 \
  --save "y=$T/y.npy" --save "x=$T/x.npy"
out_empty
check "saved y matches NumPy" 0 "$NPYCMP" "$SRC/expected_scale.npy" "$T/y.npy"
check "a saved .npy feeds back in" 0 "$KERN" run "$K" scale --dim 8 \
  "x=$T/y.npy" 'y=zeros(float32,8)' s=0.5 --save "y=$T/y2.npy" -q
check "round trip gives x back" 0 "$NPYCMP" "$T/x.npy" "$T/y2.npy"
check "make a truncated copy" 0 sh -c \
  "head -c 100 '$T/y.npy' > '$T/trunc.npy'"
check "truncated .npy" 1 "$KERN" run "$K" scale --dim 8 \
  "x=$T/trunc.npy" 'y=zeros(float32,8)' s=1
err_has "trunc.npy"
err_has "parameter 'x'"
check "a .npy of the wrong shape is refused" 1 "$KERN" run "$K" add_vec \
  --dim 8 "a=$T/y.npy" b=0,0,0
err_has "parameter 'a'"

check "rand float64 with a seed" 0 "$KERN" run "$K" copy64 --dim 5 \
  'x=rand(float64,5,seed=7)' 'y=zeros(float64,5)' --save "y=$T/r64.npy" -q
check "rand float64 matches the definition" 0 "$NPYCMP" \
  "$SRC/expected_rand_f64_seed7.npy" "$T/r64.npy" --rtol 0 --atol 0
check "rand float32, default seed" 0 "$KERN" run "$K" scale --dim 6 \
  'x=rand(float32,6)' 'y=zeros(float32,6)' s=1 --save "x=$T/r32.npy" -q
check "rand float32 matches the definition" 0 "$NPYCMP" \
  "$SRC/expected_rand_f32_seed0.npy" "$T/r32.npy" --rtol 0 --atol 0

check "vec3 arrays and a vec3 value" 0 "$KERN" run "$K" add_vec --dim 4 \
  'a=arange(vec3,4)' b=1,2,3 --save "a=$T/v.npy"
check "vec3 result" 0 "$NPYCMP" "$SRC/expected_add_vec.npy" "$T/v.npy"
check "vec3 .npy feeds back in" 0 "$KERN" run "$K" add_vec --dim 4 \
  "a=$T/v.npy" b=0,0,0 -q
check "2-d launch on a 2-d array" 0 "$KERN" run "$K" grid --dim 3,4 \
  'm=zeros(float32,3,4)' --save "m=$T/g.npy"
check "2-d result" 0 "$NPYCMP" "$SRC/expected_grid.npy" "$T/g.npy"
check "negative hex integer" 0 "$KERN" run "$K" fill_int --dim 5 \
  'a=zeros(int32,5)' v=-0x10 --save "a=$T/i.npy"
check "int32 result" 0 "$NPYCMP" "$SRC/expected_fill_int.npy" "$T/i.npy"
check "--device cpu" 0 "$KERN" run "$K" fill_int --dim 3 --device cpu \
  'a=zeros(int32,3)' v=7
out_line "a = [7 7 7]"
check "--backend cpu with KERN_DEVICE unset" 0 \
  sh -c 'unset KERN_DEVICE; exec "$@"' sh "$KERN" run "$K" fill_int --dim 3 --backend cpu 'a=zeros(int32,3)' v=7

# ---------------------------------------------------------------- checked by default

# The issue's first-hour case: an array too small for the grid.  Unchecked
# this hangs, aborts or segfaults; kern run must fail with a message.
for b in cpu opencl; do
  if [ $b = opencl ] && ! "$KERN" devices 2>/dev/null | grep -q "^opencl: available"; then
    echo "# no OpenCL device: skipping the OpenCL out-of-bounds check"
    continue
  fi
  check "out of bounds is caught by default ($b)" 1 "$KERN" run \
    "$SRC/../../examples/saxpy.py" saxpy --dim 1000 a=2 'x=ones(float32,4)' \
    'y=zeros(float32,1000)' --backend $b
  err_has "out of bounds"
  err_has "saxpy.py:"
  err_has "array 'x'"
  err_one_line
done
check "--debug is still accepted" 1 "$KERN" run "$SRC/../../examples/saxpy.py" \
  saxpy --dim 8 a=2 'x=ones(float32,4)' 'y=zeros(float32,8)' --debug
err_has "out of bounds"
check "--unchecked runs an in-bounds launch" 0 "$KERN" run "$K" scale --dim 4 \
  'x=arange(float32,4)' 'y=zeros(float32,4)' s=2 --unchecked
out_line "y = [0. 2. 4. 6.]"
check "--unchecked wins over KERN_DEBUG" 0 env KERN_DEBUG=1 "$KERN" run "$K" \
  scale --dim 4 'x=arange(float32,4)' 'y=zeros(float32,4)' s=2 --unchecked
check "unchecked code has no bounds checks" 0 sh -c \
  "'$KERN' compile '$K' > '$T/plain.c' && '$KERN' compile '$K' --debug > '$T/dbg.c' && ! cmp -s '$T/plain.c' '$T/dbg.c'"
check "run --help says checks are the default" 0 "$KERN" run --help
out_has "checked by default"
out_has "--unchecked"

# ---------------------------------------------------------------- Warp-style values

check "value as wp.vec3(...)" 0 "$KERN" run "$K" add_vec --dim 2 \
  'a=zeros(vec3,2)' 'b=wp.vec3(0,-9.8,0)'
out_line "     [ 0.  -9.8  0. ]]"
check "value as a tuple with spaces" 0 "$KERN" run "$K" add_vec --dim 2 \
  'a=zeros(vec3,2)' 'b=(0, -9.8, 0)'
out_line "     [ 0.  -9.8  0. ]]"
check "value as vec3(...) without wp." 0 "$KERN" run "$K" add_vec --dim 2 \
  'a=zeros(vec3,2)' 'b=vec3(1,2,3)'
out_line "     [1. 2. 3.]]"
check "scalar as wp.float32(...)" 0 "$KERN" run "$K" scale --dim 2 \
  'x=ones(float32,2)' 'y=zeros(float32,2)' 's=wp.float32(3)'
out_line "y = [3. 3.]"
check "constructor of the wrong type" 1 "$KERN" run "$K" add_vec --dim 2 \
  'a=zeros(vec3,2)' 'b=wp.vec2(0,1)'
err_has "parameter 'b'"
err_has "vec2"
check "tuple with the wrong count" 1 "$KERN" run "$K" add_vec --dim 2 \
  'a=zeros(vec3,2)' 'b=(0,1)'
err_has "parameter 'b'"
err_has "3 comma-separated components"
check "unbalanced parentheses in a value" 1 "$KERN" run "$K" add_vec \
  --dim 2 'a=zeros(vec3,2)' 'b=(0,1,2'
err_has "unbalanced"

# ---------------------------------------------------------------- output files

mkdir "$T/ro" && chmod 555 "$T/ro"
if [ "$(id -u)" -ne 0 ]; then
  check "--save into an unwritable directory fails before the launch" 1 \
    "$KERN" run "$SRC/../../examples/saxpy.py" saxpy --dim 8 a=2 \
    'x=ones(float32,4)' 'y=zeros(float32,8)' --save "y=$T/ro/y.npy"
  err_has "'$T/ro/y.npy'"
  err_has "Permission denied"
fi
# A missing directory fails for root too.  The launch would fail with an
# out-of-bounds report; getting the --save error instead shows it came first.
check "--save into a missing directory fails before the launch" 1 \
  "$KERN" run "$SRC/../../examples/saxpy.py" saxpy --dim 8 a=2 \
  'x=ones(float32,4)' 'y=zeros(float32,8)' --save "y=$T/none/y.npy"
err_has "cannot write '$T/none/y.npy'"
err_one_line
grep -q "out of bounds" "$T/err" && fail "the launch ran before the --save check"
grep -q "XXXXXX\|\.tmp" "$T/err" && fail "the message names a temporary file"
check "--save onto a directory fails before the launch" 1 "$KERN" run "$K" \
  scale --dim 4 'x=zeros(float32,4)' 'y=zeros(float32,4)' s=1 --save "y=$T"
err_has "'$T'"

# Issue #8 item 7: a link planted at the old fixed temporary name must not
# be followed, for -o and for --save.
echo precious > "$T/victim"
ln -s "$T/victim" "$T/planted.c.tmp"
ln -s "$T/victim" "$T/planted.npy.tmp"
check "compile -o next to a planted OUT.tmp link" 0 "$KERN" compile "$K" \
  -o "$T/planted.c"
check "run --save next to a planted OUT.tmp link" 0 "$KERN" run "$K" scale \
  --dim 4 'x=ones(float32,4)' 'y=zeros(float32,4)' s=1 \
  --save "y=$T/planted.npy"
check "the link's target is untouched" 0 grep -qx precious "$T/victim"
check "the links are still links" 0 test -L "$T/planted.c.tmp" -a \
  -L "$T/planted.npy.tmp"
check "the outputs are regular files" 0 test -f "$T/planted.c" -a \
  ! -L "$T/planted.c" -a -f "$T/planted.npy" -a ! -L "$T/planted.npy"
# A link at the destination itself is replaced, not written through.
ln -s "$T/victim" "$T/linked.c"
check "compile -o onto a link" 0 "$KERN" compile "$K" -o "$T/linked.c"
check "the link's target is still untouched" 0 grep -qx precious "$T/victim"
check "no temporaries are left behind" 0 sh -c \
  "! ls -A '$T' | grep -q '^\.planted\|^\.linked\|^\.gen'"
check "outputs get ordinary permissions" 0 sh -c \
  "umask 022 && '$KERN' compile '$K' -o '$T/perm.c' && [ \"\$(stat -c %a '$T/perm.c')\" = 644 ]"

# ---------------------------------------------------------------- did you mean

check "misspelled kernel" 1 "$KERN" run "$K" scal --dim 4
err_has "did you mean 'scale'?"
check "misspelled parameter" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(float32,4)' 'y=zeros(float32,4)' ss=1
err_has "did you mean 's'?"
check "misspelled SPEC function" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zero(float32,4)' 'y=zeros(float32,4)' s=1
err_has "did you mean 'zeros'?"
check "misspelled type" 1 "$KERN" run "$K" scale --dim 4 \
  'x=zeros(flaot32,4)' 'y=zeros(float32,4)' s=1
err_has "did you mean 'float32'?"
check "misspelled option" 2 "$KERN" run "$K" scale --dim 4 --unchekced
err_has "did you mean '--unchecked'?"
check "misspelled command" 2 "$KERN" compiel "$K"
err_has "did you mean 'compile'?"
check "no suggestion for an unrelated name" 1 "$KERN" run "$K" zzzzzz --dim 4
grep -q "did you mean" "$T/err" && fail "suggested something for zzzzzz"
check "misspelled builtin" 1 "$KERN" compile "$SRC/typo_builtin.py"
err_has "did you mean 'wp.sqrt'?"

# ---------------------------------------------------------------- help

# Every example in the help texts runs as pasted into a shell (from the
# repository root, with 'kern' on the PATH).
mkdir "$T/ex" "$T/bin" && ln -s "$SRC/../../examples" "$T/ex/examples" &&
  ln -s "$(cd "$(dirname "$KERN")" && pwd)/$(basename "$KERN")" "$T/bin/kern"
for c in run compile; do
  "$KERN" help $c | awk '
    /^Examples/ { on = 1; next }
    on && /^$/ { exit }
    on { line = line $0; if (line ~ /\\$/) { sub(/\\$/, "", line); next }
         print line; line = "" }' > "$T/ex/$c.sh"
  check "'kern help $c' has examples" 0 test -s "$T/ex/$c.sh"
  check "'kern help $c' examples run as pasted" 0 sh -c \
    "cd '$T/ex' && PATH='$T/bin':\$PATH KERN_DEVICE=cpu sh -e '$T/ex/$c.sh'"
done
check "kern help help" 0 "$KERN" help help
out_has "Usage: kern"

# ---------------------------------------------------------------- npycmp

check "npycmp: equal files" 0 "$NPYCMP" "$SRC/expected_grid.npy" \
  "$SRC/expected_grid.npy"
check "npycmp: different values" 1 "$NPYCMP" "$SRC/expected_scale.npy" \
  "$T/x.npy"
out_has "mismatch at [1]"
check "npycmp: different dtypes" 1 "$NPYCMP" "$SRC/expected_scale.npy" \
  "$T/i.npy"
out_has "dtype"
check "npycmp: unreadable file" 2 "$NPYCMP" "$T/none.npy" "$T/x.npy"

# ---------------------------------------------------------------- generic kernels at launch

# No wp.overload(): kern run instantiates the kernel from the SPECs' types
# (Note [launch instantiation] in tools/kern.c), and says which parameter
# it cannot type.
cat > "$T/gen.py" <<'PY'
from typing import Any
import warp as wp

@wp.kernel
def twice(a: wp.array(dtype=Any), s: Any, out: wp.array(dtype=Any)):
    i = wp.tid()
    out[i] = a[i] * type(a[i])(s) + a[i]
PY
check "generic kernel instantiated at launch (float64)" 0 "$KERN" run \
  "$T/gen.py" twice --dim 3 'a=full(float64,3,2.5)' s=3.0 'out=zeros(float64,3)'
out_has "out = [10. 10. 10.]"
check "generic kernel instantiated at launch (int32)" 0 "$KERN" run \
  "$T/gen.py" twice --dim 3 'a=full(int32,3,2)' s=3 'out=zeros(int32,3)'
out_has "out = [8 8 8]"
check "a generic parameter's type cannot be told from a vector" 1 "$KERN" run \
  "$T/gen.py" twice --dim 3 'a=full(float32,3,2)' s=1,2,3 'out=zeros(float32,3)'
err_has "its parameter 's' cannot be told from '1,2,3'"
# Typed values, .npy files and structs tell their types, as the Python
# values do to wp.launch (src/cli/spec_generic.c); what Warp cannot infer
# either is refused with what to write.
check "a typed value instantiates the generic kernel" 0 "$KERN" run \
  "$T/gen.py" twice --dim 3 'a=full(float64,3,2)' 's=float64(0.5)' 'out=zeros(float64,3)'
out_has "out = [3. 3. 3.]"
"$KERN" run "$T/gen.py" twice --dim 3 'a=full(int16,3,-4)' s=1 \
  "out=zeros(int16,3)" --save "out=$T/gen_i16.npy" --quiet
check "a .npy file instantiates the generic kernel with its dtype" 0 "$KERN" run \
  "$T/gen.py" twice --dim 3 "a=$T/gen_i16.npy" 's=int16(3)' 'out=zeros(int16,3)'
out_has "out = [-32 -32 -32]"
check "a .npy file of another dimension fits no instantiation" 1 "$KERN" run \
  "$T/gen.py" twice --dim 3 "a=$SRC/../conformance/data/generic_a.npy" s=1.0 \
  'out=zeros(float64,3)'
err_has "'a'"
cat > "$T/gens.py" <<'PY'
from typing import Any
import warp as wp

@wp.struct
class P:
    k: float

@wp.kernel
def use(p: Any, out: wp.array(dtype=float)):
    out[wp.tid()] = p.k
PY
check "a struct SPEC without its name is refused" 1 "$KERN" run \
  "$T/gens.py" use --dim 2 'p={k=2}' 'out=zeros(float32,2)'
err_has "write S{...} with the struct's name"
check "a struct SPEC with its name instantiates the kernel" 0 "$KERN" run \
  "$T/gens.py" use --dim 2 'p=P{k=2}' 'out=zeros(float32,2)'
out_has "out = [2. 2.]"
check "a struct SPEC naming a struct the file lacks" 1 "$KERN" run \
  "$T/gens.py" use --dim 2 'p=Q{k=2}' 'out=zeros(float32,2)'
err_has "Q"
# wp.breakpoint() reached on the CPU traps, as Warp's CPU build does
# (SIGTRAP: 128 + 5 from the shell), where a debugger would stop.
check "wp.breakpoint() traps on the CPU" 133 "$KERN" run \
  "$SRC/../conformance/breakpoint_untaken.py" breakpoint_untaken --dim 4 \
  'out=zeros(int32,4)' n=2 --backend cpu
check "arguments that fit no instantiation name the parameter" 1 "$KERN" run \
  "$T/gen.py" twice --dim 3 'a=full(float32,3,2,2)' s=1.0 'out=zeros(float32,3)'
err_has "parameter 1 'a' of 'twice' is a 1-d array"

echo "1..$n"
if [ "$failed" -ne 0 ]; then
  echo "# $failed of $n checks failed"
  exit 1
fi
echo "# all $n checks passed"
exit 0
