/*
 * parse.c -- recursive descent over the kernel dialect.
 *
 * A kernel file is a whole Python program.  At the top level the parser
 * reads `import warp as wp`, `NAME = wp.constant(EXPR)`, `NAME = EXPR` (see
 * Note [module-level values]), and functions
 * decorated with @wp.kernel or @wp.func; every other statement (host code,
 * classes, `if __name__ == "__main__":`) is skipped token by token, which is
 * safe because the lexer has already balanced brackets and produced
 * INDENT/DEDENT for every block.
 *
 * Inside a function the parser accepts the whole statement and expression
 * grammar it can represent and leaves "is this supported?" to the checker,
 * so unsupported constructs get a message naming them rather than a syntax
 * error.  Each parse function is named after its grammar rule and starts
 * with that rule (Lua's lparser.c).
 */
#include <stdlib.h>
#include <string.h>
#include "lang.h"

/* Deeper nesting than this is certainly not a kernel, and unbounded
 * recursion would overflow the C stack. */
#define MAX_NEST 200

typedef struct Parser {
  Compiler *C;
  Token *tok;
  int ntok, i;
  const char *wp; /* the name warp is imported as (the last import) */
  const char *wps[KERN_WP_ALIASES]; /* every name it is imported as */
  int nwp;
  bool stub;      /* funcdef: an @wp.overload stub, whose body is skipped */
  const char *math, *np; /* the names math and numpy are imported as */
  Names strs;     /* module-level NAME = "string": the N_STR node (the
                     latest assignment, as the decorators below it see) */
} Parser;

static Token *peek(Parser *P) { return &P->tok[P->i]; }
static Token *peek2(Parser *P) {
  return &P->tok[P->i + 1 < P->ntok ? P->i + 1 : P->i];
}
static Token *next(Parser *P) {
  Token *t = &P->tok[P->i];
  if (t->kind != T_EOF)
    P->i++;
  return t;
}

/* The first character is compared before any length: most tests fail
 * there, and these run for every token at every precedence level. */
static inline bool is_op(Token *t, const char *op) {
  return t->kind == T_OP && t->text[0] == op[0] && t->len == (int)strlen(op) &&
         !strncmp(t->text, op, (size_t)t->len);
}
static inline bool is_kw(Token *t, const char *kw) {
  return t->kind == T_NAME && t->text[0] == kw[0] && t->len == (int)strlen(kw) &&
         !strncmp(t->text, kw, (size_t)t->len);
}

static const char *describe(Parser *P, Token *t) {
  switch (t->kind) {
  case T_NEWLINE: return "end of line";
  case T_EOF: return "end of file";
  case T_INDENT: return "an indented block";
  case T_DEDENT: return "the end of a block";
  default: break;
  }
  int n = t->len > 40 ? 40 : t->len;
  return arena_printf(P->C, "'%.*s'", n, t->text);
}

static _Noreturn void error_at_tok(Parser *P, Token *t, const char *what) {
  diag_error(P->C, t->pos, "expected %s, found %s", what, describe(P, t));
}

static Token *expect_op(Parser *P, const char *op) {
  Token *t = peek(P);
  if (!is_op(t, op))
    error_at_tok(P, t, arena_printf(P->C, "'%s'", op));
  return next(P);
}

static const char *expect_name(Parser *P) {
  Token *t = peek(P);
  if (t->kind != T_NAME)
    error_at_tok(P, t, "a name");
  next(P);
  return arena_strndup(P->C, t->text, (size_t)t->len);
}

static void expect_newline(Parser *P) {
  Token *t = peek(P);
  if (t->kind == T_EOF)
    return;
  if (t->kind != T_NEWLINE)
    error_at_tok(P, t, "end of line");
  next(P);
}

static Node *new_node(Parser *P, NodeKind k, Pos pos) {
  Node *n = arena_alloc_node(P->C, sizeof *n);
  n->kind = k;
  n->pos = pos;
  n->builtin = -1;
  return n;
}

/* An expression tree taller than this is no kernel's; every later stage
 * recurses over the tree, so its height (not only bracket nesting: a chain
 * a + a + ... is a tall tree too) is bounded here, with a clear error. */
#define MAX_EXPR_DEPTH 1000

static int depth_of(Node *n) { return n ? n->depth : 0; }

static Node *deepen(Parser *P, Node *n) {
  int d = depth_of(n->a);
  if (depth_of(n->b) > d) d = depth_of(n->b);
  if (depth_of(n->c) > d) d = depth_of(n->c);
  for (Node *a = n->args; a; a = a->next) {
    if (a->depth > d) d = a->depth;
    if (n->kind == N_COMPARE) d++;
  }
  for (Node *a = n->kwargs; a; a = a->next)
    if (depth_of(a->a) > d) d = depth_of(a->a);
  n->depth = d + 1;
  if (n->depth > MAX_EXPR_DEPTH)
    diag_error(P->C, n->pos, "expression is too deeply nested or too long "
               "(the limit is %d levels of operators)", MAX_EXPR_DEPTH);
  return n;
}

static void enter(Parser *P, Token *t) {
  if (++P->C->nest > MAX_NEST)
    diag_error(P->C, t->pos, "expression or block nested too deeply (the "
                             "limit is %d levels)", MAX_NEST);
}
static void leave(Parser *P) { P->C->nest--; }

/* In strcmp order (is_keyword searches it). */
static const char *const keywords[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await",
    "break", "class", "continue", "def", "del", "elif", "else", "except",
    "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
    "while", "with", "yield", NULL};

static bool is_keyword(Token *t) {
  if (t->kind != T_NAME)
    return false;
  /* A binary search of the sorted list: this runs for every name in an
   * expression, and walking the whole list was 2% of `kern synth`.  No
   * keyword is shorter than 2 or longer than 8 letters, or starts with
   * h, j, k, s, u, v, x or z (x0 and v3 are the common names). */
  if (t->len < 2 || t->len > 8)
    return false;
  switch (t->text[0]) {
  case 'h': case 'j': case 'k': case 's': case 'u': case 'v': case 'x': case 'z':
    return false;
  default:
    break;
  }
  int lo = 0, hi = (int)(sizeof keywords / sizeof *keywords) - 2;
  while (lo <= hi) {
    int mid = (lo + hi) / 2, c = 0;
    const char *k = keywords[mid];
    int i = 0;
    while (i < t->len && k[i] == t->text[i])
      i++;
    if (i == t->len)
      c = k[i] ? -1 : 0; /* the token is the keyword, or a prefix of it */
    else
      c = (unsigned char)t->text[i] - (unsigned char)k[i];
    if (c == 0)
      return true;
    if (c < 0)
      hi = mid - 1;
    else
      lo = mid + 1;
  }
  return false;
}

/* ---------------------------------------------------------------- expressions */

static Node *test(Parser *P);
static Node *factor(Parser *P);

/* arglist -> (test | NAME '=' test) {',' ...} [','] */
static void arglist(Parser *P, Node *call, const char *close) {
  Node head = {0}, *cur = &head, khead = {0}, *kcur = &khead;
  while (!is_op(peek(P), close)) {
    if (is_op(peek(P), "**"))
      diag_error(P->C, peek(P)->pos, "argument unpacking with '**' is not "
                 "supported");
    if (is_op(peek(P), "*")) {
      /* *v: unpacked by the checker, which knows v's length */
      Token *t = next(P);
      if (khead.next)
        diag_error(P->C, t->pos, "positional argument follows keyword "
                                 "argument");
      Node *s = new_node(P, N_STARRED, t->pos);
      s->a = test(P);
      s->depth = s->a->depth + 1;
      cur = cur->next = s;
    } else if (peek(P)->kind == T_NAME && is_op(peek2(P), "=")) {
      Token *t = next(P);
      next(P);
      Node *kw = new_node(P, N_KEYWORD, t->pos);
      kw->name = arena_strndup(P->C, t->text, (size_t)t->len);
      kw->a = test(P);
      kcur = kcur->next = kw;
    } else {
      if (khead.next)
        diag_error(P->C, peek(P)->pos, "positional argument follows keyword "
                                       "argument");
      cur = cur->next = test(P);
    }
    if (!is_op(peek(P), ","))
      break;
    next(P);
  }
  expect_op(P, close);
  call->args = head.next;
  call->kwargs = khead.next;
}

/* subscript -> test | [test] ':' [test] [':' [test]] */
static Node *subscript(Parser *P) {
  Token *t = peek(P);
  Node *lo = NULL;
  if (!is_op(t, ":")) {
    lo = test(P);
    if (!is_op(peek(P), ":"))
      return lo;
  }
  Node *s = new_node(P, N_SLICE, t->pos);
  s->a = lo;
  next(P); /* : */
  if (!is_op(peek(P), ":") && !is_op(peek(P), ",") && !is_op(peek(P), "]"))
    s->b = test(P);
  if (is_op(peek(P), ":")) {
    next(P);
    if (!is_op(peek(P), ",") && !is_op(peek(P), "]"))
      s->c = test(P);
  }
  return s;
}

