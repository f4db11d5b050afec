#!/bin/sh
# Hostile inputs: `kern compile` must never crash or hang.  Every file is
# compiled under `timeout 10`; the exit status must be 0 or 1 (a signal,
# status >= 124, fails), and a file kern rejects must have as its first
# stderr line "FILE:LINE:COL: error: ..." or a one-line "kern: error: ...".
#
#   sh run.sh KERN [SEED]
set -u
KERN=${1:?usage: run.sh KERN [SEED]}
SEED=${2:-12345}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kern-badinput.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
D=$TMP/in
mkdir "$D"

pass=0
fail=0

# check FILE WANT: WANT is "ok" (must compile), "error" (must be rejected
# with a diagnostic) or "any" (either, but cleanly).
check() {
  f=$1 want=$2
  timeout 10 "$KERN" compile "$f" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  name=$(basename "$f")
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    if [ "$rc" -eq 124 ]; then why="timed out after 10 s"
    elif [ "$rc" -gt 128 ]; then why="killed by signal $((rc - 128))"
    else why="exit status $rc"; fi
    echo "FAIL $name: $why"
    head -c 600 "$TMP/err" | sed -n 1,3p | sed 's/^/    /'
    fail=$((fail + 1))
    return
  fi
  if [ "$want" = ok ] && [ "$rc" -ne 0 ]; then
    echo "FAIL $name: expected success, got status $rc"
    head -c 600 "$TMP/err" | sed -n 1,3p | sed 's/^/    /'
    fail=$((fail + 1))
    return
  fi
  if [ "$want" = error ] && [ "$rc" -ne 1 ]; then
    echo "FAIL $name: expected a compile error, got status $rc"
    fail=$((fail + 1))
    return
  fi
  if [ "$rc" -eq 1 ]; then
    first=$(head -c 4096 "$TMP/err" | sed -n 1p)
    case $first in
      "$f:"*) rest=${first#"$f:"}
              if ! printf '%s\n' "$rest" | grep -Eq '^[0-9]+:[0-9]+: error: .'; then
                echo "FAIL $name: malformed diagnostic: $first"
                fail=$((fail + 1))
                return
              fi ;;
      'kern: error: '?*) ;;
      *) echo "FAIL $name: first stderr line is not a diagnostic: $(printf '%s' "$first" | head -c 200)"
         fail=$((fail + 1))
         return ;;
    esac
  fi
  pass=$((pass + 1))
}

KHEAD='import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()'

# 50 files of random bytes of random sizes up to 100 KB, and 10 more that
# start as a valid kernel and go on with random bytes.
sizes=$(awk -v s="$SEED" 'BEGIN { srand(s); for (i = 0; i < 60; i++) printf "%d ", 1 + int(rand() * 102400) }')
n=0
for sz in $sizes; do
  n=$((n + 1))
  if [ $n -le 50 ]; then
    head -c "$sz" /dev/urandom >"$D/random_$n.py"
    check "$D/random_$n.py" any
  else
    { printf '%s\n    ' "$KHEAD"; head -c "$sz" /dev/urandom; } >"$D/kernel_random_$n.py"
    check "$D/kernel_random_$n.py" any
  fi
done

# Random printable ASCII (more likely to get past the lexer).
for n in 1 2 3 4 5; do
  { printf '%s\n' "$KHEAD"; head -c 20000 /dev/urandom | tr -dc 'a-z0-9 ()[]{}:=+*/.,\n\t#"' ; } >"$D/ascii_$n.py"
  check "$D/ascii_$n.py" any
done

: >"$D/empty.py"
check "$D/empty.py" error

printf 'import warp as wp' >"$D/only_import.py"
check "$D/only_import.py" ok

# 10 MB of comments and assignments plus one kernel: valid.
awk 'BEGIN {
  print "import warp as wp"
  for (i = 0; i < 160000; i++) {
    printf "# comment line %d with some padding text to make it longer\n", i
    printf "x_%d = %d\n", i, i
  }
  print "@wp.kernel"
  print "def k(a: wp.array(dtype=float)):"
  print "    i = wp.tid()"
  print "    a[i] = 1.0"
}' >"$D/big_10mb.py"
check "$D/big_10mb.py" ok

# 10,000 nested parentheses inside a kernel.
awk -v h="$KHEAD" 'BEGIN {
  print h; printf "    a[i] = "
  for (i = 0; i < 10000; i++) printf "("
  printf "1.0"
  for (i = 0; i < 10000; i++) printf ")"
  print ""
}' >"$D/nested_parens.py"
check "$D/nested_parens.py" error

