#!/bin/sh
# What a kernel file (or a path) given to `kern bench` can make it do
# (issue 23):
#  1. the first, checked launch of each row runs in debug mode, so a spec
#     whose arrays are shorter than the grid fails with the index instead
#     of writing past kern's allocations;
#  2. --plot passes no user text to gnuplot but through a filter, tested
#     with every byte 1..255 in the path;
#  3. --no-native refuses @wp.func_native snippets, and without it kern
#     bench says that it compiles them;
#  5. no folder of kern's can shadow a library the references import.
# The references themselves (3, 5) are in bench_refs.sh, which needs NumPy.
# Usage: bench_safety.sh KERN SOURCE_DIR
set -u
K=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); SRC=$2
T=$(mktemp -d /tmp/kern-bench-safety.XXXXXX)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache" KERN_BENCH_NO_GNUPLOT=1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
has() { grep -q -- "$2" "$1" || { fail "$1 lacks '$2'"; sed 's/^/  | /' "$1"; }; }
FAST="--budget 0.05 --min-samples 3 --max-samples 20 --no-cold --no-peak"
OCL=0; "$K" devices | grep -q '^opencl: available' && OCL=1
BACKENDS=cpu; [ $OCL = 1 ] && BACKENDS=cpu,opencl

# ---- 1. a grid larger than the arrays: every row fails with the index,
# as `kern run` reports it (unchecked, the CPU row hung: its writes past the
# 4-element arrays overwrote the thread pool's mutex).
cat >"$T/oob.py" <<'PY'
import warp as wp
# kern-bench: add1 --dim 1000 x=arange(float32,4) y=zeros(float32,4)
# kern-bench-check: y
@wp.kernel
def add1(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = x[i] + 1.0
PY
timeout ${OOB_TIMEOUT:-60} "$K" bench "$T/oob.py" --backend $BACKENDS $FAST --no-refs >"$T/oob.txt" 2>"$T/oob.err"
rc=$?
[ $rc = 124 ] && fail "kern bench hung on an out-of-bounds spec"
[ $rc = 0 ] || { fail "kern bench exited $rc on an out-of-bounds spec"; cat "$T/oob.err"; }
"$K" run "$T/oob.py" add1 --dim 1000 'x=arange(float32,4)' 'y=zeros(float32,4)' \
  >/dev/null 2>"$T/run.err" && fail "kern run accepted the out-of-bounds launch"
msg=$(sed -n 's/^kern: error: //p' "$T/run.err")
[ -n "$msg" ] || fail "kern run gave no error message"
has "$T/oob.txt" "^  cpu:0 *failed: $msg\$"
has "$T/oob.txt" "index 4 is out of bounds for axis 0 of array 'y' (length 4, shape (4,))"
[ $OCL = 1 ] && has "$T/oob.txt" "^  opencl:0 *failed: $msg\$"

# ---- 2. --plot: no text of the user's reaches gnuplot's script.  A folder
# whose name holds every byte 1..255 but '/' holds the kernel file and the
# plot; a stand-in gnuplot keeps the script and the data it was given.
name=""; i=1
while [ $i -le 255 ]; do
  if [ $i != 47 ]; then
    c=$(printf "\\$(printf %03o $i)x"); name="$name${c%x}"
  fi
  i=$((i + 1))
done
D="$T/$name"
mkdir "$D" || fail "cannot make the folder of every byte"
cp "$SRC/examples/saxpy.py" "$D/k.py"
mkdir "$T/bin" "$T/cap"
cat >"$T/bin/gnuplot" <<'GP'
#!/bin/sh
# Keeps the script and the data file, and writes the output it names.
cp "$1" "$CAP/plot.gp" || exit 3
d=$(sed -n "s/^plot '\([^']*\)'.*/\1/p" "$1" | head -1)
[ -n "$d" ] && cp "$d" "$CAP/data.dat"
o=$(sed -n "s/^set output '\([^']*\)'\$/\1/p" "$1")
[ -n "$o" ] || exit 4
echo '<svg/>' >"$o"
GP
chmod +x "$T/bin/gnuplot"
REAL_GNUPLOT=$(command -v gnuplot || true)
(unset KERN_BENCH_NO_GNUPLOT; export CAP="$T/cap"; PATH="$T/bin:$PATH" \
  "$K" bench "$D/k.py" --backend cpu --size N=1000 $FAST --no-refs \
  --plot "$D/out.svg" >"$T/plot.txt" 2>"$T/plot.err") ||
  { fail "kern bench --plot exited $?"; cat "$T/plot.err"; }
[ -s "$T/cap/plot.gp" ] || fail "gnuplot was not given a script"
[ -s "$T/cap/data.dat" ] || fail "gnuplot was not given the data"
[ -s "$D/out.svg" ] || fail "the plot did not reach the folder of every byte"
# Only printable ASCII, and none of the bytes gnuplot gives a meaning to
# outside single quotes: backquotes (a shell command), @ (a macro), \ and
# $ but in kern's own column references ($1).
for f in "$T/cap/plot.gp" "$T/cap/data.dat"; do
  [ -f "$f" ] || continue
  LC_ALL=C grep -n '[^ -~]' "$f" >"$T/bad.txt" && { fail "$f holds a byte outside printable ASCII"; cat -v "$T/bad.txt" | head -3; }
  LC_ALL=C grep -n -e '[`@\\]' -e '\$[^0-9]' "$f" >"$T/bad.txt" && { fail "$f holds \` @ \\ or \$"; cat -v "$T/bad.txt" | head -3; }
done
LC_ALL=C grep -q '"' "$T/cap/plot.gp" && fail "the script has a double-quoted string"
# Each data record is: index "label" numbers, one label of two quotes.
LC_ALL=C awk -F'"' 'NF != 3 { bad = 1 } END { exit bad }' "$T/cap/data.dat" ||
  fail "a data record's label is not one quoted field"
# The same run through the real gnuplot, where installed, from a folder
# named p`touch X`q: gnuplot must not run the backquoted command.
if [ -n "$REAL_GNUPLOT" ]; then
  B="$T/w/p\`touch X\`q"
  mkdir -p "$B" && cp "$SRC/examples/saxpy.py" "$B/k.py"
  (cd "$T/w" && unset KERN_BENCH_NO_GNUPLOT &&
    "$K" bench "$B/k.py" --backend cpu --size N=1000 $FAST --no-refs \
      --plot "$B/out.svg" >/dev/null 2>"$T/gp.err") ||
    { fail "kern bench --plot with gnuplot exited $?"; cat "$T/gp.err"; }
  [ -e "$T/w/X" ] && fail "gnuplot ran the command in the folder's name"
  head -c 200 "$B/out.svg" | grep -q '<svg' || fail "gnuplot drew no SVG"
fi

# ---- 3. --no-native refuses @wp.func_native snippets on every row, with
# kern run's message; without it kern bench warns before compiling them.
cat >"$T/nat.py" <<'PY'
import warp as wp
# kern-bench: twice --dim 8 x=arange(float32,8) y=zeros(float32,8)
# kern-bench-check: y
@wp.func_native("""
    return 2.0f * v;
""")
def dbl(v: wp.float32) -> wp.float32: ...

@wp.kernel
def twice(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = dbl(x[i])
PY
"$K" bench "$T/nat.py" --backend $BACKENDS $FAST --no-refs --no-native >"$T/nat.txt" 2>"$T/nat.err" ||
  fail "kern bench --no-native exited $?"
"$K" run "$T/nat.py" twice --dim 8 'x=arange(float32,8)' 'y=zeros(float32,8)' --no-native \
  >/dev/null 2>"$T/natrun.err" && fail "kern run --no-native accepted a snippet"
msg=$(sed -n 's/^kern: error: //p' "$T/natrun.err" | head -1)
has "$T/natrun.err" "refuses them (--no-native)"
has "$T/nat.txt" "^  cpu:0 *failed: $msg"
[ $OCL = 1 ] && has "$T/nat.txt" "^  opencl:0 *failed: $msg"
grep -q "func_native" "$T/nat.err" && fail "--no-native still warned about snippets"
"$K" bench "$T/nat.py" --backend cpu $FAST --no-refs >"$T/nat2.txt" 2>"$T/nat2.err" ||
  fail "kern bench of a snippet exited $?"
has "$T/nat2.err" "^kern bench: warning: '$T/nat.py' has @wp.func_native snippets: their native code is compiled and runs with your rights (--no-native refuses them)"
has "$T/nat2.txt" "^  cpu:0 .* hot "
timeout 60 "$K" bench "$SRC/examples/saxpy.py" --backend cpu --size N=1000 $FAST --no-refs >/dev/null 2>"$T/nonat.err"
grep -q "warning" "$T/nonat.err" && fail "a file without snippets was warned about"
"$K" bench --help >"$T/help.txt"
has "$T/help.txt" "^  --no-native "
has "$T/help.txt" "^  --file-refs "
has "$T/help.txt" "What FILE can make kern bench do"

# ---- 5. no folder or module of kern's has the name of a library kern
# bench compares with: Python puts a script's folder first on its path, and
# tools/warp/ was imported instead of Warp.  The one exception is
# python/kern/warp/, the subpackage kern.warp (issue #25): it is reached only
# as kern.warp, because python/kern/ holds no script that is run as a file
# (its modules use relative imports, so none can be), and so is never first
# on a path where `import warp` would find it.  It must stay a subpackage.
[ -f "$SRC/python/kern/warp/__init__.py" ] && [ -f "$SRC/python/kern/__init__.py" ] ||
  fail "python/kern/warp is not a subpackage of kern"
for f in "$SRC"/python/kern/*.py "$SRC"/python/kern/warp/*.py; do
  case "$f" in */__main__.py) continue ;; esac   # run as python -m kern
  grep -q "__name__ == .__main__." "$f" && fail "$f is a script inside the kern package"
done
find "$SRC" -path "$SRC/.git" -prune -o -path "$SRC/build*" -prune -o \
  -path "$SRC/python/kern/warp" -prune -o \
  \( -name warp -o -name numpy -o -name torch -o -name cupy -o -name jax -o \
     -name warp.py -o -name numpy.py -o -name torch.py -o -name cupy.py -o \
     -name jax.py \) -print >"$T/shadow.txt"
[ -s "$T/shadow.txt" ] && { fail "kern's tree has a folder named like a library"; cat "$T/shadow.txt"; }

if [ $fails = 0 ]; then echo "bench_safety: all passed"; else echo "bench_safety: $fails failed"; exit 1; fi
