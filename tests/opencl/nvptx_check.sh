#!/bin/sh
# The OpenCL that kern emits for NVIDIA devices (KERN_NV_PTX, Note [NVIDIA
# float atomics] in src/emit/opencl.c) carries inline PTX, which no
# OpenCL driver on a machine without an NVIDIA GPU compiles.  clang can:
# it compiles OpenCL C for the nvptx64-nvidia-nvcl target, so this checks
# that the inline assembly parses, type-checks and becomes the atom.global
# instructions, for every example and conformance kernel with atomics.
# Exits 77 (skipped) when clang or its NVPTX target is missing.
# Usage: nvptx_check.sh KERN SOURCE_DIR
set -u
K=$1; SRC=$2
command -v clang >/dev/null 2>&1 || { echo "clang not installed: skipped"; exit 77; }
T=$(mktemp -d /tmp/kern-nvptx.XXXXXX)
trap 'rm -rf "$T"' EXIT
echo 'kernel void k(global float *p) { p[0] = 1; }' >"$T/probe.cl"
clang -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -S "$T/probe.cl" -o "$T/probe.ptx" 2>/dev/null ||
  { echo "clang has no NVPTX target: skipped"; exit 77; }
fails=0; n=0; atoms=0
for f in "$SRC"/examples/*.py $(grep -l atomic "$SRC"/tests/conformance/*.py); do
  # only other targets (tests/conformance/README.md)
  grep -q '^# kern-targets: ' "$f" && ! grep -Eq '^# kern-targets: (.* )?opencl( |$)' "$f" && continue
  stem=$(basename "$f" .py)
  "$K" compile "$f" --target opencl >"$T/$stem.cl" 2>"$T/err" || { echo "FAIL $f: kern compile"; cat "$T/err"; fails=$((fails + 1)); continue; }
  if ! clang -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -D KERN_NV_PTX=1 -O2 -S \
       -Xclang -cl-ext=+cl_khr_fp64,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics \
       -Wno-ignored-pragmas "$T/$stem.cl" -o "$T/$stem.ptx" 2>"$T/err"; then
    echo "FAIL $f: clang (nvptx) rejects the emitted OpenCL"; head -n 20 "$T/err"; fails=$((fails + 1)); continue
  fi
  n=$((n + 1))
  # Every float atomic add helper the source uses became the instruction.
  if grep -q 'KERN_NV_PTX' "$T/$stem.cl"; then
    grep -q 'atom.global.add.f' "$T/$stem.ptx" || { echo "FAIL $f: no atom.global.add.f in the PTX"; fails=$((fails + 1)); }
    atoms=$((atoms + 1))
  fi
done
[ $atoms -gt 0 ] || { echo "FAIL: no kernel used a float atomic"; fails=$((fails + 1)); }
[ $fails = 0 ] || exit 1
echo "nvptx: $n files compiled, $atoms with native float atomics"
