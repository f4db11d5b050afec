/*
 * backend_vulkan.c -- the Vulkan backend (issue #27, stage 1): GLSL compute
 * from the compiler (emit/vulkan.c), compiled to SPIR-V by libshaderc,
 * run through libvulkan.so.1; on Mesa's lavapipe in CI, on any Vulkan 1.2
 * driver with bufferDeviceAddress (NVIDIA, AMD, Intel).
 *
 * Both libraries are opened with dlopen, so kern builds and runs where
 * neither is installed and `kern devices` says why the backend is
 * unavailable.  No Vulkan header is included: the few structures and
 * constants used are declared below from the specification (Note [Vulkan
 * declarations]).  $KERN_VULKAN_LIBRARY and $KERN_SHADERC_LIBRARY name
 * other files to load (tests point them at nothing).
 *
 * Note [Vulkan stage 1]: what the backend does and does not do (stage 2
 * additions marked).
 *   - Arrays are buffers bound to memory that is both host-visible and
 *     device-local when the device has such a type (lavapipe), else
 *     host-visible system memory, and copies are memcpy on the mapping;
 *     stage 2: where the device has device-local memory the host cannot
 *     map (discrete GPUs) arrays live there and copies go through a
 *     staging buffer (Note [vulkan memory]).
 *   - Arguments are in a per-device host-visible buffer whose device
 *     address is the one push constant (emit/vulkan.c); arrays are buffer
 *     device addresses, so there are no descriptor sets.
 *   - A launch records a command buffer, submits it and waits on a fence:
 *     synchronous.  Stage 2: streams are native, timeline semaphores on
 *     the device's queue, where the device has them (Note [vulkan
 *     streams]), else the runtime's generic streams; events read the
 *     device clock of GPU timestamps (Note [vulkan device clock]);
 *     kern_host_alloc imports its memory (Note [vulkan pinned memory]);
 *     graphs are recorded command buffers (Note [vulkan graphs]).
 *   - SPIR-V of a module (every kernel compiled with KERN_MAIN defined to
 *     its symbol) is stored in the kernel cache; stage 2: the driver's
 *     pipeline cache too (Note [vulkan pipeline cache]).
 *   - A kernel that needs float64 or int64 on a device without
 *     shaderFloat64 / shaderInt64 is refused by name; float atomics need
 *     VK_EXT_shader_atomic_float (add), else shaderc's error names them.
 *   - Debug mode's bounds checks (stage 2): the fault record is an
 *     ordinary array, read by debug.c after each launch as on the other
 *     backends; the GLSL spelling is Note [debug mode on vulkan] in
 *     emit/common.c.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "runtime.h"
#include "async.h"

/* ---------------------------------------------------------------- Note [Vulkan declarations] */
/* Only what the backend uses, from the Vulkan 1.2 specification.
 * Dispatchable handles are pointers, the others 64-bit integers. */
typedef struct VkInstance_T *VkInstance;
typedef struct VkPhysicalDevice_T *VkPhysicalDevice;
typedef struct VkDevice_T *VkDevice;
typedef struct VkQueue_T *VkQueue;
typedef struct VkCommandBuffer_T *VkCommandBuffer;
typedef uint64_t VkBuffer, VkDeviceMemory, VkShaderModule, VkPipeline,
    VkPipelineLayout, VkCommandPool, VkFence, VkPipelineCache, VkQueryPool,
    VkSemaphore;
typedef int32_t VkResult;
typedef uint32_t VkBool32;
typedef void (*PFN_vkVoidFunction)(void);

enum {
  VK_ST_APPLICATION_INFO = 0,
  VK_ST_INSTANCE_CREATE_INFO = 1,
  VK_ST_DEVICE_QUEUE_CREATE_INFO = 2,
  VK_ST_DEVICE_CREATE_INFO = 3,
  VK_ST_SUBMIT_INFO = 4,
  VK_ST_MEMORY_ALLOCATE_INFO = 5,
  VK_ST_FENCE_CREATE_INFO = 8,
  VK_ST_SEMAPHORE_CREATE_INFO = 9,
  VK_ST_SEMAPHORE_TYPE_CREATE_INFO = 1000207002,
  VK_ST_TIMELINE_SEMAPHORE_SUBMIT_INFO = 1000207003,
  VK_ST_SEMAPHORE_WAIT_INFO = 1000207004,
  /* VK_EXT_external_memory_host: Note [vulkan pinned memory] */
  VK_ST_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001,
  VK_ST_EXTERNAL_MEMORY_BUFFER_CREATE_INFO = 1000072001,
  VK_ST_IMPORT_MEMORY_HOST_POINTER_INFO_EXT = 1000178000,
  VK_ST_MEMORY_HOST_POINTER_PROPERTIES_EXT = 1000178001,
  VK_ST_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT = 1000178002,
  VK_ST_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES = 1000197000,
  VK_HANDLE_HOST_ALLOCATION = 0x80,
  VK_ST_QUERY_POOL_CREATE_INFO = 11,
  VK_ST_BUFFER_CREATE_INFO = 12,
  VK_ST_SHADER_MODULE_CREATE_INFO = 16,
  VK_ST_PIPELINE_CACHE_CREATE_INFO = 17,
  VK_ST_PIPELINE_SHADER_STAGE_CREATE_INFO = 18,
  VK_ST_COMPUTE_PIPELINE_CREATE_INFO = 29,
  VK_ST_PIPELINE_LAYOUT_CREATE_INFO = 30,
  VK_ST_COMMAND_POOL_CREATE_INFO = 39,
  VK_ST_COMMAND_BUFFER_ALLOCATE_INFO = 40,
  VK_ST_COMMAND_BUFFER_BEGIN_INFO = 42,
  VK_ST_MEMORY_BARRIER = 46,
  VK_ST_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES = 49,
  VK_ST_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES = 51,
  VK_ST_PHYSICAL_DEVICE_FEATURES_2 = 1000059000,
  VK_ST_MEMORY_ALLOCATE_FLAGS_INFO = 1000060000,
  VK_ST_BUFFER_DEVICE_ADDRESS_INFO = 1000244001,
  VK_ST_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT = 1000260000,
  VK_ST_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT = 1000273000,
};

typedef struct {
  uint32_t sType;
  const void *pNext;
  const char *pApplicationName;
  uint32_t applicationVersion;
  const char *pEngineName;
  uint32_t engineVersion;
  uint32_t apiVersion;
} VkApplicationInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags;
  const VkApplicationInfo *pApplicationInfo;
  uint32_t enabledLayerCount;
  const char *const *ppEnabledLayerNames;
  uint32_t enabledExtensionCount;
  const char *const *ppEnabledExtensionNames;
} VkInstanceCreateInfo;

/* VkPhysicalDeviceProperties is 824 bytes; the backend reads its head and
 * one limit at their offsets. */
enum {
  VK_PROPS_SIZE = 824,
  VK_PROPS_API = 0,
  VK_PROPS_DRIVER = 4,
  VK_PROPS_VENDOR = 8,
  VK_PROPS_TYPE = 16,
  VK_PROPS_DEVICE_ID = 12,
  VK_PROPS_NAME = 20, /* char[256] */
  VK_PROPS_CACHE_UUID = 276, /* pipelineCacheUUID[16] */
  VK_PROPS_MAX_GROUPS = 296 + 220, /* limits.maxComputeWorkGroupCount[0] */
  VK_PROPS_TS_PERIOD = 296 + 424,  /* limits.timestampPeriod (float, ns) */
};

/* Feature structures as arrays of 32-bit words: index = byte offset / 4. */
enum {
  VK_F2_WORDS = 4 + 55,         /* sType, pNext, VkPhysicalDeviceFeatures */
  VK_F2_ROBUST = 4,             /* robustBufferAccess */
  VK_F2_FLOAT64 = 4 + 39,
  VK_F2_INT64 = 4 + 40,
  VK_F2_INT16 = 4 + 41,
  VK_F11_WORDS = 4 + 12,
  VK_F11_STORAGE16 = 4,         /* storageBuffer16BitAccess */
  VK_F12_WORDS = 52,
  VK_F12_STORAGE8 = 6,          /* storageBuffer8BitAccess */
  VK_F12_INT64_ATOMICS = 9,     /* shaderBufferInt64Atomics */
  VK_F12_INT8 = 12,             /* shaderInt8 */
  VK_F12_TIMELINE = 41,         /* timelineSemaphore */
  VK_F12_BDA = 42,              /* bufferDeviceAddress */
  VK_FAF_WORDS = 16,
  VK_FAF_F32_ADD = 5,           /* shaderBufferFloat32AtomicAdd */
  VK_FAF_F64_ADD = 7,
  VK_FAF_F32 = 4,               /* shaderBufferFloat32Atomics (exchange) */
  VK_FAF2_F32_MINMAX = 7,       /* shaderBufferFloat32AtomicMinMax */
  VK_FAF2_F64_MINMAX = 8,
};

typedef struct {
  uint32_t queueFlags, queueCount, timestampValidBits, granularity[3];
} VkQueueFamilyProperties;

typedef struct {
  uint32_t typeCount;
  struct { uint32_t flags, heap; } types[32];
  uint32_t heapCount;
  struct { uint64_t size; uint32_t flags, pad; } heaps[16];
} VkPhysicalDeviceMemoryProperties;

typedef struct {
  char name[256];
  uint32_t specVersion;
} VkExtensionProperties;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags, queueFamilyIndex, queueCount;
  const float *pQueuePriorities;
} VkDeviceQueueCreateInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags, queueCreateInfoCount;
  const VkDeviceQueueCreateInfo *pQueueCreateInfos;
  uint32_t enabledLayerCount;
  const char *const *ppEnabledLayerNames;
  uint32_t enabledExtensionCount;
  const char *const *ppEnabledExtensionNames;
  const void *pEnabledFeatures;
} VkDeviceCreateInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags;
  uint64_t size;
  uint32_t usage, sharingMode, queueFamilyIndexCount;
  const uint32_t *pQueueFamilyIndices;
} VkBufferCreateInfo;

typedef struct {
  uint64_t size, alignment;
  uint32_t memoryTypeBits;
} VkMemoryRequirements;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint64_t allocationSize;
  uint32_t memoryTypeIndex;
} VkMemoryAllocateInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags, deviceMask;
} VkMemoryAllocateFlagsInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  VkBuffer buffer;
} VkBufferDeviceAddressInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags;
  size_t codeSize;
  const uint32_t *pCode;
} VkShaderModuleCreateInfo;

typedef struct {
  uint32_t stageFlags, offset, size;
} VkPushConstantRange;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags, setLayoutCount;
  const uint64_t *pSetLayouts;
  uint32_t pushConstantRangeCount;
  const VkPushConstantRange *pPushConstantRanges;
} VkPipelineLayoutCreateInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags, stage;
  VkShaderModule module;
  const char *pName;
  const void *pSpecializationInfo;
} VkPipelineShaderStageCreateInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags;
  VkPipelineShaderStageCreateInfo stage;
  VkPipelineLayout layout;
  VkPipeline basePipelineHandle;
  int32_t basePipelineIndex;
} VkComputePipelineCreateInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags, queueFamilyIndex;
} VkCommandPoolCreateInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  VkCommandPool commandPool;
  uint32_t level, commandBufferCount;
} VkCommandBufferAllocateInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags;
  const void *pInheritanceInfo;
} VkCommandBufferBeginInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t waitSemaphoreCount;
  const uint64_t *pWaitSemaphores;
  const uint32_t *pWaitDstStageMask;
  uint32_t commandBufferCount;
  const VkCommandBuffer *pCommandBuffers;
  uint32_t signalSemaphoreCount;
  const uint64_t *pSignalSemaphores;
} VkSubmitInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags;
} VkFenceCreateInfo;

/* Timeline semaphores (core in Vulkan 1.2): Note [vulkan streams]. */
typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t semaphoreType; /* 1: timeline */
  uint64_t initialValue;
} VkSemaphoreTypeCreateInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t waitSemaphoreValueCount;
  const uint64_t *pWaitSemaphoreValues;
  uint32_t signalSemaphoreValueCount;
  const uint64_t *pSignalSemaphoreValues;
} VkTimelineSemaphoreSubmitInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags, semaphoreCount;
  const VkSemaphore *pSemaphores;
  const uint64_t *pValues;
} VkSemaphoreWaitInfo;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t srcAccessMask, dstAccessMask;
} VkMemoryBarrier;

enum {
  VK_MEM_DEVICE_LOCAL = 1,
  VK_MEM_HOST_VISIBLE = 2,
  VK_MEM_HOST_COHERENT = 4,
  VK_USAGE_TRANSFER_SRC = 1,
  VK_USAGE_TRANSFER_DST = 2,
  VK_USAGE_STORAGE = 32,
  VK_USAGE_DEVICE_ADDRESS = 131072,
  VK_ALLOC_DEVICE_ADDRESS = 2,
  VK_STAGE_COMPUTE_SHADER = 2048,
  VK_STAGE_HOST = 16384,
  VK_ACCESS_SHADER_READ = 32,
  VK_ACCESS_SHADER_WRITE = 64,
  VK_ACCESS_HOST_READ = 8192,
  VK_ACCESS_HOST_WRITE = 16384,
  VK_SHADER_STAGE_COMPUTE = 32,
  VK_BIND_COMPUTE = 1,
  VK_QUEUE_GRAPHICS = 1,
  VK_QUEUE_COMPUTE = 2,
  VK_POOL_RESET_BUFFER = 2,
  VK_DEVICE_TYPE_CPU = 4,
  VK_QUERY_TIMESTAMP = 2,
  VK_STAGE_TRANSFER = 4096,
  VK_STAGE_ALL_COMMANDS = 65536,
  VK_ACCESS_TRANSFER_READ = 2048,
  VK_ACCESS_TRANSFER_WRITE = 4096,
  VK_ACCESS_MEMORY_READ = 32768,
  VK_ACCESS_MEMORY_WRITE = 65536,
  VK_STAGE_TOP_OF_PIPE = 1,
  VK_STAGE_BOTTOM_OF_PIPE = 8192,
  VK_QUERY_RESULT_64 = 1,
  VK_QUERY_RESULT_WAIT = 2,
};

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags, queryType, queryCount, pipelineStatistics;
} VkQueryPoolCreateInfo;

typedef struct {
  uint64_t srcOffset, dstOffset, size;
} VkBufferCopy;

typedef struct {
  uint32_t sType;
  const void *pNext;
  uint32_t flags;
  size_t initialDataSize;
  const void *pInitialData;
} VkPipelineCacheCreateInfo;

#define VK_MAKE_API(major, minor) (((uint32_t)(major) << 22) | ((uint32_t)(minor) << 12))

/* ---------------------------------------------------------------- table */

#define VK_FUNCTIONS(X)                                                       \
  X(VkResult, vkCreateInstance,                                               \
    (const VkInstanceCreateInfo *, const void *, VkInstance *))               \
  X(void, vkDestroyInstance, (VkInstance, const void *))                      \
  X(VkResult, vkEnumeratePhysicalDevices,                                     \
    (VkInstance, uint32_t *, VkPhysicalDevice *))                             \
  X(void, vkGetPhysicalDeviceProperties, (VkPhysicalDevice, void *))          \
  X(void, vkGetPhysicalDeviceProperties2, (VkPhysicalDevice, void *))         \
  X(PFN_vkVoidFunction, vkGetDeviceProcAddr, (VkDevice, const char *))        \
  X(void, vkGetPhysicalDeviceFeatures2, (VkPhysicalDevice, void *))           \
  X(void, vkGetPhysicalDeviceQueueFamilyProperties,                           \
    (VkPhysicalDevice, uint32_t *, VkQueueFamilyProperties *))                \
  X(void, vkGetPhysicalDeviceMemoryProperties,                                \
    (VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *))                   \
  X(VkResult, vkEnumerateDeviceExtensionProperties,                           \
    (VkPhysicalDevice, const char *, uint32_t *, VkExtensionProperties *))    \
  X(VkResult, vkCreateDevice,                                                 \
    (VkPhysicalDevice, const VkDeviceCreateInfo *, const void *, VkDevice *)) \
  X(void, vkDestroyDevice, (VkDevice, const void *))                          \
  X(void, vkGetDeviceQueue, (VkDevice, uint32_t, uint32_t, VkQueue *))        \
  X(VkResult, vkCreateBuffer,                                                 \
    (VkDevice, const VkBufferCreateInfo *, const void *, VkBuffer *))         \
  X(void, vkDestroyBuffer, (VkDevice, VkBuffer, const void *))                \
  X(void, vkGetBufferMemoryRequirements,                                      \
    (VkDevice, VkBuffer, VkMemoryRequirements *))                             \
  X(VkResult, vkAllocateMemory,                                               \
    (VkDevice, const VkMemoryAllocateInfo *, const void *, VkDeviceMemory *)) \
  X(void, vkFreeMemory, (VkDevice, VkDeviceMemory, const void *))             \
  X(VkResult, vkBindBufferMemory,                                             \
    (VkDevice, VkBuffer, VkDeviceMemory, uint64_t))                           \
  X(VkResult, vkMapMemory,                                                    \
    (VkDevice, VkDeviceMemory, uint64_t, uint64_t, uint32_t, void **))        \
  X(uint64_t, vkGetBufferDeviceAddress,                                       \
    (VkDevice, const VkBufferDeviceAddressInfo *))                            \
  X(VkResult, vkCreateShaderModule,                                           \
    (VkDevice, const VkShaderModuleCreateInfo *, const void *,                \
     VkShaderModule *))                                                       \
  X(void, vkDestroyShaderModule, (VkDevice, VkShaderModule, const void *))    \
  X(VkResult, vkCreatePipelineLayout,                                         \
    (VkDevice, const VkPipelineLayoutCreateInfo *, const void *,              \
     VkPipelineLayout *))                                                     \
  X(void, vkDestroyPipelineLayout, (VkDevice, VkPipelineLayout, const void *)) \
  X(VkResult, vkCreateComputePipelines,                                       \
    (VkDevice, VkPipelineCache, uint32_t,                                     \
     const VkComputePipelineCreateInfo *, const void *, VkPipeline *))        \
  X(void, vkDestroyPipeline, (VkDevice, VkPipeline, const void *))            \
  X(VkResult, vkCreateCommandPool,                                            \
    (VkDevice, const VkCommandPoolCreateInfo *, const void *,                 \
     VkCommandPool *))                                                        \
  X(void, vkDestroyCommandPool, (VkDevice, VkCommandPool, const void *))      \
  X(VkResult, vkAllocateCommandBuffers,                                       \
    (VkDevice, const VkCommandBufferAllocateInfo *, VkCommandBuffer *))       \
  X(VkResult, vkBeginCommandBuffer,                                           \
    (VkCommandBuffer, const VkCommandBufferBeginInfo *))                      \
  X(VkResult, vkEndCommandBuffer, (VkCommandBuffer))                          \
  X(VkResult, vkResetCommandBuffer, (VkCommandBuffer, uint32_t))              \
  X(void, vkCmdBindPipeline, (VkCommandBuffer, uint32_t, VkPipeline))         \
  X(void, vkCmdPushConstants,                                                 \
    (VkCommandBuffer, VkPipelineLayout, uint32_t, uint32_t, uint32_t,         \
     const void *))                                                           \
  X(void, vkCmdDispatch, (VkCommandBuffer, uint32_t, uint32_t, uint32_t))     \
  X(void, vkCmdPipelineBarrier,                                               \
    (VkCommandBuffer, uint32_t, uint32_t, uint32_t, uint32_t,                 \
     const VkMemoryBarrier *, uint32_t, const void *, uint32_t, const void *)) \
  X(VkResult, vkQueueSubmit,                                                  \
    (VkQueue, uint32_t, const VkSubmitInfo *, VkFence))                       \
  X(VkResult, vkCreateFence,                                                  \
    (VkDevice, const VkFenceCreateInfo *, const void *, VkFence *))           \
  X(void, vkDestroyFence, (VkDevice, VkFence, const void *))                  \
  X(VkResult, vkWaitForFences,                                                \
    (VkDevice, uint32_t, const VkFence *, VkBool32, uint64_t))                \
  X(VkResult, vkResetFences, (VkDevice, uint32_t, const VkFence *))           \
  X(VkResult, vkDeviceWaitIdle, (VkDevice))                                   \
  X(VkResult, vkCreatePipelineCache,                                          \
    (VkDevice, const VkPipelineCacheCreateInfo *, const void *,               \
     VkPipelineCache *))                                                      \
  X(void, vkDestroyPipelineCache, (VkDevice, VkPipelineCache, const void *))  \
  X(VkResult, vkGetPipelineCacheData,                                         \
    (VkDevice, VkPipelineCache, size_t *, void *))                            \
  X(void, vkCmdCopyBuffer, (VkCommandBuffer, VkBuffer, VkBuffer, uint32_t,    \
                            const VkBufferCopy *))                            \
  X(VkResult, vkCreateQueryPool,                                              \
    (VkDevice, const VkQueryPoolCreateInfo *, const void *, VkQueryPool *))   \
  X(void, vkDestroyQueryPool, (VkDevice, VkQueryPool, const void *))          \
  X(void, vkCmdResetQueryPool, (VkCommandBuffer, VkQueryPool, uint32_t,       \
                                uint32_t))                                    \
  X(void, vkCmdWriteTimestamp, (VkCommandBuffer, uint32_t, VkQueryPool,       \
                                uint32_t))                                    \
  X(VkResult, vkCreateSemaphore,                                              \
    (VkDevice, const VkFenceCreateInfo *, const void *, VkSemaphore *))       \
  X(void, vkDestroySemaphore, (VkDevice, VkSemaphore, const void *))          \
  X(VkResult, vkWaitSemaphores,                                               \
    (VkDevice, const VkSemaphoreWaitInfo *, uint64_t))                        \
  X(VkResult, vkGetSemaphoreCounterValue, (VkDevice, VkSemaphore, uint64_t *)) \
  X(void, vkFreeCommandBuffers,                                               \
    (VkDevice, VkCommandPool, uint32_t, const VkCommandBuffer *))             \
  X(VkResult, vkGetQueryPoolResults,                                          \
    (VkDevice, VkQueryPool, uint32_t, uint32_t, size_t, void *, uint64_t,     \
     uint32_t))

typedef struct vk_table {
  PFN_vkVoidFunction (*vkGetInstanceProcAddr)(VkInstance, const char *);
#define VK_PTR(ret, name, params) ret(*name) params;
  VK_FUNCTIONS(VK_PTR)
#undef VK_PTR
} vk_table;

/* libshaderc's C API (shaderc/shaderc.h), the part used. */
enum {
  SHADERC_COMPUTE = 2,
  SHADERC_SUCCESS = 0,
  SHADERC_TARGET_VULKAN = 0,
  SHADERC_OPT_PERFORMANCE = 2,
};
typedef struct shaderc_table {
  void *(*compiler_initialize)(void);
  void (*compiler_release)(void *);
  void *(*compile_options_initialize)(void);
  void (*compile_options_release)(void *);
  void (*compile_options_add_macro_definition)(void *, const char *, size_t,
                                               const char *, size_t);
  void (*compile_options_set_target_env)(void *, int, uint32_t);
  void (*compile_options_set_optimization_level)(void *, int);
  void *(*compile_into_spv)(void *, const char *, size_t, int, const char *,
                            const char *, void *);
  int (*result_get_compilation_status)(void *);
  size_t (*result_get_length)(void *);
  const char *(*result_get_bytes)(void *);
  const char *(*result_get_error_message)(void *);
  void (*result_release)(void *);
} shaderc_table;

/* ---------------------------------------------------------------- state */

#define VK_MAX_QUEUES 8
typedef struct vk_phys {
  VkPhysicalDevice pd;
  char name[256];
  char driver[64];
  uint32_t api, vendor, type, queue_family, max_groups;
  uint32_t ts_bits; /* the queue family's timestampValidBits; 0: none */
  uint32_t nqueues; /* the family's queueCount, at most VK_MAX_QUEUES
                       (Note [vulkan queues]) */
  uint32_t device_id, driver_raw;
  unsigned char cache_uuid[16]; /* pipelineCacheUUID */
  float ts_period;  /* ns per timestamp tick */
  int staged;       /* arrays in device-local memory, copies through a
                       staging buffer (Note [vulkan memory]) */
  uint64_t memory;
  int fp64, int64, int16, int8, storage8, storage16, int64_atomics;
  int f32_atomic_add, f64_atomic_add, atomic_float_ext;
  int f32_atomics, f32_atomic_minmax, f64_atomic_minmax, atomic_float2_ext;
  int timeline; /* timelineSemaphore: native streams (Note [vulkan streams]) */
  int host_import;        /* VK_EXT_external_memory_host */
  uint64_t import_align;  /* its minImportedHostPointerAlignment */
  /* Note [vulkan float controls]: the K_FC value its modules are built
   * with (bit 1: signed zeros, infinities and NaNs kept in float32, 2:
   * in float64, 4: float32 denormals kept, 8: float64 denormals kept,
   * 16: float32 denormals flushed, KERN_VULKAN_DENORM_FLUSH) */
  int float_controls;
} vk_phys;

/* Note [process-wide Vulkan state]: the instance and the physical devices,
 * made once by vk_init (context.c's lock); contexts make their own logical
 * devices. */