# 150 nested parentheses (under the lexer's bracket limit): must not crash.
awk -v h="$KHEAD" 'BEGIN {
  print h; printf "    a[i] = "
  for (i = 0; i < 150; i++) printf "("
  printf "1.0"
  for (i = 0; i < 150; i++) printf ")"
  print ""
}' >"$D/nested_parens_150.py"
check "$D/nested_parens_150.py" any

# 10,000 nested if blocks.
awk -v h="$KHEAD" 'BEGIN {
  print h
  for (i = 1; i <= 10000; i++) {
    for (j = 0; j < i; j++) printf " "
    print "if i > 0:"
  }
  for (j = 0; j <= 10000; j++) printf " "
  print "a[i] = 1.0"
}' >"$D/nested_if.py"
check "$D/nested_if.py" error

# 900 nested if blocks (under the indentation limit).
awk -v h="$KHEAD" 'BEGIN {
  print h
  for (i = 1; i <= 900; i++) {
    for (j = 0; j < i; j++) printf " "
    print "if i > 0:"
  }
  for (j = 0; j <= 900; j++) printf " "
  print "a[i] = 1.0"
}' >"$D/nested_if_900.py"
check "$D/nested_if_900.py" any

# A 1 MB expression on one line: x = 1.0 + 1.0 + ... (left-deep tree).
awk -v h="$KHEAD" 'BEGIN {
  print h; printf "    a[i] = 1.0"
  for (i = 0; i < 170000; i++) printf " + 1.0"
  print ""
}' >"$D/line_1mb_expr.py"
check "$D/line_1mb_expr.py" any

# A 1 MB line of host code (a list literal) and a 1 MB comment: valid.
awk -v h="$KHEAD" 'BEGIN {
  printf "DATA = [0"
  for (i = 0; i < 200000; i++) printf ", %d", i % 10
  print "]"
  printf "#"
  for (i = 0; i < 1048576; i++) printf "c"
  print ""
  print h; print "    a[i] = 1.0"
}' >"$D/line_1mb_host.py"
check "$D/line_1mb_host.py" ok

# 100,000 unary minus signs and 100,000 `not`s.
awk -v h="$KHEAD" 'BEGIN {
  print h; printf "    a[i] = "
  for (i = 0; i < 100000; i++) printf "-"
  print "1.0"
}' >"$D/unary_chain.py"
check "$D/unary_chain.py" any
awk -v h="$KHEAD" 'BEGIN {
  print h; printf "    b = "
  for (i = 0; i < 100000; i++) printf "not "
  print "True"
}' >"$D/not_chain.py"
check "$D/not_chain.py" any

# 100,000 chained comparisons and a 100,000-long call chain f(x)(x)...
awk -v h="$KHEAD" 'BEGIN {
  print h; printf "    b = i"
  for (i = 0; i < 100000; i++) printf " < i"
  print ""
}' >"$D/compare_chain.py"
check "$D/compare_chain.py" any
awk -v h="$KHEAD" 'BEGIN {
  print h; printf "    a[i] = wp.sin"
  for (i = 0; i < 100000; i++) printf "(1.0)"
  print ""
}' >"$D/call_chain.py"
check "$D/call_chain.py" any

# 50,000 statements in one kernel and 5,000 kernels.
awk -v h="$KHEAD" 'BEGIN {
  print h; print "    x = 0.0"
  for (i = 0; i < 50000; i++) print "    x = x + 1.0"
  print "    a[i] = x"
}' >"$D/many_statements.py"
check "$D/many_statements.py" ok
awk 'BEGIN {
  print "import warp as wp"
  for (i = 0; i < 5000; i++) {
    print "@wp.kernel"
    printf "def k%d(a: wp.array(dtype=float)):\n", i
    print "    i = wp.tid()"
    printf "    a[i] = %d.0\n", i
  }
}' >"$D/many_kernels.py"
check "$D/many_kernels.py" ok

# A 100 KB identifier, in host code and in a kernel.
awk 'BEGIN { printf "import warp as wp\n"; for (i = 0; i < 102400; i++) printf "v"; print " = 1" }' >"$D/long_ident_host.py"
check "$D/long_ident_host.py" error
awk -v h="$KHEAD" 'BEGIN { print h; printf "    "; for (i = 0; i < 102400; i++) printf "v"; print " = 1.0" }' >"$D/long_ident_kernel.py"
check "$D/long_ident_kernel.py" error

