/*
 * test_text.c -- user text never becomes code, and no line is cut short
 * (issue #8, items 1, 2, 5 and 10).
 *
 *   quote     emit_quote() over all 256 byte values, every trigraph and a
 *             comment end, compiled by the real C compiler with trigraphs
 *             on (-std=c11 -trigraphs) and off (-std=gnu11): each literal
 *             must hold exactly its bytes, and the comment must stay one
 *             comment.
 *   name      a module whose name holds every byte 1..255, every trigraph
 *             and a comment end followed by code runs on the CPU backend
 *             (and OpenCL and CUDA when present) and prints exactly that
 *             name.
 *   printf    a wp.printf() text with every byte a source can carry
 *             (ASCII 1..127 and UTF-8 sequences) and every trigraph, and
 *             a backslash trigraph before a quote, prints exactly that
 *             text.  For both, the C, CUDA and OpenCL sources hold no
 *             '?' pair and one comment end, and NVRTC compiles the CUDA.
 *   formats   every flag, width, precision and length modifier that
 *             fmt_parse accepts prints what the host printf prints, and
 *             "%l5d" is refused at the '5'.
 *   lines     a 100-term sum and a kernel with 1,000 array parameters
 *             (both emit lines far over 4,095 characters) give the right
 *             results on the CPU backend and OpenCL, and their CUDA
 *             compiles with NVRTC (up to CUDA's parameter-space limit).
 *
 *   emit_text [PART...]   (default: all parts)
 */
#include <sys/wait.h>
#include "../../fuzz/roundtrip.h"
#include "../runtime/test.h"
#include "common.h"
#include "emit.h"
#include "compile.h"
#include "cuda_check.h"

/* ---------------------------------------------------------------- quote */

static const char *const trigraphs[] = {"?\?=", "?\?(", "?\?/", "?\?)", "?\?'",
                                        "?\?<", "?\?!", "?\?>", "?\?-"};
#define NTRI (sizeof trigraphs / sizeof trigraphs[0])

/* Runs a shell command; returns its exit status. */
static int sh(const char *cmd) {
  int st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void test_quote(void) {
  Compiler *C = kern__calloc(1, sizeof *C);
  ASSERT(C);
  /* The cases: each byte between a letter and a digit (a digit right
   * after an escape must not extend it), the trigraphs, and text that
   * would end a comment or a literal. */
  char cases[256 + NTRI + 4][16];
  size_t lens[256 + NTRI + 4];
  int n = 0;
  for (int c = 0; c < 256; c++) {
    cases[n][0] = 'a';
    cases[n][1] = (char)c;
    cases[n][2] = '7';
    lens[n++] = 3;
  }
  for (size_t t = 0; t < NTRI; t++) {
    snprintf(cases[n], sizeof cases[n], "x%s0\"", trigraphs[t]);
    lens[n] = strlen(cases[n]);
    n++;
  }
  const char *extra[] = {"*/ int x; /*", "\\\n", "?\?/\n", "\"; }"};
  for (int i = 0; i < 4; i++) {
    strcpy(cases[n], extra[i]);
    lens[n++] = strlen(extra[i]);
  }
  char path[512];
  snprintf(path, sizeof path, "%s/quote.c", test_tmp);
  FILE *f = fopen(path, "w");
  ASSERT(f);
  fprintf(f, "#include <stdio.h>\n#include <string.h>\n"
             "static int bad;\n"
             "static void check(int i, const char *s, size_t n,\n"
             "                  const unsigned char *e, size_t m) {\n"
             "  if (n != m || memcmp(s, e, m)) { printf(\"case %%d\\n\", i); "
             "bad++; }\n}\nint main(void) {\n");
  for (int i = 0; i < n; i++) {
    Buf b;
    buf_init(&b, C);
    emit_quote(&b, cases[i], lens[i]);
    const char *q = b.p ? b.p : "";
    /* In a comment, in a literal, and again after the literal: a quoted
     * text that ended its comment or its literal early breaks the build
     * or the comparison. */
    fprintf(f, "  /* case %d: %s */\n", i, q);
    fprintf(f, "  { static const char s[] = \"%s\";\n", q);
    fprintf(f, "    static const unsigned char e[] = {");
    for (size_t k = 0; k < lens[i]; k++)
      fprintf(f, "%s%u", k ? ", " : "", (unsigned char)cases[i][k]);
    fprintf(f, "};\n    check(%d, s, sizeof s - 1, e, sizeof e); }\n", i);
  }
  fprintf(f, "  printf(\"%%d ok\\n\", %d - bad);\n  return bad != 0;\n}\n", n);
  fclose(f);
  arena_free_all(&C->arena);
  kern__free(C);
  const char *modes[] = {"-std=c11 -trigraphs", "-std=gnu11", "-std=c99"};
  for (int m = 0; m < 3; m++) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cc %s -Wall -Werror=trigraphs -o %s/quote %s && %s/quote >%s/quote.out",
             modes[m], test_tmp, path, test_tmp, test_tmp);
    int st = sh(cmd);
    if (st) {
      snprintf(cmd, sizeof cmd, "cat %s/quote.out >&2", test_tmp);
      sh(cmd);
    }
    ASSERT_EQ(st, 0);
  }
  printf("quote: %d cases exact under -std=c11 -trigraphs, gnu11, c99\n", n);
}

