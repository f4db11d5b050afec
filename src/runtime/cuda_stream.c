/*
 * cuda_stream.c -- the CUDA backend's streams, events, asynchronous copies and
 * graphs (issue #11): each method is a driver call after kern__cu_dev_enter
 * (cuda_internal.h lists the backend's files).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "runtime.h"
#include "cuda_check.h"
#include "cuda_internal.h"

/* ---------------------------------------------------------------- streams
 * Native streams and events (issue #11): every method is one driver call
 * after kern__cu_dev_enter.  Streams are created with default flags, so they are
 * ordered against the legacy NULL stream that the synchronous copies use.
 * The asynchronous launch is the hot path: the kernelParams array is the
 * function's preallocated one (the driver copies the values during
 * cuLaunchKernel), so it allocates nothing and never synchronizes. */

kern_status kern__cu_stream_new(void *state, int dev, void **out) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  CUstream cs = NULL;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuStreamCreate(&cs, CU_STREAM_DEFAULT), "%s", "")))
    return st;
  *out = cs;
  return KERN_SUCCESS;
}

kern_status kern__cu_stream_free(void *state, int dev, void *cs) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamDestroy(cs), "%s", "");
}

kern_status kern__cu_stream_default(void *state, int dev, void **out) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  *out = s->devs[dev].stream;
  return KERN_SUCCESS;
}

kern_status kern__cu_stream_sync(void *state, int dev, void *cs) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamSynchronize(cs), "%s",
               "");
}

kern_status kern__cu_stream_query(void *state, int dev, void *cs,
                                  int *done) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  CUresult r = s->cu.cuStreamQuery(cs);
  if (r == CUDA_ERROR_NOT_READY) {
    *done = 0;
    return KERN_SUCCESS;
  }
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamQuery(cs), "%s", "")))
    return st;
  *done = 1;
  return KERN_SUCCESS;
}

kern_status kern__cu_stream_wait(void *state, int dev, void *cs, void *e) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuStreamWaitEvent(cs, e, 0),
               "%s", "");
}

kern_status kern__cu_event_new(void *state, int dev, void **out) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  CUevent e = NULL;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuEventCreate(&e, CU_EVENT_DEFAULT), "%s", "")))
    return st;
  *out = e;
  return KERN_SUCCESS;
}

void kern__cu_event_free(void *state, int dev, void *e) {
  cuda_state *s = state;
  if (!e || s->devs[dev].broken || kern__cu_dev_enter(s, dev)) return;
  (void)CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventDestroy(e), "%s", "");
}

kern_status kern__cu_event_record(void *state, int dev, void *e,
                                  void *cs) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventRecord(e, cs), "%s", "");
}

kern_status kern__cu_event_sync(void *state, int dev, void *e) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventSynchronize(e), "%s",
               "");
}

kern_status kern__cu_event_query(void *state, int dev, void *e,
                                 int *done) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  CUresult r = s->cu.cuEventQuery(e);
  if (r == CUDA_ERROR_NOT_READY) {
    *done = 0;
    return KERN_SUCCESS;
  }
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventQuery(e), "%s", "")))
    return st;
  *done = 1;
  return KERN_SUCCESS;
}

kern_status kern__cu_event_elapsed(void *state, int dev, void *a, void *b,
                                   double *ms) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  float f = 0;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuEventElapsedTime(&f, a, b),
                  "%s", "")))
    return st;
  *ms = f;
  return KERN_SUCCESS;
}

kern_status kern__cu_launch_async(void *state, int dev, void *cs, void *fn,
                                  const kc_kernel *k, void *const *args,
                                  const kern__dims *dims) {
  cuda_state *s = state;
  cuda_fn *f = fn;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  int64_t total = dims->total - dims->begin;
  if (total <= 0) return KERN_SUCCESS;
  if ((st = tier_check(s, f, cs, dims))) return st;
  if (f->gemm && kern__cu_gemm_launch(s, dev, f, k, args, dims, cs, &st))
    return st;
  unsigned block = launch_block(f, dims);
  int64_t blocks = grid_blocks_of(f, total, block);
  for (int p = 0; p < f->nparams; p++) f->params[p] = args[p];
  f->params[f->nparams] = (void *)(uintptr_t)dims;
  CUfunction fnp = __atomic_load_n(&f->fn, __ATOMIC_RELAXED);
  CUresult rc = s->cu.cuLaunchKernel(fnp, (unsigned)blocks, 1, 1, block, 1, 1,
                                     f->dyn_smem, cs, f->params, NULL);
  return rc == CUDA_SUCCESS
             ? KERN_SUCCESS
             : kern__cu_launch_failed(s, dev, fnp, rc, k, blocks, block);
}

