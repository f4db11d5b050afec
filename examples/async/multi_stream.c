/*
 * multi_stream.c -- independent jobs on independent streams.
 *
 * Four jobs, each a quarter of the input with its own buffers: upload,
 * compute, download.  On one stream they run back to back; on four streams
 * the device may run one job's transfer during another's compute, and the
 * host enqueues everything before waiting once.  No events are needed
 * because the jobs share nothing.
 */
#include "async_common.h"

enum { JOBS = 4 };

static void jobs(float *out, int nstreams) {
  kern_stream *s[JOBS];
  kern_array *x[JOBS], *y[JOBS];
  int64_t per = (ex.n + JOBS - 1) / JOBS;
  for (int j = 0; j < nstreams; j++)
    EX_CHECK(kern_stream_new(ex.ctx, ex.dev, &s[j]));
  for (int j = 0; j < JOBS; j++) {
    int64_t at = j * per, n = ex.n - at < per ? ex.n - at : per;
    x[j] = ex_array(n);
    y[j] = ex_array(n);
    kern_stream *sj = s[j % nstreams];
    EX_CHECK(kern_array_upload_async(x[j], sj, 0, ex.in + at, n * 4));
    ex_work(sj, x[j], y[j], n);
    EX_CHECK(kern_array_download_async(y[j], sj, 0, out + at, n * 4));
  }
  for (int j = 0; j < nstreams; j++) EX_CHECK(kern_stream_synchronize(s[j]));
  for (int j = 0; j < JOBS; j++) {
    kern_array_free(x[j]);
    kern_array_free(y[j]);
  }
  for (int j = 0; j < nstreams; j++) EX_CHECK(kern_stream_free(s[j]));
}

static void one_stream(float *out) { jobs(out, 1); }
static void four_streams(float *out) { jobs(out, JOBS); }

int main(void) {
  ex_setup();
  double seq = ex_time(one_stream, ex.ref);
  double ms = ex_time(four_streams, ex.out);
  ex_compare(ex.out, ex.ref, ex.n, "multi-stream");
  ex_row("multi-stream", ms, seq);
  ex_teardown();
  return 0;
}