/* ---------------------------------------------------------------- run */

static kern_context *ctx;
/* Devices besides the CPU that the round trips also run on: OpenCL when
 * present (PoCL in CI), CUDA on a GPU machine. */
static const char *others[2];
static int nothers;

static const char *where(void) {
  static char buf[64];
  snprintf(buf, sizeof buf, "cpu%s%s%s%s", nothers ? ", " : "",
           nothers ? others[0] : "", nothers > 1 ? ", " : "",
           nothers > 1 ? others[1] : "");
  return buf;
}

static void check_run(const char *dev, const char *name, const char *text,
                      size_t n) {
  char *out;
  size_t outlen, explen;
  kern_status st = rt_run(ctx, dev, name, text, n, &out, &outlen);
  if (st != KERN_SUCCESS)
    fprintf(stderr, "%s\n", kern_last_error(ctx));
  ASSERT_EQ(st, KERN_SUCCESS);
  char *exp = rt_expect(name, text, n, &explen);
  if (outlen != explen || memcmp(out, exp, explen)) {
    fprintf(stderr, "[%s] expected %zu bytes:\n", dev, explen);
    fwrite(exp, 1, explen, stderr);
    fprintf(stderr, "\n[%s] got %zu bytes:\n", dev, outlen);
    fwrite(out, 1, outlen, stderr);
    fprintf(stderr, "\n");
  }
  ASSERT_EQ(outlen, explen);
  ASSERT(memcmp(out, exp, explen) == 0);
  free(out);
  free(exp);
}

/* The source of every target for (name, text): no '?' pair anywhere (a
 * trigraph for compilers that translate them), the generated comment
 * closed only where the emitter closes it, and CUDA accepted by NVRTC. */
static void check_sources(const char *name, const char *text, size_t n) {
  char *src = rt_source(text, n);
  static const char *const targets[] = {"c", "cuda", "opencl"};
  for (int t = 0; t < 3; t++) {
    char *out = NULL;
    kern_status st = kern_compile_source(ctx, name, src, strlen(src),
                                         targets[t], &out);
    if (st != KERN_SUCCESS)
      fprintf(stderr, "%s\n", kern_last_error(ctx));
    ASSERT_EQ(st, KERN_SUCCESS);
    ASSERT(!strstr(out, "?\?"));
    const char *end = strstr(out, "*/");
    ASSERT(end && !strncmp(end - 2, ". */\n", 5));
    ASSERT(!strstr(end + 2, "*/"));
    if (t == 1) {
      char *log = NULL;
      int rc = kern__cuda_nvrtc_compile_check(out, "sm_80", &log);
      if (rc != KERN__NVRTC_OK && rc != KERN__NVRTC_UNAVAILABLE)
        fprintf(stderr, "%s\n", log ? log : "");
      ASSERT(rc == KERN__NVRTC_OK || rc == KERN__NVRTC_UNAVAILABLE);
      free(log);
    }
    kern_free(out);
  }
  /* The CUDA the runtime builds carries #line directives, whose path NVRTC
   * copies into the PTX's .file directive (Note [#line paths]): compiled
   * to a cubin, so ptxas parses that PTX too. */
  kc_options lo = {0, 1, 0, 0, 0, 0, NULL, 0, 0};
  kc_result r = {0};
  ASSERT_EQ(kern__compile(name, src, strlen(src), KERN_TARGET_CUDA, &lo, &r),
            KERN_SUCCESS);
  ASSERT(strstr(r.source, "#line "));
  char *log = NULL;
  int rc = kern__cuda_nvrtc_compile_check(r.source, "sm_80", &log);
  if (rc != KERN__NVRTC_OK && rc != KERN__NVRTC_UNAVAILABLE)
    fprintf(stderr, "%s\n", log ? log : "");
  ASSERT(rc == KERN__NVRTC_OK || rc == KERN__NVRTC_UNAVAILABLE);
  free(log);
  kern__compile_result_free(&r);
  free(src);
}

