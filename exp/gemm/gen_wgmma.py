# Writes wgmma_ops.h: the m64nNk16 wgmma wrappers with N f32 accumulators.
import sys
out = []
for ty, ptx in (("f16", "f16"), ("bf16", "bf16")):
    for n in (256, 128):
        nreg = n // 2
        regs = ", ".join("%%%d" % i for i in range(nreg))
        s = []
        s.append("__device__ static inline void wgmma_%s_n%d(float *d, unsigned long long da, unsigned long long db) {" % (ty, n))
        s.append('  asm volatile("{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%d, 0;\\n"' % (nreg + 2))
        s.append('    "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s "' % (n, ptx, ptx))
        s.append('    "{%s}, "' % regs)
        s.append('    "%%%d, %%%d, p, 1, 1, 0, 1;\\n"' % (nreg, nreg + 1))
        s.append('    "}\\n"')
        s.append("    : " + ", ".join('"+f"(d[%d])' % i for i in range(nreg)))
        s.append('    : "l"(da), "l"(db), "r"(1));')
        s.append("}")
        out.append("\n".join(s))
open(sys.argv[1], "w").write("\n\n".join(out) + "\n")
