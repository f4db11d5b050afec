/*
 * report.c -- what kern bench prints and writes.
 *
 * Every format shows the same rows in the same order; the table is for a
 * person (units chosen per figure, one line per row and mode), the JSON is
 * the complete record (docs/bench-schema.json), CSV and Markdown are for
 * spreadsheets and pull requests.  A row that did not run says why in every
 * format instead of disappearing, because a missing backend is itself a
 * finding.
 */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec.h"

static void fmt_time(double s, char *buf, size_t size) {
  if (!isfinite(s)) snprintf(buf, size, "-");
  else if (s >= 1) snprintf(buf, size, "%.3f s", s);
  else if (s >= 1e-3) snprintf(buf, size, "%.3f ms", s * 1e3);
  else if (s >= 1e-6) snprintf(buf, size, "%.2f us", s * 1e6);
  else snprintf(buf, size, "%.0f ns", s * 1e9);
}

static double gbps(const bench_row *r, const bench_mode *m) {
  return isfinite(r->bytes) && m->st.median > 0 ? r->bytes / m->st.median / 1e9
                                                 : NAN;
}

static double gflops(const bench_row *r, const bench_mode *m) {
  return isfinite(r->flops) && m->st.median > 0 ? r->flops / m->st.median / 1e9
                                                 : NAN;
}

static double pct_peak(const bench_row *r, const bench_mode *m) {
  double g = gbps(r, m);
  return isfinite(g) && isfinite(r->peak_gbps) && r->peak_gbps > 0
             ? 100 * g / r->peak_gbps
             : NAN;
}

/* Note [peak label]: % of the memory's peak means something only for data
 * that comes from memory.  Data that fits in the last-level cache is
 * labelled "cache" instead of a number.  A figure above 100% otherwise
 * says the copy that measured the peak did not reach what this launch did
 * (a read-only stream beats a copy on some machines; a cache served part
 * of the data; the copy was disturbed), so it is ">copy", never a number
 * above 100. */
void bench_peak_text(double pct, double bytes, double cache_bytes, char *buf,
                     size_t size) {
  if (!isfinite(pct)) snprintf(buf, size, "-");
  else if (cache_bytes > 0 && isfinite(bytes) && bytes <= cache_bytes)
    snprintf(buf, size, "cache");
  else if (pct > 100) snprintf(buf, size, ">copy");
  else snprintf(buf, size, "%.0f%%", pct);
}

static int ok(const bench_row *r) {
  return strcmp(r->status, "ok") == 0 && r->mode[BENCH_HOT].present;
}

/* Note [speed-up]: a reference is compared with kern on the same kind of
 * device: NumPy (the CPU) with the cpu row, a GPU library with the fastest
 * kern GPU row.  The figure is reference time / kern time, so above 1
 * means kern is faster. */
double bench_row_vs_kern(const bench_result *r, const bench_row *row) {
  if (strcmp(row->kind, "reference") != 0 || !ok(row)) return NAN;
  int want_cpu = strncmp(row->device, "cpu", 3) == 0;
  double best = NAN;
  for (int i = 0; i < r->nrows; i++) {
    const bench_row *k = &r->rows[i];
    if (strcmp(k->kind, "backend") || !ok(k) || k->point != row->point ||
        strcmp(k->bench, row->bench))
      continue;
    int is_cpu = strncmp(k->name, "cpu", 3) == 0;
    int is_cuda = strncmp(k->name, "cuda", 4) == 0;
    if (want_cpu ? !is_cpu : !is_cuda) continue;
    double t = k->mode[BENCH_HOT].st.median;
    if (!(t >= best)) best = t;
  }
  return isfinite(best) ? row->mode[BENCH_HOT].st.median / best : NAN;
}

static void status_text(const bench_row *r, char *buf, size_t size) {
  if (strcmp(r->status, "ok") == 0) snprintf(buf, size, "ok");
  else snprintf(buf, size, "%s: %s", r->status, r->message);
}

/* ---------------------------------------------------------------- table */

