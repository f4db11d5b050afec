/*
 * types.c -- value types.
 *
 * Types are small structs compared structurally with ty_eq(); scalars are
 * static, composite types live in the arena.  Names follow Warp's spelling
 * so messages read like Warp's documentation.
 */
#include <string.h>
#include "base.h"

const Type ty_void = {.kind = TY_VOID};
const Type ty_module = {.kind = TY_MODULE};
const Type ty_string = {.kind = TY_STRING};
const Type ty_any = {.kind = TY_ANY};

static const Type scalars[KERN_SCALAR_COUNT] = {
#define S(x) {.kind = TY_SCALAR, .sc = x, .rows = 1, .cols = 1}
    S(KERN_SCALAR_BOOL),   S(KERN_SCALAR_INT8),   S(KERN_SCALAR_INT16),   S(KERN_SCALAR_INT32),
    S(KERN_SCALAR_INT64),  S(KERN_SCALAR_UINT8),  S(KERN_SCALAR_UINT16),  S(KERN_SCALAR_UINT32),
    S(KERN_SCALAR_UINT64), S(KERN_SCALAR_FLOAT32), S(KERN_SCALAR_FLOAT64),
    S(KERN_SCALAR_FLOAT16), S(KERN_SCALAR_BFLOAT16),
#undef S
};

const Type *ty_scalar(kern_scalar sc) { return &scalars[sc]; }

const Type *ty_vec(Compiler *C, kern_scalar sc, int n) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_VEC;
  t->sc = sc;
  t->rows = n;
  t->cols = 1;
  return t;
}

/* A quaternion is a 4-vector to the emitters' loops, but its own type:
 * quat * quat is the Hamilton product, and it never equals a vec4. */
const Type *ty_quat(Compiler *C, kern_scalar sc) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_VEC;
  t->sc = sc;
  t->rows = 4;
  t->cols = 1;
  t->quat = true;
  return t;
}

/* A transform is 7 components to the emitters: p (0..2), then q (3..6),
 * Warp's transform_t layout. */
const Type *ty_xform(Compiler *C, kern_scalar sc) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_VEC;
  t->sc = sc;
  t->rows = 7;
  t->cols = 1;
  t->xform = true;
  return t;
}

const Type *ty_mat(Compiler *C, kern_scalar sc, int rows, int cols) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_MAT;
  t->sc = sc;
  t->rows = rows;
  t->cols = cols;
  return t;
}

const Type *ty_array(Compiler *C, const Type *elem, int ndim) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_ARRAY;
  t->elem = elem;
  t->ndim = ndim;
  t->sc = elem->sc;
  return t;
}

const Type *ty_array_view(Compiler *C, const Type *elem, int ndim) {
  Type *t = (Type *)ty_array(C, elem, ndim);
  t->strided = true;
  return t;
}

const Type *ty_indexed(Compiler *C, const Type *elem, int ndim) {
  Type *t = (Type *)ty_array(C, elem, ndim);
  t->indexed = true;
  return t;
}

bool ty_is_generic(const Type *t) {
  return t->kind == TY_ANY || (t->kind == TY_ARRAY && t->elem->kind == TY_ANY);
}

const Type *ty_tuple(Compiler *C, int n, const Type **items) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_TUPLE;
  t->n = n;
  t->items = items;
  return t;
}

const Type *ty_typeval(Compiler *C, const Type *of) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_TYPE;
  t->elem = of;
  return t;
}

const Type *ty_shape(Compiler *C, const Type *arr) {
  Type *t = arena_alloc(C, sizeof *t);
  t->kind = TY_SHAPE;
  t->elem = arr;
  t->ndim = arr->ndim;
  return t;
}

bool ty_eq(const Type *a, const Type *b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  switch (a->kind) {
  case TY_SCALAR:
    return a->sc == b->sc && a->tstack == b->tstack;
  case TY_VEC:
  case TY_MAT:
    return a->sc == b->sc && a->rows == b->rows && a->cols == b->cols &&
           a->quat == b->quat && a->xform == b->xform;
  case TY_ARRAY:
    if (a->tile || b->tile) {
      if (a->tile != b->tile || a->ndim != b->ndim)
        return false;
      for (int k = 0; k < a->ndim; k++)
        if (a->fdims[k] != b->fdims[k])
          return false;
    }
    return a->ndim == b->ndim && a->indexed == b->indexed &&
           a->priv == b->priv && ty_eq(a->elem, b->elem);
  case TY_STRUCT:
    return false; /* one Type per struct: equal only to itself */
  case TY_TUPLE:
    if (a->n != b->n)
      return false;
    for (int i = 0; i < a->n; i++)
      if (!ty_eq(a->items[i], b->items[i]))
        return false;
    return true;
  default:
    return true;
  }
}

