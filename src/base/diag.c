/*
 * diag.c -- compile errors.
 *
 * A diagnostic reads like chibicc's and GCC's:
 *
 *   saxpy.py:7:12: error: cannot add float32 and float64
 *       y[i] = a * x[i] + b
 *              ^
 *
 * The message is malloc'd (not in the arena, which is freed on the way out)
 * and the compiler longjmps to kern__compile, the one entry point.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base.h"
#include "common.h"

_Noreturn void diag_oom(Compiler *C) {
  C->status = KERN_ERROR_OUT_OF_MEMORY;
  kern__free(C->error);
  C->error = NULL;
  longjmp(C->jmp, 1);
}

_Noreturn void diag_error(Compiler *C, Pos pos, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);

  /* Find the source line holding pos. */
  size_t start = (size_t)pos.offset;
  if (start > C->len)
    start = C->len;
  while (start > 0 && C->src[start - 1] != '\n')
    start--;
  /* The line ends at '\n' as it does for the lexer, which takes a lone
   * '\r' for whitespace; only the '\r' of a CRLF is dropped.  (Stopping
   * at any '\r' put the caret past the line's end, `shown` below wrapped
   * around and the copy ran off the source: found by fuzz_frontend,
   * tests/fuzz/crashes/asan_diag_caret_after_cr.py.) */
  size_t end = start;
  while (end < C->len && C->src[end] != '\n')
    end++;
  if (end > start && C->src[end - 1] == '\r')
    end--;
  /* Long lines are cut around the caret so the message stays readable. */
  size_t caret = (size_t)pos.offset >= start ? (size_t)pos.offset - start : 0;
  size_t from = 0;
  if (end - start > 200 && caret > 100)
    from = caret - 60;
  if (from > end - start) /* never start past the line's end */
    from = end - start;
  size_t shown = end - start - from;
  if (shown > 200)
    shown = 200;

  size_t cap = strlen(C->path) + strlen(msg) + 2 * shown + 64 + (caret - from) +
               (C->note ? strlen(C->note) + 2 : 0);
  char *out = kern__malloc(cap);
  if (!out)
    diag_oom(C);
  int n = snprintf(out, cap, "%s:%d:%d: error: %s\n", C->path, pos.line,
                   pos.col, msg);
  /* Show the line with tabs kept so the caret lines up; replace control
   * bytes and non-printables to keep terminals sane. */
  for (size_t i = 0; i < shown; i++) {
    unsigned char ch = (unsigned char)C->src[start + from + i];
    out[n++] = (ch == '\t' || ch >= 0x20) ? (char)ch : '?';
  }
  out[n++] = '\n';
  for (size_t i = 0; i < caret - from && i < shown; i++)
    out[n++] = C->src[start + from + i] == '\t' ? '\t' : ' ';
  out[n++] = '^';
  out[n] = 0;
  if (C->note)
    snprintf(out + n, cap - (size_t)n, "\n%s", C->note);

  kern__free(C->error);
  C->error = out;
  C->status = KERN_ERROR_COMPILE;
  longjmp(C->jmp, 1);
}
