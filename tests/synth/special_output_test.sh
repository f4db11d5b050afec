#!/bin/sh
# kern synth resumes from DIR/pairs.jsonl; something other than a regular
# file there (a FIFO: the read and the append used to block forever; a
# directory) is refused by name.  Under `timeout`: a hang is a failure.
#   sh special_output_test.sh KERN
set -u
K=${1:?usage: special_output_test.sh KERN}
T=$(mktemp -d "${TMPDIR:-/tmp}/kern-synth-special.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
export KERN_CACHE_DIR="$T/cache"
fail=0
for kind in fifo dir; do
  D=$T/$kind
  mkdir "$D"
  if [ $kind = fifo ]; then mkfifo "$D/pairs.jsonl"; else mkdir "$D/pairs.jsonl"; fi
  timeout 60 "$K" synth -n 1 --seed 1 -o "$D" > "$T/out" 2> "$T/err"
  rc=$?
  want="kern synth: error: $D/pairs.jsonl is not a regular file; use a new -o DIR"
  if [ $rc -ne 1 ] || [ "$(sed -n 1p "$T/err")" != "$want" ]; then
    echo "FAIL $kind: exit $rc (124: hung), expected 1 and: $want"
    echo "  got: $(head -c 300 "$T/err")"; fail=1
  else
    echo "ok   $kind"
  fi
done
exit $fail
