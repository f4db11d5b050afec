#!/bin/sh
# shards_test.sh -- the sharded suites cover every file exactly once.
#
#   shards_test.sh CTEST BUILD_DIR SRCDIR
#
# The long suites run as fixed slices that ctest -j runs side by side
# (issue 23: conformance_opencl as one test hit its 900 s timeout on a busy
# 2-core machine): conformance_{cpu,opencl,cpu_debug}_I and
# cuda_emitted_nvrtc_I take KERN_TEST_SHARD=I/N (tests/conformance/run.sh,
# tests/cuda/emit_check.sh), synth_warp_diff_DEVICE_I takes I/K as an
# argument.  This reads what ctest has registered (ctest -N -V: each test's
# command and environment) and checks, per suite:
#   - every file the unsliced suite runs is in exactly one registered slice
#     (run.sh and emit_check.sh print a slice with KERN_TEST_SHARD_LIST=1);
#   - each of cpu, opencl, vulkan and cpu in debug mode has its suite,
#     of tests/conformance and of tests/autodiff (autodiff_SUITE_I);
#   - synth_warp_diff's shards of each device are 0..K-1, once each.
set -u
CTEST=$1 BUILD=$2 SRC=$3
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

# One line per test: NAME<TAB>ARGS<TAB>ENV, ARGS the quoted arguments of its
# command, space-separated.
"$CTEST" --test-dir "$BUILD" -N -V >"$T/raw" 2>&1 || { cat "$T/raw"; echo "FAIL: ctest -N -V"; exit 1; }
awk '
  /^[0-9]+: Test command: / {
    n = $1; sub(":", "", n); line = $0; args = ""
    k = split(line, q, "\"")
    for (j = 2; j <= k; j += 2) args = args (args == "" ? "" : " ") q[j]
    cmd[n] = args; next }
  /^[0-9]+:  [A-Z_]+=/ { n = $1; sub(":", "", n); env[n] = env[n] " " $2; next }
  /^ *Test +#[0-9]+: / { n = $2; sub("#", "", n); sub(":", "", n)
    printf "%s\t%s\t%s\n", $3, cmd[n], env[n] }
' "$T/raw" >"$T/tests"
grep -q '^conformance_' "$T/tests" || { echo "FAIL: no conformance test registered"; cat "$T/raw" | head; exit 1; }

# check_slices SUITE SCRIPT ARGS... : the tests named SUITE_<n> (their env
# gives the slice) together list each file of the unsliced run once.
check_slices() {
  suite=$1; shift
  grep "^${suite}_[0-9]*	" "$T/tests" >"$T/$suite.tests"
  [ -s "$T/$suite.tests" ] || { fail "$suite: no slice registered"; return; }
  env -u KERN_TEST_SHARD KERN_TEST_SHARD_LIST=1 sh "$@" >"$T/$suite.all" ||
    { fail "$suite: cannot list its files"; return; }
  [ -s "$T/$suite.all" ] || { fail "$suite: the unsliced suite lists no file"; return; }
  : >"$T/$suite.got"
  while IFS='	' read -r name args envs; do
    shard=$(echo "$envs" | tr ' ' '\n' | sed -n 's/^KERN_TEST_SHARD=//p')
    [ -n "$shard" ] || { fail "$name has no KERN_TEST_SHARD: it runs the whole suite again"; continue; }
    KERN_TEST_SHARD=$shard KERN_TEST_SHARD_LIST=1 sh "$@" >>"$T/$suite.got" ||
      fail "$name: cannot list slice $shard"
  done <"$T/$suite.tests"
  sort "$T/$suite.all" >"$T/a"; sort "$T/$suite.got" >"$T/g"
  dup=$(uniq -d "$T/g")
  [ -z "$dup" ] || fail "$suite: in more than one slice: $(echo $dup)"
  miss=$(sort -u "$T/g" | comm -23 "$T/a" -)
  [ -z "$miss" ] || fail "$suite: in no slice: $(echo $miss)"
  extra=$(sort -u "$T/g" | comm -13 "$T/a" -)
  [ -z "$extra" ] || fail "$suite: not in the suite: $(echo $extra)"
  echo "$suite: $(wc -l <"$T/$suite.tests") slices, $(wc -l <"$T/a") files, each once"
}

