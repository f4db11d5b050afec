#!/usr/bin/env python3
"""Which of Warp's kernel builtins kern supports: a Markdown table.

Run by hand where warp-lang is installed (never in CI):

    python3 tools/warpcorpus/builtin_table.py build/kern > docs/WARP-BUILTINS.md

For every public name in Warp's builtin registry (warp._src.context.
builtin_functions) it compiles a one-line kernel calling wp.NAME() with kern
and reads the first error: "is not a function kern supports" or "is not
supported yet" means not yet; any other message (wrong arguments, ...) or
none means kern knows the name.  Names the issue leaves out (meshes,
BVHs, hash grids, volumes, textures, and Warp's adj_ helpers, which are
its generated adjoints' own: kern's autodiff, issue #26, builds adjoints
from the IR instead) are marked never; tiles are issue #24's,
and Warp's internal helpers (the ones codegen inserts: assign_inplace,
array_store, ...) are listed apart.
"""
import os
import subprocess
import sys
import tempfile

import warp as wp  # noqa: F401  (the registry is filled on import)
from warp._src import context

NEVER_PREFIXES = ("mesh_", "bvh_", "hash_grid_", "volume_", "texture",
                  "adj_")
NEVER_REASON = "outside issue #10 (meshes, BVH, hash grids, volumes, textures)"
# Tiles are issue #24: the names its first and second stages have
# (src/lower/check_tile.c) say where they are tested; the others are "not
# yet" with kern's message.
TILE_PREFIXES = ("tile", "untile", "block_dim")
TILE_NOTE = ("issue #24: on the CPU a block is one thread as in Warp's CPU; on CUDA and "
             "OpenCL each thread of a block computes the whole tile (docs/language.md, "
             "\"Tiles\"); ")
TILE_GPU_NO = " (the CPU only: refused by name on CUDA and OpenCL)"
TILE_STACK_GPU_NO = " (the CPU and Vulkan only: refused by name on CUDA and OpenCL)"
TILE_TESTS = {
    "block_dim": "launch_tid_fold.py",
    "tile_load": "tile_load_store_1d.py, tile_load_store_2d.py",
    "tile_store": "tile_load_store_1d.py, tile_load_store_2d.py",
    "tile_zeros": "tile_create.py", "tile_ones": "tile_create.py",
    "tile_full": "tile_create.py", "tile_arange": "tile_create.py",
    "tile_empty": "tile_views.py (zeroed)",
    "tile_map": "tile_map.py, tile_map_values.py", "tile_sum": "tile_reduce.py, tile_ops_axis.py (axis=)",
    "tile_min": "tile_reduce.py", "tile_max": "tile_reduce.py",
    "tile_reduce": "tile_reduce.py, tile_ops_axis.py (axis=)",
    "tile_extract": "tile_reduce.py, tile_create.py",
    "tile_atomic_add": "tile_atomic_add.py (the returned old values are zero on a GPU "
                       "block's other threads)",
    "tile_matmul": "tile_matmul.py (float32 and float64, plain loops)",
    "tile_load_indexed": "tile_indexed.py", "tile_store_indexed": "tile_indexed.py",
    "tile_atomic_add_indexed": "tile_indexed.py",
    "tile_transpose": "tile_views.py (a copy; writing in place into a view or its tile is refused)",
    "tile_broadcast": "tile_views.py (a copy, see tile_transpose)",
    "tile_reshape": "tile_views.py (a copy, see tile_transpose)",
    "tile_squeeze": "tile_views.py (a copy, see tile_transpose)",
    "tile_view": "tile_views.py (integer offsets; a copy, see tile_transpose)",
    "tile_astype": "tile_views.py", "tile_assign": "tile_views.py",
    "tile_cholesky": "tile_linalg.py", "tile_cholesky_inplace": "tile_linalg.py",
    "tile_cholesky_solve": "tile_linalg.py", "tile_cholesky_solve_inplace": "tile_linalg.py",
    "tile_lower_solve": "tile_linalg.py", "tile_lower_solve_inplace": "tile_linalg.py",
    "tile_upper_solve": "tile_linalg.py", "tile_upper_solve_inplace": "tile_linalg.py",
    "tile_diag_add": "tile_linalg.py",
    "tile_argmax": "tile_scan_sort.py", "tile_argmin": "tile_scan_sort.py",
    "tile_scan_inclusive": "tile_scan_sort.py", "tile_scan_exclusive": "tile_scan_sort.py",
    "tile_scan_max_inclusive": "tile_scan_sort.py", "tile_scan_min_inclusive": "tile_scan_sort.py",
    "tile_sort": "tile_scan_sort.py (stable; Warp leaves equal keys unordered)",
    "tile_randf": "tile_scan_sort.py", "tile_randi": "tile_scan_sort.py",
    "tile_dot": "tile_scan_sort.py", "tile_axpy": "tile_scan_sort.py",
    "tile_add_inplace": "tile_scan_sort.py (t += u)", "tile_sub_inplace": "tile_scan_sort.py (t -= u)",
    "tile_bit_and_inplace": "tile_scan_sort.py (t &= u)",
    "tile_bit_or_inplace": "tile_scan_sort.py (t |= u)",
    "tile_bit_xor_inplace": "tile_scan_sort.py (t ^= u)",
    "tile": "tile_threads.py" + TILE_GPU_NO, "untile": "tile_threads.py",
    "tile_from_thread": "tile_threads.py" + TILE_GPU_NO,
    "tile_scatter_add": "tile_threads.py" + TILE_GPU_NO,
    "tile_scatter_masked": "tile_threads.py" + TILE_GPU_NO,
    "tile_slice_indexed": "tile_subscript.py (the subscript form t[idx, :])",
    **{name: "tile_stack.py" + TILE_STACK_GPU_NO
       for name in ("tile_stack", "tile_stack_push", "tile_stack_pop",
                    "tile_stack_count", "tile_stack_clear")},
}
# Tile builtins kern has under their operator or subscript spelling only.
SPELLED_TILE = {"tile_add_inplace", "tile_sub_inplace", "tile_bit_and_inplace",
                "tile_bit_or_inplace", "tile_bit_xor_inplace", "tile_slice_indexed"}
