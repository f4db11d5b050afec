"""From decorated Python functions to one kern source module.

Note [one source per Python module]
Warp compiles every @wp.kernel, @wp.func and @wp.struct of a Python module
together, and resolves the module-level names a kernel uses when the module
is built (its first launch).  kern.warp does the same: each decorated
object's source (inspect.getsource, dedented, decorators included, as Warp
reads it) is recorded in definition order in the _Module of its defining
Python module, and the first launch on a device writes one kern source
text and compiles it with kern.load.  Each object's text is placed at its
own line numbers in that text, and the text is named after the script's
file, so a compile error reads ``script.py:LINE:COL`` of the script itself
(the column of a nested definition is shifted by its indentation).  The
module-level names the objects use are captured then, at the end of the
text (kern takes the last assignment of a module-level name wherever it
is): numbers, booleans, Warp scalars, vectors and matrices, Warp types,
strings (func_native snippets), dicts of those (``wp.static(D["k"])``), and
the modules kern's compiler knows (``math``, ``numpy``, ``typing``).  Any
other name, a name defined nowhere, and a variable of an enclosing
function (a closure) are refused with an error naming it and the object
that uses it.  Adding an object to a module after it was built makes the
next launch build it again (kern's kernel cache makes an unchanged kernel
cheap to rebuild).
"""
import ast
import builtins
import inspect
import sys
import textwrap
import types
import typing

from .. import _module
from .._errors import CompileError, NotFoundError, UnsupportedError
from . import _values

_modules = {}     # id of a module's globals dict -> _Module
_KNOWN_MODULES = {"math": "import math", "numpy": "import numpy",
                  "typing": "import typing", "builtins": None}


class _Entry:
    """One decorated object: kind ("kernel", "func", "struct"), its name,
    the Python object, and its source lines (dedented) and first line."""

    def __init__(self, kind, obj, pyobj):
        self.kind = kind
        self.obj = obj
        self.name = pyobj.__name__
        self.pyobj = pyobj
        what = "@wp.%s %s" % (kind, self.name)
        try:
            lines, lineno = inspect.getsourcelines(pyobj)
        except (OSError, TypeError) as e:
            raise UnsupportedError(
                "kern.warp: cannot read the source of %s (%s); kern.warp, "
                "like Warp, compiles kernels from their source file: define "
                "it in a .py file, not in exec() or the interactive prompt"
                % (what, e)) from None
        self.lines = textwrap.dedent("".join(lines)).splitlines()
        self.lineno = lineno
        code = getattr(pyobj, "__code__", None)
        if code is not None and code.co_freevars:
            raise UnsupportedError(
                "kern.warp: %s (line %d) uses %s of an enclosing function (a "
                "closure); kern.warp compiles module-level names only: make "
                "%s module-level" % (
                    what, lineno, ", ".join("'%s'" % v for v in code.co_freevars),
                    "it" if len(code.co_freevars) == 1 else "them"))
        self.loads, self.locals = _names(self.lines, what)


def _names(lines, what):
    """The names an object's source reads and those it binds locally."""
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError as e:  # pragma: no cover (Python parsed it already)
        raise CompileError("kern.warp: %s: %s" % (what, e)) from None
    loads, stores = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                if node.id not in loads:
                    loads.append(node.id)
            else:
                stores.add(node.id)
        elif isinstance(node, ast.arg):
            stores.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            # Nested names of the object itself; its own name is global.
            pass
    return loads, stores


