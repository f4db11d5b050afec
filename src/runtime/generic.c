/*
 * generic.c -- generic kernels instantiated at launch (issue #10).
 *
 * Warp compiles a kernel with typing.Any parameters once for each new
 * signature wp.launch sees.  kern compiles a whole source ahead of time,
 * and a generic kernel is only in the module where a wp.overload() of the
 * source names an instantiation (lower/check_generic.c).  So here a module
 * that has generic kernels keeps its source, and a request for a new
 * signature compiles the source again with one more line, the
 * wp.overload(NAME, [T, ...]) that Warp's user would have written: the
 * compiler then checks the types against the parameters (its messages
 * name the parameter) and instantiates the body, exactly as for an
 * overload in the file.  The result is a module of its own, owned by the
 * first (freed with it), whose instantiation is looked up by its
 * parameter types from then on; the source's other kernels in it are
 * never used.  Compiling the whole source again costs what loading it
 * cost, once per signature, as Warp's per-signature build does.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "common.h"
#include "runtime.h"

void kern__module_disown(kern_module *m) {
  kern_module *o = m->owner;
  if (!o) return;
  for (kern_module **p = &o->instances; *p; p = &(*p)->next_instance)
    if (*p == m) {
      *p = m->next_instance;
      break;
    }
  m->owner = m->next_instance = NULL;
}

static const kc_kernel *find_generic(const kern_module *m, const char *name) {
  for (int i = 0; i < m->code.ngenerics; i++)
    if (!strcmp(m->code.generics[i].name, name)) return &m->code.generics[i];
  return NULL;
}

static bool same_type(kern_type a, kern_type b) {
  return a.kind == b.kind && a.scalar == b.scalar && a.rows == b.rows &&
         a.cols == b.cols;
}

/* Does parameter p have the type t describes? */
static bool param_is(const kc_param *p, const kern_param_info *t) {
  if (p->kind != t->kind) return false;
  if (p->kind != KERN_PARAM_VALUE && p->ndim != t->ndim) return false;
  /* A struct is told by its name: a caller that names it (kern run's
   * S{...}) does not know the size and alignment its kern_type carries. */
  if (p->type.kind == KERN_KIND_STRUCT || t->type.kind == KERN_KIND_STRUCT)
    return p->type.kind == t->type.kind && p->struct_name && t->struct_name &&
           !strcmp(p->struct_name, t->struct_name);
  return same_type(p->type, t->type);
}

/* The instantiation NAME[...] of m whose parameters are types[0..n). */
static kern_kernel *find_instance(kern_module *m, const char *name, int n,
                                  const kern_param_info *types) {
  size_t len = strlen(name);
  for (int i = 0; i < m->code.nkernels; i++) {
    const kc_kernel *k = &m->code.kernels[i];
    int np = k->nparams - (k->fault_param ? 1 : 0);
    if (strncmp(k->name, name, len) || k->name[len] != '[' || np != n)
      continue;
    int j = 0;
    while (j < n && param_is(&k->params[j], &types[j])) j++;
    if (j == n) return &m->kernels[i];
  }
  return NULL;
}

/* Warp's spelling of t as a wp.overload type, prefixed by the name the
 * source imports warp as; false when Warp has no name for it here. */
static bool spell(char *buf, size_t size, const char *wp,
                  const kern_param_info *t) {
  char elem[128], tn[96];
  kern_type ty = t->type;
  bool fl = ty.scalar == KERN_SCALAR_FLOAT32 || ty.scalar == KERN_SCALAR_FLOAT64 ||
            ty.scalar == KERN_SCALAR_FLOAT16;
  const char *suf = ty.scalar == KERN_SCALAR_FLOAT64   ? "d"
                    : ty.scalar == KERN_SCALAR_FLOAT16 ? "h"
                                                       : "";
  if (ty.kind == KERN_KIND_STRUCT) {
    if (!t->struct_name) return false;
    snprintf(elem, sizeof elem, "%s", t->struct_name);
  } else if (fl && ty.kind == KERN_KIND_VECTOR && ty.rows == 6) {
    snprintf(elem, sizeof elem, "%s.spatial_vector%s", wp, suf);
  } else if (fl && ty.kind == KERN_KIND_MATRIX && ty.rows == 6 && ty.cols == 6) {
    snprintf(elem, sizeof elem, "%s.spatial_matrix%s", wp, suf);
  } else {
    kern_type_name(ty, tn, sizeof tn);
    if (strchr(tn, '(') || strchr(tn, '<')) return false;
    snprintf(elem, sizeof elem, "%s.%s", wp, tn);
  }
  if (t->kind == KERN_PARAM_ARRAY || t->kind == KERN_PARAM_INDEXED)
    snprintf(buf, size, "%s.%sarray(dtype=%s, ndim=%d)", wp,
             t->kind == KERN_PARAM_INDEXED ? "indexed" : "", elem, t->ndim);
  else
    snprintf(buf, size, "%s", elem);
  return true;
}

