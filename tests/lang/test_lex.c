/*
 * test_lex.c -- the lexer: token kinds and positions, INDENT/DEDENT, line
 * continuations, brackets over several lines, strings, numbers, errors.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "lang.h"
#include "test.h"

/* One compilation: lexes src; returns NULL (with *err set) on an error. */
typedef struct Lexed {
  Compiler *C;
  Token *t;
  int n;
  char *err;
} Lexed;

static Lexed lex(const char *src) {
  Lexed r = {0};
  Compiler *C = kern__calloc(1, sizeof *C);
  C->path = "t.py";
  C->src = src;
  C->len = strlen(src);
  r.C = C;
  if (setjmp(C->jmp) == 0) {
    r.t = lex_file(C, &r.n);
  } else {
    r.t = NULL;
    r.err = C->error;
    C->error = NULL;
  }
  return r;
}

static void done(Lexed *r) {
  arena_free_all(&r->C->arena);
  kern__free(r->C->error);
  kern__free(r->C);
  kern__free(r->err);
}

/* Kinds of all tokens as a string of letters: N name, I int, F float,
 * S string, O op, L newline, > indent, < dedent, E eof. */
static const char *kinds(const Lexed *r) {
  static char buf[1024];
  int k = 0;
  for (int i = 0; i < r->n && k < (int)sizeof buf - 1; i++)
    buf[k++] = "EL><NIFSO"[r->t[i].kind];
  buf[k] = 0;
  return buf;
}

static int tok_is(const Token *t, const char *text) {
  return t->len == (int)strlen(text) && !strncmp(t->text, text, (size_t)t->len);
}

static void test_basic(void) {
  Lexed r = lex("x = a.b + 12 ** 2 // 3 != y\n");
  ASSERT_TRUE(r.t != NULL);
  ASSERT_STR_EQ(kinds(&r), "NONONOIOIOIONLE");
  ASSERT_TRUE(tok_is(&r.t[0], "x"));
  ASSERT_EQ(r.t[0].pos.line, 1);
  ASSERT_EQ(r.t[0].pos.col, 1);
  ASSERT_EQ(r.t[2].pos.col, 5);
  ASSERT_TRUE(tok_is(&r.t[3], "."));
  ASSERT_TRUE(tok_is(&r.t[5], "+"));
  ASSERT_EQ(r.t[6].ival, 12);
  ASSERT_EQ(r.t[6].pos.col, 11);
  ASSERT_TRUE(tok_is(&r.t[7], "**"));
  ASSERT_TRUE(tok_is(&r.t[9], "//"));
  ASSERT_TRUE(tok_is(&r.t[11], "!="));
  ASSERT_EQ(r.t[11].pos.col, 24);
  ASSERT_EQ(r.t[11].pos.offset, 23);
  done(&r);

  /* three-character and assignment operators */
  r = lex("a **= b //= c >>= d <<= e -> f := g @= h\n");
  ASSERT_STR_EQ(kinds(&r), "NONONONONONONONLE");
  ASSERT_TRUE(tok_is(&r.t[1], "**="));
  ASSERT_TRUE(tok_is(&r.t[3], "//="));
  ASSERT_TRUE(tok_is(&r.t[5], ">>="));
  ASSERT_TRUE(tok_is(&r.t[7], "<<="));
  ASSERT_TRUE(tok_is(&r.t[9], "->"));
  ASSERT_TRUE(tok_is(&r.t[11], ":="));
  ASSERT_TRUE(tok_is(&r.t[13], "@="));
  done(&r);

  /* no trailing newline: one is added before EOF */
  r = lex("x");
  ASSERT_STR_EQ(kinds(&r), "NLE");
  done(&r);
  r = lex("");
  ASSERT_STR_EQ(kinds(&r), "E");
  done(&r);
  /* comments and blank lines make no tokens */
  r = lex("# only a comment\n\n   \n# another\n");
  ASSERT_STR_EQ(kinds(&r), "E");
  done(&r);
  /* a UTF-8 BOM is skipped and columns start after it */
  r = lex("\xEF\xBB\xBFx = 1\n");
  ASSERT_STR_EQ(kinds(&r), "NOILE");
  ASSERT_EQ(r.t[0].pos.col, 1);
  done(&r);
  /* CRLF line ends */
  r = lex("x = 1\r\ny = 2\r\n");
  ASSERT_STR_EQ(kinds(&r), "NOILNOILE");
  ASSERT_EQ(r.t[4].pos.line, 2);
  ASSERT_EQ(r.t[4].pos.col, 1);
  done(&r);
  /* non-ASCII inside strings and comments is fine */
  r = lex("s = 'h\xC3\xA9' # caf\xC3\xA9\n");
  ASSERT_STR_EQ(kinds(&r), "NOSLE");
  ASSERT_EQ(r.t[2].slen, 3);
  done(&r);
}

