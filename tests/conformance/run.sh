#!/bin/sh
# Runs every conformance kernel with `kern run` on one backend and compares
# the checked arrays with the outputs real Warp produced (expected/*.npy).
# usage: run.sh KERN NPYCMP DIR [BACKEND] [FILE...]
#
# Without FILEs, every kernel of DIR, or with KERN_TEST_SHARD=I/N one fixed
# slice of them: the files whose position (from 0, in C-locale order) is
# I-1 modulo N.  ctest runs the slices as conformance_BACKEND_I, in
# parallel under -j, so no one test nears its timeout on a loaded machine
# (tests/CMakeLists.txt); KERN_TEST_SHARD_LIST=1 prints the slice's files
# and exits, which tests/conformance/shards_test.sh uses to prove that the
# registered slices cover every file exactly once per backend.
set -u
KERN=$1; NPYCMP=$2; DIR=$3; BACKEND=${4:-cpu}
shift 3; [ $# -gt 0 ] && shift
files="$*"
if [ -z "$files" ]; then
  files=$(LC_ALL=C ls "$DIR"/*.py | grep -v gen_expected.py)
  case ${KERN_TEST_SHARD:-} in
    "") ;;
    */*)
      si=${KERN_TEST_SHARD%/*}; sn=${KERN_TEST_SHARD#*/}
      case "$si$sn" in *[!0-9]*) echo "run.sh: bad KERN_TEST_SHARD '$KERN_TEST_SHARD'"; exit 2 ;; esac
      [ "$sn" -ge 1 ] && [ "$si" -ge 1 ] && [ "$si" -le "$sn" ] ||
        { echo "run.sh: bad KERN_TEST_SHARD '$KERN_TEST_SHARD'"; exit 2; }
      files=$(echo "$files" | awk -v i="$si" -v n="$sn" '(NR - 1) % n == i - 1') ;;
    *) echo "run.sh: bad KERN_TEST_SHARD '$KERN_TEST_SHARD' (want I/N)"; exit 2 ;;
  esac
fi
if [ -n "${KERN_TEST_SHARD_LIST:-}" ]; then
  for f in $files; do echo "$f"; done
  exit 0
fi
OUT=$(mktemp -d "${TMPDIR:-/tmp}/kern-conf.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
export KERN_CACHE_DIR="$OUT/cache"
# FRESH_CACHE=1: every file cold, in a cache of its own (tests/gpu/stress.sh);
# RUN_TIMEOUT=S: a kern run that takes longer is a failure, not a hang.
FRESH_CACHE=${FRESH_CACHE:-0}
TO=""; [ -n "${RUN_TIMEOUT:-}" ] && TO="timeout -k 5 $RUN_TIMEOUT"
# A backend this machine lacks is skipped (77), not 101 failures.
# BACKEND is a backend name ("opencl") or, in tests/gpu/gpu.sh's copy that
# passes --device, one device ("opencl:1"), listed indented under its backend.
case $BACKEND in
  *:*) pat="^[[:space:]]+$BACKEND[[:space:]]" ;;
  *) pat="^$BACKEND: available" ;;
esac
"$KERN" devices 2>/dev/null | grep -qE "$pat" ||
  { echo "skip: no $BACKEND device"; exit 77; }
pass=0; fail=0; failed=""
# kern run checks accesses by default; conformance tests the fast unchecked
# code unless KERN_DEBUG asks for debug mode (conformance_cpu_debug_I).
CHECKS=--unchecked
case ${KERN_DEBUG:-0} in 0|"") ;; *) CHECKS=--debug ;; esac
skipped=0
# Vulkan (issue #27, stage 1): the vulkan target does not cover the whole
# language yet.  A kernel it refuses ("vulkan: kernel 'K': ..." -- an
# emitter refusal or a GLSL construct it cannot spell yet) counts as
# refused, with its reason, unless vulkan_pass.txt lists it: the files
# listed there must pass, so what works cannot quietly stop working.  A
# wrong result or a crash is a failure either way.
refused=0; refused_list=""
PASS_LIST=""; XFAIL_LIST=""; xfail=0
case $BACKEND in vulkan*) PASS_LIST="$DIR/vulkan_pass.txt"; XFAIL_LIST="$DIR/vulkan_xfail.txt" ;; esac
# is_xfail STEM: listed in vulkan_xfail.txt ("stem reason..."), or as
# "stem device=WORD reason..." for the devices whose name (kern devices)
# contains WORD alone: elsewhere the file must pass like any other
# (lavapipe's float32 sin/cos are approximations, NVIDIA's match libm).
XFAIL_DEVICE=""
if [ -n "$XFAIL_LIST" ]; then
  case $BACKEND in *:*) dev=$BACKEND ;; *) dev=$BACKEND:0 ;; esac
  XFAIL_DEVICE=$("$KERN" devices 2>/dev/null | awk -v d="$dev" '$1 == d {$1 = ""; print; exit}')
