# Warp's differentiable examples run unmodified on kern.warp (issue #26):
# the loss each iteration must match the golden curve recorded with real
# Warp 1.19 on the CPU (tests/autodiff/examples/README.md).  The example
# files and their asset come from Warp's example tree ($KERN_WARP_DIR,
# /opt/kern-warp-1.19.0 that .ci/run extracts, or an installed warp-lang);
# without it, Pillow or NumPy each reports itself skipped (77).  About 10 s
# each on one core.  Included from tests/CMakeLists.txt after pytest.cmake,
# whose KERN_PYTHON3 and _py_env it uses.
foreach(ex fluid_checkpoint fluid_checkpoint_custom_backward)
  if(KERN_PYTHON3)
    add_test(NAME autodiff_example_${ex}_cpu
             COMMAND ${KERN_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/autodiff/examples/curve.py
                     check ${ex} --device cpu)
  else()
    add_test(NAME autodiff_example_${ex}_cpu COMMAND sh -c "echo 'skipped: no python3'; exit 77")
  endif()
  set_tests_properties(autodiff_example_${ex}_cpu PROPERTIES
                       SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS python
                       ENVIRONMENT "${_py_env};KERN_LIBRARY=$<TARGET_FILE:kern>;PYTHONDONTWRITEBYTECODE=1")
  # The example's CUDA-graph loop (capture of forward, Tape.backward and
  # tape.zero, then capture_launch) on the CPU: graphs.py.
  if(KERN_PYTHON3)
    add_test(NAME autodiff_example_${ex}_graphs_cpu
             COMMAND ${KERN_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/autodiff/examples/curve.py
                     check ${ex} --device cpu --graphs)
  else()
    add_test(NAME autodiff_example_${ex}_graphs_cpu COMMAND sh -c "echo 'skipped: no python3'; exit 77")
  endif()
  set_tests_properties(autodiff_example_${ex}_graphs_cpu PROPERTIES
                       SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS python
                       ENVIRONMENT "${_py_env};KERN_LIBRARY=$<TARGET_FILE:kern>;PYTHONDONTWRITEBYTECODE=1")
endforeach()
