/*
 * format.c -- the conversions a wp.printf() format may use.
 *
 * The checker (lower/check.c) decides which formats are valid and the
 * emitters (emit/common.c) rewrite each conversion for the target's
 * printf.  When each of them scanned the format on its own they disagreed:
 * the checker skipped flags, digits and length letters in any order, the
 * emitter expected them in C's order, so "%l5d" passed the check and came
 * out as "%ll5" followed by a literal 'd'.  Both now call fmt_parse(), the
 * one description of a conversion, so a format is emitted exactly as it
 * was checked.
 *
 * The grammar is C's, minus what cannot work here: '%' flags* width?
 * ('.' precision?)? length? conversion, with flags from "-+ #0", decimal
 * width and precision (no '*', since every argument must match a
 * conversion), the length modifiers hh h l ll z j t, and the conversions
 * d i u x X o c (integers) and e E f F g G a A (floating point).  The
 * emitter supplies its own length modifier (arguments are widened to 64
 * bits or double), so the user's is checked and then dropped.  Flag and
 * precision combinations that C leaves undefined are refused rather than
 * passed on to a printf that may do anything with them.
 */
#include <stdio.h>
#include <string.h>
#include "base.h"

/* Width and precision above this are refused: C's printf keeps them in an
 * int, and no kernel needs a field of more than a page of output. */
#define FMT_MAX_FIELD 4096

static const char int_convs[] = "diuxXoc";
static const char float_convs[] = "eEfFgGaA";

/* Records why the conversion is invalid; f->end then covers at least the
 * offending character, so a message can quote the conversion up to it. */
static bool fmt_error(FmtSpec *f, int n, int at, const char *msg) {
  f->error = msg;
  f->error_at = at;
  if (f->end < at + 1)
    f->end = at + 1 < n ? at + 1 : n;
  return false;
}

/* Reads a decimal field at s[*k]; false when it exceeds FMT_MAX_FIELD. */
static bool fmt_field(const char *s, int n, int *k) {
  long v = 0;
  while (*k < n && s[*k] >= '0' && s[*k] <= '9') {
    v = v * 10 + (s[*k] - '0');
    if (v > FMT_MAX_FIELD)
      return false;
    (*k)++;
  }
  return true;
}

bool fmt_parse(const char *s, int n, int k, FmtSpec *f) {
  memset(f, 0, sizeof *f);
  f->start = k;
  f->error_at = k;
  int j = k + 1;
  if (j < n && s[j] == '%') {
    f->conv = '%';
    f->end = j + 1;
    return true;
  }
  f->body_start = j;
  while (j < n && strchr("-+ #0", s[j]) && s[j]) {
    if (s[j] == '#')
      f->alt = true;
    if (s[j] == '0')
      f->zero = true;
    j++;
  }
  if (j < n && s[j] == '*')
    return fmt_error(f, n, j, "a '*' width is not supported; write the width "
                           "as a number");
  if (!fmt_field(s, n, &j))
    return fmt_error(f, n, j, "the width is too large (at most 4096)");
  if (j < n && s[j] == '.') {
    f->precision = true;
    j++;
    if (j < n && s[j] == '*')
      return fmt_error(f, n, j, "a '*' precision is not supported; write the "
                             "precision as a number");
    if (!fmt_field(s, n, &j))
      return fmt_error(f, n, j, "the precision is too large (at most 4096)");
  }
  f->body_end = j;
  int ls = j;
  if (j < n && (s[j] == 'h' || s[j] == 'l'))
    j += j + 1 < n && s[j + 1] == s[j] ? 2 : 1;
  else if (j < n && s[j] && strchr("zjt", s[j]))
    j++;
  f->length_len = j - ls;
  if (j >= n) {
    f->end = n;
    return fmt_error(f, n, k, "incomplete conversion at the end of the format");
  }
  f->conv = s[j];
  f->end = j + 1;
  bool isint = s[j] && strchr(int_convs, s[j]);
  f->is_float = s[j] && strchr(float_convs, s[j]);
  if (!isint && !f->is_float) {
    if (f->length_len)
      return fmt_error(f, n, j, "expected a conversion letter (one of "
                             "diuxXoc eEfFgGaA) after the length modifier");
    if (s[j] == 'L' || s[j] == 'q')
      return fmt_error(f, n, j, "unsupported length modifier (use hh, h, l, "
                             "ll, z, j or t)");
    return fmt_error(f, n, j, "unsupported conversion (use one of diuxXoc "
                           "eEfFgGaA)");
  }
  if (f->length_len && (f->conv == 'c' ||
                        (f->is_float && !(f->length_len == 1 && s[ls] == 'l'))))
    return fmt_error(f, n, ls, "this length modifier cannot be used with this "
                            "conversion");
  if (f->alt && strchr("diuc", f->conv))
    return fmt_error(f, n, k, "the '#' flag cannot be used with this conversion");
  if (f->conv == 'c' && (f->zero || f->precision))
    return fmt_error(f, n, k, "'%c' takes neither the '0' flag nor a precision");
  return true;
}

/* Note [format positions]: the format's characters are the string token's
 * decoded body, so an offset into it is not a column.  Walking the raw
 * token the way lex_string decodes it maps one to the other. */
Pos fmt_pos(Compiler *C, Pos tok, int off) {
  const char *p = C->src + tok.offset, *end = C->src + C->len;
  const char *ls = p - (tok.col - 1); /* start of the current line */
  int line = tok.line, dec = 0;
  /* One token per round: the parser joins adjacent string literals
   * ("a" "b") into one format, so the offset may lie in a later one. */
  while (p < end) {
    bool raw = false;
    while (p < end && *p && strchr("rRbBuUfF", *p)) {
      if (*p == 'r' || *p == 'R')
        raw = true;
      p++;
    }
    if (p >= end || (*p != '"' && *p != '\''))
      break;
    char q = *p;
    bool triple = end - p >= 3 && p[1] == q && p[2] == q;
    p += triple ? 3 : 1;
    bool found = false;
    while (p < end) {
      if (*p == q && (!triple || (end - p >= 3 && p[1] == q && p[2] == q)))
        break;
      if (dec >= off) {
        found = true;
        break;
      }
      if (*p == '\\' && !raw && p + 1 < end) {
        /* Known escapes decode to one character, an escaped newline to
         * none, and any other pair is kept as written (lex_string). */
        if (p[1] == '\n') {
          line++;
          ls = p + 2;
        } else {
          dec += strchr("ntr0\\'\"", p[1]) ? 1 : 2;
        }
        p += 2;
      } else {
        if (*p == '\n') {
          line++;
          ls = p + 1;
        }
        dec++;
        p++;
      }
    }
    if (found || p >= end)
      break;
    /* The closing quote, then what may separate two literals: blanks,
     * newlines, escaped newlines and comments. */
    p += triple ? 3 : 1;
    while (p < end) {
      if (*p == '\n' || (*p == '\\' && p + 1 < end && p[1] == '\n')) {
        p += *p == '\n' ? 1 : 2;
        line++;
        ls = p;
      } else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f') {
        p++;
      } else if (*p == '#') {
        while (p < end && *p != '\n')
          p++;
      } else {
        break;
      }
    }
  }
  Pos at = {line, (int)(p - ls) + 1, (int)(p - C->src)};
  return at;
}
