#!/bin/sh
# compact_test.sh KERN SRCDIR [NVRTC_CHECK] -- the compact CUDA form (Note [compact CUDA]
# in src/emit/cuda.c; `kern compile --compact`, `kern synth --cuda-form
# compact`).  Without NVRTC: the form's shape (one loop, no unrolling,
# guarded __noinline__ helpers, the end-of-helpers line), the usage error
# for another target, the record naming its form, and the production
# form's records unchanged by the option's existence.  With NVRTC (found
# as kern synth finds it): a batch of compact pairs compiles, both as one
# program (guards shared between modules) and one file at a time; and,
# with NVRTC_CHECK (tests/cuda/nvrtc_check.c), every example and
# conformance kernel in the compact form, alone and all in one program
# (which fails if any helper escaped its guard).  NVRTC_CHECK "-" (the
# sanitizer build, where NVRTC's time would be spent twice for nothing:
# NVRTC is not instrumented) compiles every fourth file compact with kern
# and skips both NVRTC parts.
set -eu
KERN=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache"
fail() { echo "FAIL: $*"; exit 1; }

"$KERN" compile "$SRC/examples/math_functions.py" --target cuda > "$T/prod.cu"
"$KERN" compile "$SRC/examples/math_functions.py" --target cuda --compact > "$T/comp.cu"
grep -q '#pragma unroll' "$T/prod.cu" || fail "production form lost its unrolled loop"
grep -q '#pragma unroll' "$T/comp.cu" && fail "compact form is unrolled"
grep -q '__noinline__' "$T/comp.cu" || fail "compact helpers are not __noinline__"
grep -q '__forceinline__' "$T/comp.cu" && fail "compact form inlines a helper"
grep -q '^// kern: end of shared helpers$' "$T/comp.cu" || fail "no end-of-helpers line"
grep -q '^#ifndef K_H_prelude$' "$T/comp.cu" || fail "prelude not guarded"
[ "$(grep -c 'for (int64_t k_t' "$T/comp.cu")" -eq "$(grep -c '__global__' "$T/comp.cu")" ] ||
  fail "compact form has more than one loop per kernel"
set +e
"$KERN" compile "$SRC/examples/saxpy.py" --target c --compact > /dev/null 2> "$T/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "--compact with --target c exited $rc, not 2"
grep -q -- '--compact is for --target cuda' "$T/err" || fail "no usage message: $(cat "$T/err")"

"$KERN" synth -n 40 --seed 5 -o "$T/p" --targets cuda --quiet
"$KERN" synth -n 40 --seed 5 -o "$T/p2" --targets cuda --cuda-form production --quiet
cmp "$T/p/pairs.jsonl" "$T/p2/pairs.jsonl" || fail "--cuda-form production changed the records"
grep -q cuda_form "$T/p/pairs.jsonl" && fail "a production record names a form"
"$KERN" synth -n 40 --seed 5 -o "$T/c" --targets cuda --cuda-form compact --quiet
[ "$(grep -c '"cuda_form":"compact"' "$T/c/pairs.jsonl")" -eq 40 ] ||
  fail "not every compact record says so"
grep -q 'compact form' "$T/c/README.md" || fail "the dataset card does not name the form"

# Every example and conformance file, compact: alone, and pasted into one
# program the way kern synth batches (guarded part at file scope, the rest
# in a namespace of its own).
if [ $# -ge 3 ]; then
  mkdir "$T/ex"
  i=0
  for f in "$SRC"/examples/*.py "$SRC"/tests/conformance/*.py; do
    case "$f" in */gen_expected.py|*/make_expected.py) continue ;; esac
    # a file only other targets compile (tests/conformance/README.md)
    grep -q '^# kern-targets: ' "$f" && ! grep -Eq '^# kern-targets: (.* )?cuda( |$)' "$f" && continue
    i=$((i + 1))
    # sanitized: every fourth file (kern's compiler runs sanitized on every
    # file in lang_conformance_compile; 353 s of CI's ASan run went here)
    [ "$3" = - ] && [ $((i % 4)) != 1 ] && continue
    "$KERN" compile "$f" --target cuda --compact -o "$T/ex/f$i.cu" || fail "compile --compact $f"
    # (kernels are extern "C": two files' kernels of one name get a prefix)
    awk -v n=$i '{ gsub(/kern_k_/, "kern_k_m" n "_"); print }
                 /^\/\/ kern: end of shared helpers$/ { print "namespace m" n " {" }
                 END { print "}" }' "$T/ex/f$i.cu" >> "$T/all.cu"
  done
  if [ "$3" = - ]; then
    echo "ok ($(ls "$T/ex" | wc -l) of $i files compact; NVRTC parts skipped: sanitizer build)"
    exit 0
  fi
  set +e
  "$3" "$T"/ex/*.cu "$T/all.cu" --arch sm_90
  st=$?
  set -e
  [ $st -eq 0 ] || [ $st -eq 77 ] || fail "NVRTC rejected compact CUDA (status $st)"
fi

# NVRTC: one program of 60, then 8 alone (--batch 1).
# Without NVRTC, --validate compile refuses with a clear error (and no
# records): the part that needs NVRTC is skipped, said so.
set +e
"$KERN" synth -n 60 --seed 5 -o "$T/v" --targets cuda --cuda-form compact \
  --validate compile --batch 60 --quiet 2>"$T/v.err"
st=$?
set -e
if [ $st -ne 0 ] && grep -q 'needs NVRTC' "$T/v.err"; then
  echo "ok (no NVRTC: compile part skipped: $(cat "$T/v.err"))"
  exit 0
fi
[ $st -eq 0 ] || fail "kern synth --validate compile exited $st: $(cat "$T/v.err")"
ok=$(grep -c '"compile_ok":true' "$T/v/pairs.jsonl")
[ "$ok" -eq 60 ] || fail "$ok of 60 compact pairs compiled in one program"
"$KERN" synth -n 8 --seed 5 -o "$T/w" --targets cuda --cuda-form compact \
  --validate compile --batch 1 --quiet
ok=$(grep -c '"compile_ok":true' "$T/w/pairs.jsonl")
[ "$ok" -eq 8 ] || fail "$ok of 8 compact pairs compiled alone"
grep -q '"registers":[0-9]' "$T/v/pairs.jsonl" || fail "no register counts"
echo ok
