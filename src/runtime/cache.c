/*
 * cache.c -- the content-addressed kernel cache.
 *
 * An entry lives at <dir>/<key><ext>, where key is the hex SHA-256 of every
 * input that affects the compiled output (the caller computes it) and ext
 * names the payload kind (".so", ".cubin", ".clbin").
 *
 * Entry format: the payload bytes, unchanged, followed by a 48-byte footer
 *
 *     offset size  field
 *     0      8     magic "KERNSUM1"
 *     8      8     payload length, little-endian
 *     16     32    SHA-256 of the payload
 *
 * A footer rather than a header because the CPU backend dlopens entries in
 * place: the ELF loader finds everything through the headers at the start
 * of the file and ignores bytes after the section table, so an entry is
 * still a loadable shared object.  Truncation shows up as a wrong length or
 * a missing magic, a flipped byte as a wrong digest; either is a miss, and
 * the entry is removed so the caller's rebuild replaces it.
 *
 * Writes go to a mkstemp name in the cache directory and are renamed into
 * place, so readers in other processes see either no entry or a whole one.
 * There is no fsync: after a crash the rename may survive without the data,
 * but the checksum then turns the entry into a miss, which costs one
 * rebuild, whereas an fsync per entry costs every cold compile milliseconds.
 *
 * Note [cache trust]
 * The CPU backend executes what it loads from here, so a cache another user
 * can write to is code execution as us.  The directory must be ours and not
 * writable by group or others (created 0700); otherwise nothing is read
 * from it or written to it.  Refusing it does not fail the load either:
 * the build goes on without a cache, like every other cache problem (Note
 * [cache policy]), and the message that says how to fix the directory is
 * kept in ctx->quiet_note.  Each entry must be a regular file (never followed through a
 * symlink), owned by us and not writable by group or others.  Parent
 * directories are not checked: whoever can rename a parent of our cache
 * directory can already replace $HOME files we trust more than this.
 *
 * Note [loading verified code]
 * The CPU backend must dlopen a path, so "verify, then load" has a window in
 * which the name could be made to point at other bytes.  We narrow and
 * check it: kern__cache_open keeps the descriptor it verified, the backend
 * dlopens the entry's path and then requires that the path still names the
 * verified inode (same st_dev and st_ino), unloading and rebuilding if not.
 * What remains is an attacker who swaps the file in and back out between
 * those two calls; that needs write access to a 0700 directory of ours,
 * i.e. our own uid or root, who can run code as us anyway.  (Loading
 * "/proc/self/fd/N" would close even that gap, but glibc recognises
 * already-loaded objects by name, and descriptor numbers are reused: a later
 * load of a different entry through the same number would silently get the
 * old code.)  The checksum itself defends against accidents -- torn writes,
 * full disks, bit rot -- not against our own user.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common.h"
#include "runtime.h"

#define FOOTER_SIZE 48
static const char footer_magic[8] = {'K', 'E', 'R', 'N', 'S', 'U', 'M', '1'};

/* ---------------------------------------------------------------- the directory */

/* mkdir -p, creating every missing component 0700 (as the XDG base
 * directory spec asks of the directories it makes). */