/* subscriptlist -> subscript {',' subscript} [','] */
static Node *subscriptlist(Parser *P) {
  Node head = {0}, *cur = &head;
  for (;;) {
    cur = cur->next = subscript(P);
    if (!is_op(peek(P), ","))
      break;
    next(P);
    if (is_op(peek(P), "]"))
      break;
  }
  expect_op(P, "]");
  return head.next;
}

/* atom -> NAME | NUMBER | STRING+ | '(' [testlist] ')' | '[' ... ']' */
static Node *atom(Parser *P) {
  Token *t = peek(P);
  switch (t->kind) {
  case T_INT: {
    next(P);
    Node *n = new_node(P, N_INT, t->pos);
    n->ival = t->ival;
    return n;
  }
  case T_FLOAT: {
    next(P);
    Node *n = new_node(P, N_FLOAT, t->pos);
    n->fval = t->fval;
    return n;
  }
  case T_STRING: {
    Node *n = new_node(P, N_STR, t->pos);
    Buf b;
    buf_init(&b, P->C);
    while (peek(P)->kind == T_STRING) {
      Token *s = next(P);
      buf_putn(&b, s->str, (size_t)s->slen);
    }
    n->str = b.p ? b.p : arena_strndup(P->C, "", 0);
    n->slen = (int)b.len;
    return n;
  }
  case T_NAME: {
    if (is_kw(t, "True") || is_kw(t, "False")) {
      next(P);
      Node *n = new_node(P, N_BOOL, t->pos);
      n->ival = is_kw(t, "True");
      return n;
    }
    if (is_kw(t, "None")) {
      next(P);
      return new_node(P, N_NONE, t->pos);
    }
    if (is_kw(t, "lambda"))
      diag_error(P->C, t->pos, "lambda expressions are not supported");
    if (is_kw(t, "yield") || is_kw(t, "await"))
      diag_error(P->C, t->pos, "'%.*s' is not supported in kernels", t->len,
                 t->text);
    if (is_keyword(t))
      error_at_tok(P, t, "an expression");
    next(P);
    Node *n = new_node(P, N_NAME, t->pos);
    n->name = arena_strndup(P->C, t->text, (size_t)t->len);
    return n;
  }
  case T_OP:
    if (is_op(t, "...")) {
      /* Python's Ellipsis, for tuple[int, ...]: a name no program can
       * define, so anywhere else it is an unknown name */
      next(P);
      Node *n = new_node(P, N_NAME, t->pos);
      n->name = "...";
      return n;
    }
    if (is_op(t, "(")) {
      /* The expression inside counts the level (test() enters), so a
       * bracket costs one level and the lexer's limit of 200 brackets,
       * Python's, is the one a user meets. */
      next(P);
      if (is_op(peek(P), ")")) {
        next(P);
        return new_node(P, N_TUPLE, t->pos);
      }
      Node *e = test(P);
      if (is_op(peek(P), "for"))
        diag_error(P->C, peek(P)->pos, "generator expressions are not supported");
      if (is_kw(peek(P), "for"))
        diag_error(P->C, peek(P)->pos, "generator expressions are not supported");
      if (is_op(peek(P), ",")) {
        Node *tup = new_node(P, N_TUPLE, t->pos);
        Node head = {0}, *cur = &head;
        cur = cur->next = e;
        while (is_op(peek(P), ",")) {
          next(P);
          if (is_op(peek(P), ")"))
            break;
          cur = cur->next = test(P);
        }
        tup->args = head.next;
        e = tup;
      }
      expect_op(P, ")");
      return e;
    }
    if (is_op(t, "[") || is_op(t, "{")) {
      /* Parsed so the checker can name the construct. */
      next(P);
      enter(P, t);
      Node *n = new_node(P, N_LIST, t->pos);
      n->name = is_op(t, "[") ? "list" : "dict or set";
      const char *close = is_op(t, "[") ? "]" : "}";
      bool list = is_op(t, "[");
      Node head = {0}, *cur = &head;
      while (!is_op(peek(P), close)) {
        Node *item = test(P);
        /* a list's items: wp.constant(vec3b([True, False, True])) */
        if (list)
          cur = cur->next = item;
        if (is_op(peek(P), ":")) {
          next(P);
          test(P);
        }
        if (is_kw(peek(P), "for"))
          diag_error(P->C, peek(P)->pos, "comprehensions are not supported");
        if (!is_op(peek(P), ","))
          break;
        next(P);
      }
      expect_op(P, close);
      leave(P);
      n->args = head.next;
      return deepen(P, n);
    }
    break;
  default:
    break;
  }
  error_at_tok(P, t, "an expression");
}

/* atom_expr -> atom { '(' arglist ')' | '[' subscriptlist ']' | '.' NAME } */
static Node *atom_expr(Parser *P) {
  Node *e = atom(P);
  for (;;) {
    Token *t = peek(P);
    if (is_op(t, "(")) {
      next(P);
      enter(P, t);
      Node *call = new_node(P, N_CALL, e->pos);
      call->a = e;
      arglist(P, call, ")");
      leave(P);
      e = deepen(P, call);
    } else if (is_op(t, "[")) {
      next(P);
      enter(P, t);
      Node *sub = new_node(P, N_SUBSCRIPT, e->pos);
      sub->a = e;
      sub->args = subscriptlist(P);
      leave(P);
      e = deepen(P, sub);
    } else if (is_op(t, ".")) {
      next(P);
      Node *at = new_node(P, N_ATTR, e->pos);
      at->a = e;
      Token *nt = peek(P);
      if (nt->kind != T_NAME)
        error_at_tok(P, nt, "an attribute name");
      at->pos = nt->pos;
      at->name = expect_name(P);
      e = deepen(P, at);
    } else {
      return e;
    }
  }
}

/* power -> atom_expr ['**' factor] */
static Node *power(Parser *P) {
  Node *e = atom_expr(P);
  if (is_op(peek(P), "**")) {
    Token *t = next(P);
    Node *n = new_node(P, N_BINOP, t->pos);
    n->op = OP_POW;
    n->a = e;
    n->b = factor(P);
    return deepen(P, n);
  }
  return e;
}

/* factor -> ('+'|'-'|'~') factor | power */
static Node *factor(Parser *P) {
  Token *t = peek(P);
  if (is_op(t, "-") || is_op(t, "+") || is_op(t, "~")) {
    next(P);
    enter(P, t);
    Node *n = new_node(P, N_UNOP, t->pos);
    n->op = is_op(t, "-") ? OP_NEG : is_op(t, "+") ? OP_POS : OP_INVERT;
    n->a = factor(P);
    leave(P);
    return deepen(P, n);
  }
  return power(P);
}

typedef struct BinOp {
  const char *text;
  int op;
} BinOp;

/* The binary operators by precedence, lowest first:
 *   0 '|'   1 '^'   2 '&'   3 '<<' '>>'   4 '+' '-'   5 '*' '/' '//' '%' '@'
 * Returns t's level and sets *op, or -1 when t is none of them. */
static int binop_level(Token *t, int *op) {
  if (t->kind != T_OP)
    return -1;
  if (t->len == 1) {
    switch (t->text[0]) {
    case '|': *op = OP_BITOR; return 0;
    case '^': *op = OP_BITXOR; return 1;
    case '&': *op = OP_BITAND; return 2;
    case '+': *op = OP_ADD; return 4;
    case '-': *op = OP_SUB; return 4;
    case '*': *op = OP_MUL; return 5;
    case '/': *op = OP_DIV; return 5;
    case '%': *op = OP_MOD; return 5;
    case '@': *op = OP_MATMUL; return 5;
    }
    return -1;
  }
  if (t->len == 2 && t->text[0] == t->text[1]) {
    switch (t->text[0]) {
    case '<': *op = OP_SHL; return 3;
    case '>': *op = OP_SHR; return 3;
    case '/': *op = OP_FLOORDIV; return 5;
    }
  }
  return -1;
}

/* bor -> bxor {'|' bxor}; bxor -> band {'^' band}; band -> shift {'&' shift}
 * shift -> arith {('<<'|'>>') arith}; arith -> term {('+'|'-') term}
 * term -> factor {('*'|'/'|'//'|'%'|'@') factor}
 *
 * Parsed by precedence climbing rather than one function per level: the
 * tree is the same (every operator left-associative), but an operand no
 * longer passes through six calls, which was a fifth of the parser's time
 * on generated kernels (kern synth). */
static Node *binary(Parser *P, int min_level) {
  Node *e = factor(P);
  for (;;) {
    Token *t = peek(P);
    int op = 0;
    int level = binop_level(t, &op);
    if (level < min_level)
      return e;
    next(P);
    Node *n = new_node(P, N_BINOP, t->pos);
    n->op = op;
    n->a = e;
    n->b = binary(P, level + 1);
    e = deepen(P, n);
  }
}

