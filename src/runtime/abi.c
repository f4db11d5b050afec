/*
 * abi.c -- what keeps the ABI stable: the run-time version, and reading and
 * writing the caller's extensible structs (Note [struct growth] in kern.h).
 *
 * The rules live here once, so every struct, present and future, is read
 * and written the same way: a struct_size below the first version's is
 * refused, a smaller (older) struct gets defaults for what it lacks, and a
 * larger (newer) one is accepted only when the bytes this library does not
 * understand are zero -- the rule Linux's copy_struct_from_user applies to
 * extensible system-call arguments, and for the same reason: a field the
 * library cannot see must not be ignored silently.
 */
#include <stddef.h>
#include <string.h>
#include "runtime.h"

int kern_version(void) { return KERN_VERSION_NUMBER; }
const char *kern_version_string(void) { return KERN_VERSION_STRING; }

/* Each struct's first version ends where the header says, and the current
 * version ends at its sizeof: no tail padding, so that struct_size tells
 * the versions apart (Note [struct growth]). */
#define END(T, f) (offsetof(T, f) + sizeof(((T *)0)->f))
_Static_assert(offsetof(kern_options, debug) == KERN_OPTIONS_SIZE_V1,
               "kern_options version 1 ends before debug");
_Static_assert(END(kern_options, reserved1) == sizeof(kern_options),
               "kern_options has tail padding");
_Static_assert(END(kern_backend_info, reserved0) == sizeof(kern_backend_info) &&
                   sizeof(kern_backend_info) == KERN_BACKEND_INFO_SIZE_V1,
               "kern_backend_info layout");
_Static_assert(offsetof(kern_device_info, capability_major) ==
                   KERN_DEVICE_INFO_SIZE_V1,
               "kern_device_info version 1 ends before the properties");
_Static_assert(END(kern_device_info, pci_bus_id) == sizeof(kern_device_info),
               "kern_device_info has tail padding");
_Static_assert(END(kern_param_info, ndim) == KERN_PARAM_INFO_SIZE_V1 &&
                   offsetof(kern_param_info, struct_name) ==
                       KERN_PARAM_INFO_SIZE_V1 &&
                   END(kern_param_info, struct_name) ==
                       offsetof(kern_param_info, type_name) &&
                   END(kern_param_info, type_name) == sizeof(kern_param_info),
               "kern_param_info layout");
_Static_assert(END(kern_field_info, reserved0) == sizeof(kern_field_info) &&
                   sizeof(kern_field_info) == KERN_FIELD_INFO_SIZE_V1,
               "kern_field_info layout");
_Static_assert(END(kern_arg, size) == sizeof(kern_arg) &&
                   sizeof(kern_arg) == KERN_ARG_SIZE_V1,
               "kern_arg layout");
_Static_assert(END(kern_pipeline_config, reserved0) ==
                       KERN_PIPELINE_CONFIG_SIZE_V1 &&
                   END(kern_pipeline_config, timeline_chunks) ==
                       sizeof(kern_pipeline_config),
               "kern_pipeline_config layout");
_Static_assert(END(kern_pipeline_report, overlap) ==
                       KERN_PIPELINE_REPORT_SIZE_V1 &&
                   END(kern_pipeline_report, timeline_chunks) ==
                       sizeof(kern_pipeline_report),
               "kern_pipeline_report layout");
#undef END

#define STRUCT_SIZE_MAX KERN__STRUCT_SIZE_MAX

static int zero_bytes(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}

kern_status kern__struct_in(void *dst, size_t known, const void *src,
                            size_t v1) {
  size_t size;
  memcpy(&size, src, sizeof size);
  if (size < v1 || size > STRUCT_SIZE_MAX) return KERN_ERROR_INVALID_ARGUMENT;
  if (size > known &&
      !zero_bytes((const unsigned char *)src + known, size - known))
    return KERN_ERROR_INVALID_ARGUMENT;
  /* dst holds the defaults; what the caller's struct has replaces them. */
  size_t n = size < known ? size : known;
  memcpy((unsigned char *)dst + sizeof size,
         (const unsigned char *)src + sizeof size, n - sizeof size);
  return KERN_SUCCESS;
}

kern_status kern__struct_check_out(const void *dst, size_t v1) {
  size_t size;
  memcpy(&size, dst, sizeof size);
  return size < v1 || size > STRUCT_SIZE_MAX ? KERN_ERROR_INVALID_ARGUMENT
                                             : KERN_SUCCESS;
}

void kern__struct_out(void *dst, const void *src, size_t known) {
  size_t size;
  memcpy(&size, dst, sizeof size);
  size_t n = size < known ? size : known;
  memcpy((unsigned char *)dst + sizeof size,
         (const unsigned char *)src + sizeof size, n - sizeof size);
  if (size > known) memset((unsigned char *)dst + known, 0, size - known);
}