static struct {
  void *lib, *shaderc_lib;
  vk_table vk;
  shaderc_table sc;
  int have_shaderc;
  char shaderc_why[160];
  /* Without a working libshaderc: the glslangValidator program (Note
   * [GLSL to SPIR-V]), its path. */
  char glslang[1024];
  VkInstance instance;
  vk_phys *phys;
  int nphys;
} vk_proc;
static char vk_proc_reason[256];

typedef struct vk_buf {
  VkBuffer buf;
  VkDeviceMemory mem;
  unsigned char *map;
  uint64_t addr;
  size_t size;
  struct vk_buf *next;
} vk_buf;

typedef struct vk_dev {
  int index; /* in vk_proc.phys */
  VkDevice dev;
  VkQueue queue;     /* queues[0]: the synchronous calls, the default stream */
  VkQueue queues[VK_MAX_QUEUES]; /* Note [vulkan queues] */
  int nqueues, next_queue;
  VkCommandPool pool;
  VkCommandBuffer cmd;
  VkFence fence;
  VkPipelineLayout layout;
  uint32_t mem_type; /* host-visible: the arguments, arrays unless staged */
  uint32_t dev_type; /* device-local: arrays when staged */
  uint32_t host_type; /* host-visible: the staging buffer */
  vk_buf *stage;     /* the staging buffer, made on first use */
  size_t stage_size;
  vk_buf *args;      /* the launch's arguments */
  vk_buf *print;     /* Note [vulkan print], made on first use */
  vk_buf *scratch;   /* Note [vulkan scratch]: synchronous launches' frames */
  vk_buf *bufs;      /* every live array buffer */
  VkQueryPool ts;    /* two timestamps around each launch, or 0 */
  double clock_ms;   /* Note [vulkan device clock] */
  VkPipelineCache pcache; /* Note [vulkan pipeline cache] */
  int pcache_dirty;       /* a pipeline was made since it was loaded */
  /* Note [vulkan streams]: every native stream of the device, the
   * backend's own default one, and the recycled jobs and staging buffers
   * (all under vk_state.lock, the queue's mutex). */
  struct vk_stream *streams, *defstream;
  struct vk_job *free_jobs;
  struct vk_job *jhead, *jtail; /* submitted, not reaped: in order */
  vk_buf *free_stage;
  int nfree_stage;
  uint64_t submitted; /* batches submitted on native streams, for tests */
  vk_buf *pins; /* kern_host_alloc's imported blocks (Note [vulkan pinned
                   memory]); map is the caller's address */
  char pin_why[160];
} vk_dev;

typedef struct vk_state {
  kern_context *ctx;
  vk_dev *devs; /* nphys, made on first use */
  /* One submission at a time: the queue (one per device) and its command
   * pool need external synchronisation; also guards the streams' job lists
   * (Note [vulkan streams]). */
  pthread_mutex_t lock;
} vk_state;

typedef struct vk_kernel {
  char *symbol;
  const uint32_t *spv;
  size_t spv_size;
  VkPipeline pipeline;
  VkShaderModule module;
  const kc_kernel *info;
  struct vk_module *mod;
} vk_kernel;

typedef struct vk_module {
  int dev;
  unsigned char *blob; /* the SPIR-V of every kernel (Note [SPIR-V blob]) */
  size_t blob_size;
  int nkernels;
  vk_kernel *kernels;
  char **prints; /* Note [vulkan print]: the formats, by id */
  int nprints;
  int64_t frame; /* Note [vulkan scratch]: bytes per invocation, 0: none */
} vk_module;

static kern_status vk_fail(vk_state *st, const char *call, VkResult r) {
  return kern__error(st->ctx, r == -1 || r == -2 ? KERN_ERROR_OUT_OF_MEMORY
                                                 : KERN_ERROR_BACKEND_UNAVAILABLE,
                     "vulkan: %s failed: VkResult %d", call, (int)r);
}

/* ---------------------------------------------------------------- init */

/* Links the feature structures a query (vkGetPhysicalDeviceFeatures2) or
 * vkCreateDevice reads: 2 -> 1.1 -> 1.2 (-> atomic float where the device
 * has the extension); the caller's arrays hold them. */
static void vk_feature_chain(const vk_phys *p, uint32_t *f2, uint32_t *f11,
                             uint32_t *f12, uint32_t *faf, uint32_t *faf2) {
  void *p11 = f11, *p12 = f12, *paf = faf, *paf2 = faf2;
  faf2[0] = VK_ST_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT;
  f2[0] = VK_ST_PHYSICAL_DEVICE_FEATURES_2;
  f11[0] = VK_ST_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  f12[0] = VK_ST_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  faf[0] = VK_ST_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
  memcpy(&f2[2], &p11, sizeof p11);
  memcpy(&f11[2], &p12, sizeof p12);
  if (p->atomic_float_ext)
    memcpy(&f12[2], &paf, sizeof paf);
  /* atomic float 2 (float min and max) after atomic float, which it needs */
  if (p->atomic_float_ext && p->atomic_float2_ext)
    memcpy(&faf[2], &paf2, sizeof paf2);
}

static int vk_has_ext(const VkExtensionProperties *e, uint32_t n,
                      const char *name) {
  for (uint32_t i = 0; i < n; i++)
    if (!strcmp(e[i].name, name))
      return 1;
  return 0;
}

/* vkGetPhysicalDeviceProperties2 with one extension structure (its sType
 * set by the caller) chained after the core properties. */
static void vk_props2(VkPhysicalDevice pd, void *ext) {
  struct {
    uint32_t sType;
    void *pNext;
    unsigned char props[VK_PROPS_SIZE];
  } __attribute__((aligned(8))) p2;
  memset(&p2, 0, sizeof p2);
  p2.sType = VK_ST_PHYSICAL_DEVICE_PROPERTIES_2;
  p2.pNext = ext;
  vk_proc.vk.vkGetPhysicalDeviceProperties2(pd, &p2);
}

/* Note [vulkan float controls]
 * Without SPV_KHR_float_controls' execution modes a driver may compile
 * float code as if there were no NaNs, infinities, signed zeros or
 * denormals (NVIDIA's folds isinf and flushes float32 denormals), while
 * Warp and kern's other targets keep IEEE behaviour.  A module built for a
 * device that can keep them declares SignedZeroInfNanPreserve and
 * DenormPreserve for float32 and float64 (inserted into the
 * SPIR-V compiled; vk_blob_float_controls); the device's name and driver
 * are in the cache key already.  (GLSL's GL_EXT_spirv_intrinsics could
 * declare them, but glslang keeps one operand per mode: float32's or
 * float64's, not both.)  KERN_VULKAN_FLOAT_CONTROLS=0 builds without them.  lavapipe
 * (Mesa 22.3) mishandles the modes -- with them a float64 NaN converts to
 * float32 as 0 -- so llvmpipe builds without them.
 * KERN_VULKAN_DENORM_FLUSH=1 declares DenormFlushToZero for float32
 * instead, on any device, to test on lavapipe what NVIDIA's driver does
 * (it has no float32 DenormPreserve: Note [vulkan float32 denormals] in
 * src/emit/vulkan.c). */
static int vk_env_flag(const char *name);
static int vk_float_controls(const vk_phys *p) {
  if (vk_env_flag("KERN_VULKAN_DENORM_FLUSH"))
    return 16;
  const char *e = getenv("KERN_VULKAN_FLOAT_CONTROLS");
  if (e && !strcmp(e, "0"))
    return 0;
  if (!(e && !strcmp(e, "1")) && strstr(p->name, "llvmpipe"))
    return 0;
  struct {
    uint32_t sType;
    void *pNext;
    uint32_t denorm_independence, rounding_independence;
    uint32_t sz16, sz32, sz64, dn16, dn32, dn64, ftz[3], rte[3], rtz[3];
  } fc;
  memset(&fc, 0, sizeof fc);
  fc.sType = VK_ST_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
  vk_props2(p->pd, &fc);
  return (fc.sz32 ? 1 : 0) | (fc.sz64 ? 2 : 0) | (fc.dn32 ? 4 : 0) |
         (fc.dn64 ? 8 : 0);
}

static void vk_describe(vk_phys *p) {
  vk_table *vk = &vk_proc.vk;
  unsigned char props[VK_PROPS_SIZE] __attribute__((aligned(8)));
  memset(props, 0, sizeof props);
  vk->vkGetPhysicalDeviceProperties(p->pd, props);
  memcpy(&p->api, props + VK_PROPS_API, 4);
  memcpy(&p->vendor, props + VK_PROPS_VENDOR, 4);
  memcpy(&p->type, props + VK_PROPS_TYPE, 4);
  memcpy(&p->max_groups, props + VK_PROPS_MAX_GROUPS, 4);
  memcpy(&p->ts_period, props + VK_PROPS_TS_PERIOD, 4);
  memcpy(&p->device_id, props + VK_PROPS_DEVICE_ID, 4);
  memcpy(&p->driver_raw, props + VK_PROPS_DRIVER, 4);
  memcpy(p->cache_uuid, props + VK_PROPS_CACHE_UUID, 16);
  memcpy(p->name, props + VK_PROPS_NAME, 255);
  uint32_t drv;
  memcpy(&drv, props + VK_PROPS_DRIVER, 4);
  if (p->vendor == 0x10de) /* NVIDIA's own packing */
    snprintf(p->driver, sizeof p->driver, "%u.%u", drv >> 22, (drv >> 14) & 0xff);
  else
    snprintf(p->driver, sizeof p->driver, "%u.%u.%u", drv >> 22,
             (drv >> 12) & 0x3ff, drv & 0xfff);
  uint32_t next = 0;
  VkExtensionProperties *ext = NULL;
  if (vk->vkEnumerateDeviceExtensionProperties(p->pd, NULL, &next, NULL) == 0 &&
      next && (ext = kern__calloc(next, sizeof *ext)) &&
      vk->vkEnumerateDeviceExtensionProperties(p->pd, NULL, &next, ext) == 0) {
    p->atomic_float_ext = vk_has_ext(ext, next, "VK_EXT_shader_atomic_float");
    p->atomic_float2_ext = vk_has_ext(ext, next, "VK_EXT_shader_atomic_float2");
    p->host_import = vk_has_ext(ext, next, "VK_EXT_external_memory_host");
  }
  if (p->host_import) {
    /* VkPhysicalDeviceProperties2 -> ExternalMemoryHostPropertiesEXT */
    struct {
      uint32_t sType;
      void *pNext;
      uint64_t align;
    } hp = {VK_ST_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT, NULL, 0};
    vk_props2(p->pd, &hp);
    p->import_align = hp.align;
    if (!p->import_align || (p->import_align & (p->import_align - 1)))
      p->host_import = 0;
  }
  kern__free(ext);
  if (p->api >= VK_MAKE_API(1, 2))
    p->float_controls = vk_float_controls(p);
  uint32_t f2[VK_F2_WORDS + 1] = {0}, f11[VK_F11_WORDS] = {0},
           f12[VK_F12_WORDS] = {0}, faf[VK_FAF_WORDS] = {0},
           faf2[VK_FAF_WORDS] = {0};
  vk_feature_chain(p, f2, f11, f12, faf, faf2);
  if (p->api >= VK_MAKE_API(1, 2))
    vk->vkGetPhysicalDeviceFeatures2(p->pd, f2);
  p->fp64 = f2[VK_F2_FLOAT64] != 0;
  p->int64 = f2[VK_F2_INT64] != 0;
  p->int16 = f2[VK_F2_INT16] != 0;
  p->storage16 = f11[VK_F11_STORAGE16] != 0;
  p->storage8 = f12[VK_F12_STORAGE8] != 0;
  p->int8 = f12[VK_F12_INT8] != 0;
  p->int64_atomics = f12[VK_F12_INT64_ATOMICS] != 0;
  p->timeline = f12[VK_F12_TIMELINE] != 0;
  p->f32_atomic_add = faf[VK_FAF_F32_ADD] != 0;
  p->f64_atomic_add = faf[VK_FAF_F64_ADD] != 0;
  p->f32_atomics = faf[VK_FAF_F32] != 0;
  p->f32_atomic_minmax = p->atomic_float2_ext && faf2[VK_FAF2_F32_MINMAX] != 0;
  p->f64_atomic_minmax = p->atomic_float2_ext && faf2[VK_FAF2_F64_MINMAX] != 0;
  if (!f12[VK_F12_BDA])
    p->api = 0; /* unusable: vk_enumerate drops it */
  uint32_t nq = 0;
  vk->vkGetPhysicalDeviceQueueFamilyProperties(p->pd, &nq, NULL);
  VkQueueFamilyProperties q[16];
  if (nq > 16) nq = 16;
  vk->vkGetPhysicalDeviceQueueFamilyProperties(p->pd, &nq, q);
  /* Note [vulkan queues]: a compute family without graphics first */
  p->queue_family = UINT32_MAX;
  const char *fe = getenv("KERN_VULKAN_QUEUE_FAMILY");
  long want = fe && *fe ? strtol(fe, NULL, 10) : -1;
  for (int pass = 0; pass < 3 && p->queue_family == UINT32_MAX; pass++)
    for (uint32_t i = 0; i < nq; i++) {
      uint32_t fl = q[i].queueFlags;
      if (!(fl & VK_QUEUE_COMPUTE) ||
          (pass == 0 && (long)i != want) ||
          (pass == 1 && (fl & VK_QUEUE_GRAPHICS)))
        continue;
      p->queue_family = i;
      p->ts_bits = q[i].timestampValidBits;
      p->nqueues = q[i].queueCount < 1 ? 1
                   : q[i].queueCount > VK_MAX_QUEUES ? VK_MAX_QUEUES
                   : q[i].queueCount;
      break;
    }
  VkPhysicalDeviceMemoryProperties mp;
  memset(&mp, 0, sizeof mp);
  vk->vkGetPhysicalDeviceMemoryProperties(p->pd, &mp);
  for (uint32_t i = 0; i < mp.heapCount && i < 16; i++)
    if (mp.heaps[i].flags & 1) /* device-local heap */
      p->memory += mp.heaps[i].size;
  /* Note [vulkan memory]: staged where device-local memory the host cannot
   * map exists (a discrete GPU), or where KERN_VULKAN_STAGING says so. */
  for (uint32_t i = 0; i < mp.typeCount && i < 32; i++)
    if ((mp.types[i].flags & VK_MEM_DEVICE_LOCAL) &&
        !(mp.types[i].flags & VK_MEM_HOST_VISIBLE))
      p->staged = 1;
  const char *force = getenv("KERN_VULKAN_STAGING");
  if (force && *force) p->staged = strcmp(force, "0") != 0;
}

