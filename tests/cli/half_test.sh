#!/bin/sh
# half_test.sh -- float16 and bfloat16 through the kern tool: SPECs,
# .npy files in and out ('<f2' for float16, '|V2' bits for bfloat16, which
# NumPy lacks) and printing.
#
#   sh half_test.sh KERN_BINARY NPYCMP_BINARY SRCDIR
set -u
KERN=$1; NPYCMP=$2; SRC=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/kern_half.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
KERN_CACHE_DIR=$T/cache
export KERN_CACHE_DIR
K=$SRC/half_kernels.py
n=0; failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; sed 's/^/#   /' "$T/err" 2>/dev/null; }

# 2049 is stored as 2048 (ties to even); the result is compared with NumPy's.
if "$KERN" run "$K" twice --dim 5 --backend cpu x='full(float16,5,2049)' s=1 \
     y='zeros(float16,5)' --save y="$T/y.npy" >"$T/out" 2>"$T/err" &&
   "$NPYCMP" "$SRC/expected_half_twice.npy" "$T/y.npy" >"$T/err" 2>&1; then
  ok "float16 SPEC, scalar and --save match NumPy's float16 file"
else bad "float16 SPEC, scalar and --save match NumPy's float16 file"; fi

# A NumPy float16 file as input, printed as NumPy prints it.
if "$KERN" run "$K" twice --dim 5 --backend cpu x="$SRC/expected_half_twice.npy" s=0.5 \
     y='zeros(float16,5)' >"$T/out" 2>"$T/err" &&
   grep -q 'y = \[8192\. 8192\. 8192\. 8192\. 8192\.\]' "$T/out"; then
  ok "float16 .npy input and printing"
else cat "$T/out" >>"$T/err"; bad "float16 .npy input and printing"; fi

# bfloat16 is saved as 2-byte void and reads back.
if "$KERN" run "$K" bf_copy --dim 3 --backend cpu x='full(bfloat16,3,257)' \
     y='zeros(bfloat16,3)' --save y="$T/b.npy" >"$T/out" 2>"$T/err" &&
   head -c 80 "$T/b.npy" | grep -q "'descr': '|V2'" &&
   "$KERN" run "$K" bf_copy --dim 3 --backend cpu x="$T/b.npy" y='zeros(bfloat16,3)' \
     >"$T/out" 2>"$T/err" && grep -q 'y = \[1024\. 1024\. 1024\.\]' "$T/out"; then
  ok "bfloat16 .npy round trip (257 -> 256, doubled twice)"
else cat "$T/out" >>"$T/err"; bad "bfloat16 .npy round trip"; fi

# A float16 file for a float32 parameter is a clear error.
if ! "$KERN" run "$K" bf_copy --dim 5 --backend cpu x="$SRC/expected_half_twice.npy" \
     y='zeros(bfloat16,5)' >"$T/out" 2>"$T/err" && grep -q "float16" "$T/err"; then
  ok "float16 file for a bfloat16 array is refused, naming the dtype"
else bad "float16 file for a bfloat16 array is refused, naming the dtype"; fi

echo "1..$n"
[ "$failed" -eq 0 ]