static int comp_op(Parser *P) {
  Token *t = peek(P);
  static const BinOp cmp[] = {{"<", OP_LT}, {"<=", OP_LE}, {">", OP_GT},
                              {">=", OP_GE}, {"==", OP_EQ}, {"!=", OP_NE},
                              {0}};
  /* Most tokens here end an operand (')', ',', ':', an operator of lower
   * precedence): only these first characters can begin a comparison. */
  if (t->kind == T_OP) {
    char c0 = t->text[0];
    if (c0 != '<' && c0 != '>' && c0 != '=' && c0 != '!')
      return 0;
  } else if (t->kind != T_NAME || (t->text[0] != 'i' && t->text[0] != 'n')) {
    return 0;
  }
  for (int i = 0; cmp[i].text; i++)
    if (is_op(t, cmp[i].text)) {
      next(P);
      return cmp[i].op;
    }
  if (is_kw(t, "in")) {
    next(P);
    return OP_IN;
  }
  if (is_kw(t, "is")) {
    next(P);
    if (is_kw(peek(P), "not")) {
      next(P);
      return OP_ISNOT;
    }
    return OP_IS;
  }
  if (is_kw(t, "not") && is_kw(peek2(P), "in")) {
    next(P);
    next(P);
    return OP_NOTIN;
  }
  return 0;
}

/* comparison -> bor {comp_op bor} */
static Node *comparison(Parser *P) {
  Node *e = binary(P, 0);
  Token *t = peek(P);
  int op = comp_op(P);
  if (!op)
    return e;
  Node *n = new_node(P, N_COMPARE, t->pos);
  n->a = e;
  int cap = 4, nops = 0;
  int *ops = arena_alloc(P->C, sizeof(int) * (size_t)cap);
  Node head = {0}, *cur = &head;
  while (op) {
    if (nops == cap) {
      int *o = arena_alloc(P->C, sizeof(int) * (size_t)cap * 2);
      memcpy(o, ops, sizeof(int) * (size_t)cap);
      ops = o;
      cap *= 2;
    }
    ops[nops++] = op;
    cur = cur->next = binary(P, 0);
    op = comp_op(P);
  }
  n->ops = ops;
  n->ival = (uint64_t)nops;
  n->args = head.next;
  return deepen(P, n);
}

/* not_test -> 'not' not_test | comparison */
static Node *not_test(Parser *P) {
  Token *t = peek(P);
  if (is_kw(t, "not")) {
    next(P);
    enter(P, t);
    Node *n = new_node(P, N_NOT, t->pos);
    n->a = not_test(P);
    leave(P);
    return deepen(P, n);
  }
  return comparison(P);
}

/* and_test -> not_test {'and' not_test} */
static Node *and_test(Parser *P) {
  Node *e = not_test(P);
  while (is_kw(peek(P), "and")) {
    Token *t = next(P);
    Node *n = new_node(P, N_AND, t->pos);
    n->a = e;
    n->b = not_test(P);
    e = deepen(P, n);
  }
  return e;
}

/* or_test -> and_test {'or' and_test} */
static Node *or_test(Parser *P) {
  Node *e = and_test(P);
  while (is_kw(peek(P), "or")) {
    Token *t = next(P);
    Node *n = new_node(P, N_OR, t->pos);
    n->a = e;
    n->b = and_test(P);
    e = deepen(P, n);
  }
  return e;
}

/* test -> or_test ['if' or_test 'else' test] */
static Node *test(Parser *P) {
  Token *start = peek(P);
  enter(P, start);
  Node *e = or_test(P);
  if (is_kw(peek(P), "if")) {
    Token *t = next(P);
    Node *n = new_node(P, N_IFEXP, t->pos);
    n->b = e;
    n->a = or_test(P);
    if (!is_kw(peek(P), "else"))
      error_at_tok(P, peek(P), "'else' in conditional expression");
    next(P);
    n->c = test(P);
    e = deepen(P, n);
  }
  if (is_op(peek(P), ":="))
    diag_error(P->C, peek(P)->pos, "assignment expressions (':=') are not "
                                   "supported");
  leave(P);
  return e;
}

/* testlist -> test {',' test} [','] : a tuple when there is a comma */
static Node *testlist(Parser *P) {
  Node *e = test(P);
  if (!is_op(peek(P), ","))
    return e;
  Node *tup = new_node(P, N_TUPLE, e->pos);
  Node head = {0}, *cur = &head;
  cur = cur->next = e;
  while (is_op(peek(P), ",")) {
    next(P);
    Token *t = peek(P);
    if (t->kind == T_NEWLINE || is_op(t, "=") || is_op(t, ")") ||
        t->kind == T_EOF || is_op(t, ":"))
      break;
    cur = cur->next = test(P);
  }
  tup->args = head.next;
  return tup;
}

/* ---------------------------------------------------------------- statements */

static Node *block(Parser *P);

static Node *unsupported(Parser *P, Token *t, const char *what) {
  (void)P;
  diag_error(P->C, t->pos, "%s is not supported in kernels and functions",
             what);
}

/* simple_stmt -> small_stmt {';' small_stmt} [';'] NEWLINE */
static Node *small_stmt(Parser *P) {
  Token *t = peek(P);
  if (is_kw(t, "pass")) {
    next(P);
    return new_node(P, N_PASS, t->pos);
  }
  if (is_kw(t, "break")) {
    next(P);
    return new_node(P, N_BREAK, t->pos);
  }
  if (is_kw(t, "continue")) {
    next(P);
    return new_node(P, N_CONTINUE, t->pos);
  }
  if (is_kw(t, "return")) {
    next(P);
    Node *n = new_node(P, N_RETURN, t->pos);
    Token *e = peek(P);
    if (e->kind != T_NEWLINE && !is_op(e, ";") && e->kind != T_EOF)
      n->a = testlist(P);
    return n;
  }
  if (is_kw(t, "assert")) {
    next(P);
    Node *n = new_node(P, N_ASSERT, t->pos);
    n->a = test(P);
    if (is_op(peek(P), ",")) {
      next(P);
      n->b = test(P);
    }
    return n;
  }
  if (is_kw(t, "del"))
    unsupported(P, t, "'del'");
  if (is_kw(t, "global") || is_kw(t, "nonlocal"))
    unsupported(P, t, arena_printf(P->C, "'%.*s'", t->len, t->text));
  if (is_kw(t, "import") || is_kw(t, "from"))
    unsupported(P, t, "'import'");
  if (is_kw(t, "raise"))
    unsupported(P, t, "'raise'");
  if (is_kw(t, "yield"))
    unsupported(P, t, "'yield'");

  /* expr_stmt -> testlist (augassign testlist | ('=' testlist)* | ':' test ['=' test]) */
  Node *e = testlist(P);
  Token *op = peek(P);
  if (is_op(op, ":")) {
    next(P);
    Node *n = new_node(P, N_ANNASSIGN, op->pos);
    n->a = e;
    n->b = test(P);
    if (is_op(peek(P), "=")) {
      next(P);
      n->c = testlist(P);
    }
    return n;
  }
  static const BinOp aug[] = {
      {"+=", OP_ADD}, {"-=", OP_SUB}, {"*=", OP_MUL}, {"/=", OP_DIV},
      {"//=", OP_FLOORDIV}, {"%=", OP_MOD}, {"**=", OP_POW},
      {"@=", OP_MATMUL}, {"&=", OP_BITAND}, {"|=", OP_BITOR},
      {"^=", OP_BITXOR}, {"<<=", OP_SHL}, {">>=", OP_SHR}, {0}};
  for (int i = 0; aug[i].text; i++) {
    if (is_op(op, aug[i].text)) {
      next(P);
      Node *n = new_node(P, N_AUGASSIGN, op->pos);
      n->op = aug[i].op;
      n->a = e;
      n->b = testlist(P);
      return n;
    }
  }
  if (is_op(op, "=")) {
    Node *n = new_node(P, N_ASSIGN, op->pos);
    Node head = {0}, *cur = &head;
    cur = cur->next = e;
    Node *value = NULL;
    while (is_op(peek(P), "=")) {
      next(P);
      value = testlist(P);
      if (is_op(peek(P), "="))
        cur = cur->next = value;
    }
    n->args = head.next; /* targets */
    n->a = value;
    return n;
  }
  Node *n = new_node(P, N_EXPR, e->pos);
  n->a = e;
  return n;
}

static Node *simple_stmt(Parser *P) {
  Node head = {0}, *cur = &head;
  for (;;) {
    cur = cur->next = small_stmt(P);
    if (!is_op(peek(P), ";"))
      break;
    next(P);
    if (peek(P)->kind == T_NEWLINE || peek(P)->kind == T_EOF)
      break;
  }
  expect_newline(P);
  return head.next;
}

static Node *stmt(Parser *P);

/* suite -> simple_stmt | NEWLINE INDENT stmt+ DEDENT */
static Node *suite(Parser *P) {
  expect_op(P, ":");
  if (peek(P)->kind != T_NEWLINE)
    return simple_stmt(P);
  next(P);
  if (peek(P)->kind != T_INDENT)
    error_at_tok(P, peek(P), "an indented block");
  return block(P);
}

/* block -> INDENT stmt+ DEDENT */
static Node *block(Parser *P) {
  Token *t = next(P); /* INDENT */
  enter(P, t);
  Node head = {0}, *cur = &head;
  while (peek(P)->kind != T_DEDENT && peek(P)->kind != T_EOF) {
    cur->next = stmt(P);
    while (cur->next)
      cur = cur->next;
  }
  if (peek(P)->kind == T_DEDENT)
    next(P);
  leave(P);
  return head.next;
}

