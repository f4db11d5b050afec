/*
 * handles.c -- every handle call after its owner is freed returns
 * KERN_ERROR_INVALID_HANDLE, in any order of frees, without reading freed
 * memory (Note [handle table] in src/runtime/handle.c).
 *
 * A context owns a module (which owns a kernel), an array, a stream, an
 * event and a graph (captured on the stream: a launch and a fill of the
 * array).  The things that can be freed are the context, the module (the
 * kernel has no free of its own: it dies with its module), the array, the
 * stream, the event and the graph.  For every ordered pair
 * of those -- the same one twice included, which is a double free -- the
 * test frees the first, calls every handle, frees the second, calls every
 * handle again.  After each step a handle whose owner is gone must refuse
 * every call with KERN_ERROR_INVALID_HANDLE (and its queries return their
 * documented "none" values), and a live one must still work.  Launches use
 * an empty grid, which checks every argument but runs no code.
 *
 * Then several threads, each with its own context, make and free handles at
 * once: the table is shared, so a stale handle must stay refused while
 * other threads reuse its slot.  The contexts are made and freed on the
 * main thread, so that only the handle table is exercised concurrently
 * (backend start-up from many threads is tests/threads' subject).
 *
 * ctest runs it plainly and, through handles_valgrind.sh, under valgrind
 * memcheck; .ci/run also runs it under ASan and UBSan.  Any read of freed
 * memory fails it there.
 */
#include <pthread.h>
#include "test.h"

static const char kSource[] =
    "import warp as wp\n\n@wp.kernel\n"
    "def mark(x: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    x[i] = 1.0\n";

enum {
  FREE_CONTEXT,
  FREE_MODULE,
  FREE_ARRAY,
  FREE_STREAM,
  FREE_EVENT,
  FREE_GRAPH,
  NFREES
};
static const char *const free_names[NFREES] = {
    "context", "module", "array", "stream", "event", "graph"};

typedef struct world {
  kern_context *ctx;
  kern_module *m;
  kern_kernel *k;
  kern_array *a;
  kern_stream *s;
  kern_event *e;
  kern_graph *g;
  int ctx_freed, module_freed, array_freed;
  int stream_freed, event_freed, graph_freed;
} world;

static void make(world *w) {
  memset(w, 0, sizeof *w);
  ASSERT_OK(NULL, kern_context_new(NULL, &w->ctx));
  ASSERT_OK(w->ctx, kern_module_load_string(w->ctx, 0, "handles.py", kSource,
                                            sizeof kSource - 1, &w->m));
  ASSERT_OK(w->ctx, kern_module_get_kernel(w->m, "mark", &w->k));
  int64_t n = 8;
  ASSERT_OK(w->ctx, kern_array_new(w->ctx, 0, KERN_TYPE_FLOAT32, 1, &n, &w->a));
  ASSERT_OK(w->ctx, kern_stream_new(w->ctx, 0, &w->s));
  ASSERT_OK(w->ctx, kern_event_new(w->ctx, &w->e));
  ASSERT_OK(w->ctx, kern_event_record(w->e, w->s));
  ASSERT_OK(w->ctx, kern_event_synchronize(w->e));
  /* The graph holds a launch of the kernel on the array and a fill of the
   * array: replaying it needs all three alive. */
  kern_arg arg = kern_arg_array(w->a);
  ASSERT_OK(w->ctx, kern_graph_begin_capture(w->s));
  ASSERT_OK(w->ctx, kern_launch_async(w->k, w->s, 1, &n, 1, &arg));
  ASSERT_OK(w->ctx, kern_array_zero_async(w->a, w->s));
  ASSERT_OK(w->ctx, kern_graph_end_capture(w->s, &w->g));
}

static void do_free(world *w, int what) {
  switch (what) {
  case FREE_CONTEXT:
    kern_context_free(w->ctx);
    w->ctx_freed = 1;
    break;
  case FREE_MODULE:
    kern_module_free(w->m);
    w->module_freed = 1;
    break;
  case FREE_ARRAY:
    kern_array_free(w->a);
    w->array_freed = 1;
    break;
  case FREE_STREAM: {
    /* A stream freed twice, or after its context, is refused and left
     * alone. */
    kern_status st = kern_stream_free(w->s);
    ASSERT_EQ(st, w->ctx_freed || w->stream_freed ? KERN_ERROR_INVALID_HANDLE
                                                  : KERN_SUCCESS);
    w->stream_freed = 1;
    break;
  }
  case FREE_EVENT:
    kern_event_free(w->e);
    w->event_freed = 1;
    break;
  case FREE_GRAPH:
    kern_graph_free(w->g);
    w->graph_freed = 1;
    break;
  }
}