static const char *param_kind_name(const kc_param *p) {
  return p->kind == KERN_PARAM_ARRAY     ? "an array"
         : p->kind == KERN_PARAM_INDEXED ? "an indexed array"
                                         : "a value";
}

/* The parameter types with the declared ones filled in, checked against
 * what each generic parameter admits; the message names the parameter. */
static kern_status resolve(kern_context *ctx, const kc_kernel *g, int n,
                           const kern_param_info *in, kern_param_info *out) {
  if (n != g->nparams)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "the generic kernel '%s' has %d parameters; %d "
                       "argument types were given", g->name, g->nparams, n);
  for (int i = 0; i < n; i++) {
    const kc_param *p = &g->params[i];
    out[i] = in[i];
    if (!p->generic) {
      if (in[i].type.scalar == KERN_SCALAR_COUNT) {
        out[i].kind = p->kind;
        out[i].type = p->type;
        out[i].ndim = p->ndim;
        out[i].struct_name = p->struct_name;
      } else if (!param_is(p, &in[i])) {
        char want[96], got[96];
        kern_type_name(p->type, want, sizeof want);
        kern_type_name(in[i].type, got, sizeof got);
        return kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,
                           "parameter %d '%s' of '%s' is not generic: it is "
                           "%s of %s, got %s of %s", i + 1, p->name, g->name,
                           param_kind_name(p), want,
                           in[i].kind == KERN_PARAM_ARRAY     ? "an array"
                           : in[i].kind == KERN_PARAM_INDEXED ? "an indexed array"
                                                              : "a value",
                           got);
      }
      continue;
    }
    if (in[i].type.scalar == KERN_SCALAR_COUNT)
      return kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,
                         "parameter %d '%s' of '%s' is generic (typing.Any): "
                         "its type must be given", i + 1, p->name, g->name);
    if (p->kind != KERN_PARAM_VALUE &&
        (in[i].kind != p->kind || in[i].ndim != p->ndim))
      return kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,
                         "parameter %d '%s' of '%s' is a %d-d %s of any "
                         "type, got %s", i + 1, p->name, g->name, p->ndim,
                         p->kind == KERN_PARAM_INDEXED ? "indexed array"
                                                       : "array",
                         in[i].kind == p->kind ? "one of another dimension"
                         : in[i].kind == KERN_PARAM_VALUE ? "a value"
                         : in[i].kind == KERN_PARAM_INDEXED
                             ? "an indexed array" : "an array");
  }
  return KERN_SUCCESS;
}