/* if_stmt -> 'if' test suite {'elif' test suite} ['else' suite] */
/* elif is an if inside else, so the parser, the checker, the IR passes
 * and the emitters all recurse once per elif (20,000 elifs overflowed even
 * an 8 MiB stack).  A chain is limited to this many elifs, and each also
 * counts toward MAX_NEST with the blocks around it. */
#define MAX_ELIF 100

static Node *if_chain(Parser *P, int elifs);
static Node *if_stmt(Parser *P) { return if_chain(P, 0); }

static Node *if_chain(Parser *P, int elifs) {
  Token *t = next(P);
  Node *n = new_node(P, N_IF, t->pos);
  n->a = test(P);
  n->body = suite(P);
  Token *e = peek(P);
  if (is_kw(e, "elif")) {
    if (elifs >= MAX_ELIF)
      diag_error(P->C, e->pos, "too many 'elif' branches in one chain (the "
                 "limit is %d; each nests one level deeper)", MAX_ELIF);
    enter(P, e);
    n->orelse = if_chain(P, elifs + 1);
    leave(P);
  } else if (is_kw(e, "else")) {
    next(P);
    n->orelse = suite(P);
  }
  return n;
}

/* stmt -> simple_stmt | if_stmt | for_stmt | while_stmt | ... */
static Node *stmt(Parser *P) {
  Token *t = peek(P);
  if (t->kind == T_INDENT)
    diag_error(P->C, t->pos, "unexpected indent");
  if (is_kw(t, "if"))
    return if_stmt(P);
  if (is_kw(t, "elif") || is_kw(t, "else"))
    diag_error(P->C, t->pos, "'%.*s' without a matching 'if'", t->len, t->text);
  if (is_kw(t, "for")) {
    /* for_stmt -> 'for' exprlist 'in' testlist suite ['else' suite] */
    next(P);
    Node *n = new_node(P, N_FOR, t->pos);
    enter(P, t);
    n->b = binary(P, 0);
    if (is_op(peek(P), ",")) {
      Node *tup = new_node(P, N_TUPLE, n->b->pos);
      Node head = {0}, *cur = &head;
      cur = cur->next = n->b;
      while (is_op(peek(P), ",")) {
        next(P);
        cur = cur->next = binary(P, 0);
      }
      tup->args = head.next;
      n->b = tup;
    }
    leave(P);
    if (!is_kw(peek(P), "in"))
      error_at_tok(P, peek(P), "'in'");
    next(P);
    n->a = testlist(P);
    n->body = suite(P);
    if (is_kw(peek(P), "else"))
      unsupported(P, peek(P), "'else' on a loop");
    return n;
  }
  if (is_kw(t, "while")) {
    next(P);
    Node *n = new_node(P, N_WHILE, t->pos);
    n->a = test(P);
    n->body = suite(P);
    if (is_kw(peek(P), "else"))
      unsupported(P, peek(P), "'else' on a loop");
    return n;
  }
  if (is_kw(t, "def"))
    unsupported(P, t, "a nested function definition");
  if (is_kw(t, "class"))
    unsupported(P, t, "a class definition");
  if (is_kw(t, "with"))
    unsupported(P, t, "'with'");
  if (is_kw(t, "try"))
    unsupported(P, t, "'try'");
  if (is_kw(t, "async"))
    unsupported(P, t, "'async'");
  if (is_kw(t, "match") && peek2(P)->kind != T_OP)
    unsupported(P, t, "'match'");
  if (is_op(t, "@"))
    unsupported(P, t, "a decorator inside a function");
  return simple_stmt(P);
}

/* ---------------------------------------------------------------- top level */

/* Skips one top-level statement: its logical line and, when it opens a
 * block, everything up to the matching DEDENT. */
static void skip_statement(Parser *P) {
  /* Only a compound statement's header (a line ending in ':') owns the
   * indented block after it; any other line followed by an indent is
   * Python's "unexpected indent", which the caller reports -- skipping the
   * block here once hid every kernel in it without a word. */
  while (peek(P)->kind != T_NEWLINE && peek(P)->kind != T_EOF) {
    if (peek(P)->kind == T_INDENT)
      break;
    next(P);
  }
  /* The caller may have consumed the header itself (a stub's "def ...:"). */
  bool header = P->i > 0 && is_op(&P->tok[P->i - 1], ":");
  if (peek(P)->kind == T_NEWLINE)
    next(P);
  if (header && peek(P)->kind == T_INDENT) {
    int depth = 0;
    do {
      Token *t = next(P);
      if (t->kind == T_INDENT)
        depth++;
      else if (t->kind == T_DEDENT)
        depth--;
      else if (t->kind == T_EOF)
        return;
    } while (depth > 0);
  }
}

/* Is the string s (or the token text s, len n) a name warp is imported
 * as?  A file may import warp under several names (`import warp` and
 * `import warp as wp`): each one reaches Warp's builtins. */
static bool is_wp_text(Parser *P, const char *s, int n) {
  for (int i = 0; i < P->nwp; i++)
    if ((int)strlen(P->wps[i]) == n && !strncmp(s, P->wps[i], (size_t)n))
      return true;
  return false;
}

static bool is_wp_name(Parser *P, const char *s) {
  return is_wp_text(P, s, (int)strlen(s));
}

/* Is the expression e the name `wp.NAME` (or NAME when imported from)? */
static bool is_wp_attr(Parser *P, Node *e, const char *name) {
  return e && e->kind == N_ATTR && !strcmp(e->name, name) &&
         e->a->kind == N_NAME && is_wp_name(P, e->a->name);
}

/* funcdef -> 'def' NAME '(' [params] ')' ['->' test] ':' suite */
static void skip_statement(Parser *P);

static Func *funcdef(Parser *P, bool is_kernel) {
  Token *t = next(P); /* def */
  Func *f = arena_alloc(P->C, sizeof *f);
  f->is_kernel = is_kernel;
  f->enable_backward = -1;
  Token *nt = peek(P);
  f->pos = nt->pos;
  f->name = expect_name(P);
  expect_op(P, "(");
  /* most functions have a few parameters; every Func lives to the end
   * (issue #23, item 9: 8 of them were a third of a small kernel's share
   * of the arena) */
  int cap = 2;
  f->params = arena_alloc(P->C, sizeof(Param) * (size_t)cap);
  while (!is_op(peek(P), ")")) {
    Token *pt = peek(P);
    if (is_op(pt, "*") || is_op(pt, "**") || is_op(pt, "/"))
      diag_error(P->C, pt->pos, "'%.*s' in a parameter list is not supported",
                 pt->len, pt->text);
    if (f->nparams == cap) {
      Param *np = arena_alloc(P->C, sizeof(Param) * (size_t)cap * 2);
      memcpy(np, f->params, sizeof(Param) * (size_t)cap);
      f->params = np;
      cap *= 2;
    }
    Param *p = &f->params[f->nparams++];
    p->pos = pt->pos;
    p->name = expect_name(P);
    if (!is_op(peek(P), ":"))
      diag_error(P->C, pt->pos, "parameter '%s' of '%s' needs a type "
                 "annotation", p->name, f->name);
    next(P);
    p->annot = test(P);
    if (is_op(peek(P), "=")) {
      if (is_kernel)
        diag_error(P->C, peek(P)->pos, "default values of kernel "
                                       "parameters are not supported");
      next(P);
      p->defval = test(P);
    } else if (f->nparams > 1 && f->params[f->nparams - 2].defval) {
      diag_error(P->C, pt->pos, "parameter '%s' without a default follows "
                 "one with a default", p->name);
    }
    if (!is_op(peek(P), ","))
      break;
    next(P);
  }
  expect_op(P, ")");
  if (is_op(peek(P), "->")) {
    next(P);
    f->ret_annot = test(P);
  }
  if (P->stub) {
    expect_op(P, ":");
    skip_statement(P);
    return f;
  }
  f->body = suite(P);
  (void)t;
  return f;
}

static void add_func(Parser *P, Func *f) {
  Module *m = P->C->mod;
  Func *g = names_get(&m->func_names, f->name);
  if (g) {
    if (g->is_kernel || f->is_kernel)
      diag_error(P->C, f->pos, "'%s' is defined twice (first at line %d)",
                 f->name, g->pos.line);
    /* @wp.func defined again: an overload by parameter types, chosen per
     * call by the checker (the latest definition wins a tie, as in Warp,
     * where a same-signature definition replaces the old).  Overloads hang
     * off the first definition and are not in the function list. */
    Func **tail = &g->overload;
    int k = 1;
    while (*tail) {
      tail = &(*tail)->overload;
      k++;
    }
    f->overload_index = k;
    *tail = f;
    return;
  }
  names_put(P->C, &m->func_names, f->name, f);
  if (!m->funcs_tail)
    m->funcs_tail = &m->funcs;
  *m->funcs_tail = f;
  m->funcs_tail = &f->next;
  if (f->is_kernel)
    m->nkernels++;
}

