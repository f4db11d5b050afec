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
#  - every relative link and every `path` of the repository named in
#    README.md and docs/*.md exists, and so does every file named in the
#    comments of examples/ (issue 23: examples/sum_of_squares.py pointed
#    at LANGUAGE.md, long since docs/language.md);
#  - what the docs say does not exist (yet) does not exist (issue 23:
#    ARCHITECTURE.md said src/bench, src/synth and python/ did not);
#  - README's "not yet" lists are docs/language.md's "Not yet:" list
#    (issue 23: README still said "not yet structs, quaternions, transforms");
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

# ---- README names the packages tools/setup-debian installs
pk=$(sed -n 's/^pkgs="\(.*\)"$/\1/p' "$ROOT/tools/setup-debian")
if [ -z "$pk" ]; then
  bad "no pkgs= line in tools/setup-debian"
elif tr '\n' ' ' <"$ROOT/README.md" | tr -s ' ' | grep -qF "\`$pk\`"; then
  ok "README lists the packages of tools/setup-debian"
else
  bad "README does not list tools/setup-debian's packages: \`$pk\`"
fi

# ---- paths named in the docs exist
# Repository paths that a doc names on purpose although they are not in the
# tree, with the reason.
known_absent='cmake/kern/ (installed under the library directory)
src/compile.c (the design note'"'"'s layout, which ARCHITECTURE.md says kern does not use)'
DIRS='(\.ci|src|tools|tests|docs|examples|bench|exp|python|include|cmake|fuzz)'
# path_ok PATH BASEDIR: PATH exists under ROOT or BASEDIR, as a glob, or, for
# a family named by its start ("tests/errors/250".."262", "indexed_"), as
# the beginning of a name.
path_ok() {
  echo "$known_absent" | grep -q "^$1 (" && return 0
  [ -e "$ROOT/$1" ] || [ -e "$2/$1" ] && return 0
  # shellcheck disable=SC2086
  ls -d "$ROOT"/$1 >/dev/null 2>&1 && return 0
  case $1 in *[0-9_]) ls -d "$ROOT/$1"* >/dev/null 2>&1 && return 0 ;; esac
  return 1
}
: >"$T/paths"
for f in "$ROOT"/README.md "$ROOT"/docs/*.md; do
  rel=${f#"$ROOT"/}
  # [text](target): relative to the page
  grep -o '\](\([^)]*\))' "$f" | sed 's/^](\(.*\))$/\1/' | while read -r l; do
    case $l in http:*|https:*|mailto:*|\#*|"") continue ;; esac
    p=${l%%#*}
    [ -e "$(dirname "$f")/$p" ] || echo "$rel links $l, which does not exist"
  done >>"$T/paths"
  # `src/...`, `tests/...`: a code span that is all a repository path
  grep -oE '`[^` ]+`' "$f" | tr -d '`' | grep -E "^$DIRS/[A-Za-z0-9_./*-]*\$" | sort -u |
  while read -r p; do
    path_ok "$p" "$ROOT" || echo "$rel names $p, which does not exist"
  done >>"$T/paths"
done
for f in "$ROOT"/examples/*.py "$ROOT"/examples/*/*.py "$ROOT"/examples/*.c "$ROOT"/examples/*/*.c "$ROOT"/examples/*/*.h; do
  [ -f "$f" ] || continue
  rel=${f#"$ROOT"/}
  # file names in comments: a repository path, or any NAME.md
  grep -E '^[[:space:]]*(#|/?\*|//)' "$f" |
    grep -oE "$DIRS/[A-Za-z0-9_./-]*[A-Za-z0-9_]|[A-Za-z0-9_./-]+\.md\b" | sort -u |
  while read -r p; do
    path_ok "$p" "$(dirname "$f")" || echo "$rel names $p, which does not exist"
  done >>"$T/paths"
done
if [ -s "$T/paths" ]; then
  bad "paths named in README.md, docs/ and examples/ exist"; sed 's/^/#   /' "$T/paths"
else
  ok "paths named in README.md, docs/ and examples/ exist"
fi

# ---- what the docs say does not exist, does not
for f in "$ROOT"/README.md "$ROOT"/docs/*.md; do
  # a sentence per line, so a sentence that wraps is read whole
  awk 'BEGIN { RS = "" } { gsub(/\n *(- )?/, " "); gsub(/[.;] +/, ".\n"); print }' "$f" |
    grep -iE 'do(es)? not (yet )?exist|not exist yet|not yet exist' |
    grep -oE "\`$DIRS/[A-Za-z0-9_./-]*\`|\`(python|exp|bench)/?\`" | tr -d '`' | sort -u |
  while read -r p; do
    [ -e "$ROOT/$p" ] && echo "${f#"$ROOT"/} says $p does not exist, but it does"
  done
done >"$T/absent"
if [ -s "$T/absent" ]; then
  bad "what the docs say does not exist does not"; sed 's/^/#   /' "$T/absent"
else
  ok "what the docs say does not exist does not"
fi

# ---- README's "not yet" is the language reference's "Not yet:"
# notyet FILE: the items after each "not yet" / "Not yet:", one a line.
notyet() {
  tr '\n' ' ' <"$1" | grep -oiE 'not yet:? [a-z][^.;]*' |
    sed -E 's/^[Nn]ot yet:? //; s/ and /, /g; s/,? *$//' | tr ',' '\n' |
    sed 's/^ *//; s/ *$//' | grep . | sort -u
}
notyet "$ROOT/docs/language.md" >"$T/ny_lang"
notyet "$ROOT/README.md" >"$T/ny_readme"
if [ ! -s "$T/ny_lang" ]; then
  bad "docs/language.md has no \"Not yet:\" list"
elif cmp -s "$T/ny_lang" "$T/ny_readme"; then
  ok "README's \"not yet\" is docs/language.md's ($(tr '\n' ' ' <"$T/ny_lang"))"
else
  bad "README's \"not yet\" differs from docs/language.md's \"Not yet:\""
  diff "$T/ny_lang" "$T/ny_readme" | grep '^[<>]' | sed 's/^/#   /'
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
