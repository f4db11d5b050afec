#!/bin/sh
# resume_args_test.sh KERN -- a resumed `kern synth` refuses any argument
# that would change the records (issue #23, 8; Note [resume arguments] in
# src/synth/driver.c), naming it with the old and the new value, and
# leaves pairs.jsonl as it was; arguments that change no record resume.
set -eu
KERN=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache"
fail() { echo "FAIL: $*"; exit 1; }

"$KERN" synth -n 12 --seed 3 --categories math,vector --difficulty 2 -o "$T/d" --quiet
cp "$T/d/pairs.jsonl" "$T/before"

# refused ARGS... MESSAGE: the resume fails with MESSAGE and touches nothing.
refused() {
  msg=$1; shift
  if "$KERN" synth -n 24 --seed 3 -o "$T/d" --quiet "$@" 2>"$T/err"; then
    fail "resume with $* was accepted"
  fi
  grep -qF -- "$msg" "$T/err" || { cat "$T/err"; fail "resume with $*: no message '$msg'"; }
  cmp -s "$T/before" "$T/d/pairs.jsonl" || fail "resume with $* changed pairs.jsonl"
}
refused "made with --categories math,vector; this run has --categories arithmetic" \
  --categories arithmetic --difficulty 2
refused "made with --categories math,vector; this run has --categories arithmetic,math,vector" \
  --difficulty 2
refused "made with --difficulty 2; this run has --difficulty 5" \
  --categories math,vector --difficulty 5
refused "made with --difficulty 2; this run has --difficulty 3" --categories math,vector
refused "made with --targets cuda,opencl,c; this run has --targets cuda" \
  --categories math,vector --difficulty 2 --targets cuda
refused "made with --cuda-form production; this run has --cuda-form compact" \
  --categories math,vector --difficulty 2 --cuda-form compact
grep -q "which would change the records" "$T/err" || fail "the message does not say why"

# The same record arguments (other -n, --jobs, --batch) resume: the first
# 12 records are kept and the result is the uninterrupted run's.
"$KERN" synth -n 24 --seed 3 --categories math,vector --difficulty 2 -o "$T/d" --quiet \
  --jobs 2 --batch 5
head -n 12 "$T/d/pairs.jsonl" | cmp -s - "$T/before" || fail "resume rewrote old records"
"$KERN" synth -n 24 --seed 3 --categories math,vector --difficulty 2 -o "$T/whole" --quiet
cmp "$T/d/pairs.jsonl" "$T/whole/pairs.jsonl" || fail "resumed run differs from a whole run"

# A finished run's directory may be reused for a new run once pairs.jsonl
# is gone: synth-args is rewritten, not compared.
rm "$T/d/pairs.jsonl"
"$KERN" synth -n 4 --seed 3 --difficulty 4 -o "$T/d" --quiet
grep -qx "difficulty 4" "$T/d/synth-args" || fail "synth-args not rewritten for a new run"
echo "synth resume arguments: ok"
