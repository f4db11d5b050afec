/*
 * sequential.c -- the baseline every other example is measured against:
 * each chunk is uploaded, computed and downloaded before the next starts,
 * so the copy engines and the compute units take turns and each idles
 * while the other works.  Printed next to itself (speedup 1.00x by
 * construction) so the table has its reference row.
 */
#include "async_common.h"

int main(void) {
  ex_setup();
  double seq = ex_time(ex_sequential, ex.ref);
  ex_row("sequential", seq, seq);
  ex_teardown();
  return 0;
}
