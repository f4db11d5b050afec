#!/bin/sh
# The shared library exports the public API and nothing else:
#  - every defined dynamic symbol of libkern.so starts with kern_ and none
#    with kern__ (internal names are hidden: -fvisibility=hidden);
#  - every function include/kern.h declares KERN_API is exported;
#  - the SONAME is libkern.so.<KERN_ABI_VERSION from kern.h>.
# Skips (77) without nm or readelf.
#
#   exports.sh LIBKERN_SO KERN_H
set -u
LIB=${1:?usage: exports.sh LIBKERN_SO KERN_H}
HDR=${2:?usage: exports.sh LIBKERN_SO KERN_H}
for t in nm readelf; do
  command -v $t >/dev/null 2>&1 || { echo "SKIP: $t is not installed"; exit 77; }
done
fail=0
syms=$(nm -D --defined-only "$LIB" | awk '{print $NF}' | sort -u)
[ -n "$syms" ] || { echo "FAIL: no dynamic symbols in $LIB"; exit 1; }
bad=$(printf '%s\n' "$syms" | grep -v '^kern_' ; printf '%s\n' "$syms" | grep '^kern__')
if [ -n "$bad" ]; then
  echo "FAIL: $LIB exports names outside the public API:"
  printf '%s\n' "$bad" | sed 's/^/    /'
  fail=1
fi
# Declarations read "KERN_API <type> kern_name(" on one line.
api=$(grep '^KERN_API' "$HDR" | grep -o 'kern_[a-z0-9_]*(' | tr -d '(' | sort -u)
[ -n "$api" ] || { echo "FAIL: no KERN_API declarations found in $HDR"; exit 1; }
for f in $api; do
  printf '%s\n' "$syms" | grep -qx "$f" || { echo "FAIL: $f is declared KERN_API but not exported"; fail=1; }
done
abi=$(sed -n 's/^#define KERN_ABI_VERSION \([0-9][0-9]*\).*/\1/p' "$HDR")
soname=$(readelf -d "$LIB" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
if [ "$soname" != "libkern.so.$abi" ]; then
  echo "FAIL: SONAME is '$soname' but kern.h says KERN_ABI_VERSION $abi"
  fail=1
fi
[ $fail = 0 ] && echo "ok: $(printf '%s\n' "$syms" | wc -l) exported symbols, all kern_*, SONAME $soname"
exit $fail
