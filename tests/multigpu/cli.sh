#!/bin/sh
# KERN_DEVICE lists in the CLI (issue #15): `kern run` over three shards of
# the CPU gives the one-device output (a sharded saxpy, and a reduction into
# a replicated output), `kern bench` adds a checked group row, and a
# one-device program still runs on the list's first device.
set -u
K=$1; EX=$2
export KERN_CACHE_DIR=${TMPDIR:-/tmp}/kern-multigpu-cli-cache
fail=0
for t in "saxpy --dim 1001 a=2.5 x=rand(float32,1001,seed=1) y=rand(float32,1001,seed=2)" \
         "sum_of_squares --dim 1001 x=arange(float64,1001) out=zeros(float64,1)"; do
  set -- $t
  f=$EX/$1.py
  one=$(KERN_DEVICE=cpu "$K" run "$f" "$@" -q 2>&1; "$K" run --device cpu "$f" "$@" 2>&1 | grep -v '^x = ')
  many=$(KERN_DEVICE=cpu:0,0,0 "$K" run "$f" "$@" -q 2>&1; KERN_DEVICE=cpu:0,0,0 "$K" run "$f" "$@" 2>/dev/null | grep -v '^x = ')
  if [ "$one" != "$many" ]; then
    echo "FAIL: kern run $1 over cpu:0,0,0 differs from cpu"; echo "$one" | tail -3; echo "$many" | tail -3; fail=1
  fi
  msg=$(KERN_DEVICE=cpu:0,0,0 "$K" run "$f" "$@" 2>&1 >/dev/null)
  case $msg in *"3 shards"*) ;; *) echo "FAIL: no shard note: $msg"; fail=1;; esac
done
b=$(KERN_DEVICE=cpu:0,0 "$K" bench "$EX/sum_of_squares.py" --size N=100000 --backend cpu --no-refs --budget 0.3 2>&1)
echo "$b" | grep -q 'cpu:0,0 (group) *hot' || { echo "FAIL: no group row"; echo "$b"; fail=1; }
echo "$b" | grep -qi 'failed' && { echo "FAIL: a row failed"; echo "$b"; fail=1; }
d=$(KERN_DEVICE=cpu:0,0 "$K" devices 2>&1)
echo "$d" | grep -q 'device group: 2 shards' || { echo "FAIL: kern devices shows no group"; echo "$d" | tail -3; fail=1; }
[ $fail -eq 0 ] && echo "multigpu_cli: ok"
exit $fail
