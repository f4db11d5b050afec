/*
 * lang.h -- the front end: lexer, parser, AST.
 *
 *   lex.c       Python tokens with INDENT/DEDENT and positions
 *   parse.c     recursive descent over the supported subset; other top-level
 *               statements are skipped
 *
 * The arena, diagnostics, types, operator codes and builtin ids the front
 * end uses live one floor down in base/base.h, shared with the IR and the
 * emitters.  The checker, which types the AST and lowers it to the IR in
 * the same walk, is lower/check.c (see lower/lower.h).
 *
 * The front end reports the first error only: diag_error() longjmps to the
 * compilation's entry point (kern__compile), which frees the arena.
 */
#ifndef KERN_LANG_H
#define KERN_LANG_H

#include <stdbool.h>
#include <stdint.h>
#include "base.h"

/* ---------------------------------------------------------------- lexer */

typedef enum TokKind {
  T_EOF,
  T_NEWLINE,
  T_INDENT,
  T_DEDENT,
  T_NAME,
  T_INT,
  T_FLOAT,
  T_STRING,
  T_OP
} TokKind;

/* 40 bytes, not 64: the parser holds every token of the file at once,
 * which was the largest part of a compilation's peak for a file of many
 * small kernels (issue #23, item 9). */
typedef struct Token {
  TokKind kind;
  Pos pos;
  const char *text; /* points into the source */
  int len;
  int slen;         /* T_STRING: the length of str */
  union {
    uint64_t ival;  /* T_INT */
    double fval;    /* T_FLOAT */
    char *str;      /* T_STRING: decoded contents (arena) */
  };
} Token;

/* Tokenizes the whole file into C->arena; the array ends with T_EOF. */
Token *lex_file(Compiler *C, int *ntok);
const char *tok_kind_name(TokKind k);

/* ---------------------------------------------------------------- AST */

typedef enum NodeKind {
  /* expressions */
  N_INT,
  N_FLOAT,
  N_BOOL,
  N_STR,
  N_NONE,
  N_NAME,
  N_ATTR,      /* a.name */
  N_SUBSCRIPT, /* a[args] */
  N_CALL,      /* a(args, kwargs) */
  N_KEYWORD,   /* name=a (in kwargs) */
  N_BINOP,     /* a op b */
  N_UNOP,      /* op a */
  N_AND,       /* a and b */
  N_OR,        /* a or b */
  N_NOT,
  N_COMPARE,   /* a op0 args[0] op1 args[1] ...; ops in `ops` */
  N_IFEXP,     /* b if a else c */
  N_TUPLE,     /* args */
  N_LIST,      /* unsupported, reported by the checker */
  /* statements */
  N_EXPR,
  N_ASSIGN,    /* targets (list in args) = a */
  N_AUGASSIGN, /* args = target, op, a */
  N_ANNASSIGN, /* target: annotation = a */
  N_IF,        /* if a: body else: orelse */
  N_FOR,       /* for target(b) in a: body */
  N_WHILE,
  N_BREAK,
  N_CONTINUE,
  N_RETURN,
  N_PASS,
  N_ASSERT,
  N_UNSUPPORTED, /* a statement kern does not support; name says which */
  N_SLICE,      /* lower:upper:step inside [...]: a, b, c, each NULL when
                   omitted (an expression, only in subscripts) */
  N_STARRED     /* *a, a positional call argument to unpack */
} NodeKind;

typedef struct Node Node;
typedef struct Sym Sym;
typedef struct Func Func;

struct Node {
  NodeKind kind;
  Pos pos;
  Node *next;
  Node *a, *b, *c;
  Node *args;   /* list */
  Node *kwargs; /* list of N_KEYWORD */
  Node *body, *orelse;
  const char *name;
  int depth;    /* height of the expression tree below, bounded by the parser */
  int op;       /* operator code, see OP_* */
  int *ops;     /* N_COMPARE */
  uint64_t ival;
  double fval;
  char *str;
  int slen;
  /* filled by the checker */
  const Type *ty;
  Sym *sym;        /* N_NAME resolved to a variable/param/constant */
  int builtin;     /* N_CALL of a builtin: its id (BI_*); -1 none */
  Func *func;      /* N_CALL of a user function */
  const Type *cast;/* N_CALL constructor: the type constructed */
  int atomic_add;  /* N_AUGASSIGN to an array element: atomic */
};

/* The source spelling of an operator code (OP_* in base.h). */
const char *op_text(int op);

typedef enum SymKind { SYM_LOCAL, SYM_PARAM, SYM_CONST } SymKind;

