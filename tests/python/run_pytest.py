"""Runs the kern Python package's pytest suite (python/tests) for ctest.

Usage: run_pytest.py PYTEST-ARGUMENTS...

The suite needs pytest and NumPy.  Where the interpreter has either missing
the run reports itself skipped (77, the code ctest is told about), like a
test whose device is absent; otherwise pytest's own exit code is the
test's, so a suite that collects nothing (5) still fails.
tools/setup-debian installs both (python3-pytest, python3-numpy).
"""
import importlib.util
import sys

missing = [m for m in ("pytest", "numpy") if importlib.util.find_spec(m) is None]
if missing:
    print("skipped: %s has no module %s (apt-get install %s)"
          % (sys.executable, " and ".join(missing),
             " ".join("python3-" + m for m in missing)))
    sys.exit(77)

import pytest  # noqa: E402

sys.exit(pytest.main(sys.argv[1:]))
