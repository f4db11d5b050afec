/*
 * roundtrip.h -- runs user text through the compiler and the CPU backend and
 * returns what the program printed, for the escaping property (issue #8).
 *
 * The property: the text a user writes reaches the output of the compiled
 * program exactly, and never becomes code.  rt_run() builds a module named
 * NAME with one kernel that prints TEXT with wp.printf() and then fails an
 * assertion, which in debug mode prints "NAME:LINE: assertion failed".  The
 * module name also appears in the generated file's first comment and in
 * #line directives, so a name or a text that escapes its literal or its
 * comment changes the program and therefore its output (or fails its
 * build).  The caller compares the output with rt_expect().
 *
 * Shared, as static functions, by fuzz/fuzz_roundtrip.c and
 * tests/emit/test_quote.c, so the fuzzer and the unit test check the same
 * thing.  The context must be created with debug on.
 */
#ifndef KERN_ROUNDTRIP_H
#define KERN_ROUNDTRIP_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kern.h"

/* The line of the assertion in the source rt_source() writes. */
#define RT_ASSERT_LINE 8

/* Appends to a malloc'd buffer; aborts on out of memory (a test helper). */
typedef struct RtBuf {
  char *p;
  size_t n, cap;
} RtBuf;

static void rt_put(RtBuf *b, const void *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = (b->n + n + 1) * 2;
    char *p = realloc(b->p, cap);
    if (!p)
      abort();
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

/* The kernel source: TEXT as a Python string literal that kern's lexer
 * decodes back to TEXT, with '%' doubled so that printf prints it.  TEXT
 * must be valid UTF-8 without NUL bytes (what a source file can hold). */
static char *rt_source(const char *text, size_t n) {
  RtBuf b = {0};
  const char *head = "import warp as wp\n\n\n@wp.kernel\ndef k():\n"
                     "    i = wp.tid()\n    wp.printf(\"";
  rt_put(&b, head, strlen(head));
  for (size_t i = 0; i < n; i++) {
    char c = text[i];
    if (c == '\\' || c == '"')
      rt_put(&b, "\\", 1), rt_put(&b, &c, 1);
    else if (c == '\n')
      rt_put(&b, "\\n", 2);
    else if (c == '\r')
      rt_put(&b, "\\r", 2);
    else if (c == '%')
      rt_put(&b, "%%", 2);
    else
      rt_put(&b, &c, 1);
  }
  const char *tail = "\")\n    assert i < 0\n";
  rt_put(&b, tail, strlen(tail));
  return b.p;
}

/* What the program must print. */
static char *rt_expect(const char *name, const char *text, size_t n,
                       size_t *len) {
  RtBuf b = {0};
  rt_put(&b, text, n);
  rt_put(&b, name, strlen(name));
  char line[64];
  snprintf(line, sizeof line, ":%d: assertion failed\n", RT_ASSERT_LINE);
  rt_put(&b, line, strlen(line));
  *len = b.n;
  return b.p;
}

/* Compiles and launches the module on device ("cpu", "opencl"), capturing the process's
 * stdout (the generated printf writes there) in a temporary file.  Returns
 * the load or launch status; *out (malloc'd, *outlen bytes) holds what was
 * printed. */
static kern_status rt_run(kern_context *ctx, const char *device,
                          const char *name, const char *text, size_t n,
                          char **out, size_t *outlen) {
  *out = NULL;
  *outlen = 0;
  char *src = rt_source(text, n);
  kern_device dev;
  kern_status st = kern_device_find(ctx, device, &dev);
  kern_module *m = NULL;
  if (st == KERN_SUCCESS)
    st = kern_module_load_string(ctx, dev, name, src, strlen(src), &m);
  free(src);
  if (st != KERN_SUCCESS)
    return st;
  kern_kernel *k = NULL;
  st = kern_module_get_kernel(m, "k", &k);
  FILE *tmp = tmpfile();
  if (st == KERN_SUCCESS && !tmp)
    st = KERN_ERROR_IO;
  if (st == KERN_SUCCESS) {
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    dup2(fileno(tmp), STDOUT_FILENO);
    int64_t dim = 1;
    st = kern_launch(k, 1, &dim, 0, NULL);
    if (st == KERN_SUCCESS)
      st = kern_synchronize(ctx, dev);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    RtBuf b = {0};
    char chunk[4096];
    size_t got;
    rewind(tmp);
    while ((got = fread(chunk, 1, sizeof chunk, tmp)) > 0)
      rt_put(&b, chunk, got);
    *out = b.p;
    *outlen = b.n;
  }
  if (tmp)
    fclose(tmp);
  kern_module_free(m);
  return st;
}

#endif
