#!/bin/sh
# synth_rate.sh OLD_KERN NEW_KERN [REPS] -- kern synth's generation + codegen
# rate, old and new binaries alternating in one run (bench/NOTES.md, "kern
# synth round three").  Pairs per second per core = N / (user + sys CPU s),
# so the load of a shared machine counts as little as it can; the median
# of REPS runs is printed per binary and row.  Also the instructions per
# pair (callgrind, the difference between 600- and 300-pair runs, so
# without the fixed start-up), which no load changes, when valgrind is
# installed.
set -e
OLD=$1 NEW=$2 REPS=${3:-5}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cpu() { # BIN ARGS...: user + sys seconds of one fresh run
  b=$1; shift
  rm -rf "$T/o"
  /usr/bin/time -f "%U %S" -o "$T/t" "$b" synth "$@" -o "$T/o" --quiet
  awk '{print $1 + $2}' "$T/t"
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
row() { # NAME N ARGS...
  name=$1 n=$2; shift 2
  : > "$T/old"; : > "$T/new"
  i=0
  while [ $i -lt "$REPS" ]; do
    cpu "$OLD" -n "$n" "$@" >> "$T/old"
    cpu "$NEW" -n "$n" "$@" >> "$T/new"
    i=$((i + 1))
  done
  o=$(median < "$T/old") w=$(median < "$T/new")
  echo "$name: old $o s ($(tr '\n' ' ' < "$T/old")) $(echo "$n $o" | awk '{printf "%.0f", $1 / $2}')/s;" \
       "new $w s ($(tr '\n' ' ' < "$T/new")) $(echo "$n $w" | awk '{printf "%.0f", $1 / $2}')/s"
}
row "cuda (--targets cuda)" 10000 --seed 1 --targets cuda
row "cuda compact (--cuda-form compact)" 10000 --seed 1 --targets cuda --cuda-form compact
row "cuda,opencl,c (default)" 10000 --seed 1
if command -v valgrind > /dev/null; then
  for b in "$OLD" "$NEW"; do
    for n in 300 600; do
      rm -rf "$T/o"
      valgrind --tool=callgrind --callgrind-out-file="$T/cg.$n" "$b" synth -n $n --seed 1 \
        --targets cuda -o "$T/o" --quiet 2> "$T/vg.$n"
    done
    a=$(grep Collected "$T/vg.300" | awk '{print $4}') c=$(grep Collected "$T/vg.600" | awk '{print $4}')
    echo "$b: $(( (c - a) / 300 )) instructions per pair (--targets cuda)"
  done
fi