void bench_print_table(FILE *f, const bench_result *r) {
  const char *last_bench = "";
  int last_point = -1;
  int w = 19;
  for (int i = 0; i < r->nrows; i++) {
    int l = (int)strlen(r->rows[i].name);
    if (l > w) w = l;
  }
  if (w > 44) w = 44;
  for (int i = 0; i < r->nrows; i++) {
    const bench_row *row = &r->rows[i];
    if (strcmp(row->bench, last_bench) || row->point != last_point) {
      fprintf(f, "%s%s  %s\n", i ? "\n" : "", row->bench, row->size);
      fprintf(f, "  %-*s %-9s %10s %10s %10s %6s %5s %-11s %8s %6s %8s %7s\n",
              w, "backend / reference", "mode", "median", "min", "max", "rsd",
              "n", "stopped by", "GB/s", "%peak", "GFLOP/s", "vs kern");
      last_bench = row->bench;
      last_point = row->point;
    }
    char name[64];
    snprintf(name, sizeof name, "%.*s", w, row->name);
    if (strcmp(row->status, "ok") != 0) {
      char st[700];
      status_text(row, st, sizeof st);
      fprintf(f, "  %-*s %s\n", w, name, st);
      continue;
    }
    int first = 1;
    for (int m = 0; m < BENCH_MODES; m++) {
      const bench_mode *md = &row->mode[m];
      if (!md->present) continue;
      char med[24], mn[24], mx[24], g[16] = "-", pk[16] = "-", fl[16] = "-",
           vs[16] = "";
      fmt_time(md->st.median, med, sizeof med);
      fmt_time(md->st.min, mn, sizeof mn);
      fmt_time(md->st.max, mx, sizeof mx);
      if (isfinite(gbps(row, md))) snprintf(g, sizeof g, "%.1f", gbps(row, md));
      bench_peak_text(pct_peak(row, md), row->bytes, row->cache_bytes, pk,
                      sizeof pk);
      if (isfinite(gflops(row, md)))
        snprintf(fl, sizeof fl, "%.1f", gflops(row, md));
      double v = m == BENCH_HOT ? bench_row_vs_kern(r, row) : NAN;
      if (isfinite(v)) snprintf(vs, sizeof vs, "%.2fx", v);
      fprintf(f, "  %-*s %-9s %10s %10s %10s %5.1f%% %5d %-11s %8s %6s %8s %7s\n",
              w, first ? name : "", bench_mode_names[m], med, mn, mx,
              100 * md->st.rsd, md->st.n, md->stop ? md->stop : "-", g, pk,
              fl, vs);
      first = 0;
    }
  }
  fprintf(f, "\nTimes per launch; hot: back to back on resident data, cold: "
          "after flushing the caches, transfers: upload + launch + download.\n"
          "kern rows on GPUs (CUDA, OpenCL, Vulkan) are timed by device events "
          "around each launch (timer events), on the CPU by the wall clock "
          "around kern_launch (timer wall);\ntransfers always by the wall "
          "clock; vs kern = reference time / kern time.\n"
          "%%peak = GB/s / the device's best large copy; cache: the data "
          "fits in the last-level cache, where %% of the memory's peak does "
          "not apply; >copy: faster than that copy (above 100%%).\n");
}

/* ---------------------------------------------------------------- json */

static void json_mode(bench_jw *w, const char *key, const bench_row *row,
                      const bench_mode *m) {
  if (!m->present) {
    bench_jw_str(w, key, NULL);
    return;
  }
  bench_jw_obj(w, key);
  bench_jw_num(w, "median_s", m->st.median);
  bench_jw_num(w, "min_s", m->st.min);
  bench_jw_num(w, "max_s", m->st.max);
  bench_jw_num(w, "mean_s", m->st.mean);
  bench_jw_num(w, "rsd", m->st.rsd);
  bench_jw_int(w, "samples", m->st.n);
  bench_jw_str(w, "stopped_by", m->stop ? m->stop : "budget");
  bench_jw_num(w, "gbps", gbps(row, m));
  bench_jw_num(w, "gflops", gflops(row, m));
  bench_jw_num(w, "percent_of_peak", pct_peak(row, m));
  bench_jw_end_obj(w);
}

