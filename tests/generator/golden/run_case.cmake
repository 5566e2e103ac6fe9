# One golden case: runs ptc-gen on cases/<CASE>.hpp and compares with expected/<CASE>/.
#   MODE=check  (the test) fails on any difference in the outputs (ptc-gen --check prints the diff), in
#               what ptc-gen printed on stderr (expected/<CASE>/ptc-gen.stderr), or in its exit code
#               (cases named errors_* must fail with exit code 1, the others must succeed).
#   MODE=update (the update-goldens target) rewrites expected/<CASE>/ on purpose.
# Runs from this directory with a relative header path, so diagnostics print "cases/x.hpp:3:1: ...".
cmake_minimum_required(VERSION 3.25)
foreach(var PTC_GEN CASE GOLDEN_DIR MODE RUNTIME_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_case.cmake: ${var} is not set")
  endif()
endforeach()

set(expected "${GOLDEN_DIR}/expected/${CASE}")
# The public headers cases include (<ptc/annotate.hpp>, <ptc/tool_result.hpp>, ...), and -I this
# directory: generated code includes the case as "cases/<case>.hpp".
set(flags -std=c++20 -I${RUNTIME_DIR}/core/include -I${RUNTIME_DIR}/tools/include -I${GOLDEN_DIR})
string(REGEX MATCH "^errors_" is_error_case "${CASE}")
if(is_error_case)
  set(want_exit 1)
else()
  set(want_exit 0)
endif()

if(MODE STREQUAL "update")
  file(REMOVE_RECURSE "${expected}")
  file(MAKE_DIRECTORY "${expected}")
  execute_process(COMMAND "${PTC_GEN}" --out-dir "${expected}" "cases/${CASE}.hpp" -- ${flags}
                  WORKING_DIRECTORY "${GOLDEN_DIR}" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL want_exit)
    message(FATAL_ERROR "ptc-gen exited with ${rc} on ${CASE} (expected ${want_exit}):\n${err}")
  endif()
  file(WRITE "${expected}/ptc-gen.stderr" "${err}")
  return()
endif()

execute_process(COMMAND "${PTC_GEN}" --check "${expected}" "cases/${CASE}.hpp" -- ${flags}
                WORKING_DIRECTORY "${GOLDEN_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ "${expected}/ptc-gen.stderr" want_err)
set(failed FALSE)
if(NOT rc EQUAL want_exit)
  message(SEND_ERROR "ptc-gen exited with ${rc}, expected ${want_exit}\n${out}")
  set(failed TRUE)
endif()
if(NOT err STREQUAL want_err)
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/${CASE}.stderr" "${err}")
  execute_process(COMMAND diff -u "${expected}/ptc-gen.stderr" "${CMAKE_CURRENT_BINARY_DIR}/${CASE}.stderr")
  message(SEND_ERROR "ptc-gen's diagnostics differ from expected/${CASE}/ptc-gen.stderr (diff above)")
  set(failed TRUE)
endif()
if(failed)
  message(FATAL_ERROR "golden case ${CASE} failed; if the change is intended: cmake --build <build> --target update-goldens")
endif()
