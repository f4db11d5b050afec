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

echo "1..$n"
if [ "$failed" -ne 0 ]; then
  echo "# $failed of $n checks failed"
  exit 1
fi
echo "# all $n checks passed"
exit 0
