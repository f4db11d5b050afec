"""kern.warp.examples: Warp's ``warp.examples`` directory helpers.

kern ships none of Warp's examples or their assets.  These functions find
Warp's own example tree when it is on this machine: $KERN_WARP_EXAMPLES
(a ``warp/examples`` directory), else the ``warp/examples`` directory that
holds the script ``python3 -m kern.warp`` is running, else a ``warp/examples``
directory under an entry of ``sys.path`` (an installed warp-lang, or an
extracted wheel such as /opt/kern-warp-1.19.0).  Warp itself is never
imported.  Without one, they raise NotFoundError saying where they looked.
"""
import os
import sys

from .._errors import NotFoundError

__all__ = ["get_source_directory", "get_asset_directory",
           "get_output_directory"]

_script = [None]   # the script `python3 -m kern.warp` runs (set by the runner)


def _candidates():
    env = os.environ.get("KERN_WARP_EXAMPLES")
    if env:
        yield env
    s = _script[0]
    if s:
        d = os.path.dirname(os.path.abspath(s))
        while d and os.path.dirname(d) != d:
            if (os.path.basename(d) == "examples"
                    and os.path.basename(os.path.dirname(d)) == "warp"):
                yield d
                break
            d = os.path.dirname(d)
    for p in sys.path:
        yield os.path.join(p or ".", "warp", "examples")


def get_source_directory():
    """Warp's ``warp/examples`` directory on this machine."""
    tried = []
    for d in _candidates():
        if os.path.isdir(d):
            return os.path.abspath(d)
        tried.append(d)
    raise NotFoundError(
        "kern.warp.examples: no Warp example tree (warp/examples) on this "
        "machine; kern ships none. Set KERN_WARP_EXAMPLES to one (for "
        "instance an extracted warp-lang wheel's warp/examples); looked in: "
        + ", ".join(tried))


def get_asset_directory():
    """Warp's example assets, ``warp/examples/assets``."""
    tried = []
    for d in _candidates():
        a = os.path.join(d, "assets")
        if os.path.isdir(a):
            return os.path.abspath(a)
        tried.append(a)
    raise NotFoundError(
        "kern.warp.examples.get_asset_directory: no Warp example assets "
        "(warp/examples/assets) on this machine; kern ships none. Set "
        "KERN_WARP_EXAMPLES to a warp/examples directory that has them; "
        "looked in: " + ", ".join(tried))


def get_output_directory():
    """Where examples write their output: $KERN_WARP_OUTPUT, else
    ./example_output (made if missing).  Never Warp's installed tree."""
    d = os.environ.get("KERN_WARP_OUTPUT") or os.path.join(os.getcwd(),
                                                           "example_output")
    os.makedirs(d, exist_ok=True)
    return d
