#!/bin/sh
# ptx_cli.sh KERN ROOT -- `kern compile --target ptx [--sm N]` (issue #14):
# PTX for a covered module, for the SM asked; a module outside the PTX
# tier's subset exits 1 with "path:line:col: the PTX tier does not cover
# ..."; --sm without --target ptx and a bad --sm are usage errors (2).
set -u
KERN=$1; ROOT=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/kern_ptx_cli.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
n=0; failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; failed=$((failed + 1)); }

if "$KERN" compile --target ptx "$ROOT/examples/saxpy.py" >"$T/a.ptx" 2>"$T/err" &&
   grep -q '^\.target sm_90$' "$T/a.ptx" && grep -q '^\.visible \.entry kern_k_saxpy($' "$T/a.ptx"; then
  ok "saxpy as PTX for sm_90 by default"
else bad "saxpy as PTX"; cat "$T/err"; fi

if "$KERN" compile -t ptx --sm 80 "$ROOT/examples/saxpy.py" >"$T/b.ptx" 2>"$T/err" &&
   grep -q '^\.version 7\.0$' "$T/b.ptx" && grep -q '^\.target sm_80$' "$T/b.ptx"; then
  ok "--sm 80 gives .version 7.0, .target sm_80"
else bad "--sm 80"; cat "$T/err"; fi

printf 'import warp as wp\n\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    i = wp.tid()\n    x[i] = wp.sin(x[i])\n' >"$T/s.py"
"$KERN" compile --target ptx "$T/s.py" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 1 ] && [ ! -s "$T/out" ] &&
   grep -q "s.py:6:5: the PTX tier does not cover wp.sin" "$T/err"; then
  ok "a module outside the subset: exit 1 and the position"
else bad "refusal (rc $rc)"; cat "$T/err"; fi

"$KERN" compile --target cuda --sm 90 "$ROOT/examples/saxpy.py" >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q -- "--sm is for --target ptx" "$T/err"; then
  ok "--sm needs --target ptx"
else bad "--sm with cuda (rc $rc)"; fi

"$KERN" compile --target ptx --sm x9 "$ROOT/examples/saxpy.py" >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 2 ]; then ok "a bad --sm is a usage error"; else bad "bad --sm (rc $rc)"; fi

echo "1..$n"
[ $failed -eq 0 ]
