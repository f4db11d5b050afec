/*
 * cache_safety.c -- the kernel cache's safety rules (Note [cache trust] in
 * src/runtime/cache.c), end to end through the public API on the CPU
 * backend, whose entries are shared objects we dlopen:
 *   - a fresh cache directory is created 0700;
 *   - a directory owned by another uid or writable by group/others is
 *     neither read nor written, and does not fail the load (the cache is
 *     an optimisation, Note [cache policy]): no error is left in the
 *     context, and the context's quiet note says why;
 *   - an entry owned by another uid, or group/other-writable, is not loaded
 *     even when its checksum is valid, and is rebuilt; entries are refused
 *     silently (a miss is not an error, and the library never prints), so
 *     the test proves refusal by planting a *different kernel's* valid entry
 *     and checking that the right kernel ran;
 *   - a corrupt or truncated entry is detected and rebuilt;
 *   - 8 forked processes compiling the same kernels into one fresh cache
 *     never load a torn entry, over several rounds.
 * Ownership cases need root (chown); as another user they skip.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include "test.h"
#include "runtime.h"

/* Why the last run_in's load did not use the cache (ctx->quiet_note). */
static char last_note[512];

/* Two kernels with the same name and signature but different bodies: one's
 * entry planted under the other's key would load and compute the wrong
 * thing, so a right answer proves the planted entry was refused. */
static const char kSrcA[] =
    "import warp as wp\n\n@wp.kernel\n"
    "def k(x: wp.array(dtype=wp.int32)):\n"
    "    i = wp.tid()\n"
    "    x[i] = i * 3 + 1\n";
static const char kSrcB[] =
    "import warp as wp\n\n@wp.kernel\n"
    "def k(x: wp.array(dtype=wp.int32)):\n"
    "    i = wp.tid()\n"
    "    x[i] = i * 5 + 2\n";
static const char kSrcC[] =
    "import warp as wp\n\n@wp.kernel\n"
    "def k(x: wp.array(dtype=wp.int32)):\n"
    "    i = wp.tid()\n"
    "    x[i] = i * 7 - 4\n";

#define N 257

/* Loads src into a context on dir (cache on), runs it, checks x[i] = a*i+b.
 * Returns the load status (the launch must then succeed). */
static kern_status run_in(const char *dir, const char *src, int a, int b,
                          char *msg, size_t msg_size) {
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = dir;
  o.num_threads = 2;
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(&o, &ctx));
  kern_module *m;
  kern_status st = kern_module_load_string(ctx, 0, "k.py", src, strlen(src), &m);
  if (msg) snprintf(msg, msg_size, "%s", kern_last_error(ctx));
  snprintf(last_note, sizeof last_note, "%s", kern__ctx(ctx)->quiet_note);
  if (st != KERN_SUCCESS) {
    kern_context_free(ctx);
    return st;
  }
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "k", &k));
  int64_t n = N;
  kern_type i32 = {KERN_KIND_SCALAR, KERN_SCALAR_INT32, 1, 1};
  kern_array *x;
  ASSERT_OK(ctx, kern_array_new(ctx, 0, i32, 1, &n, &x));
  kern_arg arg = kern_arg_array(x);
  ASSERT_OK(ctx, kern_launch(k, 1, &n, 1, &arg));
  int32_t out[N];
  ASSERT_OK(ctx, kern_array_download(x, out, sizeof out));
  for (int i = 0; i < N; i++)
    if (out[i] != a * i + b) {
      fprintf(stderr, "x[%d] = %d, expected %d: a wrong entry was loaded\n", i,
              out[i], a * i + b);
      exit(1);
    }
  kern_context_free(ctx);
  return KERN_SUCCESS;
}

#define RUN_OK(dir, src, a, b)                                               \
  do {                                                                       \
    char m_[2048];                                                           \
    kern_status s_ = run_in(dir, src, a, b, m_, sizeof m_);                  \
    if (s_ != KERN_SUCCESS) {                                                \
      fprintf(stderr, "%s:%d: load failed: %s: %s\n", __FILE__, __LINE__,    \
              kern_status_name(s_), m_);                                     \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

/* The path of the one .so entry in dir. */
static void only_entry(const char *dir, char *out, size_t size) {
  DIR *d = opendir(dir);
  ASSERT(d != NULL);
  struct dirent *e;
  int found = 0;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l > 3 && strcmp(e->d_name + l - 3, ".so") == 0) {
      snprintf(out, size, "%s/%s", dir, e->d_name);
      found++;
    }
  }
  closedir(d);
  ASSERT_EQ(found, 1);
}

