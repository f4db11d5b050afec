#!/bin/sh
# A C compiler for the CPU backend that has no F16C: generated code then
# converts float16 with its integer code instead of the x86 instructions,
# so runtime_half_cpu_soft tests that path too (see emit/half.c).
case $(uname -m) in
  x86_64|i?86) exec cc "$@" -mno-f16c ;;
  *) exec cc "$@" ;;
esac