static kern_status instantiate(kern_module *m, const kc_kernel *g,
                               const kern_param_info *types,
                               kern_kernel **out) {
  kern_context *ctx = m->ctx;
  int n = g->nparams;
  kern_kernel *k = find_instance(m, g->name, n, types);
  for (kern_module *c = m->instances; c && !k; c = c->next_instance)
    if (!c->variant_block) /* Note [block specialisation] in module.c */
      k = find_instance(c, g->name, n, types);
  if (k) {
    *out = k->h;
    return KERN_SUCCESS;
  }
  if (!m->source)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "'%s': the generic kernel '%s' cannot be instantiated "
                       "here (the module keeps no source)", m->name, g->name);
  const char *wp = m->code.wp_alias ? m->code.wp_alias : "wp";
  size_t cap = strlen(wp) + strlen(g->name) + 32 + (size_t)n * 320;
  char *line = kern__malloc(cap);
  if (!line)
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "out of memory");
  size_t used = (size_t)snprintf(line, cap, "\n%s.overload(%s, [", wp, g->name);
  for (int i = 0; i < n; i++) {
    char t[300];
    if (!spell(t, sizeof t, wp, &types[i])) {
      char tn[96];
      kern_type_name(types[i].type, tn, sizeof tn);
      kern__free(line);
      return kern__error(ctx, KERN_ERROR_TYPE_MISMATCH,
                         "parameter %d '%s' of '%s': kern cannot instantiate "
                         "it for %s%s", i + 1, g->params[i].name, g->name, tn,
                         types[i].type.kind == KERN_KIND_STRUCT
                             ? " (give the struct's name in struct_name)" : "");
    }
    used += (size_t)snprintf(line + used, cap - used, "%s%s", i ? ", " : "", t);
  }
  used += (size_t)snprintf(line + used, cap - used, "])\n");
  char *src = kern__malloc(m->source_len + used + 1);
  if (!src) {
    kern__free(line);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  memcpy(src, m->source, m->source_len);
  memcpy(src + m->source_len, line, used + 1);
  const kern_backend *be = kern__device_backend(ctx, m->dev, NULL, NULL);
  kc_options opts = {kern__debug_enabled(ctx),
                     be && be->target == KERN_TARGET_CUDA, 0,
                     ctx->opts.no_native, 0, kern__expand_enabled(), NULL, 0,
                     be ? kern__target_block(be->target) : 0};
  kc_result code;
  memset(&code, 0, sizeof code);
  kern_status st = kern__compile(m->name, src, m->source_len + used,
                                 be ? be->target : KERN_TARGET_C, &opts, &code);
  if (st != KERN_SUCCESS) {
    kern__free(src);
    /* The compiler's message names the parameter a type does not fit. */
    const char *e = code.error ? code.error : kern_status_string(st);
    if (strstr(e, "does not instantiate parameter")) st = KERN_ERROR_TYPE_MISMATCH;
    kern__error(ctx, st, "instantiating the generic kernel '%s' as %.*s "
                         "for a launch: %s", g->name, (int)(used - 2),
                line + 1, e);
    kern__free(line);
    kern__compile_result_free(&code);
    return st;
  }
  kern__free(line);
  kern_module *c;
  st = kern__module_from_code(ctx, m->dev, m->name, &code, &c);
  if (st != KERN_SUCCESS) {
    kern__free(src);
    return st;
  }
  /* its source, with the overload line, is what its kernel's adjoint and
   * tangent are compiled from (runtime/autodiff.c) */
  c->source = src;
  c->source_len = m->source_len + used;
  c->owner = m;
  c->next_instance = m->instances;
  m->instances = c;
  k = find_instance(c, g->name, n, types);
  if (!k)
    return kern__error(ctx, KERN_ERROR_COMPILE, "'%s': the instantiation of "
                       "'%s' is not in the module compiled for it", m->name,
                       g->name);
  *out = k->h;
  return KERN_SUCCESS;
}

/* An ordinary kernel called name, or NULL. */
static kern_kernel *plain_kernel(kern_module *m, const char *name) {
  for (int i = 0; i < m->code.nkernels; i++)
    if (!strcmp(m->code.kernels[i].name, name)) return &m->kernels[i];
  return NULL;
}

static kern_status no_generic(kern_module *m, const char *name) {
  return kern__error(m->ctx, KERN_ERROR_NOT_FOUND,
                     "'%s' has no generic kernel '%s'", m->name, name);
}

