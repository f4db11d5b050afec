/*
 * cuda_gemm.c -- launching a tile GEMM's tensor-core kernel (issue #24).
 *
 * Note [tile GEMM launch]: a kernel the compiler recognised as Warp's tile
 * GEMM has a second kernel, SYMBOL_wg, in a module built for sm_90a (Note
 * [tile GEMM] in emit/gemm.c).  kernel_get finds it and raises its
 * dynamic shared-memory limit; a launch takes it when everything it
 * assumes holds, and the ordinary kernel otherwise, which computes the
 * same tiles:
 *   - the launch is wp.launch_tiled's: each (i, j) of the grid is exactly
 *     one block (the dimensions after the first two multiply to the
 *     block size), and it is not a shard of a multi-device launch;
 *   - for the tensor-core schedule, A's and B's rows are a multiple of 16
 *     bytes and their data 16-byte aligned, as the copy engine's tensor
 *     maps require (the SIMT one of float32 and float64 reads any);
 *   - the driver has cuTensorMapEncodeTiled and cuFuncSetAttribute.
 * The tensor maps hold A's and B's addresses and shapes; they are made
 * again only when those change, so a loop of launches on the same arrays
 * costs no more than an ordinary launch.  The grid is the number of
 * tiles, the block the schedule's (not the block_dim asked: the schedule
 * is the whole block's, and no thread index of the user's is seen).
 */
#include <string.h>

#include "cuda_internal.h"

enum {
  MAP_FLOAT16 = 6, MAP_BFLOAT16 = 9, /* CU_TENSOR_MAP_DATA_TYPE_... */
  MAP_SWIZZLE_128B = 3, MAP_L2_256B = 3
};

void kern__cu_gemm_get(cuda_state *s, cuda_module *m, cuda_fn *f,
                       const kc_kernel *k) {
  CUfunction wg = NULL;
  if (!k->gemm.threads || !k->gemm.symbol || !s->cu.cuFuncSetAttribute ||
      !s->cu.cuTensorMapEncodeTiled)
    return; /* (the SIMT schedule needs neither, but is only worth it
               beside the other on the drivers that have them) */
  /* Absent from a module built for another architecture: no error. */
  if (s->cu.cuModuleGetFunction(&wg, m->mod, k->gemm.symbol) != CUDA_SUCCESS ||
      s->cu.cuFuncSetAttribute(wg, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   k->gemm.smem) !=
          CUDA_SUCCESS)
    return;
  cuda_gemm *g = kern__calloc(1, sizeof *g);
  if (!g)
    return; /* the ordinary kernel still runs */
  g->fn = wg;
  g->g = &k->gemm;
  g->params[0] = g->map_a;
  g->params[1] = g->map_b;
  g->params[2] = &g->args;
  f->gemm = g;
}

/* A 2-D tensor map of rows x cols 16-bit elements, box_rows x 64 a copy. */
static int make_map(cuda_state *s, void *map, int dtype, const kern__arr *a,
                    int box_rows) {
  uint64_t rows = (uint64_t)a->shape[0], cols = (uint64_t)a->shape[1];
  uint64_t dims[2] = {cols, rows}, strides[1] = {cols * 2};
  uint32_t box[2] = {64, (uint32_t)box_rows}, estrides[2] = {1, 1};
  if ((uintptr_t)a->data % 16 || strides[0] % 16 || rows == 0 || cols == 0 ||
      rows > UINT32_MAX || cols > UINT32_MAX)
    return 0;
  return s->cu.cuTensorMapEncodeTiled(map, dtype, 2, a->data, dims, strides,
                                      box, estrides, 0, MAP_SWIZZLE_128B,
                                      MAP_L2_256B, 0) == CUDA_SUCCESS;
}

static int map_for(cuda_state *s, unsigned char *map, void **key,
                   int64_t *shape, int dtype, const kern__arr *a,
                   int box_rows) {
  if (*key == a->data && shape[0] == a->shape[0] && shape[1] == a->shape[1])
    return 1;
  *key = NULL;
  if (!make_map(s, map, dtype, a, box_rows))
    return 0;
  *key = a->data;
  shape[0] = a->shape[0];
  shape[1] = a->shape[1];
  return 1;
}

int kern__cu_gemm_launch(cuda_state *s, int dev, cuda_fn *f,
                         const kc_kernel *k, void *const *args,
                         const kern__dims *dims, CUstream cs,
                         kern_status *st) {
  cuda_gemm *g = f->gemm;
  if (!g || !k || dims->begin != 0 || dims->block <= 0 ||
      dims->dim[2] * dims->dim[3] != dims->block)
    return 0;
  const kc_gemm *q = g->g;
  int64_t tiles = dims->dim[0] * dims->dim[1];
  if (tiles <= 0 || tiles > INT32_MAX || dims->dim[0] > INT32_MAX ||
      dims->dim[1] > INT32_MAX)
    return 0;
  const kern__arr *a = args[q->a], *b = args[q->b], *c = args[q->c];
  const kern__arr *kp = args[q->kparam];
  int dtype = q->in == KERN_SCALAR_BFLOAT16 ? MAP_BFLOAT16 : MAP_FLOAT16;
  int maps = q->in == KERN_SCALAR_FLOAT16 || q->in == KERN_SCALAR_BFLOAT16;
  if (maps && (!map_for(s, g->map_a, &g->a_key, g->a_shape, dtype, a, q->tm) ||
               !map_for(s, g->map_b, &g->b_key, g->b_shape, dtype, b, 64)))
    return 0;
  int64_t nk = kp->shape[q->kaxis] / q->tk;
  if (nk > INT32_MAX)
    return 0;
  g->args.c = c->data;
  g->args.bias = q->bias >= 0 ? ((const kern__arr *)args[q->bias])->data : NULL;
  g->args.nbias = q->bias >= 0 ? ((const kern__arr *)args[q->bias])->shape[0] : 0;
  g->args.m = c->shape[0];
  g->args.n = c->shape[1];
  g->args.nk = (int32_t)nk;
  g->args.tiles_m = (int32_t)dims->dim[0];
  g->args.tiles_n = (int32_t)dims->dim[1];
  g->args.a = a->data;
  g->args.b = b->data;
  g->args.am = a->shape[0];
  g->args.ak = a->shape[1];
  g->args.bk = b->shape[0];
  g->args.bn = b->shape[1];
  /* The SIMT schedule reads 4 elements at a time where rows stay 16-byte
   * aligned (Note [SIMT GEMM] in emit/gemm.c). */
  int per16 = q->in == KERN_SCALAR_FLOAT64 ? 2 : 4;
  g->args.pad = ((uintptr_t)a->data % 16 == 0 && a->shape[1] % per16 == 0) |
                ((uintptr_t)b->data % 16 == 0 && b->shape[1] % per16 == 0) << 1;
  CUresult rc = s->cu.cuLaunchKernel(g->fn, (unsigned)tiles, 1, 1,
                                     (unsigned)q->threads, 1, 1,
                                     (unsigned)q->smem, cs, g->params, NULL);
  *st = rc == CUDA_SUCCESS ? KERN_SUCCESS
                           : kern__cu_launch_failed(s, dev, g->fn, rc, k,
                                                    tiles, (unsigned)q->threads);
  return 1;
}