static void test_indent(void) {
  Lexed r = lex("if a:\n    b\n    if c:\n        d\ne\n");
  ASSERT_STR_EQ(kinds(&r), "NNOL>NLNNOL>NL<<NLE");
  ASSERT_EQ(r.t[4].kind, T_INDENT);
  ASSERT_EQ(r.t[4].pos.line, 2);
  ASSERT_EQ(r.t[4].pos.col, 5);
  ASSERT_EQ(r.t[14].kind, T_DEDENT);
  ASSERT_EQ(r.t[14].pos.line, 5);
  done(&r);

  /* DEDENTs at end of file, no final newline */
  r = lex("if a:\n  if b:\n    c");
  ASSERT_STR_EQ(kinds(&r), "NNOL>NNOL>NL<<E");
  done(&r);

  /* blank and comment-only lines do not count, whatever their indent */
  r = lex("if a:\n\n        # deep comment\n  \n    b\n# c\n    d\n");
  ASSERT_STR_EQ(kinds(&r), "NNOL>NLNL<E");
  done(&r);

  /* a tab advances to the next multiple of 8: tab == 8 spaces */
  r = lex("if a:\n\tb\n        c\n");
  ASSERT_STR_EQ(kinds(&r), "NNOL>NLNL<E");
  ASSERT_EQ(r.t[5].pos.col, 2); /* col counts bytes */
  done(&r);

  /* inconsistent dedent */
  r = lex("if a:\n    b\n  c\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:3:3: error: unindent does not match any outer "
                       "indentation level\n  c\n  ^");
  done(&r);
}

static void test_continuation(void) {
  Lexed r = lex("x = 1 + \\\n    2\ny\n");
  ASSERT_STR_EQ(kinds(&r), "NOIOILNLE");
  ASSERT_EQ(r.t[4].pos.line, 2);
  ASSERT_EQ(r.t[4].pos.col, 5);
  ASSERT_EQ(r.t[6].pos.line, 3);
  done(&r);

  /* brackets over several lines: no NEWLINE, INDENT or DEDENT inside */
  r = lex("f(1,\n        2,\n  [3,\n{4: 5}])\nz\n");
  ASSERT_STR_EQ(kinds(&r), "NOIOIOOIOOIOIOOOLNLE");
  ASSERT_EQ(r.t[4].pos.line, 2);
  ASSERT_EQ(r.t[4].pos.col, 9);
  ASSERT_EQ(r.t[17].pos.line, 5);
  done(&r);

  /* continuation inside an indented block keeps the block */
  r = lex("if a:\n    x = \\\n1\n    y\n");
  ASSERT_STR_EQ(kinds(&r), "NNOL>NOILNL<E");
  done(&r);

  r = lex("x = 1 \\ 2\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:1:7: error: unexpected character after line "
                       "continuation character\nx = 1 \\ 2\n      ^");
  done(&r);

  r = lex("x = (1,\n  2\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:1:5: error: '(' was never closed\n"
                       "x = (1,\n    ^");
  done(&r);

  r = lex("x = 1]\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:1:6: error: unmatched ']'\nx = 1]\n     ^");
  done(&r);
}