static void vk_load_shaderc(void) {
  const char *names[] = {getenv("KERN_SHADERC_LIBRARY"), "libshaderc.so.1",
                         "libshaderc_shared.so.1", "libshaderc_shared.so"};
  const char *tried = NULL;
  for (size_t i = 0; i < sizeof names / sizeof *names && !vk_proc.shaderc_lib; i++) {
    if (!names[i] || !names[i][0]) continue;
    if (!tried) tried = names[i];
    vk_proc.shaderc_lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (i == 0 && names[0] && names[0][0]) break; /* the override alone */
  }
  if (!vk_proc.shaderc_lib) {
    snprintf(vk_proc.shaderc_why, sizeof vk_proc.shaderc_why,
             "%s not found (Debian: libshaderc1)", tried ? tried : "libshaderc.so.1");
    return;
  }
  void *sym;
#define SC_LOAD(field)                                                        \
  sym = dlsym(vk_proc.shaderc_lib, "shaderc_" #field);                        \
  if (!sym) {                                                                 \
    snprintf(vk_proc.shaderc_why, sizeof vk_proc.shaderc_why,                 \
             "libshaderc lacks shaderc_%s", #field);                          \
    return;                                                                   \
  }                                                                           \
  memcpy(&vk_proc.sc.field, &sym, sizeof sym);
  SC_LOAD(compiler_initialize) SC_LOAD(compiler_release)
  SC_LOAD(compile_options_initialize) SC_LOAD(compile_options_release)
  SC_LOAD(compile_options_add_macro_definition)
  SC_LOAD(compile_options_set_target_env)
  SC_LOAD(compile_options_set_optimization_level) SC_LOAD(compile_into_spv)
  SC_LOAD(result_get_compilation_status) SC_LOAD(result_get_length)
  SC_LOAD(result_get_bytes) SC_LOAD(result_get_error_message)
  SC_LOAD(result_release)
#undef SC_LOAD
  vk_proc.have_shaderc = 1;
}

/* Note [GLSL to SPIR-V]: libshaderc, loaded with dlopen, compiles in
 * process; Debian 12's libshaderc1 cannot be loaded (it needs a symbol,
 * spvtools::utils::Timer's vtable, that Debian's SPIRV-Tools does not
 * export), so where it is missing or broken the backend runs the
 * glslangValidator program (glslang-tools) as the CPU backend runs cc:
 * posix_spawn with an argument vector, in a private mkdtemp directory.
 * $KERN_GLSLANG names the program. */
static int vk_find_glslang(void) {
  const char *env = getenv("KERN_GLSLANG");
  if (env && env[0]) {
    if (access(env, X_OK) != 0) return 0;
    snprintf(vk_proc.glslang, sizeof vk_proc.glslang, "%s", env);
    return 1;
  }
  const char *path = getenv("PATH");
  if (!path || !path[0]) path = "/usr/bin:/bin";
  while (*path) {
    size_t n = strcspn(path, ":");
    char cand[1024];
    if (n > 0 && n < sizeof cand - 20) {
      snprintf(cand, sizeof cand, "%.*s/glslangValidator", (int)n, path);
      if (access(cand, X_OK) == 0) {
        snprintf(vk_proc.glslang, sizeof vk_proc.glslang, "%s", cand);
        return 1;
      }
    }
    path += n;
    if (*path == ':') path++;
  }
  return 0;
}

static kern_status vk_init(void) {
  char *reason = vk_proc_reason;
  size_t rs = sizeof vk_proc_reason;
  const char *path = getenv("KERN_VULKAN_LIBRARY");
  if (!path || !path[0]) path = "libvulkan.so.1";
  /* RTLD_NODELETE: the loader and its drivers keep process-wide state, as
   * OpenCL's ICD loader does (backend_opencl.c). */
  vk_proc.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!vk_proc.lib) {
    snprintf(reason, rs, "%s not found (Debian: libvulkan1 and a driver, "
                         "mesa-vulkan-drivers for lavapipe)", path);
    return KERN_SUCCESS;
  }
  void *sym = dlsym(vk_proc.lib, "vkGetInstanceProcAddr");
  if (!sym) {
    snprintf(reason, rs, "%s lacks vkGetInstanceProcAddr", path);
    return KERN_SUCCESS;
  }
  memcpy(&vk_proc.vk.vkGetInstanceProcAddr, &sym, sizeof sym);
  PFN_vkVoidFunction f =
      vk_proc.vk.vkGetInstanceProcAddr(NULL, "vkCreateInstance");
  if (!f) {
    snprintf(reason, rs, "%s lacks vkCreateInstance", path);
    return KERN_SUCCESS;
  }
  memcpy(&vk_proc.vk.vkCreateInstance, &f, sizeof f);
  VkApplicationInfo app = {VK_ST_APPLICATION_INFO, NULL, "kern", 1, "kern", 1,
                           VK_MAKE_API(1, 2)};
  VkInstanceCreateInfo ici = {VK_ST_INSTANCE_CREATE_INFO, NULL, 0, &app,
                              0, NULL, 0, NULL};
  VkResult r = vk_proc.vk.vkCreateInstance(&ici, NULL, &vk_proc.instance);
  if (r != 0) {
    snprintf(reason, rs, "vkCreateInstance failed: VkResult %d (no Vulkan "
                         "1.2 driver?)", (int)r);
    vk_proc.instance = NULL;
    return r == -1 ? KERN_ERROR_OUT_OF_MEMORY : KERN_SUCCESS;
  }
#define VK_LOAD(ret, name, params)                                            \
  f = vk_proc.vk.vkGetInstanceProcAddr(vk_proc.instance, #name);              \
  if (!f) {                                                                   \
    snprintf(reason, rs, "the Vulkan loader lacks %s", #name);                \
    return KERN_SUCCESS;                                                      \
  }                                                                           \
  memcpy(&vk_proc.vk.name, &f, sizeof f);
  VK_FUNCTIONS(VK_LOAD)
#undef VK_LOAD
  uint32_t n = 0;
  r = vk_proc.vk.vkEnumeratePhysicalDevices(vk_proc.instance, &n, NULL);
  if (r != 0 || n == 0) {
    snprintf(reason, rs, "no Vulkan device (vkEnumeratePhysicalDevices: %d "
                         "devices, VkResult %d)", (int)n, (int)r);
    return KERN_SUCCESS;
  }
  VkPhysicalDevice *pds = kern__calloc(n, sizeof *pds);
  vk_proc.phys = kern__calloc(n, sizeof *vk_proc.phys);
  if (!pds || !vk_proc.phys) {
    kern__free(pds);
    kern__free(vk_proc.phys);
    vk_proc.phys = NULL;
    return KERN_ERROR_OUT_OF_MEMORY;
  }
  vk_proc.vk.vkEnumeratePhysicalDevices(vk_proc.instance, &n, pds);
  char dropped[128] = "";
  for (uint32_t i = 0; i < n; i++) {
    vk_phys *p = &vk_proc.phys[vk_proc.nphys];
    memset(p, 0, sizeof *p);
    p->pd = pds[i];
    vk_describe(p);
    if (p->api < VK_MAKE_API(1, 2) || p->queue_family == UINT32_MAX) {
      snprintf(dropped, sizeof dropped, "%.60s lacks Vulkan 1.2 with "
                                        "bufferDeviceAddress", p->name);
      continue;
    }
    vk_proc.nphys++;
  }
  kern__free(pds);
  if (vk_proc.nphys == 0) {
    snprintf(reason, rs, "no usable Vulkan device (%s)", dropped);
    return KERN_SUCCESS;
  }
  vk_load_shaderc();
  if (!vk_proc.have_shaderc && !vk_find_glslang()) {
    snprintf(reason, rs, "%s, and no glslangValidator on PATH (Debian: "
                         "glslang-tools); one compiles kern's GLSL to SPIR-V",
             vk_proc.shaderc_why);
    vk_proc.nphys = 0;
  }
  return KERN_SUCCESS;
}

static kern_status vk_probe(kern_context *ctx, void **state, char *reason,
                            size_t reason_size) {
  vk_state *st = kern__calloc(1, sizeof *st);
  if (!st) return KERN_ERROR_OUT_OF_MEMORY;
  st->ctx = ctx;
  pthread_mutex_init(&st->lock, NULL);
  snprintf(reason, reason_size, "%s", vk_proc_reason);
  if (vk_proc.nphys > 0) {
    st->devs = kern__calloc((size_t)vk_proc.nphys, sizeof *st->devs);
    if (!st->devs) {
      pthread_mutex_destroy(&st->lock);
      kern__free(st);
      return KERN_ERROR_OUT_OF_MEMORY;
    }
  }
  *state = st;
  return KERN_SUCCESS;
}

static void vk_buf_destroy(vk_dev *d, vk_buf *b) {
  vk_table *vk = &vk_proc.vk;
  if (b->buf) vk->vkDestroyBuffer(d->dev, b->buf, NULL);
  if (b->mem) vk->vkFreeMemory(d->dev, b->mem, NULL);
  kern__free(b);
}

static void vk_pcache_save(vk_state *st, vk_dev *d, const vk_phys *p);

static void vk_streams_release(vk_dev *d);
static void vk_release(void *state) {
  vk_state *st = state;
  if (!st) return;
  vk_table *vk = &vk_proc.vk;
  for (int i = 0; st->devs && i < vk_proc.nphys; i++) {
    vk_dev *d = &st->devs[i];
    if (!d->dev) continue;
    vk->vkDeviceWaitIdle(d->dev);
    vk_streams_release(d);
    while (d->bufs) {
      vk_buf *b = d->bufs;
      d->bufs = b->next;
      vk_buf_destroy(d, b);
    }
    if (d->args) vk_buf_destroy(d, d->args);
    if (d->print) vk_buf_destroy(d, d->print);
    if (d->scratch) vk_buf_destroy(d, d->scratch);
    if (d->stage) vk_buf_destroy(d, d->stage);
    if (d->ts) vk->vkDestroyQueryPool(d->dev, d->ts, NULL);
    if (d->pcache) {
      vk_pcache_save(st, d, &vk_proc.phys[i]);
      vk->vkDestroyPipelineCache(d->dev, d->pcache, NULL);
    }
    if (d->layout) vk->vkDestroyPipelineLayout(d->dev, d->layout, NULL);
    if (d->fence) vk->vkDestroyFence(d->dev, d->fence, NULL);
    if (d->pool) vk->vkDestroyCommandPool(d->dev, d->pool, NULL);
    vk->vkDestroyDevice(d->dev, NULL);
  }
  kern__free(st->devs);
  pthread_mutex_destroy(&st->lock);
  kern__free(st);
}

static int vk_device_count(void *state) {
  (void)state;
  return vk_proc.nphys;
}

static int vk_queue_count(const vk_phys *p);

static kern_status vk_device_info(void *state, int dev, kern_device_info *out) {
  (void)state;
  if (dev < 0 || dev >= vk_proc.nphys) return KERN_ERROR_INVALID_ARGUMENT;
  const vk_phys *p = &vk_proc.phys[dev];
  memset(out, 0, sizeof *out);
  out->backend = KERN_BACKEND_VULKAN;
  out->index = dev;
  snprintf(out->name, sizeof out->name, "%.120s", p->name);
  snprintf(out->description, sizeof out->description,
           "Vulkan %u.%u, driver %s, %.1f GiB, fp64 %s, int64 %s, "
           "float32 atomic add %s, %u compute queue%s (family %u)",
           p->api >> 22, (p->api >> 12) & 0x3ff, p->driver,
           (double)p->memory / (1024.0 * 1024.0 * 1024.0),
           p->fp64 ? "yes" : "no", p->int64 ? "yes" : "no",
           p->f32_atomic_add ? "yes" : "no (refused)", (unsigned)vk_queue_count(p),
           vk_queue_count(p) == 1 ? "" : "s", p->queue_family);
  if (p->staged) {
    size_t l = strlen(out->description);
    snprintf(out->description + l, sizeof out->description - l,
             ", arrays device-local (staged copies)");
  }
  out->memory_bytes = p->memory;
  out->capability_major = (int)(p->api >> 22);
  out->capability_minor = (int)((p->api >> 12) & 0x3ff);
  out->fp64 = p->fp64;
  out->int64_atomics = p->int64_atomics;
  out->max_group_size = 64;
  snprintf(out->driver_version, sizeof out->driver_version, "%s", p->driver);
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- devices */

/* $name set to something other than "" or "0". */
static int vk_env_flag(const char *name) {
  const char *e = getenv(name);
  return e && *e && strcmp(e, "0") != 0;
}

static kern_status vk_buf_new(vk_state *st, vk_dev *d, size_t bytes,
                              uint32_t type, int map, vk_buf **out);

/* Note [vulkan pipeline cache]: the driver's VkPipelineCache of each
 * device is kept in kern's cache directory, one entry per device and
 * driver: key = SHA-256 of "kern-vulkan-pipeline-cache-1", vendorID,
 * deviceID, driverVersion and pipelineCacheUUID; extension ".vkpc".  The
 * entry is the data vkGetPipelineCacheData gave, stored like every cache
 * entry (temporary file and rename, SHA-256 footer: cache.c), so a
 * truncated or altered file is a miss and removed.  Before the data goes
 * to vkCreatePipelineCache its own header, as Vulkan defines it
 * (VK_PIPELINE_CACHE_HEADER_VERSION_ONE: headerSize >= 32, version 1,
 * vendorID, deviceID, pipelineCacheUUID), must match the device, or the
 * data is dropped: drivers should reject foreign data themselves, but a
 * file is no reason to trust that.  The cache is loaded when the device
 * is opened and written back when the context is freed, if a pipeline
 * was made meanwhile.  Every step is quiet (ctx->quiet): a cache that
 * cannot be read or written costs a recompile, never an error.
 * KERN_VULKAN_NO_PIPELINE_CACHE=1 or kern_options.no_cache turns it off. */
static void vk_pcache_key(const vk_phys *p, char key[65]) {
  kern__sha256 h;
  unsigned char dg[32];
  static const char tag[] = "kern-vulkan-pipeline-cache-1";
  kern__sha256_init(&h);
  kern__sha256_update(&h, tag, sizeof tag);
  kern__sha256_update(&h, &p->vendor, 4);
  kern__sha256_update(&h, &p->device_id, 4);
  kern__sha256_update(&h, &p->driver_raw, 4);
  kern__sha256_update(&h, p->cache_uuid, 16);
  kern__sha256_final(&h, dg);
  kern__sha256_hex(dg, key);
}

static int vk_pcache_on(vk_state *st) {
  return !st->ctx->opts.no_cache && !vk_env_flag("KERN_VULKAN_NO_PIPELINE_CACHE");
}

/* 1 when data starts with a pipeline cache header of device p. */
static int vk_pcache_header_ok(const vk_phys *p, const unsigned char *data,
                               size_t size) {
  uint32_t hs, ver, vendor, device;
  if (size < 32) return 0;
  memcpy(&hs, data, 4);
  memcpy(&ver, data + 4, 4);
  memcpy(&vendor, data + 8, 4);
  memcpy(&device, data + 12, 4);
  return hs >= 32 && hs <= size && ver == 1 && vendor == p->vendor &&
         device == p->device_id && memcmp(data + 16, p->cache_uuid, 16) == 0;
}

static void vk_pcache_load(vk_state *st, vk_dev *d, const vk_phys *p) {
  vk_table *vk = &vk_proc.vk;
  void *data = NULL;
  size_t size = 0;
  if (vk_pcache_on(st)) {
    char key[65];
    vk_pcache_key(p, key);
    st->ctx->quiet++;
    if (kern__cache_get(st->ctx, key, ".vkpc", &data, &size, NULL, 0) !=
        KERN_SUCCESS)
      data = NULL;
    st->ctx->quiet--;
    if (data && !vk_pcache_header_ok(p, data, size)) {
      kern__free(data);
      data = NULL;
    }
  }
  VkPipelineCacheCreateInfo ci = {VK_ST_PIPELINE_CACHE_CREATE_INFO, NULL, 0,
                                  data ? size : 0, data};
  if (vk->vkCreatePipelineCache(d->dev, &ci, NULL, &d->pcache) != 0) {
    /* the driver refused the data: start empty */
    VkPipelineCacheCreateInfo e = {VK_ST_PIPELINE_CACHE_CREATE_INFO, NULL, 0,
                                   0, NULL};
    if (vk->vkCreatePipelineCache(d->dev, &e, NULL, &d->pcache) != 0)
      d->pcache = 0;
  }
  kern__free(data);
}

static void vk_pcache_save(vk_state *st, vk_dev *d, const vk_phys *p) {
  vk_table *vk = &vk_proc.vk;
  if (!d->pcache || !d->pcache_dirty || !vk_pcache_on(st)) return;
  size_t size = 0;
  if (vk->vkGetPipelineCacheData(d->dev, d->pcache, &size, NULL) != 0 ||
      size < 32 || size > ((size_t)1 << 30))
    return;
  unsigned char *data = kern__malloc(size);
  if (!data) return;
  if (vk->vkGetPipelineCacheData(d->dev, d->pcache, &size, data) == 0 &&
      vk_pcache_header_ok(p, data, size)) {
    char key[65];
    const char *dir;
    vk_pcache_key(p, key);
    st->ctx->quiet++;
    if (kern__cache_dir(st->ctx, &dir) == KERN_SUCCESS)
      kern__cache_put(st->ctx, key, ".vkpc", data, size, NULL, 0);
    st->ctx->quiet--;
  }
  kern__free(data);
}

/* Note [vulkan queues]: a device whose compute family has several queues
 * (NVIDIA's has 8 or more, lavapipe's one) gets up to VK_MAX_QUEUES of
 * them, $KERN_VULKAN_QUEUES (1 or more) fewer.  Queue 0 serves the
 * synchronous calls and the default stream; each native stream made with
 * kern_stream_new takes the next queue in turn, so two streams' batches
 * are on different queues and may run at the same time, as two CUDA
 * streams' kernels do.  Order within a stream and events across streams
 * are timeline semaphores (Note [vulkan streams]), which work across the
 * queues of a device; every batch ends with a full memory barrier and the
 * semaphore signal makes its writes visible to the batches that wait for
 * it, on any queue of the family (one family: no ownership transfers).
 * vkQueueSubmit is still called under vk_state.lock.  The family is the
 * first with compute and without graphics where there is one (NVIDIA's
 * family 2; kernels on two queues of its graphics family 0 did not run at
 * once on an H200), else the first with compute (lavapipe's only one);
 * $KERN_VULKAN_QUEUE_FAMILY=N picks family N if it has compute. */
static int vk_queue_count(const vk_phys *p) {
  int n = p->nqueues ? (int)p->nqueues : 1;
  const char *e = getenv("KERN_VULKAN_QUEUES");
  if (e && *e) {
    long v = strtol(e, NULL, 10);
    if (v >= 1 && v < n) n = (int)v;
  }
  return n;
}

/* The logical device, queue, command buffer, fence and pipeline layout of
 * dev, made on first use. */
static kern_status vk_open(vk_state *st, int dev, vk_dev **out) {
  if (dev < 0 || dev >= vk_proc.nphys)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "vulkan: no device %d", dev);
  vk_dev *d = &st->devs[dev];
  *out = d;
  if (d->dev) return KERN_SUCCESS;
  d->index = dev;
  vk_table *vk = &vk_proc.vk;
  const vk_phys *p = &vk_proc.phys[dev];
  /* Every feature the device has, but robustBufferAccess (Note [Vulkan
   * stage 1]): query the chain again and pass it as it came. */
  uint32_t f2[VK_F2_WORDS + 1] = {0}, f11[VK_F11_WORDS] = {0},
           f12[VK_F12_WORDS] = {0}, faf[VK_FAF_WORDS] = {0},
           faf2[VK_FAF_WORDS] = {0};
  vk_feature_chain(p, f2, f11, f12, faf, faf2);
  vk->vkGetPhysicalDeviceFeatures2(p->pd, f2);
  f2[VK_F2_ROBUST] = 0;
  float prio[VK_MAX_QUEUES];
  int nq = vk_queue_count(p);
  for (int i = 0; i < nq; i++) prio[i] = 1.0f;
  VkDeviceQueueCreateInfo qi = {VK_ST_DEVICE_QUEUE_CREATE_INFO, NULL, 0,
                                p->queue_family, (uint32_t)nq, prio};
  const char *exts[3];
  uint32_t nexts = 0;
  if (p->atomic_float_ext) exts[nexts++] = "VK_EXT_shader_atomic_float";
  if (p->atomic_float_ext && p->atomic_float2_ext)
    exts[nexts++] = "VK_EXT_shader_atomic_float2";
  if (p->host_import) exts[nexts++] = "VK_EXT_external_memory_host";
  VkDeviceCreateInfo dci = {VK_ST_DEVICE_CREATE_INFO, f2, 0, 1, &qi, 0, NULL,
                            nexts, exts, NULL};
  VkResult r = vk->vkCreateDevice(p->pd, &dci, NULL, &d->dev);
  if (r != 0) {
    d->dev = NULL;
    return vk_fail(st, "vkCreateDevice", r);
  }
  for (int i = 0; i < nq; i++)
    vk->vkGetDeviceQueue(d->dev, p->queue_family, (uint32_t)i, &d->queues[i]);
  d->queue = d->queues[0];
  d->nqueues = nq;
  VkCommandPoolCreateInfo pci = {VK_ST_COMMAND_POOL_CREATE_INFO, NULL,
                                 VK_POOL_RESET_BUFFER, p->queue_family};
  if ((r = vk->vkCreateCommandPool(d->dev, &pci, NULL, &d->pool)) != 0)
    return vk_fail(st, "vkCreateCommandPool", r);
  VkCommandBufferAllocateInfo cai = {VK_ST_COMMAND_BUFFER_ALLOCATE_INFO, NULL,
                                     d->pool, 0, 1};
  if ((r = vk->vkAllocateCommandBuffers(d->dev, &cai, &d->cmd)) != 0)
    return vk_fail(st, "vkAllocateCommandBuffers", r);
  VkFenceCreateInfo fci = {VK_ST_FENCE_CREATE_INFO, NULL, 0};
  if ((r = vk->vkCreateFence(d->dev, &fci, NULL, &d->fence)) != 0)
    return vk_fail(st, "vkCreateFence", r);
  /* the arguments' address, the print buffer's (Note [vulkan print]) and
   * the scratch frames' (Note [vulkan scratch]) */
  VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE, 0, 24};
  VkPipelineLayoutCreateInfo lci = {VK_ST_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0,
                                    0, NULL, 1, &pcr};
  if ((r = vk->vkCreatePipelineLayout(d->dev, &lci, NULL, &d->layout)) != 0)
    return vk_fail(st, "vkCreatePipelineLayout", r);
  /* Timestamps around each launch (Note [vulkan device clock]); without
   * them the host's time of the submission stands in. */
  vk_pcache_load(st, d, p);
  if (p->ts_bits && p->ts_period > 0 && !vk_env_flag("KERN_VULKAN_NO_TIMESTAMPS")) {
    VkQueryPoolCreateInfo qpi = {VK_ST_QUERY_POOL_CREATE_INFO, NULL, 0,
                                 VK_QUERY_TIMESTAMP, 2, 0};
    if (vk->vkCreateQueryPool(d->dev, &qpi, NULL, &d->ts) != 0) d->ts = 0;
  }
  /* Arrays' memory: host-visible and coherent, device-local when the
   * device has such a type (Note [Vulkan stage 1]). */
  VkPhysicalDeviceMemoryProperties mp;
  memset(&mp, 0, sizeof mp);
  vk->vkGetPhysicalDeviceMemoryProperties(p->pd, &mp);
  uint32_t want = VK_MEM_HOST_VISIBLE | VK_MEM_HOST_COHERENT;
  d->mem_type = UINT32_MAX;
  for (int pass = 0; pass < 2 && d->mem_type == UINT32_MAX; pass++)
    for (uint32_t i = 0; i < mp.typeCount && i < 32; i++) {
      uint32_t fl = mp.types[i].flags;
      if ((fl & want) == want && (pass || (fl & VK_MEM_DEVICE_LOCAL))) {
        d->mem_type = i;
        break;
      }
    }
  if (d->mem_type == UINT32_MAX)
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "vulkan: device '%s' has no host-visible coherent "
                       "memory", p->name);
  /* Note [vulkan memory]: staged arrays live in device-local memory the
   * host need not see (such a type first, else any device-local one: the
   * forced staging of KERN_VULKAN_STAGING=1 on lavapipe), the staging
   * buffer in host-visible memory that is not device-local if there is
   * such a type (system memory, which the GPU reads over PCIe at its full
   * rate), else the arguments' type. */
  d->dev_type = d->host_type = d->mem_type;
  if (p->staged) {
    uint32_t dt = UINT32_MAX;
    for (int pass = 0; pass < 2 && dt == UINT32_MAX; pass++)
      for (uint32_t i = 0; i < mp.typeCount && i < 32; i++) {
        uint32_t fl = mp.types[i].flags;
        if ((fl & VK_MEM_DEVICE_LOCAL) && (pass || !(fl & VK_MEM_HOST_VISIBLE))) {
          dt = i;
          break;
        }
      }
    if (dt != UINT32_MAX) d->dev_type = dt;
    for (uint32_t i = 0; i < mp.typeCount && i < 32; i++) {
      uint32_t fl = mp.types[i].flags;
      if ((fl & want) == want && !(fl & VK_MEM_DEVICE_LOCAL)) {
        d->host_type = i;
        break;
      }
    }
    d->stage_size = (size_t)64 << 20;
    const char *e = getenv("KERN_VULKAN_STAGING_BYTES");
    if (e && *e) {
      long long v = atoll(e);
      d->stage_size = v < 256 ? 256 : (size_t)v;
    }
  }
  return vk_buf_new(st, d, 4096, d->mem_type, 1, &d->args);
}

static kern_status vk_buf_new(vk_state *st, vk_dev *d, size_t bytes,
                              uint32_t type, int map, vk_buf **out) {
  vk_table *vk = &vk_proc.vk;
  vk_buf *b = kern__calloc(1, sizeof *b);
  if (!b)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: out of memory");
  b->size = bytes;
  VkBufferCreateInfo bi = {VK_ST_BUFFER_CREATE_INFO, NULL, 0,
                           bytes ? bytes : 16,
                           VK_USAGE_STORAGE | VK_USAGE_DEVICE_ADDRESS |
                               VK_USAGE_TRANSFER_SRC | VK_USAGE_TRANSFER_DST,
                           0, 0, NULL};
  VkResult r = vk->vkCreateBuffer(d->dev, &bi, NULL, &b->buf);
  if (r != 0) {
    b->buf = 0;
    vk_buf_destroy(d, b);
    return kern__error(st->ctx, r == -1 || r == -2 ? KERN_ERROR_OUT_OF_MEMORY
                                                   : KERN_ERROR_INVALID_ARGUMENT,
                       "vulkan: cannot make a buffer of %zu bytes "
                       "(vkCreateBuffer: VkResult %d)", bytes, (int)r);
  }
  VkMemoryRequirements req;
  vk->vkGetBufferMemoryRequirements(d->dev, b->buf, &req);
  if (!(req.memoryTypeBits & (1u << type))) {
    vk_buf_destroy(d, b);
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "vulkan: buffers cannot live in memory type %u "
                       "on this device", type);
  }
  VkMemoryAllocateFlagsInfo fl = {VK_ST_MEMORY_ALLOCATE_FLAGS_INFO, NULL,
                                  VK_ALLOC_DEVICE_ADDRESS, 0};
  VkMemoryAllocateInfo ai = {VK_ST_MEMORY_ALLOCATE_INFO, &fl, req.size,
                             type};
  if ((r = vk->vkAllocateMemory(d->dev, &ai, NULL, &b->mem)) != 0) {
    b->mem = 0;
    vk_buf_destroy(d, b);
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: cannot allocate %zu bytes (VkResult %d)",
                       bytes, (int)r);
  }
  if ((r = vk->vkBindBufferMemory(d->dev, b->buf, b->mem, 0)) != 0 ||
      (map && (r = vk->vkMapMemory(d->dev, b->mem, 0, ~(uint64_t)0, 0,
                                   (void **)&b->map)) != 0)) {
    vk_buf_destroy(d, b);
    return vk_fail(st, "vkBindBufferMemory/vkMapMemory", r);
  }
  VkBufferDeviceAddressInfo dai = {VK_ST_BUFFER_DEVICE_ADDRESS_INFO, NULL,
                                   b->buf};
  b->addr = vk->vkGetBufferDeviceAddress(d->dev, &dai);
  *out = b;
  return KERN_SUCCESS;
}

/* Note [vulkan device clock]: on generic streams (Note [vulkan streams]:
 * a device without timeline semaphores) events stamp a clock when their
 * worker reaches them; on native streams, when their record's batch is
 * reaped, after every batch submitted before it added its GPU time (two
 * timestamps around each batch).  The host's clock would time each launch's
 * recording, submission and fence wait too, so events on vulkan read this
 * clock instead: per device, the sum of every launch's duration between
 * its two GPU timestamps (vkCmdWriteTimestamp at the top and bottom of the
 * pipe, in ticks of limits.timestampPeriod nanoseconds, masked to the
 * queue's timestampValidBits) and of the host time of every copy and fill
 * (memcpy on the mapping).  So kern_event_elapsed between two events is
 * the device's busy time between them, as kern bench's timer "events"
 * wants; idle gaps do not count.  A device without timestamps (or
 * KERN_VULKAN_NO_TIMESTAMPS=1) adds the host time of the submission and
 * wait instead. */
static double vk_device_clock_ms(void *state, int dev) {
  vk_state *st = state;
  if (!st || dev < 0 || dev >= vk_proc.nphys || !st->devs) return 0;
  pthread_mutex_lock(&st->lock);
  double t = st->devs[dev].clock_ms;
  pthread_mutex_unlock(&st->lock);
  return t;
}

/* Adds a host-side copy's time to dev's clock. */
static void vk_clock_add(vk_state *st, int dev, double ms) {
  if (dev < 0 || dev >= vk_proc.nphys) return;
  pthread_mutex_lock(&st->lock);
  st->devs[dev].clock_ms += ms;
  pthread_mutex_unlock(&st->lock);
}

/* ---------------------------------------------------------------- memory */

static void vk_sync_default(vk_state *st, int dev);

static kern_status vk_mem_alloc(void *state, int dev, size_t bytes, void **out) {
  vk_state *st = state;
  vk_dev *d;
  kern_status s = vk_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  vk_buf *b;
  pthread_mutex_lock(&st->lock);
  s = vk_buf_new(st, d, bytes, vk_proc.phys[dev].staged ? d->dev_type
                                                        : d->mem_type,
                 !vk_proc.phys[dev].staged, &b);
  if (s == KERN_SUCCESS) {
    b->next = d->bufs;
    d->bufs = b;
    *out = b;
  }
  pthread_mutex_unlock(&st->lock);
  return s;
}

static void vk_mem_free(void *state, int dev, void *p) {
  vk_state *st = state;
  if (!p || dev < 0 || dev >= vk_proc.nphys) return;
  vk_dev *d = &st->devs[dev];
  pthread_mutex_lock(&st->lock);
  for (vk_buf **pp = &d->bufs; *pp; pp = &(*pp)->next)
    if (*pp == p) {
      *pp = ((vk_buf *)p)->next;
      vk_buf_destroy(d, p);
      break;
    }
  pthread_mutex_unlock(&st->lock);
}

static kern_status vk_range(vk_state *st, const vk_buf *b, size_t off,
                            size_t bytes) {
  if (!b || off > b->size || bytes > b->size - off)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "vulkan: copy of %zu bytes at %zu outside a buffer of %zu",
                       bytes, off, b ? b->size : 0);
  return KERN_SUCCESS;
}

/* Note [vulkan memory]: where arrays are device-local (a discrete GPU, or
 * KERN_VULKAN_STAGING=1), the host never maps them: uploads memcpy into
 * one reusable host-visible staging buffer per device (64 MiB, or
 * $KERN_VULKAN_STAGING_BYTES) and copy it into the array with
 * vkCmdCopyBuffer, a chunk at a time; downloads the other way; fills
 * write the pattern into the staging buffer once and copy it over the
 * array; device-to-device copies are one vkCmdCopyBuffer (through the
 * staging buffer when source and destination overlap in one buffer).
 * Every submission waits on the device's fence, under st->lock, and
 * ends with a barrier from its writes to any later command and the
 * host, so the next launch or copy sees them.  Elsewhere (lavapipe and
 * other devices whose only memory is host-visible) arrays are mapped
 * and copies are memcpy. */
static VkResult vk_xfer_begin(vk_dev *d) {
  vk_table *vk = &vk_proc.vk;
  VkCommandBufferBeginInfo bi = {VK_ST_COMMAND_BUFFER_BEGIN_INFO, NULL, 1, NULL};
  VkResult r;
  if ((r = vk->vkResetCommandBuffer(d->cmd, 0)) != 0 ||
      (r = vk->vkBeginCommandBuffer(d->cmd, &bi)) != 0)
    return r;
  VkMemoryBarrier in = {VK_ST_MEMORY_BARRIER, NULL,
                        VK_ACCESS_HOST_WRITE | VK_ACCESS_MEMORY_WRITE,
                        VK_ACCESS_TRANSFER_READ | VK_ACCESS_TRANSFER_WRITE};
  vk->vkCmdPipelineBarrier(d->cmd, VK_STAGE_HOST | VK_STAGE_ALL_COMMANDS,
                           VK_STAGE_TRANSFER, 0, 1, &in, 0, NULL, 0, NULL);
  return 0;
}

/* Between two copies of one submission: the first's writes before the
 * second's reads. */
static void vk_xfer_mid(vk_dev *d) {
  VkMemoryBarrier m = {VK_ST_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE,
                       VK_ACCESS_TRANSFER_READ | VK_ACCESS_TRANSFER_WRITE};
  vk_proc.vk.vkCmdPipelineBarrier(d->cmd, VK_STAGE_TRANSFER, VK_STAGE_TRANSFER,
                                  0, 1, &m, 0, NULL, 0, NULL);
}

static VkResult vk_xfer_end(vk_dev *d) {
  vk_table *vk = &vk_proc.vk;
  VkMemoryBarrier out = {VK_ST_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE,
                         VK_ACCESS_MEMORY_READ | VK_ACCESS_MEMORY_WRITE |
                             VK_ACCESS_HOST_READ};
  vk->vkCmdPipelineBarrier(d->cmd, VK_STAGE_TRANSFER,
                           VK_STAGE_ALL_COMMANDS | VK_STAGE_HOST, 0, 1, &out,
                           0, NULL, 0, NULL);
  VkResult r = vk->vkEndCommandBuffer(d->cmd);
  if (r != 0) return r;
  VkSubmitInfo si = {VK_ST_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &d->cmd, 0, NULL};
  if ((r = vk->vkQueueSubmit(d->queue, 1, &si, d->fence)) != 0) return r;
  r = vk->vkWaitForFences(d->dev, 1, &d->fence, 1, UINT64_MAX);
  vk->vkResetFences(d->dev, 1, &d->fence);
  return r;
}

/* The staging buffer of d, made on first use (st->lock held). */
static kern_status vk_stage(vk_state *st, vk_dev *d) {
  if (d->stage) return KERN_SUCCESS;
  return vk_buf_new(st, d, d->stage_size, d->host_type, 1, &d->stage);
}

static int vk_staged(vk_state *st, int dev) {
  (void)st;
  return dev >= 0 && dev < vk_proc.nphys && vk_proc.phys[dev].staged;
}