int bench_write_json(FILE *f, const bench_result *r) {
  bench_jw w;
  bench_jw_begin(&w, f);
  bench_jw_obj(&w, NULL);
  bench_jw_str(&w, "schema", "kern-bench");
  bench_jw_int(&w, "schema_version", BENCH_SCHEMA_VERSION);
  bench_jw_str(&w, "file", r->file);
  bench_jw_str(&w, "date", r->date);
  bench_jw_obj(&w, "kern");
  bench_jw_str(&w, "version", r->kern);
  bench_jw_str(&w, "commit", r->commit);
  bench_jw_str(&w, "compiler", r->compiler);
  bench_jw_str(&w, "cpu_backend_cc", r->cc);
  bench_jw_end_obj(&w);
  bench_jw_obj(&w, "host");
  bench_jw_str(&w, "name", r->host);
  bench_jw_str(&w, "cpu", r->cpu);
  bench_jw_str(&w, "os", r->os);
  bench_jw_end_obj(&w);
  bench_jw_arr(&w, "rows");
  for (int i = 0; i < r->nrows; i++) {
    const bench_row *row = &r->rows[i];
    bench_jw_obj(&w, NULL);
    bench_jw_str(&w, "bench", row->bench);
    bench_jw_str(&w, "size", row->size);
    bench_jw_int(&w, "point", row->point);
    bench_jw_str(&w, "kind", row->kind);
    bench_jw_str(&w, "name", row->name);
    bench_jw_str(&w, "device", row->device);
    bench_jw_str(&w, "description", row->description);
    bench_jw_str(&w, "status", row->status);
    bench_jw_str(&w, "message", row->message);
    bench_jw_str(&w, "timer", row->timer);
    bench_jw_bool(&w, "checked", row->checked);
    bench_jw_num(&w, "max_rel_err", row->max_rel_err);
    bench_jw_num(&w, "bytes", row->bytes);
    bench_jw_num(&w, "flops", row->flops);
    bench_jw_num(&w, "peak_gbps", row->peak_gbps);
    bench_jw_num(&w, "vs_kern", bench_row_vs_kern(r, row));
    for (int m = 0; m < BENCH_MODES; m++)
      json_mode(&w, bench_mode_names[m], row, &row->mode[m]);
    bench_jw_end_obj(&w);
  }
  bench_jw_end_arr(&w);
  bench_jw_end_obj(&w);
  return ferror(f) ? -1 : 0;
}

/* ---------------------------------------------------------------- csv */

/* A field a spreadsheet would read as a formula (=, +, -, @, a tab or a
 * carriage return first: a path or a message can start so) gets a leading
 * quote, which spreadsheets show as text. */
static void csv_field(FILE *f, const char *s) {
  int formula = s[0] && strchr("=+-@\t\r", s[0]);
  if (!strpbrk(s, ",\"\n\r") && !formula) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  if (formula) fputc('\'', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void csv_num(FILE *f, double v) {
  if (isfinite(v)) fprintf(f, ",%.9g", v);
  else fputs(",", f);
}

int bench_write_csv(FILE *f, const bench_result *r) {
  fputs("bench,size,kind,name,device,status,message,mode,median_s,min_s,"
        "max_s,rsd,samples,stopped_by,gbps,gflops,percent_of_peak,vs_kern\n",
        f);
  for (int i = 0; i < r->nrows; i++) {
    const bench_row *row = &r->rows[i];
    int any = 0;
    for (int m = 0; m < BENCH_MODES || !any; m++) {
      const bench_mode *md = m < BENCH_MODES ? &row->mode[m] : NULL;
      if (md && !md->present) continue;
      any = 1;
      const char *fields[] = {row->bench, row->size, row->kind, row->name,
                              row->device, row->status, row->message,
                              md ? bench_mode_names[m] : ""};
      for (int k = 0; k < 8; k++) {
        if (k) fputc(',', f);
        csv_field(f, fields[k]);
      }
      if (md) {
        csv_num(f, md->st.median);
        csv_num(f, md->st.min);
        csv_num(f, md->st.max);
        csv_num(f, md->st.rsd);
        fprintf(f, ",%d,%s", md->st.n, md->stop ? md->stop : "");
        csv_num(f, gbps(row, md));
        csv_num(f, gflops(row, md));
        csv_num(f, pct_peak(row, md));
        csv_num(f, m == BENCH_HOT ? bench_row_vs_kern(r, row) : NAN);
        fputc('\n', f);
      } else {
        fputs(",,,,,,,,,,\n", f);
        break;
      }
    }
  }
  return ferror(f) ? -1 : 0;
}

/* ---------------------------------------------------------------- markdown */

/* A cell is one line of text: '|' would end it, a newline the row, and
 * '<' start HTML. */
static void md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputs("\\|", f);
    else if (*s == '<') fputs("&lt;", f);
    else if (*s == '\n' || *s == '\r') fputc(' ', f);
    else fputc(*s, f);
  }
}

