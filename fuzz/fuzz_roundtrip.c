/*
 * fuzz_roundtrip.c -- libFuzzer harness for the escaping property of issue
 * #8: a fuzzed module name and a fuzzed wp.printf() text round-trip
 * exactly through compile and run on the CPU backend.
 *
 * Unlike the other harnesses this one builds and runs what it generates,
 * with the system C compiler through the real CPU backend (so the flags it
 * compiles with are part of what is tested).  The input is split into a
 * module name and a text (roundtrip.h says how they become a kernel); the
 * program must print exactly the text, then the name in its assertion
 * message.  Anything else -- a failed build, a different output -- means
 * user text changed the generated program, and the harness aborts.
 *
 * Input layout: byte 0 is the name's length (mod 64), the name follows
 * with NUL bytes dropped (a C string cannot hold them), and the rest is
 * the text.  The text is made valid UTF-8 (an invalid byte b becomes the
 * two-byte encoding of U+0080 + (b & 63)) and loses its NUL bytes, because
 * a source file can hold nothing else; the comparison uses the text after
 * that repair, which is exactly the string the IR holds.
 *
 * Each input costs one C compiler run, so this harness does tens of
 * executions per second, not thousands; inputs are capped at 512 bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include "roundtrip.h"

static kern_context *ctx;

/* Length of the valid UTF-8 sequence at p (end e), or 0 (kern's lexer
 * applies the same rules: no overlong forms, no surrogates, <= U+10FFFF). */
static size_t utf8_seq(const uint8_t *p, const uint8_t *e) {
  if (p[0] < 0x80)
    return 1;
  size_t n = p[0] >= 0xC2 && p[0] <= 0xDF   ? 2
             : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
             : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4
                                            : 0;
  if (!n || (size_t)(e - p) < n)
    return 0;
  for (size_t i = 1; i < n; i++)
    if ((p[i] & 0xC0) != 0x80)
      return 0;
  uint32_t cp = p[0] & (0xFF >> (n + 1));
  for (size_t i = 1; i < n; i++)
    cp = cp << 6 | (p[i] & 0x3F);
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 512)
    return 0;
  if (!ctx) {
    kern_options o = KERN_OPTIONS_INIT;
    o.no_cache = 1;
    o.debug = 1;
    o.num_threads = 1;
    if (kern_context_new(&o, &ctx) != KERN_SUCCESS) {
      fprintf(stderr, "fuzz_roundtrip: no context\n");
      abort();
    }
  }
  size_t nl = data[0] % 64, i = 1;
  char name[65];
  size_t k = 0;
  for (; i < size && i < 1 + nl; i++)
    if (data[i])
      name[k++] = (char)data[i];
  name[k] = 0;
  RtBuf text = {0};
  const uint8_t *p = data + i, *e = data + size;
  while (p < e) {
    size_t n = utf8_seq(p, e);
    if (n) {
      if (*p)
        rt_put(&text, p, n);
      p += n;
    } else {
      uint8_t fix[2] = {0xC2, (uint8_t)(0x80 | (*p & 0x3F))};
      rt_put(&text, fix, 2);
      p++;
    }
  }
  char *out;
  size_t outlen, explen;
  kern_status st = rt_run(ctx, "cpu", name, text.p ? text.p : "", text.n, &out,
                          &outlen);
  char *exp = rt_expect(name, text.p ? text.p : "", text.n, &explen);
  if (st != KERN_SUCCESS || outlen != explen || memcmp(out, exp, explen)) {
    fprintf(stderr, "fuzz_roundtrip: property broken: status %s\n%s\n",
            kern_status_name(st), kern_last_error(ctx));
    fprintf(stderr, "expected %zu bytes:\n", explen);
    fwrite(exp, 1, explen, stderr);
    fprintf(stderr, "\ngot %zu bytes:\n", outlen);
    if (out)
      fwrite(out, 1, outlen, stderr);
    fprintf(stderr, "\n");
    abort();
  }
  kern_clear_error(ctx);
  free(out);
  free(exp);
  free(text.p);
  return 0;
}