static void test_name(void) {
  char name[512];
  size_t k = 0;
  for (int c = 1; c < 256; c++)
    name[k++] = (char)c;
  for (size_t t = 0; t < NTRI; t++) {
    memcpy(name + k, trigraphs[t], 3);
    k += 3;
  }
  const char *attack = "*/ int injected = ; /* ?\?/\n\" ";
  memcpy(name + k, attack, strlen(attack));
  k += strlen(attack);
  name[k] = 0;
  check_sources(name, "x", 1);
  check_run("cpu", name, "x", 1);
  check_run("cpu", "*/ #error injected /*", "y", 1);
  for (int d = 0; d < nothers; d++)
    check_run(others[d], name, "x", 1);
  printf("name: %zu-byte module name round-trips on %s\n", k, where());
}

static void test_printf(void) {
  RtBuf t = {0};
  for (int c = 1; c < 128; c++) {
    char ch = (char)c;
    rt_put(&t, &ch, 1);
  }
  /* Every byte a UTF-8 source can hold above 0x7f: U+0080..U+00FF give
   * the lead bytes C2, C3 and every continuation byte; one character for
   * each other lead byte E0..F4. */
  for (int cp = 0x80; cp < 0x100; cp++) {
    char u[2] = {(char)(0xC0 | cp >> 6), (char)(0x80 | (cp & 0x3F))};
    rt_put(&t, u, 2);
  }
  for (int lead = 0xC4; lead <= 0xDF; lead++) {
    char u[2] = {(char)lead, (char)0x80};
    rt_put(&t, u, 2);
  }
  for (int lead = 0xE0; lead <= 0xEF; lead++) {
    char u[3] = {(char)lead, (char)(lead == 0xE0 ? 0xA0 : 0x80), (char)0x80};
    if (lead == 0xED)
      u[1] = (char)0x80; /* below the surrogates */
    rt_put(&t, u, 3);
  }
  for (int lead = 0xF0; lead <= 0xF4; lead++) {
    char u[4] = {(char)lead, (char)(lead == 0xF0 ? 0x90 : 0x80), (char)0x80,
                 (char)0x80};
    rt_put(&t, u, 4);
  }
  for (size_t i = 0; i < NTRI; i++)
    rt_put(&t, trigraphs[i], 3);
  const char *attack = "?\?/\"); abort(); printf(\"";
  rt_put(&t, attack, strlen(attack));
  check_sources("m.py", t.p, t.n);
  check_run("cpu", "m.py", t.p, t.n);
  const char *issue = "Really?\?! ok?\?=\n";
  check_run("cpu", "m.py", issue, strlen(issue));
  for (int d = 0; d < nothers; d++) {
    check_run(others[d], "m.py", t.p, t.n);
    check_run(others[d], "m.py", issue, strlen(issue));
  }
  printf("printf: %zu-byte text round-trips on %s\n", t.n, where());
  free(t.p);
}

/* ---------------------------------------------------------------- formats */

/* Captures what a launch of kernel "k" of src prints on the CPU. */
static char *run_capture(const char *src) {
  kern_device dev;
  ASSERT_EQ(kern_device_find(ctx, "cpu", &dev), KERN_SUCCESS);
  kern_module *m = NULL;
  kern_status st = kern_module_load_string(ctx, dev, "fmt.py", src,
                                           strlen(src), &m);
  if (st != KERN_SUCCESS)
    fprintf(stderr, "%s\n", kern_last_error(ctx));
  ASSERT_EQ(st, KERN_SUCCESS);
  kern_kernel *k;
  ASSERT_EQ(kern_module_get_kernel(m, "k", &k), KERN_SUCCESS);
  FILE *tmp = tmpfile();
  ASSERT(tmp);
  fflush(stdout);
  int saved = dup(STDOUT_FILENO);
  dup2(fileno(tmp), STDOUT_FILENO);
  int64_t one = 1;
  st = kern_launch(k, 1, &one, 0, NULL);
  fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  ASSERT_EQ(st, KERN_SUCCESS);
  rewind(tmp);
  RtBuf b = {0};
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, tmp)) > 0)
    rt_put(&b, chunk, got);
  fclose(tmp);
  kern_module_free(m);
  return b.p ? b.p : calloc(1, 1);
}