int bench_write_markdown(FILE *f, const bench_result *r) {
  const char *last_bench = "";
  int last_point = -1;
  for (int i = 0; i < r->nrows; i++) {
    const bench_row *row = &r->rows[i];
    if (strcmp(row->bench, last_bench) || row->point != last_point) {
      fprintf(f, "%s### %s %s\n\n", i ? "\n" : "", row->bench, row->size);
      fputs("| backend / reference | device | mode | median | min | max | "
            "rsd | n | GB/s | % peak | vs kern |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n", f);
      last_bench = row->bench;
      last_point = row->point;
    }
    if (strcmp(row->status, "ok") != 0) {
      char st[700];
      status_text(row, st, sizeof st);
      fputs("| ", f);
      md_text(f, row->name);
      fputs(" | ", f);
      md_text(f, row->device);
      fputs(" | ", f);
      md_text(f, st);
      fputs(" | | | | | | | | |\n", f);
      continue;
    }
    for (int m = 0; m < BENCH_MODES; m++) {
      const bench_mode *md = &row->mode[m];
      if (!md->present) continue;
      char med[24], mn[24], mx[24];
      fmt_time(md->st.median, med, sizeof med);
      fmt_time(md->st.min, mn, sizeof mn);
      fmt_time(md->st.max, mx, sizeof mx);
      fputs("| ", f);
      md_text(f, row->name);
      fputs(" | ", f);
      md_text(f, row->device);
      fprintf(f, " | %s | %s | %s | %s | %.1f%% | %d | ", bench_mode_names[m],
              med, mn, mx, 100 * md->st.rsd, md->st.n);
      double g = gbps(row, md), p = pct_peak(row, md);
      double v = m == BENCH_HOT ? bench_row_vs_kern(r, row) : NAN;
      if (isfinite(g)) fprintf(f, "%.1f", g);
      fputs(" | ", f);
      if (isfinite(p)) {
        char pk[16];
        bench_peak_text(p, row->bytes, row->cache_bytes, pk, sizeof pk);
        fputs(pk, f);
      }
      fputs(" | ", f);
      if (isfinite(v)) fprintf(f, "%.2fx", v);
      fputs(" |\n", f);
    }
  }
  return ferror(f) ? -1 : 0;
}

/* ---------------------------------------------------------------- compare */

static char *read_text(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
    free(b);
    b = NULL;
  }
  if (b) b[n] = '\0';
  fclose(fp);
  return b;
}

static int load_result(const char *path, bench_json *j, char *err,
                       size_t errsize) {
  char *text = read_text(path);
  if (!text) {
    snprintf(err, errsize, "cannot read '%s'", path);
    return -1;
  }
  char why[256];
  int rc = bench_json_parse(text, j, why, sizeof why);
  free(text);
  if (rc) {
    snprintf(err, errsize, "%s: %s", path, why);
    return -1;
  }
  const bench_json *sc = bench_json_get(j, "schema");
  const bench_json *v = bench_json_get(j, "schema_version");
  const bench_json *rows = bench_json_get(j, "rows");
  if (!sc || sc->type != BJ_STR || strcmp(sc->str, "kern-bench") ||
      !v || v->type != BJ_NUM || !rows || rows->type != BJ_ARR) {
    snprintf(err, errsize, "%s: not a 'kern bench --json' file", path);
    bench_json_free(j);
    return -1;
  }
  if (v->num > BENCH_SCHEMA_VERSION) {
    snprintf(err, errsize, "%s: schema version %g is newer than this kern "
             "reads (%d)", path, v->num, BENCH_SCHEMA_VERSION);
    bench_json_free(j);
    return -1;
  }
  return 0;
}

static const char *jstr(const bench_json *o, const char *k) {
  const bench_json *v = bench_json_get(o, k);
  return v && v->type == BJ_STR ? v->str : "";
}

static double jnum(const bench_json *o, const char *k) {
  const bench_json *v = bench_json_get(o, k);
  return v && v->type == BJ_NUM ? v->num : NAN;
}