static void test_strings(void) {
  Lexed r = lex("s = 'a\\tb\\n' + \"q\\\"x\" + 'it''s'\n");
  ASSERT_STR_EQ(kinds(&r), "NOSOSOSSLE");
  ASSERT_STR_EQ(r.t[2].str, "a\tb\n");
  ASSERT_EQ(r.t[2].slen, 4);
  ASSERT_EQ(r.t[2].pos.col, 5);
  ASSERT_STR_EQ(r.t[4].str, "q\"x");
  ASSERT_STR_EQ(r.t[6].str, "it");
  ASSERT_STR_EQ(r.t[7].str, "s");
  done(&r);

  /* triple-quoted strings span lines; the next token's line is right */
  r = lex("d = '''one\ntwo ' '' \"\nthree'''\nx = \"\"\"a\n\"\"\"\ny\n");
  ASSERT_STR_EQ(kinds(&r), "NOSLNOSLNLE");
  ASSERT_STR_EQ(r.t[2].str, "one\ntwo ' '' \"\nthree");
  ASSERT_EQ(r.t[2].pos.line, 1);
  ASSERT_EQ(r.t[4].pos.line, 4);
  ASSERT_STR_EQ(r.t[6].str, "a\n");
  ASSERT_EQ(r.t[8].pos.line, 6);
  done(&r);

  /* triple-quoted string inside an indented block spanning dedented lines */
  r = lex("def f():\n    '''doc\nat column 0\n'''\n    pass\n");
  ASSERT_STR_EQ(kinds(&r), "NNOOOL>SLNL<E");
  done(&r);

  /* raw strings keep backslashes */
  r = lex("a = r'\\n\\d' + R\"\\\\\"\n");
  ASSERT_STR_EQ(kinds(&r), "NOSOSLE");
  ASSERT_STR_EQ(r.t[2].str, "\\n\\d");
  ASSERT_EQ(r.t[2].slen, 4);
  ASSERT_STR_EQ(r.t[4].str, "\\\\");
  done(&r);

  /* prefixes: b, rb, Br, f, rf, u; the token text includes the prefix */
  r = lex("b'x' rb'y' Br\"z\" f'{a}' rf'\\w' u'v' F\"\"\"t\"\"\"\n");
  ASSERT_STR_EQ(kinds(&r), "SSSSSSSLE");
  ASSERT_STR_EQ(r.t[0].str, "x");
  ASSERT_EQ(r.t[0].len, 4);
  ASSERT_STR_EQ(r.t[1].str, "y");
  ASSERT_EQ(r.t[1].len, 5);
  ASSERT_STR_EQ(r.t[2].str, "z");
  ASSERT_STR_EQ(r.t[3].str, "{a}");
  ASSERT_STR_EQ(r.t[4].str, "\\w");
  ASSERT_STR_EQ(r.t[5].str, "v");
  ASSERT_STR_EQ(r.t[6].str, "t");
  ASSERT_EQ(r.t[6].pos.col, 37);
  done(&r);

  /* a name that starts like a prefix is a name */
  r = lex("rb = br + f + u\n");
  ASSERT_STR_EQ(kinds(&r), "NONONONLE");
  done(&r);

  /* backslash-newline inside a single-quoted string */
  r = lex("s = 'ab\\\ncd'\nx\n");
  ASSERT_STR_EQ(kinds(&r), "NOSLNLE");
  ASSERT_STR_EQ(r.t[2].str, "abcd");
  ASSERT_EQ(r.t[4].pos.line, 3);
  done(&r);

  r = lex("x = 1\ns = 'abc\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:2:5: error: unterminated string literal\n"
                       "s = 'abc\n    ^");
  done(&r);

  r = lex("s = '''abc\n\ndef\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:1:5: error: unterminated string literal\n"
                       "s = '''abc\n    ^");
  done(&r);
}