kern_status kern_module_instantiate_types(kern_module *h, const char *name,
                                          int n, const kern_param_info *types,
                                          kern_kernel **out) {
  kern_module *m = kern__module_enter(h);
  if (!m) return KERN_ERROR_INVALID_HANDLE;
  if (!name || !out || (n > 0 && !types) || n < 0)
    return kern__error(m->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_module_instantiate_types: %s",
                       !name ? "name is NULL" : !out ? "out is NULL"
                       : n < 0 ? "n is negative" : "types is NULL");
  kern_kernel *k = plain_kernel(m, name);
  if (k) {
    *out = k->h;
    return KERN_SUCCESS;
  }
  const kc_kernel *g = find_generic(m, name);
  if (!g) return no_generic(m, name);
  kern_param_info *in = kern__calloc((size_t)(n ? n : 1), sizeof *in);
  kern_param_info *res = kern__calloc((size_t)(n ? n : 1), sizeof *res);
  kern_status st = in && res ? KERN_SUCCESS
                             : kern__error(m->ctx, KERN_ERROR_OUT_OF_MEMORY,
                                           "out of memory");
  /* the caller's array is stepped by its own struct size, as kern_arg's */
  size_t stride = n ? types[0].struct_size : sizeof *types;
  for (int i = 0; i < n && st == KERN_SUCCESS; i++) {
    const kern_param_info *t =
        (const kern_param_info *)((const char *)types + (size_t)i * stride);
    in[i].struct_size = sizeof in[i];
    if (stride < KERN_PARAM_INFO_SIZE_V1 ||
        kern__struct_in(&in[i], sizeof in[i], t, KERN_PARAM_INFO_SIZE_V1) !=
            KERN_SUCCESS)
      st = kern__error(m->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_module_instantiate_types: types[%d].struct_size "
                       "is %zu, not the size of any version of "
                       "kern_param_info (set it with KERN_PARAM_INFO_INIT)",
                       i, t->struct_size);
  }
  if (st == KERN_SUCCESS) st = resolve(m->ctx, g, n, in, res);
  if (st == KERN_SUCCESS) st = instantiate(m, g, res, out);
  kern__free(in);
  kern__free(res);
  return st;
}