/* classdef -> 'class' NAME ['(' ... ')'] ':' NEWLINE INDENT
 *             (NAME ':' test NEWLINE | STRING NEWLINE | 'pass')+ DEDENT
 * The body of a @wp.struct: its fields, in order. */
static void classdef(Parser *P) {
  next(P); /* class */
  StructDef *sd = arena_alloc(P->C, sizeof *sd);
  Token *nt = peek(P);
  sd->pos = nt->pos;
  sd->name = expect_name(P);
  if (is_op(peek(P), "(")) {
    Token *b = peek(P);
    diag_error(P->C, b->pos, "a @wp.struct with base classes is not "
                             "supported");
  }
  expect_op(P, ":");
  if (peek(P)->kind != T_NEWLINE)
    error_at_tok(P, peek(P), "an indented block of fields");
  next(P);
  if (peek(P)->kind != T_INDENT)
    error_at_tok(P, peek(P), "an indented block of fields");
  next(P);
  int cap = 8;
  sd->fnames = arena_alloc(P->C, sizeof(char *) * (size_t)cap);
  sd->fannots = arena_alloc(P->C, sizeof(Node *) * (size_t)cap);
  while (peek(P)->kind != T_DEDENT && peek(P)->kind != T_EOF) {
    Token *t = peek(P);
    if (t->kind == T_NEWLINE) {
      next(P);
      continue;
    }
    if (t->kind == T_STRING || is_kw(t, "pass")) { /* a docstring */
      while (peek(P)->kind != T_NEWLINE && peek(P)->kind != T_EOF)
        next(P);
      continue;
    }
    if (t->kind != T_NAME || is_keyword(t) || !is_op(peek2(P), ":"))
      diag_error(P->C, t->pos, "a @wp.struct may only declare fields "
                               "('name: type'); methods and other "
                               "statements are not supported");
    if (sd->nfields == cap) {
      const char **fn = arena_alloc(P->C, sizeof(char *) * (size_t)cap * 2);
      Node **fa = arena_alloc(P->C, sizeof(Node *) * (size_t)cap * 2);
      memcpy(fn, sd->fnames, sizeof(char *) * (size_t)cap);
      memcpy(fa, sd->fannots, sizeof(Node *) * (size_t)cap);
      sd->fnames = fn;
      sd->fannots = fa;
      cap *= 2;
    }
    const char *fname = expect_name(P);
    for (int i = 0; i < sd->nfields; i++)
      if (!strcmp(sd->fnames[i], fname))
        diag_error(P->C, t->pos, "field '%s' is declared twice", fname);
    next(P); /* : */
    sd->fnames[sd->nfields] = fname;
    sd->fannots[sd->nfields] = test(P);
    sd->nfields++;
    if (is_op(peek(P), "="))
      diag_error(P->C, peek(P)->pos, "default values of struct fields are "
                                     "not supported");
    expect_newline(P);
  }
  if (peek(P)->kind == T_DEDENT)
    next(P);
  Module *m = P->C->mod;
  for (StructDef *o = m->structs; o; o = o->next)
    if (!strcmp(o->name, sd->name))
      diag_error(P->C, sd->pos, "struct '%s' is defined twice (first at line "
                 "%d)", sd->name, o->pos.line);
  StructDef **tail = &m->structs;
  while (*tail)
    tail = &(*tail)->next;
  *tail = sd;
}

static void add_kernel_overload(Parser *P, KernelOverload *o) {
  KernelOverload **tail = &P->C->mod->kernel_overloads;
  while (*tail)
    tail = &(*tail)->next;
  *tail = o;
}

/* overload_stmt -> [NAME '='] WP '.' 'overload' '(' NAME ','
 *                  ('[' test {',' test} ']' | '{' STRING ':' test
 *                   {',' STRING ':' test} '}') ')'
 * at the top level: an instantiation of a generic kernel (check_generic.c).
 * Returns false, consuming nothing, for any other statement. */
static bool overload_stmt(Parser *P) {
  int save = P->i;
  if (peek(P)->kind == T_NAME && is_op(peek2(P), "=")) {
    next(P);
    next(P);
  }
  Token *w = peek(P);
  if (w->kind != T_NAME || !is_wp_text(P, w->text, w->len) || !is_op(peek2(P), ".") ||
      P->tok[P->i + 2].kind != T_NAME || P->tok[P->i + 2].len != 8 ||
      strncmp(P->tok[P->i + 2].text, "overload", 8) ||
      !is_op(&P->tok[P->i + 3], "(")) {
    P->i = save;
    return false;
  }
  P->i += 4;
  KernelOverload *o = arena_alloc(P->C, sizeof *o);
  o->pos = w->pos;
  o->kernel = expect_name(P);
  expect_op(P, ",");
  Node head = {0}, *cur = &head;
  if (is_op(peek(P), "[")) {
    next(P);
    while (!is_op(peek(P), "]")) {
      cur = cur->next = test(P);
      if (!is_op(peek(P), ","))
        break;
      next(P);
    }
    expect_op(P, "]");
  } else if (is_op(peek(P), "{")) {
    next(P);
    int n = 0, cap = 8;
    o->names = arena_alloc(P->C, sizeof(char *) * (size_t)cap);
    while (!is_op(peek(P), "}")) {
      Token *k = peek(P);
      if (k->kind != T_STRING)
        error_at_tok(P, k, "a parameter name in quotes");
      next(P);
      if (n == cap) {
        const char **nn = arena_alloc(P->C, sizeof(char *) * (size_t)cap * 2);
        memcpy(nn, o->names, sizeof(char *) * (size_t)cap);
        o->names = nn;
        cap *= 2;
      }
      o->names[n++] = k->str;
      expect_op(P, ":");
      cur = cur->next = test(P);
      if (!is_op(peek(P), ","))
        break;
      next(P);
    }
    expect_op(P, "}");
  } else {
    error_at_tok(P, peek(P), "a list or dict of argument types");
  }
  if (is_op(peek(P), ","))
    next(P); /* a trailing comma */
  expect_op(P, ")");
  o->types = head.next;
  expect_newline(P);
  add_kernel_overload(P, o);
  return true;
}

/* @wp.func_native(snippet, adj_snippet=..., replay_snippet=...) followed
 * by `def f(params) -> T: ...`: the body is ignored (Warp's is `...` or a
 * docstring) and the snippet becomes the function's body (Note [native
 * snippets] in lower/check_native.c).  The snippet is a string literal or
 * the name of a module-level string assigned above; the adjoint and
 * replay snippets are accepted and ignored, since kern has no autodiff. */
static void native_decorator(Parser *P, Node *d, Pos at) {
  if (P->C->no_native)
    diag_error(P->C, at, "@%s.func_native snippets are native code, and this "
               "compilation refuses them (--no-native)", P->wp);
  if (d->kind != N_CALL)
    diag_error(P->C, d->pos, "@%s.func_native needs the snippet: "
               "@%s.func_native(\"...\")", P->wp, P->wp);
  Node *snippet = d->args;
  if (snippet && snippet->next)
    diag_error(P->C, snippet->next->pos, "@%s.func_native takes one "
               "positional argument, the snippet", P->wp);
  for (Node *kw = d->kwargs; kw; kw = kw->next) {
    if (!strcmp(kw->name, "snippet") && !snippet)
      snippet = kw->a;
    else if (strcmp(kw->name, "adj_snippet") &&
             strcmp(kw->name, "replay_snippet"))
      diag_error(P->C, kw->pos, "@%s.func_native has no argument '%s' "
                 "(kern takes snippet, adj_snippet and replay_snippet)",
                 P->wp, kw->name);
  }
  if (!snippet)
    diag_error(P->C, d->pos, "@%s.func_native needs the snippet", P->wp);
  Node *str = snippet;
  if (snippet->kind == N_NAME) {
    str = names_get(&P->strs, snippet->name);
    if (!str)
      diag_error(P->C, snippet->pos, "the snippet '%s' is not a string "
                 "assigned at the top of the file above this function",
                 snippet->name);
  }
  if (str->kind != N_STR)
    diag_error(P->C, snippet->pos, "the snippet of @%s.func_native must be a "
               "string literal or the name of a module-level string", P->wp);
  P->stub = true;
  Func *f = funcdef(P, false);
  P->stub = false;
  f->native = str->str;
  f->native_len = str->slen;
  f->native_pos = str->pos;
  add_func(P, f);
}

/* wp.adjoint[P] in a custom adjoint's body is its parameter adjoint__P
 * (Note [custom adjoints] in ir/adjoint.c). */