/* Note [noise]: two medians differ beyond the noise when their ratio is
 * further from 1 than twice the combined relative spread of the two
 * samples, sqrt(rsd_old^2 + rsd_new^2), and by at least 1%: below that the
 * clock and the machine's state move the figures anyway. */
int bench_compare(FILE *f, const char *old_path, const char *new_path,
                  char *err, size_t errsize) {
  bench_json a, b;
  if (load_result(old_path, &a, err, errsize)) return -1;
  if (load_result(new_path, &b, err, errsize)) {
    bench_json_free(&a);
    return -1;
  }
  const bench_json *ra = bench_json_get(&a, "rows"), *rb = bench_json_get(&b, "rows");
  int slower = 0;
  fprintf(f, "%-40s %-10s %12s %12s %8s  %s\n", "row", "mode", "old", "new",
          "change", "verdict");
  for (int i = 0; i < rb->n; i++) {
    const bench_json *nr = &rb->items[i];
    const bench_json *orow = NULL;
    for (int k = 0; k < ra->n && !orow; k++) {
      const bench_json *c = &ra->items[k];
      if (!strcmp(jstr(c, "bench"), jstr(nr, "bench")) &&
          !strcmp(jstr(c, "size"), jstr(nr, "size")) &&
          !strcmp(jstr(c, "name"), jstr(nr, "name")))
        orow = c;
    }
    char label[200];
    snprintf(label, sizeof label, "%s %s %s", jstr(nr, "bench"),
             jstr(nr, "size"), jstr(nr, "name"));
    if (strlen(label) > 40) strcpy(label + 37, "...");
    if (!orow) {
      fprintf(f, "%-40s %-10s %12s %12s %8s  %s\n", label, "", "", "", "",
              "new row");
      continue;
    }
    for (int m = 0; m < BENCH_MODES; m++) {
      const bench_json *mo = bench_json_get(orow, bench_mode_names[m]);
      const bench_json *mn = bench_json_get(nr, bench_mode_names[m]);
      if (!mo || !mn || mo->type != BJ_OBJ || mn->type != BJ_OBJ) {
        if (m == BENCH_HOT && strcmp(jstr(orow, "status"), jstr(nr, "status")))
          fprintf(f, "%-40s %-10s %12s %12s %8s  %s -> %s\n", label, "hot",
                  "", "", "", jstr(orow, "status"), jstr(nr, "status"));
        continue;
      }
      double to = jnum(mo, "median_s"), tn = jnum(mn, "median_s");
      double so = jnum(mo, "rsd"), sn = jnum(mn, "rsd");
      double change = tn / to - 1;
      double noise = 2 * sqrt(so * so + sn * sn);
      if (noise < 0.01) noise = 0.01;
      const char *verdict = "within noise";
      if (fabs(change) > noise) {
        verdict = change > 0 ? "SLOWER" : "faster";
        slower |= change > 0;
      }
      char os[24], ns[24];
      fmt_time(to, os, sizeof os);
      fmt_time(tn, ns, sizeof ns);
      fprintf(f, "%-40s %-10s %12s %12s %+7.1f%%  %s (noise %.1f%%)\n", label,
              bench_mode_names[m], os, ns, 100 * change, verdict,
              100 * noise);
    }
  }
  bench_json_free(&a);
  bench_json_free(&b);
  return slower;
}

/* ---------------------------------------------------------------- plot */

