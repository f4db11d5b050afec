#!/bin/sh
# Tile GEMM recognition (Note [GEMM recognition] in src/lower/check_gemm.c):
# every kernel of bench/gemm/gemm.py gets its GEMM kernel SYMBOL_wg
# in the CUDA, and kernels that differ from the pattern in one place get
# none (they keep the ordinary tile lowering).  With nvcc on PATH (or
# $NVCC), the emitted module also compiles for sm_90a with the schedule in.
#   gemm_recognize.sh KERN REPO_ROOT
set -eu
kern=$1 root=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
src=$root/bench/gemm/gemm.py
"$kern" compile --target cuda "$src" -o "$t/all.cu"
n=$(grep -c '_wg($' "$t/all.cu" || true)
[ "$n" = 6 ] || { echo "FAIL: $n GEMM kernels in $src, want 6"; exit 1; }
# Each variant breaks the pattern of the three plain 16-bit GEMMs (the
# fused kernel's tiles are FUSED_M x FUSED_N and the float32/float64 ones'
# SIMT_*, so they stay recognised unless the variant touches them too):
# WANT kernels remain.
variant() { # name want sed-expression
  sed "$3" "$src" > "$t/$1.py"
  "$kern" compile --target cuda "$t/$1.py" -o "$t/$1.cu"
  m=$(grep -c '_wg($' "$t/$1.cu" || true)
  [ "$m" = "$2" ] || { echo "FAIL: variant $1: $m kernels recognised, want $2"; exit 1; }
}
variant offset 3 's/offset=(i \* TILE_M, k \* TILE_K)/offset=(j * TILE_M, k * TILE_K)/'
variant alpha 0 's/wp.tile_matmul(a, b, acc)/wp.tile_matmul(a, b, acc, alpha=2.0)/'
variant extra 0 's/^        wp.tile_matmul(a, b, acc)$/        wp.tile_matmul(a, b, acc)\n        wp.tile_matmul(a, b, acc)/'
variant ktile 2 's/^TILE_K = wp.constant(64)/TILE_K = wp.constant(32)/'
variant fstore 5 's/wp.tile_store(C, acc, offset=(i \* TILE_M, j \* TILE_N))/wp.tile_store(C, acc, offset=(i * TILE_M, i * TILE_N))/'
# The shape not taken (TM 32) is left to the ordinary lowering too.
variant tm 3 's/^TILE_M = wp.constant(128)/TILE_M = wp.constant(32)/'
echo "recognised 6 of 6; 6 variants as expected"
NVCC=${NVCC:-$(command -v nvcc || true)}
[ -n "$NVCC" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || NVCC=/usr/local/cuda/bin/nvcc
if [ -z "$NVCC" ]; then echo "no nvcc: sm_90a compile not checked"; exit 0; fi
"$NVCC" -cubin -gencode=arch=compute_90a,code=sm_90a -Xptxas -v "$t/all.cu" -o "$t/all.cubin" 2>"$t/ptxas.txt" ||
  { cat "$t/ptxas.txt"; echo "FAIL: nvcc sm_90a"; exit 1; }
w=$(grep -c "Compiling entry function 'kern_k_.*_wg'" "$t/ptxas.txt" || true)
[ "$w" = 6 ] || { cat "$t/ptxas.txt"; echo "FAIL: $w GEMM kernels assembled, want 6"; exit 1; }
# The tensor-core schedule must not spill (its accumulators are 64-128
# registers a thread); the SIMT one trades a few spilled bytes for two
# blocks a multiprocessor (Note [SIMT GEMM]).
for k in gemm_f16 gemm_bf16 gemm_f16_f32 gemm_bias_relu; do
  if grep -A2 "'kern_k_${k}_wg'" "$t/ptxas.txt" | grep -q '[1-9][0-9]* bytes spill'; then
    cat "$t/ptxas.txt"; echo "FAIL: the tensor-core schedule of $k spills"; exit 1
  fi
done
echo "nvcc sm_90a: 6 GEMM kernels, the tensor-core ones without spills"