static void adjoint_names(Parser *P, Func *g, Func *f, int np, Node *n) {
  for (; n; n = n->next) {
    if (n->kind == N_SUBSCRIPT && is_wp_attr(P, n->a, "adjoint")) {
      Node *x = n->args;
      int k = -1;
      if (x && !x->next && x->kind == N_NAME)
        for (int i = 0; i < np && k < 0; i++)
          if (!strcmp(g->params[i].name, x->name))
            k = i;
      if (k < 0)
        diag_error(P->C, x ? x->pos : n->pos, "%s.adjoint[...] takes one of the first %d "
                   "parameters of '%s' (those of '%s', whose adjoint it is)",
                   P->wp, np, g->name, f->name);
      Node *next = n->next;
      memset(n, 0, sizeof *n);
      n->kind = N_NAME;
      n->pos = x->pos;
      n->next = next;
      n->name = arena_printf(P->C, "adjoint__%s", g->params[k].name);
      continue;
    }
    adjoint_names(P, g, f, np, n->a);
    adjoint_names(P, g, f, np, n->b);
    adjoint_names(P, g, f, np, n->c);
    adjoint_names(P, g, f, np, n->args);
    adjoint_names(P, g, f, np, n->kwargs);
    adjoint_names(P, g, f, np, n->body);
    adjoint_names(P, g, f, np, n->orelse);
  }
}

/* Whether two annotations are spelled the same. */
static bool annot_eq(const Node *a, const Node *b) {
  for (; a && b; a = a->next, b = b->next)
    if (a->kind != b->kind || a->ival != b->ival || a->op != b->op ||
        ((a->name || b->name) &&
         (!a->name || !b->name || strcmp(a->name, b->name))) ||
        !annot_eq(a->a, b->a) || !annot_eq(a->b, b->b) ||
        !annot_eq(a->c, b->c) || !annot_eq(a->args, b->args) ||
        !annot_eq(a->kwargs, b->kwargs))
      return false;
  return !a && !b;
}

/* How many results the first `return` in the statements n gives (a
 * tuple's items), 1 when there is none or it returns a call's results
 * (what the parser cannot count). */
static int nresults(const Node *n) {
  for (; n; n = n->next) {
    if (n->kind == N_RETURN && n->a && n->a->kind == N_TUPLE) {
      int k = 0;
      for (const Node *x = n->a->args; x; x = x->next)
        k++;
      return k;
    }
    if (n->kind == N_RETURN)
      return 1;
    int k = nresults(n->body);
    if (k == 1)
      k = nresults(n->orelse);
    if (k != 1)
      return k;
  }
  return 1;
}

/* Whether G's first parameters are spelled as overload o's, and then an
 * adj_ret for each of o's results. */
static bool grad_spells(Func *o, Func *g) {
  if (o->nparams + nresults(o->body) != g->nparams)
    return false;
  for (int i = 0; i < o->nparams; i++)
    if (!g->params[i].annot || !o->params[i].annot ||
        !annot_eq(g->params[i].annot, o->params[i].annot))
      return false;
  return true;
}

/* How many of G's parameters are F's: F's count, or for an overloaded F
 * that of the overloads whose parameters G's first ones spell (else of
 * those with fewer parameters than G).  Warp picks the overload by G's
 * parameter types (lower_module does, match_grads); the adjoint__P names
 * need the count here, before types are known. */
static int grad_nparams(Parser *P, Func *f, Func *g) {
  int n = -1;
  bool spelled = false;
  for (Func *o = f; o && !spelled; o = o->overload)
    spelled = grad_spells(o, g);
  for (Func *o = f; o; o = o->overload) {
    if (o->nparams >= g->nparams || o->nparams == n ||
        (spelled && !grad_spells(o, g)))
      continue;
    if (n >= 0)
      diag_error(P->C, g->pos, "@%s.func_grad '%s' of '%s': overloads with "
                 "%d and %d parameters could both be its function (not "
                 "supported yet, issue #26)", P->wp, g->name, f->name, n,
                 o->nparams);
    n = o->nparams;
  }
  return n < 0 ? f->nparams : n;
}

/* @wp.func_grad(F) def G(F's parameters, an adj_ret per result of F, as
 * in Warp): G with F's parameters' adjoints as parameters adjoint__P
 * after its own, kept on F (on its first definition when F has
 * overloads, chained by grad_next). */
static void func_grad_decorator(Parser *P, Node *d, Pos at) {
  Node *fn = d->kind == N_CALL ? d->args : NULL;
  if (!fn || fn->next || d->kwargs || fn->kind != N_NAME)
    diag_error(P->C, at, "@%s.func_grad takes the function it is the "
               "adjoint of: @%s.func_grad(f)", P->wp, P->wp);
  Func *f = names_get(&P->C->mod->func_names, fn->name);
  if (!f || f->is_kernel)
    diag_error(P->C, fn->pos, "@%s.func_grad: no @%s.func '%s' above",
               P->wp, P->wp, fn->name);
  if (f->grad && !f->overload)
    diag_error(P->C, at, "@%s.func_grad of '%s', given twice, is not "
               "supported yet (issue #26)", P->wp, fn->name);
  Func *g = funcdef(P, false);
  int n = grad_nparams(P, f, g);
  if (g->nparams < n + 1)
    diag_error(P->C, g->pos, "the adjoint '%s' of '%s' takes its %d "
               "parameter(s) and then adj_ret (%d given)", g->name, f->name,
               n, g->nparams);
  Param *ps = arena_alloc(P->C, sizeof(Param) * (size_t)(g->nparams + n));
  memcpy(ps, g->params, sizeof(Param) * (size_t)g->nparams);
  for (int i = 0; i < n; i++) {
    Param *q = &ps[g->nparams + i];
    *q = g->params[i];
    q->defval = NULL;
    q->name = arena_printf(P->C, "adjoint__%s", g->params[i].name);
  }
  g->params = ps;
  g->nparams += n;
  adjoint_names(P, g, f, n, g->body);
  Func **tail = &f->grad; /* overloads: matched in lower_module */
  while (*tail)
    tail = &(*tail)->grad_next;
  *tail = g;
  add_func(P, g);
}

/* @wp.func_replay(F) def R(F's parameters): what the adjoint's replay
 * calls instead of F (Note [custom adjoints] in ir/adjoint.c). */
static void func_replay_decorator(Parser *P, Node *d, Pos at) {
  Node *fn = d->kind == N_CALL ? d->args : NULL;
  if (!fn || fn->next || d->kwargs || fn->kind != N_NAME)
    diag_error(P->C, at, "@%s.func_replay takes the function it replays: "
               "@%s.func_replay(f)", P->wp, P->wp);
  Func *f = names_get(&P->C->mod->func_names, fn->name);
  if (!f || f->is_kernel)
    diag_error(P->C, fn->pos, "@%s.func_replay: no @%s.func '%s' above",
               P->wp, P->wp, fn->name);
  if (f->replay && !f->overload)
    diag_error(P->C, at, "@%s.func_replay of '%s', given twice, is not "
               "supported yet (issue #26)", P->wp, fn->name);
  Func *g = funcdef(P, false);
  Func *o = f;
  while (o && o->nparams != g->nparams)
    o = o->overload;
  if (!o)
    diag_error(P->C, g->pos, "the replay '%s' of '%s' takes its %d "
               "parameter(s) (%d given)", g->name, f->name, f->nparams,
               g->nparams);
  Func **tail = &f->replay; /* overloads: matched in lower_module */
  while (*tail)
    tail = &(*tail)->replay_next;
  *tail = g;
  add_func(P, g);
}

/* decorated -> decorator+ (funcdef | classdef) */
static void decorated(Parser *P) {
  int kind = 0; /* 1 kernel, 2 func, 3 struct, 0 other */
  Token *first = peek(P);
  const char *other = NULL; /* the name of an unsupported wp decorator */
  Node *native = NULL;      /* the @wp.func_native(...) call */
  int backward = -1;        /* @wp.kernel(enable_backward=...) */
  while (is_op(peek(P), "@")) {
    next(P);
    Node *d = test(P);
    Node *callee = d->kind == N_CALL ? d->a : d;
    if (is_wp_attr(P, callee, "func_native") && kind == 0) {
      kind = 6;
      native = d;
    } else if (is_wp_attr(P, callee, "func_grad") && kind == 0) {
      kind = 7;
      native = d;
    } else if (is_wp_attr(P, callee, "func_replay") && kind == 0) {
      kind = 8;
      native = d;
    } else if (is_wp_attr(P, callee, "kernel")) {
      kind = 1;
      for (Node *kw = d->kind == N_CALL ? d->kwargs : NULL; kw; kw = kw->next) {
        if (strcmp(kw->name, "enable_backward") != 0)
          continue;
        if (kw->a->kind != N_BOOL)
          diag_error(P->C, kw->a->pos, "enable_backward takes True or False");
        backward = (int)kw->a->ival;
      }
    }
    else if (is_wp_attr(P, callee, "func"))
      kind = 2;
    else if (is_wp_attr(P, callee, "struct"))
      kind = 3;
    else if (is_wp_attr(P, callee, "overload") && kind == 0)
      kind = 5; /* an instantiation of a generic kernel */
    else if (callee->kind == N_ATTR && callee->a->kind == N_NAME &&
             is_wp_name(P, callee->a->name) && kind == 0) {
      kind = 4; /* another wp decorator: func_native, overload, ... */
      other = callee->name;
    }
    expect_newline(P);
  }
  Token *t = peek(P);
  if (kind == 3) {
    if (!is_kw(t, "class"))
      error_at_tok(P, t, "'class' after @wp.struct");
    classdef(P);
    return;
  }
  if (kind == 5 && is_kw(t, "def")) {
    P->stub = true;
    Func *f = funcdef(P, true);
    P->stub = false;
    KernelOverload *o = arena_alloc(P->C, sizeof *o);
    o->kernel = f->name;
    o->pos = first->pos;
    o->stub = f;
    add_kernel_overload(P, o);
    return;
  }
  if (kind == 6) {
    if (!is_kw(t, "def"))
      error_at_tok(P, t, "'def' after @wp.func_native");
    native_decorator(P, native, first->pos);
    return;
  }
  if (kind == 7) {
    if (!is_kw(t, "def"))
      error_at_tok(P, t, "'def' after @wp.func_grad");
    func_grad_decorator(P, native, first->pos);
    return;
  }
  if (kind == 8) {
    if (!is_kw(t, "def"))
      error_at_tok(P, t, "'def' after @wp.func_replay");
    func_replay_decorator(P, native, first->pos);
    return;
  }
  if (kind == 4)
    diag_error(P->C, first->pos, "the Warp decorator @%s.%s is not "
               "supported", P->wp, other);
  if (kind == 1 && is_kw(t, "def")) {
    /* the kernel's tree in an arena of its own (Note [kernel syntax
     * trees] in lower/check.c) */
    Compiler *C = P->C;
    Arena *tree = arena_alloc(C, sizeof *tree);
    tree->block = 4096 - 64;
    tree->next = C->trees;
    C->trees = tree;
    C->tree = tree;
    Func *f = funcdef(P, true);
    C->tree = NULL;
    f->nodes = tree;
    f->enable_backward = backward;
    add_func(P, f);
    return;
  }
  if (kind == 2 && is_kw(t, "def")) {
    add_func(P, funcdef(P, false));
    return;
  }
  if (kind == 1 || kind == 2)
    error_at_tok(P, t, "'def' after the decorator");
  skip_statement(P);
}