static int mkdir_p(const char *path) {
  char buf[4096];
  size_t n = strlen(path);
  if (n == 0 || n >= sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(buf, path, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (buf[i] != '/' && buf[i] != 0) continue;
    char c = buf[i];
    buf[i] = 0;
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
    buf[i] = c;
  }
  return 0;
}

kern_status kern__cache_dir(kern_context *ctx, const char **dir) {
  const char *d = ctx->cache_dir;
  if (!d[0])
    return kern__error(ctx, KERN_ERROR_CACHE,
                       "no kernel cache directory: set KERN_CACHE_DIR, "
                       "XDG_CACHE_HOME or HOME");
  struct stat st;
  if (stat(d, &st) != 0) {
    if (errno != ENOENT || mkdir_p(d) != 0)
      return kern__error(ctx, KERN_ERROR_CACHE,
                         "cannot create kernel cache directory '%s': %s", d,
                         strerror(errno));
    /* The umask may have taken bits off 0700 but never added any; set the
     * mode explicitly so a restrictive umask does not lock us out. */
    if (chmod(d, 0700) != 0 || stat(d, &st) != 0)
      return kern__error(ctx, KERN_ERROR_CACHE,
                         "cannot set up kernel cache directory '%s': %s", d,
                         strerror(errno));
  }
  if (!S_ISDIR(st.st_mode))
    return kern__error(ctx, KERN_ERROR_CACHE,
                       "kernel cache path '%s' is not a directory", d);
  if (st.st_uid != geteuid())
    return kern__error(ctx, KERN_ERROR_CACHE,
                       "kernel cache directory '%s' is owned by uid %u, not "
                       "by this user (uid %u); refusing to load compiled "
                       "code from it (see KERN_CACHE_DIR)",
                       d, (unsigned)st.st_uid, (unsigned)geteuid());
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return kern__error(ctx, KERN_ERROR_CACHE,
                       "kernel cache directory '%s' is writable by group or "
                       "others (mode %04o); refusing to load compiled code "
                       "from it: run chmod 700 '%s' or set KERN_CACHE_DIR",
                       d, (unsigned)(st.st_mode & 07777), d);
  *dir = d;
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- entries */

/* Keys are hex digests and extensions short alphanumerics, so an entry name
 * can never climb out of the directory. */
static kern_status entry_path(kern_context *ctx, const char *key,
                              const char *ext, char *out, size_t size) {
  size_t kl = key ? strlen(key) : 0;
  if (kl == 0 || kl > 128 || strspn(key, "0123456789abcdef") != kl)
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kernel cache: malformed key");
  if (!ext || ext[0] != '.' || strlen(ext) > 16 ||
      strspn(ext + 1, "abcdefghijklmnopqrstuvwxyz0123456789") !=
          strlen(ext + 1))
    return kern__error(ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "kernel cache: malformed extension");
  const char *dir;
  kern_status st = kern__cache_dir(ctx, &dir);
  if (st != KERN_SUCCESS) return st;
  int n = snprintf(out, size, "%s/%s%s", dir, key, ext);
  if (n < 0 || (size_t)n >= size)
    return kern__error(ctx, KERN_ERROR_CACHE,
                       "kernel cache: entry path too long under '%s'", dir);
  return KERN_SUCCESS;
}

static int read_full(int fd, void *buf, size_t n) {
  unsigned char *p = buf;
  size_t off = 0;
  while (off < n) {
    ssize_t r = pread(fd, p + off, n - off, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    off += (size_t)r;
  }
  return 0;
}

static int write_full(int fd, const void *buf, size_t n) {
  const unsigned char *p = buf;
  while (n) {
    ssize_t r = write(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

static void make_footer(const void *data, size_t size,
                        unsigned char f[FOOTER_SIZE]) {
  memcpy(f, footer_magic, 8);
  uint64_t len = size;
  for (int i = 0; i < 8; i++) f[8 + i] = (unsigned char)(len >> (8 * i));
  kern__sha256 s;
  kern__sha256_init(&s);
  kern__sha256_update(&s, data, size);
  kern__sha256_final(&s, f + 16);
}

/* Opens and verifies one entry.  Returns KERN_SUCCESS with *fd open and,
 * when data is not NULL, the payload in *data (malloc'd); KERN_ERROR_NOT_FOUND
 * on any kind of miss, removing a bad entry of ours; other errors only for
 * out of memory.  Misses are not recorded as errors: they are normal. */
static kern_status open_verified(kern_context *ctx, const char *path,
                                 int *fd_out, void **data, size_t *size_out) {
  /* O_NONBLOCK: a FIFO (or a device) planted at an entry's path would block
   * a plain open() until someone opened its other end -- forever.  Opened
   * non-blocking it returns at once and fails the regular-file check below.
   * On a regular file the flag changes nothing. */
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    /* ELOOP: a symlink where an entry should be; never follow it. */
    if (errno == ELOOP) unlink(path);
    return KERN_ERROR_NOT_FOUND;
  }
  struct stat st;
  int ours = 0, bad = 1;
  unsigned char *buf = NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) goto miss;
  ours = st.st_uid == geteuid();
  if (!ours || (st.st_mode & (S_IWGRP | S_IWOTH))) goto miss;
  if (st.st_size < FOOTER_SIZE) goto miss;
  size_t total = (size_t)st.st_size, size = total - FOOTER_SIZE;
  buf = kern__malloc(total);
  if (!buf) {
    close(fd);
    return kern__error(ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "kernel cache: out of memory reading '%s'", path);
  }
  if (read_full(fd, buf, total) != 0) goto miss;
  unsigned char want[FOOTER_SIZE];
  make_footer(buf, size, want);
  if (memcmp(want, buf + size, FOOTER_SIZE) != 0) goto miss;
  bad = 0;
  if (data) {
    *data = buf; /* the footer rides along unused; not worth a realloc */
    buf = NULL;
  }
  kern__free(buf);
  *fd_out = fd;
  *size_out = size;
  return KERN_SUCCESS;

miss:
  kern__free(buf);
  close(fd);
  /* A bad entry of ours is removed so that the rebuild's rename is not the
   * only thing standing between us and loading it again.  Someone else's
   * file in our directory (only root could put it there) is left alone;
   * the rebuild renames over it. */
  if (bad && ours) unlink(path);
  return KERN_ERROR_NOT_FOUND;
}

kern_status kern__cache_get(kern_context *ctx, const char *key,
                            const char *ext, void **data, size_t *size,
                            char *path, size_t path_size) {
  char p[4096 + 160];
  kern_status st = entry_path(ctx, key, ext, p, sizeof p);
  if (st != KERN_SUCCESS) return st;
  int fd;
  void *buf = NULL;
  size_t n;
  st = open_verified(ctx, p, &fd, &buf, &n);
  if (st != KERN_SUCCESS) return st;
  close(fd);
  if (data) *data = buf;
  else kern__free(buf);
  if (size) *size = n;
  if (path && path_size) snprintf(path, path_size, "%s", p);
  return KERN_SUCCESS;
}

kern_status kern__cache_open(kern_context *ctx, const char *key,
                             const char *ext, int *fd, size_t *size,
                             char *path, size_t path_size) {
  char p[4096 + 160];
  kern_status st = entry_path(ctx, key, ext, p, sizeof p);
  if (st != KERN_SUCCESS) return st;
  int f;
  size_t n;
  st = open_verified(ctx, p, &f, NULL, &n);
  if (st != KERN_SUCCESS) return st;
  *fd = f;
  if (size) *size = n;
  if (path && path_size) snprintf(path, path_size, "%s", p);
  return KERN_SUCCESS;
}

/* Writes data under path p, through a temporary file in dir and a rename,
 * so that a reader sees the whole entry or none.  Touches no context: the
 * CUDA backend's background build stores its cubin from its own thread
 * (kern__cache_store).  0, or -1 with the reason in why. */
static int put_file(const char *dir, const char *key, const char *p,
                    const void *data, size_t size, char *why, size_t nwhy) {
  char tmp[4096 + 160];
  int n = snprintf(tmp, sizeof tmp, "%s/.tmp-%.16s-XXXXXX", dir, key);
  if (n < 0 || (size_t)n >= sizeof tmp) {
    snprintf(why, nwhy, "kernel cache: entry path too long under '%s'", dir);
    return -1;
  }
  /* mkstemp creates the file 0600 and O_EXCL, so nobody else can have it
   * open or have swapped it for a link. */
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, nwhy, "kernel cache: cannot create a file in '%s': %s", dir,
             strerror(errno));
    return -1;
  }
  unsigned char footer[FOOTER_SIZE];
  make_footer(data, size, footer);
  if (write_full(fd, data, size) != 0 ||
      write_full(fd, footer, FOOTER_SIZE) != 0) {
    int e = errno;
    close(fd);
    unlink(tmp);
    snprintf(why, nwhy, "kernel cache: cannot write '%s': %s", tmp,
             strerror(e));
    return -1;
  }
  if (close(fd) != 0 || rename(tmp, p) != 0) {
    int e = errno;
    unlink(tmp);
    snprintf(why, nwhy, "kernel cache: cannot store '%s': %s", p, strerror(e));
    return -1;
  }
  return 0;
}

kern_status kern__cache_put(kern_context *ctx, const char *key,
                            const char *ext, const void *data, size_t size,
                            char *path, size_t path_size) {
  char p[4096 + 160];
  kern_status st = entry_path(ctx, key, ext, p, sizeof p);
  if (st != KERN_SUCCESS) return st;
  char why[4096 + 256];
  if (put_file(ctx->cache_dir, key, p, data, size, why, sizeof why) != 0)
    return kern__error(ctx, KERN_ERROR_CACHE, "%s", why);
  if (path && path_size) snprintf(path, path_size, "%s", p);
  return KERN_SUCCESS;
}

int kern__cache_store(const char *dir, const char *key, const char *ext,
                      const void *data, size_t size) {
  char p[4096 + 160], why[4096 + 256];
  int n = snprintf(p, sizeof p, "%s/%s%s", dir, key, ext);
  if (n < 0 || (size_t)n >= sizeof p) return -1;
  return put_file(dir, key, p, data, size, why, sizeof why);
}

/* ---------------------------------------------------------------- the policy
 *
 * Note [cache policy]
 * The cache only saves time, so it may never cost a load: one function,
 * kern__cached_build, does look-up, compile, store and load for every
 * backend, and every cache operation in it runs "quiet" (ctx->quiet,
 * runtime.h): a failure records no error in the context -- only
 * ctx->quiet_note keeps the latest message -- and the build carries on
 * without the cache.  So a directory that is refused (not ours, writable by
 * others: Note [cache trust] -- nothing is read from it or written to it),
 * read-only, full or missing, an entry that is bad or that the driver
 * refuses (a stale OpenCL binary, a cubin the driver cannot load), all end
 * in a compile and a successful load with no error left behind, on every
 * backend alike.  Only the compile and the load of what it made are loud:
 * their failures are the user's problem.
 *
 * Backends that load by path (the CPU's dlopen) load the stored entry after
 * a cold compile, like a warm one, so that code runs from the cache's file
 * system rather than $TMPDIR (which may be mounted noexec); when the entry
 * cannot be stored or reopened, they load the compiler's own output.
 */

/* Reads a whole regular file (not through a link, never blocking on a FIFO)
 * into kern__malloc'd memory; NULL with errno set on failure. */
static void *read_regular(const char *path, size_t *size) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return NULL;
  struct stat st;
  void *buf = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    buf = kern__malloc((size_t)st.st_size);
    if (buf && read_full(fd, buf, (size_t)st.st_size) != 0) {
      kern__free(buf);
      buf = NULL;
    } else if (buf) {
      *size = (size_t)st.st_size;
    }
  } else {
    errno = EINVAL;
  }
  int e = errno;
  close(fd);
  errno = e;
  return buf;
}

