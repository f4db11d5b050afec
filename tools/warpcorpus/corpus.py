#!/usr/bin/env python3
"""Compile every kernel of Warp's own tests and examples with kern.

This is the corpus measure of issue #10: how much of the Warp dialect as
Warp's users write it kern accepts.  It is run by hand, never in CI, and
Warp's files are never committed: they are read from a fetched copy.

Getting the copy (Warp's github repository NVIDIA/warp, here a bare mirror):

    mkdir -p /tmp/warpsrc
    git --git-dir=/work/.mirror/NVIDIA+warp/repo archive HEAD \\
        warp/tests warp/examples | tar -x -C /tmp/warpsrc
    git --git-dir=/work/.mirror/NVIDIA+warp/repo log -1 --format='%H %cI'

Running it:

    python3 tools/warpcorpus/corpus.py /tmp/warpsrc/warp build/kern [-j 2]
        [--show CATEGORY] [--list] [--keep DIR] [--no-cc] [--adjoint]

How a kernel is found and compiled.  A kernel is a function decorated with
`@wp.kernel` (bare or called, `@wp.kernel(enable_backward=False)`).  One at
the top level of a file is a corpus kernel; one defined inside a function or
a class body is a closure over Python values and is counted as the
"closure" exclusion, as is one that uses a function or struct a Python
function makes and returns (`f1 = create_func(17)`).  kern compiles a whole module and stops at the first
error, and Warp's test files hold dozens of kernels each, so one bad kernel
would sink all the others: each kernel is therefore cut out of its file
together with what it needs -- every top-level import, and, transitively,
the top-level `@wp.func`s, `@wp.struct`s, functions, classes and
assignments whose names it (or they) mention, plus the `wp.overload(...)`
statements that name it -- written in source order to a temporary file and
compiled alone with `kern compile FILE`.  The generated C is then built with
`cc -c` (unless --no-cc), so a kernel counts as compiled only when kern's
output is a valid C translation unit too.

Exclusions (issue #10's list) are decided by what the kernel and the code
it pulls in reference: tiles (`wp.tile*`, `wp.block_dim`), autodiff
(`wp.adjoint`, `wp.Tape`, custom gradients), meshes (`wp.mesh_*`,
`wp.Mesh`), BVH (`wp.bvh_*`, `wp.Bvh`), hash grids, volumes, textures, and
closures.  Failures are grouped by the category of kern's first error
message (quoted names replaced by `…`, the builtin's name kept for "not a
function kern supports").  Every compile has a timeout; a file Python cannot
parse is counted and skipped.
"""
import argparse
import ast
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Exclusion name -> regex over the source text of a kernel and what it uses.
# The order is the order of precedence when several apply.
EXCLUSIONS = [
    ("tiles", re.compile(r"\bwp\.(tile\w*|block_dim|untile)\b|\bwp\.launch_tiled\b")),
    ("autodiff", re.compile(r"\bwp\.(adjoint|Tape|func_grad|func_replay|grad)\b")),
    ("meshes", re.compile(r"\bwp\.(mesh_\w+|Mesh\w*)\b")),
    ("BVH", re.compile(r"\bwp\.(bvh_\w+|Bvh\w*)\b")),
    ("hash grids", re.compile(r"\bwp\.(hash_grid_\w+|HashGrid)\b")),
    ("volumes", re.compile(r"\bwp\.(volume_\w+|Volume\w*)\b")),
    ("textures", re.compile(r"\bwp\.(texture\w*|Texture\w*|tex\w*_sample\w*)\b")),
]