struct Sym {
  SymKind kind;
  const char *name;
  const Type *ty;
  Pos pos;
  int index;        /* param index; local ordinal */
  Sym *next;
  Node *value;      /* SYM_CONST: folded value node */
  bool pyglobal;     /* SYM_CONST from `NAME = EXPR` (no wp.constant) */
  int order;         /* SYM_CONST: position among the module's constants */
  Sym *shadowed;     /* SYM_CONST: the earlier definition of the name */
  bool assigned_in_loop;
  bool written;     /* arrays: stored to; locals: reassigned */
  bool read;
  void *ir;         /* lowering's variable */
  void *host;       /* SYM_CONST: its value as host Python computed it */
};

typedef struct Param {
  const char *name;
  Node *annot;
  Node *defval;     /* default value, or NULL */
  Pos pos;
  const Type *ty;
  Sym *sym;
  bool tile_written; /* a tile the body writes in place (lower/check_tile.c) */
} Param;

struct Func {
  const char *name;
  Pos pos;
  bool is_kernel;
  /* kernels: @wp.kernel(enable_backward=...): 1 True, 0 False, -1 not
   * given (the module's option holds) */
  int enable_backward;
  int nparams;
  Param *params;
  Node *ret_annot;
  const Type *ret;   /* void, value, or tuple */
  Node *body;
  Sym *locals;       /* all locals, in order of first assignment */
  int nlocals;
  int tid_dims;      /* kernels: dims of wp.tid() (0 when unused) */
  bool checked, checking;
  bool used;         /* a kernel calls it */
  Func *overload;    /* @wp.func: the next definition of the same name */
  int overload_index; /* 0 for the first definition, 1, 2 ... */
  Func *next;
  void *ir;
  /* @wp.func_grad(F) (Note [custom adjoints] in ir/adjoint.c): on F, its
   * custom adjoint, a function of F's parameters, adj_ret and then one
   * adjoint__P per parameter P of F (what wp.adjoint[P] names) */
  Func *grad;
  Func *grad_next;   /* the next @wp.func_grad of an overloaded F's name,
                      * each matched to its overload by types (lower) */
  Func *replay;      /* @wp.func_replay(F): on F, what the adjoint's replay
                      * calls instead of F */
  Func *replay_next; /* the next @wp.func_replay of an overloaded F's name */
  /* generics (check_generic.c): a function or kernel with a typing.Any
   * parameter is checked once per signature it is used with */
  bool generic;        /* has Any parameters: never emitted itself */
  Func *instance_of;   /* an instantiation: the generic definition */
  Func *instances;     /* a generic definition: its instantiations */
  Func *next_instance;
  int ninstances;
  /* @wp.func_native (Note [native snippets] in lower/check_native.c): the
   * snippet, emitted verbatim as the body; NULL for other functions */
  const char *native;
  int native_len;
  Pos native_pos;      /* the snippet's string literal */
  /* A kernel's syntax tree, freed once the kernel is checked (Note
   * [kernel syntax trees] in lower/check.c); empty for other functions,
   * whose trees are in C->nodes. */
  Arena *nodes;
};

/* wp.overload(kernel, [T, ...]), wp.overload(kernel, {"name": T}) or an
 * @wp.overload stub: one instantiation of a generic kernel. */
typedef struct KernelOverload {
  const char *kernel;
  Pos pos;
  Node *types;        /* positional: a list of type expressions */
  const char **names; /* by name: names[i] gets types' i-th entry */
  Func *stub;         /* @wp.overload def k(a: T, ...): ... */
  struct KernelOverload *next;
} KernelOverload;

/* A @wp.struct class: its fields in order, typed by the checker. */
typedef struct StructDef {
  const char *name;
  Pos pos;
  int nfields;
  const char **fnames;
  Node **fannots;
  const Type *ty;    /* the checker's type, once resolved */
  bool resolving;
  struct StructDef *next;
} StructDef;

/* The names one file may import warp as (`import warp`, `import warp as
 * wp`, ...). */
enum { KERN_WP_ALIASES = 8 };

typedef struct Module {
  Func *funcs;      /* in source order; kernels and @wp.func */
  StructDef *structs;
  Names func_names; /* the same functions by name */
  Func **funcs_tail; /* where the next function is appended */
  Sym *consts;
  Names const_names; /* the constants by name (the first definition) */
  int nkernels;
  const char *wp;   /* the name warp is imported as (the last import) */
  const char *wps[KERN_WP_ALIASES]; /* every name it is imported as */
  int nwp;
  KernelOverload *kernel_overloads; /* in source order */
  const char *math, *np; /* the names math and numpy are imported as */
  Names func_alias_at; /* alias name -> the Sym of `f1 = f`: a call through
                          it sees only f's definitions above that line */
  /* wp.set_module_options({"enable_backward": False}) in the file */
  bool no_backward;
} Module;

/* parse.c: the whole file into C->mod. */
void parse_file(Compiler *C);

#endif