static void cache_key(const kern__builder *b, const kc_result *code,
                      char key[65]) {
  kern__sha256 h;
  kern__sha256_init(&h);
#define PART(p, n)                                                           \
  do {                                                                       \
    uint64_t len_ = (n);                                                     \
    kern__sha256_update(&h, &len_, sizeof len_);                             \
    kern__sha256_update(&h, (p), len_);                                      \
  } while (0)
  PART("kern-cache-2", 12);
  PART(b->backend, strlen(b->backend));
  PART(b->ext, strlen(b->ext));
  size_t len = code->source_len ? code->source_len : strlen(code->source);
  PART(code->source, len);
  for (int i = 0; i < b->nkey; i++) PART(b->key[i].p, b->key[i].n);
#undef PART
  unsigned char d[32];
  kern__sha256_final(&h, d);
  kern__sha256_hex(d, key);
}

/* Looks key up and loads it.  1 when *module was made from the cache. */
static int load_hit(kern_context *ctx, const kern__builder *b, const char *key,
                    void **module) {
  kern__blob in = {NULL, 0, NULL, -1, 1};
  char path[4096 + 160];
  void *bytes = NULL;
  kern_status st;
  if (b->load_by_path) {
    st = kern__cache_open(ctx, key, b->ext, &in.fd, &in.size, path,
                          sizeof path);
    in.path = path;
  } else {
    st = kern__cache_get(ctx, key, b->ext, &bytes, &in.size, path,
                         sizeof path);
    in.bytes = bytes;
  }
  if (st != KERN_SUCCESS) return 0;
  st = b->load(b->self, &in, module);
  /* Verified but refused by the loader or driver: remove it, so the entry
   * the compile stores replaces it rather than a later load tripping over
   * it again -- but only if the path still names the file that was
   * refused: another process may have just renamed a fresh copy over it
   * (the CPU loader's "changed while loading"), and removing that one
   * would lose a good entry for everyone. */
  if (st != KERN_SUCCESS) {
    struct stat was, now;
    if (in.fd < 0 || (fstat(in.fd, &was) == 0 && stat(path, &now) == 0 &&
                      was.st_dev == now.st_dev && was.st_ino == now.st_ino))
      unlink(path);
  }
  if (in.fd >= 0) close(in.fd);
  kern__free(bytes);
  return st == KERN_SUCCESS;
}

