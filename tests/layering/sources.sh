#!/bin/sh
# sources.sh -- what the layering probes cannot see, read from the sources.
#
#   sources.sh ROOT FLOOR=DIR:DIR... ...
#
# The probes (tests/layering/CMakeLists.txt) prove that each floor's
# include path hides the headers it may not use.  This checks the rest:
#  1. every quoted #include under src/ and tools/ is a bare name (no "/",
#     so no "../../tools/x.h" around the include path) naming a header of
#     src/ or include/kern.h: nothing under src/ includes from tools/ or
#     exp/ (issue 23: src/bench used tools/spec.h and tools/npy.h);
#  2. the clients of the public API -- src/cli, src/bench, src/synth, the
#     kern tool (tools/), the benchmark programs of bench/ and the examples
#     -- include no header of the library's own floors; programs that do
#     (exp/async_bench.c) live in exp/, apart from product code;
#  3. no floor's include path (FLOOR=DIRS, from CMake) is src/ itself or
#     lies under tools/ or exp/.
set -u
ROOT=$1; shift
bad=0
fail() { echo "FAIL: $*"; bad=1; }

# Quoted includes of a file: "FILE:LINE:NAME" per include.
quoted() { grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$@" 2>/dev/null |
           sed 's/^\([^:]*:[0-9]*\):.*include[[:space:]]*"\([^"]*\)".*/\1:\2/'; }

# The headers of the library's floors (the ones behind kern.h).
lib_headers=$(for f in base lang ir lower emit compile runtime; do
                ls "$ROOT/src/$f"/*.h 2>/dev/null; done | sed 's#.*/##' | sort -u)
[ -n "$lib_headers" ] || { echo "FAIL: no library header found under $ROOT/src"; exit 1; }

# 1. src/ and tools/: bare names that resolve inside src/ or to kern.h.
src_files=$(find "$ROOT/src" "$ROOT/tools" -name '*.[ch]' | sort)
quoted $src_files >"${TMPDIR:-/tmp}/kern-layering.$$" || true
while IFS=: read -r file line name; do
  where="${file#"$ROOT"/}:$line"
  case $name in
    */*) fail "$where includes \"$name\" by path; include by bare name (docs/ARCHITECTURE.md)"; continue ;;
  esac
  [ "$name" = kern.h ] && continue
  found=$(ls "$ROOT"/src/*/"$name" 2>/dev/null | head -n 1)
  if [ -z "$found" ]; then
    other=$(find "$ROOT/tools" "$ROOT/exp" "$ROOT/bench" -name "$name" 2>/dev/null | head -n 1)
    fail "$where includes \"$name\", which is not a header of src/${other:+ (it is ${other#"$ROOT"/})}"
  fi
done <"${TMPDIR:-/tmp}/kern-layering.$$"
rm -f "${TMPDIR:-/tmp}/kern-layering.$$"
nsrc=$(echo "$src_files" | wc -l)

# 2. The public API's clients include no library header.
clients=$(find "$ROOT/src/cli" "$ROOT/src/bench" "$ROOT/src/synth" "$ROOT/tools" \
               "$ROOT/bench" "$ROOT/examples" \
               \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) 2>/dev/null | sort)
[ -n "$clients" ] || fail "no client source found"
for file in $clients; do
  quoted "$file" | while IFS=: read -r f line name; do
    name=${name##*/}
    if echo "$lib_headers" | grep -qx "$name"; then
      echo "FAIL: ${f#"$ROOT"/}:$line includes the library's internal \"$name\"; only kern.h is public (a program that needs internals belongs in exp/)"
    fi
  done
done >"${TMPDIR:-/tmp}/kern-clients.$$"
if [ -s "${TMPDIR:-/tmp}/kern-clients.$$" ]; then cat "${TMPDIR:-/tmp}/kern-clients.$$"; bad=1; fi
rm -f "${TMPDIR:-/tmp}/kern-clients.$$"
# bench/ and examples/ build outside CMake and must not reach into exp/.
for file in $clients; do
  if grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*exp/' "$file"; then
    fail "${file#"$ROOT"/} includes from exp/"
  fi
done

# 3. Include paths: never src/ itself, never under tools/ or exp/.
[ $# -gt 0 ] || fail "no floor include paths given"
for spec in "$@"; do
  floor=${spec%%=*}; dirs=${spec#*=}
  [ -n "$dirs" ] || { fail "floor $floor has no include path"; continue; }
  echo "$dirs" | tr ':' '\n' | while read -r d; do
    d=${d%/}
    case $d in
      "$ROOT/src") echo "FAIL: floor $floor has src/ itself on its include path" ;;
      "$ROOT/tools"|"$ROOT/tools/"*) echo "FAIL: floor $floor has $d (tools/) on its include path" ;;
      "$ROOT/exp"|"$ROOT/exp/"*) echo "FAIL: floor $floor has $d (exp/) on its include path" ;;
    esac
  done
done >"${TMPDIR:-/tmp}/kern-paths.$$"
if [ -s "${TMPDIR:-/tmp}/kern-paths.$$" ]; then cat "${TMPDIR:-/tmp}/kern-paths.$$"; bad=1; fi
rm -f "${TMPDIR:-/tmp}/kern-paths.$$"

[ $bad -eq 0 ] && echo "ok: $nsrc sources of src/ and tools/ include only src/ headers and kern.h; $(echo "$clients" | wc -l) client sources include no library header; $# include paths checked"
exit $bad
