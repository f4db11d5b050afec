/*
 * triple_buffering.c -- three buffer sets through kern_pipeline_run.
 *
 * With three sets the upload of chunk c + 1, the compute of chunk c and the
 * download of chunk c - 1 can all be in flight at once (on a GPU: the
 * host-to-device copy engine, the SMs and the device-to-host copy engine).
 * kern_pipeline_run does the bookkeeping for any number of sets, with one
 * stream per stage rather than one per set as in double_buffering.c, so
 * that copies in one direction never compete with each other (Note
 * [pipeline schedule] in src/runtime/pipeline.c), and reports per-stage
 * times and the overlap it achieved.
 */
#include "async_common.h"

static kern_pipeline_report rep;

static void run(float *out) {
  kern_kernel *chain[] = {ex.work};
  kern_arg iters[] = {kern_arg_int(ex.iters)};
  const kern_arg *extra[] = {iters};
  int nextra[] = {1};
  kern_pipeline_config cfg = KERN_PIPELINE_CONFIG_INIT;
  cfg.kernels = chain;
  cfg.nkernels = 1;
  cfg.extra_args = extra;
  cfg.nextra = nextra;
  cfg.input = ex.in;
  cfg.output = out;
  cfg.count = ex.n;
  cfg.chunk = ex.chunk;
  cfg.buffers = 3;
  rep = (kern_pipeline_report)KERN_PIPELINE_REPORT_INIT;
  EX_CHECK(kern_pipeline_run(ex.ctx, &cfg, &rep));
}

int main(void) {
  ex_setup();
  double seq = ex_time(ex_sequential, ex.ref);
  double ms = ex_time(run, ex.out);
  ex_compare(ex.out, ex.ref, ex.n, "triple buffering");
  ex_row("triple buffering", ms, seq);
  printf("  pipeline: upload %.2f ms, compute %.2f ms, download %.2f ms, "
         "wall %.2f ms (device %.2f ms), overlap %.2f\n",
         rep.upload_ms, rep.compute_ms, rep.download_ms, rep.wall_ms,
         rep.device_ms, rep.overlap);
  ex_teardown();
  return 0;
}
