#!/bin/sh
# `kern devices` names the default device and where the choice came from:
# the built-in default, a config file line, or $KERN_DEVICE; a broken config
# file is an error naming path:line.  usage: devices_origin.sh KERN
set -u
K=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export XDG_CONFIG_HOME=$T KERN_CACHE_DIR=$T/cache
unset KERN_DEVICE
fail() { echo "FAIL: $*"; exit 1; }
out=$("$K" devices) || fail "kern devices exited $?"
# 'auto' picks the best device here: cpu:0 on a machine without a GPU,
# cuda:0 where there is one.
echo "$out" | grep -Eqx "default device: (cpu|cuda|opencl):[0-9]+ \('auto' from default\)" ||
  fail "default: $out"
mkdir -p "$T/kern"
printf '# chosen by hand\ndevice = cpu\n' > "$T/kern/config"
out=$("$K" devices) || fail "kern devices exited $?"
echo "$out" | grep -qx "default device: cpu:0 ('cpu' from $T/kern/config:2)" || fail "config: $out"
out=$(KERN_DEVICE=cpu:0 "$K" devices) || fail "kern devices exited $?"
echo "$out" | grep -qx "default device: cpu:0 ('cpu:0' from KERN_DEVICE)" || fail "env: $out"
printf 'device = cpu\ncolour = blue\n' > "$T/kern/config"
if "$K" devices > "$T/out" 2> "$T/err"; then fail "a bad config file was accepted"; fi
grep -q "$T/kern/config:2: unknown key 'colour'" "$T/err" || fail "message: $(cat "$T/err")"
echo ok