static void test_formats(void) {
  /* Conversions the host's printf takes as they are (int or double). */
  static const char *const ints[] = {
      "%d", "%5d", "%-5d|", "%+d", "% d", "%05d", "%.3d", "%i", "%u", "%x",
      "%X", "%#x", "%#X", "%o", "%#o", "%8.4x", "%-+7i|", "%c"};
  static const char *const floats[] = {
      "%f", "%.2f", "%10.3e", "%-8.1f|", "%g", "%G", "%a", "%A", "%E",
      "%+.0f", "%#.0f", "%F", "% 012.4f", "%#g"};
  RtBuf src = {0}, want = {0};
  const char *head = "import warp as wp\n\n\n@wp.kernel\ndef k():\n"
                     "    i = wp.tid()\n";
  rt_put(&src, head, strlen(head));
  char line[256], buf[256];
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    snprintf(line, sizeof line, "    wp.printf(\"[%s]\", 65)\n", ints[i]);
    rt_put(&src, line, strlen(line));
    snprintf(line, sizeof line, "[%s]", ints[i]);
    snprintf(buf, sizeof buf, line, 65);
    rt_put(&want, buf, strlen(buf));
  }
  for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
    snprintf(line, sizeof line, "    wp.printf(\"[%s]\", 2.5)\n", floats[i]);
    rt_put(&src, line, strlen(line));
    snprintf(line, sizeof line, "[%s]", floats[i]);
    snprintf(buf, sizeof buf, line, 2.5);
    rt_put(&want, buf, strlen(buf));
  }
  /* Length modifiers are checked, then replaced by the emitter's own. */
  const char *mods = "    wp.printf(\"[%hhd %hd %ld %lld %zd %jd %td %lu "
                     "%lx %lf %%]\\n\", 7, 7, 7, 7, 7, 7, 7, 7, 255, 0.5)\n";
  rt_put(&src, mods, strlen(mods));
  const char *mods_want = "[7 7 7 7 7 7 7 7 ff 0.500000 %]\n";
  rt_put(&want, mods_want, strlen(mods_want));
  /* Note [printf integer widths]: a value prints at its own width (an
   * int32 as C's int), narrowed further by a user's "h" or "hh", even
   * though the emitter widens everything to 64 bits.  The expected text
   * comes from the host's printf with the types Warp would pass. */
  const char *widths = "    wp.printf(\"[%x %X %o %u %hx %hhx %hhd %hd %d %x "
                       "%x %u %lx %d]\\n\", wp.int32(-5), wp.int32(-5), "
                       "wp.int32(-5), wp.int32(-1), wp.int32(-5), wp.int32(-5), "
                       "wp.int32(300), wp.int32(70000), wp.uint32(4294967295), "
                       "wp.int8(-1), wp.int16(-2), wp.uint8(255), "
                       "wp.int64(-5), wp.int64(-5))\n";
  rt_put(&src, widths, strlen(widths));
  snprintf(buf, sizeof buf, "[%x %X %o %u %hx %hhx %hhd %hd %d %x %x %u %llx "
           "%lld]\n", (unsigned)-5, (unsigned)-5, (unsigned)-5, (unsigned)-1,
           (unsigned short)-5, (unsigned char)-5, (signed char)300,
           (short)70000, (int)4294967295u, (unsigned char)-1,
           (unsigned short)-2, 255u, (unsigned long long)-5LL, -5LL);
  rt_put(&want, buf, strlen(buf));
  char *got = run_capture(src.p);
  ASSERT_STREQ(got, want.p);
  free(got);
  free(src.p);
  free(want.p);

  /* Issue #8 item 10: "%l5d" passed the check and was emitted as "%ll5"
   * and a 'd'.  It is refused where the '5' is. */
  const char *bad = "import warp as wp\n\n\n@wp.kernel\ndef k():\n"
                    "    i = wp.tid()\n    wp.printf(\"%l5d\\n\", i)\n";
  char *out = NULL;
  kern_status st = kern_compile_source(ctx, "bad.py", bad, strlen(bad), "c",
                                       &out);
  ASSERT_EQ(st, KERN_ERROR_COMPILE);
  ASSERT_CONTAINS(kern_last_error(ctx), "bad.py:7:18: error: bad conversion "
                                        "'%l5' in the wp.printf() format");
  kern_clear_error(ctx);
  kern_free(out);
  printf("formats: %zu conversions print as the host's printf does; "
         "'%%l5d' refused\n",
         sizeof ints / sizeof ints[0] + sizeof floats / sizeof floats[0] + 10);
}