/* What the staged copies do, one per call (st->lock held). */
enum { VK_IN, VK_OUT, VK_DD, VK_FILL };
static kern_status vk_staged_copy(vk_state *st, int dev, int what, vk_buf *b,
                                  size_t off, const vk_buf *sb, size_t soff,
                                  void *host, const void *chost, size_t bytes) {
  vk_dev *d = &st->devs[dev];
  vk_table *vk = &vk_proc.vk;
  kern_status s = vk_stage(st, d);
  if (s != KERN_SUCCESS) return s;
  size_t chunk = d->stage_size;
  VkResult r = 0;
  if (what == VK_FILL) {
    size_t ps = soff; /* the pattern's size */
    if (ps == 0 || ps > chunk)
      return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                         "vulkan: a fill pattern of %zu bytes is larger than "
                         "the staging buffer (%zu bytes)", ps, chunk);
    chunk -= chunk % ps;
    size_t n = bytes < chunk ? bytes : chunk;
    for (size_t o = 0; o + ps <= n; o += ps) memcpy(d->stage->map + o, chost, ps);
    if ((r = vk_xfer_begin(d)) != 0) goto fail;
    for (size_t o = 0; o < bytes; o += chunk) {
      VkBufferCopy c = {0, off + o, bytes - o < chunk ? bytes - o : chunk};
      vk->vkCmdCopyBuffer(d->cmd, d->stage->buf, b->buf, 1, &c);
    }
    if ((r = vk_xfer_end(d)) != 0) goto fail;
    return KERN_SUCCESS;
  }
  if (what == VK_DD) {
    int overlap = b == sb && off < soff + bytes && soff < off + bytes;
    if (!overlap) {
      VkBufferCopy c = {soff, off, bytes};
      if ((r = vk_xfer_begin(d)) != 0) goto fail;
      vk->vkCmdCopyBuffer(d->cmd, sb->buf, b->buf, 1, &c);
      if ((r = vk_xfer_end(d)) != 0) goto fail;
      return KERN_SUCCESS;
    }
    /* memmove: chunks through the staging buffer, from the end when the
     * destination is after the source */
    for (size_t k = 0; k < bytes; k += chunk) {
      size_t c = bytes - k < chunk ? bytes - k : chunk;
      size_t o = off > soff ? bytes - k - c : k;
      VkBufferCopy c1 = {soff + o, 0, c}, c2 = {0, off + o, c};
      if ((r = vk_xfer_begin(d)) != 0) goto fail;
      vk->vkCmdCopyBuffer(d->cmd, sb->buf, d->stage->buf, 1, &c1);
      vk_xfer_mid(d);
      vk->vkCmdCopyBuffer(d->cmd, d->stage->buf, b->buf, 1, &c2);
      if ((r = vk_xfer_end(d)) != 0) goto fail;
    }
    return KERN_SUCCESS;
  }
  for (size_t o = 0; o < bytes; o += chunk) {
    size_t c = bytes - o < chunk ? bytes - o : chunk;
    if (what == VK_IN) memcpy(d->stage->map, (const char *)chost + o, c);
    VkBufferCopy cp = {what == VK_IN ? 0 : off + o, what == VK_IN ? off + o : 0, c};
    if ((r = vk_xfer_begin(d)) != 0) goto fail;
    if (what == VK_IN)
      vk->vkCmdCopyBuffer(d->cmd, d->stage->buf, b->buf, 1, &cp);
    else
      vk->vkCmdCopyBuffer(d->cmd, b->buf, d->stage->buf, 1, &cp);
    if ((r = vk_xfer_end(d)) != 0) goto fail;
    if (what == VK_OUT) memcpy((char *)host + o, d->stage->map, c);
  }
  return KERN_SUCCESS;
fail:
  return vk_fail(st, "a staged copy", r);
}

/* Runs one staged copy under the lock and counts its time on the device
 * clock. */
static kern_status vk_staged_run(vk_state *st, int dev, int what, vk_buf *b,
                                 size_t off, const vk_buf *sb, size_t soff,
                                 void *host, const void *chost, size_t bytes) {
  pthread_mutex_lock(&st->lock);
  double h0 = kern__now_ms();
  kern_status s = vk_staged_copy(st, dev, what, b, off, sb, soff, host, chost,
                                 bytes);
  st->devs[dev].clock_ms += kern__now_ms() - h0;
  pthread_mutex_unlock(&st->lock);
  return s;
}

static kern_status vk_copy_in_at(void *state, int dev, void *dst, size_t off,
                                 const void *src, size_t bytes) {
  (void)dev;
  vk_sync_default(state, dev);
  vk_buf *b = dst;
  kern_status s = vk_range(state, b, off, bytes);
  if (s == KERN_SUCCESS && bytes && vk_staged(state, dev))
    return vk_staged_run(state, dev, VK_IN, b, off, NULL, 0, NULL, src, bytes);
  if (s == KERN_SUCCESS && bytes) {
    double h0 = kern__now_ms();
    memcpy(b->map + off, src, bytes);
    vk_clock_add(state, dev, kern__now_ms() - h0);
  }
  return s;
}

static kern_status vk_copy_out_at(void *state, int dev, void *dst,
                                  const void *src, size_t off, size_t bytes) {
  (void)dev;
  vk_sync_default(state, dev);
  const vk_buf *b = src;
  kern_status s = vk_range(state, b, off, bytes);
  if (s == KERN_SUCCESS && bytes && vk_staged(state, dev))
    return vk_staged_run(state, dev, VK_OUT, (vk_buf *)b, off, NULL, 0, dst,
                         NULL, bytes);
  if (s == KERN_SUCCESS && bytes) {
    double h0 = kern__now_ms();
    memcpy(dst, b->map + off, bytes);
    vk_clock_add(state, dev, kern__now_ms() - h0);
  }
  return s;
}

static kern_status vk_copy_in(void *state, int dev, void *dst, const void *src,
                              size_t bytes) {
  return vk_copy_in_at(state, dev, dst, 0, src, bytes);
}

static kern_status vk_copy_out(void *state, int dev, void *dst,
                               const void *src, size_t bytes) {
  return vk_copy_out_at(state, dev, dst, src, 0, bytes);
}

static kern_status vk_copy_dd(void *state, int dev, void *dst, size_t doff,
                              const void *src, size_t soff, size_t bytes) {
  (void)dev;
  vk_sync_default(state, dev);
  vk_buf *d = dst;
  const vk_buf *s = src;
  kern_status st = vk_range(state, d, doff, bytes);
  if (st == KERN_SUCCESS) st = vk_range(state, s, soff, bytes);
  if (st == KERN_SUCCESS && bytes && vk_staged(state, dev))
    return vk_staged_run(state, dev, VK_DD, d, doff, s, soff, NULL, NULL,
                         bytes);
  if (st == KERN_SUCCESS && bytes) {
    double h0 = kern__now_ms();
    memmove(d->map + doff, s->map + soff, bytes);
    vk_clock_add(state, dev, kern__now_ms() - h0);
  }
  return st;
}

static kern_status vk_fill(void *state, int dev, void *dst, const void *pattern,
                           size_t pattern_size, size_t bytes) {
  (void)dev;
  vk_sync_default(state, dev);
  vk_buf *b = dst;
  kern_status s = vk_range(state, b, 0, bytes);
  if (s != KERN_SUCCESS) return s;
  if (vk_staged(state, dev))
    return bytes ? vk_staged_run(state, dev, VK_FILL, b, 0, NULL, pattern_size,
                                 NULL, pattern, bytes)
                 : KERN_SUCCESS;
  double h0 = kern__now_ms();
  for (size_t o = 0; pattern_size && o + pattern_size <= bytes; o += pattern_size)
    memcpy(b->map + o, pattern, pattern_size);
  vk_clock_add(state, dev, kern__now_ms() - h0);
  return KERN_SUCCESS;
}

static void vk_reap(vk_dev *d);
static kern_status vk_synchronize(void *state, int dev) {
  /* synchronous launches waited for themselves; native streams' work
   * (Note [vulkan streams]) is waited for here */
  vk_state *st = state;
  if (!st->devs || dev < 0 || dev >= vk_proc.nphys || !st->devs[dev].dev)
    return KERN_SUCCESS;
  vk_dev *d = &st->devs[dev];
  VkResult r = vk_proc.vk.vkDeviceWaitIdle(d->dev);
  pthread_mutex_lock(&st->lock);
  vk_reap(d);
  pthread_mutex_unlock(&st->lock);
  return r == 0 ? KERN_SUCCESS : vk_fail(st, "vkDeviceWaitIdle", r);
}

/* ---------------------------------------------------------------- modules */

/* Note [SPIR-V blob]: a module's cache entry is, per kernel, the symbol's
 * length (4 bytes), the symbol, the SPIR-V's length (4 bytes, a multiple
 * of 4), the SPIR-V; the words are in the host's byte order, like the
 * SPIR-V itself.  The key holds shaderc's target and the device's name and
 * driver, so another driver compiles anew. */
/* The device's macros, each defined to 1 when its module is compiled
 * (and part of the cache key):
 *  - the native float atomics it has, which choose them over the
 *    compare-and-swap loops (Note [vulkan float atomics] in
 *    emit/vulkan.c); none where KERN_VULKAN_NO_FLOAT_ATOMICS=1 (tests use
 *    it to run the loops on a device that has the atomics);
 *  - KVK_NO_UNROLL on llvmpipe (Note [vulkan loop unrolling] in
 *    emit/vulkan.c); KERN_VULKAN_LOOP_UNROLL=1 lets it unroll, =0 stops
 *    any device from unrolling. */
#define VK_ADEF_MAX 6
static const char *vk_device_defs(const vk_phys *p, char *buf, size_t n) {
  const char *no = getenv("KERN_VULKAN_NO_FLOAT_ATOMICS");
  const char *un = getenv("KERN_VULKAN_LOOP_UNROLL");
  int keep = un && !strcmp(un, "0") ? 1
              : un && !strcmp(un, "1") ? 0
              : strstr(p->name, "llvmpipe") != NULL;
  int fa = !(no && no[0] && strcmp(no, "0"));
  snprintf(buf, n, "%s%s%s%s%s%s", fa && p->f32_atomic_add ? "KVK_F32_ADD " : "",
           fa && p->f64_atomic_add ? "KVK_F64_ADD " : "",
           fa && p->f32_atomic_minmax ? "KVK_F32_MINMAX " : "",
           fa && p->f64_atomic_minmax ? "KVK_F64_MINMAX " : "",
           fa && p->f32_atomics ? "KVK_F32_EXCH " : "",
           keep ? "KVK_NO_UNROLL " : "");
  return buf;
}

typedef struct vk_build {
  vk_state *st;
  int dev;
  const char *defs;
  unsigned char *built;
  size_t built_size;
} vk_build;

/* Reads a whole small file (the SPIR-V or the log); NULL on failure. */
static unsigned char *vk_read(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  unsigned char *p = kern__malloc(cap);
  while (p) {
    size_t got = fread(p + n, 1, cap - n - 1, f);
    n += got;
    if (n < cap - 1) break;
    unsigned char *np = kern__realloc(p, cap * 2);
    if (!np) {
      kern__free(p);
      p = NULL;
      break;
    }
    p = np;
    cap *= 2;
  }
  fclose(f);
  if (p) {
    p[n] = 0;
    *size = n;
  }
  return p;
}

/* $KERN_VULKAN_UNROLL, 1 to 16: the grid-stride loop's unroll factor
 * (Note [vulkan unroll] in emit/vulkan.c; the emitted default is 1), for
 * measurements; NULL when unset or not such a number.  It is part of the
 * SPIR-V cache key. */
static const char *vk_unroll(void) {
  const char *e = getenv("KERN_VULKAN_UNROLL");
  if (!e || !*e) return NULL;
  char *end;
  long n = strtol(e, &end, 10);
  return *end == 0 && n >= 1 && n <= 16 ? e : NULL;
}

/* One kernel through glslangValidator: the SPIR-V in *spv (kern__malloc),
 * or the compiler's output in *log. */
static kern_status vk_glslang(vk_state *st, const char *dir, const char *sym,
                              const char *defs,
                              unsigned char **spv, size_t *size, char **log) {
  char src[4200], out[4200], lg[4200], def[300];
  snprintf(src, sizeof src, "%s/kernel.comp", dir);
  snprintf(out, sizeof out, "%s/%s.spv", dir, sym);
  snprintf(lg, sizeof lg, "%s/%s.log", dir, sym);
  snprintf(def, sizeof def, "-DKERN_MAIN=%s", sym);
  char udef[40];
  const char *u = vk_unroll();
  snprintf(udef, sizeof udef, "-DK_UNROLL=%s", u ? u : "1");
  /* the device's macros (vk_device_defs), one -D each */
  char adef[VK_ADEF_MAX][24];
  const char *argv[24] = {vk_proc.glslang, "-V", "--target-env", "vulkan1.2",
                          "-S", "comp", def, udef};
  int na = 8;
  for (int i = 0; i < VK_ADEF_MAX && defs && *defs; i++) {
    size_t l = strcspn(defs, " ");
    snprintf(adef[i], sizeof adef[i], "-D%.*s", (int)l, defs);
    argv[na++] = adef[i];
    defs += l + (defs[l] == ' ');
  }
  argv[na++] = "-o"; argv[na++] = out; argv[na++] = src; argv[na] = NULL;
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, lg, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  extern char **environ;
  int rc = posix_spawn(&pid, vk_proc.glslang, &fa, NULL, (char *const *)argv,
                       environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return kern__error(st->ctx, KERN_ERROR_COMPILE, "vulkan: cannot run %s: %s",
                       vk_proc.glslang, strerror(rc));
  int ws = 0;
  pid_t w;
  while ((w = waitpid(pid, &ws, 0)) < 0 && errno == EINTR) {
  }
  size_t n = 0;
  if (w == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 &&
      (*spv = vk_read(out, size)) != NULL) {
    unlink(out);
    unlink(lg);
    return KERN_SUCCESS;
  }
  *log = (char *)vk_read(lg, &n);
  if (!*log && (*log = kern__malloc(32)))
    snprintf(*log, 32, "(no output, status %d)", ws);
  unlink(out);
  unlink(lg);
  return KERN_ERROR_COMPILE;
}

/* The message for a failed compile of kernel `name`: an emitter's refusal
 * ("#error kern: ...") alone, else the compiler's output. */
static kern_status vk_compile_error(vk_state *st, const char *name,
                                    const char *msg, const char *src) {
  const char *k = msg ? strstr(msg, "kern : ") : NULL;
  /* the refusal as the emitter wrote it (the preprocessor's message
   * spaces its tokens apart: "wp . func_native") */
  const char *e = k && src ? strstr(src, "#error kern: ") : NULL;
  if (e) {
    size_t n = strcspn(e + 13, "\n");
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "vulkan: kernel '%s': %.*s", name, (int)n, e + 13);
  }
  if (k) {
    size_t n = strcspn(k + 7, "\n");
    while (n && k[7 + n - 1] == ' ') n--;
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "vulkan: kernel '%s': %.*s", name, (int)n, k + 7);
  }
  return kern__error(st->ctx, KERN_ERROR_COMPILE,
                     "vulkan: kernel '%s': GLSL compile failed (a construct "
                     "the vulkan target does not spell yet):\n%s",
                     name, msg ? msg : "");
}

static kern_status vk_compile_glslang(vk_state *st, const kc_result *code,
                                      kern__blob *out, const char *defs) {
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/kern-vk.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(dir))
    return kern__error(st->ctx, KERN_ERROR_IO, "vulkan: mkdtemp %s: %s", dir,
                       strerror(errno));
  char src[4200];
  snprintf(src, sizeof src, "%s/kernel.comp", dir);
  kern_status s = KERN_SUCCESS;
  int fd = open(src, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 || write(fd, code->source, code->source_len) !=
                    (ssize_t)code->source_len)
    s = kern__error(st->ctx, KERN_ERROR_IO, "vulkan: cannot write %s", src);
  if (fd >= 0) close(fd);
  size_t cap = 0, len = 0;
  unsigned char *blob = NULL;
  for (int i = 0; i < code->nkernels && s == KERN_SUCCESS; i++) {
    const char *sym = code->kernels[i].symbol;
    unsigned char *spv = NULL;
    size_t n = 0;
    char *log = NULL;
    s = vk_glslang(st, dir, sym, defs, &spv, &n, &log);
    if (s == KERN_ERROR_COMPILE && log)
      s = vk_compile_error(st, code->kernels[i].name, log, code->source);
    kern__free(log);
    if (s != KERN_SUCCESS) break;
    size_t sl = strlen(sym), need = len + 8 + sl + n;
    if (need > cap) {
      unsigned char *nb = kern__realloc(blob, need * 2);
      if (!nb) {
        kern__free(spv);
        s = kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
        break;
      }
      blob = nb;
      cap = need * 2;
    }
    uint32_t w = (uint32_t)sl;
    memcpy(blob + len, &w, 4);
    memcpy(blob + len + 4, sym, sl);
    w = (uint32_t)n;
    memcpy(blob + len + 4 + sl, &w, 4);
    memcpy(blob + len + 8 + sl, spv, n);
    len = need;
    kern__free(spv);
  }
  unlink(src);
  rmdir(dir);
  if (s != KERN_SUCCESS) {
    kern__free(blob);
    return s;
  }
  out->bytes = blob;
  out->size = len;
  return KERN_SUCCESS;
}

/* Note [spirv-val]: with $KERN_VULKAN_SPIRV_VAL naming SPIRV-Tools'
 * validator (spirv-val), every kernel the backend compiles is validated
 * for Vulkan 1.2 before it is cached or loaded, and a module it rejects
 * fails to build with the validator's words.  CI sets it for the
 * conformance suite on lavapipe, so every module the suite builds is
 * checked (issue #27); users may set it to check a driver problem.  The
 * SPIR-V goes through a file in a private mkdtemp directory, as the
 * glslangValidator route does. */
static kern_status vk_spirv_val(vk_state *st, const char *prog,
                                const kc_result *code, const kern__blob *b) {
  const char *tmp = getenv("TMPDIR");
  char dir[4096], spv[4200], lg[4200];
  snprintf(dir, sizeof dir, "%s/kern-vkval.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(dir))
    return kern__error(st->ctx, KERN_ERROR_IO, "vulkan: mkdtemp %s: %s", dir,
                       strerror(errno));
  snprintf(spv, sizeof spv, "%s/k.spv", dir);
  snprintf(lg, sizeof lg, "%s/k.log", dir);
  kern_status s = KERN_SUCCESS;
  size_t o = 0;
  for (int i = 0; o + 8 <= b->size && s == KERN_SUCCESS; i++) {
    uint32_t sl, sz;
    const unsigned char *p = b->bytes;
    memcpy(&sl, p + o, 4);
    memcpy(&sz, p + o + 4 + sl, 4);
    const unsigned char *words = p + o + 8 + sl;
    o += 8 + (size_t)sl + sz;
    int fd = open(spv, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, words, sz) != (ssize_t)sz) {
      if (fd >= 0) close(fd);
      s = kern__error(st->ctx, KERN_ERROR_IO, "vulkan: cannot write %s", spv);
      break;
    }
    close(fd);
    const char *argv[] = {prog, "--target-env", "vulkan1.2", spv, NULL};
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) {
      s = kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
      break;
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, lg, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    extern char **environ;
    int rc = posix_spawn(&pid, prog, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
      s = kern__error(st->ctx, KERN_ERROR_COMPILE, "vulkan: cannot run "
                      "$KERN_VULKAN_SPIRV_VAL (%s): %s", prog, strerror(rc));
      break;
    }
    int ws = 0;
    pid_t w;
    while ((w = waitpid(pid, &ws, 0)) < 0 && errno == EINTR) {
    }
    if (w != pid || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
      size_t n = 0;
      char *log = (char *)vk_read(lg, &n);
      const char *name = i < code->nkernels ? code->kernels[i].name : "?";
      s = kern__error(st->ctx, KERN_ERROR_COMPILE,
                      "vulkan: kernel '%s': %s rejected its SPIR-V:\n%.*s",
                      name, prog, (int)(n > 2000 ? 2000 : n), log ? log : "");
      kern__free(log);
    }
  }
  unlink(spv);
  unlink(lg);
  rmdir(dir);
  return s;
}

static kern_status vk_compile_any(vk_state *st, const kc_result *code,
                                  kern__blob *out, const char *defs);

/* Note [vulkan grid]: the most work groups one launch dispatches. */
static int64_t vk_group_cap(void) {
  static int64_t cap;
  int64_t c = __atomic_load_n(&cap, __ATOMIC_RELAXED);
  if (c) return c;
  c = 4096;
  const char *e = getenv("KERN_VULKAN_GROUPS");
  if (e && *e) {
    char *end;
    long long v = strtoll(e, &end, 10);
    if (*end == '\0' && v >= 1 && v <= 65535LL * 16) c = v;
  }
  __atomic_store_n(&cap, c, __ATOMIC_RELAXED);
  return c;
}

/* One kernel's SPIR-V with the float controls of fc (Note [vulkan float
 * controls]): the capabilities after the header, the execution modes after
 * the entry point.  SPIR-V 1.4 made SPV_KHR_float_controls core (kern
 * targets Vulkan 1.2: SPIR-V 1.5), so no OpExtension.  NULL where the
 * module is not one kern's compilers write (left as it is). */
static uint32_t *vk_spirv_fc(const uint32_t *w, size_t n, int fc, size_t *nout) {
  if (n < 5 || w[0] != 0x07230203u)
    return NULL;
  size_t at = 5, ep_end = 0;
  uint32_t entry = 0;
  while (at < n) {
    uint32_t wc = w[at] >> 16, op = w[at] & 0xffff;
    if (wc == 0 || at + wc > n)
      return NULL;
    if (op == 15) { /* OpEntryPoint model id name... */
      if (ep_end)
        return NULL; /* one entry point per kernel */
      entry = w[at + 2];
      ep_end = at + wc;
    }
    at += wc;
  }
  if (!ep_end)
    return NULL;
  /* capability: SignedZeroInfNanPreserve 4466, DenormPreserve 4464,
   * DenormFlushToZero 4465; mode: SignedZeroInfNanPreserve 4461,
   * DenormPreserve 4459, DenormFlushToZero 4460 */
  static const uint32_t bit[5][2] = {{4466, 4461}, {4466, 4461},
                                     {4464, 4459}, {4464, 4459},
                                     {4465, 4460}};
  static const uint32_t width[5] = {32, 64, 32, 64, 32};
  uint32_t *r = kern__malloc((n + 5 * 2 + 5 * 4) * sizeof *r);
  if (!r)
    return NULL;
  size_t k = 0;
  memcpy(r, w, 5 * sizeof *r);
  k = 5;
  int caps = 0;
  for (int b = 0; b < 5; b++)
    if (fc >> b & 1) {
      int c = b < 2 ? 1 : b < 4 ? 2 : 4;
      if (!(caps & c)) {
        r[k++] = 2u << 16 | 17; /* OpCapability */
        r[k++] = bit[b][0];
        caps |= c;
      }
    }
  memcpy(r + k, w + 5, (ep_end - 5) * sizeof *r);
  k += ep_end - 5;
  for (int b = 0; b < 5; b++)
    if (fc >> b & 1) {
      r[k++] = 4u << 16 | 16; /* OpExecutionMode entry mode width */
      r[k++] = entry;
      r[k++] = bit[b][1];
      r[k++] = width[b];
    }
  memcpy(r + k, w + ep_end, (n - ep_end) * sizeof *r);
  k += n - ep_end;
  *nout = k;
  return r;
}

/* The blob (Note [SPIR-V blob]) with each kernel's SPIR-V given the float
 * controls of fc. */
static kern_status vk_blob_float_controls(vk_state *st, kern__blob *b, int fc) {
  const unsigned char *p = b->bytes, *end = p + b->size;
  size_t cap = b->size + 64 * 4, len = 0;
  unsigned char *o = kern__malloc(cap);
  if (!o)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
  while (p < end) {
    uint32_t sl, n;
    if (end - p < 4) break;
    memcpy(&sl, p, 4);
    if ((size_t)(end - p) < 8 + (size_t)sl) break;
    memcpy(&n, p + 4 + sl, 4);
    const unsigned char *spv = p + 8 + sl;
    if ((size_t)(end - spv) < n || n % 4) break;
    uint32_t *w = kern__malloc(n ? n : 4);
    size_t nw = 0;
    uint32_t *pw = NULL;
    if (w) {
      memcpy(w, spv, n);
      pw = vk_spirv_fc(w, n / 4, fc, &nw);
    }
    const void *src = pw ? (const void *)pw : (const void *)spv;
    size_t sn = pw ? nw * 4 : n;
    if (len + 8 + sl + sn > cap) {
      size_t nc = (len + 8 + sl + sn) * 2;
      unsigned char *no = kern__realloc(o, nc);
      if (!no) {
        kern__free(w);
        kern__free(pw);
        kern__free(o);
        return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
      }
      o = no;
      cap = nc;
    }
    memcpy(o + len, p, 4 + sl);
    uint32_t nn = (uint32_t)sn;
    memcpy(o + len + 4 + sl, &nn, 4);
    memcpy(o + len + 8 + sl, src, sn);
    len += 8 + sl + sn;
    kern__free(w);
    kern__free(pw);
    p = spv + n;
  }
  if (p != end) {
    kern__free(o);
    return kern__error(st->ctx, KERN_ERROR_COMPILE, "vulkan: malformed SPIR-V blob");
  }
  kern__free((void *)b->bytes);
  b->bytes = o;
  b->size = len;
  return KERN_SUCCESS;
}

static kern_status vk_compile(void *self, const kc_result *code, int for_cache,
                              kern__blob *out) {
  (void)for_cache;
  vk_build *b = self;
  vk_state *st = b->st;
  kern_status s = vk_compile_any(st, code, out, b->defs);
  int fc = vk_proc.phys[b->dev].float_controls;
  if (s == KERN_SUCCESS && fc)
    s = vk_blob_float_controls(st, out, fc);
  const char *val = getenv("KERN_VULKAN_SPIRV_VAL");
  if (s == KERN_SUCCESS && val && val[0] &&
      (s = vk_spirv_val(st, val, code, out)) != KERN_SUCCESS) {
    kern__free((void *)out->bytes);
    out->bytes = NULL;
    out->size = 0;
  }
  return s;
}

