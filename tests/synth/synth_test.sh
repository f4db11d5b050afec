#!/bin/sh
# synth_test.sh KERN SRCDIR -- properties of `kern synth` (issue #13) that
# need no GPU and no NVRTC: byte-identical reruns (also with --jobs),
# shards that partition the run, resumption after kill -9 and after a torn
# last line, every record carrying every field the schema requires, and
# every category present.  Seconds, not minutes (no validation here; the
# differential run is synth_diff).
set -eu
KERN=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache"
fail() { echo "FAIL: $*"; exit 1; }

"$KERN" synth -n 200 --seed 7 -o "$T/a" --quiet
"$KERN" synth -n 200 --seed 7 -o "$T/b" --quiet --jobs 2 --batch 50
cmp "$T/a/pairs.jsonl" "$T/b/pairs.jsonl" || fail "same seed, different bytes"
cmp "$T/a/stats.json" "$T/b/stats.json" || fail "stats differ"
[ "$(wc -l < "$T/a/pairs.jsonl")" -eq 200 ] || fail "not 200 records"
"$KERN" synth -n 200 --seed 8 -o "$T/c" --quiet
cmp -s "$T/a/pairs.jsonl" "$T/c/pairs.jsonl" && fail "another seed gave the same bytes"

# Shards: disjoint, and together the unsharded run.
for i in 0 1 2; do "$KERN" synth -n 200 --seed 7 --shard $i/3 -o "$T/s$i" --quiet; done
cat "$T/s0/pairs.jsonl" "$T/s1/pairs.jsonl" "$T/s2/pairs.jsonl" |
  sed 's/^\(.*"index":\([0-9]*\),.*\)$/\2 \1/' | sort -n -k1,1 | cut -d' ' -f2- > "$T/merged"
cmp "$T/merged" "$T/a/pairs.jsonl" || fail "shards do not add up to the whole run"
[ "$(wc -l < "$T/s1/pairs.jsonl")" -eq 67 ] || fail "shard 1/3 of 200 is not 67"

# Resume after a torn last line.
head -n 75 "$T/a/pairs.jsonl" > "$T/r.jsonl"
mkdir "$T/r"
mv "$T/r.jsonl" "$T/r/pairs.jsonl"
sed -n 76p "$T/a/pairs.jsonl" | cut -c1-300 | tr -d '\n' >> "$T/r/pairs.jsonl"
"$KERN" synth -n 200 --seed 7 -o "$T/r" --quiet
cmp "$T/r/pairs.jsonl" "$T/a/pairs.jsonl" || fail "resume after a torn line"

# Resume after kill -9 in the middle of a run.
"$KERN" synth -n 20000 --seed 7 -o "$T/k" --quiet --batch 16 &
pid=$!
n=0
while [ "$(cat "$T/k/pairs.jsonl" 2>/dev/null | wc -l)" -lt 100 ] && [ $n -lt 2400 ]; do
  sleep 0.05; n=$((n + 1))
done
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
got=$(wc -l < "$T/k/pairs.jsonl")
[ "$got" -lt 20000 ] || fail "the run finished before it was killed"
"$KERN" synth -n 600 --seed 7 -o "$T/k" --quiet 2>/dev/null || true
"$KERN" synth -n 600 --seed 7 -o "$T/k2" --quiet
# The killed run may have written past 600; compare the first 600.
head -n 600 "$T/k/pairs.jsonl" | cmp - "$T/k2/pairs.jsonl" || fail "resume after kill -9"

# Another run's directory is refused.
"$KERN" synth -n 10 --seed 9 -o "$T/a" --quiet 2>"$T/err" && fail "mixed seeds accepted"
grep -q "another run" "$T/err" || fail "no clear message for a foreign directory"

# Schema: every record has every required key of docs/synth-schema.json.
keys=$(tr -d '\n' < "$SRC/docs/synth-schema.json" | grep -o '"required": *\[[^]]*\]' |
       sed 's/"required": *\[//; s/\]//; s/[ ,]/\n/g' | grep '"' | sort -u)
[ -n "$keys" ] || fail "no required keys read from the schema"
for k in $keys; do
  c=$(grep -c "$k:" "$T/a/pairs.jsonl" || true)
  [ "$c" -eq 200 ] || fail "key $k in $c of 200 records"
done
grep -q '"schema_version":2,"id":"[0-9a-f]\{32\}","index":0,' "$T/a/pairs.jsonl" ||
  fail "first record does not start as documented"
grep -v '"source":{"warp":"import warp as wp' "$T/a/pairs.jsonl" | head -1 | grep -q . &&
  fail "a record without Warp source"
grep -q '"cuda":null' "$T/a/pairs.jsonl" && fail "kern rejected a generated kernel"

# Every category, 20 each (round robin), and the card.
for c in arithmetic math vector matrix control atomic reduction stencil random functions; do
  grep -q "\"$c\": {\"count\": 20," "$T/a/stats.json" || fail "category $c not 20 times"
done
for k in exact_duplicate_rate structural_duplicate_rate near_duplicate_rate nearest_similarity; do
  grep -q "\"$k\"" "$T/a/stats.json" || fail "no $k in stats.json"
done
# Every record carries its MinHash signature (256 hex digits).
[ "$(grep -c '"minhash":"[0-9a-f]\{256\}"' "$T/a/pairs.jsonl")" -eq 200 ] || fail "minhash"
grep -q "^# kern synth dataset" "$T/a/README.md" || fail "no dataset card"

# Real Warp 1.19 accepted and ran these 100 kernels (tests/synth/warp_check.py
# made warp_golden.txt); the generator must still make exactly them, else
# regenerate the golden list where Warp is installed.
"$KERN" synth -n 100 --seed 13 -o "$T/w" --quiet --targets cuda
sed 's/^.*"id":"\([0-9a-f]*\)","index":\([0-9]*\),.*$/\2 \1/' "$T/w/pairs.jsonl" > "$T/ids"
awk '{print $1, $2}' "$SRC/tests/synth/warp_golden.txt" | cmp - "$T/ids" ||
  fail "the generator no longer makes the kernels Warp accepted (warp_golden.txt)"
[ "$(grep -c ' ok ' "$SRC/tests/synth/warp_golden.txt")" -eq 100 ] || fail "golden: not all accepted"

# Bad arguments are usage errors with a message.
"$KERN" synth -n 5 -o "$T/x" --shard 3/3 2>"$T/err" && fail "--shard 3/3 accepted"
grep -q "shard" "$T/err" || fail "no message for a bad shard"
"$KERN" synth -n 5 -o "$T/x" --categories nope 2>"$T/err" && fail "bad category accepted"
echo "ok"