/* ---------------------------------------------------------------- lines */

/* Launches kernel "k" of src on dev with n float arrays of `len` elements,
 * array j filled with fill(j); returns the last array's values (malloc'd). */
static float *run_arrays(const char *dev_name, const char *src, int narr,
                         float (*fill)(int), int64_t len) {
  kern_device dev;
  ASSERT_EQ(kern_device_find(ctx, dev_name, &dev), KERN_SUCCESS);
  kern_module *m = NULL;
  kern_status st = kern_module_load_string(ctx, dev, "lines.py", src,
                                           strlen(src), &m);
  if (st != KERN_SUCCESS)
    fprintf(stderr, "%s\n", kern_last_error(ctx));
  ASSERT_EQ(st, KERN_SUCCESS);
  kern_kernel *k;
  ASSERT_EQ(kern_module_get_kernel(m, "k", &k), KERN_SUCCESS);
  kern_array **arrs = calloc((size_t)narr, sizeof *arrs);
  kern_arg *args = calloc((size_t)narr, sizeof *args);
  ASSERT(arrs && args);
  kern_type f32 = KERN_TYPE_FLOAT32;
  for (int j = 0; j < narr; j++) {
    ASSERT_EQ(kern_array_new(ctx, dev, f32, 1, &len, &arrs[j]), KERN_SUCCESS);
    float v = fill(j);
    ASSERT_EQ(kern_array_fill(arrs[j], &v), KERN_SUCCESS);
    args[j] = kern_arg_array(arrs[j]);
  }
  st = kern_launch(k, 1, &len, narr, args);
  if (st != KERN_SUCCESS)
    fprintf(stderr, "%s\n", kern_last_error(ctx));
  ASSERT_EQ(st, KERN_SUCCESS);
  float *out = malloc(sizeof(float) * (size_t)len);
  ASSERT(out);
  ASSERT_EQ(kern_array_download(arrs[narr - 1], out,
                                sizeof(float) * (size_t)len),
            KERN_SUCCESS);
  for (int j = 0; j < narr; j++)
    kern_array_free(arrs[j]);
  free(arrs);
  free(args);
  kern_module_free(m);
  return out;
}

static float fill_sum(int j) { return j == 0 ? 2.0f : 0.0f; }
static float fill_params(int j) { return (float)(j % 7); }

/* The longest line of s. */
static size_t longest_line(const char *s) {
  size_t best = 0;
  while (*s) {
    size_t n = strcspn(s, "\n");
    if (n > best)
      best = n;
    s += n + (s[n] != 0);
  }
  return best;
}

/* Compiles src for CUDA and checks it with NVRTC; 0 ok, 77 no NVRTC. */
static int nvrtc(const char *src, size_t min_line) {
  char *cu = NULL;
  ASSERT_EQ(kern_compile_source(ctx, "lines.py", src, strlen(src), "cuda",
                                &cu),
            KERN_SUCCESS);
  ASSERT(longest_line(cu) > min_line);
  char *log = NULL;
  int rc = kern__cuda_nvrtc_compile_check(cu, "sm_80", &log);
  if (rc == KERN__NVRTC_UNAVAILABLE) {
    free(log);
    kern_free(cu);
    return 77;
  }
  if (rc != KERN__NVRTC_OK)
    fprintf(stderr, "%s\n", log ? log : "");
  ASSERT_EQ(rc, KERN__NVRTC_OK);
  free(log);
  kern_free(cu);
  return 0;
}

/* A kernel with n array parameters a0..a{n-1}: the last gets
 * a0 + a{n/2} + 1. */
static char *params_source(int n) {
  RtBuf b = {0};
  const char *head = "import warp as wp\n\n\n@wp.kernel\ndef k(";
  rt_put(&b, head, strlen(head));
  char p[64];
  for (int j = 0; j < n; j++) {
    snprintf(p, sizeof p, "%sa%d: wp.array(dtype=float)", j ? ", " : "", j);
    rt_put(&b, p, strlen(p));
  }
  snprintf(p, sizeof p, "):\n    i = wp.tid()\n    a%d[i] = a0[i] + a%d[i]",
           n - 1, n / 2);
  rt_put(&b, p, strlen(p));
  rt_put(&b, " + 1.0\n", 7);
  return b.p;
}