/* The look-up half of kern__cached_build: 1 when *module came from the
 * cache; else 0 with *dir the cache directory to store into, or NULL when
 * the cache is off or refused. */
static int lookup(kern_context *ctx, const kern__builder *b, const char *key,
                  void **module, const char **dir) {
  ctx->quiet_note[0] = 0;
  *dir = NULL;
  if (ctx->opts.no_cache) return 0;
  ctx->quiet++;
  int use = kern__cache_dir(ctx, dir) == KERN_SUCCESS;
  int hit = use && load_hit(ctx, b, key, module);
  ctx->quiet--;
  if (!use) *dir = NULL;
  return hit;
}

int kern__cached_lookup(kern_context *ctx, const kern__builder *b,
                        const kc_result *code, void **module, char key[65],
                        const char **dir) {
  cache_key(b, code, key);
  return lookup(ctx, b, key, module, dir);
}

kern_status kern__cached_build(kern_context *ctx, const kern__builder *b,
                               const kc_result *code, void **module) {
  char key[65];
  cache_key(b, code, key);
  const char *dir;
  if (lookup(ctx, b, key, module, &dir)) return KERN_SUCCESS;
  int use = dir != NULL;

  kern__blob out = {NULL, 0, NULL, -1, 0};
  kern_status st = b->compile(b->self, code, use, &out);
  if (st != KERN_SUCCESS) {
    kern__free((void *)out.bytes);
    return st;
  }
  if (use && (out.bytes || out.path)) {
    ctx->quiet++;
    size_t size = out.size;
    void *file = NULL;
    const void *bytes = out.bytes;
    if (!bytes) {
      bytes = file = read_regular(out.path, &size);
      if (!file)
        kern__error(ctx, KERN_ERROR_CACHE, "kernel cache: cannot read '%s': %s",
                    out.path, strerror(errno));
    }
    int stored = bytes && kern__cache_put(ctx, key, b->ext, bytes, size, NULL,
                                          0) == KERN_SUCCESS;
    kern__free(file);
    int loaded = stored && b->load_by_path && load_hit(ctx, b, key, module);
    ctx->quiet--;
    if (loaded) {
      kern__free((void *)out.bytes);
      return KERN_SUCCESS;
    }
  }
  st = b->load(b->self, &out, module);
  kern__free((void *)out.bytes);
  return st;
}
