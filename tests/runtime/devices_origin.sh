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
# Whatever sits at the config path must not hang or be ignored (issue 23
# item 7): a FIFO (no writer: a blocking open would wait forever), a
# directory, a NUL byte.  `timeout` turns a hang into a failure.
C=$T/kern/config
expect_err() { # WHAT MESSAGE COMMAND...
  what=$1 msg=$2; shift 2
  timeout 60 "$@" > "$T/out" 2> "$T/err"; rc=$?
  [ $rc -eq 124 ] && fail "$what: hung"
  [ $rc -eq 0 ] && fail "$what: accepted (exit 0)"
  grep -qF -- "$msg" "$T/err" || fail "$what: message: $(cat "$T/err")"
}
rm -f "$C"; mkfifo "$C"
expect_err "FIFO (devices)" "the config file '$C' is a FIFO, not a regular file" "$K" devices
printf 'import warp as wp\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    x[wp.tid()] = 1.0\n' > "$T/k.py"
expect_err "FIFO (run)" "the config file '$C' is a FIFO, not a regular file" \
  "$K" run "$T/k.py" k --dim 2 "x=zeros(float32,2)"
rm -f "$C"; mkdir "$C"
expect_err "directory" "the config file '$C' is a directory, not a regular file" "$K" devices
rmdir "$C"
printf '# ok\ndevice = c\000pu\n' > "$C"
expect_err "NUL byte" "$C:2:11: a NUL byte (a config file is text)" "$K" devices
# A line too long is still that (the NUL check does not hide it).
{ printf 'device = '; head -c 2000 /dev/zero | tr '\0' x; printf '\n'; } > "$C"
expect_err "long line" "$C:1: line is longer than 1023 bytes" "$K" devices
echo ok
