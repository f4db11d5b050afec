#!/bin/sh
# CI without a GPU, on Warp's own kernels (issue #22): every kernel of Warp's
# tests and examples that kern compiles to C (the corpus, docs/WARP-CORPUS.md)
# must also give CUDA that NVRTC compiles for sm_90, and PTX (`kern compile
# --target ptx`, the CUDA backend's quick tier) that ptxas assembles for
# sm_90 -- so an emitter path that only real Warp code reaches cannot break
# unseen.  The conformance suite's CUDA is checked by emit_check.sh; this is
# the same check on some 1,150 kernels kern's own tests do not have.
#
# usage: corpus_cuda.sh KERN NVRTC_CHECK WARPDIR
#   WARPDIR  Warp's package directory, holding tests/ and examples/ (from
#            the warp-lang wheel: .ci/run unzips warp/tests and warp/examples
#            of warp-lang 1.19.0; Warp's files are never committed here)
# environment:
#   CORPUS_PY  the corpus extractor (default tools/warpcorpus/corpus.py of this
#              checkout): its find_kernels() cuts each kernel out of its file
#   PTXAS      ptxas (default: ptxas on PATH)
#   JOBS       kernels compiled at once (default 2)
#   CC         the C compiler for the `cc -c` check (default cc)
#
# Per kernel, as corpus.py counts one: `kern compile` to C and `cc -c` of the
# result; a kernel that fails either is not in the set (corpus.py reports
# those).  For the others, each of these is a failure, printed with the
# kernel's file:line and name and the tool's first lines:
#   - `kern compile --target cuda` fails;
#   - NVRTC (nvrtc_check, as the CUDA backend calls it) rejects the CUDA;
#   - `kern compile --target ptx` fails other than by the tier's refusal of a
#     construct it does not cover (a refusal is fine: the backend then uses
#     NVRTC), or ptxas rejects the PTX.
# Exit status: 0 all passed; 1 a failure; 2 bad usage or no kernels found;
# 77 NVRTC or ptxas missing (CI requires both and treats 77 as a failure).
set -u

# Worker mode (xargs runs it): `corpus_cuda.sh --batch OUT FILE...`.
if [ "${1:-}" = "--batch" ]; then
  out=$2; shift 2
  TO="timeout -k 5 120"
  cus=""
  for f in "$@"; do
    id=$(basename "$f" .py)
    b="$out/w/$id"
    if ! $TO "$KERN" compile "$f" -o "$b.c" >/dev/null 2>"$b.err" ||
       ! $TO $CC -std=c11 -c -O0 -w "$b.c" -o "$b.o" >/dev/null 2>"$b.err"; then
      echo "$id noc" >>"$out/r/$id"; rm -f "$b.c" "$b.o"; continue
    fi
    rm -f "$b.c" "$b.o"
    if ! $TO "$KERN" compile "$f" --target cuda -o "$b.cu" >/dev/null 2>"$b.cuda-emit"; then
      echo "$id cuda-emit" >>"$out/r/$id"; continue
    fi
    cus="$cus $b.cu"
    $TO "$KERN" compile "$f" --target ptx -o "$b.ptx" >/dev/null 2>"$b.ptx-emit"
    rc=$?
    if [ $rc -ne 0 ]; then
      if [ $rc -eq 1 ] && grep -Eq "$PTX_REFUSAL" "$b.ptx-emit"; then
        echo "$id ptx-refused" >>"$out/r/$id"
      else
        echo "$id ptx-emit" >>"$out/r/$id"
      fi
    elif $TO "$PTXAS" -arch=sm_90 "$b.ptx" -o "$b.cubin" >"$b.ptxas" 2>&1; then
      echo "$id ptx-ok" >>"$out/r/$id"; rm -f "$b.ptx" "$b.cubin"
    else
      echo "$id ptxas" >>"$out/r/$id"
    fi
  done
  [ -z "$cus" ] && exit 0
  # One NVRTC process per batch (loading NVRTC costs more than a small
  # kernel's compile); a file the batch did not pass (rejected, or the
  # batch crashed or timed out before it) is compiled again alone for its
  # log, and fails.
  # shellcheck disable=SC2086
  timeout -k 5 600 "$NVRTC_CHECK" $cus --arch sm_90 >"$out/w/batch.$$" 2>&1
  st=$?
  if [ $st -eq 77 ]; then echo "NVRTC unavailable" >"$out/nvrtc-missing"; exit 0; fi
  for cu in $cus; do
    id=$(basename "$cu" .cu)
    if grep -q "^ok   $cu " "$out/w/batch.$$"; then
      echo "$id cuda-ok" >>"$out/r/$id"; rm -f "$cu"
    else
      $TO "$NVRTC_CHECK" "$cu" --arch sm_90 >"$out/w/$id.nvrtc" 2>&1 ||
        echo "nvrtc_check exit status $?" >>"$out/w/$id.nvrtc"
      echo "$id nvrtc" >>"$out/r/$id"
    fi
  done
  rm -f "$out/w/batch.$$"
  exit 0
fi