static kern_status vk_compile_any(vk_state *st, const kc_result *code,
                                  kern__blob *out, const char *defs) {
  if (!vk_proc.have_shaderc) return vk_compile_glslang(st, code, out, defs);
  shaderc_table *sc = &vk_proc.sc;
  void *comp = sc->compiler_initialize();
  void *opts = sc->compile_options_initialize();
  if (!comp || !opts) {
    if (opts) sc->compile_options_release(opts);
    if (comp) sc->compiler_release(comp);
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: shaderc could not start");
  }
  sc->compile_options_set_target_env(opts, SHADERC_TARGET_VULKAN,
                                     VK_MAKE_API(1, 2));
  sc->compile_options_set_optimization_level(opts, SHADERC_OPT_PERFORMANCE);
  size_t cap = 0, len = 0;
  unsigned char *blob = NULL;
  kern_status s = KERN_SUCCESS;
  for (int i = 0; i < code->nkernels && s == KERN_SUCCESS; i++) {
    const char *sym = code->kernels[i].symbol;
    void *o = sc->compile_options_initialize();
    if (!o) {
      s = kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
      break;
    }
    sc->compile_options_set_target_env(o, SHADERC_TARGET_VULKAN, VK_MAKE_API(1, 2));
    sc->compile_options_set_optimization_level(o, SHADERC_OPT_PERFORMANCE);
    sc->compile_options_add_macro_definition(o, "KERN_MAIN", 9, sym, strlen(sym));
    const char *u = vk_unroll();
    if (u) sc->compile_options_add_macro_definition(o, "K_UNROLL", 8, u, strlen(u));
    for (const char *q = defs; q && *q;) {
      size_t l = strcspn(q, " ");
      sc->compile_options_add_macro_definition(o, q, l, "1", 1);
      q += l + (q[l] == ' ');
    }
    void *r = sc->compile_into_spv(comp, code->source, code->source_len,
                                   SHADERC_COMPUTE, "kernel.comp", "main", o);
    sc->compile_options_release(o);
    if (!r || sc->result_get_compilation_status(r) != SHADERC_SUCCESS) {
      const char *msg = r ? sc->result_get_error_message(r) : "out of memory";
      s = vk_compile_error(st, code->kernels[i].name, msg, code->source);
      if (r) sc->result_release(r);
      break;
    }
    size_t n = sc->result_get_length(r);
    size_t sl = strlen(sym);
    size_t need = len + 8 + sl + n;
    if (need > cap) {
      size_t nc = need * 2;
      unsigned char *nb = kern__realloc(blob, nc);
      if (!nb) {
        sc->result_release(r);
        s = kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
        break;
      }
      blob = nb;
      cap = nc;
    }
    uint32_t w = (uint32_t)sl;
    memcpy(blob + len, &w, 4);
    memcpy(blob + len + 4, sym, sl);
    w = (uint32_t)n;
    memcpy(blob + len + 4 + sl, &w, 4);
    memcpy(blob + len + 8 + sl, sc->result_get_bytes(r), n);
    len = need;
    sc->result_release(r);
  }
  sc->compile_options_release(opts);
  sc->compiler_release(comp);
  if (s != KERN_SUCCESS) {
    kern__free(blob);
    return s;
  }
  out->bytes = blob;
  out->size = len;
  return KERN_SUCCESS;
}

static void vk_module_free(void *state, void *module) {
  vk_state *st = state;
  vk_module *m = module;
  if (!m) return;
  vk_dev *d = &st->devs[m->dev];
  for (int i = 0; i < m->nkernels; i++) {
    vk_kernel *k = &m->kernels[i];
    if (k->pipeline) vk_proc.vk.vkDestroyPipeline(d->dev, k->pipeline, NULL);
    if (k->module) vk_proc.vk.vkDestroyShaderModule(d->dev, k->module, NULL);
    kern__free(k->symbol);
  }
  kern__free(m->kernels);
  kern__free(m->blob);
  for (int i = 0; i < m->nprints; i++)
    kern__free(m->prints[i]);
  kern__free(m->prints);
  kern__free(m);
}

static kern_status vk_load(void *self, const kern__blob *in, void **module) {
  vk_build *b = self;
  vk_state *st = b->st;
  const unsigned char *p = in->bytes;
  size_t n = in->size;
  vk_module *m = kern__calloc(1, sizeof *m);
  if (!m || !(m->blob = kern__malloc(n ? n : 1))) {
    kern__free(m);
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
  }
  m->dev = b->dev;
  if (n) /* a module with no kernels (only generic ones) is empty */
    memcpy(m->blob, p, n);
  m->blob_size = n;
  /* count, then index, the kernels */
  for (int pass = 0; pass < 2; pass++) {
    size_t o = 0;
    int k = 0;
    while (o < n) {
      uint32_t sl, sz;
      if (n - o < 4) goto bad;
      memcpy(&sl, m->blob + o, 4);
      if (n - o - 4 < (size_t)sl + 4) goto bad;
      memcpy(&sz, m->blob + o + 4 + sl, 4);
      if (n - o - 8 - sl < sz || sz % 4) goto bad;
      if (pass) {
        m->kernels[k].symbol = kern__malloc((size_t)sl + 1);
        if (!m->kernels[k].symbol) goto oom;
        memcpy(m->kernels[k].symbol, m->blob + o + 4, sl);
        m->kernels[k].symbol[sl] = 0;
        m->kernels[k].spv = (const uint32_t *)(m->blob + o + 8 + sl);
        m->kernels[k].spv_size = sz;
      }
      k++;
      o += 8 + (size_t)sl + sz;
    }
    if (!pass) {
      m->nkernels = k;
      m->kernels = kern__calloc(k ? (size_t)k : 1, sizeof *m->kernels);
      if (!m->kernels) goto oom;
    }
  }
  *module = m;
  return KERN_SUCCESS;
bad:
  vk_module_free(st, m);
  return kern__error(st->ctx, KERN_ERROR_IO, "vulkan: corrupt SPIR-V blob");
oom:
  vk_module_free(st, m);
  return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
}

/* The first kernel of code with atomics, for a refusal's message. */
static const char *vk_atomic_kernel(const kc_result *code) {
  for (int j = 0; j < code->nkernels; j++)
    if (code->kernels[j].has_atomics) return code->kernels[j].name;
  return "?";
}

static kern_status vk_check_features(vk_state *st, const vk_phys *p,
                                     const kc_result *code) {
  for (int i = 0; i < code->nkernels; i++) {
    const kc_kernel *k = &code->kernels[i];
    if (k->needs_fp64 && !p->fp64)
      return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                         "vulkan: kernel '%s' uses float64, but device '%s' "
                         "lacks shaderFloat64", k->name, p->name);
  }
  if (!p->int64)
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "vulkan: device '%s' lacks shaderInt64, which every "
                       "kern kernel uses (64-bit indices and shapes)", p->name);
  /* Float atomics the device lacks run as compare-and-swap loops on the
   * element's bits (Note [vulkan float atomics] in emit/vulkan.c); a
   * float64 one needs 64-bit buffer atomics. */
  if (code->source && !p->int64_atomics && strstr(code->source, "kcas_u64"))
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "vulkan: kernel '%s' uses a float64 atomic, but device "
                       "'%s' lacks shaderBufferInt64Atomics",
                       vk_atomic_kernel(code), p->name);
  return KERN_SUCCESS;
}

static kern_status vk_print_table(vk_state *st, const char *src, vk_module *m);

static kern_status vk_module_build(void *state, int dev, const kc_result *code,
                                   void **module) {
  vk_state *st = state;
  vk_dev *d;
  kern_status s = vk_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  if (!code || !code->source)
    return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                       "vulkan: no source to build");
  const vk_phys *p = &vk_proc.phys[dev];
  s = vk_check_features(st, p, code);
  if (s != KERN_SUCCESS) return s;
  const char *env = vk_proc.have_shaderc ? "shaderc vulkan1.2 O"
                                         : "glslangValidator vulkan1.2";
  const char *unroll = vk_unroll();
  if (!unroll) unroll = "";
  char fc[16];
  snprintf(fc, sizeof fc, "fc%d", p->float_controls);
  char defs[128];
  vk_device_defs(p, defs, sizeof defs);
  kern__key_part key[] = {{env, strlen(env)},
                          {p->name, strlen(p->name)},
                          {p->driver, strlen(p->driver)},
                          {unroll, strlen(unroll)},
                          {fc, strlen(fc)},
                          {defs, strlen(defs)}};
  vk_build b = {st, dev, defs, NULL, 0};
  kern__builder bd = {"vulkan", ".spv", key, (int)(sizeof key / sizeof *key),
                      0, &b, vk_compile, vk_load};
  s = kern__cached_build(st->ctx, &bd, code, module);
  if (s == KERN_SUCCESS && (s = vk_print_table(st, code->source, *module))) {
    vk_module_free(st, *module);
    *module = NULL;
  }
  if (s == KERN_SUCCESS) { /* Note [vulkan scratch] */
    vk_module *m = *module;
    static const char tag[] = "\n// kern-scratch ";
    const char *q = strstr(code->source, tag);
    m->frame = q ? strtoll(q + sizeof tag - 1, NULL, 10) : 0;
    if (m->frame < 0) m->frame = 0;
    for (int i = 0; i < m->nkernels; i++) /* vk_print_table sets it only */
      m->kernels[i].mod = m;              /* where the module prints */
  }
  return s;
}

static kern_status vk_kernel_get(void *state, void *module, const kc_kernel *kk,
                                 void **fn) {
  vk_state *st = state;
  vk_module *m = module;
  vk_kernel *k = NULL;
  for (int i = 0; i < m->nkernels; i++)
    if (!strcmp(m->kernels[i].symbol, kk->symbol)) k = &m->kernels[i];
  if (!k)
    return kern__error(st->ctx, KERN_ERROR_NOT_FOUND,
                       "vulkan: kernel '%s' is not in the module", kk->name);
  if (!k->pipeline) {
    vk_dev *d = &st->devs[m->dev];
    vk_table *vk = &vk_proc.vk;
    VkShaderModuleCreateInfo smi = {VK_ST_SHADER_MODULE_CREATE_INFO, NULL, 0,
                                    k->spv_size, k->spv};
    VkResult r = vk->vkCreateShaderModule(d->dev, &smi, NULL, &k->module);
    if (r != 0) {
      k->module = 0;
      return vk_fail(st, "vkCreateShaderModule", r);
    }
    VkComputePipelineCreateInfo ci;
    memset(&ci, 0, sizeof ci);
    ci.sType = VK_ST_COMPUTE_PIPELINE_CREATE_INFO;
    ci.stage.sType = VK_ST_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE;
    ci.stage.module = k->module;
    ci.stage.pName = "main";
    ci.layout = d->layout;
    ci.basePipelineIndex = -1;
    r = vk->vkCreateComputePipelines(d->dev, d->pcache, 1, &ci, NULL,
                                     &k->pipeline);
    d->pcache_dirty = 1;
    if (r != 0) {
      k->pipeline = 0;
      return vk_fail(st, "vkCreateComputePipelines", r);
    }
  }
  k->info = kk;
  *fn = k;
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- launch */

static size_t vk_align_of(kern_type t) {
  /* a struct sits at its alignment in the std430 block (emit/vulkan.c
   * checks that its layout is C's) */
  if (t.kind == KERN_KIND_STRUCT) return t.cols > 0 ? (size_t)t.cols : 1;
  size_t a = kern_scalar_size(t.scalar);
  return a ? a : 4;
}

static vk_buf *vk_find(vk_dev *d, const void *p) {
  for (vk_buf *b = d->bufs; b; b = b->next)
    if (b == p) return b;
  return NULL;
}

/* Note [vulkan indexed arrays] (emit/indexed.c): Warp's indexedarray_t at
 * w, a parameter or a struct's field (runtime/indexed.c wrote kern's
 * buffer handles in it), its data and index addresses made device
 * addresses. */
static kern_status vk_indexed_addrs(vk_state *st, vk_dev *d, int dev,
                                    const char *name, unsigned char *w) {
  for (int j = -1; j < 4; j++) {
    unsigned char *at = w + (j < 0 ? 0 : 56 + 8 * (size_t)j);
    uint64_t h;
    memcpy(&h, at, 8);
    if (!h) continue;
    vk_buf *b = vk_find(d, (const void *)(uintptr_t)h);
    if (!b)
      return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                         "vulkan: argument '%s': %s is not a vulkan:%d array",
                         name, j < 0 ? "the data array" : "an index array",
                         dev);
    memcpy(at, &b->addr, 8);
  }
  return KERN_SUCCESS;
}

/* Writes a launch's arguments, in the std430 layout of the kernel's kargs
 * block, into tmp (*size bytes) and its work-group count into *groups
 * (st->lock held). */
static kern_status vk_pack(vk_state *st, vk_dev *d, int dev, const kc_kernel *k,
                           void *const *args, const kern__dims *dims,
                           unsigned char tmp[4096], size_t *size,
                           int64_t *groups_out) {
  size_t off = 0;
  for (int i = 0; i < k->nparams; i++) {
    const kc_param *p = &k->params[i];
    if (p->kind == KERN_PARAM_ARRAY) {
      const kern__arr *a = args[i];
      vk_buf *b = vk_find(d, a->data);
      if (!b && a->data)
        return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                           "vulkan: argument '%s' is not a vulkan:%d array",
                           p->name, dev);
      off = (off + 7) & ~(size_t)7;
      if (off + 40 > 4096) {
        off = 4096;
        break;
      }
      uint64_t addr = b ? b->addr - (uint64_t)a->off * kern_type_size(p->type) : 0;
      memcpy(tmp + off, &addr, 8);
      memcpy(tmp + off + 8, a->shape, 32);
      off += 40;
    } else if (p->kind == KERN_PARAM_INDEXED) {
      off = (off + 7) & ~(size_t)7;
      if (off + KERN_STRUCT_INDEXED_SIZE > 4096) {
        off = 4096;
        break;
      }
      memcpy(tmp + off, args[i], KERN_STRUCT_INDEXED_SIZE);
      kern_status s = vk_indexed_addrs(st, d, dev, p->name, tmp + off);
      if (s != KERN_SUCCESS) return s;
      off += KERN_STRUCT_INDEXED_SIZE;
    } else {
      size_t al = vk_align_of(p->type), n = kern__value_arg_size(p->type);
      off = (off + al - 1) & ~(al - 1);
      if (off + n > 4096) {
        off = 4096;
        break;
      }
      memcpy(tmp + off, args[i], n);
      /* a struct's array fields (Warp's array_t, kern_struct_set_array)
       * hold kern's handle of the buffer: the kernel reads its device
       * address there */
      for (int f = 0; f < p->nfields; f++) {
        const kc_field *fd = &p->fields[f];
        if (fd->kind == KERN_PARAM_INDEXED) {
          if (fd->offset + KERN_STRUCT_INDEXED_SIZE > n) continue;
          kern_status s = vk_indexed_addrs(st, d, dev, p->name,
                                           tmp + off + fd->offset);
          if (s != KERN_SUCCESS) return s;
          continue;
        }
        if (fd->kind != KERN_PARAM_ARRAY || fd->offset + 8 > n) continue;
        uint64_t h;
        memcpy(&h, tmp + off + fd->offset, 8);
        if (!h) continue; /* a null array stays null */
        vk_buf *b = vk_find(d, (const void *)(uintptr_t)h);
        if (!b)
          return kern__error(st->ctx, KERN_ERROR_INVALID_ARGUMENT,
                             "vulkan: argument '%s': field '%s' is not a "
                             "vulkan:%d array", p->name, fd->name, dev);
        memcpy(tmp + off + fd->offset, &b->addr, 8);
      }
      off += n;
    }
  }
  off = (off + 7) & ~(size_t)7;
  if (off + sizeof *dims > 4096)
    return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                       "vulkan: kernel '%s' has more than 4 KiB of arguments",
                       k->name);
  kern__dims dd = *dims;
  dd.chunk = 0;
  memcpy(tmp + off, &dd, sizeof dd);
  off += sizeof dd;
  *size = off;
  int64_t n = dims->total - dims->begin;
  int64_t groups = (n + 63) / 64;
  uint32_t maxg = vk_proc.phys[dev].max_groups ? vk_proc.phys[dev].max_groups : 65535;
  if (groups > (int64_t)maxg) groups = maxg;
  /* Note [vulkan grid]: a bounded grid, as CUDA's (SMs x resident blocks):
   * the kernels loop over the items (k_t += k_G), so each invocation does
   * many and its aggregated atomics' partials (emit/vulkan.c) cover them;
   * $KERN_VULKAN_GROUPS overrides the bound (a tuning knob for
   * measurements, bench/NOTES.md run 8). */
  if (groups > vk_group_cap()) groups = vk_group_cap();
  *groups_out = groups;
  return KERN_SUCCESS;
}

/* Note [vulkan print] (emit/vulkan.c): the print buffer holds a 32-bit
 * count of words used, the capacity, then the records (a format id, then
 * one 64-bit slot per conversion).  A launch of a kernel that prints runs
 * synchronously: the count is reset before it, and after it the records
 * are formatted with the host's snprintf, conversion by conversion, and
 * written to stdout in the order the invocations reserved them (CUDA's
 * printf flushes at a synchronization; here at the launch's end).  A
 * native graph's printing launches (one module's: the records hold that
 * module's format ids) are recorded with the buffer's address, and the
 * replay of such a graph is synchronous in the same way (vk_graph_launch,
 * under the lock: reset, submit, wait, flush). */
#define VK_PRINT_WORDS ((uint32_t)1 << 17) /* 1 MiB of slots */

static kern_status vk_print_reset(vk_state *st, vk_dev *d) {
  if (!d->print) {
    kern_status s = vk_buf_new(st, d, 8 + 8 * (size_t)VK_PRINT_WORDS,
                               d->mem_type, 1, &d->print);
    if (s != KERN_SUCCESS) return s;
  }
  uint32_t h[2] = {0, VK_PRINT_WORDS};
  memcpy(d->print->map, h, sizeof h);
  return KERN_SUCCESS;
}

/* One conversion of fmt at f[*k] (a '%') with the slot v into out. */
static void vk_print_conv(const char *f, size_t *k, uint64_t v, FILE *out) {
  char spec[48], tmp[512];
  size_t n = 0, i = *k + 1;
  spec[n++] = '%';
  while (f[i] && strchr("-+ #0123456789.", f[i])) {
    if (n < 40) spec[n++] = f[i];
    i++;
  }
  while (f[i] && strchr("hlLqjzt", f[i])) /* the length is kern's own */
    i++;
  char conv = f[i];
  *k = f[i] ? i : i - 1;
  if (strchr("fFeEgGaA", conv)) {
    double x;
    memcpy(&x, &v, sizeof x);
    spec[n++] = conv;
    spec[n] = 0;
    snprintf(tmp, sizeof tmp, spec, x);
  } else if (conv == 'c') {
    spec[n++] = 'c';
    spec[n] = 0;
    snprintf(tmp, sizeof tmp, spec, (int)(int64_t)v);
  } else if (conv == 'd' || conv == 'i') {
    spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv;
    spec[n] = 0;
    snprintf(tmp, sizeof tmp, spec, (long long)(int64_t)v);
  } else if (conv && strchr("uxXo", conv)) {
    spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv;
    spec[n] = 0;
    snprintf(tmp, sizeof tmp, spec, (unsigned long long)v);
  } else {
    return; /* the emitter refuses any other */
  }
  fputs(tmp, out);
}

static void vk_print_flush(vk_dev *d, const vk_module *m) {
  const unsigned char *p = d->print->map;
  uint32_t n, cap;
  memcpy(&n, p, 4);
  memcpy(&cap, p + 4, 4);
  const unsigned char *w = p + 8;
  uint32_t end = n < cap ? n : cap, i = 0;
  while (i < end) {
    uint64_t id;
    memcpy(&id, w + 8 * (size_t)i, 8);
    if (id >= (uint64_t)m->nprints) break; /* a record cut at the end */
    const char *f = m->prints[id];
    uint32_t slot = i + 1;
    for (size_t k = 0; f[k]; k++) {
      if (f[k] != '%') {
        putchar(f[k]);
      } else if (f[k + 1] == '%') {
        putchar('%');
        k++;
      } else {
        uint64_t v = 0;
        if (slot < end) memcpy(&v, w + 8 * (size_t)slot, 8);
        slot++;
        vk_print_conv(f, &k, v, stdout);
      }
    }
    i = slot;
  }
  if (n > cap)
    printf("[kern: a kernel printed more than the vulkan print buffer's "
           "%u 8-byte words; the rest of its output is lost]\n", cap);
  fflush(stdout);
}

/* The push constants: the arguments' address, the print buffer's where
 * the kernel prints (else 0, and its prints do nothing), and the scratch
 * frames' where the kernel has fixed arrays (a third one; else only two). */
static void vk_push(vk_dev *d, VkCommandBuffer cmd, uint64_t args, int print,
                    uint64_t scratch) {
  uint64_t pc[3] = {args, print && d->print ? d->print->addr : 0, scratch};
  vk_proc.vk.vkCmdPushConstants(cmd, d->layout, VK_SHADER_STAGE_COMPUTE, 0,
                                scratch ? 24 : 16, pc);
}

/* Note [vulkan scratch]: a module with fixed-size local arrays (emit's
 * Note [vulkan scratch frame] in emit/vk_fixed.c) needs a frame of
 * m->frame bytes per invocation, in a device buffer whose address is the
 * third push constant.  The kernels' grid-stride loop lets one invocation
 * do any number of items, so a launch's grid is bounded to keep
 * groups x 64 x frame under the cap (64 MiB; $KERN_VULKAN_SCRATCH in
 * bytes overrides it, for tests) -- at least one group, whatever the
 * frame.  The buffer is the device's for synchronous launches (they hold
 * the state's lock until done), the job's for a stream's launch (a job is
 * one batch in flight), the node's in a graph; each is grown as needed
 * and kept for the next launch.  Launches of modules without fixed
 * arrays allocate nothing and push two constants as before. */
static int64_t vk_scratch_cap(void) {
  int64_t c = (int64_t)64 << 20;
  const char *e = getenv("KERN_VULKAN_SCRATCH");
  if (e && *e) {
    char *end;
    long long v = strtoll(e, &end, 10);
    if (*end == '\0' && v >= 1) c = v;
  }
  return c;
}

static int64_t vk_scratch_groups(const vk_kernel *vkk, int64_t groups) {
  int64_t f = vkk->mod ? vkk->mod->frame : 0;
  if (f <= 0) return groups;
  int64_t most = vk_scratch_cap() / (64 * f);
  if (most < 1) most = 1;
  return groups < most ? groups : most;
}

/* *b grown to the frames of `groups` groups; *addr its address (0 where
 * the kernel needs none). */
static kern_status vk_scratch_get(vk_state *st, vk_dev *d, vk_buf **b,
                                  const vk_kernel *vkk, int64_t groups,
                                  uint64_t *addr) {
  int64_t f = vkk->mod ? vkk->mod->frame : 0;
  *addr = 0;
  if (f <= 0) return KERN_SUCCESS;
  size_t bytes = (size_t)groups * 64 * (size_t)f;
  if (!*b || (*b)->size < bytes) {
    if (*b) vk_buf_destroy(d, *b);
    *b = NULL;
    kern_status s = vk_buf_new(st, d, bytes, d->dev_type,
                               d->dev_type == d->mem_type, b);
    if (s != KERN_SUCCESS) {
      *b = NULL;
      return s;
    }
  }
  *addr = (*b)->addr;
  return KERN_SUCCESS;
}

/* Reads the module's formats from its GLSL's "// kern-print ID FMT"
 * lines (Note [vulkan print]), octal escapes decoded. */
static kern_status vk_print_table(vk_state *st, const char *src, vk_module *m) {
  int n = 0;
  for (const char *q = src; (q = strstr(q, "\n// kern-print ")); q++)
    n++;
  if (!n) return KERN_SUCCESS;
  m->prints = kern__calloc((size_t)n, sizeof *m->prints);
  if (!m->prints) goto oom;
  m->nprints = n;
  for (const char *q = src; (q = strstr(q, "\n// kern-print ")); q++) {
    char *e;
    long id = strtol(q + 15, &e, 10); /* after "\n// kern-print " */
    if (id < 0 || id >= n || *e != ' ' || m->prints[id]) goto bad;
    const char *a = e + 1, *z = strchr(a, '\n');
    if (!z) z = a + strlen(a);
    char *f = kern__malloc((size_t)(z - a) + 1);
    if (!f) goto oom;
    size_t o = 0;
    for (const char *c = a; c < z; c++) {
      if (*c == '\\' && z - c >= 4) {
        f[o++] = (char)((c[1] - '0') * 64 + (c[2] - '0') * 8 + (c[3] - '0'));
        c += 3;
      } else {
        f[o++] = *c;
      }
    }
    f[o] = 0;
    m->prints[id] = f;
  }
  for (int i = 0; i < n; i++)
    if (!m->prints[i]) goto bad;
  for (int i = 0; i < m->nkernels; i++)
    m->kernels[i].mod = m;
  return KERN_SUCCESS;
bad:
  return kern__error(st->ctx, KERN_ERROR_IO,
                     "vulkan: the module's print formats are malformed");
oom:
  return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
}

