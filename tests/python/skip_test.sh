#!/bin/sh
# skip_test.sh -- the Python tests on a machine without their modules
# (issue 23: on a fresh Debian the README's third command failed with
# "NumPy is not installed" and "No module named pytest").
#
#   skip_test.sh CMAKE SRCDIR LIBKERN
#
# 1. With a python3 first on PATH that has neither NumPy nor pytest (a
#    pyenv or virtualenv one; here the system python3 run with -S, which
#    hides its site-packages), cmake/kern_test_python.cmake picks a python3
#    that has both, when the machine has one.
# 2. Run by such a python3, the ctypes test and the pytest runner report
#    themselves skipped (77, "skipped: ..."), never failed or passed.
set -u
CMAKE=$1 SRC=$2 LIB=$3
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

real=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
mkdir "$T/bin"
cat >"$T/bin/python3" <<EOS
#!/bin/sh
exec "$real" -S "\$@"
EOS
chmod +x "$T/bin/python3"
"$T/bin/python3" -c 'import numpy' 2>/dev/null && fail "python3 -S still imports numpy; the test cannot hide it"

# 2: the tests skip under the bare interpreter.
out=$("$T/bin/python3" "$SRC/tests/python/test_ctypes.py" "$LIB" cpu 2>&1); rc=$?
[ $rc -eq 77 ] || fail "test_ctypes.py without NumPy exited $rc, not 77: $out"
echo "$out" | grep -q '^skipped: NumPy is not installed' || fail "no skip message: $out"
out=$("$T/bin/python3" "$SRC/tests/python/run_pytest.py" -q "$SRC/python/tests" 2>&1); rc=$?
[ $rc -eq 77 ] || fail "run_pytest.py without pytest exited $rc, not 77: $out"
echo "$out" | grep -q '^skipped: .* has no module pytest' || fail "no skip message: $out"

# 1: the choice of interpreter skips the bare one when a better one exists.
out=$(PATH="$T/bin:$PATH" "$CMAKE" -DKERN_FIND_TEST_PYTHON=1 \
      -P "$SRC/cmake/kern_test_python.cmake" 2>&1) || fail "cmake -P failed: $out"
chosen=$(echo "$out" | sed -n 's/^KERN_TEST_PYTHON=//p')
if PATH="$T/bin:$PATH" sh -c 'for p in $(echo "$PATH" | tr : " ") /usr/bin; do
       [ -x "$p/python3" ] && "$p/python3" -c "import numpy, pytest" 2>/dev/null && exit 0
     done; exit 1'; then
  [ -n "$chosen" ] || fail "no interpreter chosen: $out"
  [ "$chosen" != "$T/bin/python3" ] || fail "chose the python3 without NumPy: $out"
  "$chosen" -c 'import numpy, pytest' || fail "chose $chosen, which cannot import numpy and pytest"
else
  [ "$chosen" = "$T/bin/python3" ] || fail "no python3 has both, so the first should be chosen: $out"
fi
echo "ok: the Python tests skip without their modules; chosen: $chosen"