static int on_path(const char *prog) {
  const char *path = getenv("PATH");
  if (!path) return 0;
  char buf[1024];
  for (const char *p = path; *p;) {
    const char *e = strchr(p, ':');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    snprintf(buf, sizeof buf, "%.*s/%s", (int)l, p, prog);
    if (l && access(buf, X_OK) == 0) return 1;
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

static void svg_text(FILE *f, const char *s) {
  for (; *s; s++) {
    /* XML has no control characters but tab and newline. */
    if ((unsigned char)*s < 0x20) fputc('?', f);
    else if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '&') fputs("&amp;", f);
    else if (*s == '"') fputs("&quot;", f);
    else fputc(*s, f);
  }
}

/* Note [plot]: one panel per benchmark and size: a bar per row at its hot
 * median on a logarithmic time axis, whiskers from min to max, and on the
 * right the achieved bandwidth with the device's measured peak as a tick.
 * A log axis because references and backends differ by orders of
 * magnitude (a CPU row next to a GPU row). */
static int write_svg(FILE *f, const bench_result *r) {
  int nok = 0, ngroups = 0;
  const char *lb = "";
  int lp = -1;
  double tmin = INFINITY, tmax = 0;
  for (int i = 0; i < r->nrows; i++) {
    const bench_row *row = &r->rows[i];
    if (strcmp(row->bench, lb) || row->point != lp) {
      ngroups++;
      lb = row->bench;
      lp = row->point;
    }
    if (!ok(row)) continue;
    nok++;
    const bench_stats *st = &row->mode[BENCH_HOT].st;
    if (st->min > 0 && st->min < tmin) tmin = st->min;
    if (st->max > tmax) tmax = st->max;
  }
  if (!nok) tmin = 1e-6, tmax = 1e-3;
  double lo = floor(log10(tmin)), hi = ceil(log10(tmax));
  if (hi <= lo) hi = lo + 1;
  int rowh = 22, left = 330, plotw = 420, bwx = left + plotw + 40, bww = 200;
  int height = 60 + (r->nrows + 2 * ngroups) * rowh + 40;
  int width = bwx + bww + 40;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
          "height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          width, height);
  fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">kern bench ");
  svg_text(f, r->file);
  fprintf(f, " (%s, %s)</text>\n", r->date, r->host);
  fprintf(f, "<text x=\"%d\" y=\"40\">time per launch, hot median, "
          "whiskers min-max (log scale)</text>\n", left);
  fprintf(f, "<text x=\"%d\" y=\"40\">GB/s (tick: device peak)</text>\n", bwx);
  double gmax = 0;
  for (int i = 0; i < r->nrows; i++) {
    const bench_row *row = &r->rows[i];
    if (!ok(row)) continue;
    double g = gbps(row, &row->mode[BENCH_HOT]);
    if (isfinite(g) && g > gmax) gmax = g;
    if (isfinite(row->peak_gbps) && row->peak_gbps > gmax) gmax = row->peak_gbps;
  }
  if (gmax <= 0) gmax = 1;
  int y = 60;
  lb = "";
  lp = -1;
  for (int i = 0; i < r->nrows; i++) {
    const bench_row *row = &r->rows[i];
    if (strcmp(row->bench, lb) || row->point != lp) {
      y += rowh;
      fprintf(f, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">", y);
      svg_text(f, row->bench);
      fputc(' ', f);
      svg_text(f, row->size);
      fputs("</text>\n", f);
      y += rowh / 2;
      lb = row->bench;
      lp = row->point;
    }
    y += rowh;
    char label[60];
    snprintf(label, sizeof label, "%.56s", row->name);
    fprintf(f, "<text x=\"10\" y=\"%d\">", y - 6);
    svg_text(f, label);
    fputs("</text>\n", f);
    if (!ok(row)) {
      fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"gray\">", left, y - 6);
      char st[120];
      snprintf(st, sizeof st, "%s: %.90s", row->status, row->message);
      svg_text(f, st);
      fputs("</text>\n", f);
      continue;
    }
    const bench_stats *st = &row->mode[BENCH_HOT].st;
#define XT(t) (left + (int)(plotw * (log10(t) - lo) / (hi - lo)))
    const char *color = strcmp(row->kind, "backend") == 0 ? "#3b7dd8" : "#e08a2c";
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
            "fill=\"%s\"/>\n", left, y - rowh + 4, XT(st->median) - left,
            rowh - 8, color);
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" "
            "stroke=\"black\"/>\n", XT(st->min), XT(st->max), y - rowh / 2,
            y - rowh / 2);
    char t[24];
    fmt_time(st->median, t, sizeof t);
    fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>\n", XT(st->max) + 4, y - 6, t);
    double g = gbps(row, &row->mode[BENCH_HOT]);
    if (isfinite(g)) {
      fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
              "fill=\"%s\"/>\n", bwx, y - rowh + 4, (int)(bww * g / gmax),
              rowh - 8, color);
      fprintf(f, "<text x=\"%d\" y=\"%d\">%.0f</text>\n",
              bwx + (int)(bww * g / gmax) + 4, y - 6, g);
    }
    if (isfinite(row->peak_gbps)) {
      int px = bwx + (int)(bww * row->peak_gbps / gmax);
      fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" "
              "stroke=\"red\" stroke-width=\"2\"/>\n", px, px, y - rowh + 2,
              y - 2);
    }
  }
  /* The time axis: one tick per decade. */
  y += rowh;
  fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
          left, left + plotw, y, y);
  for (double d = lo; d <= hi; d++) {
    char t[24];
    fmt_time(pow(10, d), t, sizeof t);
    int x = left + (int)(plotw * (d - lo) / (hi - lo));
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>"
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
            x, x, y, y + 4, x, y + 16, t);
  }
