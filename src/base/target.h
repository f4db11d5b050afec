/*
 * target.h -- what a compilation is asked to produce: the target language
 * and the options.
 *
 * These two types were declared in compile.h, the compiler's entry point.
 * The emitters need them too, and emit/ sits below the entry point, so
 * they live on the ground floor where both can see them; compile.h
 * includes this header, so its users see no difference.
 */
#ifndef KERN_TARGET_H
#define KERN_TARGET_H

typedef enum kern__target {
  KERN_TARGET_C,
  KERN_TARGET_CUDA,
  KERN_TARGET_OPENCL,
  KERN_TARGET_VULKAN, /* GLSL 4.60 compute for Vulkan (emit/vulkan.c) */
  KERN_TARGET_COUNT
} kern__target;

/* A cache of generated helpers (emit/memo.c), opaque outside it. */
typedef struct kc_memo kc_memo;

typedef struct kc_options {
  int debug;       /* bounds checks in generated code */
  int line_directives; /* emit #line mapping to the kernel file */
  /* CUDA only: the compact form (Note [compact CUDA] in emit/cuda.c), for
   * datasets whose text NVRTC compiles in large batches. */
  int compact;
  /* Refuse @wp.func_native snippets (kern_options.no_native). */
  int no_native;
  /* CUDA only, 0 or an SM version (90 for sm_90): also emit the module
   * as PTX for that architecture (emit/ptx.c, Note [PTX tier]):
   * kc_result.ptx, or kc_result.ptx_why when the module uses something
   * the PTX emitter does not cover. */
  int ptx;
  /* C only: emit the module after the expansion into scalar IR (Note
   * [expansion] in ir/expand.c), the form the PTX tier reads, so the CPU
   * tests it; a module the pass refuses is emitted as usual, with a
   * comment saying why (kern compile --expand, KERN_EXPAND=1). */
  int expand;
  /* Autodiff (Note [adjoint] in ir/adjoint.c): NULL, or the name of the
   * kernel whose adjoint the module is made of: the module then holds
   * only the kernel "adj_NAME" (kern_kernel_adjoint). */
  const char *adjoint;
  /* Forward mode (Note [tangent] in ir/adjoint.c): with adjoint set, the
   * module holds the kernel "tan_NAME" instead (kern_kernel_tangent). */
  int tangent;
  /* CUDA and OpenCL: the launch's block size the module is compiled for,
   * where the block's threads exchange values (wp.tile(x) and the rest,
   * Note [block exchange] in lower/check_tile.c); 0: a block is one
   * thread, and a module that exchanges values cannot run there
   * (kc_result.no_gpu). */
  int block;
} kc_options;

/* The most shared memory a CUDA kernel may declare statically; a block
 * exchange buffer over it is dynamic (kc_kernel.dyn_smem). */
#define KERN_CUDA_STATIC_SHARED (48 * 1024)

#endif
