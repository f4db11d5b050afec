#!/bin/sh
# Note [vulkan indexed arrays] (src/emit/indexed.c, vk_pack in
# runtime/backend_vulkan.c): wp.indexedarray kernel parameters on Vulkan.
# The conformance files below (1-d with a negative index and writes
# through the index array, 3-d with a view of an indexed array passed to a
# function and atomics, a generic kernel instantiated with one, one held
# in a struct parameter's field and read, written and passed on) run and
# match their goldens, in release and debug mode (the debug checks of the
# indexed shape and of the index arrays' entries).
# Needs a Vulkan device (77 without one).
KERN=$1 NPYCMP=$2 SRC=$3
"$KERN" devices 2>/dev/null | grep -qE '^ +vulkan:0' || { echo "skip: no Vulkan device"; exit 77; }
fail=0
for dbg in 0 1; do
  out=$(KERN_DEBUG=$dbg sh "$SRC/tests/conformance/run.sh" "$KERN" "$NPYCMP" \
        "$SRC/tests/conformance" vulkan "$SRC/tests/conformance/indexed_1d.py" \
        "$SRC/tests/conformance/indexed_3d.py" \
        "$SRC/tests/conformance/indexed_generic.py" \
        "$SRC/tests/conformance/indexed_struct.py" 2>&1)
  echo "$out" | tail -5
  echo "$out" | grep -q 'conformance (vulkan): 4 passed, 0 failed' ||
    { echo "FAIL: indexed arrays on vulkan (KERN_DEBUG=$dbg)"; fail=1; }
done
exit $fail