# Inserted by Warp's code generator, not written by users.
INTERNAL = {"add_inplace", "address", "array_store", "assign", "assign_copy",
            "assign_inplace", "bit_and_inplace", "bit_or_inplace",
            "bit_xor_inplace", "copy", "div_inplace", "extract", "index",
            "indexref", "iter_next", "iter_reverse", "load", "lshift_inplace",
            "mod_inplace", "mul_inplace", "reversed", "rshift_inplace",
            "select", "store", "sub_inplace", "view", "where_inplace",
            "range", "len", "print", "printf", "breakpoint", "expect_eq",
            "expect_neq", "expect_near"}


# Operators and Python builtins Warp registers under a name: kern supports
# the operator or Python spelling; the wp.NAME(...) call is what is checked.
SPELLED = {"bit_and": "a & b", "bit_or": "a | b", "bit_xor": "a ^ b",
           "floordiv": "a // b", "lshift": "a << b", "rshift": "a >> b",
           "invert": "~a", "pos": "+a", "unot": "not a", "float": "float(x)",
           "int": "int(x)", "len": "len(x)", "range": "range(...)",
           "tuple": "tuple results of @wp.func", "matrix": "wp.matNN(...)",
           "vector": "wp.vecN(...)", "quaternion": "wp.quat(...)",
           "transformation": "wp.transform(p, q)"}


