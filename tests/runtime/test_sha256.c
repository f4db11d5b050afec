/* SHA-256 against the FIPS 180-2 example vectors, fed whole and in pieces. */
#include "test.h"
#include "runtime.h"

static void check(const char *msg, size_t len, size_t step, const char *want) {
  kern__sha256 s;
  kern__sha256_init(&s);
  for (size_t off = 0; off < len; off += step)
    kern__sha256_update(&s, msg + off, len - off < step ? len - off : step);
  unsigned char d[32];
  char hex[65];
  kern__sha256_final(&s, d);
  kern__sha256_hex(d, hex);
  ASSERT_STR_EQ(hex, want);
}

int main(void) {
  static const char *const two_block =
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  for (size_t step = 1; step <= 64; step = step * 2 + 1) {
    check("", 0, 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
                    "7852b855");
    check("abc", 3, step, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb4"
                          "10ff61f20015ad");
    check(two_block, strlen(two_block), step,
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  }
  /* One million 'a': many full blocks through the fast path. */
  char *m = malloc(1000000);
  ASSERT(m);
  memset(m, 'a', 1000000);
  check(m, 1000000, 1000000,
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  check(m, 1000000, 4093,
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  free(m);
  /* Lengths around the padding boundary (55, 56, 63, 64 bytes). */
  check("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 55, 55,
        "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  check("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 56, 56,
        "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  puts("ok");
  return 0;
}
