# kern_find_test_python(OUT): the interpreter of the Python tests.
#
# The first python3 on PATH, then /usr/bin/python3, that can import NumPy
# and pytest; where none can, the first python3 found (its tests then report
# themselves skipped, 77); "" where there is no python3 at all.  The first
# python3 on PATH may be a pyenv or virtualenv one without them while
# tools/setup-debian installs Debian's python3-numpy and python3-pytest for
# /usr/bin/python3: on a fresh machine the Python tests failed that way
# (issue 23).  tests/python/find_python_test.sh runs this file with -P.
function(kern_find_test_python out)
  set(cands)
  string(REPLACE ":" ";" path "$ENV{PATH}")
  foreach(dir ${path} /usr/bin)
    if(dir AND EXISTS "${dir}/python3" AND NOT IS_DIRECTORY "${dir}/python3")
      list(APPEND cands "${dir}/python3")
    endif()
  endforeach()
  set(py "")
  if(cands)
    list(REMOVE_DUPLICATES cands)
    foreach(c ${cands})
      execute_process(COMMAND "${c}" -c "import numpy, pytest"
                      RESULT_VARIABLE r OUTPUT_QUIET ERROR_QUIET)
      if(r EQUAL 0)
        set(py "${c}")
        break()
      endif()
    endforeach()
    if(NOT py)
      list(GET cands 0 py)
      message(STATUS "Python tests: no python3 with NumPy and pytest; "
              "they will report themselves skipped (tools/setup-debian installs them)")
    endif()
  endif()
  set(${out} "${py}" PARENT_SCOPE)
endfunction()

# cmake -DKERN_FIND_TEST_PYTHON=1 -P kern_test_python.cmake prints the choice.
if(CMAKE_SCRIPT_MODE_FILE AND KERN_FIND_TEST_PYTHON)
  kern_find_test_python(py)
  message("KERN_TEST_PYTHON=${py}")
endif()
