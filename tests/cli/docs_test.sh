#!/bin/sh
# docs_test.sh -- the documentation in the repository stays true.
#
#   sh docs_test.sh KERN LIST_BUILTINS ROOT [CMAKE BUILD_DIR]
#
# Checks, one "ok"/"not ok" line each:
#  - docs/kern.1 renders without warnings (groff, and man -l where present);
#  - every command of 'kern --help' and every option of 'kern --help' and
#    'kern help COMMAND' appears in the manual page and in docs/cli.md;
#  - the builtin table of docs/language.md lists exactly the builtins the
#    checker knows (LIST_BUILTINS prints the compiler's table);
#  - the README links the docs/ pages and nothing outside the repository;
#  - with CMAKE and BUILD_DIR, 'cmake --install' puts kern.1 in man1.
set -u
KERN=$1; LIST=$2; ROOT=$3; CMAKE=${4:-}; BUILD=${5:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/kern_docs.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
n=0; failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; failed=$((failed + 1)); }

MAN=$ROOT/docs/kern.1
CLI=$ROOT/docs/cli.md

# ---- the manual page renders, and its text is what the checks below read
if command -v groff >/dev/null 2>&1; then
  groff -man -z -ww -b "$MAN" >"$T/warn" 2>&1
  if [ -s "$T/warn" ]; then bad "groff warns about kern.1"; sed 's/^/#   /' "$T/warn"
  else ok "kern.1 renders without groff warnings"; fi
  groff -man -Tascii -P-cbou "$MAN" >"$T/man.txt" 2>/dev/null
else
  # Without groff, read the source: drop font escapes and unescape '\-'.
  sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\e/\\/g' "$MAN" >"$T/man.txt"
  echo "# groff not found: checking the roff source instead of its rendering"
fi
if command -v man >/dev/null 2>&1; then
  if man -l "$MAN" >/dev/null 2>"$T/err" && [ ! -s "$T/err" ]; then
    ok "man -l kern.1"
  else
    bad "man -l kern.1 failed"; sed 's/^/#   /' "$T/err"
  fi
fi

# ---- commands and options
"$KERN" --help >"$T/help" || bad "kern --help failed"
cmds=$(sed -n '/^Commands:/,/^$/p' "$T/help" | awk 'NR > 1 && NF { print $1 }')
[ -n "$cmds" ] || bad "no commands found in kern --help"
for c in $cmds; do
  "$KERN" help "$c" >>"$T/help" 2>&1 || bad "kern help $c failed"
  if grep -q "^ *$c\$" "$T/man.txt" || grep -q "kern $c" "$T/man.txt"; then
    ok "kern.1 describes command '$c'"
  else
    bad "kern.1 lacks command '$c'"
  fi
  if grep -q "^## kern $c" "$CLI"; then ok "docs/cli.md has a section for '$c'"
  else bad "docs/cli.md lacks '## kern $c'"; fi
done
# Options: a dash and a letter at the start of a word.
opts=$(grep -oE "(^|[][ ,('|])--?[A-Za-z][A-Za-z-]*" "$T/help" |
       sed -E "s/^[][ ,('|]//" | sort -u)
[ -n "$opts" ] || bad "no options found in the help texts"
for o in $opts; do
  pat="(^|[^A-Za-z-])$(printf '%s' "$o" | sed 's/-/\\-/g')([^A-Za-z-]|\$)"
  if grep -qE -e "$pat" "$T/man.txt"; then ok "kern.1 documents $o"
  else bad "kern.1 lacks option $o"; fi
  if grep -qE -e "$pat" "$CLI"; then ok "docs/cli.md documents $o"
  else bad "docs/cli.md lacks option $o"; fi
done

# ---- builtins: docs/language.md's table against the checker's list
sed -n '/<!-- builtins -->/,/<!-- \/builtins -->/p' "$ROOT/docs/language.md" |
  grep -oE '`wp\.[a-z_0-9]+`' | sed 's/`wp\.//; s/`//' | sort -u >"$T/doc"
"$LIST" | sort -u >"$T/known"
if [ ! -s "$T/doc" ]; then
  bad "no builtin table between the markers in docs/language.md"
elif cmp -s "$T/doc" "$T/known"; then
  ok "docs/language.md lists exactly the $(wc -l <"$T/known") builtins the checker knows"
else
  bad "docs/language.md and the checker disagree (< only in the docs, > only in the checker)"
  diff "$T/doc" "$T/known" | grep '^[<>]' | sed 's/^/#   /'
fi

# ---- the README points into the repository
for d in docs/language.md docs/c-api.md docs/cli.md; do
  [ -f "$ROOT/$d" ] || bad "$d is missing"
  if grep -qF "($d)" "$ROOT/README.md"; then ok "README links $d"
  else bad "README does not link $d"; fi
done
if grep -qE '\]\([^)]*shared/design' "$ROOT/README.md" "$ROOT"/docs/*.md; then
  bad "README or docs/ link to shared/design, outside the repository"
else
  ok "no links outside the repository"
fi

# ---- the manual page is installed with the tool
if [ -n "$CMAKE" ]; then
  if "$CMAKE" --install "$BUILD" --prefix "$T/prefix" >"$T/inst" 2>&1 &&
     [ -x "$T/prefix/bin/kern" ] && cmp -s "$MAN" "$T/prefix/share/man/man1/kern.1"; then
    ok "cmake --install puts kern.1 in share/man/man1 beside bin/kern"
  else
    bad "kern.1 not installed to share/man/man1"; tail -n 5 "$T/inst" | sed 's/^/#   /'
  fi
fi

echo "1..$n"
[ $failed -eq 0 ]
