#!/bin/sh
# Note [16-byte accesses] on Vulkan (src/emit/vulkan.c vk_vector_loop): a
# 1-D kernel whose every array access is a[tid] loads and stores each
# array 16 bytes at a time (vec4, dvec2, ivec4, uvec4, i64vec2, u64vec2).
#  - the GLSL has the vector loop for each element type, and a 2-D launch
#    or a gather keeps the scalar loop only;
#  - the results (kern run --unchecked: debug mode keeps the scalar loop)
#    equal the CPU's at sizes below, at and past a multiple of
#    the vector width (the remainder loop), on a one-group grid
#    ($KERN_VULKAN_GROUPS=1: every invocation runs many rounds) and the
#    default one.
# Needs a Vulkan device for the second part (77 without one).
KERN=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
cat >"$T/k.py" <<'PY'
import warp as wp

@wp.kernel
def f32(a: float, x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]

@wp.kernel
def f64(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    y[i] = x[i] * x[i] - wp.float64(0.5)

@wp.kernel
def i32(x: wp.array(dtype=wp.int32), y: wp.array(dtype=wp.int32)):
    i = wp.tid()
    y[i] = x[i] * 3 - i

@wp.kernel
def u32(x: wp.array(dtype=wp.uint32), y: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    y[i] = x[i] ^ wp.uint32(i)

@wp.kernel
def i64(x: wp.array(dtype=wp.int64), y: wp.array(dtype=wp.int64)):
    i = wp.tid()
    y[i] = x[i] * wp.int64(1000000007)

@wp.kernel
def u64(x: wp.array(dtype=wp.uint64), y: wp.array(dtype=wp.uint64)):
    i = wp.tid()
    y[i] = x[i] + wp.uint64(i)

@wp.kernel
def gather(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = x[(i * 7) % x.shape[0]]
PY
"$KERN" compile "$T/k.py" --target vulkan >"$T/k.glsl" || { echo "FAIL: compile"; exit 1; }
for q in "k_g4f32 { vec4 c; }" "k_g2f64 { dvec2 c; }" "k_g4i32 { ivec4 c; }" \
         "k_g4u32 { uvec4 c; }" "k_g2i64 { i64vec2 c; }" "k_g2u64 { u64vec2 c; }"; do
  grep -qF "struct $q;" "$T/k.glsl" || { echo "FAIL: no 'struct $q' in the GLSL"; fail=1; }
done
n_vec=$(grep -c 'for (int64_t k_gv = k_g; k_gv < k_nv; k_gv += k_G)' "$T/k.glsl")
[ "$n_vec" = 6 ] || { echo "FAIL: $n_vec vector loops, expected 6 (not the gather)"; fail=1; }
"$KERN" devices 2>/dev/null | grep -qE '^ +vulkan:0' || { echo "skip: no Vulkan device"; [ $fail = 0 ] && exit 77; exit 1; }
for n in 1 3 4 5 1001 4099; do
  for spec in "f32 a=2.5 x=rand(float32,$n,seed=1) y=rand(float32,$n,seed=2)" \
              "f64 x=rand(float64,$n,seed=3) y=zeros(float64,$n)" \
              "i32 x=arange(int32,$n) y=zeros(int32,$n)" \
              "u32 x=arange(uint32,$n) y=zeros(uint32,$n)" \
              "i64 x=arange(int64,$n) y=zeros(int64,$n)" \
              "u64 x=arange(uint64,$n) y=zeros(uint64,$n)" \
              "gather x=arange(float32,$n) y=zeros(float32,$n)"; do
    # shellcheck disable=SC2086
    set -- $spec
    k=$1; shift
    KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" $k --dim $n --device cpu "$@" \
      --quiet --unchecked --save y="$T/cpu.npy" >"$T/cpu.txt" 2>&1 ||
      { echo "FAIL: cpu $k n=$n"; cat "$T/cpu.txt" | head -3; fail=1; continue; }
    for g in 1 ""; do
      KERN_VULKAN_GROUPS=$g KERN_CACHE_DIR="$T/c" \
        "$KERN" run "$T/k.py" $k --dim $n --device vulkan:0 "$@" \
        --quiet --unchecked --save y="$T/vk.npy" >"$T/vk.txt" 2>&1 ||
        { echo "FAIL: vulkan $k n=$n groups=${g:-default}:"; head -3 "$T/vk.txt"; fail=1; continue; }
      # every element, bit for bit (the saved .npy files are equal)
      cmp -s "$T/cpu.npy" "$T/vk.npy" ||
        { echo "FAIL: $k n=$n groups=${g:-default}: y differs from the CPU's"; fail=1; }
    done
  done
done
# a sharded launch (two shards on vulkan:0): the second shard starts
# wherever the split falls, 16-byte aligned or not
for n in 1001 1002 4099; do
  args="a=2.5 x=rand(float32,$n,seed=1) y=rand(float32,$n,seed=2)"
  for d in cpu vulkan:0,0; do
    # shellcheck disable=SC2086
    KERN_CACHE_DIR="$T/c" "$KERN" run "$T/k.py" f32 --dim $n --device $d $args \
      --quiet --unchecked --save y="$T/sh-${d%%:*}.npy" >"$T/sh.txt" 2>&1 ||
      { echo "FAIL: sharded f32 n=$n on $d:"; head -3 "$T/sh.txt"; fail=1; }
  done
  cmp -s "$T/sh-cpu.npy" "$T/sh-vulkan.npy" ||
    { echo "FAIL: f32 n=$n on vulkan:0,0: y differs from the CPU's"; fail=1; }
done
[ $fail = 0 ] && echo "ok: 16-byte vector loops for six element types, results equal the CPU's (one device and two shards)"
exit $fail