# What a "yes" does not say: where kern's answer may differ from Warp's, and
# why (issue #10: every remaining difference is in this table).  The
# conformance kernel of each is named; "bit-exact" means equal to Warp's
# CPU build on the C target.
NOTES = {
    "erf": "libm's erf of each target (C: glibc, as Warp's CPU build); builtin_erf_bits.py",
    "erfc": "libm's erfc of each target; builtin_erf_bits.py",
    "erfinv": "computed in double by kern's own method (src/emit/extra.c, Note [erfinv]) and rounded, "
              "as Warp's CPU build computes in double: float32 equal to Warp on 100k samples, float64 "
              "within 6 ulp; Warp's CUDA build uses libdevice's erfinvf instead; builtin_erf_bits.py",
    "erfcinv": "erfinv(1 - x) in double, as Warp's CPU build; see erfinv",
    "div_approx": "exact division on every target (Warp: approximate on CUDA, exact on the CPU); "
                  "builtin_op_calls.py",
    "inverse_approx": "wp.inverse on every target (Warp: the same method on the CPU); builtin_erf_bits.py",
    "cast": "scalars, vectors and matrices of the same size (Warp also casts structs); builtin_erf_bits.py",
    "vector": "2 to 4 components (and 6 as spatial_vector); builtin_op_calls.py",
    "matrix": "2 to 4 rows and columns (and 6x6 as spatial_matrix); builtin_op_calls.py",
    "tuple": "as a @wp.func's return value and in a, b = wp.tuple(...), not as a local value; builtin_tuple.py",
    "intersect_tri_tri": "kern's own separating-axis test (Note [triangle intersection]), equal to Warp's "
                         "Moeller test on 200k random pairs; touching triangles may differ; builtin_intersect.py",
    "closest_point_edge_edge": "Warp's formulas (Kahan's difference of products), bit-exact; builtin_intersect.py",
    "noise": "Warp's noise.h algorithm, bit-exact; builtin_noise.py",
    "pnoise": "bit-exact; a zero period gives 0 instead of a division fault; builtin_noise.py",
    "curlnoise": "bit-exact; builtin_noise.py",
    "randu": "Warp's PCG draws in Warp's order, exact; an empty range gives the draw itself (Warp divides "
             "by zero); builtin_sampling.py",
    "poisson": "exact (Warp's Knuth and PTRS samplers in float32); builtin_sampling.py",
    "sample_cdf": "builtin_sampling.py", "lower_bound": "Warp's search: a value above every element "
                  "gives the last index; builtin_sampling.py",
    "quat_to_axis_angle": "unpacked: axis, angle = wp.quat_to_axis_angle(q); builtin_quat_more.py",
    "transform_decompose": "unpacked: p, q, s = wp.transform_decompose(m); builtin_xform_more.py",
    "transform_set_translation_copy": "not compared: Warp 1.19 types its result as a float16 transform, "
                                      "kern as the argument's type",
    "transform_set_rotation_copy": "not compared: see transform_set_translation_copy",
    "spatial_vector": "Warp's 6-vector (float32, float64); from (w, v) in float32 as Warp; builtin_spatial.py",
    "spatial_matrix": "Warp's 6x6 matrix; builtin_spatial.py",
    "ddot": "fused multiply-adds as Warp's mat.h; builtin_quat_more.py",
    "svd2": "Warp's closed form step for step (src/emit/linalg.c), float32 and float64, unpacked or "
            "into output variables; bit-exact; float16 not yet; linalg_svd2*.py",
    "svd3": "Warp's Jacobi iteration (4 sweeps, float64 8) and Givens QR step for step, signs and order "
            "included; bit-exact; float16 not yet; linalg_svd3*.py",
    "qr3": "Warp's three Givens rotations step for step; bit-exact; float16 not yet; linalg_qr3*.py",
    "eig3": "Warp's Jacobi iteration on the lower triangle; bit-exact; float16 not yet; linalg_eig3*.py",
}


def classify(kern, name):
    src = ("import warp as wp\n\n\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n"
           f"    wp.{name}()\n")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(src)
        path = f.name
    try:
        r = subprocess.run([kern, "compile", path, "-o", os.devnull],
                           capture_output=True, text=True, timeout=20)
    finally:
        os.unlink(path)
    first = r.stderr.splitlines()[0] if r.stderr else ""
    msg = first.split("error: ", 1)[-1]
    if "is not a function kern supports" in msg or "not supported yet" in msg:
        return "not yet", ""
    if "is not supported" in msg and "kernel" not in msg:
        return "not yet", msg
    return "yes", ""


def main():
    kern = sys.argv[1] if len(sys.argv) > 1 else "build/kern"
    names = sorted(n for n in context.builtin_functions if not n.startswith("_"))
    rows = []
    for n in names:
        if n.startswith(NEVER_PREFIXES):
            rows.append((n, "never", NEVER_REASON))
        elif n.startswith(TILE_PREFIXES):
            status, note = classify(kern, n)
            if n in TILE_TESTS:
                status = "yes" if status == "yes" or n in SPELLED_TILE else status
                note = TILE_NOTE + TILE_TESTS[n]
            rows.append((n, status, note or "issue #24"))
        elif n in INTERNAL:
            status, note = classify(kern, n)
            rows.append((n, status, "statement or internal to Warp's codegen" +
                         ("" if not note else f"; {note}")))
        else:
            status, note = classify(kern, n)
            if n in SPELLED and status != "yes":
                note = f"written `{SPELLED[n]}`: supported; the wp.{n}() call form is not yet"
            if n in NOTES:
                note = NOTES[n] + (f"; {note}" if note else "")
            elif status != "yes" and getattr(context.builtin_functions[n], "hidden", False):
                note = "hidden (undocumented) in Warp's registry" + (f"; {note}" if note else "")
            rows.append((n, status, note))
    counts = {}
    for _, s, _ in rows:
        counts[s] = counts.get(s, 0) + 1
    print("# Warp's kernel builtins in kern\n")
    print(f"Generated by `tools/warpcorpus/builtin_table.py` from Warp {wp.__version__}'s "
          "builtin registry: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) +
          f" of {len(rows)}. \"yes\" means kern knows the name (its overloads are "
          "checked as Warp's; see docs/WARP-DIALECT.md for what is tested).\n")
    print("| builtin | kern | note |")
    print("|---|---|---|")
    for n, s, note in rows:
        print(f"| `{n}` | {s} | {note} |")


if __name__ == "__main__":
    main()