kern_status kern__cu_copy_in_async(void *state, int dev, void *cs,
                                   void *dst, size_t off, const void *src,
                                   size_t bytes) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st || bytes == 0) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuMemcpyHtoDAsync(dptr(dst) + off, src, bytes, cs),
               "bytes=%zu", bytes);
}

kern_status kern__cu_copy_out_async(void *state, int dev, void *cs,
                                    void *dst, const void *src, size_t off,
                                    size_t bytes) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st || bytes == 0) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuMemcpyDtoHAsync(dst, dptr(src) + off, bytes, cs),
               "bytes=%zu", bytes);
}

kern_status kern__cu_copy_dd_async(void *state, int dev, void *cs,
                                   void *dst, size_t doff, const void *src,
                                   size_t soff, size_t bytes) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st || bytes == 0) return st;
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuMemcpyDtoDAsync(dptr(dst) + doff, dptr(src) + soff, bytes,
                                 cs),
               "bytes=%zu", bytes);
}

kern_status kern__cu_copy_dd(void *state, int dev, void *dst, size_t doff,
                             const void *src, size_t soff, size_t bytes) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st || bytes == 0) return st;
  st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
             cuMemcpyDtoDAsync(dptr(dst) + doff, dptr(src) + soff, bytes,
                               s->devs[dev].stream),
             "bytes=%zu", bytes);
  return kern__cu_default_wait(s, dev, st);
}

/* Patterns of 1, 2 or 4 repeating bytes are one async memset; any other is
 * an upload of whole patterns doubled by device copies, all on the stream
 * (kern__cu_fill_on), so it can be captured too. */
kern_status kern__cu_fill_async(void *state, int dev, void *cs, void *dst,
                                const void *pattern, size_t pattern_size,
                                size_t bytes) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st || bytes == 0) return st;
  return kern__cu_fill_on(s, dev, cs, dst, pattern, pattern_size, bytes);
}

kern_status kern__cu_host_alloc(void *state, int dev, size_t bytes,
                                void **out) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  void *p = NULL;
  if ((st = CHECK(s, dev, KERN_ERROR_OUT_OF_MEMORY, cu,
                  cuMemHostAlloc(&p, bytes, CU_MEMHOSTALLOC_PORTABLE),
                  "bytes=%zu", bytes)))
    return st;
  *out = p;
  return KERN_SUCCESS;
}

void kern__cu_host_free(void *state, int dev, void *p) {
  cuda_state *s = state;
  if (!p || kern__cu_dev_enter(s, dev)) return;
  (void)CHECK(s, dev, KERN_ERROR_DEVICE, cu, cuMemFreeHost(p), "%s", "");
}

/* ---------------------------------------------------------------- graphs */

typedef struct cuda_graph {
  CUgraph graph; /* kept: node handles for updates belong to it */
  CUgraphExec exec;
} cuda_graph;

static int has_graphs(const cuda_state *s) {
  return s->cu.cuStreamBeginCapture && s->cu.cuStreamEndCapture &&
         s->cu.cuGraphInstantiateWithFlags && s->cu.cuGraphLaunch &&
         s->cu.cuGraphExecDestroy && s->cu.cuGraphDestroy;
}

kern_status kern__cu_capture_begin(void *state, int dev, void *cs) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  if (!has_graphs(s))
    return kern__cu_error(s, KERN_ERROR_UNSUPPORTED,
                      "cuda: the driver has no stream capture");
  return CHECK(s, dev, KERN_ERROR_DEVICE, cu,
               cuStreamBeginCapture(cs, CU_STREAM_CAPTURE_MODE_RELAXED), "%s",
               "");
}