/* import_stmt: records the name warp is imported as. */
static void import_stmt(Parser *P) {
  Token *t = next(P);
  if (is_kw(t, "import")) {
    for (;;) {
      Token *n = peek(P);
      if (n->kind != T_NAME)
        break;
      next(P);
      bool is_warp = n->len == 4 && !strncmp(n->text, "warp", 4);
      /* math and numpy: their pure functions and constants may make a
       * module-level value (check_hostval.c) */
      int host = n->len == 4 && !strncmp(n->text, "math", 4) ? 1
                 : n->len == 5 && !strncmp(n->text, "numpy", 5) ? 2 : 0;
      while (is_op(peek(P), ".")) {
        next(P);
        is_warp = false;
        host = 0;
        if (peek(P)->kind == T_NAME)
          next(P);
      }
      const char *as = is_warp ? "warp" : NULL;
      const char *host_as = host == 1 ? "math" : host == 2 ? "numpy" : NULL;
      if (is_kw(peek(P), "as")) {
        next(P);
        Token *a = peek(P);
        if (a->kind == T_NAME) {
          next(P);
          if (is_warp)
            as = arena_strndup(P->C, a->text, (size_t)a->len);
          if (host)
            host_as = arena_strndup(P->C, a->text, (size_t)a->len);
        }
      }
      if (as) {
        P->wp = as;
        if (!is_wp_name(P, as)) {
          if (P->nwp == KERN_WP_ALIASES)
            diag_error(P->C, n->pos, "warp is imported under more than %d "
                       "names; kern keeps %d", KERN_WP_ALIASES, KERN_WP_ALIASES);
          else
            P->wps[P->nwp++] = as;
        }
      }
      if (host == 1)
        P->math = host_as;
      if (host == 2)
        P->np = host_as;
      if (!is_op(peek(P), ","))
        break;
      next(P);
    }
  }
  skip_statement(P);
}

/* Note [module-level values]: Warp captures the value a module-level name
 * has when the kernel is compiled, so `N = 16` or `SCALE = 0.5 * N` at the
 * top of the file can be used in a kernel as a constant.  The right-hand
 * side of such an assignment is host Python and may be anything, so it is
 * parsed only when every token is one a constant expression can contain
 * (numbers, names, attribute dots, arithmetic, calls, parentheses); any
 * other value is recorded without an expression, so that using it in a
 * kernel is an error that names it while defining it is not.  A later
 * assignment to the same name replaces the earlier one, as in Python. */
static bool const_token(Parser *P, Token *t) {
  static const char *const ops[] = {"+", "-", "*", "/", "//", "%", "**",
                                    "<<", ">>", "&", "|", "^", "~", "(",
                                    ")", ".", ",", NULL};
  if (t->kind == T_INT || t->kind == T_FLOAT)
    return true;
  if (t->kind == T_NAME)
    return !is_keyword(t) || is_kw(t, "True") || is_kw(t, "False");
  if (t->kind == T_OP)
    for (int i = 0; ops[i]; i++)
      if (is_op(t, ops[i]))
        return true;
  (void)P;
  return false;
}

/* `{"key": value, ...}` ending at token end: a dict of string keys whose
 * values are constant expressions (Note [module-level values]), which
 * wp.static(D["key"]) can look up (check_fnvalue.c); NULL, consuming
 * nothing, for any other dict.  It is an N_LIST named "dict" whose items
 * are N_KEYWORDs (name the key, a the value). */
static Node *host_dict(Parser *P, int end) {
  int start = P->i;
  /* every token one a constant can hold, a string key or dict syntax */
  for (int k = start; k < end; k++) {
    Token *t = &P->tok[k];
    if (t->kind == T_STRING || is_op(t, ":") ||
        ((is_op(t, "{") || is_op(t, "}")) && (k == start || k == end - 1)))
      continue;
    if (!const_token(P, t))
      return NULL;
  }
  if (!is_op(&P->tok[end - 1], "}"))
    return NULL;
  Node *d = new_node(P, N_LIST, peek(P)->pos);
  d->name = "dict";
  Node head = {0}, *cur = &head;
  next(P);
  while (!is_op(peek(P), "}")) {
    Token *k = peek(P);
    if (k->kind != T_STRING || !is_op(peek2(P), ":")) {
      P->i = start;
      return NULL;
    }
    next(P);
    next(P);
    Node *kw = new_node(P, N_KEYWORD, k->pos);
    kw->name = arena_strndup(P->C, k->str, (size_t)k->slen);
    kw->a = test(P);
    cur = cur->next = kw;
    if (!is_op(peek(P), ","))
      break;
    next(P);
  }
  if (!is_op(peek(P), "}") || P->i != end - 1) {
    P->i = start;
    return NULL;
  }
  next(P);
  d->args = head.next;
  return d;
}

/* At `NAME = ...` on the top level: records NAME as a module-level value
 * and consumes the statement.  Returns false (consuming nothing) when the
 * statement is not a single-name assignment. */
static bool pyglobal_assign(Parser *P, Sym ***ctail) {
  Token *t = peek(P);
  if (t->kind != T_NAME || is_keyword(t) || !is_op(peek2(P), "="))
    return false;
  int end = P->i + 2, depth = 0;
  bool simple = end < P->ntok && P->tok[end].kind != T_NEWLINE;
  for (; end < P->ntok && P->tok[end].kind != T_NEWLINE &&
         P->tok[end].kind != T_EOF; end++) {
    Token *k = &P->tok[end];
    if (k->kind == T_INDENT || k->kind == T_DEDENT)
      break;
    /* keyword arguments: wp.types.vector(length=3, dtype=float) */
    if (!const_token(P, k) && !(depth > 0 && is_op(k, "=")))
      simple = false;
    /* f(*a) is argument unpacking, which the expression parser rejects */
    if ((is_op(k, "*") || is_op(k, "**")) &&
        (is_op(&P->tok[end - 1], "(") || is_op(&P->tok[end - 1], ",")))
      simple = false;
    if (is_op(k, "("))
      depth++;
    else if (is_op(k, ")"))
      depth--;
    else if (is_op(k, ",") && depth == 0)
      simple = false; /* a tuple */
  }
  /* NAME = "text" (a snippet for @wp.func_native); any other value
   * assigned to NAME later hides it */
  if (P->tok[P->i + 2].kind == T_STRING) {
    int k = P->i + 2;
    while (P->tok[k].kind == T_STRING)
      k++;
    if (P->tok[k].kind == T_NEWLINE || P->tok[k].kind == T_EOF) {
      int save = P->i;
      P->i += 2;
      names_put(P->C, &P->strs, arena_strndup(P->C, t->text, (size_t)t->len),
                test(P));
      P->i = save;
    }
  } else if (names_get(&P->strs, arena_strndup(P->C, t->text, (size_t)t->len))) {
    names_put(P->C, &P->strs, arena_strndup(P->C, t->text, (size_t)t->len),
              NULL);
  }
  Sym *s = arena_alloc(P->C, sizeof *s);
  s->kind = SYM_CONST;
  s->pyglobal = true;
  s->name = arena_strndup(P->C, t->text, (size_t)t->len);
  s->pos = t->pos;
  next(P);
  next(P);
  if (!simple && is_op(peek(P), "{")) {
    s->value = host_dict(P, end);
    if (s->value) {
      skip_statement(P);
      **ctail = s;
      *ctail = &s->next;
      return true;
    }
  }
  if (simple) {
    s->value = test(P);
    if (peek(P)->kind != T_NEWLINE && peek(P)->kind != T_EOF)
      s->value = NULL;
  }
  skip_statement(P);
  **ctail = s;
  *ctail = &s->next;
  return true;
}

