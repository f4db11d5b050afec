/*
 * double_buffering.c -- two sets of device buffers on two streams.
 *
 * Chunk c uses set c % 2 and its stream: upload, compute, download all on
 * that stream.  While stream 0 computes chunk c, stream 1 is already
 * uploading chunk c + 1, so transfers hide behind compute.  Reusing a set
 * two chunks later needs no event: it is the same stream, and a stream runs
 * its work in order.  The host waits only once, at the end.
 */
#include "async_common.h"

static void run(float *out) {
  kern_stream *s[2];
  kern_array *x[2], *y[2];
  for (int b = 0; b < 2; b++) {
    EX_CHECK(kern_stream_new(ex.ctx, ex.dev, &s[b]));
    x[b] = ex_array(ex.chunk);
    y[b] = ex_array(ex.chunk);
  }
  kern_array *views[4] = {0};
  for (int c = 0; c < ex.chunks; c++) {
    int b = c % 2;
    int64_t n = ex_len(c), at = (int64_t)c * ex.chunk;
    kern_array *xv = x[b], *yv = y[b];
    if (n < ex.chunk) { /* only the last chunk */
      xv = views[0] = ex_view(x[b], n);
      yv = views[1] = ex_view(y[b], n);
    }
    EX_CHECK(kern_array_upload_async(xv, s[b], 0, ex.in + at, n * 4));
    ex_work(s[b], xv, yv, n);
    EX_CHECK(kern_array_download_async(yv, s[b], 0, out + at, n * 4));
  }
  for (int b = 0; b < 2; b++) EX_CHECK(kern_stream_synchronize(s[b]));
  for (int i = 0; i < 4; i++) kern_array_free(views[i]);
  for (int b = 0; b < 2; b++) {
    kern_array_free(x[b]);
    kern_array_free(y[b]);
    EX_CHECK(kern_stream_free(s[b]));
  }
}

int main(void) {
  ex_setup();
  double seq = ex_time(ex_sequential, ex.ref);
  double ms = ex_time(run, ex.out);
  ex_compare(ex.out, ex.ref, ex.n, "double buffering");
  ex_row("double buffering", ms, seq);
  ex_teardown();
  return 0;
}