# Features reported per kernel: a kernel counts under every one it uses.
FEATURES = [
    ("struct", re.compile(r"@wp\.struct\b")),
    ("wp.func", re.compile(r"@wp\.func\b")),
    ("generic (Any)", re.compile(r"\bAny\b|\bwp\.(Int|Float|Scalar)\b")),
    ("overload", re.compile(r"\bwp\.overload\b")),
    ("static", re.compile(r"\bwp\.static\b")),
    ("float16", re.compile(r"\b(float16|half|vec\dh|mat\d\dh|bfloat16)\b")),
    ("float64", re.compile(r"\b(float64|vec\dd|mat\d\dd|quatd|transformd)\b")),
    ("quat/transform", re.compile(r"\b(quat\w*|transform\w*)\b")),
    ("spatial", re.compile(r"\bspatial_\w+\b")),
    ("matrix", re.compile(r"\bmat\d\d\w*\b|\bwp\.matrix\b")),
    ("vector", re.compile(r"\bvec\d\w*\b|\bwp\.vector\b")),
    ("atomics", re.compile(r"\batomic_\w+\b")),
    ("random", re.compile(r"\bwp\.(rand\w*|sample_\w+|noise|pnoise|curlnoise)\b")),
    ("expect_*", re.compile(r"\bwp\.expect_\w+\b")),
    ("print", re.compile(r"\b(wp\.)?print\(|\bwp\.printf\b")),
    ("slices/views", re.compile(r"\[[^\]\n]*:[^\]\n]*\]")),
    ("multi-d arrays", re.compile(r"\barray[234]d\b|ndim\s*=")),
    ("loops", re.compile(r"^\s*(for|while)\b", re.M)),
]


def is_kernel_decorator(d):
    """@wp.kernel, @wp.kernel(...), @warp.kernel, @kernel."""
    if isinstance(d, ast.Call):
        d = d.func
    if isinstance(d, ast.Attribute):
        return d.attr == "kernel" and isinstance(d.value, ast.Name) and d.value.id in ("wp", "warp")
    return isinstance(d, ast.Name) and d.id == "kernel"


def is_overload_decorator(d):
    if isinstance(d, ast.Call):
        d = d.func
    return isinstance(d, ast.Attribute) and d.attr == "overload"