/* Note [module-level tuple assignment]: `np_type, wp_type = np.float64,
 * wp.float64` binds each name to its own value, as Python does; each value
 * is recorded as a single-name assignment's would be (Note [module-level
 * values]).  A right-hand side that is not a tuple of as many items
 * (`a, b = f()`) records every name without an expression, so that a
 * kernel using one is told it cannot be evaluated.  Returns false,
 * consuming nothing, when the statement is not `NAME, NAME, ... = ...`. */
static bool pyglobal_tuple_assign(Parser *P, Sym ***ctail) {
  enum { MAX_TARGETS = 16 };
  Token *names[MAX_TARGETS];
  int n = 0, k = P->i;
  for (;;) {
    if (P->tok[k].kind != T_NAME || is_keyword(&P->tok[k]) || n == MAX_TARGETS)
      return false;
    names[n++] = &P->tok[k++];
    if (is_op(&P->tok[k], "="))
      break;
    if (!is_op(&P->tok[k], ","))
      return false;
    k++;
  }
  if (n < 2)
    return false;
  /* the items of the right-hand side: [start, end) of each */
  int starts[MAX_TARGETS + 1], nitems = 0, depth = 0;
  bool simple = true;
  starts[nitems++] = ++k;
  for (; P->tok[k].kind != T_NEWLINE && P->tok[k].kind != T_EOF &&
         P->tok[k].kind != T_INDENT && P->tok[k].kind != T_DEDENT; k++) {
    Token *t = &P->tok[k];
    if (!const_token(P, t) && !(depth > 0 && is_op(t, "=")))
      simple = false;
    if (is_op(t, "*") || is_op(t, "**"))
      simple &= !is_op(&P->tok[k - 1], "(") && !is_op(&P->tok[k - 1], ",") &&
                k != starts[nitems - 1];
    depth += is_op(t, "(") - is_op(t, ")");
    if (is_op(t, ",") && depth == 0) {
      if (nitems > MAX_TARGETS)
        simple = false;
      else
        starts[nitems++] = k + 1;
    }
  }
  int end = k;
  simple &= nitems == n && depth == 0;
  for (int i = 0; i < n; i++) {
    Sym *s = arena_alloc(P->C, sizeof *s);
    s->kind = SYM_CONST;
    s->pyglobal = true;
    s->name = arena_strndup(P->C, names[i]->text, (size_t)names[i]->len);
    s->pos = names[i]->pos;
    int stop = i + 1 < nitems ? starts[i + 1] - 1 : end;
    if (simple && starts[i] < stop) {
      P->i = starts[i];
      s->value = test(P);
      if (P->i != stop)
        s->value = NULL;
    }
    **ctail = s;
    *ctail = &s->next;
  }
  P->i = end;
  skip_statement(P);
  return true;
}

/* wp.set_module_options({..., "enable_backward": B, ...}): the one module
 * option kern reads (the others are Warp's build settings); the statement
 * is then skipped as before. */
static void module_options(Parser *P) {
  Token *t = peek(P);
  if (t->kind != T_NAME || !P->wp || t->len != (int)strlen(P->wp) ||
      strncmp(t->text, P->wp, (size_t)t->len) || !is_op(peek2(P), ".") ||
      P->tok[P->i + 2].kind != T_NAME || P->tok[P->i + 2].len != 18 ||
      strncmp(P->tok[P->i + 2].text, "set_module_options", 18))
    return;
  for (int k = P->i + 3; k + 2 < P->ntok && P->tok[k].kind != T_NEWLINE &&
                         P->tok[k].kind != T_EOF; k++) {
    Token *s = &P->tok[k];
    if (s->kind != T_STRING || s->slen != 15 ||
        strncmp(s->str, "enable_backward", 15) || !is_op(&P->tok[k + 1], ":"))
      continue;
    Token *v = &P->tok[k + 2];
    if (!is_kw(v, "True") && !is_kw(v, "False"))
      diag_error(P->C, v->pos, "enable_backward takes True or False");
    P->C->mod->no_backward = is_kw(v, "False");
  }
}

void parse_file(Compiler *C) {
  int ntok;
  Token *toks = lex_file(C, &ntok);
  Parser P = {.C = C, .tok = toks, .ntok = ntok};
  C->mod = arena_alloc(C, sizeof(Module));
  Sym **ctail = &C->mod->consts;

  while (peek(&P)->kind != T_EOF) {
    Token *t = peek(&P);
    if (t->kind == T_NEWLINE) {
      next(&P);
      continue;
    }
    if (t->kind == T_INDENT)
      diag_error(C, t->pos, "unexpected indent");
    if (t->kind == T_DEDENT) {
      next(&P);
      continue;
    }
    if (is_kw(t, "import") || is_kw(t, "from")) {
      import_stmt(&P);
      continue;
    }
    if (is_op(t, "@")) {
      decorated(&P);
      continue;
    }
    if (overload_stmt(&P))
      continue;
    /* NAME = wp.constant(EXPR) */
    if (t->kind == T_NAME && !is_keyword(t) && is_op(peek2(&P), "=") && P.wp) {
      int save = P.i;
      next(&P);
      next(&P);
      Token *v = peek(&P);
      if (v->kind == T_NAME && is_wp_text(&P, v->text, v->len) && is_op(peek2(&P), ".") &&
          P.tok[P.i + 2].kind == T_NAME && P.tok[P.i + 2].len == 8 &&
          !strncmp(P.tok[P.i + 2].text, "constant", 8)) {
        Node *e = test(&P);
        if (e->kind == N_CALL && is_wp_attr(&P, e->a, "constant")) {
          if (!e->args || e->args->next || e->kwargs)
            diag_error(C, e->pos, "wp.constant() takes exactly one argument");
          Sym *s = arena_alloc(C, sizeof *s);
          s->kind = SYM_CONST;
          s->name = arena_strndup(C, t->text, (size_t)t->len);
          s->pos = t->pos;
          s->value = e->args;
          *ctail = s;
          ctail = &s->next;
          expect_newline(&P);
          continue;
        }
      }
      P.i = save;
      if (pyglobal_assign(&P, &ctail))
        continue;
    }
    if (t->kind == T_NAME && is_op(peek2(&P), ",") &&
        pyglobal_tuple_assign(&P, &ctail))
      continue;
    module_options(&P);
    skip_statement(&P);
  }
  /* `f1 = f` at the top level, f a @wp.func: a second name for it, which
   * Warp resolves to the same function (a struct alias is resolved by
   * check_find_struct).  Chains resolve in file order. */
  for (Sym *s = C->mod->consts; s; s = s->next) {
    if (!s->pyglobal || !s->value || s->value->kind != N_NAME ||
        names_get(&C->mod->func_names, s->name))
      continue;
    Func *f = names_get(&C->mod->func_names, s->value->name);
    if (f && !f->is_kernel) {
      names_put(C, &C->mod->func_names, s->name, f);
      /* Python binds the function as it is at this line: a later
       * same-signature definition of f does not reach f1 (check_user_call).
       * Through a chain, the earliest alias line counts. */
      Sym *at = names_get(&C->mod->func_alias_at, s->value->name);
      names_put(C, &C->mod->func_alias_at, s->name, at ? at : s);
    }
  }
  C->mod->wp = P.wp;
  C->mod->nwp = P.nwp;
  memcpy(C->mod->wps, P.wps, sizeof P.wps);
  C->mod->math = P.math;
  C->mod->np = P.np;
  if (!P.wp)
    diag_error(C, (Pos){1, 1, 0}, "the file does not import warp (expected "
                                  "'import warp as wp')");
  /* Nothing after the parser reads a Token (names and strings were
   * copied into the arena). */
  arena_free_tokens(&C->arena);
}

const char *op_text(int op) {
  switch (op) {
  case OP_ADD: return "+";
  case OP_SUB: return "-";
  case OP_MUL: return "*";
  case OP_DIV: return "/";
  case OP_FLOORDIV: return "//";
  case OP_MOD: return "%";
  case OP_POW: return "**";
  case OP_MATMUL: return "@";
  case OP_BITAND: return "&";
  case OP_BITOR: return "|";
  case OP_BITXOR: return "^";
  case OP_SHL: return "<<";
  case OP_SHR: return ">>";
  case OP_NEG: return "-";
  case OP_POS: return "+";
  case OP_INVERT: return "~";
  case OP_LT: return "<";
  case OP_LE: return "<=";
  case OP_GT: return ">";
  case OP_GE: return ">=";
  case OP_EQ: return "==";
  case OP_NE: return "!=";
  case OP_IS: return "is";
  case OP_ISNOT: return "is not";
  case OP_IN: return "in";
  case OP_NOTIN: return "not in";
  }
  return "?";
}
