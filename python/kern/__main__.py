"""``python -m kern``: the command-line tool's run, compile and devices, in
Python (docs/cli.md describes the C tool they mirror).

The commands take the C tool's arguments and options and exit the same way
(0 success, 1 a failure such as a compile error, 2 bad usage), so a line that
works with ``kern`` works with ``python -m kern``.  ``run`` prints arrays
with NumPy's own formatting, and needs NumPy.
"""
import argparse
import os
import sys
import tempfile

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("kern: error: %s\n" % message)
        sys.exit(EXIT_USAGE)


def _err(msg):
    sys.stderr.write("kern: error: %s\n" % msg)
    return EXIT_FAIL


def _lib_err(e):
    import kern
    if isinstance(e, kern.CompileError):
        sys.stderr.write(e.message.rstrip("\n") + "\n")
        return EXIT_FAIL
    return _err(e.message if isinstance(e, kern.Error) else str(e))


def cmd_devices(argv):
    p = _Parser(prog="python -m kern devices",
                description="List every backend and device.")
    p.parse_args(argv)
    import kern
    try:
        backends = kern.backends()
        devs = kern.devices()
    except kern.Error as e:
        return _lib_err(e)
    for name, avail, reason, _n in backends:
        print("%s: available" % name if avail else
              "%s: unavailable (%s)" % (name, reason or "no devices"))
        for d in devs:
            if d.backend != name:
                continue
            print("  %s  %s  %s" % (d.name, d.model, d.description))
    try:
        d = kern.get_device(None)
        print("default device: %s" % d.name)
    except kern.Error as e:
        print("default device: none (%s)" % e.message)
    return EXIT_OK


def _write_atomic(path, data_fn):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".kern-", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            data_fn(f)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def cmd_compile(argv):
    p = _Parser(prog="python -m kern compile",
                description="Print the code kern generates for FILE.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-t", "--target", default="c", choices=("c", "cuda", "opencl", "vulkan"))
    p.add_argument("-o", "--output", metavar="OUT")
    p.add_argument("--debug", action="store_true",
                   help="emit debug mode's bounds checks")
    a = p.parse_args(argv)
    import kern
    try:
        with open(a.file, "rb") as f:
            src = f.read()
    except OSError as e:
        return _err("cannot open '%s': %s" % (a.file, e.strerror))
    try:
        kern.init(debug=a.debug)
        code = kern.compile_source(src, a.target, name=a.file)
    except kern.Error as e:
        return _lib_err(e)
    if a.output:
        _write_atomic(a.output, lambda f: f.write(code.encode()))
    else:
        sys.stdout.write(code)
    return EXIT_OK


