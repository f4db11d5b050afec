/*
 * main.c -- the `kern bench` command line.
 *
 * Parses options, reads the kernel file and its specs, runs them and writes
 * the reports.  It follows the tool's exit statuses (tools/kern.c): 0 done
 * (rows may still say failed or unavailable: that is a result, not an
 * error), 1 a spec, file or library error, 2 bad usage.
 */
#include "bench.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char bench_help[] =
    "Usage: kern bench FILE [OPTIONS]\n"
    "       kern bench --compare OLD.json NEW.json\n"
    "\n"
    "Runs the benchmark specs written in FILE's '# kern-bench:' comments on\n"
    "every available backend and device, checks each output against the CPU\n"
    "backend's, times the launches, runs the reference implementations the\n"
    "spec names (NumPy, PyTorch, CuPy, JAX, Warp) through python3, and\n"
    "prints a table.  The spec format is in docs/bench.md.\n"
    "\n"
    "What FILE can make kern bench do (docs/bench.md, \"What a kernel file\n"
    "can do\"): its kernels run on every device, the first launch of each\n"
    "row checked as 'kern run' checks it; its @wp.func_native snippets are\n"
    "compiled and run as native code (--no-native refuses them); a\n"
    "reference expression runs only when it is made of kern bench's known\n"
    "functions (np.dot, torch.sum, ...), any other Python in the file's\n"
    "'# kern-bench-ref:' lines only with --file-refs.\n"
    "\n"
    "Options:\n"
    "  --backend LIST      cpu,cuda,opencl or all (default all)\n"
    "  --size NAME=V[,V..] override a size of the spec (a sweep with several)\n"
    "  --rsd R             stop sampling at this relative standard deviation\n"
    "                      (default 0.02)\n"
    "  --budget S          seconds of sampling per row and mode (default 1)\n"
    "  --min-samples N     at least N samples before the RSD may stop (10)\n"
    "  --max-samples N     at most N samples (default 1000)\n"
    "  --no-cold           skip the cold runs (caches flushed before each)\n"
    "  --transfers         also time upload + launch + download per call\n"
    "  --no-refs           skip the reference implementations\n"
    "  --file-refs         also run reference expressions that are not\n"
    "                      made of known functions: the file's own Python,\n"
    "                      able to do anything you can (trusted files only)\n"
    "  --no-native         refuse @wp.func_native snippets (native code\n"
    "                      pasted into the program), for files you do not\n"
    "                      trust, as in 'kern run'\n"
    "  --python PY         Python for the references (default: the first\n"
    "                      of python3 and /usr/bin/python3 that imports\n"
    "                      NumPy, else python3)\n"
    "  --no-peak           do not measure or show the device peak\n"
    "  --json FILE         write every figure as JSON (docs/bench-schema.json)\n"
    "  --csv               print CSV instead of the table\n"
    "  --markdown          print a Markdown table instead of the table\n"
    "  --plot FILE         draw times and bandwidth: .svg or .png (gnuplot\n"
    "                      when installed; else kern writes the SVG itself)\n"
    "  --compare OLD NEW   per-row change between two --json files and\n"
    "                      whether it exceeds the noise\n"
    "  -q, --quiet         no progress line on stderr\n"
    "  -h, --help          show this help\n"
    "\n"
    "Exit status: 0 the benchmark ran (rows may be failed or unavailable);\n"
    "1 a bad spec (file:line:col), unreadable file or library error;\n"
    "2 bad usage.\n";

/* The references' Python when --python is not given: a machine can put
 * a python3 without NumPy first on PATH (a pyenv one) beside Debian's,
 * which has it; the first that imports NumPy, else python3. */
static const char *default_python(void) {
  static const char *const cands[] = {"python3", "/usr/bin/python3"};
  for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
    char *argv[] = {(char *)cands[i], "-c", "import numpy", NULL};
    if (bench_spawn(argv, "/dev/null", "/dev/null") == 0) return cands[i];
  }
  return "python3";
}

static int usage(const char *fmt, const char *a) {
  fputs("kern: error: ", stderr);
  fprintf(stderr, fmt, a);
  fputs("\nTry 'kern bench --help'.\n", stderr);
  return 2;
}

static int fail(const char *msg) {
  size_t n = strlen(msg);
  /* A spec diagnostic is complete already (path:line:col: error: ...). */
  if (strstr(msg, ": error: ")) fprintf(stderr, "%s%s", msg, n && msg[n - 1] == '\n' ? "" : "\n");
  else fprintf(stderr, "kern: error: %s\n", msg);
  return 1;
}

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  while (b) {
    n += fread(b + n, 1, cap - n - 1, f);
    if (n + 1 < cap) break;
    char *nb = cap < (64u << 20) ? realloc(b, cap *= 2) : NULL;
    if (!nb) { free(b); b = NULL; }
    else b = nb;
  }
  fclose(f);
  if (b) b[n] = '\0';
  return b;
}