# A 100 KB number and a 100 KB string.
awk -v h="$KHEAD" 'BEGIN { print h; printf "    x = "; for (i = 0; i < 102400; i++) printf "9"; print "" }' >"$D/long_number.py"
check "$D/long_number.py" error
awk -v h="$KHEAD" 'BEGIN { print h; printf "    x = 1."; for (i = 0; i < 102400; i++) printf "5"; print "" }' >"$D/long_float.py"
check "$D/long_float.py" any
awk -v h="$KHEAD" 'BEGIN { print h; printf "    wp.printf(\""; for (i = 0; i < 102400; i++) printf "%%d"; print "\", i)" }' >"$D/long_format.py"
check "$D/long_format.py" error

# Malformed UTF-8: a lone continuation byte, a truncated sequence, an
# overlong form, a surrogate, in a kernel, a comment and a string.
for b in '\200' '\303' '\300\200' '\355\240\200' '\364\220\200\200' '\377'; do
  n=$((n + 1))
  { printf '%s\n    x = 1' "$KHEAD"; printf "$b"; printf '\n'; } >"$D/utf8_code_$n.py"
  check "$D/utf8_code_$n.py" error
  { printf 'import warp as wp\n# comment '; printf "$b"; printf '\n'; } >"$D/utf8_comment_$n.py"
  check "$D/utf8_comment_$n.py" error
  { printf '%s\n    wp.printf("'; printf "$b"; printf '")\n'; } >"$D/utf8_string_$n.py"
  check "$D/utf8_string_$n.py" error
done
# Truncated sequence at the very end of the file.
{ printf 'import warp as wp\nx = "\342\202'; } >"$D/utf8_eof.py"
check "$D/utf8_eof.py" error

# NUL bytes: in code, in a comment, in a string, at the end, a file of NULs.
{ printf '%s\n    x = 1\0\n' "$KHEAD"; } >"$D/nul_code.py"
check "$D/nul_code.py" error
{ printf 'import warp as wp\n# a\0b\n'; } >"$D/nul_comment.py"
check "$D/nul_comment.py" error
{ printf '%s\n    wp.printf("a\0b")\n' "$KHEAD"; } >"$D/nul_string.py"
check "$D/nul_string.py" error
{ printf 'import warp as wp\n\0'; } >"$D/nul_end.py"
check "$D/nul_end.py" error
head -c 65536 /dev/zero >"$D/nul_only.py"
check "$D/nul_only.py" error

# Odd line ends and whitespace: lone CR, form feed, CRLF, no final newline.
printf 'import warp as wp\r@wp.kernel\rdef k(a: wp.array(dtype=float)):\r    pass\r' >"$D/cr_only.py"
check "$D/cr_only.py" any
printf 'import warp as wp\r\n\r\n@wp.kernel\r\ndef k(a: wp.array(dtype=float)):\r\n    i = wp.tid()\r\n    a[i] = 1.0' >"$D/crlf.py"
check "$D/crlf.py" ok
printf 'import warp as wp\n\f\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n\f    i = wp.tid()\n' >"$D/formfeed.py"
check "$D/formfeed.py" any

# Truncations of a valid program at every 7th byte.
cat >"$D/full.py" <<'PY'
import warp as wp

C = wp.constant(2.0)


@wp.func
def f(x: float, y: wp.vec3) -> float:
    return x * wp.length(y) + C


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    s = float(0.0)
    for t in range(3):
        if t % 2 == 0 and i > j:
            s += f(a[i], b[i, j])
        else:
            s -= 1.0
    while s > 10.0:
        s = s / 2.0
    wp.printf("%d %f\n", i, s)
    a[i] = s
PY
check "$D/full.py" ok
len=$(wc -c <"$D/full.py")
k=1
while [ $k -lt "$len" ]; do
  head -c $k "$D/full.py" >"$D/trunc_$k.py"
  check "$D/trunc_$k.py" any
  k=$((k + 7))
done

# A source that never ends is refused at KERN_MAX_SOURCE_SIZE (64 MiB)
# with a message, instead of being read until memory runs out.
check /dev/zero error
if ! grep -q "^/dev/zero:1:1: error: the source is larger than kern's limit of 64 MiB" "$TMP/err"; then
  echo "FAIL /dev/zero: no message about the source size limit"
  fail=$((fail + 1))
fi

# Directories and missing files give a clean one-line error.
check "$D" error
check "$D/does_not_exist.py" error

echo "badinput: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