static void copy_file(const char *from, const char *to) {
  FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
  ASSERT(f && g);
  char buf[8192];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) ASSERT_EQ(fwrite(buf, 1, n, g), n);
  fclose(f);
  ASSERT_EQ(fclose(g), 0);
}

static void make_dir(char *out, size_t size, const char *name) {
  snprintf(out, size, "%s/%s", test_tmp, name);
}

/* After a refused entry was rebuilt: ours and 0600 again.  (Not "a new
 * inode": the file system may hand the unlinked entry's number to the
 * rebuild.  The right answer from run_in is the proof that matters.) */
static void check_rebuilt(const char *path) {
  struct stat st;
  ASSERT_EQ(stat(path, &st), 0);
  ASSERT_EQ(st.st_uid, geteuid());
  ASSERT_EQ(st.st_mode & 0777, 0600);
}

int main(void) {
  test_setup();
  int root = geteuid() == 0;
  char dirA[512], dirB[512], path[1024], pathB[1024];
  struct stat st;

  /* A fresh directory (and its missing parent) is created 0700. */
  make_dir(dirA, sizeof dirA, "a/cache");
  RUN_OK(dirA, kSrcA, 3, 1);
  ASSERT_EQ(stat(dirA, &st), 0);
  ASSERT_EQ(st.st_mode & 0777, 0700);
  only_entry(dirA, path, sizeof path);
  ASSERT_EQ(stat(path, &st), 0);
  ASSERT_EQ(st.st_mode & 0777, 0600);
  RUN_OK(dirA, kSrcA, 3, 1); /* warm */

  /* Kernel B's valid entry, to plant under A's key. */
  make_dir(dirB, sizeof dirB, "b");
  RUN_OK(dirB, kSrcB, 5, 2);
  only_entry(dirB, pathB, sizeof pathB);

  /* Sanity of the method: planted with safe ownership and mode, B's entry
   * IS loaded for A (same symbol, valid checksum) -- which is exactly why
   * the checks below matter.  The key covers the source, so this can only
   * happen by someone writing into the cache. */
  copy_file(pathB, path);
  chmod(path, 0600);
  RUN_OK(dirA, kSrcA, 5, 2);

  /* Group- or other-writable entries are refused and rebuilt. */
  static const mode_t modes[] = {0620, 0602, 0666};
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    copy_file(pathB, path);
    ASSERT_EQ(chmod(path, modes[i]), 0);
    RUN_OK(dirA, kSrcA, 3, 1);
    check_rebuilt(path);
  }

  /* An entry owned by someone else (root can fake one) is refused. */
  if (root) {
    copy_file(pathB, path);
    ASSERT_EQ(chmod(path, 0600), 0);
    ASSERT_EQ(chown(path, 65534, 65534), 0);
    RUN_OK(dirA, kSrcA, 3, 1);
    check_rebuilt(path);
  }

  /* Corrupt and truncated entries are detected and rebuilt. */
  ASSERT_EQ(stat(path, &st), 0);
  off_t size = st.st_size;
  static const off_t cuts[] = {-1, -48, -49, 47, 10, 0};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    off_t to = cuts[i] < 0 ? size + cuts[i] : cuts[i];
    ASSERT_EQ(truncate(path, to), 0);
    RUN_OK(dirA, kSrcA, 3, 1);
    ASSERT_EQ(stat(path, &st), 0);
    ASSERT_EQ(st.st_size, size);
  }
  for (off_t at = 0; at < size; at += size / 7 + 1) {
    int fd = open(path, O_RDWR);
    ASSERT(fd >= 0);
    unsigned char c;
    ASSERT_EQ(pread(fd, &c, 1, at), 1);
    c ^= 0x01;
    ASSERT_EQ(pwrite(fd, &c, 1, at), 1);
    close(fd);
    RUN_OK(dirA, kSrcA, 3, 1);
  }
  /* A symlink in place of an entry is never followed. */
  unlink(path);
  ASSERT_EQ(symlink(pathB, path), 0);
  RUN_OK(dirA, kSrcA, 3, 1);
  ASSERT_EQ(lstat(path, &st), 0);
  ASSERT(S_ISREG(st.st_mode));

  /* An unsafe directory is neither read nor written, yet the load works
   * and leaves no error.  B's valid entry planted under A's key (which a
   * safe directory would load: the sanity case above) is not loaded -- the
   * right answer shows it -- nor replaced, and the note says why. */
  char msg[2048];
  struct stat planted;
  copy_file(pathB, path);
  ASSERT_EQ(chmod(path, 0600), 0);
  ASSERT_EQ(stat(path, &planted), 0);
  static const struct {
    mode_t mode;
    const char *why;
  } unsafe[] = {{0770, "is writable by group or others (mode 0770)"},
                {0707, "refusing to load compiled code"}};
  for (size_t i = 0; i < sizeof unsafe / sizeof unsafe[0]; i++) {
    ASSERT_EQ(chmod(dirA, unsafe[i].mode), 0);
    ASSERT_EQ(run_in(dirA, kSrcA, 3, 1, msg, sizeof msg), KERN_SUCCESS);
    ASSERT_STR_EQ(msg, "");
    ASSERT_CONTAINS(last_note, unsafe[i].why);
    ASSERT_EQ(stat(path, &st), 0);
    ASSERT_EQ(st.st_ino, planted.st_ino);
    ASSERT_EQ(st.st_mtime, planted.st_mtime);
  }
  ASSERT_EQ(chmod(dirA, 0700), 0);
  if (root) {
    ASSERT_EQ(chown(dirA, 65534, 65534), 0);
    ASSERT_EQ(run_in(dirA, kSrcA, 3, 1, msg, sizeof msg), KERN_SUCCESS);
    ASSERT_STR_EQ(msg, "");
    ASSERT_CONTAINS(last_note, "is owned by uid 65534, not by this user");
    ASSERT_EQ(stat(path, &st), 0);
    ASSERT_EQ(st.st_ino, planted.st_ino);
    ASSERT_EQ(chown(dirA, 0, 0), 0);
  } else {
    printf("not root: ownership cases skipped\n");
  }
  /* A file where the directory should be. */
  ASSERT_EQ(run_in(pathB, kSrcA, 3, 1, msg, sizeof msg), KERN_SUCCESS);
  ASSERT_STR_EQ(msg, "");
  ASSERT_CONTAINS(last_note, "is not a directory");
  ASSERT_EQ(unlink(path), 0); /* the planted entry */
  RUN_OK(dirA, kSrcA, 3, 1);
  ASSERT_STR_EQ(last_note, "");

  /* 8 processes, one fresh cache, the same kernels, several rounds.  Each
   * child loads three modules (so they race on several entries), launches
   * and checks; any torn entry would fail to load or compute wrongly. */
  for (int round = 0; round < 4; round++) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s/race%d", test_tmp, round);
    pid_t kids[8];
    for (int c = 0; c < 8; c++) {
      kids[c] = fork();
      ASSERT(kids[c] >= 0);
      if (kids[c] == 0) {
        /* Different orders, so processes finish entries at different times. */
        const char *srcs[3] = {kSrcA, kSrcB, kSrcC};
        int as[3] = {3, 5, 7}, bs[3] = {1, 2, -4};
        for (int j = 0; j < 3; j++) {
          int s = (j + c) % 3;
          char m[2048];
          kern_status st2 = run_in(dir, srcs[s], as[s], bs[s], m, sizeof m);
          if (st2 != KERN_SUCCESS) {
            fprintf(stderr, "child %d: %s: %s\n", c, kern_status_name(st2), m);
            _exit(1);
          }
        }
        _exit(0); /* not exit(): the parent's atexit cleanup is its own */
      }
    }
    int failed = 0;
    for (int c = 0; c < 8; c++) {
      int ws;
      ASSERT_EQ(waitpid(kids[c], &ws, 0), kids[c]);
      if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) failed++;
    }
    ASSERT_EQ(failed, 0);
    /* No temporary files or build directories are left behind. */
    DIR *d = opendir(dir);
    ASSERT(d != NULL);
    struct dirent *e;
    int entries = 0;
    while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      if (e->d_name[0] == '.') {
        fprintf(stderr, "left behind in the cache: %s\n", e->d_name);
        exit(1);
      }
      entries++;
    }
    closedir(d);
    ASSERT_EQ(entries, 3);
  }
  printf("cache safety: ok\n");
  return 0;
}