static void test_numbers(void) {
  Lexed r = lex("0x1F 0XfF 0o17 0b101 1_000_000 0 00 0x_ff 18446744073709551615\n");
  ASSERT_STR_EQ(kinds(&r), "IIIIIIIIILE");
  ASSERT_EQ(r.t[0].ival, 31);
  ASSERT_EQ(r.t[1].ival, 255);
  ASSERT_EQ(r.t[2].ival, 15);
  ASSERT_EQ(r.t[3].ival, 5);
  ASSERT_EQ(r.t[4].ival, 1000000);
  ASSERT_EQ(r.t[4].len, 9);
  ASSERT_EQ(r.t[5].ival, 0);
  ASSERT_EQ(r.t[6].ival, 0);
  ASSERT_EQ(r.t[7].ival, 255);
  ASSERT_TRUE(r.t[8].ival == UINT64_MAX);
  done(&r);

  r = lex("1.5 1e3 2.5e-3 .5 1. 1_0.2_5 1E+2 3.0e0 0.0\n");
  ASSERT_STR_EQ(kinds(&r), "FFFFFFFFFLE");
  ASSERT_DBL_EQ(r.t[0].fval, 1.5);
  ASSERT_DBL_EQ(r.t[1].fval, 1000.0);
  ASSERT_DBL_EQ(r.t[2].fval, 2.5e-3);
  ASSERT_DBL_EQ(r.t[3].fval, 0.5);
  ASSERT_EQ(r.t[3].pos.col, 16);
  ASSERT_DBL_EQ(r.t[4].fval, 1.0);
  ASSERT_DBL_EQ(r.t[5].fval, 10.25);
  ASSERT_DBL_EQ(r.t[6].fval, 100.0);
  ASSERT_DBL_EQ(r.t[7].fval, 3.0);
  ASSERT_DBL_EQ(r.t[8].fval, 0.0);
  done(&r);

  /* a.b after a number: 1 . x is attribute access on a name */
  r = lex("x[0].y\n");
  ASSERT_STR_EQ(kinds(&r), "NOIOONLE");
  done(&r);

  r = lex("x = 1x\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:1:6: error: invalid character 'x' in number\n"
                       "x = 1x\n     ^");
  done(&r);
  r = lex("x = 0b102\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:1:5: error: invalid digit '2' in number literal\n"
                       "x = 0b102\n    ^");
  done(&r);
  r = lex("x = 0x\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:1:5: error: invalid number literal\nx = 0x\n    ^");
  done(&r);
  r = lex("x = 18446744073709551616\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_TRUE(strstr(r.err, "t.py:1:5: error: integer literal is too large") == r.err);
  done(&r);
  r = lex("x = 012\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_TRUE(strstr(r.err, "t.py:1:5: error: leading zeros") == r.err);
  done(&r);
  r = lex("x = 2j\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_TRUE(strstr(r.err, "t.py:1:5: error: complex numbers are not supported") == r.err);
  done(&r);
}

static void test_bad_bytes(void) {
  Lexed r = lex("x = $\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_STR_EQ(r.err, "t.py:1:5: error: unexpected character '$'\nx = $\n    ^");
  done(&r);
  r = lex("x = 1\ny = '\xff'\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_TRUE(strstr(r.err, "t.py:2:6: error: invalid UTF-8 byte 0xff in source\n") == r.err);
  done(&r);
  r = lex("x = \xC3\xA9\n");
  ASSERT_TRUE(r.t == NULL);
  ASSERT_TRUE(strstr(r.err, "t.py:1:5: error: non-ASCII character outside a string or comment") == r.err);
  done(&r);
  /* NUL byte: strlen() would stop at it, so build the Compiler by hand */
  {
    static const char src[] = "x = 1\n\0y\n";
    Compiler *C = kern__calloc(1, sizeof *C);
    C->path = "t.py";
    C->src = src;
    C->len = sizeof src - 1;
    int n = 0;
    volatile int failed = 0;
    if (setjmp(C->jmp) == 0)
      lex_file(C, &n);
    else
      failed = 1;
    ASSERT_EQ(failed, 1);
    ASSERT_TRUE(strstr(C->error, "t.py:2:1: error: source contains a NUL byte") == C->error);
    arena_free_all(&C->arena);
    kern__free(C->error);
    kern__free(C);
  }
  /* identifier length limit */
  {
    char *src = malloc(400);
    memset(src, 'a', 300);
    strcpy(src + 300, " = 1\n");
    r = lex(src);
    ASSERT_TRUE(r.t == NULL);
    ASSERT_TRUE(strstr(r.err, "t.py:1:1: error: identifier is too long (300 characters; the limit is 255)") == r.err);
    done(&r);
    src[255] = 0;
    r = lex(src);
    ASSERT_STR_EQ(kinds(&r), "NLE");
    ASSERT_EQ(r.t[0].len, 255);
    done(&r);
    free(src);
  }
  /* bracket nesting limit */
  {
    char src[512];
    int k = 0;
    for (int i = 0; i < 201; i++)
      src[k++] = '(';
    src[k++] = '\n';
    src[k] = 0;
    r = lex(src);
    ASSERT_TRUE(r.t == NULL);
    ASSERT_TRUE(strstr(r.err, "t.py:1:201: error: too many nested brackets (the limit is 200)") == r.err);
    done(&r);
  }
}

int main(void) {
  test_basic();
  test_indent();
  test_continuation();
  test_strings();
  test_numbers();
  test_bad_bytes();
  return test_report("lang_lex");
}
