/*
 * prefetch_queue.c -- a queue of batches prefetched N ahead.
 *
 * Like training_loop.c, but with a ring of four device buffers the copy
 * stream runs up to three batches ahead of the compute stream, which
 * absorbs uneven upload times (a slow batch from disk or the network does
 * not stall compute while earlier batches are queued).  Compared with the
 * sequential loop.
 */
#include "async_common.h"

static void prefetch_four(float *out) { ex_train(out, 4); }

int main(void) {
  ex_setup();
  double seq = ex_time(ex_train_sequential, ex.ref);
  double ms = ex_time(prefetch_four, ex.out);
  ex_compare(ex.out, ex.ref, ex.chunk, "prefetch queue");
  ex_row("prefetch queue (4)", ms, seq);
  ex_teardown();
  return 0;
}