kern_status kern_module_instantiate(kern_module *h, const char *name,
                                    int nargs, const kern_arg *args,
                                    kern_kernel **out) {
  kern_module *m = kern__module_enter(h);
  if (!m) return KERN_ERROR_INVALID_HANDLE;
  if (!name || !out || (nargs > 0 && !args) || nargs < 0)
    return kern__error(m->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_module_instantiate: %s",
                       !name ? "name is NULL" : !out ? "out is NULL"
                       : nargs < 0 ? "nargs is negative" : "args is NULL");
  kern_kernel *k = plain_kernel(m, name);
  if (k) {
    *out = k->h;
    return KERN_SUCCESS;
  }
  const kc_kernel *g = find_generic(m, name);
  if (!g) return no_generic(m, name);
  size_t stride = nargs ? args[0].struct_size : sizeof(kern_arg);
  if (nargs && stride < KERN_ARG_SIZE_V1)
    return kern__error(m->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_module_instantiate: args[0].struct_size is %zu "
                       "(build arguments with kern_arg_array and the like)",
                       stride);
  kern_param_info *t = kern__calloc((size_t)(nargs ? nargs : 1), sizeof *t);
  kern_param_info *res = kern__calloc((size_t)(nargs ? nargs : 1), sizeof *res);
  kern_status st = t && res ? KERN_SUCCESS
                            : kern__error(m->ctx, KERN_ERROR_OUT_OF_MEMORY,
                                          "out of memory");
  for (int i = 0; i < nargs && st == KERN_SUCCESS; i++) {
    const kern_arg *a = (const kern_arg *)((const char *)args + (size_t)i * stride);
    const kc_param *p = i < g->nparams ? &g->params[i] : NULL;
    t[i].struct_size = sizeof t[i];
    t[i].kind = KERN_PARAM_VALUE;
    t[i].type.kind = KERN_KIND_SCALAR;
    t[i].type.rows = t[i].type.cols = 1;
    t[i].type.scalar = KERN_SCALAR_COUNT; /* the declared type */
    if (p && !p->generic) continue; /* kern_launch checks the argument */
    switch ((int)a->kind) { /* appended kinds are macros */
    case KERN_ARG_ARRAY:
      if (kern_array_ndim(a->u.array) == 0) {
        st = kern__error(m->ctx, KERN_ERROR_INVALID_HANDLE,
                         "argument %d '%s' of '%s': not a live array", i + 1,
                         p ? p->name : "?", name);
        break;
      }
      t[i].kind = KERN_PARAM_ARRAY;
      t[i].type = kern_array_type(a->u.array);
      t[i].ndim = kern_array_ndim(a->u.array);
      if (t[i].type.kind == KERN_KIND_STRUCT)
        st = kern__error(m->ctx, KERN_ERROR_TYPE_MISMATCH,
                         "argument %d '%s' of '%s': an array of structs does "
                         "not say which struct; instantiate with "
                         "kern_module_instantiate_types", i + 1,
                         p ? p->name : "?", name);
      break;
    case KERN_ARG_INT:
      t[i].type.scalar = KERN_SCALAR_INT32;
      break;
    case KERN_ARG_FLOAT:
      t[i].type.scalar = KERN_SCALAR_FLOAT32;
      break;
    case KERN_ARG_INDEXED: { /* the data array's type */
      kern_indexed ia = KERN_INDEXED_INIT;
      if (!a->u.data ||
          kern__struct_in(&ia, sizeof ia, a->u.data, KERN_INDEXED_SIZE_V1) !=
              KERN_SUCCESS ||
          kern_array_ndim(ia.data) == 0) {
        st = kern__error(m->ctx, KERN_ERROR_INVALID_HANDLE,
                         "argument %d '%s' of '%s': not an indexed array of "
                         "a live data array", i + 1, p ? p->name : "?", name);
        break;
      }
      t[i].kind = KERN_PARAM_INDEXED;
      t[i].type = kern_array_type(ia.data);
      t[i].ndim = kern_array_ndim(ia.data);
      if (t[i].type.kind == KERN_KIND_STRUCT)
        st = kern__error(m->ctx, KERN_ERROR_TYPE_MISMATCH,
                         "argument %d '%s' of '%s': an indexed array of "
                         "structs does not say which struct; instantiate "
                         "with kern_module_instantiate_types", i + 1,
                         p ? p->name : "?", name);
      break;
    }
    default:
      st = kern__error(m->ctx, KERN_ERROR_TYPE_MISMATCH,
                       "argument %d '%s' of '%s' is raw bytes, which do not "
                       "say what type the generic parameter takes; "
                       "instantiate with kern_module_instantiate_types",
                       i + 1, p ? p->name : "?", name);
    }
  }
  if (st == KERN_SUCCESS) st = resolve(m->ctx, g, nargs, t, res);
  if (st == KERN_SUCCESS) st = instantiate(m, g, res, out);
  kern__free(t);
  kern__free(res);
  return st;
}

int kern_module_generic_param_count(const kern_module *h, const char *name) {
  const kern_module *m = kern__handle_get(h, KERN__H_MODULE);
  const kc_kernel *g = m && name ? find_generic(m, name) : NULL;
  return g ? g->nparams : -1;
}

kern_status kern_module_generic_param(const kern_module *h, const char *name,
                                      int i, kern_param_info *out) {
  kern_module *m = kern__module_enter(h);
  if (!m) return KERN_ERROR_INVALID_HANDLE;
  if (!name || !out)
    return kern__error(m->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_module_generic_param: %s is NULL",
                       name ? "out" : "name");
  if (kern__struct_check_out(out, KERN_PARAM_INFO_SIZE_V1) != KERN_SUCCESS)
    return kern__error(m->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kern_module_generic_param: out->struct_size is %zu, "
                       "not the size of any version of kern_param_info",
                       out->struct_size);
  const kc_kernel *g = find_generic(m, name);
  if (!g) return no_generic(m, name);
  if (i < 0 || i >= g->nparams)
    return kern__error(m->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "the generic kernel '%s' has %d parameters; there is "
                       "no parameter %d", name, g->nparams, i);
  const kc_param *p = &g->params[i];
  kern_param_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  pi.name = p->name;
  pi.kind = p->kind;
  pi.type = p->type;
  pi.ndim = p->kind != KERN_PARAM_VALUE ? p->ndim : 0;
  pi.struct_name = p->struct_name;
  pi.type_name = p->type_name;
  kern__struct_out(out, &pi, sizeof pi);
  return KERN_SUCCESS;
}
