# The quickstart's token report, counted twice: by ptc-gen at build time (--token-report=FILE) and by
# the program at run time (`quickstart tokens --json`). The two must be the same bytes, since both
# claim to count exactly what the program sends, and gpt-tokenizer must agree with every count. The
# quickstart states titles and hints, which the build side has to reproduce as the generated
# registration does.
#   cmake -DPTC_GEN=<ptc-gen> -DQUICKSTART=<quickstart> -DNODE=<node> -DNODE_DIR=<tests/tokens/node>
#         -DDATA=<rank files> -DSOURCE_DIR=<ptc> -DWORK_DIR=<dir> -P quickstart_report.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var PTC_GEN QUICKSTART NODE NODE_DIR DATA SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "quickstart_report.cmake: ${var} is not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "failed (${rc}): ${command}\n${out}${err}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
run("${PTC_GEN}" --out-dir "${WORK_DIR}/generated" "--token-report=${WORK_DIR}/built.json" "--tokenizer-data=${DATA}"
    "${SOURCE_DIR}/examples/quickstart/include/tracker/tracker.hpp" -- -std=c++20
    "-I${SOURCE_DIR}/examples/quickstart/include" "-I${SOURCE_DIR}/runtime/core/include"
    "-I${SOURCE_DIR}/runtime/tools/include")
execute_process(COMMAND "${QUICKSTART}" tokens --json --tokenizer-data "${DATA}" RESULT_VARIABLE rc
                OUTPUT_FILE "${WORK_DIR}/run.json" ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "quickstart tokens --json failed (${rc}):\n${err}")
endif()
file(READ "${WORK_DIR}/built.json" built)
file(READ "${WORK_DIR}/run.json" ran)
if(NOT built STREQUAL ran)
  message(FATAL_ERROR "ptc-gen's report (${WORK_DIR}/built.json) differs from the program's (${WORK_DIR}/run.json)")
endif()
run("${NODE}" "${NODE_DIR}/check_report.mjs" "${WORK_DIR}/built.json")
message(STATUS "the build's and the program's reports are the same bytes, and gpt-tokenizer agrees")
