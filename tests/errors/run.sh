#!/bin/sh
# Error tests: each NN_name.py in DIR is an invalid kernel file whose first
# line is "# expect: LINE:COL: error: MESSAGE".  `kern compile FILE` must exit
# with status 1, print "FILE:LINE:COL: error: MESSAGE" as the first line of
# stderr, and put the caret on line 3 after exactly COL-1 spaces or tabs.
#
#   sh run.sh KERN DIR
#   KERN_UPDATE=1 sh run.sh KERN DIR   rewrites each expect line from what
#                                      kern prints now (review the diff!)
set -u
KERN=${1:?usage: run.sh KERN DIR}
DIR=${2:?usage: run.sh KERN DIR}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kern-errors.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM

pass=0
fail=0
for f in "$DIR"/*.py; do
  [ -e "$f" ] || continue
  name=$(basename "$f")
  first=$(sed -n 1p "$f")
  case $first in
    '# expect: '*) expect=${first#'# expect: '} ;;
    *) echo "FAIL $name: first line is not '# expect: ...'"; fail=$((fail + 1)); continue ;;
  esac
  timeout 10 "$KERN" compile "$f" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  got=$(sed -n 1p "$TMP/err")
  if [ "${KERN_UPDATE:-0}" = 1 ] && [ "$rc" -eq 1 ]; then
    new=${got#"$f:"}
    { printf '# expect: %s\n' "$new"; sed 1d "$f"; } >"$TMP/upd" && cat "$TMP/upd" >"$f"
    expect=$new
  fi
  if [ "$rc" -ne 1 ]; then
    echo "FAIL $name: exit status $rc, expected 1"
    sed -n 1,3p "$TMP/err" | sed 's/^/    /'
    fail=$((fail + 1))
    continue
  fi
  if [ "$got" != "$f:$expect" ]; then
    echo "FAIL $name: wrong diagnostic"
    echo "  expected: $f:$expect"
    echo "  got:      $got"
    fail=$((fail + 1))
    continue
  fi
  col=${expect#*:}
  col=${col%%:*}
  caret=$(sed -n 3p "$TMP/err")
  # The caret line: exactly COL-1 blanks (spaces or tabs), then '^'.
  if ! printf '%s\n' "$caret" | awk -v c="$col" '
      { ok = length($0) == c && substr($0, c, 1) == "^"
        pre = substr($0, 1, c - 1)
        if (pre !~ /^[ \t]*$/) ok = 0
        exit ok ? 0 : 1 }'; then
    echo "FAIL $name: caret not at column $col"
    sed -n 2,3p "$TMP/err" | sed 's/^/    |/'
    fail=$((fail + 1))
    continue
  fi
  pass=$((pass + 1))
done
echo "errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
