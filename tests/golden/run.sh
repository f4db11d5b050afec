#!/bin/sh
# Golden tests of the emitted code: for each tests/golden/NAME.py, the C,
# CUDA and OpenCL that kern emits must equal NAME.{c,cu,cl} byte for byte.
# usage: run.sh KERN DIR [--update]
set -u
KERN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); DIR=$2; UPDATE=${3:-}
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kern-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for py in "$DIR"/*.py; do
  stem=$(basename "$py" .py)
  for t in c:c cuda:cu opencl:cl; do
    target=${t%%:*}; ext=${t#*:}
    # compile from inside DIR so the path in the banner is stable
    if ! (cd "$DIR" && "$KERN" compile "$stem.py" --target "$target") >"$tmp/$stem.$ext" 2>"$tmp/err"; then
      echo "FAIL $stem ($target): compile failed"; cat "$tmp/err"; fail=1; continue
    fi
    if [ "$UPDATE" = "--update" ]; then
      cp "$tmp/$stem.$ext" "$DIR/$stem.$ext"; echo "updated $stem.$ext"
    elif ! diff -u "$DIR/$stem.$ext" "$tmp/$stem.$ext"; then
      echo "FAIL $stem ($target): emitted code differs from $stem.$ext"; fail=1
    fi
  done
done
[ $fail -eq 0 ] && echo "golden: all match"
exit $fail