#undef XT
  fputs("</svg>\n", f);
  return ferror(f) ? -1 : 0;
}

/* Note [gnuplot text]: gnuplot runs backquoted text as a shell command
 * and expands @macros on every command line, double-quoted strings
 * included, so no text a user or a kernel file chose may reach its script
 * as written.  kern writes the script, the data and gnuplot's output into
 * a private folder (mkdtemp: letters and digits) and moves the plot to the
 * user's path itself, so the script names no user path; the one piece of
 * user text it shows, the kernel file's name in the title, passes
 * plot_safe() (letters, digits and ._/+-, anything else '?') inside a
 * single-quoted string.  Row labels go to the data file, which gnuplot
 * reads as data, never as commands; they pass the same filter, which also
 * keeps a quote or a newline from breaking a record. */
void bench_plot_safe(const char *in, char *out, size_t size) {
  size_t n = 0;
  for (; *in && n + 1 < size; in++) {
    unsigned char c = (unsigned char)*in;
    int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (c >= '0' && c <= '9') || strchr("._/+-,:=()*[] ", c);
    out[n++] = keep && c ? (char)c : '?';
  }
  if (size) out[n] = '\0';
}

/* Copies a file (rename() cannot cross file systems). */
static int copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  if (!in) return -1;
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp", to);
  FILE *out = fopen(tmp, "wb");
  if (!out) {
    fclose(in);
    return -1;
  }
  char buf[65536];
  size_t n;
  int bad = 0;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    bad |= fwrite(buf, 1, n, out) != n;
  bad |= ferror(in);
  fclose(in);
  if (fclose(out) || bad || rename(tmp, to)) {
    remove(tmp);
    return -1;
  }
  return 0;
}

/* gnuplot draws the same bars from a data file; kern writes the script and
 * runs gnuplot without a shell (Note [gnuplot text]). */