static int file_exists(const char *p) { return p && access(p, R_OK) == 0; }

/* The reference helper is installed next to kern (share/kern) and lives in
 * tools/ of a source tree; $KERN_BENCH_REF overrides both. */
static const char *find_ref_script(char *buf, size_t size) {
  const char *env = getenv("KERN_BENCH_REF");
  if (env && env[0]) return env;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    static const char *const rel[] = {"../share/kern/kern_bench_ref.py",
                                      "../tools/kern_bench_ref.py"};
    for (int i = 0; i < 2; i++) {
      snprintf(buf, size, "%s/%s", exe, rel[i]);
      if (file_exists(buf)) return buf;
    }
  }
#ifdef KERN_BENCH_REF_SOURCE
  if (file_exists(KERN_BENCH_REF_SOURCE)) return KERN_BENCH_REF_SOURCE;
#endif
  return "kern_bench_ref.py";
}

static int parse_double(const char *s, double *out) {
  char *e;
  errno = 0;
  double v = strtod(s, &e);
  if (*e || errno || !(v > 0)) return -1;
  *out = v;
  return 0;
}

static int parse_int(const char *s, int *out) {
  char *e;
  errno = 0;
  long v = strtol(s, &e, 10);
  if (*e || errno || v < 1 || v > 10000000) return -1;
  *out = (int)v;
  return 0;
}

/* --size NAME=V[,V...]: replaces the values of a size in every spec that
 * has it; a name no spec has is an error. */
static int apply_sizes(bench_file *f, const char *text) {
  const char *eq = strchr(text, '=');
  if (!eq || eq == text) return usage("--size '%s': expected NAME=V[,V...]", text);
  int64_t vals[BENCH_MAX_SWEEP];
  int n = 0;
  for (const char *p = eq + 1;;) {
    char *e;
    errno = 0;
    long long v = strtoll(p, &e, 10);
    if (e == p || errno || v <= 0 || (*e && *e != ',') || n == BENCH_MAX_SWEEP)
      return usage("--size '%s': values must be positive integers (at most 16)", text);
    vals[n++] = v;
    if (!*e) break;
    p = e + 1;
  }
  int found = 0;
  for (int i = 0; i < f->nspecs; i++) {
    bench_spec *s = &f->specs[i];
    for (int v = 0; v < s->nvars; v++) {
      if (strlen(s->var[v]) != (size_t)(eq - text) ||
          strncmp(s->var[v], text, (size_t)(eq - text)))
        continue;
      found = 1;
      for (int k = 0; k < BENCH_MAX_SWEEP; k++)
        s->val[v][k] = vals[k < n ? k : n - 1];
      if (n > 1 || s->npoints > 1) {
        /* The override decides the sweep: other sizes hold their first. */
        for (int w = 0; w < s->nvars; w++)
          if (w != v)
            for (int k = 1; k < BENCH_MAX_SWEEP; k++) s->val[w][k] = s->val[w][0];
        s->npoints = n;
      }
    }
  }
  if (!found) {
    fprintf(stderr, "kern: error: --size '%s': no spec has a size named "
            "'%.*s'\n", text, (int)(eq - text), text);
    return 1;
  }
  return 0;
}

