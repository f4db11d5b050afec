#!/bin/sh
# kern bench on Vulkan (issue #27): the vulkan rows run (their first launch
# is checked in debug mode, which the backend refused before), their
# outputs match the CPU's, and they are timed by device events (GPU
# timestamps, Note [vulkan device clock]).  A sum of squares whose
# float32 atomic add lavapipe has and saxpy; both with a spec whose arrays
# are too short, which must fail the vulkan row with the bounds message.
# Skips (77) without a Vulkan device.
# Usage: bench_vulkan.sh KERN SRCDIR
set -u
KERN=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache"
if ! "$KERN" devices 2>/dev/null | grep -q '^  vulkan:0'; then
  echo "skip: no Vulkan device"
  exit 77
fi
fail=0
cat >"$T/sq.py" <<'PY'
# kern-bench: sq --dim N x=rand(float32,N,seed=3) out=zeros(float32,1)
# kern-bench-sizes: N=5000
# kern-bench-check: out rtol=1e-4
# kern-bench-count: bytes=4*N flops=2*N
# kern-bench: sq --dim 64 x=rand(float32,8,seed=3) out=zeros(float32,1)
import warp as wp
@wp.kernel
def sq(x: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i] * x[i])
PY
for f in "$SRC/examples/saxpy.py" "$T/sq.py"; do
  "$KERN" bench "$f" --backend cpu,vulkan --size N=5000 --no-refs --no-peak \
    --no-cold --budget 0.05 --max-samples 20 -q --json "$T/b.json" \
    >"$T/out.txt" 2>&1 || { echo "FAIL: kern bench $f"; cat "$T/out.txt"; fail=1; }
  python3 - "$T/b.json" "$f" <<'PY' || fail=1
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["name"] == "vulkan:0"]
ok = bool(rows)
for r in rows:
    short = r["size"] == "" or "N=" not in r["size"]
    if short:  # the spec with too short arrays: the checked launch fails it
        good = r["status"] == "failed" and "out of bounds" in r["message"]
    else:
        good = (r["status"] == "ok" and r["checked"] and r["timer"] == "events"
                and r["hot"]["median_s"] > 0)
    if not good:
        print("FAIL:", sys.argv[2], json.dumps(r)[:600])
    ok = ok and good
print(("ok: " if ok else "FAIL: ") + sys.argv[2] + ": %d vulkan rows" % len(rows))
sys.exit(0 if ok else 1)
PY
done
exit $fail
