/*
 * config.c -- where the default device comes from.
 *
 * kern_device_find(ctx, NULL) uses, in order: $KERN_DEVICE, the `device`
 * key of the config file ($XDG_CONFIG_HOME/kern/config, else
 * ~/.config/kern/config), else "auto".  The environment wins so that one
 * command can override a user's standing choice.  The file holds one
 * `key = value` a line; blank lines and lines starting with '#' are skipped.
 * Anything else -- a line without '=', an unknown key, an empty value -- is
 * an error naming path:line, because a silently ignored setting is how a job
 * ends up on the wrong device.  A missing file is not an error.
 *
 * The file is read on each call: it is a few bytes, and a long-lived process
 * then follows edits without a restart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "runtime.h"

static void copy_out(char *dst, size_t size, const char *src) {
  if (dst && size) snprintf(dst, size, "%s", src);
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
               s[n - 1] == '\r'))
    s[--n] = 0;
  return s;
}

static int config_path(char *buf, size_t size) {
  const char *x = getenv("XDG_CONFIG_HOME");
  int n;
  if (x && *x == '/') n = snprintf(buf, size, "%s/kern/config", x);
  else if ((x = getenv("HOME")) && *x)
    n = snprintf(buf, size, "%s/.config/kern/config", x);
  else return 0;
  return n > 0 && (size_t)n < size;
}

kern_status kern_device_choice(kern_context *hctx, char *name,
                               size_t name_size, char *origin,
                               size_t origin_size) {
  kern_context *ctx = kern__ctx_enter(hctx);
  if (!ctx) return KERN_ERROR_INVALID_HANDLE;
  const char *env = getenv("KERN_DEVICE");
  if (env && *env) {
    copy_out(name, name_size, env);
    copy_out(origin, origin_size, "KERN_DEVICE");
    return KERN_SUCCESS;
  }
  char path[4096];
  FILE *f = config_path(path, sizeof path) ? fopen(path, "r") : NULL;
  if (!f) {
    copy_out(name, name_size, "auto");
    copy_out(origin, origin_size, "default");
    return KERN_SUCCESS;
  }
  char line[1024], device[256] = "";
  int lineno = 0, device_line = 0;
  kern_status st = KERN_SUCCESS;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (!strchr(line, '\n') && !feof(f)) {
      st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s:%d: line is longer than %zu bytes", path, lineno,
                       sizeof line - 2);
      break;
    }
    char *p = trim(line);
    if (!*p || *p == '#') continue;
    char *eq = strchr(p, '=');
    if (!eq) {
      st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s:%d: expected 'key = value', got '%s'", path,
                       lineno, p);
      break;
    }
    *eq = 0;
    char *key = trim(p), *value = trim(eq + 1);
    if (strcmp(key, "device") != 0) {
      st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s:%d: unknown key '%s' (known keys: device)", path,
                       lineno, key);
      break;
    }
    if (!*value || strlen(value) >= sizeof device) {
      st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s:%d: 'device' needs a value such as cpu, cuda:1, "
                       "opencl:0 or auto",
                       path, lineno);
      break;
    }
    snprintf(device, sizeof device, "%s", value);
    device_line = lineno;
  }
  fclose(f);
  if (st != KERN_SUCCESS) return st;
  if (!device_line) {
    copy_out(name, name_size, "auto");
    copy_out(origin, origin_size, "default");
    return KERN_SUCCESS;
  }
  copy_out(name, name_size, device);
  if (origin && origin_size)
    snprintf(origin, origin_size, "%s:%d", path, device_line);
  return KERN_SUCCESS;
}