static kern_status vk_launch(void *state, int dev, void *fn, const kc_kernel *k,
                             void *const *args, const kern__dims *dims) {
  vk_state *st = state;
  vk_kernel *vkk = fn;
  vk_dev *d;
  kern_status s = vk_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  if (dims->total <= dims->begin) return KERN_SUCCESS;
  vk_sync_default(st, dev);
  pthread_mutex_lock(&st->lock);
  int prints = vkk->mod && vkk->mod->nprints;
  if (prints && (s = vk_print_reset(st, d))) {
    pthread_mutex_unlock(&st->lock);
    return s;
  }
  unsigned char tmp[4096];
  size_t off;
  int64_t groups;
  if ((s = vk_pack(st, d, dev, k, args, dims, tmp, &off, &groups))) {
    pthread_mutex_unlock(&st->lock);
    return s;
  }
  uint64_t scr;
  groups = vk_scratch_groups(vkk, groups);
  if ((s = vk_scratch_get(st, d, &d->scratch, vkk, groups, &scr))) {
    pthread_mutex_unlock(&st->lock);
    return s;
  }
  memcpy(d->args->map, tmp, off);
  vk_table *vk = &vk_proc.vk;
  VkCommandBufferBeginInfo bi = {VK_ST_COMMAND_BUFFER_BEGIN_INFO, NULL, 1, NULL};
  VkResult r;
  const char *call = "vkBeginCommandBuffer";
  if ((r = vk->vkResetCommandBuffer(d->cmd, 0)) == 0 &&
      (r = vk->vkBeginCommandBuffer(d->cmd, &bi)) == 0) {
    VkMemoryBarrier in = {VK_ST_MEMORY_BARRIER, NULL, VK_ACCESS_HOST_WRITE,
                          VK_ACCESS_SHADER_READ | VK_ACCESS_SHADER_WRITE};
    vk->vkCmdPipelineBarrier(d->cmd, VK_STAGE_HOST, VK_STAGE_COMPUTE_SHADER, 0,
                             1, &in, 0, NULL, 0, NULL);
    if (d->ts) {
      vk->vkCmdResetQueryPool(d->cmd, d->ts, 0, 2);
      vk->vkCmdWriteTimestamp(d->cmd, VK_STAGE_TOP_OF_PIPE, d->ts, 0);
    }
    vk->vkCmdBindPipeline(d->cmd, VK_BIND_COMPUTE, vkk->pipeline);
    vk_push(d, d->cmd, d->args->addr, vkk->mod && vkk->mod->nprints, scr);
    vk->vkCmdDispatch(d->cmd, (uint32_t)groups, 1, 1);
    if (d->ts)
      vk->vkCmdWriteTimestamp(d->cmd, VK_STAGE_BOTTOM_OF_PIPE, d->ts, 1);
    /* the shader's writes before the host's reads and any later command
     * (a launch or a staged copy: Note [vulkan memory]) */
    VkMemoryBarrier outb = {VK_ST_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE,
                            VK_ACCESS_HOST_READ | VK_ACCESS_MEMORY_READ |
                                VK_ACCESS_MEMORY_WRITE};
    vk->vkCmdPipelineBarrier(d->cmd, VK_STAGE_COMPUTE_SHADER,
                             VK_STAGE_HOST | VK_STAGE_ALL_COMMANDS, 0, 1,
                             &outb, 0, NULL, 0, NULL);
    call = "vkEndCommandBuffer";
    if ((r = vk->vkEndCommandBuffer(d->cmd)) == 0) {
      VkSubmitInfo si = {VK_ST_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &d->cmd,
                         0, NULL};
      call = "vkQueueSubmit";
      double h0 = kern__now_ms();
      if ((r = vk->vkQueueSubmit(d->queue, 1, &si, d->fence)) == 0) {
        call = "vkWaitForFences";
        r = vk->vkWaitForFences(d->dev, 1, &d->fence, 1, UINT64_MAX);
        vk->vkResetFences(d->dev, 1, &d->fence);
        uint64_t t[2] = {0, 0};
        if (r == 0 && d->ts &&
            vk->vkGetQueryPoolResults(d->dev, d->ts, 0, 2, sizeof t, t, 8,
                                      VK_QUERY_RESULT_64 |
                                          VK_QUERY_RESULT_WAIT) == 0) {
          const vk_phys *ph = &vk_proc.phys[dev];
          uint64_t mask = ph->ts_bits >= 64 ? ~(uint64_t)0
                                            : (((uint64_t)1 << ph->ts_bits) - 1);
          d->clock_ms += (double)((t[1] - t[0]) & mask) * ph->ts_period * 1e-6;
        } else if (r == 0) {
          d->clock_ms += kern__now_ms() - h0;
        }
        if (r == 0 && prints)
          vk_print_flush(d, vkk->mod);
      }
    }
  }
  pthread_mutex_unlock(&st->lock);
  if (r != 0) return vk_fail(st, call, r);
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- streams */

/* Note [vulkan streams]: where the device has timeline semaphores (core in
 * Vulkan 1.2, the feature timelineSemaphore), kern streams are native:
 *   - A stream is a timeline semaphore and the value its last batch
 *     signals.  Every launch, copy, fill, event record or event wait on it
 *     is one batch submitted at once to the device's queue, without waiting
 *     on the host: it waits for the stream's previous value (stream order)
 *     and signals the next one.  So kern_launch_async returns when the
 *     command buffer is submitted, while the kernel still runs.
 *   - An event is the (stream, value) of its latest record, an empty
 *     batch; when that batch is reaped (below) the event stamps the
 *     device clock, the GPU time of every batch submitted before it (Note
 *     [vulkan device clock]), so kern_event_elapsed is the device's busy
 *     time between two records, as on generic streams and as kern bench's
 *     timer "events" wants (without timestamps: the host times at which
 *     the records were reaped).  kern_stream_wait_event is an empty batch
 *     waiting for the event's value on the event's semaphore and
 *     signalling the stream's next value; kern_stream_synchronize, kern_event_synchronize wait
 *     (vkWaitSemaphores) outside any lock.  A record is always submitted
 *     when its API call returns, so no batch ever waits for a value not yet
 *     submitted (no wait-before-signal, which one queue could deadlock on).
 *   - Each batch is a job that keeps what the device still reads (its
 *     command buffer, its arguments' buffer, its staging buffer) until the
 *     stream's semaphore reaches the job's value; jobs are then recycled
 *     (vk_reap, at each submission and after each wait, in submission
 *     order across the device's streams; a wait also waits for the batches
 *     submitted before its value, so the downloads it covers are done).
 *     Arguments are not shared between launches as the synchronous path's
 *     d->args is.
 *   - Copies: an upload copies the caller's bytes into a staging buffer at
 *     the call (so the caller may reuse its memory at once, as CUDA's
 *     pageable copies) and the batch copies staging -> array; a download
 *     copies array -> staging and the bytes reach the caller's memory when
 *     the job is reaped, which every wait (stream, event, device) does
 *     before it returns.  Fills write the pattern into staging once and copy
 *     it over the array; device-to-device copies are one vkCmdCopyBuffer.
 *     Copies from or to kern_host_alloc's memory skip the staging (Note
 *     [vulkan pinned memory]).
 *     Each batch begins and ends with a full memory barrier, so its writes
 *     are seen by later batches and by the host after a wait.
 *   - Streams are spread over the device's compute queues (Note [vulkan
 *     queues]), submitted to under vk_state.lock (vkQueueSubmit needs
 *     external synchronisation): two streams on different queues may run
 *     at once; on a device with one queue (lavapipe) the device runs the
 *     streams' batches in submission order.
 *   - The synchronous calls (kern_launch, kern_array_upload, ...) wait for
 *     the default stream first (docs/async.md: they are ordered after it).
 *   - Without the feature, or with KERN_VULKAN_GENERIC_STREAMS=1, stream_new
 *     says KERN_ERROR_UNSUPPORTED and the runtime gives the device generic
 *     streams (Note [generic streams] in stream.c), whose events read the
 *     device clock (Note [vulkan device clock]).
 *   - Graphs on native streams are recorded command buffers (Note
 *     [vulkan graphs]). */

enum { VK_NODE_LAUNCH = 100 }; /* besides VK_IN, VK_OUT, VK_DD, VK_FILL */
typedef struct vk_node {
  int op;              /* VK_NODE_LAUNCH, VK_IN, VK_OUT, VK_DD, VK_FILL */
  struct vk_kernel *k;
  vk_buf *args;        /* a launch's arguments */
  vk_buf *scratch;     /* Note [vulkan scratch]: its frames, or NULL */
  uint32_t groups;
  vk_buf *b, *sb;      /* the array (destination), a copy's source array */
  size_t off, soff, bytes;
  vk_buf *stage;       /* uploads, downloads, fills, overlapping moves */
  void *host;          /* the caller's memory of an upload or download */
  size_t fill_chunk;
} vk_node;

/* One replay's command buffer, its timestamps and its uploads' and
 * downloads' staging buffers (Note [vulkan graph copies]). */
typedef struct vk_copy {
  VkCommandBuffer cmd;
  VkQueryPool ts;      /* two timestamps around the replay, or 0 */
  vk_buf **stage;      /* per node: an upload's or download's, else NULL */
  int dirty;           /* the command buffer must be recorded again */
  struct vk_stream *vs; /* its replay in flight (a reference), or NULL */
  uint64_t v;          /* that replay's value on vs */
  uint64_t seq;        /* the graph's replay count when it was submitted */
} vk_copy;

enum { VK_GRAPH_COPIES = 8 };

typedef struct vk_graph {
  int dev;
  vk_node *nodes;
  int n, cap;
  int failed;          /* a node could not be captured: no native graph */
  vk_copy *copies;
  int ncopies;
  int last;            /* the copy of the latest replay, or -1 */
  uint64_t seq;        /* replays so far */
  const struct vk_module *pmod; /* its printing kernels' module, or NULL
                                   (Note [vulkan print] in graphs) */
} vk_graph;

typedef struct vk_job {
  struct vk_stream *vs; /* the stream it was submitted on */
  struct vk_event *ev;  /* an event record: stamped when reaped */
  struct vk_graph *graph; /* a graph's replay: its command buffer */
  int gcopy;              /* the graph's copy it submitted */
  VkQueryPool ts;       /* two timestamps around its commands, or 0 */
  VkCommandBuffer cmd;
  int use_cmd;       /* 0: an empty batch (an event wait or record) */
  vk_buf *args;      /* a launch's arguments, kept with the job */
  vk_buf *scratch;   /* Note [vulkan scratch]: a launch's frames, kept too */
  vk_buf *stage;     /* a copy's staging buffer, or NULL */
  uint64_t value;    /* the stream's value it signals */
  void *out;         /* a download: stage -> out when reaped */
  size_t out_bytes;
  struct vk_job *next;  /* vk_dev.free_jobs */
  struct vk_job *dnext; /* vk_dev.jhead: submission order */
} vk_job;

typedef struct vk_stream {
  VkSemaphore sem;
  uint64_t last;        /* the value of the last batch submitted */
  uint64_t reaped;      /* the value of the last batch reaped */
  int npending;         /* its jobs not yet reaped */
  struct vk_graph *cap; /* capturing into this graph (Note [vulkan graphs]) */
  int refs;             /* the stream + every event recorded on it */
  int freed;
  int qi;               /* its queue, vk_dev.queues (Note [vulkan queues]) */
  struct vk_stream *next; /* vk_dev.streams */
} vk_stream;

typedef struct vk_event {
  vk_stream *s;      /* the stream of the latest record (a reference) */
  uint64_t value;
  double clock;      /* the device clock when the record was reaped */
  double host_ms;    /* the host's clock then */
} vk_event;

static int vk_native_ok(int dev) {
  return dev >= 0 && dev < vk_proc.nphys && vk_proc.phys[dev].timeline &&
         !vk_env_flag("KERN_VULKAN_GENERIC_STREAMS");
}

/* Returns a finished job's resources to the device (lock held). */
static void vk_job_recycle(vk_dev *d, vk_job *j) {
  if (j->stage) {
    if (d->nfree_stage < 8) {
      j->stage->next = d->free_stage;
      d->free_stage = j->stage;
      d->nfree_stage++;
    } else {
      vk_buf_destroy(d, j->stage);
    }
    j->stage = NULL;
  }
  j->out = NULL;
  j->out_bytes = 0;
  j->use_cmd = 0;
  j->graph = NULL;
  j->next = d->free_jobs;
  d->free_jobs = j;
}

struct vk_graph;
static void vk_graph_reaped(vk_dev *d, struct vk_graph *g, int k);

/* Completes, in submission order, the jobs the device has finished:
 * downloads land in the caller's memory, each job's GPU time is added to
 * the device clock, event records stamp that clock, resources are recycled
 * (lock held).  Stops at the first unfinished job. */
static void vk_reap(vk_dev *d) {
  vk_table *vk = &vk_proc.vk;
  while (d->jhead) {
    vk_job *j = d->jhead;
    uint64_t v = 0;
    if (vk->vkGetSemaphoreCounterValue(d->dev, j->vs->sem, &v) != 0 ||
        v < j->value)
      return;
    d->jhead = j->dnext;
    if (!d->jhead) d->jtail = NULL;
    j->vs->reaped = j->value;
    j->vs->npending--;
    if (j->out && j->out_bytes) memcpy(j->out, j->stage->map, j->out_bytes);
    uint64_t t[2] = {0, 0};
    if (j->use_cmd && j->ts &&
        vk->vkGetQueryPoolResults(d->dev, j->ts, 0, 2, sizeof t, t, 8,
                                  VK_QUERY_RESULT_64 |
                                      VK_QUERY_RESULT_WAIT) == 0) {
      const vk_phys *ph = &vk_proc.phys[d->index];
      uint64_t mask = ph->ts_bits >= 64 ? ~(uint64_t)0
                                        : (((uint64_t)1 << ph->ts_bits) - 1);
      d->clock_ms += (double)((t[1] - t[0]) & mask) * ph->ts_period * 1e-6;
    }
    if (j->graph) vk_graph_reaped(d, j->graph, j->gcopy);
    if (j->ev) {
      j->ev->clock = d->clock_ms;
      j->ev->host_ms = kern__now_ms();
      j->ev = NULL;
    }
    vk_job_recycle(d, j);
  }
}

static void vk_stream_destroy(vk_dev *d, vk_stream *vs) {
  for (vk_stream **pp = &d->streams; *pp; pp = &(*pp)->next)
    if (*pp == vs) {
      *pp = vs->next;
      break;
    }
  if (vs->sem) vk_proc.vk.vkDestroySemaphore(d->dev, vs->sem, NULL);
  kern__free(vs);
}

/* (lock held; every job of vs reaped) */
static void vk_stream_unref(vk_dev *d, vk_stream *vs) {
  if (--vs->refs > 0) return;
  vk_stream_destroy(d, vs);
}

/* A job with a command buffer begun, or an empty one (lock held). */
static kern_status vk_job_get(vk_state *st, vk_dev *d, int use_cmd,
                              vk_job **out) {
  vk_table *vk = &vk_proc.vk;
  vk_job *j = d->free_jobs;
  if (j) {
    d->free_jobs = j->next;
  } else if (!(j = kern__calloc(1, sizeof *j))) {
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: out of memory");
  }
  j->next = NULL;
  j->dnext = NULL;
  j->ev = NULL;
  j->graph = NULL;
  j->use_cmd = use_cmd;
  if (!use_cmd) {
    *out = j;
    return KERN_SUCCESS;
  }
  VkResult r = 0;
  if (!j->cmd) {
    VkCommandBufferAllocateInfo cai = {VK_ST_COMMAND_BUFFER_ALLOCATE_INFO,
                                       NULL, d->pool, 0, 1};
    if ((r = vk->vkAllocateCommandBuffers(d->dev, &cai, &j->cmd)) != 0)
      j->cmd = NULL;
  }
  VkCommandBufferBeginInfo bi = {VK_ST_COMMAND_BUFFER_BEGIN_INFO, NULL, 1, NULL};
  if (r == 0 && (r = vk->vkResetCommandBuffer(j->cmd, 0)) == 0)
    r = vk->vkBeginCommandBuffer(j->cmd, &bi);
  if (r != 0) {
    vk_job_recycle(d, j);
    return vk_fail(st, "vkBeginCommandBuffer", r);
  }
  VkMemoryBarrier in = {VK_ST_MEMORY_BARRIER, NULL,
                        VK_ACCESS_HOST_WRITE | VK_ACCESS_MEMORY_WRITE,
                        VK_ACCESS_MEMORY_READ | VK_ACCESS_MEMORY_WRITE};
  vk->vkCmdPipelineBarrier(j->cmd, VK_STAGE_HOST | VK_STAGE_ALL_COMMANDS,
                           VK_STAGE_ALL_COMMANDS, 0, 1, &in, 0, NULL, 0, NULL);
  /* its GPU time for the device clock (Note [vulkan device clock]) */
  if (d->ts && !j->ts) {
    VkQueryPoolCreateInfo qpi = {VK_ST_QUERY_POOL_CREATE_INFO, NULL, 0,
                                 VK_QUERY_TIMESTAMP, 2, 0};
    if (vk->vkCreateQueryPool(d->dev, &qpi, NULL, &j->ts) != 0) j->ts = 0;
  }
  if (j->ts) {
    vk->vkCmdResetQueryPool(j->cmd, j->ts, 0, 2);
    vk->vkCmdWriteTimestamp(j->cmd, VK_STAGE_TOP_OF_PIPE, j->ts, 0);
  }
  *out = j;
  return KERN_SUCCESS;
}

/* A staging buffer of at least bytes for j (lock held). */
static kern_status vk_job_stage(vk_state *st, vk_dev *d, vk_job *j,
                                size_t bytes) {
  for (vk_buf **pp = &d->free_stage; *pp; pp = &(*pp)->next)
    if ((*pp)->size >= bytes && (*pp)->size / 4 <= bytes + 65536) {
      j->stage = *pp;
      *pp = j->stage->next;
      j->stage->next = NULL;
      d->nfree_stage--;
      return KERN_SUCCESS;
    }
  return vk_buf_new(st, d, bytes, d->host_type, 1, &j->stage);
}

/* Ends j's command buffer and submits it on vs, also waiting for (wsem,
 * wval) when wsem is set; j then belongs to vs (lock held).  On failure j
 * is recycled. */
static kern_status vk_submit(vk_state *st, vk_dev *d, vk_stream *vs, vk_job *j,
                             VkSemaphore wsem, uint64_t wval) {
  vk_table *vk = &vk_proc.vk;
  VkResult r = 0;
  const char *call = "vkEndCommandBuffer";
  if (j->use_cmd) {
    if (j->ts)
      vk->vkCmdWriteTimestamp(j->cmd, VK_STAGE_BOTTOM_OF_PIPE, j->ts, 1);
    VkMemoryBarrier outb = {VK_ST_MEMORY_BARRIER, NULL,
                            VK_ACCESS_MEMORY_WRITE | VK_ACCESS_SHADER_WRITE |
                                VK_ACCESS_TRANSFER_WRITE,
                            VK_ACCESS_HOST_READ | VK_ACCESS_MEMORY_READ |
                                VK_ACCESS_MEMORY_WRITE};
    vk->vkCmdPipelineBarrier(j->cmd, VK_STAGE_ALL_COMMANDS,
                             VK_STAGE_HOST | VK_STAGE_ALL_COMMANDS, 0, 1,
                             &outb, 0, NULL, 0, NULL);
    r = vk->vkEndCommandBuffer(j->cmd);
  }
  if (r == 0) {
    VkSemaphore waits[2];
    uint64_t wv[2];
    uint32_t stages[2] = {VK_STAGE_ALL_COMMANDS, VK_STAGE_ALL_COMMANDS};
    uint32_t n = 0;
    if (vs->last) {
      waits[n] = vs->sem;
      wv[n++] = vs->last;
    }
    if (wsem) {
      waits[n] = wsem;
      wv[n++] = wval;
    }
    uint64_t sv = vs->last + 1;
    VkTimelineSemaphoreSubmitInfo ti = {VK_ST_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                        NULL, n, wv, 1, &sv};
    VkSubmitInfo si = {VK_ST_SUBMIT_INFO, &ti, n, waits, stages,
                       j->use_cmd || j->graph ? 1u : 0u,
                       j->graph ? &j->graph->copies[j->gcopy].cmd : &j->cmd,
                       1, &vs->sem};
    call = "vkQueueSubmit";
    if ((r = vk->vkQueueSubmit(d->queues[vs->qi], 1, &si, 0)) == 0) {
      vs->last = sv;
      vs->npending++;
      j->value = sv;
      j->vs = vs;
      if (d->jtail) d->jtail->dnext = j;
      else d->jhead = j;
      d->jtail = j;
      d->submitted++;
      return KERN_SUCCESS;
    }
  }
  vk_job_recycle(d, j);
  return vk_fail(st, call, r);
}

/* Waits (no lock held) until vs reaches value and every job up to it is
 * reaped (its download done, its event stamped): the jobs submitted before
 * it are waited for too. */
static kern_status vk_wait_value(vk_state *st, vk_dev *d, vk_stream *vs,
                                 uint64_t value) {
  VkResult r = 0;
  VkSemaphore sem = vs->sem;
  uint64_t want = value;
  for (;;) {
    if (want) {
      VkSemaphoreWaitInfo wi = {VK_ST_SEMAPHORE_WAIT_INFO, NULL, 0, 1, &sem,
                                &want};
      if ((r = vk_proc.vk.vkWaitSemaphores(d->dev, &wi, UINT64_MAX)) != 0)
        break;
    }
    pthread_mutex_lock(&st->lock);
    vk_reap(d);
    int done = vs->reaped >= value || !d->jhead;
    if (!done) { /* an earlier job of another stream is not reaped yet */
      sem = d->jhead->vs->sem;
      want = d->jhead->value;
    }
    pthread_mutex_unlock(&st->lock);
    if (done) break;
  }
  return r == 0 ? KERN_SUCCESS : vk_fail(st, "vkWaitSemaphores", r);
}

static kern_status vk_stream_sync(void *state, int dev, void *s) {
  vk_state *st = state;
  vk_stream *vs = s;
  vk_dev *d = &st->devs[dev];
  pthread_mutex_lock(&st->lock);
  uint64_t v = vs->last;
  pthread_mutex_unlock(&st->lock);
  return vk_wait_value(st, d, vs, v);
}

/* The synchronous calls are ordered after the default stream. */
static void vk_sync_default(vk_state *st, int dev) {
  if (dev < 0 || dev >= vk_proc.nphys || !st->devs) return;
  vk_dev *d = &st->devs[dev];
  pthread_mutex_lock(&st->lock);
  vk_stream *vs = d->defstream;
  pthread_mutex_unlock(&st->lock);
  if (vs) (void)vk_stream_sync(st, dev, vs);
}

static kern_status vk_stream_make(vk_state *st, int dev, vk_stream **out) {
  vk_dev *d;
  kern_status s = vk_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  if (!vk_native_ok(dev)) return KERN_ERROR_UNSUPPORTED;
  vk_stream *vs = kern__calloc(1, sizeof *vs);
  if (!vs)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: out of memory");
  VkSemaphoreTypeCreateInfo ti = {VK_ST_SEMAPHORE_TYPE_CREATE_INFO, NULL, 1, 0};
  VkFenceCreateInfo ci = {VK_ST_SEMAPHORE_CREATE_INFO, &ti, 0};
  VkResult r = vk_proc.vk.vkCreateSemaphore(d->dev, &ci, NULL, &vs->sem);
  if (r != 0) {
    kern__free(vs);
    return vk_fail(st, "vkCreateSemaphore", r);
  }
  vs->refs = 1;
  pthread_mutex_lock(&st->lock);
  /* Note [vulkan queues]: the next queue in turn (the default stream's
   * is set to 0 by vk_stream_default) */
  vs->qi = d->nqueues > 1 ? (1 + d->next_queue++) % d->nqueues : 0;
  vs->next = d->streams;
  d->streams = vs;
  pthread_mutex_unlock(&st->lock);
  *out = vs;
  return KERN_SUCCESS;
}

static kern_status vk_stream_new(void *state, int dev, void **out) {
  vk_stream *vs;
  kern_status s = vk_stream_make(state, dev, &vs);
  if (s == KERN_SUCCESS) *out = vs;
  return s;
}

static kern_status vk_stream_default(void *state, int dev, void **out) {
  vk_state *st = state;
  vk_dev *d;
  kern_status s = vk_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  pthread_mutex_lock(&st->lock);
  vk_stream *vs = d->defstream;
  pthread_mutex_unlock(&st->lock);
  if (!vs) {
    if ((s = vk_stream_make(st, dev, &vs))) return s;
    pthread_mutex_lock(&st->lock);
    if (d->defstream) { /* made by another thread meanwhile */
      vs->freed = 1;
      vk_stream_unref(d, vs);
      vs = d->defstream;
    } else {
      vs->qi = 0; /* Note [vulkan queues] */
      d->defstream = vs;
    }
    pthread_mutex_unlock(&st->lock);
  }
  *out = vs;
  return KERN_SUCCESS;
}

static kern_status vk_stream_free(void *state, int dev, void *s) {
  vk_state *st = state;
  vk_stream *vs = s;
  kern_status r = vk_stream_sync(state, dev, s);
  pthread_mutex_lock(&st->lock);
  vs->freed = 1;
  vk_stream_unref(&st->devs[dev], vs);
  pthread_mutex_unlock(&st->lock);
  return r;
}

static kern_status vk_stream_query(void *state, int dev, void *s, int *done) {
  vk_state *st = state;
  vk_stream *vs = s;
  pthread_mutex_lock(&st->lock);
  vk_reap(&st->devs[dev]);
  *done = vs->npending == 0;
  pthread_mutex_unlock(&st->lock);
  return KERN_SUCCESS;
}

static kern_status vk_stream_wait(void *state, int dev, void *s, void *e) {
  vk_state *st = state;
  vk_stream *vs = s;
  vk_event *ve = e;
  vk_dev *d = &st->devs[dev];
  pthread_mutex_lock(&st->lock);
  kern_status r = KERN_SUCCESS;
  vk_job *j = NULL;
  if (ve->s && (r = vk_job_get(st, d, 0, &j)) == KERN_SUCCESS)
    r = vk_submit(st, d, vs, j, ve->s->sem, ve->value);
  pthread_mutex_unlock(&st->lock);
  return r;
}

static kern_status vk_event_new(void *state, int dev, void **out) {
  vk_state *st = state;
  vk_dev *d;
  kern_status s = vk_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  vk_event *ve = kern__calloc(1, sizeof *ve);
  if (!ve)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: out of memory");
  *out = ve;
  return KERN_SUCCESS;
}

static void vk_event_free(void *state, int dev, void *e) {
  vk_state *st = state;
  vk_event *ve = e;
  vk_dev *d = &st->devs[dev];
  if (ve->s) {
    /* a pending record still stamps the event when reaped */
    (void)vk_wait_value(st, d, ve->s, ve->value);
    pthread_mutex_lock(&st->lock);
    vk_stream_unref(d, ve->s);
    pthread_mutex_unlock(&st->lock);
  }
  kern__free(ve);
}

static kern_status vk_event_record(void *state, int dev, void *e, void *s) {
  vk_state *st = state;
  vk_event *ve = e;
  vk_stream *vs = s;
  vk_dev *d = &st->devs[dev];
  /* a pending record on another stream would stamp the event after this
   * one */
  if (ve->s && ve->s != vs) (void)vk_wait_value(st, d, ve->s, ve->value);
  pthread_mutex_lock(&st->lock);
  vk_job *j = NULL;
  kern_status r = vk_job_get(st, d, 0, &j);
  if (r == KERN_SUCCESS) {
    j->ev = ve;
    r = vk_submit(st, d, vs, j, 0, 0);
  }
  if (r == KERN_SUCCESS) {
    vs->refs++;
    if (ve->s) vk_stream_unref(d, ve->s);
    ve->s = vs;
    ve->value = vs->last;
  }
  pthread_mutex_unlock(&st->lock);
  return r;
}

static kern_status vk_event_sync(void *state, int dev, void *e) {
  vk_state *st = state;
  vk_event *ve = e;
  if (!ve->s) return KERN_SUCCESS;
  return vk_wait_value(st, &st->devs[dev], ve->s, ve->value);
}

static kern_status vk_event_query(void *state, int dev, void *e, int *done) {
  vk_state *st = state;
  vk_event *ve = e;
  vk_dev *d = &st->devs[dev];
  pthread_mutex_lock(&st->lock);
  vk_reap(d);
  *done = !ve->s || ve->s->reaped >= ve->value;
  pthread_mutex_unlock(&st->lock);
  return KERN_SUCCESS;
}

/* Note [vulkan device clock]: the device's busy time between the records
 * (the GPU time of the batches submitted between them), else the host's
 * time between the moments they were seen reached. */
static kern_status vk_event_elapsed(void *state, int dev, void *a, void *b,
                                    double *ms) {
  vk_state *st = state;
  vk_event *ea = a, *eb = b;
  kern_status r;
  if ((r = vk_event_sync(state, dev, a)) || (r = vk_event_sync(state, dev, b)))
    return r;
  pthread_mutex_lock(&st->lock);
  *ms = st->devs[dev].ts ? eb->clock - ea->clock : eb->host_ms - ea->host_ms;
  pthread_mutex_unlock(&st->lock);
  return KERN_SUCCESS;
}

/* ---------------------------------------------------------------- graphs */

/* Note [vulkan graphs]: a capture on a native stream (capture_begin) makes
 * every launch, copy and fill on it a node of a vk_graph instead of a
 * batch; capture_end records all nodes into one primary command buffer,
 * in order, with a full memory barrier between nodes, and kern_graph_replay
 * submits that command buffer as one batch on the replay's stream.
 *   - A launch node owns its arguments' buffer; kern_graph_set_arg
 *     (graph_set_launch) rewrites it, and re-records the command buffer
 *     when the grid changed.
 *   - Uploads and downloads of a graph read and write the caller's memory
 *     at each replay (the recorded list does the same): a node owns a
 *     staging buffer, the replay copies the caller's bytes into it before
 *     the submission, and the downloads land when the batch is reaped.
 *     Fills keep their pattern in a staging buffer written at capture.
 *   - One graph's replays run one after another on the device, as CUDA's
 *     graph launches do, on different streams too; the host does not wait
 *     for them (Note [vulkan graph copies]).  kern_graph_set_arg waits
 *     (on the host) for the graph's replays in flight, since they read
 *     the arguments' buffers it rewrites.
 *   - The runtime still keeps kern's list: a graph with a checked launch
 *     (debug mode) replays the list (Note [debug replay] in graph.c), and
 *     so does a graph whose recording failed (capture_end gives no native
 *     graph). */
/* Note [vulkan graph copies]: a replay submitted while the graph's
 * previous one is in flight must not rewrite what that one still reads:
 * the staging buffers of its uploads (the replay copies the caller's
 * bytes into them at the call) and of its downloads (read back when it is
 * reaped), and its timestamps.  So a graph keeps up to VK_GRAPH_COPIES
 * copies of its command buffer, each with its own timestamps and its own
 * upload and download staging buffers; a replay takes a copy no replay in
 * flight holds (a new one while there are fewer), and waits on the host
 * only when all are in flight, for the oldest.  The copies share the
 * nodes' arguments, scratch frames, fill patterns and overlapping moves'
 * staging: those are read by the device alone, and a replay's batch waits
 * (a timeline semaphore wait, vk_submit) for the graph's previous replay
 * on another stream, so replays of one graph never run at once (on one
 * stream the stream's order does it).  A copy per replay in flight rather
 * than VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT on one command buffer,
 * because the staging buffers and timestamps have to differ anyway; a
 * graph without uploads or downloads pays a command buffer per copy. */
static void vk_copy_destroy(vk_dev *d, vk_graph *g, vk_copy *c) {
  for (int i = 0; c->stage && i < g->n; i++)
    if (c->stage[i]) vk_buf_destroy(d, c->stage[i]);
  kern__free(c->stage);
  if (c->cmd) vk_proc.vk.vkFreeCommandBuffers(d->dev, d->pool, 1, &c->cmd);
  if (c->ts) vk_proc.vk.vkDestroyQueryPool(d->dev, c->ts, NULL);
}

static void vk_graph_destroy(vk_dev *d, vk_graph *g) {
  for (int i = 0; i < g->n; i++) {
    if (g->nodes[i].args) vk_buf_destroy(d, g->nodes[i].args);
    if (g->nodes[i].scratch) vk_buf_destroy(d, g->nodes[i].scratch);
    if (g->nodes[i].stage) vk_buf_destroy(d, g->nodes[i].stage);
  }
  for (int k = 0; k < g->ncopies; k++)
    vk_copy_destroy(d, g, &g->copies[k]);
  kern__free(g->copies);
  kern__free(g->nodes);
  kern__free(g);
}

/* A new node of the stream's capture, or NULL (the capture then fails). */
static vk_node *vk_node_add(vk_graph *g) {
  if (g->n == g->cap) {
    int cap = g->cap ? 2 * g->cap : 8;
    vk_node *nn = kern__realloc(g->nodes, (size_t)cap * sizeof *nn);
    if (!nn) {
      g->failed = 1;
      return NULL;
    }
    g->nodes = nn;
    g->cap = cap;
  }
  vk_node *nd = &g->nodes[g->n++];
  memset(nd, 0, sizeof *nd);
  return nd;
}

/* Records copy c of g from its nodes (lock held, c not in flight). */
static VkResult vk_graph_record(vk_dev *d, vk_graph *g, vk_copy *c) {
  vk_table *vk = &vk_proc.vk;
  VkResult r = 0;
  if (!c->cmd) {
    VkCommandBufferAllocateInfo cai = {VK_ST_COMMAND_BUFFER_ALLOCATE_INFO,
                                       NULL, d->pool, 0, 1};
    if ((r = vk->vkAllocateCommandBuffers(d->dev, &cai, &c->cmd)) != 0) {
      c->cmd = NULL;
      return r;
    }
    if (d->ts) {
      VkQueryPoolCreateInfo qpi = {VK_ST_QUERY_POOL_CREATE_INFO, NULL, 0,
                                   VK_QUERY_TIMESTAMP, 2, 0};
      if (vk->vkCreateQueryPool(d->dev, &qpi, NULL, &c->ts) != 0) c->ts = 0;
    }
  }
  VkCommandBuffer cmd = c->cmd;
  VkCommandBufferBeginInfo bi = {VK_ST_COMMAND_BUFFER_BEGIN_INFO, NULL, 0, NULL};
  if ((r = vk->vkResetCommandBuffer(cmd, 0)) != 0 ||
      (r = vk->vkBeginCommandBuffer(cmd, &bi)) != 0)
    return r;
  VkMemoryBarrier full = {VK_ST_MEMORY_BARRIER, NULL,
                          VK_ACCESS_HOST_WRITE | VK_ACCESS_MEMORY_WRITE,
                          VK_ACCESS_MEMORY_READ | VK_ACCESS_MEMORY_WRITE};
  vk->vkCmdPipelineBarrier(cmd, VK_STAGE_HOST | VK_STAGE_ALL_COMMANDS,
                           VK_STAGE_ALL_COMMANDS, 0, 1, &full, 0, NULL, 0, NULL);
  if (c->ts) {
    vk->vkCmdResetQueryPool(cmd, c->ts, 0, 2);
    vk->vkCmdWriteTimestamp(cmd, VK_STAGE_TOP_OF_PIPE, c->ts, 0);
  }
  for (int i = 0; i < g->n; i++) {
    vk_node *nd = &g->nodes[i];
    if (i)
      vk->vkCmdPipelineBarrier(cmd, VK_STAGE_ALL_COMMANDS,
                               VK_STAGE_ALL_COMMANDS, 0, 1, &full, 0, NULL, 0,
                               NULL);
    if (nd->op == VK_NODE_LAUNCH) {
      vk->vkCmdBindPipeline(cmd, VK_BIND_COMPUTE, nd->k->pipeline);
      vk_push(d, cmd, nd->args->addr, nd->k->mod && nd->k->mod->nprints,
              nd->scratch ? nd->scratch->addr : 0);
      vk->vkCmdDispatch(cmd, nd->groups, 1, 1);
    } else if (nd->op == VK_IN) {
      VkBufferCopy cp = {0, nd->off, nd->bytes};
      vk->vkCmdCopyBuffer(cmd, c->stage[i]->buf, nd->b->buf, 1, &cp);
    } else if (nd->op == VK_OUT) {
      VkBufferCopy cp = {nd->off, 0, nd->bytes};
      vk->vkCmdCopyBuffer(cmd, nd->b->buf, c->stage[i]->buf, 1, &cp);
    } else if (nd->op == VK_FILL) {
      for (size_t o = 0; o < nd->bytes; o += nd->fill_chunk) {
        VkBufferCopy cp = {0, nd->off + o, nd->bytes - o < nd->fill_chunk
                                               ? nd->bytes - o
                                               : nd->fill_chunk};
        vk->vkCmdCopyBuffer(cmd, nd->stage->buf, nd->b->buf, 1, &cp);
      }
    } else if (!nd->stage) {
      VkBufferCopy cp = {nd->soff, nd->off, nd->bytes};
      vk->vkCmdCopyBuffer(cmd, nd->sb->buf, nd->b->buf, 1, &cp);
    } else {
      VkBufferCopy c1 = {nd->soff, 0, nd->bytes}, c2 = {0, nd->off, nd->bytes};
      vk->vkCmdCopyBuffer(cmd, nd->sb->buf, nd->stage->buf, 1, &c1);
      vk->vkCmdPipelineBarrier(cmd, VK_STAGE_ALL_COMMANDS,
                               VK_STAGE_ALL_COMMANDS, 0, 1, &full, 0, NULL, 0,
                               NULL);
      vk->vkCmdCopyBuffer(cmd, nd->stage->buf, nd->b->buf, 1, &c2);
    }
  }
  if (c->ts) vk->vkCmdWriteTimestamp(cmd, VK_STAGE_BOTTOM_OF_PIPE, c->ts, 1);
  VkMemoryBarrier outb = {VK_ST_MEMORY_BARRIER, NULL, VK_ACCESS_MEMORY_WRITE,
                          VK_ACCESS_HOST_READ | VK_ACCESS_MEMORY_READ |
                              VK_ACCESS_MEMORY_WRITE};
  vk->vkCmdPipelineBarrier(cmd, VK_STAGE_ALL_COMMANDS,
                           VK_STAGE_HOST | VK_STAGE_ALL_COMMANDS, 0, 1, &outb,
                           0, NULL, 0, NULL);
  if ((r = vk->vkEndCommandBuffer(cmd)) == 0) c->dirty = 0;
  return r;
}

/* A new copy of g, recorded (lock held; Note [vulkan graph copies]). */
static kern_status vk_copy_new(vk_state *st, vk_dev *d, vk_graph *g) {
  vk_copy *nc = kern__realloc(g->copies, (size_t)(g->ncopies + 1) * sizeof *nc);
  if (!nc)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: out of memory");
  g->copies = nc;
  vk_copy *c = &g->copies[g->ncopies];
  memset(c, 0, sizeof *c);
  kern_status r = KERN_SUCCESS;
  if (!(c->stage = kern__calloc((size_t)g->n + 1, sizeof *c->stage)))
    r = kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
  for (int i = 0; !r && i < g->n; i++)
    if (g->nodes[i].op == VK_IN || g->nodes[i].op == VK_OUT)
      r = vk_buf_new(st, d, g->nodes[i].bytes, d->host_type, 1, &c->stage[i]);
  VkResult vr = r ? 0 : vk_graph_record(d, g, c);
  if (vr != 0)
    r = vk_fail(st, "recording a graph", vr);
  if (r) {
    vk_copy_destroy(d, g, c);
    return r;
  }
  g->ncopies++;
  return KERN_SUCCESS;
}

/* A launch into the capture (lock held). */
static kern_status vk_capture_launch(vk_state *st, vk_dev *d, int dev,
                                     vk_graph *g, vk_kernel *vkk,
                                     const kc_kernel *k, void *const *args,
                                     const kern__dims *dims) {
  unsigned char tmp[4096];
  size_t off;
  int64_t groups;
  kern_status r = vk_pack(st, d, dev, k, args, dims, tmp, &off, &groups);
  if (!r && vkk->mod && vkk->mod->nprints) {
    /* Note [vulkan print] in graphs: the print buffer's records name
     * formats by their module's ids, so one module's printing kernels */
    if (g->pmod && g->pmod != vkk->mod)
      return kern__error(st->ctx, KERN_ERROR_UNSUPPORTED,
                         "vulkan: kernel '%s' prints, and the graph already "
                         "holds printing kernels of another module",
                         k->name);
    if ((r = vk_print_reset(st, d))) return r; /* made before recording */
    g->pmod = vkk->mod;
  }
  vk_node *nd = r ? NULL : vk_node_add(g);
  if (!nd) return r ? r : kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                                      "vulkan: out of memory");
  nd->op = VK_NODE_LAUNCH;
  nd->k = vkk;
  groups = vk_scratch_groups(vkk, groups);
  nd->groups = (uint32_t)groups;
  uint64_t scr;
  if ((r = vk_buf_new(st, d, 4096, d->mem_type, 1, &nd->args)) ||
      (r = vk_scratch_get(st, d, &nd->scratch, vkk, groups, &scr))) {
    if (nd->args) vk_buf_destroy(d, nd->args);
    nd->args = NULL;
    g->n--;
    return r;
  }
  memcpy(nd->args->map, tmp, off);
  return KERN_SUCCESS;
}