if [ $# -ne 3 ]; then
  echo "usage: corpus_cuda.sh KERN NVRTC_CHECK WARPDIR" >&2; exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
KERN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
NVRTC_CHECK=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
WARPDIR=$3
# The extractor's path is one variable: tools/warpcorpus/ may move (a folder named
# warp shadows the real package for scripts run beside it).
CORPUS_PY=${CORPUS_PY:-$here/../../tools/warpcorpus/corpus.py}
PTXAS=${PTXAS:-ptxas}
JOBS=${JOBS:-2}
CC=${CC:-cc}
# What `kern compile --target ptx` says when the tier does not cover a
# module (src/emit/ptx.c, emit.h's ptx_why; "the expansion does not cover"
# once the PTX tier reads IR expanded into scalars): a refusal, not a
# failure.  An extended regular expression.
PTX_REFUSAL="the (PTX tier|expansion) does not cover "
export KERN NVRTC_CHECK PTXAS CC PTX_REFUSAL

command -v "$PTXAS" >/dev/null 2>&1 || { echo "skip: no ptxas ($PTXAS)"; exit 77; }
[ -f "$CORPUS_PY" ] || { echo "corpus_cuda.sh: no $CORPUS_PY (set CORPUS_PY)" >&2; exit 2; }
[ -d "$WARPDIR/tests" ] || { echo "corpus_cuda.sh: no $WARPDIR/tests" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kern-corpus-cu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/k" "$tmp/w" "$tmp/r"
export KERN_CACHE_DIR="$tmp/cache"
start=$(date +%s)

# Every top-level kernel outside corpus.py's exclusions, cut out of its file
# with what it needs, one file each; names.txt: ID<TAB>file:line kernel.
python3 - "$CORPUS_PY" "$WARPDIR" "$tmp" <<'EOF' || exit 2
import importlib.util, os, sys
path, root, tmp = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("kern_corpus", path)
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)
files = []
for sub in ("tests", "examples"):
    for d, _, names in os.walk(os.path.join(root, sub)):
        files += [os.path.join(d, n) for n in names if n.endswith(".py")]
n = excluded = unparsable = 0
with open(os.path.join(tmp, "names.txt"), "w") as names:
    for p in sorted(files):
        try:
            with open(p, encoding="utf-8") as f:
                ks = corpus.find_kernels(p, f.read())
        except (SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
            unparsable += 1
            continue
        for k in ks:
            if k.exclusion:
                excluded += 1
                continue
            n += 1
            with open(os.path.join(tmp, "k", "k%05d.py" % n), "w") as f:
                f.write(k.source)
            names.write("k%05d\t%s:%d %s\n" % (n, os.path.relpath(p, root), k.line, k.name))
print("Warp's tests and examples: %d files (%d Python cannot parse), %d kernels, "
      "%d excluded (docs/WARP-CORPUS.md), %d tried" % (len(files), unparsable, n + excluded,
                                                         excluded, n))
EOF
ntried=$(wc -l <"$tmp/names.txt")
[ "$ntried" -gt 0 ] || { echo "corpus_cuda.sh: no kernels under $WARPDIR" >&2; exit 2; }

# Batches of 20 on JOBS workers: xargs hands each worker the next batch.
find "$tmp/k" -name 'k*.py' | sort | xargs -P "$JOBS" -n 20 sh "$here/corpus_cuda.sh" --batch "$tmp"
if [ -f "$tmp/nvrtc-missing" ]; then echo "skip: NVRTC not loadable"; exit 77; fi

cat "$tmp"/r/* >"$tmp/results" 2>/dev/null
count() { grep -c " $1\$" "$tmp/results"; }
nres=$(cut -d' ' -f1 "$tmp/results" | sort -u | wc -l)
noc=$(count noc); cuda_ok=$(count cuda-ok); ptx_ok=$(count ptx-ok)
ptx_ref=$(count ptx-refused)
nc=$((ntried - noc))
echo "$nc of $ntried kernels compile to C (cc -c); of those:"
echo "  CUDA: $cuda_ok compile with NVRTC for sm_90"
echo "  PTX tier: $ptx_ok assembled by ptxas for sm_90, $ptx_ref refused by the tier"
fail=0
[ "$nres" -eq "$ntried" ] || { echo "FAIL: results for $nres of $ntried kernels (a worker died)"; fail=1; }
for what in cuda-emit nvrtc ptx-emit ptxas; do
  case $what in
    cuda-emit) why="kern compile --target cuda failed" ;;
    nvrtc) why="NVRTC rejected the CUDA (sm_90)" ;;
    ptx-emit) why="kern compile --target ptx failed (not a refusal)" ;;
    ptxas) why="ptxas rejected the PTX (sm_90)" ;;
  esac
  for id in $(grep " $what\$" "$tmp/results" | cut -d' ' -f1 | sort); do
    fail=1
    echo "FAIL: $(grep "^$id	" "$tmp/names.txt" | cut -f2-): $why"
    # the errors, else the first lines (a crash, a timeout)
    { grep -E 'error|FAIL' "$tmp/w/$id.$what" || head -n 8 "$tmp/w/$id.$what"; } |
      head -n 8 | sed 's/^/    /'
  done
done
echo "($(($(date +%s) - start)) s, $JOBS jobs)"
if [ $fail -ne 0 ]; then
  echo "FAIL: the CUDA or PTX of Warp's kernels above does not compile"
  exit 1
fi
echo "ok: every kernel that compiles to C compiles to CUDA (NVRTC) and to PTX (ptxas) or is refused by the tier"
