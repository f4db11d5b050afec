#!/bin/sh
# Compiler invocations never go through a shell: nothing in the library
# calls system(), popen() or exec*() with /bin/sh, so no path, $CC or
# kernel name is ever interpreted as shell syntax.  The CPU backend starts
# cc with posix_spawn and an argument vector (backend_cpu.c run_cc).
#
#   no_shell.sh SRC_DIR
set -u
SRC=${1:?usage: no_shell.sh SRC_DIR}
# Strip /* ... */ and // comments first (a crude but sufficient filter for
# this codebase's style), so "file system (" in prose does not match.
bad=$(find "$SRC" -name '*.[ch]' | sort | while read -r f; do
  sed -e 's://.*$::' "$f" |
    awk -v f="$f" '
      { line = $0
        while (1) {
          if (incomment) {
            e = index(line, "*/"); if (!e) { line = ""; break }
            line = substr(line, e + 2); incomment = 0
          } else {
            s = index(line, "/*"); if (!s) break
            pre = substr(line, 1, s - 1); rest = substr(line, s + 2)
            e = index(rest, "*/")
            if (e) { line = pre substr(rest, e + 2) } else { line = pre; incomment = 1; break }
          }
        }
        if (line ~ /(^|[^A-Za-z0-9_])(system|popen|execl|execlp|execle|wordexp)[ \t]*\(/ ||
            line ~ /"\/bin\/sh"|"sh"[ \t]*,[ \t]*"-c"/)
          printf "%s:%d: %s\n", f, NR, $0
      }'
done)
if [ -n "$bad" ]; then
  echo "FAIL: shell-interpreted process creation in the library:"
  echo "$bad"
  exit 1
fi
# And the one way we do start processes is there.
grep -q 'posix_spawn(' "$SRC/runtime/backend_cpu.c" || {
  echo "FAIL: backend_cpu.c no longer uses posix_spawn; update this test"; exit 1; }
echo "no_shell: ok (no system/popen/execl/wordexp/sh -c in $SRC)"
