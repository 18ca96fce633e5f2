/* Calls the README example's launcher library through its generated
 * header, as a C program links it (test/Launchers/c-header.test). */
#include "attention.h"

#include <stdio.h>

int main(void) {
  const int64_t B = 2, Nq = 100, Nk = 300, D = 64;
  int64_t bytes = attention_workspace_size(B, Nq, Nk);
  printf("workspace %lld bytes\n", (long long)bytes);
  const int64_t q_strides[3] = {Nq * D, D, 1}, kv_strides[3] = {Nk * D, D, 1};
  const int64_t bad_strides[3] = {Nq * D, D, 2};
  /* Never dereferenced: the arguments are checked first. */
  char *fake = (char *)0x7f0000000000;
  int32_t status = attention_launch(0, fake, bad_strides, fake, kv_strides,
                                    fake, kv_strides, fake, q_strides, fake,
                                    bytes, B, Nq, Nk);
  printf("bad strides: %d: %s\n", status, attention_last_error());
  status = attention_launch(0, fake, q_strides, fake, kv_strides, fake,
                            kv_strides, fake, q_strides, fake, bytes, B, Nq,
                            Nk);
  printf("no driver: %d: %s\n", status, attention_last_error());
  return 0;
}
