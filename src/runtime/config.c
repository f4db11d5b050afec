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
 *
 * Every command that picks the default device reads the file, so whatever
 * sits at its path must not stop them: it is opened with O_NONBLOCK (a FIFO
 * would otherwise block the open until a writer came, forever) and must be
 * a regular file; a directory or anything else there is an error naming the
 * path, as cache.c treats its entries.  The file is read whole, so a NUL
 * byte is reported as one, with its line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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
  int have = config_path(path, sizeof path);
  int fd = have ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
  if (fd < 0 && (!have || errno == ENOENT || errno == ENOTDIR)) {
    copy_out(name, name_size, "auto");
    copy_out(origin, origin_size, "default");
    return KERN_SUCCESS;
  }
  if (fd < 0)
    return kern__error(ctx, KERN_ERROR_IO, "cannot open the config file "
                       "'%s': %s", path, strerror(errno));
  /* The file whole, plus one byte to tell a file over the limit. */
  enum { MAX = 64 * 1024 };
  struct stat sb;
  char *buf = NULL;
  ssize_t len = 0;
  kern_status st = KERN_SUCCESS;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))
    st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                     "the config file '%s' is %s, not a regular file", path,
                     S_ISDIR(sb.st_mode) ? "a directory"
                     : S_ISFIFO(sb.st_mode) ? "a FIFO"
                                            : "a special file");
  else if (!(buf = kern__malloc(MAX + 1)))
    st = kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                     "reading '%s': out of memory", path);
  while (st == KERN_SUCCESS && len <= MAX) {
    ssize_t n = read(fd, buf + len, (size_t)(MAX + 1 - len));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      st = kern__error(ctx, KERN_ERROR_IO, "cannot read '%s': %s", path,
                       strerror(errno));
    if (n <= 0) break;
    len += n;
  }
  close(fd);
  if (st == KERN_SUCCESS && len > MAX)
    st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                     "the config file '%s' is longer than %d bytes", path,
                     MAX);
  char line[1024], device[256] = "";
  int lineno = 0, device_line = 0;
  for (ssize_t at = 0; st == KERN_SUCCESS && at < len;) {
    lineno++;
    const char *end = memchr(buf + at, '\n', (size_t)(len - at));
    size_t n = end ? (size_t)(end - (buf + at)) : (size_t)(len - at);
    const char *nul = memchr(buf + at, 0, n);
    if (nul) {
      st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s:%d:%d: a NUL byte (a config file is text)", path,
                       lineno, (int)(nul - (buf + at)) + 1);
      break;
    }
    if (n >= sizeof line) {
      st = kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "%s:%d: line is longer than %zu bytes", path, lineno,
                       sizeof line - 1);
      break;
    }
    memcpy(line, buf + at, n);
    line[n] = 0;
    at += (ssize_t)n + 1;
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
  kern__free(buf);
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
