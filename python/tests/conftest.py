"""Shared fixtures of the kern Python test suite.

The suite runs on one device per process, named by $KERN_TEST_DEVICE
(``cpu``, ``opencl``, ``cuda``; ctest runs it once per device).  When that
device is absent the whole run exits with 77, which ctest reads as
"skipped", as the C tests do; anything else that runs no test is pytest's
exit code 5, which ctest counts as a failure.
"""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python"))

import kern  # noqa: E402

DEVICE = os.environ.get("KERN_TEST_DEVICE", "cpu")


def pytest_sessionstart(session):
    try:
        kern.get_device(DEVICE)
    except kern.Error as e:
        print("skipped: device %s: %s" % (DEVICE, e))
        # 77: the skip code ctest is told about (tests/CMakeLists.txt).
        os._exit(77)


@pytest.fixture(scope="session")
def device():
    """The kern.Device under test."""
    return kern.get_device(DEVICE)


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def tool():
    """The C command-line tool, for comparisons (None when not built)."""
    t = os.environ.get("KERN_TOOL")
    if t and os.path.exists(t):
        return t
    for cand in ("build/kern", "build-gpu/kern"):
        p = os.path.join(REPO, cand)
        if os.path.exists(p):
            return p
    return None


def pytest_report_header(config):
    try:
        return "kern %s from %s, device %s" % (kern.version(), kern.library_path(), DEVICE)
    except kern.Error as e:
        return "kern: %s" % e
