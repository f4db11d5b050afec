/*
 * lex.c -- Python tokens with INDENT/DEDENT.
 *
 * The whole file is tokenized up front (chibicc's tokenize): the parser
 * must be able to skip any top-level Python statement, so the lexer accepts
 * all of Python's lexical syntax -- every string form, numbers with
 * underscores, line continuations, brackets spanning lines -- even where the
 * parser will reject what the tokens spell.
 *
 * Indentation follows the language reference: a stack of column widths,
 * tabs advance to the next multiple of 8, blank and comment-only lines and
 * lines inside brackets do not count.  The file must be UTF-8; bytes that
 * are not are reported with their position.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "lang.h"

#define MAX_INDENT 1000

typedef struct Lexer {
  Compiler *C;
  const char *p, *end, *line_start;
  int line;
  Token *toks;
  int ntok, cap;
  int indent[MAX_INDENT];
  int nindent;
  int depth; /* bracket nesting */
  Pos brackets[200];
} Lexer;

static Pos pos_at(Lexer *L, const char *p) {
  Pos pos;
  pos.line = L->line;
  pos.col = (int)(p - L->line_start) + 1;
  pos.offset = (int)(p - L->C->src);
  return pos;
}

static Token *push(Lexer *L, TokKind kind, const char *start, int len) {
  if (L->ntok == L->cap) {
    /* On the heap, owned by the arena (Arena.tokens), so that growing
     * leaves no old copies behind and the parser can free the array. */
    int cap = L->cap ? L->cap + L->cap / 2 : 1024;
    Token *t = kern__realloc(L->C->arena.tokens, sizeof(Token) * (size_t)cap);
    if (!t)
      diag_oom(L->C);
    L->C->arena.tokens = t;
    L->toks = t;
    L->cap = cap;
  }
  Token *t = &L->toks[L->ntok++];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->pos = pos_at(L, start);
  t->text = start;
  t->len = len;
  return t;
}

