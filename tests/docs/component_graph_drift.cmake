# component_graph.cmake must fail when a doc drifts: for README.md and docs/architecture.md in turn, a
# copy of the tree's docs with one component row removed is checked, and the check must refuse it,
# naming the file. Takes the same variables as component_graph.cmake, plus WORK_DIR.
cmake_minimum_required(VERSION 3.25)
foreach(var SOURCE_DIR TABLE UMBRELLAS WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "component_graph_drift.cmake: ${var} is not set")
  endif()
endforeach()

foreach(doc IN ITEMS README.md docs/architecture.md)
  file(REMOVE_RECURSE "${WORK_DIR}")
  foreach(file IN ITEMS README.md docs/architecture.md runtime/include/ptc/ptc.hpp)
    configure_file("${SOURCE_DIR}/${file}" "${WORK_DIR}/${file}" COPYONLY)
  endforeach()
  file(READ "${WORK_DIR}/${doc}" text)
  string(REGEX REPLACE "\n\\| `ptc::mcp` [^\n]*" "" drifted "${text}")
  if(drifted STREQUAL text)
    message(FATAL_ERROR "${doc} has no `ptc::mcp` row to remove")
  endif()
  file(WRITE "${WORK_DIR}/${doc}" "${drifted}")
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DSOURCE_DIR=${WORK_DIR}" "-DTABLE=${TABLE}" "-DUMBRELLAS=${UMBRELLAS}"
                          -P "${CMAKE_CURRENT_LIST_DIR}/component_graph.cmake"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "${doc}: its component table differs")
    message(FATAL_ERROR "the component graph check accepted ${doc} without its mcp row (exit ${rc}):\n${out}${err}")
  endif()
endforeach()
