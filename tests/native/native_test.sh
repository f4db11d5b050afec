#!/bin/sh
# @wp.func_native and wp.address_of beyond the conformance kernels
# (tests/conformance/native_*.py) and the error tests (tests/errors/native_*):
#
#   no-native   `kern compile --no-native` and `kern run --no-native` refuse
#               a file with a snippet at the decorator, and compile it
#               without the flag
#   opencl      a module using wp.address_of is refused when loaded on
#               OpenCL, naming the call (its OpenCL C is still emitted)
#   c++         a C++-only snippet fails in the C compiler on the CPU with
#               the snippet's own line in the kernel file, and a message
#               saying snippets are C11 there; an unused such snippet is not
#               compiled at all (Warp builds only what kernels use)
#   contain     a snippet's #define cannot reach kern's code (the kernel
#               still computes the right value); an extra '}', a missing
#               '}', an unterminated comment and a snippet left open before
#               another one are compile errors, never a silently changed
#               program
#   cuda        wp.ref parameters are C++ references on CUDA, macros in C
#
# usage: native_test.sh KERN SRCDIR
set -u
KERN=$1; SRC=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kern-native.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KERN_CACHE_DIR="$tmp/cache"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# ---------------------------------------------------------------- no-native
f="$SRC/tests/conformance/native_scalars.py"
line=$(grep -n '^@wp.func_native' "$f" | head -n 1 | cut -d: -f1)
"$KERN" compile --no-native "$f" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || bad "kern compile --no-native did not fail"
want="$f:$line:1: error: @wp.func_native snippets are native code, and this compilation refuses them (--no-native)"
[ "$(sed -n 1p "$tmp/err")" = "$want" ] ||
  bad "kern compile --no-native said '$(sed -n 1p "$tmp/err")', expected '$want'"
[ -s "$tmp/out" ] && bad "kern compile --no-native printed code"
"$KERN" compile "$f" >/dev/null 2>&1 || bad "kern compile without --no-native failed"
"$KERN" run "$f" native_scalars --no-native --backend cpu --dim 1 \
  x='zeros(float32,1)' n='zeros(int32,1)' d='zeros(float64,1)' \
  out='zeros(float32,1,4)' ints='zeros(int64,1,3)' dout='zeros(float64,1)' \
  flags='zeros(bool,1)' >"$tmp/out" 2>"$tmp/err"
[ $? -ne 0 ] || bad "kern run --no-native did not fail"
grep -q "refuses them (--no-native)" "$tmp/err" || bad "kern run --no-native: $(cat "$tmp/err")"

# ---------------------------------------------------------------- opencl
# The compiler answers alike for every target (Note [target-independent
# status]); loading on OpenCL is refused, naming the first wp.address_of.
f="$SRC/tests/conformance/native_address_of.py"
line=$(grep -n 'wp.address_of' "$f" | grep -v '^[0-9]*:#' | head -n 1 | cut -d: -f1)
"$KERN" compile --target opencl "$f" >/dev/null 2>&1 || bad "address_of: OpenCL C was not emitted"
if "$KERN" devices 2>/dev/null | grep -q '^opencl: available'; then
  "$KERN" run "$f" native_address_of --backend opencl --dim 1 \
    x='zeros(float32,1)' outers='zeros(Outer,1)' out='zeros(float32,1,8)' \
    ids='zeros(int32,1,2)' >"$tmp/out" 2>"$tmp/err"
  [ $? -ne 0 ] || bad "address_of on OpenCL was not refused"
  grep -q "$f:$line:[0-9]*: wp.address_of() is not available on OpenCL" "$tmp/err" ||
    bad "address_of on OpenCL said '$(cat "$tmp/err")'"
fi

# ---------------------------------------------------------------- c++
# Runs FILE's kernel k on one float on the CPU; prints a's value or fails.
run1() {
  "$KERN" run "$1" k --backend cpu --dim 1 a='zeros(float32,1)' >"$tmp/out" 2>"$tmp/err"
}
cat >"$tmp/cpp.py" <<'EOF'
import warp as wp


@wp.func_native("""
    float &r = x;
    return r;
""")
def same(x: float) -> float: ...


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = same(2.5)
EOF
run1 "$tmp/cpp.py" && bad "a C++ snippet compiled as C"
grep -q "cpp.py:5:[0-9]*: error" "$tmp/err" || bad "the C error does not name the snippet's line 5: $(cat "$tmp/err")"
grep -q "snippets are compiled as C11 on the CPU" "$tmp/err" || bad "no word on C11 snippets: $(head -n 1 "$tmp/err")"

# the same snippet, never called: not compiled
sed 's/a\[0\] = same(2.5)/a[0] = 2.5/' "$tmp/cpp.py" >"$tmp/unused.py"
run1 "$tmp/unused.py" || bad "an unused C++ snippet broke the build: $(cat "$tmp/err")"

# ---------------------------------------------------------------- contain
# A snippet's macros come after kern's code: the kernel is unchanged.
cat >"$tmp/define.py" <<'EOF'
import warp as wp


@wp.func_native("""
    return x;
#define float int
#define kern_k_k nothing
""")
def same(x: float) -> float: ...


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = same(2.5) + 0.25
EOF
run1 "$tmp/define.py" || bad "a snippet's #define broke the build: $(cat "$tmp/err")"
grep -q '^a = \[2.75\]' "$tmp/out" || bad "a snippet's #define changed the result: $(cat "$tmp/out")"

# Malformed snippets: each must fail to compile.
for body in 'return x; }' '{ return x;' '/* return x;' '#if 1
return x;'; do
  printf 'import warp as wp\n\n\n@wp.func_native("""\n%s\n""")\ndef same(x: float) -> float: ...\n\n\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    a[0] = same(2.5)\n' "$body" >"$tmp/brace.py"
  run1 "$tmp/brace.py" && bad "the malformed snippet '$body' compiled: $(cat "$tmp/out")"
  grep -q "the C compiler failed" "$tmp/err" || bad "snippet '$body': $(head -n 3 "$tmp/err")"
done
# An open brace before another native function nests it: an error too
# (GNU C allows nested functions, but not static ones).
cat >"$tmp/nest.py" <<'EOF'
import warp as wp


@wp.func_native("if (x > 0.0f) {")
def opener(x: float): ...


@wp.func_native("return x; }")
def closer(x: float) -> float: ...


@wp.kernel
def k(a: wp.array(dtype=float)):
    opener(1.0)
    a[0] = closer(2.5)
EOF
run1 "$tmp/nest.py" && bad "a brace carried from one snippet into the next compiled"

# ---------------------------------------------------------------- cuda
f="$SRC/tests/conformance/native_ref.py"
"$KERN" compile --target cuda "$f" >"$tmp/ref.cu" || bad "native_ref.py on CUDA"
grep -q '^float &x = \*k_ref0;$' "$tmp/ref.cu" || bad "no C++ reference for a wp.ref parameter on CUDA"
"$KERN" compile --target c "$f" >"$tmp/ref.c" || bad "native_ref.py on C"
grep -q '^#define x (\*k_ref0)$' "$tmp/ref.c" || bad "no macro for a wp.ref parameter in C"
grep -q '^#undef x$' "$tmp/ref.c" || bad "the wp.ref macro is not undefined after its snippet"

[ $fail -eq 0 ] && echo "native: all checks passed"
exit $fail
