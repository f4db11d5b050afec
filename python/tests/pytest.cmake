# The Python package's pytest suite (issue #14), once per device: cpu and
# opencl run in CI (PoCL), cuda on a GPU machine; each reports itself
# skipped (77) where its device is absent.  Included from tests/CMakeLists.txt
# after the ctypes test, whose KERN_PYTHON3 and environment (_py_env: the
# kernel cache, ASan preloading in the sanitizer build) it reuses.
#
# pytest's exit code 5 ("no tests ran") is a failure here like any code but
# 0 and 77: a suite that silently collects nothing must not pass.  A python3
# without pytest or NumPy reports the run skipped (77,
# tests/python/run_pytest.py; CI installs python3-pytest and python3-numpy).
# -p no:cacheprovider keeps pytest from writing into the source tree.
foreach(d cpu opencl cuda)
  if(KERN_PYTHON3)
    add_test(NAME python_pytest_${d}
             COMMAND ${KERN_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/python/run_pytest.py
                     -q -rs -p no:cacheprovider
                     ${PROJECT_SOURCE_DIR}/python/tests)
  else()
    add_test(NAME python_pytest_${d} COMMAND sh -c "echo 'skipped: no python3'; exit 77")
  endif()
  set(_env ${_py_env} "KERN_TEST_DEVICE=${d}"
      "KERN_LIBRARY=$<TARGET_FILE:kern>" "KERN_TOOL=$<TARGET_FILE:kern_tool>"
      "PYTHONPATH=${PROJECT_SOURCE_DIR}/python"
      "PYTHONDONTWRITEBYTECODE=1")
  set_tests_properties(python_pytest_${d} PROPERTIES SKIP_RETURN_CODE 77
                       TIMEOUT 900 ENVIRONMENT "${_env}")
endforeach()
# Not `quick`: the suite compiles a few dozen modules (about 15 s idle, 40 s
# on a busy 2-core machine), so tests/CMakeLists.txt labels it `slow`.
set_tests_properties(python_pytest_cpu PROPERTIES LABELS "python")
set_tests_properties(python_pytest_opencl python_pytest_cuda PROPERTIES LABELS "python;gpu")
# PoCL's builds make python_pytest_opencl one of CI's longest: start it first
set_tests_properties(python_pytest_opencl PROPERTIES COST 300)

# device="vulkan:0" through kern and kern.warp (issue #27): a small suite
# of its own (tests/python/vulkan), not the per-device one above, whose
# struct, view and print tests the vulkan target still refuses.  Skipped
# (77) without a Vulkan device.
if(KERN_PYTHON3)
  add_test(NAME python_vulkan
           COMMAND ${KERN_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/python/run_pytest.py
                   -q -rs -p no:cacheprovider
                   ${PROJECT_SOURCE_DIR}/tests/python/vulkan)
else()
  add_test(NAME python_vulkan COMMAND sh -c "echo 'skipped: no python3'; exit 77")
endif()
set_tests_properties(python_vulkan PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                     LABELS "python" ENVIRONMENT
                     "${_py_env};KERN_LIBRARY=$<TARGET_FILE:kern>;PYTHONDONTWRITEBYTECODE=1")
