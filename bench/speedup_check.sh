#!/bin/sh
# speedup_check.sh -- the sanity check of multi-device speedups (issue #22,
# Note [fair baseline] in examples/multigpu/mg_common.h): P devices cannot
# do a job more than P times faster than one, so a larger figure means the
# one-device baseline was measured badly (cold code, no warm-up, another
# tier, a slow first round), not that kern is superlinear.
#
# usage: speedup_check.sh [--gpus N] [--explain NAME=REASON]... [FILE...]
#
# Reads the `RESULT` lines of examples/multigpu and bench/multigpu_torch.py
# (from FILEs, else stdin; a prefix before RESULT, such as "kern" or
# "mpirun" in bench/multigpu_gpu.sh's results.txt, is kept as the label).
# Every line with a speedup= is checked against its number of devices:
# devices=, else gpus=, else shards=, and at most --gpus N (the GPUs the
# machine has) when given.  A line whose program flagged it (sane=0) fails
# too.  A speedup above the bound is printed as a MEASUREMENT ERROR between
# rows of stars, and the exit status is 1, unless --explain names the
# figure (its NAME, e.g. stencil, or LABEL NAME, e.g. "mpirun stencil") with
# the reason, which is then printed with it.
# Exit status: 0 every speedup possible (or explained); 1 a measurement
# error; 2 bad usage.
set -u
gpus=0
explain=""
while [ $# -gt 0 ]; do
  case $1 in
    --gpus)
      [ $# -ge 2 ] || { echo "speedup_check.sh: --gpus needs a number" >&2; exit 2; }
      case $2 in ''|*[!0-9]*) echo "speedup_check.sh: --gpus needs a number, not '$2'" >&2; exit 2 ;; esac
      gpus=$2; shift 2 ;;
    --explain)
      [ $# -ge 2 ] || { echo "speedup_check.sh: --explain needs NAME=REASON" >&2; exit 2; }
      case $2 in
        *=?*) ;;
        *) echo "speedup_check.sh: --explain needs NAME=REASON, not '$2'" >&2; exit 2 ;;
      esac
      explain="$explain$2
"
      shift 2 ;;
    --) shift; break ;;
    -*) echo "speedup_check.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
done
for f in "$@"; do
  [ -r "$f" ] || { echo "speedup_check.sh: cannot read $f" >&2; exit 2; }
done

cat "$@" | awk -v gpus="$gpus" -v explain="$explain" '
function field(key,    i) {
  for (i = 1; i <= NF; i++)
    if (index($i, key "=") == 1) return substr($i, length(key) + 2)
  return ""
}
BEGIN {
  n = split(explain, ex, "\n")
  for (i = 1; i <= n; i++) {
    if (ex[i] == "") continue
    eq = index(ex[i], "=")
    why[substr(ex[i], 1, eq - 1)] = substr(ex[i], eq + 1)
  }
  checked = 0; bad = 0; stars = "****************************************************************"
}
{
  r = 0
  for (i = 1; i <= NF; i++) if ($i == "RESULT") { r = i; break }
  if (!r || r == NF) next
  s = field("speedup")
  if (s == "") next
  name = $(r + 1)
  label = ""
  for (i = 1; i < r; i++) label = label (label == "" ? "" : " ") $i
  full = (label == "" ? "" : label " ") name
  bound = field("devices"); unit = "devices"
  if (bound == "") { bound = field("gpus"); unit = "GPUs" }
  if (bound == "") { bound = field("shards"); unit = "shards" }
  if (bound == "" || bound + 0 < 1) {
    printf "MEASUREMENT ERROR: %s: speedup %s with no device count on its line\n", full, s
    bad++; next
  }
  if (gpus > 0 && gpus + 0 < bound + 0) { bound = gpus; unit = "GPUs" }
  checked++
  flagged = field("sane") == "0"
  if (s + 0 <= bound + 0 && !flagged) {
    printf "ok: %s: %.2fx on %d %s\n", full, s, bound, unit
    next
  }
  reason = (full in why) ? why[full] : (name in why) ? why[name] : ""
  times = ""
  if (field("one_ms") != "") times = sprintf(" (one device %s ms, all %s ms)", field("one_ms"), field("multi_ms"))
  if (reason != "") {
    printf "explained: %s: %.2fx on %d %s%s: %s\n", full, s, bound, unit, times, reason
    next
  }
  print stars
  printf "MEASUREMENT ERROR: %s: %.2fx on %d %s%s is more than %d %s can give:\n", full, s, bound, unit, times, bound, unit
  print "the one-device baseline was not measured like the multi-device run"
  print "(Note [fair baseline] in examples/multigpu/mg_common.h); not a speedup."
  print stars
  bad++
}
END {
  printf "speedup check: %d figure%s checked, %d measurement error%s\n", checked, checked == 1 ? "" : "s", bad, bad == 1 ? "" : "s"
  exit bad ? 1 : 0
}'
