/* The kernel cache: directory creation and checks, put/get, corruption,
 * truncation and unsafe entries. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "test.h"
#include "runtime.h"

static const char key[] =
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

static void entry_path(kern_context *ctx, char *out, size_t n) {
  snprintf(out, n, "%s/%s.bin", kern__ctx(ctx)->cache_dir, key);
}

static void flip_byte(const char *path, off_t at) {
  int fd = open(path, O_RDWR);
  ASSERT(fd >= 0);
  unsigned char c;
  ASSERT_EQ(pread(fd, &c, 1, at), 1);
  c ^= 0x40;
  ASSERT_EQ(pwrite(fd, &c, 1, at), 1);
  close(fd);
}

int main(void) {
  test_setup();
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  char path[4300];
  entry_path(ctx, path, sizeof path);
  void *data;
  size_t size;

  /* Empty cache: a miss, and the directory now exists with mode 0700. */
  ASSERT_EQ(kern__cache_get(kern__ctx(ctx), key, ".bin", &data, &size, NULL, 0),
            KERN_ERROR_NOT_FOUND);
  struct stat st;
  ASSERT_EQ(stat(kern__ctx(ctx)->cache_dir, &st), 0);
  ASSERT_EQ(st.st_mode & 0777, 0700);
  ASSERT_STR_EQ(kern_last_error(ctx), ""); /* a miss is not an error */

  /* Put then get: the same bytes, and the entry file is 0600. */
  const char payload[] = "hello, cache";
  char got_path[4300];
  ASSERT_OK(ctx, kern__cache_put(kern__ctx(ctx), key, ".bin", payload, sizeof payload,
                                 got_path, sizeof got_path));
  ASSERT_STR_EQ(got_path, path);
  ASSERT_EQ(stat(path, &st), 0);
  ASSERT_EQ(st.st_mode & 0777, 0600);
  ASSERT_EQ(st.st_size, sizeof payload + 48);
  ASSERT_OK(ctx, kern__cache_get(kern__ctx(ctx), key, ".bin", &data, &size, NULL, 0));
  ASSERT_EQ(size, sizeof payload);
  ASSERT(memcmp(data, payload, size) == 0);
  free(data);
  int fd;
  ASSERT_OK(ctx, kern__cache_open(kern__ctx(ctx), key, ".bin", &fd, &size, NULL, 0));
  ASSERT_EQ(size, sizeof payload);
  close(fd);

  /* A flipped payload byte: a miss, and the entry is gone. */
  flip_byte(path, 3);
  ASSERT_EQ(kern__cache_get(kern__ctx(ctx), key, ".bin", &data, &size, NULL, 0),
            KERN_ERROR_NOT_FOUND);
  ASSERT(access(path, F_OK) != 0);

  /* A flipped checksum byte, and a truncated entry: misses too. */
  ASSERT_OK(ctx, kern__cache_put(kern__ctx(ctx), key, ".bin", payload, sizeof payload,
                                 NULL, 0));
  flip_byte(path, (off_t)sizeof payload + 20);
  ASSERT_EQ(kern__cache_get(kern__ctx(ctx), key, ".bin", &data, &size, NULL, 0),
            KERN_ERROR_NOT_FOUND);
  ASSERT_OK(ctx, kern__cache_put(kern__ctx(ctx), key, ".bin", payload, sizeof payload,
                                 NULL, 0));
  ASSERT_EQ(truncate(path, (off_t)sizeof payload + 40), 0);
  ASSERT_EQ(kern__cache_get(kern__ctx(ctx), key, ".bin", &data, &size, NULL, 0),
            KERN_ERROR_NOT_FOUND);
  ASSERT_OK(ctx, kern__cache_put(kern__ctx(ctx), key, ".bin", payload, sizeof payload,
                                 NULL, 0));
  ASSERT_EQ(truncate(path, 10), 0);
  ASSERT_EQ(kern__cache_get(kern__ctx(ctx), key, ".bin", &data, &size, NULL, 0),
            KERN_ERROR_NOT_FOUND);

  /* A group-writable entry is refused (and removed), even if intact. */
  ASSERT_OK(ctx, kern__cache_put(kern__ctx(ctx), key, ".bin", payload, sizeof payload,
                                 NULL, 0));
  ASSERT_EQ(chmod(path, 0620), 0);
  ASSERT_EQ(kern__cache_get(kern__ctx(ctx), key, ".bin", &data, &size, NULL, 0),
            KERN_ERROR_NOT_FOUND);
  ASSERT(access(path, F_OK) != 0);

  /* A symlink in place of an entry is never followed. */
  char target[4300];
  snprintf(target, sizeof target, "%s/elsewhere", test_tmp);
  ASSERT_OK(ctx, kern__cache_put(kern__ctx(ctx), key, ".bin", payload, sizeof payload,
                                 NULL, 0));
  ASSERT_EQ(rename(path, target), 0);
  ASSERT_EQ(symlink(target, path), 0);
  ASSERT_EQ(kern__cache_get(kern__ctx(ctx), key, ".bin", &data, &size, NULL, 0),
            KERN_ERROR_NOT_FOUND);

  /* An empty payload round-trips. */
  ASSERT_OK(ctx, kern__cache_put(kern__ctx(ctx), key, ".bin", "", 0, NULL, 0));
  ASSERT_OK(ctx, kern__cache_get(kern__ctx(ctx), key, ".bin", &data, &size, NULL, 0));
  ASSERT_EQ(size, 0);
  free(data);

  /* Keys and extensions that could escape the directory are rejected. */
  ASSERT_EQ(kern__cache_put(kern__ctx(ctx), "../evil", ".bin", "x", 1, NULL, 0),
            KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);
  ASSERT_EQ(kern__cache_put(kern__ctx(ctx), key, "/x", "x", 1, NULL, 0),
            KERN_ERROR_INVALID_ARGUMENT);
  kern_clear_error(ctx);

  /* No temporary files are left behind. */
  DIR *dp = opendir(kern__ctx(ctx)->cache_dir);
  ASSERT(dp);
  struct dirent *e;
  while ((e = readdir(dp))) ASSERT(strncmp(e->d_name, ".tmp-", 5) != 0);
  closedir(dp);
  kern_context_free(ctx);

  /* A group-writable cache directory is refused with a clear message. */
  char bad[300];
  snprintf(bad, sizeof bad, "%s/shared", test_tmp);
  ASSERT_EQ(mkdir(bad, 0700), 0);
  ASSERT_EQ(chmod(bad, 0770), 0);
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = bad;
  ASSERT_OK(NULL, kern_context_new(&o, &ctx));
  ASSERT_EQ(kern__cache_put(kern__ctx(ctx), key, ".bin", "x", 1, NULL, 0),
            KERN_ERROR_CACHE);
  ASSERT_CONTAINS(kern_last_error(ctx), "writable by group or others");
  ASSERT_CONTAINS(kern_last_error(ctx), "chmod 700");
  kern_clear_error(ctx);
  const char *dir;
  ASSERT_EQ(kern__cache_dir(kern__ctx(ctx), &dir), KERN_ERROR_CACHE);
  kern_context_free(ctx);

  /* So is a path that is not a directory. */
  char file[300];
  snprintf(file, sizeof file, "%s/afile", test_tmp);
  fclose(fopen(file, "w"));
  kern_options o2 = KERN_OPTIONS_INIT;
  o2.cache_dir = file;
  ASSERT_OK(NULL, kern_context_new(&o2, &ctx));
  ASSERT_EQ(kern__cache_dir(kern__ctx(ctx), &dir), KERN_ERROR_CACHE);
  ASSERT_CONTAINS(kern_last_error(ctx), "not a directory");
  kern_context_free(ctx);

  /* Nested missing parents are created 0700. */
  char deep[300];
  snprintf(deep, sizeof deep, "%s/a/b/c/", test_tmp);
  kern_options o3 = KERN_OPTIONS_INIT;
  o3.cache_dir = deep;
  ASSERT_OK(NULL, kern_context_new(&o3, &ctx));
  ASSERT_OK(ctx, kern__cache_dir(kern__ctx(ctx), &dir));
  ASSERT_EQ(stat(dir, &st), 0);
  ASSERT_EQ(st.st_mode & 0777, 0700);
  snprintf(deep, sizeof deep, "%s/a", test_tmp);
  ASSERT_EQ(stat(deep, &st), 0);
  ASSERT_EQ(st.st_mode & 0777, 0700);
  kern_context_free(ctx);
  puts("ok");
  return 0;
}