def cmd_run(argv):
    p = _Parser(prog="python -m kern run",
                description="Compile FILE, launch KERNEL once over --dim, "
                "print or save every array argument.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("kernel", metavar="KERNEL")
    p.add_argument("args", metavar="NAME=SPEC", nargs="*")
    p.add_argument("--dim", required=True, metavar="N[,M...]")
    p.add_argument("--backend", choices=("cpu", "cuda", "opencl", "vulkan", "auto"))
    p.add_argument("--device")
    p.add_argument("--save", action="append", default=[], metavar="NAME=PATH.npy")
    p.add_argument("-q", "--quiet", action="store_true")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--no-cache", action="store_true")
    p.add_argument("--unchecked", action="store_true")
    p.add_argument("--debug", action="store_true")
    a = p.parse_intermixed_args(argv)
    if a.backend and a.device:
        p.error("give --backend or --device, not both")
    try:
        import numpy as np
    except ImportError:
        return _err("python -m kern run needs NumPy (pip install numpy)")
    import kern
    from kern import _spec

    if not os.path.exists(a.file):
        return _err("cannot open '%s': No such file or directory" % a.file)
    debug = not a.unchecked
    if not debug:
        os.environ.pop("KERN_DEBUG", None)
    try:
        dims = _spec.parse_dims(a.dim)
        kern.init(debug=debug, num_threads=a.threads, no_cache=a.no_cache)
        dev = kern.get_device(a.device or a.backend)
        mod = kern.load(a.file, device=dev)
        if a.kernel not in mod:
            import difflib
            near = difflib.get_close_matches(a.kernel, mod.kernels, 1)
            return _err("no kernel '%s' in %s%s (its kernels: %s)" % (
                a.kernel, a.file, "; did you mean '%s'?" % near[0] if near else "",
                ", ".join(mod.kernels) or "none"))
        k = mod.kernel(a.kernel)
        values, given = {}, {}
        names = [q.name for q in k.params]
        for item in a.args:
            name, eq, spec = item.partition("=")
            if not eq or not name.isidentifier():
                p.error("unexpected argument '%s' (give parameters as NAME=SPEC)" % item)
            if name not in names:
                return _err("kernel '%s' has no parameter '%s' (its parameters: %s)"
                            % (a.kernel, name, ", ".join(names) or "none"))
            if name in given:
                return _err("parameter '%s' is given more than once" % name)
            given[name] = spec
        missing = [n for n in names if n not in given]
        if missing:
            return _err("missing argument%s for parameter%s %s; give %s as NAME=SPEC"
                        % ("s" if len(missing) > 1 else "", "s" if len(missing) > 1 else "",
                           ", ".join("'%s'" % m for m in missing),
                           "each" if len(missing) > 1 else "it"))
        saves = {}
        for s in a.save:
            name, eq, path = s.partition("=")
            if not eq or not path:
                p.error("--save '%s' is not NAME=PATH.npy" % s)
            q = [x for x in k.params if x.name == name]
            if not q or not q[0].is_array:
                return _err("--save %s: kernel '%s' has no array parameter '%s'"
                            % (name, a.kernel, name))
            saves[name] = path
        host = {}
        for q in k.params:
            if q.is_array:
                host[q.name] = _spec.parse_array(q, given[q.name])
            else:
                values[q.name] = _spec.parse_value(q, given[q.name])
        arrays = {n: kern.array(h, dtype=[q for q in k.params if q.name == n][0].dtype,
                                device=dev) for n, h in host.items()}
        args = [arrays[q.name] if q.is_array else values[q.name] for q in k.params]
        env = os.environ.get("KERN_DEVICE", "")
        chosen = a.device or a.backend
        if not a.quiet and (chosen == "auto" or (not chosen and env in ("", "auto"))):
            # As the C tool: say what "auto" chose, so a slow run on the CPU
            # fallback is not taken for a slow GPU.
            sys.stderr.write("kern: running on %s (%s)\n" % (dev.name, dev.model))
        k(*args, dim=dims)
        for q in k.params:
            if not q.is_array:
                continue
            out = arrays[q.name].numpy()
            if q.name in saves:
                _write_atomic(saves[q.name], lambda f: np.save(f, out))
            elif not a.quiet:
                prefix = "%s = " % q.name
                print(prefix + np.array2string(out, prefix=prefix, threshold=1000))
    except _spec.SpecError as e:
        return _err(str(e))
    except kern.Error as e:
        return _lib_err(e)
    return EXIT_OK


_COMMANDS = {"run": cmd_run, "compile": cmd_compile, "devices": cmd_devices}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(
            "usage: python -m kern COMMAND [ARGS]\n\n"
            "  devices                       list backends and devices\n"
            "  compile FILE [--target T]     print the generated code\n"
            "  run FILE KERNEL --dim N [NAME=SPEC ...]\n"
            "                                launch one kernel, print its arrays\n\n"
            "The same commands as the kern tool (docs/cli.md).\n")
        return EXIT_OK if argv else EXIT_USAGE
    if argv[0] in ("-V", "--version"):
        import kern
        print("kern %s (python package %s)" % (kern.version(), kern.__version__))
        return EXIT_OK
    cmd = _COMMANDS.get(argv[0])
    if cmd is None:
        sys.stderr.write("kern: error: unknown command '%s' (run, compile, "
                         "devices)\n" % argv[0])
        return EXIT_USAGE
    return cmd(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