int bench_main(int argc, char **argv) {
  bench_options o = {0};
  o.backends = "all";
  o.target_rsd = 0.02;
  o.budget_s = 1.0;
  o.min_samples = 10;
  o.max_samples = 1000;
  o.cold = 1;
  o.refs = 1;
  o.python = NULL;
  const char *file = NULL, *json = NULL, *plot = NULL, *sizes[8];
  int nsizes = 0, csv = 0, markdown = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDS(opt) if (!v) return usage("option '%s' needs a value", opt)
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(bench_help, stdout);
      return 0;
    } else if (!strcmp(a, "--compare")) {
      if (i + 2 >= argc) return usage("%s needs two files: OLD.json NEW.json", a);
      if (i + 3 != argc) return usage("%s takes no other arguments", a);
      char err[512];
      int rc = bench_compare(stdout, argv[i + 1], argv[i + 2], err, sizeof err);
      if (rc < 0) return fail(err);
      return 0;
    } else if (!strcmp(a, "--backend")) {
      NEEDS(a);
      for (const char *p = v;;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        static const char *const ok[] = {"all", "cpu", "cuda", "opencl", "vulkan"};
        int known = 0;
        for (int k = 0; k < 5; k++)
          known |= strlen(ok[k]) == l && strncmp(ok[k], p, l) == 0;
        if (!known)
          return usage("--backend '%s': each name is cpu, cuda, opencl, vulkan or all", v);
        if (!e) break;
        p = e + 1;
      }
      o.backends = v, i++;
    } else if (!strcmp(a, "--size")) {
      NEEDS(a);
      if (nsizes == 8) return usage("%s given more than 8 times", a);
      sizes[nsizes++] = v, i++;
    } else if (!strcmp(a, "--rsd")) {
      NEEDS(a);
      if (parse_double(v, &o.target_rsd)) return usage("--rsd '%s' is not a positive number", v);
      i++;
    } else if (!strcmp(a, "--budget")) {
      NEEDS(a);
      if (parse_double(v, &o.budget_s)) return usage("--budget '%s' is not a positive number of seconds", v);
      i++;
    } else if (!strcmp(a, "--min-samples")) {
      NEEDS(a);
      if (parse_int(v, &o.min_samples)) return usage("--min-samples '%s' is not a positive integer", v);
      i++;
    } else if (!strcmp(a, "--max-samples")) {
      NEEDS(a);
      if (parse_int(v, &o.max_samples)) return usage("--max-samples '%s' is not a positive integer", v);
      i++;
    } else if (!strcmp(a, "--no-cold")) {
      o.cold = 0;
    } else if (!strcmp(a, "--transfers")) {
      o.transfers = 1;
    } else if (!strcmp(a, "--no-refs")) {
      o.refs = 0;
    } else if (!strcmp(a, "--no-peak")) {
      o.no_peak = 1;
    } else if (!strcmp(a, "--no-native")) {
      o.no_native = 1;
    } else if (!strcmp(a, "--file-refs")) {
      o.file_refs = 1;
    } else if (!strcmp(a, "--python")) {
      NEEDS(a);
      o.python = v, i++;
    } else if (!strcmp(a, "--json")) {
      NEEDS(a);
      json = v, i++;
    } else if (!strcmp(a, "--plot")) {
      NEEDS(a);
      plot = v, i++;
    } else if (!strcmp(a, "--csv")) {
      csv = 1;
    } else if (!strcmp(a, "--markdown")) {
      markdown = 1;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      o.quiet = 1;
    } else if (a[0] == '-' && a[1]) {
      return usage("unknown option '%s'", a);
    } else if (file) {
      return usage("unexpected argument '%s' (one FILE)", a);
    } else {
      file = a;
    }
#undef NEEDS
  }
  if (!file) return usage("missing FILE%s", "");
  if (!o.python) o.python = default_python();
  if (csv && markdown) return usage("give --csv or --markdown, not both%s", "");
  if (!isatty(2)) o.quiet = 1;
  char *src = read_all(file);
  if (!src) {
    fprintf(stderr, "kern: error: cannot read '%s': %s\n", file, strerror(errno));
    return 1;
  }
  /* kern recognises a snippet only by a decorator spelt func_native, so a
   * file without those letters has none. */
  if (!o.no_native && strstr(src, "func_native"))
    fprintf(stderr, "kern bench: warning: '%s' has @wp.func_native snippets: "
            "their native code is compiled and runs with your rights "
            "(--no-native refuses them)\n", file);
  char err[2048];
  bench_file bf;
  int rc = bench_file_parse(file, src, &bf, err, sizeof err);
  free(src);
  if (rc) return fail(err);
  for (int i = 0; i < nsizes; i++)
    if ((rc = apply_sizes(&bf, sizes[i]))) {
      bench_file_free(&bf);
      return rc;
    }
  char script[PATH_MAX + 64];
  o.ref_script = find_ref_script(script, sizeof script);
  bench_result r;
  rc = bench_run(&bf, &o, &r, err, sizeof err);
  bench_file_free(&bf);
  if (rc) {
    bench_result_free(&r);
    return fail(err);
  }
  if (csv) bench_write_csv(stdout, &r);
  else if (markdown) bench_write_markdown(stdout, &r);
  else bench_print_table(stdout, &r);
  int status = 0;
  if (json) {
    FILE *f = strcmp(json, "-") ? fopen(json, "w") : stdout;
    if (!f || bench_write_json(f, &r) || (f != stdout && fclose(f))) {
      fprintf(stderr, "kern: error: cannot write '%s'\n", json);
      status = 1;
    }
  }
  if (plot && bench_write_plot(plot, &r, err, sizeof err)) status = fail(err);
  bench_result_free(&r);
  return status;
}