/* A copy or fill into the capture (lock held). */
static kern_status vk_capture_copy(vk_state *st, vk_dev *d, vk_graph *g,
                                   int what, vk_buf *b, size_t off,
                                   const vk_buf *sb, size_t soff, void *host,
                                   const void *chost, size_t bytes) {
  vk_node *nd = vk_node_add(g);
  if (!nd)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: out of memory");
  nd->op = what;
  nd->b = b;
  nd->sb = (vk_buf *)sb;
  nd->off = off;
  nd->soff = soff;
  nd->bytes = bytes;
  nd->host = what == VK_IN ? (void *)chost : host;
  size_t need = bytes;
  if (what == VK_FILL) {
    size_t ps = soff;
    need = bytes < ((size_t)64 << 20) ? bytes : ((size_t)64 << 20);
    need -= need % ps;
    if (need == 0) need = ps;
    nd->fill_chunk = need;
  }
  int overlap = what == VK_DD && b == sb && off < soff + bytes &&
                soff < off + bytes;
  kern_status r = KERN_SUCCESS;
  if ((what == VK_FILL || overlap) &&
      (r = vk_buf_new(st, d, need, d->host_type, 1, &nd->stage))) {
    g->n--;
    return r;
  }
  if (what == VK_FILL)
    for (size_t o = 0; o + soff <= need; o += soff)
      memcpy(nd->stage->map + o, chost, soff);
  return KERN_SUCCESS;
}

static kern_status vk_capture_begin(void *state, int dev, void *s) {
  vk_state *st = state;
  vk_stream *vs = s;
  vk_graph *g = kern__calloc(1, sizeof *g);
  if (!g)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: out of memory");
  g->dev = dev;
  g->last = -1;
  pthread_mutex_lock(&st->lock);
  vs->cap = g;
  pthread_mutex_unlock(&st->lock);
  return KERN_SUCCESS;
}

static kern_status vk_capture_end(void *state, int dev, void *s,
                                  void **graph) {
  vk_state *st = state;
  vk_stream *vs = s;
  vk_dev *d = &st->devs[dev];
  pthread_mutex_lock(&st->lock);
  vk_graph *g = vs->cap;
  vs->cap = NULL;
  *graph = NULL;
  if (g && !g->failed && vk_copy_new(st, d, g) == KERN_SUCCESS) {
    *graph = g;
  } else if (g) {
    /* the runtime replays its list instead */
    vk_graph_destroy(d, g);
  }
  pthread_mutex_unlock(&st->lock);
  return KERN_SUCCESS;
}

static kern_status vk_capture_node(void *state, int dev, void *s, void **node) {
  vk_state *st = state;
  vk_stream *vs = s;
  (void)dev;
  pthread_mutex_lock(&st->lock);
  /* the node's index + 1, so that NULL means none */
  *node = vs->cap && vs->cap->n ? (void *)(uintptr_t)vs->cap->n : NULL;
  pthread_mutex_unlock(&st->lock);
  return KERN_SUCCESS;
}

/* The copy of g in flight submitted first, or -1 (lock held). */
static int vk_graph_oldest(const vk_graph *g) {
  int o = -1;
  for (int k = 0; k < g->ncopies; k++)
    if (g->copies[k].vs && (o < 0 || g->copies[k].seq < g->copies[o].seq))
      o = k;
  return o;
}

/* Waits until g's copy k (every copy for k < 0) is not in flight (no lock
 * held). */
static kern_status vk_graph_wait(vk_state *st, vk_dev *d, vk_graph *g, int k) {
  for (;;) {
    pthread_mutex_lock(&st->lock);
    int o = k >= 0 ? (g->copies[k].vs ? k : -1) : vk_graph_oldest(g);
    vk_stream *vs = o >= 0 ? g->copies[o].vs : NULL;
    uint64_t v = o >= 0 ? g->copies[o].v : 0;
    pthread_mutex_unlock(&st->lock);
    if (!vs) return KERN_SUCCESS;
    kern_status r = vk_wait_value(st, d, vs, v);
    if (r != KERN_SUCCESS) return r;
  }
}

static kern_status vk_graph_idle(vk_state *st, vk_dev *d, vk_graph *g) {
  return vk_graph_wait(st, d, g, -1);
}

/* A copy of g for a replay, no replay in flight holding it; the lock is
 * held on success (Note [vulkan graph copies]). */
static kern_status vk_graph_copy(vk_state *st, vk_dev *d, vk_graph *g,
                                 int *out) {
  for (;;) {
    pthread_mutex_lock(&st->lock);
    vk_reap(d);
    for (int k = 0; k < g->ncopies; k++)
      if (!g->copies[k].vs) {
        *out = k;
        return KERN_SUCCESS;
      }
    if (g->ncopies < VK_GRAPH_COPIES) {
      kern_status r = vk_copy_new(st, d, g);
      if (r == KERN_SUCCESS) {
        *out = g->ncopies - 1;
        return KERN_SUCCESS;
      }
      if (g->ncopies == 0) { /* nothing to wait for */
        pthread_mutex_unlock(&st->lock);
        return r;
      }
    }
    int o = vk_graph_oldest(g);
    pthread_mutex_unlock(&st->lock);
    kern_status r = vk_graph_wait(st, d, g, o);
    if (r != KERN_SUCCESS) return r;
  }
}

static kern_status vk_graph_launch(void *state, int dev, void *graph,
                                   void *s) {
  vk_state *st = state;
  vk_graph *g = graph;
  vk_stream *vs = s;
  vk_dev *d = &st->devs[dev];
  int k;
  kern_status r = vk_graph_copy(st, d, g, &k);
  if (r != KERN_SUCCESS) return r;
  vk_copy *c = &g->copies[k];
  VkResult vr = c->dirty ? vk_graph_record(d, g, c) : 0;
  vk_job *j = NULL;
  if (vr != 0) {
    r = vk_fail(st, "recording a graph", vr);
  } else if ((r = vk_job_get(st, d, 0, &j)) == KERN_SUCCESS) {
    for (int i = 0; i < g->n; i++) /* uploads read the caller's memory now */
      if (g->nodes[i].op == VK_IN)
        memcpy(c->stage[i]->map, g->nodes[i].host, g->nodes[i].bytes);
    j->graph = g;
    j->gcopy = k;
    /* after the graph's previous replay, on whichever stream */
    const vk_copy *p = g->last >= 0 ? &g->copies[g->last] : NULL;
    VkSemaphore wsem = p && p->vs && p->vs != vs ? p->vs->sem : 0;
    uint64_t wval = wsem ? p->v : 0;
    /* Note [vulkan print] in graphs: a replay that prints runs as a
     * printing launch does: the print buffer reset before it, its records
     * written to stdout when it is done, before the call returns, all
     * under the lock (no other print between) */
    if (g->pmod && (r = vk_print_reset(st, d))) {
      vk_job_recycle(d, j);
      j = NULL;
    }
    if (!r && (r = vk_submit(st, d, vs, j, wsem, wval)) == KERN_SUCCESS) {
      c->vs = vs;
      c->v = vs->last;
      c->seq = ++g->seq;
      g->last = k;
      vs->refs++; /* c->vs stays valid until the replay is reaped */
      if (g->pmod) {
        uint64_t want = vs->last;
        VkSemaphoreWaitInfo wi = {VK_ST_SEMAPHORE_WAIT_INFO, NULL, 0, 1,
                                  &vs->sem, &want};
        VkResult wr = vk_proc.vk.vkWaitSemaphores(d->dev, &wi, UINT64_MAX);
        if (wr != 0) {
          r = vk_fail(st, "vkWaitSemaphores", wr);
        } else {
          vk_reap(d);
          vk_print_flush(d, g->pmod);
        }
      }
    }
  }
  pthread_mutex_unlock(&st->lock);
  return r;
}

/* Every copy of g must be recorded again (lock held). */
static void vk_graph_dirty(vk_graph *g) {
  for (int k = 0; k < g->ncopies; k++)
    g->copies[k].dirty = 1;
}

static kern_status vk_graph_set_launch(void *state, int dev, void *graph,
                                       void *node, void *fn,
                                       const kc_kernel *k, void *const *args,
                                       const kern__dims *dims) {
  vk_state *st = state;
  vk_graph *g = graph;
  vk_dev *d = &st->devs[dev];
  int i = (int)(uintptr_t)node - 1;
  if (i < 0 || i >= g->n || g->nodes[i].op != VK_NODE_LAUNCH)
    return KERN_ERROR_UNSUPPORTED;
  kern_status r = vk_graph_idle(st, d, g);
  if (r != KERN_SUCCESS) return r;
  unsigned char tmp[4096];
  size_t off;
  int64_t groups;
  pthread_mutex_lock(&st->lock);
  if ((r = vk_pack(st, d, dev, k, args, dims, tmp, &off, &groups)) ==
      KERN_SUCCESS) {
    vk_node *nd = &g->nodes[i];
    memcpy(nd->args->map, tmp, off);
    /* Note [vulkan scratch]: the new kernel's frames */
    groups = vk_scratch_groups(fn, groups);
    uint64_t was = nd->scratch ? nd->scratch->addr : 0, scr;
    if ((r = vk_scratch_get(st, d, &nd->scratch, fn, groups, &scr)))
      vk_graph_dirty(g);
    else if (scr != was)
      vk_graph_dirty(g);
    if (nd->groups != (uint32_t)groups || nd->k != fn) {
      nd->groups = (uint32_t)groups;
      nd->k = fn;
      vk_graph_dirty(g);
    }
  }
  pthread_mutex_unlock(&st->lock);
  return r;
}

