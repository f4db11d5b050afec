#!/bin/sh
# The conformance suite on the CPU from the expanded IR (Note [expansion]
# in src/ir/expand.c): the IR the PTX tier reads, with vectors, matrices,
# quaternions, transforms and the composite builtins expanded into scalar
# operations, is emitted as C and must give real Warp's outputs, so a
# mistake in the expansion fails here without a GPU.
# usage: expanded.sh KERN NPYCMP DIR MIN [SHARD NSHARDS]
#   MIN: the fewest files the expansion must take (a floor, so a pass that
#   quietly refused everything would fail); counted over the whole suite.
#   SHARD/NSHARDS: run only every NSHARDS-th accepted file from SHARD (0-based).
# Files the expansion refuses go through the normal path in conformance_cpu
# and are only counted here.
set -u
KERN=$1; NPYCMP=$2; DIR=$3; MIN=$4; SHARD=${5:-0}; NSHARDS=${6:-1}
T=$(mktemp -d "${TMPDIR:-/tmp}/kern-expand.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
"$KERN" devices 2>/dev/null | grep -qE "^cpu: available" ||
  { echo "skip: no cpu device"; exit 77; }
taken=0; refused=0; files=""
i=0
for f in $(ls "$DIR"/*.py | grep -v gen_expected.py); do
  # a file with expected errors, or one the CPU skips, has no C to check
  "$KERN" compile --expand "$f" >"$T/c" 2>/dev/null || continue
  case $(head -n 1 "$T/c") in
    *"expanded into scalar IR"*)
      taken=$((taken + 1))
      if [ $((i % NSHARDS)) -eq "$SHARD" ]; then files="$files $f"; fi
      i=$((i + 1)) ;;
    *"the expansion does not cover"*)
      refused=$((refused + 1)) ;;
    *)
      echo "FAIL $(basename "$f"): kern compile --expand did not say whether it expanded"
      exit 1 ;;
  esac
done
echo "expansion: took $taken files, refused $refused (floor $MIN)"
if [ "$taken" -lt "$MIN" ]; then
  echo "FAIL: the expansion took $taken files, fewer than the floor of $MIN"
  exit 1
fi
[ -z "$files" ] && exit 0
# shellcheck disable=SC2086
KERN_EXPAND=1 sh "$DIR/run.sh" "$KERN" "$NPYCMP" "$DIR" cpu $files