def names_in(node):
    """Every plain name mentioned in a node (loads, decorators, annotations)."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
    return out


def defined_names(stmt):
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, ast.Assign):
        out = []
        for t in stmt.targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    out.append(n.id)
        return out
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return []


def stmt_lines(stmt):
    start = stmt.lineno
    for d in getattr(stmt, "decorator_list", []):
        start = min(start, d.lineno)
    return start, stmt.end_lineno


class Kernel:
    def __init__(self, path, name, line):
        self.path, self.name, self.line = path, name, line
        self.exclusion = None  # a key of EXCLUSIONS, or "closure"
        self.exclusion_was = None  # the exclusion, kept when --include lifts it
        self.source = None  # the extracted module
        self.features = []
        self.status = None  # "ok", "fail", "timeout"
        self.error = ""
        self.category = ""


def find_kernels(path, text):
    """The kernels of one file, each extracted with what it needs."""
    tree = ast.parse(text, filename=path)
    lines = text.splitlines()
    kernels = []

    # Nested kernels (inside a function or a class body) are closures.
    def visit_nested(node, inside):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if inside and isinstance(child, ast.FunctionDef) and any(
                    is_kernel_decorator(d) for d in child.decorator_list
                ):
                    k = Kernel(path, child.name, child.lineno)
                    k.exclusion = "closure"
                    kernels.append(k)
                visit_nested(child, True)
            else:
                visit_nested(child, inside)

    visit_nested(tree, False)

    body = tree.body
    imports = [s for s in body if isinstance(s, (ast.Import, ast.ImportFrom))]
    by_name = collections.defaultdict(list)
    for idx, s in enumerate(body):
        for n in defined_names(s):
            by_name[n].append(idx)
    # wp.overload(kernel, ...) statements, by the kernel's name.
    overloads = collections.defaultdict(list)
    for idx, s in enumerate(body):
        if isinstance(s, (ast.Expr, ast.Assign)) and isinstance(s.value, ast.Call):
            f = s.value.func
            if isinstance(f, ast.Attribute) and f.attr == "overload" and s.value.args:
                a0 = s.value.args[0]
                if isinstance(a0, ast.Name):
                    overloads[a0.id].append(idx)

    for idx, s in enumerate(body):
        if not (isinstance(s, ast.FunctionDef) and any(is_kernel_decorator(d) for d in s.decorator_list)):
            continue
        k = Kernel(path, s.name, s.lineno)
        keep = {idx} | set(overloads[s.name])
        for j in by_name[s.name]:
            # @wp.overload stubs of a generic kernel share its name; another
            # kernel of the same name is another corpus kernel.
            if isinstance(body[j], ast.FunctionDef) and any(
                is_overload_decorator(d) for d in body[j].decorator_list
            ):
                keep.add(j)
        todo = list(keep)
        while todo:
            j = todo.pop()
            for n in names_in(body[j]):
                defs = by_name.get(n, [])
                # A class (a struct) defined twice is the last definition
                # when the kernel is compiled, as Warp resolves it at launch.
                classes = [m for m in defs if isinstance(body[m], ast.ClassDef)]
                for m in defs:
                    if m in classes and m != classes[-1]:
                        continue
                    # another kernel is never a dependency of this one
                    t = body[m]
                    if m != idx and isinstance(t, ast.FunctionDef) and any(
                        is_kernel_decorator(d) for d in t.decorator_list
                    ) and t.name != s.name:
                        continue
                    if m not in keep:
                        keep.add(m)
                        todo.append(m)
        parts = []
        for s2 in imports:
            a, b = stmt_lines(s2)
            parts.append("\n".join(lines[a - 1 : b]))
        used = []
        for j in sorted(keep):
            a, b = stmt_lines(body[j])
            used.append("\n".join(lines[a - 1 : b]))
        k.source = "\n".join(parts) + "\n\n\n" + "\n\n\n".join(used) + "\n"
        text_used = "\n".join(used)
        for name, rx in EXCLUSIONS:
            if rx.search(text_used):
                k.exclusion = k.exclusion_was = name
                break
        # A function or struct that a Python function makes and returns
        # (`f1 = create_func(17)`) is a closure over Python values as much
        # as a kernel defined in a function is.
        if k.exclusion is None:
            for j in keep:
                v = getattr(body[j], "value", None)
                if isinstance(body[j], ast.Assign) and isinstance(v, ast.Call) and \
                        isinstance(v.func, ast.Name) and any(
                            isinstance(body[m], ast.FunctionDef) and not body[m].decorator_list
                            for m in by_name.get(v.func.id, [])):
                    k.exclusion = "closure"
                    break
        k.features = [name for name, rx in FEATURES if rx.search(text_used)]
        kernels.append(k)
    kernels.sort(key=lambda k: k.line)
    return kernels


ERR_RX = re.compile(r"^(?:.*?):(\d+):(\d+): error: (.*)$", re.M)


def categorize(msg):
    """The category of one error message: quoted names elided."""
    m = re.match(r"(wp\.\w+) is not a function kern supports", msg)
    if m:
        return m.group(0)
    m = re.match(r"(wp\.\w+) is not supported yet", msg)
    if m:
        return m.group(0)
    c = re.sub(r"'[^']*'", "'…'", msg)
    c = re.sub(r"\b\d+\b", "N", c)
    return c


def _unlink(*paths):
    for p in paths:
        try:
            os.unlink(p)
        except OSError:
            pass


def _first_error(r):
    """kern's first error message from a failed run r."""
    if r.returncode < 0:
        return "kern crashed (signal %d)" % -r.returncode
    err = r.stderr.strip()
    m = ERR_RX.search(err)
    return m.group(3) if m else (err.splitlines() or ["exit %d" % r.returncode])[0]


