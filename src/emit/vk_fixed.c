/*
 * vk_fixed.c -- fixed-size local arrays (and the tiles kern keeps in them)
 * on the Vulkan target.
 *
 * Note [vulkan scratch frame]: on the C targets a fixed array's storage is
 * a local C array and the program's variable a view onto it (fixed.c,
 * view.c).  GLSL has no pointer into private memory (a buffer reference
 * addresses device memory only), so on Vulkan the storage lives in a
 * per-invocation frame of a scratch buffer in device memory instead, and
 * the views, slices, element addresses (Note [vulkan element addresses]),
 * passing to a @wp.func and returning work unchanged: the storage is a
 * buffer reference `kref_T a = kref_T(k_scr + OFF)`, and fixed.c's
 * k_fz_/k_fc_ helpers take such a reference where C takes `T *`.
 *
 *   - Layout: GLSL has no recursion, so no function is active twice in
 *     one invocation; every fixed array of the module gets its own range
 *     of the frame (16-byte aligned), none shared, and a function's
 *     frame needs no push or pop.  A function's `return arr` copies into
 *     the caller's own storage (k_fc_), so no range outlives its
 *     function's activation in use.  The frame is the sum (K_FRAME).
 *   - The kernel sets the private global k_scr to
 *     kpc.scratch + gl_GlobalInvocationID.x * K_FRAME before its grid
 *     loop; the grid-stride loop reuses the invocation's frame for each
 *     of its items (each wp.zeros() zeroes its storage again).
 *   - The runtime (backend_vulkan.c, Note [vulkan scratch]) reads the
 *     frame from the `// kern-scratch BYTES` line, bounds the grid so that
 *     groups x 64 x frame stays under a cap (more items per invocation,
 *     never more memory), and passes the buffer's address as the third
 *     push constant.  Modules without fixed arrays declare two push
 *     constants as before, and their launches allocate and push nothing
 *     more.
 */
#include <string.h>
#include "emit.h"

bool emit_vk_uses_scratch(const IrModule *m) {
  for (int pass = 0; pass < 2; pass++)
    for (IrFunc *f = pass ? m->kernels : m->funcs; f; f = f->next)
      for (IrVar *v = f->locals; v; v = v->next)
        if (v->ty->kind == TY_ARRAY && v->ty->fixed_n)
          return true;
  return false;
}

/* The offset of v's storage in the frame, given on first sight (a kernel
 * whose body is emitted twice, two loops, names the same range). */
static int64_t frame_offset(Emit *E, IrVar *v) {
  for (int i = 0; i < E->vk_nfix; i++)
    if (E->vk_fixv[i] == v)
      return E->vk_fixo[i];
  if (E->vk_nfix == E->vk_capfix) {
    int nc = E->vk_capfix ? E->vk_capfix * 2 : 16;
    IrVar **nv = arena_alloc(E->C, (size_t)nc * sizeof *nv);
    int64_t *no = arena_alloc(E->C, (size_t)nc * sizeof *no);
    if (E->vk_nfix) {
      memcpy(nv, E->vk_fixv, (size_t)E->vk_nfix * sizeof *nv);
      memcpy(no, E->vk_fixo, (size_t)E->vk_nfix * sizeof *no);
    }
    E->vk_fixv = nv;
    E->vk_fixo = no;
    E->vk_capfix = nc;
  }
  int64_t off = (E->vk_frame + 15) / 16 * 16;
  E->vk_frame = off + (int64_t)ty_size(v->ty->elem) * v->ty->fixed_n;
  E->vk_fixv[E->vk_nfix] = v;
  E->vk_fixo[E->vk_nfix++] = off;
  return off;
}

/* A fixed array's storage: its range of the invocation's frame. */
bool emit_vk_fixed_local(Emit *E, IrVar *v) {
  const char *T = emit_stype(E, v->ty->elem);
  emit_line(E, "kref_%s %s = kref_%s(k_scr + %lldul);", T, v->name, T,
            (long long)frame_offset(E, v));
  return true;
}
