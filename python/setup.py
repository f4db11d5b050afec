"""`pip install ./python`: the kern package, with libkern inside when one
is at hand, so the installed package finds it with no setting.

The library copied is $KERN_LIBRARY when set, else the repository's CMake
build (../build/libkern.so.1) when it exists; with neither the package is
pure Python and finds libkern as docs/python.md says ($KERN_LIBRARY or the
system's loader at run time).  setuptools' build and egg-info folders go to
a temporary directory, so nothing is left in the checkout.  `pip install .`
at the repository root builds the library itself (../setup.py)."""
import atexit
import os
import shutil
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
_TMP = tempfile.mkdtemp(prefix="kern-py-")
atexit.register(shutil.rmtree, _TMP, True)


def _library():
    env = os.environ.get("KERN_LIBRARY")
    if env:
        if not os.path.isfile(env):
            raise SystemExit("KERN_LIBRARY=%s is not a file" % env)
        return env
    built = os.path.join(os.path.dirname(HERE), "build", "libkern.so.1")
    return built if os.path.isfile(built) else None


LIB = _library()


class BuildWithLibkern(build_py):
    def run(self):
        super().run()
        if LIB:
            dest = os.path.join(self.build_lib, "kern", "libkern.so.1")
            self.mkpath(os.path.dirname(dest))
            shutil.copyfile(os.path.realpath(LIB), dest)
            os.chmod(dest, 0o755)


class MaybePlatform(Distribution):
    def has_ext_modules(self):
        return LIB is not None


setup(cmdclass={"build_py": BuildWithLibkern}, distclass=MaybePlatform,
      options={"build": {"build_base": os.path.join(_TMP, "build")},
               "egg_info": {"egg_base": _TMP}})