/* Length of the UTF-8 sequence at p, or 0 when it is malformed. */
static int utf8_len(const char *p, const char *end) {
  const unsigned char *s = (const unsigned char *)p;
  int n;
  uint32_t cp;
  if (s[0] < 0x80)
    return 1;
  if ((s[0] & 0xE0) == 0xC0)
    n = 2, cp = s[0] & 0x1F;
  else if ((s[0] & 0xF0) == 0xE0)
    n = 3, cp = s[0] & 0x0F;
  else if ((s[0] & 0xF8) == 0xF0)
    n = 4, cp = s[0] & 0x07;
  else
    return 0;
  if (end - p < n)
    return 0;
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3F);
  }
  /* Overlong forms, surrogates and values past U+10FFFF are malformed. */
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
      (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

/* Checks the whole file once so later stages may assume valid UTF-8 and no
 * NUL bytes. */
static void check_encoding(Lexer *L) {
  const char *p = L->C->src, *end = L->end, *ls = p;
  int line = 1;
  while (p < end) {
    if (*p == '\n') {
      line++;
      ls = ++p;
      continue;
    }
    if ((unsigned char)*p - 1u < 0x7fu) { /* ASCII other than NUL */
      p++;
      continue;
    }
    if (*p == 0) {
      Pos pos = {line, (int)(p - ls) + 1, (int)(p - L->C->src)};
      diag_error(L->C, pos, "source contains a NUL byte");
    }
    int n = utf8_len(p, end);
    if (n == 0) {
      Pos pos = {line, (int)(p - ls) + 1, (int)(p - L->C->src)};
      diag_error(L->C, pos, "invalid UTF-8 byte 0x%02x in source",
                 (unsigned char)*p);
    }
    p += n;
  }
}

/* ASCII letters, digits and '_' without <ctype.h>: isalnum is a call
 * through the locale's table for every character of every name. */
static bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* Operators, longest first:
 *   three characters  **=  //=  >>=  <<=  ...
 *   two characters    **  //  <<  >>  <=  >=  ==  !=  ->  +=  -=  *=  /=
 *                     %=  &=  |=  ^=  @=  :=
 *   one character     + - * / % @ & | ^ ~ < > ( ) [ ] { } , : . ; = !  */

static int match_op(const char *p, const char *end) {
  /* By the first character, the table above spelled out: this runs for
   * every operator of every file, and walking the tables was a third of
   * the lexer's time on generated kernels (kern synth). */
  char c = p[0], d = end - p >= 2 ? p[1] : 0, e = end - p >= 3 ? p[2] : 0;
  switch (c) {
  case '*': case '/': case '<': case '>':
    if (d == c)
      return e == '=' ? 3 : 2; /* ** // << >> and **= //= <<= >>= */
    return d == '=' ? 2 : 1;   /* *= /= <= >= */
  case '.':
    return d == '.' && e == '.' ? 3 : 1;
  case '-':
    return d == '>' || d == '=' ? 2 : 1;
  case '=': case '!': case '+': case '%': case '&': case '|': case '^':
  case '@': case ':':
    return d == '=' ? 2 : 1;
  case '~': case '(': case ')': case '[': case ']': case '{': case '}':
  case ',': case ';':
    return 1;
  }
  return 0;
}

/* Decodes a string literal's body; escapes that matter for printf formats
 * are handled, the rest are kept as written.  Raw strings are kept. */
static void lex_string(Lexer *L, const char *start) {
  const char *p = start;
  bool raw = false, bytes = false;
  while (p < L->end && strchr("rRbBuUfF", *p)) {
    if (*p == 'r' || *p == 'R')
      raw = true;
    if (*p == 'b' || *p == 'B')
      bytes = true;
    p++;
  }
  (void)bytes;
  char q = *p;
  bool triple = L->end - p >= 3 && p[1] == q && p[2] == q;
  p += triple ? 3 : 1;
  Pos spos = pos_at(L, start);
  const char *body = p;
  int startline = L->line;
  const char *start_ls = L->line_start;
  for (;;) {
    if (p >= L->end) {
      L->line = startline;
      L->line_start = start_ls;
      diag_error(L->C, spos, "unterminated string literal");
    }
    if (*p == '\\' && p + 1 < L->end) {
      if (p[1] == '\n') {
        L->line++;
        L->line_start = p + 2;
      }
      p += 2;
      continue;
    }
    if (*p == '\n') {
      if (!triple) {
        L->line = startline;
        L->line_start = start_ls;
        diag_error(L->C, spos, "unterminated string literal");
      }
      L->line++;
      L->line_start = p + 1;
      p++;
      continue;
    }
    if (*p == q && (!triple || (L->end - p >= 3 && p[1] == q && p[2] == q)))
      break;
    p++;
  }
  const char *bend = p;
  p += triple ? 3 : 1;

  /* Decode into the arena. */
  char *s = arena_alloc(L->C, (size_t)(bend - body) + 1);
  int n = 0;
  for (const char *c = body; c < bend; c++) {
    if (*c == '\\' && !raw && c + 1 < bend) {
      c++;
      switch (*c) {
      case 'n': s[n++] = '\n'; break;
      case 't': s[n++] = '\t'; break;
      case 'r': s[n++] = '\r'; break;
      case '0': s[n++] = '\0'; break;
      case '\\': s[n++] = '\\'; break;
      case '\'': s[n++] = '\''; break;
      case '"': s[n++] = '"'; break;
      case '\n': break;
      default: s[n++] = '\\'; s[n++] = *c; break;
      }
      continue;
    }
    s[n++] = *c;
  }
  s[n] = 0;

  Token *t = push(L, T_STRING, start, (int)(p - start));
  t->pos = spos;
  t->str = s;
  t->slen = n;
  L->p = p;
}

static void lex_number(Lexer *L) {
  const char *start = L->p, *p = L->p;
  char digits[512];
  int nd = 0;
  bool is_float = false;
  int base = 10;
  Pos pos = pos_at(L, start);

  if (*p == '0' && p + 1 < L->end && strchr("xXoObB", p[1])) {
    base = (p[1] == 'x' || p[1] == 'X') ? 16 : (p[1] == 'o' || p[1] == 'O') ? 8 : 2;
    p += 2;
    while (p < L->end && (isalnum((unsigned char)*p) || *p == '_')) {
      if (*p != '_' && nd < (int)sizeof digits - 1)
        digits[nd++] = *p;
      p++;
    }
  } else {
    while (p < L->end) {
      char c = *p;
      if (isdigit((unsigned char)c) || c == '_') {
      } else if (c == '.') {
        is_float = true;
      } else if ((c == 'e' || c == 'E') && p + 1 < L->end &&
                 (isdigit((unsigned char)p[1]) ||
                  ((p[1] == '+' || p[1] == '-') && p + 2 < L->end &&
                   isdigit((unsigned char)p[2])))) {
        is_float = true;
        if (nd < (int)sizeof digits - 2)
          digits[nd++] = c;
        p++;
        c = *p;
      } else {
        break;
      }
      if (c != '_' && nd < (int)sizeof digits - 1)
        digits[nd++] = c;
      p++;
    }
  }
  digits[nd] = 0;
  if (p < L->end && (*p == 'j' || *p == 'J'))
    diag_error(L->C, pos, "complex numbers are not supported");
  if (p < L->end && (isalpha((unsigned char)*p) || *p == '_'))
    diag_error(L->C, pos_at(L, p), "invalid character '%c' in number", *p);
  if (nd == 0 || nd >= (int)sizeof digits - 2)
    diag_error(L->C, pos, "invalid number literal");

  Token *t = push(L, is_float ? T_FLOAT : T_INT, start, (int)(p - start));
  if (is_float) {
    t->fval = strtod(digits, NULL);
  } else {
    errno = 0;
    char *e;
    unsigned long long v = strtoull(digits, &e, base);
    if (*e)
      diag_error(L->C, pos, "invalid digit '%c' in number literal", *e);
    if (errno == ERANGE)
      diag_error(L->C, pos, "integer literal is too large");
    if (base == 10 && nd > 1 && digits[0] == '0') {
      for (int i = 0; i < nd; i++)
        if (digits[i] != '0')
          diag_error(L->C, pos, "leading zeros in a decimal integer literal "
                                "are not permitted");
    }
    t->ival = v;
  }
  L->p = p;
}

/* Handles the start of a logical line: measures indentation and emits
 * INDENT/DEDENT.  Returns false when the line is blank or a comment. */
static bool lex_indent(Lexer *L) {
  const char *p = L->p;
  int col = 0;
  while (p < L->end && (*p == ' ' || *p == '\t' || *p == '\f')) {
    if (*p == '\t')
      col = (col / 8 + 1) * 8;
    else if (*p == ' ')
      col++;
    else
      col = 0;
    p++;
  }
  if (p >= L->end || *p == '\n' || *p == '#' || *p == '\r' ||
      (*p == '\\' && p + 1 < L->end && p[1] == '\n')) {
    L->p = p;
    return false;
  }
  L->p = p;
  int top = L->indent[L->nindent - 1];
  if (col > top) {
    if (L->nindent == MAX_INDENT)
      diag_error(L->C, pos_at(L, p), "too many levels of indentation");
    L->indent[L->nindent++] = col;
    push(L, T_INDENT, p, 0);
  } else if (col < top) {
    while (L->nindent > 1 && col < L->indent[L->nindent - 1]) {
      L->nindent--;
      push(L, T_DEDENT, p, 0);
    }
    if (col != L->indent[L->nindent - 1])
      diag_error(L->C, pos_at(L, p),
                 "unindent does not match any outer indentation level");
  }
  return true;
}

Token *lex_file(Compiler *C, int *ntok) {
  Lexer L;
  memset(&L, 0, sizeof L);
  L.C = C;
  L.p = C->src;
  L.end = C->src + C->len;
  L.line_start = C->src;
  L.line = 1;
  L.indent[0] = 0;
  L.nindent = 1;
  check_encoding(&L);
  /* A UTF-8 byte order mark is allowed at the start, as in Python. */
  if (L.end - L.p >= 3 && !memcmp(L.p, "\xEF\xBB\xBF", 3))
    L.p += 3, L.line_start = L.p;

  bool at_line_start = true;
  while (L.p < L.end) {
    if (at_line_start && L.depth == 0) {
      at_line_start = false;
      if (!lex_indent(&L)) {
        /* blank line: skip to its end */
        while (L.p < L.end && *L.p != '\n') {
          if (*L.p == '\\' && L.p + 1 < L.end && L.p[1] == '\n')
            break;
          L.p++;
        }
        if (L.p < L.end && *L.p == '\\') {
          L.p += 2;
          L.line++;
          L.line_start = L.p;
          continue;
        }
        if (L.p < L.end) {
          L.p++;
          L.line++;
          L.line_start = L.p;
        }
        at_line_start = true;
        continue;
      }
    }
    char c = *L.p;
    if (c == '\n') {
      if (L.depth == 0)
        push(&L, T_NEWLINE, L.p, 1);
      L.p++;
      L.line++;
      L.line_start = L.p;
      at_line_start = L.depth == 0;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
      L.p++;
      continue;
    }
    if (c == '#') {
      while (L.p < L.end && *L.p != '\n')
        L.p++;
      continue;
    }
    if (c == '\\') {
      const char *q = L.p + 1;
      if (q < L.end && *q == '\r')
        q++;
      if (q < L.end && *q == '\n') {
        L.p = q + 1;
        L.line++;
        L.line_start = L.p;
        continue;
      }
      diag_error(C, pos_at(&L, L.p), "unexpected character after line "
                                     "continuation character");
    }
    /* strings, with optional prefixes */
    {
      const char *q = L.p;
      int np = 0;
      while (q < L.end && np < 3 &&
             (*q == 'r' || *q == 'R' || *q == 'b' || *q == 'B' || *q == 'u' ||
              *q == 'U' || *q == 'f' || *q == 'F'))
        q++, np++;
      if (q < L.end && (*q == '\'' || *q == '"')) {
        lex_string(&L, L.p);
        continue;
      }
    }
    if (ident_start(c)) {
      const char *s = L.p;
      while (L.p < L.end && ident_char(*L.p))
        L.p++;
      if (L.p - s > 255)
        diag_error(C, pos_at(&L, s), "identifier is too long (%d characters; "
                   "the limit is 255)", (int)(L.p - s));
      if (L.p < L.end && (unsigned char)*L.p >= 0x80)
        diag_error(C, pos_at(&L, s), "non-ASCII identifiers are not supported");
      push(&L, T_NAME, s, (int)(L.p - s));
      continue;
    }
    if ((unsigned char)c >= 0x80)
      diag_error(C, pos_at(&L, L.p), "non-ASCII character outside a string "
                                     "or comment");
    if (isdigit((unsigned char)c) ||
        (c == '.' && L.p + 1 < L.end && isdigit((unsigned char)L.p[1]))) {
      lex_number(&L);
      continue;
    }
    int n = match_op(L.p, L.end);
    if (n == 0)
      diag_error(C, pos_at(&L, L.p), "unexpected character '%c'", c);
    if (n == 1 && (c == '(' || c == '[' || c == '{')) {
      if (L.depth == (int)(sizeof L.brackets / sizeof L.brackets[0]))
        diag_error(C, pos_at(&L, L.p), "too many nested brackets (the limit "
                                       "is 200)");
      L.brackets[L.depth++] = pos_at(&L, L.p);
    } else if (n == 1 && (c == ')' || c == ']' || c == '}')) {
      if (L.depth == 0)
        diag_error(C, pos_at(&L, L.p), "unmatched '%c'", c);
      L.depth--;
    }
    push(&L, T_OP, L.p, n);
    L.p += n;
  }
  if (L.depth > 0)
    diag_error(C, L.brackets[L.depth - 1], "'%c' was never closed",
               C->src[L.brackets[L.depth - 1].offset]);
  if (L.ntok > 0 && L.toks[L.ntok - 1].kind != T_NEWLINE &&
      L.toks[L.ntok - 1].kind != T_DEDENT)
    push(&L, T_NEWLINE, L.p, 0);
  while (L.nindent > 1) {
    L.nindent--;
    push(&L, T_DEDENT, L.p, 0);
  }
  push(&L, T_EOF, L.p, 0);
  *ntok = L.ntok;
  return L.toks;
}

const char *tok_kind_name(TokKind k) {
  switch (k) {
  case T_EOF: return "end of file";
  case T_NEWLINE: return "end of line";
  case T_INDENT: return "indent";
  case T_DEDENT: return "dedent";
  case T_NAME: return "name";
  case T_INT: return "integer";
  case T_FLOAT: return "number";
  case T_STRING: return "string";
  case T_OP: return "operator";
  }
  return "?";
}