/* Calls every handle; `step` names the situation in failure messages. */
static void check(const world *w, const char *step) {
  int ctx_live = !w->ctx_freed;
  int module_live = ctx_live && !w->module_freed;
  int kernel_live = module_live;
  int array_live = ctx_live && !w->array_freed;
  int stream_live = ctx_live && !w->stream_freed;
  int event_live = ctx_live && !w->event_freed;
  int graph_live = ctx_live && !w->graph_freed;
#define EXPECT(live, call)                                                   \
  do {                                                                       \
    kern_status s_ = (call);                                                 \
    kern_status want_ = (live) ? KERN_SUCCESS : KERN_ERROR_INVALID_HANDLE;   \
    if (s_ != want_) {                                                       \
      fprintf(stderr, "%s:%d: after %s: %s returned %s, expected %s\n",      \
              __FILE__, __LINE__, step, #call, kern_status_name(s_),         \
              kern_status_name(want_));                                      \
      kern_test_failed(1);                                                   \
    }                                                                        \
  } while (0)

  /* The context. */
  kern_device dev = -1;
  EXPECT(ctx_live, kern_device_find(w->ctx, "cpu", &dev));
  kern_device_info di = KERN_DEVICE_INFO_INIT;
  EXPECT(ctx_live, kern_device_get(w->ctx, 0, &di));
  kern_backend_info bi = KERN_BACKEND_INFO_INIT;
  EXPECT(ctx_live, kern_backend_get(w->ctx, KERN_BACKEND_CPU, &bi));
  EXPECT(ctx_live, kern_synchronize(w->ctx, 0));
  if (!ctx_live) {
    ASSERT_EQ(kern_device_count(w->ctx), 0);
    ASSERT_STREQ(kern_last_error(w->ctx), "");
    kern_clear_error(w->ctx); /* a no-op, not a crash */
    kern_array *na = NULL;
    int64_t one = 1;
    EXPECT(0, kern_array_new(w->ctx, 0, KERN_TYPE_FLOAT32, 1, &one, &na));
    ASSERT(na == NULL);
    kern_module *nm = NULL;
    EXPECT(0, kern_module_load_string(w->ctx, 0, "x.py", kSource,
                                      sizeof kSource - 1, &nm));
    ASSERT(nm == NULL);
    char *src = NULL;
    EXPECT(0, kern_compile_source(w->ctx, "x.py", kSource, sizeof kSource - 1,
                                  "c", &src));
    ASSERT(src == NULL);
  }

  /* The module. */
  kern_kernel *k2 = NULL;
  EXPECT(module_live, kern_module_get_kernel(w->m, "mark", &k2));
  ASSERT_EQ(kern_module_kernel_count(w->m), module_live ? 1 : 0);
  ASSERT(module_live == (kern_module_kernel_name(w->m, 0) != NULL));
  if (module_live) ASSERT(k2 == w->k); /* the same handle, not a new one */

  /* The kernel. */
  kern_param_info pi = KERN_PARAM_INFO_INIT;
  EXPECT(kernel_live, kern_kernel_param(w->k, 0, &pi));
  ASSERT(kernel_live == (kern_kernel_name(w->k) != NULL));
  ASSERT_EQ(kern_kernel_param_count(w->k), kernel_live ? 1 : 0);
  int64_t empty = 0;
  kern_arg arg = kern_arg_array(w->a);
  /* A launch needs both the kernel and its argument alive. */
  EXPECT(kernel_live && array_live, kern_launch(w->k, 1, &empty, 1, &arg));

  /* The array. */
  float buf[8] = {0}; /* fill reads it: defined bytes for valgrind */
  EXPECT(array_live, kern_array_zero(w->a));
  EXPECT(array_live, kern_array_fill(w->a, buf));
  EXPECT(array_live, kern_array_upload(w->a, buf, sizeof buf));
  EXPECT(array_live, kern_array_download(w->a, buf, sizeof buf));
  ASSERT_EQ(kern_array_size(w->a), array_live ? 8 : 0);
  ASSERT_EQ(kern_array_nbytes(w->a), array_live ? 32 : 0);
  ASSERT_EQ(kern_array_ndim(w->a), array_live ? 1 : 0);
  ASSERT_EQ(kern_array_dim(w->a, 0), array_live ? 8 : 0);
  ASSERT_EQ(kern_array_device(w->a), array_live ? 0 : -1);
  ASSERT_EQ(kern_array_type(w->a).scalar,
            array_live ? KERN_SCALAR_FLOAT32 : KERN_SCALAR_COUNT);

  /* The stream: every call needs it, and its other handles, alive. */
  int done = -1;
  EXPECT(stream_live, kern_stream_synchronize(w->s));
  EXPECT(stream_live, kern_stream_query(w->s, &done));
  ASSERT_EQ(kern_stream_device(w->s), stream_live ? 0 : -1);
  EXPECT(array_live && stream_live, kern_array_zero_async(w->a, w->s));
  EXPECT(array_live && stream_live,
         kern_array_upload_async(w->a, w->s, 0, buf, sizeof buf));
  EXPECT(array_live && stream_live,
         kern_array_download_async(w->a, w->s, 0, buf, sizeof buf));
  EXPECT(kernel_live && array_live && stream_live,
         kern_launch_async(w->k, w->s, 1, &empty, 1, &arg));
  EXPECT(stream_live && event_live, kern_event_record(w->e, w->s));
  EXPECT(stream_live && event_live, kern_stream_wait_event(w->s, w->e));
  EXPECT(stream_live, kern_stream_synchronize(w->s));

  /* The event (recorded by make, or just now). */
  double ms = -1;
  EXPECT(event_live, kern_event_synchronize(w->e));
  EXPECT(event_live, kern_event_query(w->e, &done));
  EXPECT(event_live, kern_event_elapsed(w->e, w->e, &ms));

  /* The graph: a replay needs everything it recorded alive; an update
   * needs the kernel and the new argument. */
  ASSERT_EQ(kern_graph_launch_count(w->g), graph_live ? 1 : 0);
  EXPECT(graph_live && kernel_live && array_live && stream_live,
         kern_graph_replay(w->g, w->s));
  EXPECT(stream_live, kern_stream_synchronize(w->s));
  EXPECT(graph_live && kernel_live && array_live,
         kern_graph_set_arg(w->g, 0, 0, kern_arg_array(w->a)));
  if (!ctx_live) {
    kern_stream *ns = NULL;
    kern_event *ne = NULL;
    EXPECT(0, kern_stream_new(w->ctx, 0, &ns));
    EXPECT(0, kern_event_new(w->ctx, &ne));
    ASSERT(ns == NULL && ne == NULL);
  }
#undef EXPECT
}