bool sc_is_int(kern_scalar s) { return s >= KERN_SCALAR_INT8 && s <= KERN_SCALAR_UINT64; }
bool sc_is_signed(kern_scalar s) { return s >= KERN_SCALAR_INT8 && s <= KERN_SCALAR_INT64; }
bool sc_is_float(kern_scalar s) {
  return s == KERN_SCALAR_FLOAT32 || s == KERN_SCALAR_FLOAT64 || sc_is_lowp(s);
}
/* float16 and bfloat16: stored in 2 bytes, computed in float32 and rounded
 * after every operation, as Warp does (emit/half.c). */
bool sc_is_lowp(kern_scalar s) {
  return s == KERN_SCALAR_FLOAT16 || s == KERN_SCALAR_BFLOAT16;
}
int sc_bits(kern_scalar s) {
  static const int bits[] = {8, 8, 16, 32, 64, 8, 16, 32, 64, 32, 64, 16, 16};
  return bits[s];
}
bool ty_is_scalar(const Type *t) { return t->kind == TY_SCALAR; }
bool ty_is_int(const Type *t) { return t->kind == TY_SCALAR && sc_is_int(t->sc); }
bool ty_is_float(const Type *t) { return t->kind == TY_SCALAR && sc_is_float(t->sc); }
bool ty_is_bool(const Type *t) { return t->kind == TY_SCALAR && t->sc == KERN_SCALAR_BOOL; }
bool ty_is_value(const Type *t) {
  return t->kind == TY_SCALAR || t->kind == TY_VEC || t->kind == TY_MAT;
}

kern_type ty_to_kern(const Type *t) {
  kern_type k;
  k.scalar = t->sc;
  k.kind = t->kind == TY_VEC ? KERN_KIND_VECTOR
           : t->kind == TY_MAT ? KERN_KIND_MATRIX : KERN_KIND_SCALAR;
  k.rows = t->kind == TY_SCALAR ? 1 : t->rows;
  k.cols = t->kind == TY_MAT ? t->cols : 1;
  if (t->kind == TY_STRUCT) {
    k.kind = KERN_KIND_STRUCT;
    k.scalar = KERN_SCALAR_UINT8;
    k.rows = (int)ty_size(t);
    k.cols = (int)ty_align(t);
  }
  return k;
}

const char *ty_name(Compiler *C, const Type *t) {
  char buf[64] = "";
  if (t->tstack) /* a tile stack's handle: its name says which */
    return t->name;
  switch (t->kind) {
  case TY_VOID: return "None";
  case TY_VEC:
    if (t->quat)
      return t->sc == KERN_SCALAR_FLOAT64 ? "quatd"
             : t->sc == KERN_SCALAR_FLOAT16 ? "quath" : "quat";
    if (t->xform)
      return t->sc == KERN_SCALAR_FLOAT64 ? "transformd"
             : t->sc == KERN_SCALAR_FLOAT16 ? "transformh" : "transform";
    break;
  default:
    break;
  }
  switch (t->kind) {
  case TY_VOID: return "None";
  case TY_STRUCT: return t->name;
  case TY_SCALAR:
  case TY_VEC:
  case TY_MAT:
    kern_type_name(ty_to_kern(t), buf, sizeof buf);
    return arena_strndup(C, buf, strlen(buf));
  case TY_ARRAY:
    if (t->tile) {
      Buf b;
      buf_init(&b, C);
      buf_printf(&b, "tile(dtype=%s, shape=(", ty_name(C, t->elem));
      for (int k = 0; k < t->ndim; k++)
        buf_printf(&b, "%s%d", k ? ", " : "", t->fdims[k]);
      buf_puts(&b, t->ndim == 1 ? ",))" : "))");
      return b.p;
    }
    if (t->ndim == 1)
      return arena_printf(C, "%sarray(dtype=%s)", t->indexed ? "indexed" : "",
                          ty_name(C, t->elem));
    return arena_printf(C, "%sarray(dtype=%s, ndim=%d)",
                        t->indexed ? "indexed" : "", ty_name(C, t->elem),
                        t->ndim);
  case TY_TUPLE: {
    Buf b;
    buf_init(&b, C);
    buf_puts(&b, "tuple(");
    for (int i = 0; i < t->n; i++)
      buf_printf(&b, "%s%s", i ? ", " : "", ty_name(C, t->items[i]));
    buf_puts(&b, ")");
    return b.p;
  }
  case TY_SHAPE: return "shape";
  case TY_MODULE: return "module";
  case TY_TYPE: return arena_printf(C, "type %s", ty_name(C, t->elem));
  case TY_FUNC: return "function";
  case TY_STRING: return "str";
  case TY_ANY: return t->name ? t->name : "Any";
  }
  return "?";
}