kern_status kern__cu_capture_end(void *state, int dev, void *cs,
                                 void **out) {
  cuda_state *s = state;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  cuda_graph *g = kern__calloc(1, sizeof *g);
  if (!g) return kern__cu_error(s, KERN_ERROR_OUT_OF_MEMORY, "cuda: out of memory");
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuStreamEndCapture(cs, &g->graph), "%s", ""))) {
    kern__free(g);
    return st;
  }
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuGraphInstantiateWithFlags(&g->exec, g->graph, 0), "%s",
                  ""))) {
    s->cu.cuGraphDestroy(g->graph);
    kern__free(g);
    return st;
  }
  *out = g;
  return KERN_SUCCESS;
}

kern_status kern__cu_capture_node(void *state, int dev, void *cs,
                                  void **node) {
  cuda_state *s = state;
  *node = NULL;
  if (!s->cu.cuStreamGetCaptureInfo || !s->cu.cuGraphExecKernelNodeSetParams)
    return KERN_SUCCESS; /* updates fall back to kern's list */
  int status = 0;
  unsigned long long id = 0;
  CUgraph g = NULL;
  const CUgraphNode *deps = NULL;
  size_t n = 0;
  kern_status st;
  if ((st = CHECK(s, dev, KERN_ERROR_DEVICE, cu,
                  cuStreamGetCaptureInfo(cs, &status, &id, &g, &deps, &n),
                  "%s", "")))
    return st;
  /* After a launch the capture's frontier is exactly that launch's node. */
  if (n == 1) *node = deps[0];
  return KERN_SUCCESS;
}

kern_status kern__cu_graph_launch(void *state, int dev, void *graph,
                                  void *cs) {
  cuda_state *s = state;
  cuda_graph *g = graph;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  return CHECK(s, dev, KERN_ERROR_LAUNCH, cu, cuGraphLaunch(g->exec, cs), "%s",
               "");
}

kern_status kern__cu_graph_set_launch(void *state, int dev, void *graph,
                                      void *node, void *fn,
                                      const kc_kernel *k,
                                      void *const *args,
                                      const kern__dims *dims) {
  cuda_state *s = state;
  cuda_graph *g = graph;
  cuda_fn *f = fn;
  kern_status st = kern__cu_dev_enter(s, dev);
  if (st) return st;
  if (!node || !s->cu.cuGraphExecKernelNodeSetParams)
    return kern__cu_error(s, KERN_ERROR_UNSUPPORTED,
                      "cuda: this graph's launches cannot be updated");
  void *params[KERN__PACK_STACK_ARGS * 4 + 1];
  if (f->nparams + 1 > (int)(sizeof params / sizeof *params))
    return kern__cu_error(s, KERN_ERROR_UNSUPPORTED,
                      "cuda: too many parameters to update in a graph");
  for (int p = 0; p < f->nparams; p++) params[p] = args[p];
  params[f->nparams] = (void *)(uintptr_t)dims;
  cu_kernel_node_params np;
  memset(&np, 0, sizeof np);
  /* A capture waited for the final code (tier_check), so the node holds
   * the function f has now. */
  np.func = __atomic_load_n(&f->fn, __ATOMIC_RELAXED);
  np.gridDimX = (unsigned)(dims->total - dims->begin > 0
                               ? grid_blocks_of(f, dims->total - dims->begin,
                                                launch_block(f, dims))
                               : 1);
  np.gridDimY = np.gridDimZ = 1;
  np.blockDimX = launch_block(f, dims);
  np.blockDimY = np.blockDimZ = 1;
  np.kernelParams = params;
  return CHECK(s, dev, KERN_ERROR_LAUNCH, cu,
               cuGraphExecKernelNodeSetParams(g->exec, node, &np),
               "kernel=%s", k ? k->symbol : "?");
}

void kern__cu_graph_free(void *state, int dev, void *graph) {
  cuda_state *s = state;
  cuda_graph *g = graph;
  if (!g) return;
  if (!s->devs[dev].broken && !kern__cu_dev_enter(s, dev)) {
    if (g->exec) s->cu.cuGraphExecDestroy(g->exec);
    if (g->graph) s->cu.cuGraphDestroy(g->graph);
  }
  kern__free(g);
}