static void pairs(void) {
  int cases = 0;
  for (int first = 0; first < NFREES; first++) {
    for (int second = 0; second < NFREES; second++) {
      world w;
      make(&w);
      char step[96];
      check(&w, "nothing freed");
      do_free(&w, first);
      snprintf(step, sizeof step, "freeing the %s", free_names[first]);
      check(&w, step);
      do_free(&w, second); /* a no-op when already freed */
      snprintf(step, sizeof step, "freeing the %s, then the %s",
               free_names[first], free_names[second]);
      check(&w, step);
      /* Whatever is left goes with the context (freed twice when it was
       * already: harmless). */
      do_free(&w, FREE_CONTEXT);
      check(&w, "freeing everything");
      cases++;
    }
  }
  printf("%d orders of frees checked\n", cases);
}

/* ---------------------------------------------------------------- threads */

#define NTHREADS 4
#define ROUNDS 300

static void *churn(void *arg) {
  kern_context *ctx = arg;
  kern_array *old[ROUNDS];
  int64_t n = 4;
  for (int r = 0; r < ROUNDS; r++) {
    kern_array *a;
    ASSERT_OK(ctx, kern_array_new(ctx, 0, KERN_TYPE_INT32, 1, &n, &a));
    for (int j = 0; j < r; j++) ASSERT(a != old[j]); /* never an old value */
    ASSERT_OK(ctx, kern_array_zero(a));
    kern_array_free(a);
    ASSERT_EQ(kern_array_zero(a), KERN_ERROR_INVALID_HANDLE);
    old[r] = a;
    /* Every earlier handle stays dead although other threads keep
     * reusing the slots. */
    if (r % 50 == 49)
      for (int j = 0; j <= r; j++)
        ASSERT_EQ(kern_array_size(old[j]), 0);
  }
  ASSERT_EQ(kern_array_zero(old[0]), KERN_ERROR_INVALID_HANDLE);
  return NULL;
}

static void threads(void) {
  pthread_t t[NTHREADS];
  kern_context *ctx[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    ASSERT_OK(NULL, kern_context_new(NULL, &ctx[i]));
  for (int i = 0; i < NTHREADS; i++)
    ASSERT_EQ(pthread_create(&t[i], NULL, churn, ctx[i]), 0);
  for (int i = 0; i < NTHREADS; i++) ASSERT_EQ(pthread_join(t[i], NULL), 0);
  for (int i = 0; i < NTHREADS; i++) kern_context_free(ctx[i]);
  printf("%d threads x %d handles made and freed\n", NTHREADS, ROUNDS);
}

int main(void) {
  test_setup();
  pairs();
  threads();
  printf("handles: ok\n");
  return 0;
}