class _Module:
    """The decorated objects of one Python module (Note [one source per
    Python module])."""

    def __init__(self, g):
        self.globals = g
        self.name = g.get("__name__", "<module>")
        self.filename = g.get("__file__") or self.name
        self.entries = []
        self.overloads = []   # wp.overload(...) lines, in call order
        self.version = 0
        self.built = {}   # device index -> (version, kern.Module)

    def add(self, entry):
        # A redefinition of a kernel or struct replaces the old one (a
        # script run twice in one process, a kernel factory called again);
        # functions of one name are overloads and stay.
        if entry.kind != "func":
            self.entries = [e for e in self.entries
                            if not (e.kind == entry.kind and e.name == entry.name)]
        self.entries.append(entry)
        self.version += 1

    def add_overload(self, line):
        if line not in self.overloads:
            self.overloads.append(line)
            self.version += 1

    def module_for(self, device):
        got = self.built.get(device.index)
        if got is not None and got[0] == self.version:
            return got[1]
        text = self.source()
        m = _module.load(text, device=device, name=self.filename)
        self.built[device.index] = (self.version, m)
        return m

    # ---- the source text

    def _capture(self, e, name, out, seen):
        """Adds the line that captures module-level name for entry e."""
        if name in seen:
            return
        seen.add(name)
        g = self.globals
        ours = {x.name for x in self.entries}
        if name in ours:
            return
        what = "@wp.%s %s (%s:%d)" % (e.kind, e.name, self.filename, e.lineno)
        if name not in g:
            if hasattr(builtins, name):
                return
            raise NotFoundError(
                "kern.warp: %s uses '%s', which is not defined in module %s "
                "(kern.warp resolves a kernel's names among the module's "
                "@wp.func, @wp.struct and module-level values when the "
                "kernel is first launched)" % (what, name, self.name))
        v = g[name]
        line = _capture_line(name, v, self, what)
        if line:
            out.append(line)

    def source(self):
        wpmod = sys.modules[__package__]
        aliases = [n for n, v in self.globals.items() if v is wpmod]
        # kern's parser knows Warp by one name, that of the file's last
        # `import warp as NAME`, and reads only decorators spelt with it: a
        # script that also has `import warp.optim` binds warp to kern.warp
        # as well, and naming both here would hide every @wp.kernel.  So
        # the header names the one the decorators use (a kernel body that
        # spells Warp another way is then an unknown name, reported).
        if len(aliases) > 1:
            used = {a: sum(1 for e in self.entries for ln in e.lines
                           if ln.lstrip().startswith("@%s." % a))
                    for a in aliases}
            aliases = [max(aliases, key=lambda a: used[a])]
        header = ["import warp as %s" % a for a in aliases] or ["import warp as wp"]
        trailer, seen = [], set(aliases)
        for e in self.entries:
            for n in e.loads:
                if n not in e.locals:
                    self._capture(e, n, trailer, seen)
        placed = {}
        ok = True
        first = min((e.lineno for e in self.entries), default=1)
        for e in self.entries:
            for k, text in enumerate(e.lines):
                ln = e.lineno + k
                if ln in placed:
                    ok = False
                placed[ln] = text
        if ok and first > len(header):
            n = max(placed) if placed else 0
            lines = [""] * n
            for i, h in enumerate(header):
                lines[i] = h
            for ln, text in placed.items():
                lines[ln - 1] = text
        else:
            lines = list(header)
            for e in self.entries:
                lines.append("")
                lines.extend(e.lines)
        lines.append("")
        lines.extend(trailer)
        lines.extend(self.overloads)
        return "\n".join(lines) + "\n"


def _literal(v):
    """Source text of a capturable value, or None."""
    if isinstance(v, builtins.bool):
        return repr(v)
    cls = type(v)
    if isinstance(v, int) and hasattr(cls, "_kt"):
        return "wp.%s(%d)" % (cls._wpname, int(v))
    if isinstance(v, float) and hasattr(cls, "_kt"):
        return "wp.%s(%r)" % (cls._wpname, float(v))
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, (_values._VectorBase, _values._MatrixBase)):
        comps = [repr(float(x) if cls._kt.is_float else int(x))
                 for x in (v._flat() if isinstance(v, _values._MatrixBase) else v)]
        return "wp.constant(%s(%s))" % (cls._src, ", ".join(comps))
    return None


def _capture_line(name, v, mod, what):
    wpmod = sys.modules[__package__]
    _Kernel, _Function = wpmod.Kernel, wpmod.Function
    if isinstance(v, types.ModuleType):
        if v is wpmod:
            return "import warp as %s" % name
        if v.__name__ in _KNOWN_MODULES:
            return "import %s as %s" % (v.__name__, name)
        raise UnsupportedError(
            "kern.warp: %s uses module '%s' (%s); kern.warp compiles "
            "names of math, numpy and typing, and the @wp.func of the "
            "kernel's own module" % (what, name, v.__name__))
    if v is typing.Any:
        return "from typing import Any as %s" % name
    if isinstance(v, (_Kernel, _Function)) or getattr(v, "_wp_struct", False):
        owner = v._module if not isinstance(v, type) else v._wp_module
        if owner is not mod:
            raise UnsupportedError(
                "kern.warp: %s uses '%s', a @wp.%s of module %s; kern.warp "
                "compiles the objects of one module together (Note [one "
                "source per Python module]): define it in module %s" % (
                    what, name, "struct" if isinstance(v, type) else
                    ("kernel" if isinstance(v, _Kernel) else "func"),
                    owner.name, mod.name))
        return "%s = %s" % (name, v.key if not isinstance(v, type) else v.__name__)
    src = getattr(v, "_src", None) or (
        "wp." + v._wpname if hasattr(v, "_wpname") and isinstance(v, type) else None)
    if src is not None and isinstance(v, type):
        return "%s = %s" % (name, src)
    if v is float or v is int or v is builtins.bool:
        return "%s = %s" % (name, v.__name__)
    lit = _literal(v)
    if lit is not None:
        return "%s = %s" % (name, lit)
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):
        items = []
        for k, x in v.items():
            lx = _literal(x)
            if lx is None:
                break
            items.append("%r: %s" % (k, lx))
        else:
            return "%s = {%s}" % (name, ", ".join(items))
    raise UnsupportedError(
        "kern.warp: %s uses module-level '%s' (a %s); kern.warp captures "
        "numbers, booleans, Warp scalars, vectors, matrices and types, "
        "strings, dicts of those, and the @wp.func and @wp.struct of the "
        "module" % (what, name, type(v).__name__))


def module_of(pyobj):
    """The _Module of the Python module that defines pyobj."""
    g = getattr(pyobj, "__globals__", None)
    if g is None:
        g = vars(sys.modules[pyobj.__module__])
    m = _modules.get(id(g))
    if m is None or m.globals is not g:
        m = _modules[id(g)] = _Module(g)
    return m