static void test_lines(void) {
  const char *devs[3] = {"cpu", others[0], others[1]};
  int ndev = 1 + nothers;
  /* out = a*1 + a*2 + ... + a*100 = 5050 a */
  RtBuf sum = {0};
  const char *head = "import warp as wp\n\n\n@wp.kernel\n"
                     "def k(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
                     "    i = wp.tid()\n    out[i] = a[i] * 1.0";
  rt_put(&sum, head, strlen(head));
  char term[32];
  for (int j = 2; j <= 100; j++) {
    snprintf(term, sizeof term, " + a[i] * %d.0", j);
    rt_put(&sum, term, strlen(term));
  }
  rt_put(&sum, "\n", 1);
  char *c = NULL;
  ASSERT_EQ(kern_compile_source(ctx, "lines.py", sum.p, sum.n, "c", &c),
            KERN_SUCCESS);
  ASSERT(longest_line(c) > 4095); /* the case that used to be cut */
  kern_free(c);
  for (int d = 0; d < ndev; d++) {
    float *out = run_arrays(devs[d], sum.p, 2, fill_sum, 5);
    for (int i = 0; i < 5; i++)
      ASSERT_EQ(out[i], 10100);
    free(out);
  }
  int cuda = nvrtc(sum.p, 4095);

  /* CUDA runs the most parameters it can take (below). */
  for (int d = 0; d < ndev; d++) {
    int np = strcmp(devs[d], "cuda") ? 1000 : 800;
    char *src = params_source(np);
    float *out = run_arrays(devs[d], src, np, fill_params, 3);
    for (int i = 0; i < 3; i++)
      ASSERT_EQ(out[i], 0 + (np / 2) % 7 + 1);
    free(out);
    free(src);
  }
  char *params = params_source(1000);
  /* CUDA gives a kernel at most 32,764 bytes of parameters (sm_70 and up,
   * CUDA 12.1 and up), and a kern array parameter takes 40 (a pointer
   * and four 64-bit extents), so 1,000 arrays cannot be one CUDA kernel
   * as the ABI stands; 800 (32,000 bytes, a 30 KB signature) is the most
   * that fits.  The 1,000-array signature is still checked whole. */
  char *cu = NULL;
  ASSERT_EQ(kern_compile_source(ctx, "lines.py", params, strlen(params),
                                "cuda", &cu),
            KERN_SUCCESS);
  const char *sig = strstr(cu, "__global__ void kern_k_k(");
  ASSERT(sig);
  size_t siglen = strcspn(sig, "\n");
  ASSERT(siglen > 3 * 4095);
  ASSERT(!strncmp(sig + siglen - 3, ") {", 3));
  const char *last = strstr(sig, "p999_a999");
  ASSERT(last && last < sig + siglen);
  kern_free(cu);
  free(params);
  params = params_source(800);
  if (cuda == 0)
    cuda = nvrtc(params, 3 * 4095);
  free(params);
  free(sum.p);
  printf("lines: 100-term sum and 1,000 array parameters correct on %s; "
         "CUDA %s\n", where(),
         cuda == 77 ? "not checked (no NVRTC)" : "compiles with NVRTC");
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv) {
  test_setup();
  kern_options o = KERN_OPTIONS_INIT;
  o.no_cache = 1;
  o.debug = 1;
  o.num_threads = 1;
  ASSERT_EQ(kern_context_new(&o, &ctx), KERN_SUCCESS);
  kern_device dev;
  if (kern_device_find(ctx, "opencl", &dev) == KERN_SUCCESS)
    others[nothers++] = "opencl";
  if (kern_device_find(ctx, "cuda", &dev) == KERN_SUCCESS)
    others[nothers++] = "cuda";
  kern_clear_error(ctx);
  static const struct {
    const char *name;
    void (*fn)(void);
  } parts[] = {{"quote", test_quote},     {"name", test_name},
               {"printf", test_printf},   {"formats", test_formats},
               {"lines", test_lines}};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    bool run = argc < 2;
    for (int a = 1; a < argc; a++)
      run |= !strcmp(argv[a], parts[i].name);
    if (run)
      parts[i].fn();
  }
  kern_context_free(ctx);
  return 0;
}