static void vk_graph_free(void *state, int dev, void *graph) {
  vk_state *st = state;
  vk_graph *g = graph;
  vk_dev *d = &st->devs[dev];
  (void)vk_graph_idle(st, d, g);
  pthread_mutex_lock(&st->lock);
  vk_graph_destroy(d, g);
  pthread_mutex_unlock(&st->lock);
}

/* A replay's batch was reaped: its downloads land from copy k, its time
 * counts (lock held). */
static void vk_graph_reaped(vk_dev *d, vk_graph *g, int k) {
  vk_copy *c = &g->copies[k];
  for (int i = 0; i < g->n; i++)
    if (g->nodes[i].op == VK_OUT)
      memcpy(g->nodes[i].host, c->stage[i]->map, g->nodes[i].bytes);
  uint64_t t[2] = {0, 0};
  if (c->ts &&
      vk_proc.vk.vkGetQueryPoolResults(d->dev, c->ts, 0, 2, sizeof t, t, 8,
                                       VK_QUERY_RESULT_64 |
                                           VK_QUERY_RESULT_WAIT) == 0) {
    const vk_phys *ph = &vk_proc.phys[d->index];
    uint64_t mask = ph->ts_bits >= 64 ? ~(uint64_t)0
                                      : (((uint64_t)1 << ph->ts_bits) - 1);
    d->clock_ms += (double)((t[1] - t[0]) & mask) * ph->ts_period * 1e-6;
  }
  vk_stream *vs = c->vs;
  c->vs = NULL;
  if (vs) vk_stream_unref(d, vs);
}

static kern_status vk_launch_async(void *state, int dev, void *s, void *fn,
                                   const kc_kernel *k, void *const *args,
                                   const kern__dims *dims) {
  vk_state *st = state;
  vk_kernel *vkk = fn;
  vk_dev *d;
  kern_status r = vk_open(st, dev, &d);
  if (r != KERN_SUCCESS) return r;
  if (dims->total <= dims->begin) return KERN_SUCCESS;
  if (vkk->mod && vkk->mod->nprints) {
    /* Note [vulkan print]: after the stream's work, synchronously, so the
     * output is on stdout when the launch returns */
    if (!((vk_stream *)s)->cap) { /* a capture records it (below) */
      if ((r = vk_stream_sync(st, dev, s)) != KERN_SUCCESS) return r;
      return vk_launch(st, dev, fn, k, args, dims);
    }
  }
  unsigned char tmp[4096];
  size_t off;
  int64_t groups;
  pthread_mutex_lock(&st->lock);
  vk_reap(d);
  vk_job *j = NULL;
  if (((vk_stream *)s)->cap) { /* Note [vulkan graphs] */
    r = vk_capture_launch(st, d, dev, ((vk_stream *)s)->cap, vkk, k, args,
                          dims);
    goto out;
  }
  if ((r = vk_pack(st, d, dev, k, args, dims, tmp, &off, &groups)) ||
      (r = vk_job_get(st, d, 1, &j)))
    goto out;
  if (!j->args &&
      (r = vk_buf_new(st, d, 4096, d->mem_type, 1, &j->args))) {
    vk_proc.vk.vkEndCommandBuffer(j->cmd);
    vk_job_recycle(d, j);
    goto out;
  }
  uint64_t scr;
  groups = vk_scratch_groups(vkk, groups);
  if ((r = vk_scratch_get(st, d, &j->scratch, vkk, groups, &scr))) {
    vk_proc.vk.vkEndCommandBuffer(j->cmd);
    vk_job_recycle(d, j);
    goto out;
  }
  memcpy(j->args->map, tmp, off);
  vk_table *vk = &vk_proc.vk;
  vk->vkCmdBindPipeline(j->cmd, VK_BIND_COMPUTE, vkk->pipeline);
  vk_push(d, j->cmd, j->args->addr, 0, scr);
  vk->vkCmdDispatch(j->cmd, (uint32_t)groups, 1, 1);
  r = vk_submit(st, d, s, j, 0, 0);
out:
  pthread_mutex_unlock(&st->lock);
  return r;
}


/* Note [vulkan pinned memory]: kern_host_alloc on a device with
 * VK_EXT_external_memory_host allocates page-aligned host memory (to
 * minImportedHostPointerAlignment, its size rounded up to it), imports it
 * as VkDeviceMemory (VkImportMemoryHostPointerInfoEXT) bound to a transfer
 * buffer, and keeps it until kern_host_free.  An asynchronous copy whose
 * host range lies inside such a block is one vkCmdCopyBuffer between the
 * block's buffer and the array: no staging buffer and no memcpy; like
 * CUDA's pinned copies, the device reads (or writes) the caller's memory
 * when the batch runs, so the caller leaves it alone until the stream (or
 * an event after the copy) is synchronized (docs/async.md).  Without the
 * extension (or where the driver refuses the import, or with
 * KERN_VULKAN_NO_HOST_IMPORT=1) kern_host_alloc gives ordinary aligned
 * memory, copied through staging as pageable memory is;
 * kern__vulkan_host_imported says which, and why not. */
/* Why d's latest kern_host_alloc was not imported ("" when it was). */
static void vk_pin_note(vk_state *st, vk_dev *d, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void vk_pin_note(vk_state *st, vk_dev *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&st->lock);
  vsnprintf(d->pin_why, sizeof d->pin_why, fmt, ap);
  pthread_mutex_unlock(&st->lock);
  va_end(ap);
}

static kern_status vk_host_alloc(void *state, int dev, size_t bytes,
                                 void **out) {
  vk_state *st = state;
  vk_dev *d;
  kern_status s = vk_open(st, dev, &d);
  if (s != KERN_SUCCESS) return s;
  const vk_phys *p = &vk_proc.phys[dev];
  size_t align = p->host_import && p->import_align > 4096
                     ? (size_t)p->import_align : 4096;
  size_t size = (bytes + align - 1) & ~(align - 1);
  void *mem = NULL;
  if (posix_memalign(&mem, align, size) != 0)
    return kern__error(st->ctx, KERN_ERROR_OUT_OF_MEMORY,
                       "vulkan: cannot allocate %zu host bytes", bytes);
  *out = mem;
  const char *why = NULL;
  if (!p->host_import)
    why = "the device lacks VK_EXT_external_memory_host";
  else if (vk_env_flag("KERN_VULKAN_NO_HOST_IMPORT"))
    why = "KERN_VULKAN_NO_HOST_IMPORT is set";
  if (why) {
    vk_pin_note(st, d, "%s", why);
    return KERN_SUCCESS; /* ordinary memory, staged copies */
  }
  vk_table *vk = &vk_proc.vk;
  typedef VkResult (*props_fn)(VkDevice, uint32_t, const void *, void *);
  PFN_vkVoidFunction f =
      vk->vkGetDeviceProcAddr(d->dev, "vkGetMemoryHostPointerPropertiesEXT");
  props_fn get_props;
  memcpy(&get_props, &f, sizeof f);
  struct {
    uint32_t sType;
    void *pNext;
    uint32_t bits;
  } hp = {VK_ST_MEMORY_HOST_POINTER_PROPERTIES_EXT, NULL, 0};
  vk_buf *b = kern__calloc(1, sizeof *b);
  VkResult r = -1;
  if (!b || !f ||
      (r = get_props(d->dev, VK_HANDLE_HOST_ALLOCATION, mem, &hp)) != 0) {
    vk_pin_note(st, d, "vkGetMemoryHostPointerPropertiesEXT failed "
                "(VkResult %d)", (int)r);
    kern__free(b);
    return KERN_SUCCESS;
  }
  struct {
    uint32_t sType;
    const void *pNext;
    uint32_t handleTypes;
  } ebi = {VK_ST_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, NULL,
           VK_HANDLE_HOST_ALLOCATION};
  VkBufferCreateInfo bi = {VK_ST_BUFFER_CREATE_INFO, &ebi, 0, size,
                           VK_USAGE_TRANSFER_SRC | VK_USAGE_TRANSFER_DST, 0, 0,
                           NULL};
  b->size = size;
  b->map = mem;
  const char *call = "vkCreateBuffer";
  if ((r = vk->vkCreateBuffer(d->dev, &bi, NULL, &b->buf)) == 0) {
    VkMemoryRequirements req;
    vk->vkGetBufferMemoryRequirements(d->dev, b->buf, &req);
    uint32_t bits = req.memoryTypeBits & hp.bits, type = 0;
    while (type < 32 && !(bits & (1u << type))) type++;
    struct {
      uint32_t sType;
      const void *pNext;
      uint32_t handleType;
      void *ptr;
    } imp = {VK_ST_IMPORT_MEMORY_HOST_POINTER_INFO_EXT, NULL,
             VK_HANDLE_HOST_ALLOCATION, mem};
    VkMemoryAllocateInfo ai = {VK_ST_MEMORY_ALLOCATE_INFO, &imp, size, type};
    call = "no memory type for the import";
    r = -1;
    if (type < 32) {
      call = "vkAllocateMemory (import)";
      if ((r = vk->vkAllocateMemory(d->dev, &ai, NULL, &b->mem)) == 0) {
        call = "vkBindBufferMemory";
        r = vk->vkBindBufferMemory(d->dev, b->buf, b->mem, 0);
      } else {
        b->mem = 0;
      }
    }
  } else {
    b->buf = 0;
  }
  if (r != 0) {
    vk_pin_note(st, d, "%s: VkResult %d", call, (int)r);
    b->map = NULL; /* the caller's memory stays */
    vk_buf_destroy(d, b);
    return KERN_SUCCESS;
  }
  pthread_mutex_lock(&st->lock);
  b->next = d->pins;
  d->pins = b;
  d->pin_why[0] = 0;
  pthread_mutex_unlock(&st->lock);
  return KERN_SUCCESS;
}

static void vk_host_free(void *state, int dev, void *ptr) {
  vk_state *st = state;
  if (!ptr) return;
  if (st->devs && dev >= 0 && dev < vk_proc.nphys && st->devs[dev].dev) {
    vk_dev *d = &st->devs[dev];
    /* a batch may still copy from or to it: let the device finish */
    vk_proc.vk.vkDeviceWaitIdle(d->dev);
    pthread_mutex_lock(&st->lock);
    vk_reap(d);
    for (vk_buf **pp = &d->pins; *pp; pp = &(*pp)->next)
      if ((*pp)->map == ptr) {
        vk_buf *b = *pp;
        *pp = b->next;
        b->map = NULL;
        vk_buf_destroy(d, b);
        break;
      }
    pthread_mutex_unlock(&st->lock);
  }
  free(ptr);
}

/* The imported block holding [p, p + bytes), or NULL (lock held). */
static vk_buf *vk_pinned(vk_dev *d, const void *p, size_t bytes) {
  const unsigned char *c = p;
  for (vk_buf *b = d->pins; b; b = b->next)
    if (c >= b->map && bytes <= b->size && (size_t)(c - b->map) <= b->size - bytes)
      return b;
  return NULL;
}

int kern__vulkan_host_imported(void *state, int dev, const void *p,
                               const char **why) {
  vk_state *st = state;
  if (why) *why = "no such device";
  if (!st || !st->devs || dev < 0 || dev >= vk_proc.nphys) return 0;
  pthread_mutex_lock(&st->lock);
  if (why) *why = st->devs[dev].pin_why;
  int r = vk_pinned(&st->devs[dev], p, 1) != NULL;
  pthread_mutex_unlock(&st->lock);
  return r;
}

/* Note [vulkan chunked copies]: an asynchronous upload or download of
 * pageable memory larger than the staging size (64 MiB, or
 * $KERN_VULKAN_STAGING_BYTES) goes in chunks of that size, each a batch of
 * its own with a staging buffer of its own, at most VK_CHUNK_RING of them
 * in flight: before the chunk after those, the call waits until the
 * oldest is done, so the call returns when no more than VK_CHUNK_RING
 * chunks remain to be done, and staging never holds more than that many
 * chunks of one copy (it held the whole copy).  An upload still reads all
 * of the caller's memory before it returns (kern.h: pageable memory is
 * staged and may make the call wait), so the caller may reuse it at once;
 * a download's chunks reach the caller's memory when their batches are
 * reaped, before any wait covering the stream's last batch returns, as a
 * download of one batch did.  kern_host_alloc's memory is copied straight
 * (Note [vulkan pinned memory]), in one batch, without waiting. */
#define VK_CHUNK_RING 4
static size_t vk_async_chunk(const vk_dev *d) {
  const char *e = getenv("KERN_VULKAN_STAGING_BYTES");
  if (e && *e) {
    long long v = atoll(e);
    return v < 256 ? 256 : (size_t)v;
  }
  return d->stage_size ? d->stage_size : (size_t)64 << 20;
}

/* (st->lock held on entry and on return; released while it waits) */
static kern_status vk_copy_chunked(vk_state *st, vk_dev *d, vk_stream *vs,
                                   int what, vk_buf *b, size_t off,
                                   unsigned char *host,
                                   const unsigned char *chost, size_t bytes,
                                   size_t chunk) {
  vk_table *vk = &vk_proc.vk;
  uint64_t ring[VK_CHUNK_RING] = {0};
  kern_status r = KERN_SUCCESS;
  size_t k = 0;
  for (size_t o = 0; o < bytes; o += chunk, k++) {
    size_t n = bytes - o < chunk ? bytes - o : chunk;
    uint64_t v = ring[k % VK_CHUNK_RING];
    if (v) { /* the oldest chunk in flight: done before its staging is reused */
      pthread_mutex_unlock(&st->lock);
      r = vk_wait_value(st, d, vs, v);
      pthread_mutex_lock(&st->lock);
      if (r) return r;
    }
    vk_job *j = NULL;
    if ((r = vk_job_get(st, d, 1, &j))) return r;
    if ((r = vk_job_stage(st, d, j, n))) {
      vk->vkEndCommandBuffer(j->cmd);
      vk_job_recycle(d, j);
      return r;
    }
    if (what == VK_IN) {
      memcpy(j->stage->map, chost + o, n);
      VkBufferCopy c = {0, off + o, n};
      vk->vkCmdCopyBuffer(j->cmd, j->stage->buf, b->buf, 1, &c);
    } else {
      VkBufferCopy c = {off + o, 0, n};
      vk->vkCmdCopyBuffer(j->cmd, b->buf, j->stage->buf, 1, &c);
      j->out = host + o;
      j->out_bytes = n;
    }
    if ((r = vk_submit(st, d, vs, j, 0, 0))) return r;
    ring[k % VK_CHUNK_RING] = vs->last;
  }
  return r;
}

/* The copies and fills on a stream: Note [vulkan streams]. */
static kern_status vk_copy_async(vk_state *st, int dev, vk_stream *vs,
                                 int what, vk_buf *b, size_t off,
                                 const vk_buf *sb, size_t soff, void *host,
                                 const void *chost, size_t bytes) {
  vk_dev *d;
  kern_status r = vk_open(st, dev, &d);
  if (r != KERN_SUCCESS) return r;
  if ((r = vk_range(st, b, off, bytes)) ||
      (what == VK_DD && (r = vk_range(st, sb, soff, bytes))))
    return r;
  if (bytes == 0) return KERN_SUCCESS;
  vk_table *vk = &vk_proc.vk;
  pthread_mutex_lock(&st->lock);
  vk_reap(d);
  vk_job *j = NULL;
  if (vs->cap) { /* Note [vulkan graphs] */
    r = vk_capture_copy(st, d, vs->cap, what, b, off, sb, soff, host, chost,
                        bytes);
    goto out;
  }
  if ((what == VK_IN || what == VK_OUT) && bytes > vk_async_chunk(d) &&
      !vk_pinned(d, what == VK_IN ? chost : host, bytes)) {
    r = vk_copy_chunked(st, d, vs, what, b, off, host, chost, bytes,
                        vk_async_chunk(d));
    goto out;
  }
  if ((r = vk_job_get(st, d, 1, &j))) goto out;
  size_t need = bytes, ps = soff;
  if (what == VK_FILL) {
    need = bytes < ((size_t)64 << 20) ? bytes : ((size_t)64 << 20);
    need -= need % ps;
    if (need == 0) need = ps;
  }
  int overlap = what == VK_DD && b == sb && off < soff + bytes &&
                soff < off + bytes;
  /* Note [vulkan pinned memory]: straight from or to an imported block */
  vk_buf *pin = what == VK_IN    ? vk_pinned(d, chost, bytes)
                : what == VK_OUT ? vk_pinned(d, host, bytes)
                                 : NULL;
  if (pin) {
    const unsigned char *hp = what == VK_IN ? chost : host;
    VkBufferCopy c = {what == VK_IN ? (uint64_t)(hp - pin->map) : off,
                      what == VK_IN ? off : (uint64_t)(hp - pin->map), bytes};
    if (what == VK_IN)
      vk->vkCmdCopyBuffer(j->cmd, pin->buf, b->buf, 1, &c);
    else
      vk->vkCmdCopyBuffer(j->cmd, b->buf, pin->buf, 1, &c);
    r = vk_submit(st, d, vs, j, 0, 0);
    goto out;
  }
  if ((what != VK_DD || overlap) && (r = vk_job_stage(st, d, j, need))) {
    vk->vkEndCommandBuffer(j->cmd);
    vk_job_recycle(d, j);
    goto out;
  }
  if (what == VK_IN) {
    memcpy(j->stage->map, chost, bytes); /* read at the call */
    VkBufferCopy c = {0, off, bytes};
    vk->vkCmdCopyBuffer(j->cmd, j->stage->buf, b->buf, 1, &c);
  } else if (what == VK_OUT) {
    VkBufferCopy c = {off, 0, bytes};
    vk->vkCmdCopyBuffer(j->cmd, b->buf, j->stage->buf, 1, &c);
    j->out = host;
    j->out_bytes = bytes;
  } else if (what == VK_FILL) {
    for (size_t o = 0; o + ps <= need; o += ps)
      memcpy(j->stage->map + o, chost, ps);
    for (size_t o = 0; o < bytes; o += need) {
      VkBufferCopy c = {0, off + o, bytes - o < need ? bytes - o : need};
      vk->vkCmdCopyBuffer(j->cmd, j->stage->buf, b->buf, 1, &c);
    }
  } else if (!overlap) {
    VkBufferCopy c = {soff, off, bytes};
    vk->vkCmdCopyBuffer(j->cmd, sb->buf, b->buf, 1, &c);
  } else {
    VkBufferCopy c1 = {soff, 0, bytes}, c2 = {0, off, bytes};
    vk->vkCmdCopyBuffer(j->cmd, sb->buf, j->stage->buf, 1, &c1);
    VkMemoryBarrier m = {VK_ST_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE,
                         VK_ACCESS_TRANSFER_READ | VK_ACCESS_TRANSFER_WRITE};
    vk->vkCmdPipelineBarrier(j->cmd, VK_STAGE_TRANSFER, VK_STAGE_TRANSFER, 0,
                             1, &m, 0, NULL, 0, NULL);
    vk->vkCmdCopyBuffer(j->cmd, j->stage->buf, b->buf, 1, &c2);
  }
  r = vk_submit(st, d, vs, j, 0, 0);
out:
  pthread_mutex_unlock(&st->lock);
  return r;
}

static kern_status vk_copy_in_async(void *state, int dev, void *s, void *dst,
                                    size_t off, const void *src, size_t bytes) {
  return vk_copy_async(state, dev, s, VK_IN, dst, off, NULL, 0, NULL, src,
                       bytes);
}

static kern_status vk_copy_out_async(void *state, int dev, void *s, void *dst,
                                     const void *src, size_t off,
                                     size_t bytes) {
  return vk_copy_async(state, dev, s, VK_OUT, (vk_buf *)src, off, NULL, 0,
                       dst, NULL, bytes);
}

static kern_status vk_copy_dd_async(void *state, int dev, void *s, void *dst,
                                    size_t doff, const void *src, size_t soff,
                                    size_t bytes) {
  return vk_copy_async(state, dev, s, VK_DD, dst, doff, src, soff, NULL, NULL,
                       bytes);
}

static kern_status vk_fill_async(void *state, int dev, void *s, void *dst,
                                 const void *pattern, size_t pattern_size,
                                 size_t bytes) {
  if (pattern_size == 0) return KERN_SUCCESS;
  return vk_copy_async(state, dev, s, VK_FILL, dst, 0, NULL, pattern_size,
                       NULL, pattern, bytes);
}

/* kern_stream_wrap: a stream kern_stream_native gave (one of the
 * device's live vk_streams); any other pointer is refused. */
/* Frees every stream, job and staging buffer of d (release, after
 * vkDeviceWaitIdle; the runtime freed its streams and events first). */
static void vk_streams_release(vk_dev *d) {
  while (d->jhead) { /* nothing to copy back to a caller now */
    vk_job *j = d->jhead;
    d->jhead = j->dnext;
    vk_job_recycle(d, j);
  }
  d->jtail = NULL;
  while (d->streams) vk_stream_destroy(d, d->streams);
  d->defstream = NULL;
  while (d->free_jobs) {
    vk_job *j = d->free_jobs;
    d->free_jobs = j->next;
    if (j->args) vk_buf_destroy(d, j->args);
    if (j->scratch) vk_buf_destroy(d, j->scratch);
    if (j->ts) vk_proc.vk.vkDestroyQueryPool(d->dev, j->ts, NULL);
    kern__free(j); /* its command buffer goes with the pool */
  }
  while (d->free_stage) {
    vk_buf *b = d->free_stage;
    d->free_stage = b->next;
    vk_buf_destroy(d, b);
  }
  while (d->pins) { /* the runtime frees the memory itself */
    vk_buf *b = d->pins;
    d->pins = b->next;
    b->map = NULL;
    vk_buf_destroy(d, b);
  }
}

static kern_status vk_adopt(void *state, int dev, int what, void *native) {
  vk_state *st = state;
  if (what != KERN__NATIVE_STREAM) return KERN_SUCCESS;
  if (!st->devs || dev < 0 || dev >= vk_proc.nphys) return KERN_ERROR_UNSUPPORTED;
  kern_status r = KERN_ERROR_UNSUPPORTED;
  pthread_mutex_lock(&st->lock);
  for (vk_stream *vs = st->devs[dev].streams; vs; vs = vs->next)
    if (vs == native && !vs->freed) r = KERN_SUCCESS;
  pthread_mutex_unlock(&st->lock);
  return r;
}

int kern__vulkan_stream_stats(void *state, int dev, uint64_t *submitted,
                              uint64_t *pending) {
  vk_state *st = state;
  if (!st || !st->devs || dev < 0 || dev >= vk_proc.nphys) return -1;
  vk_dev *d = &st->devs[dev];
  uint64_t n = 0;
  pthread_mutex_lock(&st->lock);
  for (vk_job *j = d->jhead; j; j = j->dnext) {
    uint64_t v = 0;
    (void)vk_proc.vk.vkGetSemaphoreCounterValue(d->dev, j->vs->sem, &v);
    n += j->value > v;
  }
  if (submitted) *submitted = d->submitted;
  if (pending) *pending = n;
  pthread_mutex_unlock(&st->lock);
  return vk_native_ok(dev);
}

const kern_backend kern__backend_vulkan = {
    .version = 7,
    .name = "vulkan",
    .kind = KERN_BACKEND_VULKAN,
    .target = KERN_TARGET_VULKAN,
    .probe = vk_probe,
    .release = vk_release,
    .device_count = vk_device_count,
    .device_info = vk_device_info,
    .mem_alloc = vk_mem_alloc,
    .mem_free = vk_mem_free,
    .copy_in = vk_copy_in,
    .copy_out = vk_copy_out,
    .fill = vk_fill,
    .module_build = vk_module_build,
    .module_free = vk_module_free,
    .kernel_get = vk_kernel_get,
    .launch = vk_launch,
    .synchronize = vk_synchronize,
    .init = vk_init,
    .copy_in_at = vk_copy_in_at,
    .copy_out_at = vk_copy_out_at,
    .copy_dd = vk_copy_dd,
    .device_clock_ms = vk_device_clock_ms,
    .stream_new = vk_stream_new,
    .stream_free = vk_stream_free,
    .stream_default = vk_stream_default,
    .stream_sync = vk_stream_sync,
    .stream_query = vk_stream_query,
    .stream_wait = vk_stream_wait,
    .event_new = vk_event_new,
    .event_free = vk_event_free,
    .event_record = vk_event_record,
    .event_sync = vk_event_sync,
    .event_query = vk_event_query,
    .event_elapsed = vk_event_elapsed,
    .launch_async = vk_launch_async,
    .copy_in_async = vk_copy_in_async,
    .copy_out_async = vk_copy_out_async,
    .copy_dd_async = vk_copy_dd_async,
    .fill_async = vk_fill_async,
    .adopt = vk_adopt,
    .host_alloc = vk_host_alloc,
    .host_free = vk_host_free,
    .capture_begin = vk_capture_begin,
    .capture_end = vk_capture_end,
    .capture_node = vk_capture_node,
    .graph_launch = vk_graph_launch,
    .graph_set_launch = vk_graph_set_launch,
    .graph_free = vk_graph_free,
};
