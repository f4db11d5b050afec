#!/bin/sh
# The conformance suite on one GPU backend in SHARDS parallel parts (the
# suite outgrew one device call run file by file: ~380 kernels, each a cold
# NVRTC or OpenCL build).  usage: conformance_sharded.sh KERN NPYCMP BACKEND [SHARDS]
# BACKEND is cuda, or a device such as opencl:1 (NVIDIA's OpenCL, as in
# gpu.sh).  Prints each shard's summary line and every failure.  CONF_DIR
# names another suite in the same format (tests/autodiff).
set -u
K=$1; NPYCMP=$2; BACKEND=$3; N=${4:-8}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
RUN=tests/conformance/run.sh
case $BACKEND in
  *:*) sed 's/--backend "\$BACKEND"/--device "$BACKEND"/' $RUN > "$T/run.sh"; RUN=$T/run.sh ;;
esac
D=${CONF_DIR:-tests/conformance}
ls "$D"/*.py | grep -v gen_expected.py > "$T/all"
split -n r/"$N" "$T/all" "$T/part."
# CONF_LOGS: a folder that keeps each shard's log (a call cut short by its
# timeout still shows which file each shard was on)
LOGD=${CONF_LOGS:-$T}; mkdir -p "$LOGD"
for p in "$T"/part.*; do
  # shellcheck disable=SC2046
  CONF_TRACE=${CONF_LOGS:+1} sh "$RUN" "$K" "$NPYCMP" "$D" "$BACKEND" $(cat "$p") > "$LOGD/${p##*/}.log" 2>&1 &
done
wait
grep -h '^conformance' "$LOGD"/part.*.log
grep -h -A12 '^FAIL\|^failed:' "$LOGD"/part.*.log | head -n 80
awk '/^conformance/ { p += $3; f += $5; s += $7 }
     END { printf "total %s: %d passed, %d failed, %d skipped by kern-skip\n", "'"$BACKEND"'", p, f, s }' "$LOGD"/part.*.log
