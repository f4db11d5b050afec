#!/bin/sh
# `pip install .` at the repository root (issue #25): the wheel is a
# platform wheel that carries libkern.so.1, the package loads that copy with
# no KERN_LIBRARY and no build/ to fall back on, a kern.warp kernel runs
# from it, and the build leaves nothing in the checkout.
# The same for `pip install ./python` given the library to carry.
#   pip_wheel.sh PYTHON SOURCE_DIR WORK_DIR [LIBKERN]
# Without LIBKERN (a sanitized build, whose library needs the ASan runtime
# preloaded) the second wheel carries the first wheel's library.
# Skipped (77) without pip, setuptools and wheel for PYTHON.  The CMake
# build is kept in WORK_DIR/cmake (KERN_WHEEL_BUILD_DIR), so a rerun is
# incremental; --no-build-isolation uses PYTHON's own setuptools, so no
# network is needed.
set -eu
py=$1 src=$2 work=$3 lib=${4:-}
if ! "$py" -c "import setuptools, wheel" 2>/dev/null || ! "$py" -m pip --version >/dev/null 2>&1; then
  echo "skipped: $py has no pip, setuptools and wheel"
  exit 77
fi
before=$(cd "$src" && git status --porcelain --ignored 2>/dev/null | grep -v __pycache__ | sort || true)
rm -rf "$work/wheel" "$work/site"
mkdir -p "$work/wheel" "$work/site"
KERN_WHEEL_BUILD_DIR="$work/cmake" "$py" -m pip wheel --no-build-isolation \
  --no-deps -q -w "$work/wheel" "$src"
whl=$(ls "$work/wheel"/kern-*.whl)
case "$whl" in
  *-py3-none-any.whl) echo "FAIL: $whl is a pure wheel"; exit 1 ;;
esac
"$py" -m zipfile -l "$whl" | grep -q "kern/libkern.so.1" ||
  { echo "FAIL: $whl has no kern/libkern.so.1"; exit 1; }
"$py" -m zipfile -l "$whl" | grep -q "kern/warp/__init__.py" ||
  { echo "FAIL: $whl has no kern.warp"; exit 1; }
"$py" -m zipfile -e "$whl" "$work/site"
cat > "$work/site_check.py" <<'PY'
import os, sys
import kern
import kern.warp as wp

lib = kern.library_path()
assert lib == os.path.join(os.path.dirname(kern.__file__), "libkern.so.1"), lib


@wp.kernel
def fill(a: wp.array(dtype=float), v: float):
    a[wp.tid()] = v


a = wp.zeros(4, device="cpu")
wp.launch(fill, dim=4, inputs=[a, 2.5], device="cpu")
assert a.numpy().tolist() == [2.5] * 4, a.numpy()
print("ok:", lib)
PY
(cd "$work" && env -u KERN_LIBRARY PYTHONPATH="$work/site" "$py" site_check.py)
[ -n "$lib" ] || lib="$work/site/kern/libkern.so.1"
# `pip install ./python` with a library at hand ($KERN_LIBRARY, as after a
# CMake build) carries it the same way.
rm -rf "$work/wheel2" "$work/site2"
mkdir -p "$work/wheel2" "$work/site2"
KERN_LIBRARY="$lib" "$py" -m pip wheel --no-build-isolation --no-deps -q \
  -w "$work/wheel2" "$src/python"
whl2=$(ls "$work/wheel2"/kern-*.whl)
"$py" -m zipfile -l "$whl2" | grep -q "kern/libkern.so.1" ||
  { echo "FAIL: $whl2 (pip install ./python) has no kern/libkern.so.1"; exit 1; }
"$py" -m zipfile -e "$whl2" "$work/site2"
(cd "$work" && env -u KERN_LIBRARY PYTHONPATH="$work/site2" "$py" site_check.py)
after=$(cd "$src" && git status --porcelain --ignored 2>/dev/null | grep -v __pycache__ | sort || true)
if [ "$before" != "$after" ]; then
  echo "FAIL: the build changed the checkout:"
  echo "$after"
  exit 1
fi
echo "pip wheel: ok ($whl)"
