"""`pip install .` at the repository root: builds libkern with CMake and
packages it inside the Python package (a platform wheel), so the package
finds its library with no setting (docs/python.md, "Installing").

The CMake build goes to a temporary directory (or $KERN_WHEEL_BUILD_DIR,
kept, to reuse a build between installs), and setuptools' own build and
egg-info folders go to a temporary directory too, so an install leaves
nothing in the checkout: this repository's build/ is CMake's, and
setuptools would otherwise write build/lib there.  Only the library target
is built (not the tests or the command-line tool).  Needs CMake and a C
compiler, as a source build does (README.md); the package itself stays pure
Python over ctypes.  The source-checkout route (PYTHONPATH=python with a
CMake build in build/) and `pip install ./python` (the package alone) are
unchanged."""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))
_TMP = tempfile.mkdtemp(prefix="kern-wheel-")
atexit.register(shutil.rmtree, _TMP, True)


class BuildWithLibkern(build_py):
    """build_py, then CMake's libkern.so.1 copied into the built package."""

    def run(self):
        super().run()
        bdir = os.environ.get("KERN_WHEEL_BUILD_DIR") or os.path.join(_TMP, "cmake")
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "-S", ROOT, "-B", bdir,
                               "-DCMAKE_BUILD_TYPE=Release"])
        subprocess.check_call(["cmake", "--build", bdir, "--target", "kern",
                               "-j", jobs])
        lib = os.path.realpath(os.path.join(bdir, "libkern.so.1"))
        dest = os.path.join(self.build_lib, "kern", "libkern.so.1")
        self.mkpath(os.path.dirname(dest))
        shutil.copyfile(lib, dest)
        os.chmod(dest, 0o755)


class PlatformDistribution(Distribution):
    """The wheel carries a shared library: a platform wheel, not py3-none-any."""

    def has_ext_modules(self):
        return True


setup(
    cmdclass={"build_py": BuildWithLibkern},
    distclass=PlatformDistribution,
    options={"build": {"build_base": os.path.join(_TMP, "build")},
             "egg_info": {"egg_base": _TMP}},
)
