#!/bin/sh
# Note [precise: no contraction] (src/emit/vulkan.c): the vulkan target's
# float arithmetic must not be contracted into fma by the driver (NVIDIA's
# does; Warp's goldens and kern's other targets never contract). Checked
# on the GLSL the run-7 NVIDIA failures emit, without a GPU:
#  - every float/double/struct declaration at a line start is `precise`;
#    a bool variable's too (a comparison that decides a branch: svd3's
#    Jacobi rotation, NVIDIA's linalg_svd3 signs);
#  - sqrt is k_fsqrt, and no float32 division is spelled `/` (k_fdiv);
#  - where glslangValidator and spirv-dis exist, no OpFMul feeding an
#    OpFAdd/OpFSub or a float comparison of each kernel's SPIR-V lacks
#    NoContraction on both.
KERN=$1; SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
for f in conversions vecmath_length_normalize lang_wd_inverse_regular lang_wd_inverse_infinite \
         lang_func_overload_types lang_func_overload_vectors linalg_svd2_f64 \
         linalg_svd3 linalg_eig3; do
  "$KERN" compile "$SRC/tests/conformance/$f.py" --target vulkan >"$T/$f.glsl" || {
    echo "FAIL $f: kern compile --target vulkan failed"; fail=1; continue; }
  bare=$(grep -nE '^ *(const )?(float|double) [A-Za-z_][A-Za-z0-9_]* *[=;,(\[]|^ *bool [A-Za-z_][A-Za-z0-9_]* *[=;,\[]' "$T/$f.glsl")
  if [ -n "$bare" ]; then
    echo "FAIL $f: float declarations without precise:"; echo "$bare" | head -5; fail=1
  fi
  grep -q '^ *precise ' "$T/$f.glsl" || { echo "FAIL $f: no precise at all"; fail=1; }
  # Note [correctly rounded division and sqrt]: float32 quotients go
  # through k_fdiv, roots through k_fsqrt
  grep -q '^#define sqrt k_fsqrt$' "$T/$f.glsl" || { echo "FAIL $f: sqrt is the driver's"; fail=1; }
  bare=$(grep -nE 'float\([^()]*\) / |[0-9]f / | / float\(' "$T/$f.glsl")
  if [ -n "$bare" ]; then
    echo "FAIL $f: float32 division not through k_fdiv:"; echo "$bare" | head -5; fail=1
  fi
  if command -v glslangValidator >/dev/null 2>&1 && command -v spirv-dis >/dev/null 2>&1; then
    for k in $(sed -n 's/^void \(kern_[A-Za-z0-9_]*\)() {$/\1/p' "$T/$f.glsl"); do
      glslangValidator -V -S comp -DKERN_MAIN=$k "$T/$f.glsl" -o "$T/$k.spv" >"$T/log" 2>&1 || {
        echo "FAIL $f/$k: glslang:"; tail -5 "$T/log"; fail=1; continue; }
      spirv-dis "$T/$k.spv" >"$T/$k.dis"
      # a product feeding a sum or a comparison (a driver may compare
      # a - b with 0): neither decorated is a contraction the driver may
      # make
      left=$(awk '/OpDecorate .* NoContraction$/ { nc[$2] = 1 }
                  / = Op(FMul|VectorTimesScalar) / { mul[$1] = 1 }
                  / = Op(FAdd|FSub|FOrd[A-Za-z]*|FUnord[A-Za-z]*) / { if (!($1 in nc)) for (i = 5; i <= NF; i++)
                      if (($i in mul) && !($i in nc)) printf "%s(%s) ", $1, $i }' "$T/$k.dis")
      if [ -n "$left" ]; then
        echo "FAIL $f/$k: contractible a*b+c without NoContraction: $(echo $left | head -c 200)"; fail=1
      fi
      checked=1
    done
  fi
done
[ $fail = 0 ] && echo "precise: ok${checked:+ (SPIR-V checked)}"
exit $fail
