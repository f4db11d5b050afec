/*
 * fuzz_frontend.c -- libFuzzer harness: arbitrary bytes into kern__compile.
 *
 * The input is handed to the compiler exactly as kern_module_load_string
 * would: a (pointer, length) pair with no terminating NUL, so AddressSanitizer
 * catches any read past the end of the source.  Any status is acceptable;
 * what must never happen is a crash, a leak, a sanitizer report or a hang.
 * Only the C target is compiled here: the front end (lexer, parser, checker)
 * and lowering are shared by every target, and one target per input keeps
 * the executions per second high for the byte-level mutations this harness
 * is meant for.  fuzz_compiler.c covers all three targets.
 *
 * Nothing generated is ever built or run: compile only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* An exact-size heap copy, so a read of src[size] is a heap overflow
   * (libFuzzer's own buffer is exact-size too, but this does not rely on
   * it). */
  char *src = malloc(size ? size : 1);
  if (!src)
    return 0;
  if (size)
    memcpy(src, data, size);
  kc_result r;
  kern__compile("fuzz.py", src, size, KERN_TARGET_C, NULL, &r);
  kern__compile_result_free(&r);
  free(src);
  return 0;
}