static int write_gnuplot(const char *path, const bench_result *r, int png,
                         char *err, size_t errsize) {
  char dir[] = "/tmp/kern-plot-XXXXXX";
  if (!mkdtemp(dir)) {
    snprintf(err, errsize, "cannot make a folder in /tmp for gnuplot");
    return -1;
  }
  char dat[64], gp[64], log[64], out[64];
  snprintf(dat, sizeof dat, "%s/data.dat", dir);
  snprintf(gp, sizeof gp, "%s/plot.gp", dir);
  snprintf(log, sizeof log, "%s/gnuplot.log", dir);
  snprintf(out, sizeof out, "%s/plot.%s", dir, png ? "png" : "svg");
  int rc = -1;
  FILE *d = fopen(dat, "w"), *g = NULL;
  if (!d) {
    snprintf(err, errsize, "cannot write '%s'", dat);
    goto done;
  }
  int n = 0;
  /* Bars start at the decade below the fastest minimum: a log axis has no
   * zero. */
  double lo = INFINITY;
  for (int i = 0; i < r->nrows; i++)
    if (ok(&r->rows[i]) && r->rows[i].mode[BENCH_HOT].st.min > 0 &&
        r->rows[i].mode[BENCH_HOT].st.min * 1e3 < lo)
      lo = r->rows[i].mode[BENCH_HOT].st.min * 1e3;
  lo = isfinite(lo) ? pow(10, floor(log10(lo))) : 1e-3;
  for (int i = 0; i < r->nrows; i++) {
    const bench_row *row = &r->rows[i];
    if (!ok(row)) continue;
    const bench_stats *st = &row->mode[BENCH_HOT].st;
    char label[200], safe[200];
    snprintf(label, sizeof label, "%.40s %.40s %.100s", row->bench, row->size,
             row->name);
    bench_plot_safe(label, safe, sizeof safe);
    double gb = gbps(row, &row->mode[BENCH_HOT]);
    fprintf(d, "%d \"%s\" %.9g %.9g %.9g %.9g %.9g\n", n++, safe,
            st->median * 1e3, st->min * 1e3, st->max * 1e3,
            isfinite(gb) ? gb : 0.0,
            isfinite(row->peak_gbps) ? row->peak_gbps : 0.0);
  }
  if (fclose(d)) {
    snprintf(err, errsize, "cannot write '%s'", dat);
    goto done;
  }
  g = fopen(gp, "w");
  if (!g) {
    snprintf(err, errsize, "cannot write '%s'", gp);
    goto done;
  }
  char title[300], date[64];
  bench_plot_safe(r->file, title, sizeof title);
  bench_plot_safe(r->date, date, sizeof date);
  fprintf(g, "set terminal %s size 1400,%d\n", png ? "png" : "svg",
          140 + 28 * (n ? n : 1));
  fprintf(g, "set output '%s'\n", out);
  fprintf(g, "set multiplot layout 1,2 title 'kern bench %s (%s)' "
          "noenhanced\n", title, date);
  fputs("set ytics noenhanced\nset style fill solid 0.6\nunset key\n"
        "set yrange [-1:*]\n", g);
  /* Left: time per launch on a log axis with min-max whiskers. */
  fprintf(g, "set logscale x\nset xlabel 'ms per launch (hot median, "
          "min-max)'\nset xrange [%g:*]\n", lo);
  fprintf(g, "plot '%s' using 3:1:(%g):3:($1-0.35):($1+0.35):ytic(2) "
          "with boxxyerror, '%s' using 3:1:4:5 with xerrorbars\n", dat, lo,
          dat);
  /* Right: achieved bandwidth, the device peak as a mark. */
  fputs("unset logscale x\nset xrange [0:*]\nset format y ''\n"
        "set xlabel 'GB/s (x: measured device peak)'\n", g);
  fprintf(g, "plot '%s' using 6:1:(0):6:($1-0.35):($1+0.35) with "
          "boxxyerror, '%s' using ($7 > 0 ? $7 : NaN):1 with points pt 2 "
          "ps 2\n", dat, dat);
  fputs("unset multiplot\n", g);
  if (fclose(g)) {
    snprintf(err, errsize, "cannot write '%s'", gp);
    goto done;
  }
  char *argv[] = {"gnuplot", gp, NULL};
  int st = bench_spawn(argv, log, log);
  if (st != 0) {
    /* gnuplot's last line says what went wrong. */
    char line[300] = "", buf[300];
    FILE *l = fopen(log, "r");
    while (l && fgets(buf, sizeof buf, l)) {
      buf[strcspn(buf, "\n")] = '\0';
      if (buf[0]) memcpy(line, buf, sizeof line);
    }
    if (l) fclose(l);
    snprintf(err, errsize, "gnuplot failed (exit %d)%s%s", st,
             line[0] ? ": " : "", line);
    goto done;
  }
  if (rename(out, path) && copy_file(out, path)) {
    snprintf(err, errsize, "cannot write '%s'", path);
    goto done;
  }
  rc = 0;
done:
  remove(dat);
  remove(gp);
  remove(log);
  remove(out);
  rmdir(dir);
  return rc;
}

int bench_write_plot(const char *path, const bench_result *r, char *err,
                     size_t errsize) {
  size_t n = strlen(path);
  int png = n > 4 && strcmp(path + n - 4, ".png") == 0;
  int svg = n > 4 && strcmp(path + n - 4, ".svg") == 0;
  if (!png && !svg) {
    snprintf(err, errsize, "--plot '%s': the name must end in .svg or .png",
             path);
    return -1;
  }
  if (on_path("gnuplot") && !getenv("KERN_BENCH_NO_GNUPLOT"))
    return write_gnuplot(path, r, png, err, errsize);
  if (png) {
    snprintf(err, errsize, "--plot '%s': PNG needs gnuplot, which is not "
             "installed; ask for an .svg instead", path);
    return -1;
  }
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    snprintf(err, errsize, "cannot write '%s'", tmp);
    return -1;
  }
  int rc = write_svg(f, r);
  if (fclose(f) || rc || rename(tmp, path)) {
    remove(tmp);
    snprintf(err, errsize, "cannot write '%s'", path);
    return -1;
  }
  return 0;
}
