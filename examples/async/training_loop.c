/*
 * training_loop.c -- a training loop that prefetches the next batch.
 *
 * Each step computes on batch i while a copy stream uploads batch i + 1
 * into the other of two device buffers; events order the two streams
 * (see ex_train in async_common.h).  The weights never leave the device
 * until the end.  Compared with the same loop that uploads each batch and
 * waits before computing.
 */
#include "async_common.h"

static void prefetch_one(float *out) { ex_train(out, 2); }

int main(void) {
  ex_setup();
  double seq = ex_time(ex_train_sequential, ex.ref);
  double ms = ex_time(prefetch_one, ex.out);
  ex_compare(ex.out, ex.ref, ex.chunk, "training loop");
  ex_row("training-loop prefetch", ms, seq);
  ex_teardown();
  return 0;
}