def compile_one(k, kern, tmp, timeout, use_cc):
    fd, src = tempfile.mkstemp(suffix=".py", dir=tmp)
    with os.fdopen(fd, "w") as f:
        f.write(k.source)
    out = src[:-3] + ".c"
    try:
        try:
            r = subprocess.run([kern, "compile", src, "-o", out], capture_output=True,
                               text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            k.status, k.error, k.category = "fail", "timeout", "kern timed out"
            return k
        except OSError as e:
            k.status, k.error, k.category = "fail", str(e), "could not run kern"
            return k
        if r.returncode != 0:
            k.status = "fail"
            k.error = _first_error(r)
            k.category = categorize(k.error)
            return k
        if use_cc:
            try:
                r = subprocess.run(["cc", "-std=c11", "-c", "-O0", "-w", out, "-o", out + ".o"],
                                   capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                k.status, k.error, k.category = "fail", "cc timeout", "cc timed out"
                return k
            except OSError as e:
                k.status, k.error, k.category = "fail", str(e), "could not run cc"
                return k
            if r.returncode != 0:
                k.status = "fail"
                m = re.search(r"error: (.*)", r.stderr)
                k.error = "generated C does not build: " + (m.group(1) if m else r.stderr[:200])
                k.category = "generated C does not build"
                return k
        k.status = "ok"
        return k
    finally:
        _unlink(src, out, out + ".o")


def adjoint_one(k, kern, tmp, timeout, use_cc):
    """With --adjoint: kernel k (compiled) asks kern for its reverse-mode
    adjoint (`kern compile --adjoint NAME`).  k.adj is "ok", "off" (Warp's
    enable_backward=False: no adjoint, as in Warp) or the error; the
    category goes to k.adj_category."""
    fd, src = tempfile.mkstemp(suffix=".py", dir=tmp)
    with os.fdopen(fd, "w") as f:
        f.write(k.source)
    out = src[:-3] + ".c"
    k.adj, k.adj_category = "ok", None
    try:
        try:
            r = subprocess.run([kern, "compile", src, "--adjoint", k.name, "-o", out],
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            k.adj, k.adj_category = "timeout", "kern timed out"
            return k
        if r.returncode != 0:
            k.adj = _first_error(r)
            if "enable_backward=False" in k.adj:
                k.adj, k.adj_category = "off", None
                return k
            if re.match(r"no kernel '[^']*' to differentiate", k.adj):
                # generic: its instances are named NAME[types] (kern's
                # runtime builds their adjoints at the launch)
                k.adj, k.adj_category = "generic", None
                return k
            m = re.match(r"autodiff of (wp\.\w+)", k.adj)
            k.adj_category = m.group(0) if m else categorize(k.adj)
            return k
        if use_cc:
            r = subprocess.run(["cc", "-std=c11", "-c", "-O0", "-w", out, "-o", out + ".o"],
                               capture_output=True, text=True, timeout=timeout)
            if r.returncode != 0:
                k.adj, k.adj_category = "generated C does not build", "generated C does not build"
        return k
    finally:
        _unlink(src, out, out + ".o")


def print_adjoints(ok, rel):
    """The --adjoint summary over the kernels that compiled."""
    off = [k for k in ok if k.adj == "off"]
    generic = [k for k in ok if k.adj == "generic"]
    tried = [k for k in ok if k.adj not in ("off", "generic")]
    good = [k for k in tried if k.adj == "ok"]
    print()
    print("Adjoints (kern compile --adjoint) of the %d kernels that compile:" % len(ok))
    print("  %d with enable_backward=False (no adjoint, as in Warp)" % len(off))
    print("  %d generic (typing.Any: instantiated at the launch, not asked here)" % len(generic))
    print("  %d of %d others have an adjoint (%.1f%%)"
          % (len(good), len(tried), 100.0 * len(good) / len(tried) if tried else 0.0))
    cats = collections.Counter(k.adj_category for k in tried if k.adj != "ok")
    for cat, n in cats.most_common():
        ex = next(k for k in tried if k.adj_category == cat)
        print("  %4d  %s" % (n, cat))
        print("        e.g. %s:%d %s" % (rel(ex.path), ex.line, ex.name))


def select(kernels, include, included_only):
    """The kernels to try: those of no exclusion, plus those of the
    exclusions named in include (--include), or only those (--included-only).
    A lifted exclusion is kept in exclusion_was and counted as a feature.
    Shared with corpus_run.py."""
    for k in kernels:
        if k.exclusion in include:
            k.exclusion = None
            k.features.append(k.exclusion_was)
    todo = [k for k in kernels if k.exclusion is None]
    if included_only:
        todo = [k for k in todo if k.exclusion_was in include]
    return todo


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", help="Warp's files (warp/tests and warp/examples below it)")
    ap.add_argument("kern", help="the kern binary")
    ap.add_argument("-j", type=int, default=1, help="compiles at once")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per compile")
    ap.add_argument("--no-cc", action="store_true", help="do not build kern's C output")
    ap.add_argument("--show", help="list the kernels of failure categories containing this text")
    ap.add_argument("--list", action="store_true", help="print every kernel's result")
    ap.add_argument("--keep", help="write each failing kernel's extracted module here")
    ap.add_argument("--only", help="only files whose path contains this text")
    ap.add_argument("--include", action="append", default=[],
                    help="count the kernels of this exclusion (e.g. tiles) as ordinary ones")
    ap.add_argument("--adjoint", action="store_true",
                    help="also ask for the adjoint of every kernel that compiles, and count")
    ap.add_argument("--included-only", action="store_true",
                    help="with --include: compile only the kernels of those exclusions")
    args = ap.parse_args()

    files = []
    for root, _, names in os.walk(args.dir):
        for n in names:
            if n.endswith(".py"):
                p = os.path.join(root, n)
                if not args.only or args.only in p:
                    files.append(p)
    files.sort()

    kernels, unparsable = [], []
    for p in files:
        try:
            with open(p, encoding="utf-8") as f:
                text = f.read()
            kernels.extend(find_kernels(p, text))
        except (SyntaxError, UnicodeDecodeError, ValueError, RecursionError) as e:
            unparsable.append((p, str(e)))

    todo = select(kernels, args.include, args.included_only)
    tmp = tempfile.mkdtemp(prefix="kern-corpus-")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as ex:
            list(ex.map(lambda k: compile_one(k, args.kern, tmp, args.timeout, not args.no_cc), todo))
            if args.adjoint:
                # a generic kernel is in the module once per overload, under
                # another name: only plain kernels are asked
                list(ex.map(lambda k: adjoint_one(k, args.kern, tmp, args.timeout, not args.no_cc),
                            [k for k in todo if k.status == "ok"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    rel = lambda p: os.path.relpath(p, args.dir)
    excluded = [k for k in kernels if k.exclusion]
    ok = [k for k in todo if k.status == "ok"]
    failed = [k for k in todo if k.status != "ok"]

    print("Warp corpus: %d files, %d kernels (%d files Python cannot parse)"
          % (len(files), len(kernels), len(unparsable)))
    print()
    print("Exclusions:")
    for name, n in collections.Counter(k.exclusion for k in excluded).most_common():
        print("  %-12s %5d" % (name, n))
    print()
    print("Per feature (non-excluded kernels that use it):")
    print("  %-16s %6s %8s %6s" % ("feature", "kernels", "compile", "%"))
    for name, _ in FEATURES + [(n, None) for n in args.include] + [("(all)", None)]:
        ks = [k for k in todo if name == "(all)" or name in k.features]
        n_ok = sum(k.status == "ok" for k in ks)
        if ks:
            print("  %-16s %6d %8d %6.1f" % (name, len(ks), n_ok, 100.0 * n_ok / len(ks)))
    print()
    print("Failures by the first error's category:")
    cats = collections.Counter(k.category for k in failed)
    for cat, n in cats.most_common():
        ex = next(k for k in failed if k.category == cat)
        print("  %4d  %s" % (n, cat))
        print("        e.g. %s:%d %s" % (rel(ex.path), ex.line, ex.name))
    print()
    pct = 100.0 * len(ok) / len(todo) if todo else 0.0
    print("Totals: %d kernels, %d excluded, %d compiled, %d failed; %.1f%% of the %d "
          "non-excluded kernels compile" % (len(kernels), len(excluded), len(ok), len(failed),
                                           pct, len(todo)))
    # Not an exclusion of issue #10, shown apart: C++/CUDA source snippets,
    # which a C11 compiler cannot take.
    native = [k for k in failed if "func_native" in k.error]
    if native:
        rest = len(todo) - len(native)
        print("Of those failures, %d use @wp.func_native (C++ snippets); without them %.1f%% "
              "of %d compile" % (len(native), 100.0 * len(ok) / rest, rest))

    if args.adjoint:
        print_adjoints(ok, rel)
    if args.show:
        print()
        for k in failed:
            if args.show in k.category:
                print("%s:%d %s: %s" % (rel(k.path), k.line, k.name, k.error))
    if args.list:
        print()
        # with --included-only, only the kernels counted (the others were
        # not compiled and have no status)
        for k in (todo if args.included_only else kernels):
            st = k.exclusion and ("excluded: " + k.exclusion) or (k.status + ("" if k.status == "ok" else ": " + k.error))
            print("%s:%d %s: %s" % (rel(k.path), k.line, k.name, st))
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for k in failed:
            name = "%s__%s.py" % (rel(k.path).replace("/", "_")[:-3], k.name)
            with open(os.path.join(args.keep, name), "w") as f:
                f.write(k.source)
    for p, e in unparsable:
        print("unparsable: %s: %s" % (rel(p), e), file=sys.stderr)


if __name__ == "__main__":
    main()