RUN="$SRC/tests/conformance/run.sh"
# Every kernel of tests/conformance is in the unsliced list.
n_py=$(ls "$SRC"/tests/conformance/*.py | grep -vc gen_expected.py)
n_run=$(KERN_TEST_SHARD_LIST=1 sh "$RUN" k n "$SRC/tests/conformance" cpu | wc -l)
[ "$n_py" -eq "$n_run" ] || fail "run.sh lists $n_run of $n_py conformance kernels"

for suite in conformance_cpu conformance_opencl conformance_cpu_debug conformance_vulkan; do
  backend=${suite#conformance_}; backend=${backend%_debug}
  # The tests run the backend and the debug mode their names say.
  grep "^${suite}_[0-9]*	" "$T/tests" | while IFS='	' read -r name args envs; do
    last=${args##* }
    [ "$last" = "$backend" ] || echo "FAIL: $name runs backend '$last', not $backend"
    case "$suite:$envs" in
      *_debug:*KERN_DEBUG=1*|conformance_cpu:*|conformance_opencl:*|conformance_vulkan:*) ;;
      *) echo "FAIL: $name does not set KERN_DEBUG=1" ;;
    esac
    case "$suite:$envs" in
      conformance_cpu:*KERN_DEBUG=*|conformance_opencl:*KERN_DEBUG=*|conformance_vulkan:*KERN_DEBUG=*) echo "FAIL: $name sets KERN_DEBUG" ;;
    esac
  done >"$T/names"
  [ -s "$T/names" ] && { cat "$T/names"; bad=1; }
  check_slices "$suite" "$RUN" k n "$SRC/tests/conformance" "$backend"
done

# The gradient suites (tests/autodiff/CMakeLists.txt), the same way.
for suite in autodiff_cpu autodiff_cpu_debug autodiff_opencl autodiff_vulkan; do
  backend=${suite#autodiff_}; backend=${backend%_debug}
  grep "^${suite}_[0-9]*	" "$T/tests" | while IFS='	' read -r name args envs; do
    [ "${args##* }" = "$backend" ] || echo "FAIL: $name runs backend '${args##* }', not $backend"
    case "$suite:$envs" in
      *_debug:*KERN_DEBUG=1*) ;;
      *_debug:*) echo "FAIL: $name does not set KERN_DEBUG=1" ;;
      *:*KERN_DEBUG=*) echo "FAIL: $name sets KERN_DEBUG" ;;
    esac
  done >"$T/names"
  [ -s "$T/names" ] && { cat "$T/names"; bad=1; }
  check_slices "$suite" "$RUN" k n "$SRC/tests/autodiff" "$backend"
done

# NVRTC over the emitted CUDA (not registered in the sanitizer build).
if grep -q '^cuda_emitted_nvrtc' "$T/tests"; then
  check_slices cuda_emitted_nvrtc "$SRC/tests/cuda/emit_check.sh" k c "$SRC"
fi

# synth_warp_diff: per device, shards 0..K-1 of the same K, once each.
grep '^synth_warp_diff_' "$T/tests" | while IFS='	' read -r name args envs; do
  set -- $args
  [ $# -ge 4 ] && echo "$3 $4" || echo "$3 whole"
done | sort >"$T/wd"
[ -s "$T/wd" ] || fail "no synth_warp_diff test registered"
for dev in $(awk '{print $1}' "$T/wd" | sort -u); do
  shards=$(awk -v d="$dev" '$1 == d {print $2}' "$T/wd")
  if [ "$shards" = whole ]; then echo "synth_warp_diff $dev: one test"; continue; fi
  k=$(echo "$shards" | head -n 1 | cut -d/ -f2)
  want=$(i=0; while [ $i -lt "$k" ]; do echo "$i/$k"; i=$((i + 1)); done)
  [ "$shards" = "$want" ] || fail "synth_warp_diff $dev: shards $(echo $shards), want $(echo $want)"
  echo "synth_warp_diff $dev: $k shards"
done
for dev in cpu opencl; do
  grep -q "^$dev " "$T/wd" || fail "synth_warp_diff has no $dev test"
done
[ $bad -eq 0 ] && echo "ok: every sharded suite covers each file once"
exit $bad
