#!/usr/bin/env python3
"""Note [vulkan float controls]: kern adds SignedZeroInfNanPreserve and
DenormPreserve (float32 and float64, where the device keeps them) to each
kernel's SPIR-V after compiling it.  This test builds a kernel with
KERN_VULKAN_FLOAT_CONTROLS=1 (lavapipe builds without them by default: its
float64-to-float32 NaN conversion goes wrong with them) and =0, with
KERN_VULKAN_SPIRV_VAL pointing at a wrapper that runs spirv-val on every
module and disassembles it: every module must validate, carry the
capability and one execution mode per width the device reports with =1,
none with =0, and the kernel's results must be right both ways; with
KERN_VULKAN_DENORM_FLUSH=1, float32's DenormFlushToZero alone (the mode
that emulates NVIDIA's float32 flushing; lavapipe does not honour it).  (What the
modes change in results shows on NVIDIA's driver, which without them folds
isinf and flushes float32 denormals: bi_math_special32/64 there.)
usage: float_controls_test.py KERN   (exit 77: no Vulkan device, NumPy,
spirv-val or spirv-dis)"""
import math, os, shutil, subprocess, sys, tempfile
try:
    import numpy as np
except ImportError:
    print("skip: no NumPy"); sys.exit(77)

KERN = sys.argv[1]
dev = subprocess.run([KERN, "devices"], capture_output=True, text=True).stdout
if "vulkan: available" not in dev:
    print("skip: no vulkan device"); sys.exit(77)
val, dis = shutil.which("spirv-val"), shutil.which("spirv-dis")
if not val or not dis:
    print("skip: no spirv-val or spirv-dis (SPIRV-Tools)"); sys.exit(77)
SRC = """import warp as wp

@wp.kernel
def k(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float32), o: wp.array(dtype=wp.float64), p: wp.array(dtype=wp.float32)):
    i = wp.tid()
    o[i] = x[i] * wp.float64(2.0)
    p[i] = wp.sqrt(y[i])
"""
fails = 0
with tempfile.TemporaryDirectory() as d:
    open(os.path.join(d, "fc.py"), "w").write(SRC)
    wrap = os.path.join(d, "val.sh")
    open(wrap, "w").write('#!/bin/sh\n"%s" "$@" || exit $?\nfor a; do [ -f "$a" ] && "%s" "$a" >> "%s/dis.txt"; done\nexit 0\n'
                          % (val, dis, d))
    os.chmod(wrap, 0o755)
    np.save(os.path.join(d, "x.npy"), np.array([math.inf, -0.0, 1.5], dtype=np.float64))
    np.save(os.path.join(d, "y.npy"), np.array([4.0, -0.0, 2.25], dtype=np.float32))
    for fc in ("1", "0", "flush"):
        if os.path.exists(os.path.join(d, "dis.txt")):
            os.remove(os.path.join(d, "dis.txt"))
        env = dict(os.environ, KERN_CACHE_DIR=os.path.join(d, "cache"),
                   KERN_VULKAN_FLOAT_CONTROLS=fc, KERN_VULKAN_SPIRV_VAL=wrap,
                   KERN_VULKAN_DENORM_FLUSH="1" if fc == "flush" else "0")
        cmd = [KERN, "run", os.path.join(d, "fc.py"), "k", "--dim", "3", "--backend", "vulkan",
               "-q", "x=%s/x.npy" % d, "y=%s/y.npy" % d, "o=zeros(float64,3)", "p=zeros(float32,3)",
               "--save", "o=%s/o.npy" % d, "--save", "p=%s/p.npy" % d]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            print("FAIL: kern run (KERN_VULKAN_FLOAT_CONTROLS=%s): %s%s" % (fc, r.stdout, r.stderr))
            sys.exit(1)
        o, p = np.load("%s/o.npy" % d), np.load("%s/p.npy" % d)
        if not (math.isinf(o[0]) and o[1] == 0 and o[2] == 3.0 and p[0] == 2 and p[2] == 1.5):
            print("FAIL: wrong results with =%s: %r %r" % (fc, o, p)); fails += 1
        text = open(os.path.join(d, "dis.txt")).read() if os.path.exists(os.path.join(d, "dis.txt")) else ""
        modes = sorted(l.split(None, 2)[2].strip() for l in text.splitlines()
                       if "OpExecutionMode" in l and ("Preserve" in l or "FlushToZero" in l))
        caps = sorted(l.split()[1] for l in text.splitlines()
                      if l.strip().startswith("OpCapability") and
                      ("Preserve" in l or "FlushToZero" in l))
        print("KERN_VULKAN_FLOAT_CONTROLS=%s: capabilities %s, modes %s" % (fc, caps, modes))
        if "OpEntryPoint" not in text:
            print("FAIL: the validator wrapper saw no module"); fails += 1
        elif fc == "1" and (not modes or not caps or
                            not all(m.endswith(("32", "64")) for m in modes)):
            print("FAIL: no float-control modes with =1 (lavapipe reports SignedZeroInfNanPreserve)"); fails += 1
        elif fc == "0" and (modes or caps):
            print("FAIL: float-control modes with =0"); fails += 1
        elif fc == "flush" and (caps != ["DenormFlushToZero"] or
                                [m.split()[-2:] for m in modes] != [["DenormFlushToZero", "32"]]):
            print("FAIL: KERN_VULKAN_DENORM_FLUSH=1 gave %s %s" % (caps, modes)); fails += 1
sys.exit(1 if fails else 0)
