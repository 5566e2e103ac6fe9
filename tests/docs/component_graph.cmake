# The component graph is declared once (ptc_add_component); everything that restates it must agree:
#   - the component tables of README.md and docs/architecture.md, between the markers below, equal the
#     table the build wrote from the declarations (TABLE); with -DUPDATE=ON they are rewritten instead;
#   - each component's umbrella header includes every public header of the component (detail/ aside);
#   - <ptc/ptc.hpp> includes exactly the umbrella headers.
#   cmake -DSOURCE_DIR=<ptc> -DTABLE=<ptc_components.md> -DUMBRELLAS=<component>=<dir>/<header>|... [-DUPDATE=ON]
#         -P component_graph.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var SOURCE_DIR TABLE UMBRELLAS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "component_graph.cmake: ${var} is not set")
  endif()
endforeach()

set(begin_marker "<!-- ptc-components: generated from the ptc_add_component calls in runtime/*/CMakeLists.txt; do not edit by hand -->\n")
set(end_marker "<!-- /ptc-components -->")
file(READ "${TABLE}" table)
set(failures "")

foreach(doc IN ITEMS README.md docs/architecture.md)
  file(READ "${SOURCE_DIR}/${doc}" text)
  string(FIND "${text}" "${begin_marker}" begin)
  string(FIND "${text}" "${end_marker}" end)
  if(begin EQUAL -1 OR end EQUAL -1 OR end LESS begin)
    string(APPEND failures "${doc}: no component table between the markers\n  ${begin_marker}  ${end_marker}\n")
    continue()
  endif()
  string(LENGTH "${begin_marker}" marker_length)
  math(EXPR body_start "${begin} + ${marker_length}")
  math(EXPR body_length "${end} - ${body_start}")
  string(SUBSTRING "${text}" ${body_start} ${body_length} body)
  if(body STREQUAL table)
    continue()
  endif()
  if(UPDATE)
    string(SUBSTRING "${text}" 0 ${body_start} head)
    string(SUBSTRING "${text}" ${end} -1 tail)
    file(WRITE "${SOURCE_DIR}/${doc}" "${head}${table}${tail}")
    message(STATUS "rewrote the component table of ${doc}")
  else()
    string(APPEND failures "${doc}: its component table differs from the declarations; it says\n${body}"
                           "where the ptc_add_component calls give\n${table}"
                           "(cmake -DUPDATE=ON ... -P tests/docs/component_graph.cmake rewrites it)\n")
  endif()
endforeach()

# Each umbrella header includes all of its component's public headers.
string(REPLACE "|" ";" umbrellas "${UMBRELLAS}")
set(umbrella_headers)
foreach(entry IN LISTS umbrellas)
  string(REGEX MATCH "^([a-z]+)=(.*)/include/(.*)$" _ "${entry}")
  set(component "${CMAKE_MATCH_1}")
  set(include_dir "${CMAKE_MATCH_2}/include")
  set(umbrella "${CMAKE_MATCH_3}")
  list(APPEND umbrella_headers "${umbrella}")
  if(NOT EXISTS "${include_dir}/${umbrella}")
    string(APPEND failures "ptc::${component}: its umbrella header <${umbrella}> does not exist\n")
    continue()
  endif()
  file(READ "${include_dir}/${umbrella}" umbrella_text)
  file(GLOB_RECURSE headers RELATIVE "${include_dir}" "${include_dir}/ptc/*.hpp")
  foreach(header IN LISTS headers)
    if(header STREQUAL umbrella OR header MATCHES "/detail/")
      continue()
    endif()
    string(FIND "${umbrella_text}" "#include <${header}>" found)
    if(found EQUAL -1)
      string(APPEND failures "ptc::${component}: <${umbrella}> does not include <${header}>\n")
    endif()
  endforeach()
endforeach()

# <ptc/ptc.hpp> is the union of the umbrellas, nothing more.
file(STRINGS "${SOURCE_DIR}/runtime/include/ptc/ptc.hpp" included REGEX "^#include <")
list(TRANSFORM included REPLACE "^#include <(.*)>.*$" "\\1")
list(SORT included)
list(SORT umbrella_headers)
if(NOT included STREQUAL umbrella_headers)
  string(APPEND failures "<ptc/ptc.hpp> includes ${included}; the components' umbrella headers are ${umbrella_headers}\n")
endif()

if(failures)
  message(FATAL_ERROR "${failures}")
endif()