fi
is_xfail() { [ -n "$XFAIL_LIST" ] && awk -v s="$1" -v dv="$XFAIL_DEVICE" '
  $1 == s { if ($2 !~ /^device=/ || index(tolower(dv), tolower(substr($2, 8)))) f = 1 }
  END {exit !f}' "$XFAIL_LIST" 2>/dev/null; }
for f in $files; do
  stem=$(basename "$f" .py)
  # CONF_TRACE: a line as each file starts (a run cut short shows where)
  [ -n "${CONF_TRACE:-}" ] && echo "start $stem $(date -u +%H:%M:%S)"
  # `# kern-skip: BACKEND (reason)` (one line per backend): a kernel the
  # backend refuses by design (tests/errors or a C test pins the refusal);
  # BACKEND "opencl" also covers "opencl:1"; "BACKEND-debug" skips it in
  # debug mode (KERN_DEBUG=1) only; "vulkan-llvmpipe" on lavapipe only
  # (a Mesa limit or build time there: NVIDIA's driver runs it).  `# kern-targets: c [vulkan]`: only
  # those targets compile it, so the other backends skip it (the CPU's
  # target is c).
  dbg=none; [ "${KERN_DEBUG:-0}" = 1 ] && dbg=${BACKEND%%:*}-debug
  drv=none; case $XFAIL_DEVICE in *llvmpipe*) drv=vulkan-llvmpipe ;; esac
  tgt=${BACKEND%%:*}; [ "$tgt" = cpu ] && tgt=c
  lim=$(sed -n 's/^# kern-targets: //p' "$f")
  if sed -n 's/^# kern-skip: \([a-z-]*\).*/\1/p' "$f" | grep -qx -e "${BACKEND%%:*}" -e "$dbg" -e "$drv" ||
     { [ -n "$lim" ] && ! echo " $lim " | grep -q " $tgt "; }; then
    skipped=$((skipped + 1)); continue
  fi
  args=$(sed -n 's/^# kern-test: //p' "$f" | head -n 1)
  checks=$(sed -n 's/^# kern-check: //p' "$f")
  saves=""
  # one --save per checked array
  for name in $(echo "$checks" | awk '{print $1}'); do
    saves="$saves --save $name=$OUT/$stem.$name.npy"
  done
  # The kern-test line is quoted as a shell command line would be.
  eval "set -- $args"
  [ "$FRESH_CACHE" = 1 ] && export KERN_CACHE_DIR="$OUT/cache-$stem"
  # shellcheck disable=SC2086
  $TO "$KERN" run "$f" "$@" $CHECKS --backend "$BACKEND" --quiet $saves >"$OUT/$stem.log" 2>"$OUT/$stem.err"
  rc=$?
  # In debug mode (conformance_vulkan_debug_I) the one documented
  # debug-only refusal (atomic exchange and compare-and-swap, Note [debug
  # mode on vulkan]) counts as refused even for a listed file; so does a
  # device that lacks a feature the file needs ("but device 'D' lacks
  # shaderBufferFloat32AtomicMinMax": the list is lavapipe's, another
  # driver may lack what lavapipe has).
  if [ $rc != 0 ] && [ -n "$PASS_LIST" ] && [ $rc -lt 128 ] &&
     grep -q "vulkan: kernel '" "$OUT/$stem.err" &&
     { ! grep -qx "$stem" "$PASS_LIST" 2>/dev/null ||
       grep -q "but device '.*' lacks " "$OUT/$stem.err" ||
       { [ -n "${KERN_DEBUG:-}" ] && grep -q "debug mode cannot check" "$OUT/$stem.err"; }; }; then
    refused=$((refused + 1)); refused_list="$refused_list $stem"
    echo "refused $stem: $(grep -m1 "vulkan: kernel '" "$OUT/$stem.err" | cut -c1-160)"
    continue
  fi
  if [ $rc != 0 ] && [ $rc -lt 128 ] && is_xfail "$stem"; then
    xfail=$((xfail + 1)); echo "known failure $stem: kern run failed (vulkan_xfail.txt)"
    continue
  fi
  if [ $rc != 0 ]; then
    if [ -n "$TO" ] && { [ $rc = 124 ] || [ $rc = 137 ]; }; then
      how="timeout after ${RUN_TIMEOUT}s"
    elif [ $rc -gt 128 ]; then
      how="signal $((rc - 128)) (SIG$(kill -l $((rc - 128)) 2>/dev/null))"
    else
      how="exit status $rc"
    fi
    echo "FAIL $stem: kern run failed: $how"; cat "$OUT/$stem.err" "$OUT/$stem.log" | sed 's/^/    /' | head -n 20
    fail=$((fail + 1)); failed="$failed $stem"; continue
  fi
  # A file with a `# kern-stdout` line also prints what Warp printed.
  if [ -f "$DIR/expected/$stem.stdout" ] && ! cmp -s "$DIR/expected/$stem.stdout" "$OUT/$stem.log"; then
    echo "FAIL $stem: what the kernel printed differs from Warp"
    diff "$DIR/expected/$stem.stdout" "$OUT/$stem.log" | head -n 20 | sed 's/^/    /'
    echo x >> "$OUT/$stem.bad"
  fi
  ok=1
  echo "$checks" | while read -r name opts; do
    [ -z "$name" ] && continue
    rtol=$(echo "$opts" | tr ' ' '\n' | sed -n 's/^rtol=//p')
    atol=$(echo "$opts" | tr ' ' '\n' | sed -n 's/^atol=//p')
    set -- "$DIR/expected/$stem.$name.npy" "$OUT/$stem.$name.npy"
    [ -n "$rtol" ] && set -- "$@" --rtol "$rtol"
    [ -n "$atol" ] && set -- "$@" --atol "$atol"
    case " $opts " in *" signed-zeros "*) set -- "$@" --signed-zeros ;; esac
    if ! "$NPYCMP" "$@" >"$OUT/$stem.$name.cmp" 2>&1; then
      tag=FAIL; is_xfail "$stem" && tag="(known) FAIL"
      echo "$tag $stem: $name differs from Warp"; sed 's/^/    /' "$OUT/$stem.$name.cmp" | head -n 8
      echo x >> "$OUT/$stem.bad"
    fi
  done
  if [ -f "$OUT/$stem.bad" ] && is_xfail "$stem"; then
    xfail=$((xfail + 1)); echo "known failure $stem (vulkan_xfail.txt: $(awk -v s="$stem" '$1 == s' "$XFAIL_LIST" | cut -d' ' -f2- | sed 's/^device=[^ ]* //' | cut -c1-100))"
  elif [ -f "$OUT/$stem.bad" ]; then
    fail=$((fail + 1)); failed="$failed $stem"
  elif is_xfail "$stem"; then
    echo "FAIL $stem: passes, but vulkan_xfail.txt lists it: remove it there"
    fail=$((fail + 1)); failed="$failed $stem"
  else
    pass=$((pass + 1))
  fi
done
echo "conformance ($BACKEND${KERN_TEST_SHARD:+, slice $KERN_TEST_SHARD}): $pass passed, $fail failed, $skipped skipped by kern-skip${PASS_LIST:+, $refused refused by the vulkan target, $xfail known failures}"
# A slice (or a DIR) with no kernel at all proves nothing.
[ $((pass + fail + skipped + refused + xfail)) -gt 0 ] || { echo "FAIL: no conformance kernel ran"; exit 1; }
[ -n "$failed" ] && echo "failed:$failed"
[ "$fail" -eq 0 ]
