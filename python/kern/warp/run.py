"""Runs an unmodified Warp script on kern.warp.

    python3 -m kern.warp SCRIPT.py [ARGS...]

(``kern/warp/__main__.py`` calls :func:`main`; :func:`install` alone sets up
the aliases in a process of one's own.)

runs SCRIPT.py as ``__main__`` (as ``python3 SCRIPT.py ARGS...`` would) with
``import warp`` giving kern.warp, ``import warp.optim`` kern.warp.optim and
``import warp.examples`` kern.warp.examples, so a file of Warp's runs exactly
as shipped.  Any other ``warp.NAME`` submodule (warp.render, warp.sim, ...)
is refused at its import with an ImportError that names it.  The aliases
live in this process's ``sys.modules`` only.
"""
import importlib.abc
import importlib.util
import os
import runpy
import sys

_ALIASES = {"warp": "kern.warp", "warp.optim": "kern.warp.optim",
            "warp.examples": "kern.warp.examples"}


class _Refuse(importlib.abc.MetaPathFinder):
    """Refuses the warp.* submodules kern.warp does not provide."""

    def find_spec(self, name, path=None, target=None):
        if name.startswith("warp.") and name not in _ALIASES:
            raise ImportError("kern.warp: the script imports %s, which "
                              "kern.warp does not provide (it has %s)"
                              % (name, ", ".join(sorted(_ALIASES))),
                              name=name)
        return None


def install():
    """Makes ``import warp`` (and warp.optim, warp.examples) give kern.warp
    in this process."""
    import importlib
    for alias, real in _ALIASES.items():
        sys.modules[alias] = importlib.import_module(real)
    if not any(isinstance(f, _Refuse) for f in sys.meta_path):
        sys.meta_path.insert(0, _Refuse())


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(__doc__.lstrip())
        return 0 if argv else 2
    script = argv[0]
    if not os.path.isfile(script):
        sys.stderr.write("python3 -m kern.warp: no such script: %s\n" % script)
        return 2
    install()
    from . import examples
    examples._script[0] = script
    sys.argv = [script] + argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0

