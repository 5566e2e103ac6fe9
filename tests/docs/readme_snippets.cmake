# The C++ examples of README.md compile warning-free, as a user's strict project would build them.
# Every ```cpp block that is a whole translation unit (it starts with #include and includes no
# generated header) must open with the line `// target_link_libraries(<app> PRIVATE ptc::<name>)` and
# is compiled with -Wall -Wextra -Wpedantic -Werror against the include directories of that target
# alone (as add_subdirectory or find_package give them), so a snippet that includes a header its
# target does not provide fails here as it would in the user's project.
#   cmake -DREADME=<README.md> -DCXX=<compiler> -DINCLUDES_FILE=<ptc_components_includes.txt> -DWORK_DIR=<dir>
#         -P readme_snippets.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var README CXX INCLUDES_FILE WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "readme_snippets.cmake: ${var} is not set")
  endif()
endforeach()

# ptc::<name>=<dir>|<dir>... per line, written by the build from the component declarations.
file(STRINGS "${INCLUDES_FILE}" target_lines)
foreach(line IN LISTS target_lines)
  string(REGEX MATCH "^(ptc::[a-z]+)=(.*)$" _ "${line}")
  string(REPLACE "|" ";" "dirs_${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}")
endforeach()

file(READ "${README}" text)
set(common_flags -std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(compiled 0)
set(index 0)
while(TRUE)
  string(FIND "${text}" "```cpp\n" open)
  if(open EQUAL -1)
    break()
  endif()
  math(EXPR start "${open} + 7")
  string(SUBSTRING "${text}" ${start} -1 text)
  string(FIND "${text}" "\n```" close)
  if(close EQUAL -1)
    message(FATAL_ERROR "README.md: a ```cpp block is not closed")
  endif()
  string(SUBSTRING "${text}" 0 ${close} block)
  string(SUBSTRING "${text}" ${close} -1 text)
  string(APPEND block "\n")
  math(EXPR index "${index} + 1")
  if(NOT block MATCHES "^(// target_link_libraries[^\n]*\n)?#include" OR block MATCHES "\\.ptc\\.hpp")
    continue()
  endif()
  if(NOT block MATCHES "^// target_link_libraries\\([^ ]+ PRIVATE (ptc::[a-z]+)\\)\n#include")
    message(FATAL_ERROR "README.md's C++ block ${index} is a whole program but does not open with "
                        "`// target_link_libraries(<app> PRIVATE ptc::<component>)`:\n${block}")
  endif()
  set(target "${CMAKE_MATCH_1}")
  if(NOT DEFINED "dirs_${target}")
    message(FATAL_ERROR "README.md's C++ block ${index} links ${target}, which is no ptc target")
  endif()
  set(flags ${common_flags})
  foreach(dir IN LISTS "dirs_${target}")
    list(APPEND flags "-I${dir}")
  endforeach()
  set(file "${WORK_DIR}/readme_${index}.cpp")
  file(WRITE "${file}" "${block}")
  execute_process(COMMAND "${CXX}" ${flags} "${file}" RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "README.md's C++ block ${index} does not compile warning-free against ${target}:\n"
                        "${block}\n${out}${err}")
  endif()
  math(EXPR compiled "${compiled} + 1")
endwhile()
# The README has whole programs; finding none means the extraction broke, not that all is well.
if(compiled LESS 2)
  message(FATAL_ERROR "found ${compiled} compilable C++ blocks in ${README}; expected at least 2")
endif()
message(STATUS "${compiled} README C++ blocks compile warning-free")
