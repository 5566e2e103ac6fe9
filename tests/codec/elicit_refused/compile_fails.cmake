# One case of elicit_refused/: compiling CASE must fail, and the compiler's output must hold the text of
# the case's `// expect: ` line (the static_assert that refuses it, not some other error).
# -DCXX=compiler -DCASE=file.cpp -DINCLUDES=dir|dir|...
file(STRINGS "${CASE}" expect_line REGEX "^// expect: ")
if(NOT expect_line)
  message(FATAL_ERROR "${CASE} has no '// expect: ' line")
endif()
string(REGEX REPLACE "^// expect: " "" expected "${expect_line}")
string(REPLACE "|" ";" include_dirs "${INCLUDES}")
set(include_flags "")
foreach(dir IN LISTS include_dirs)
  list(APPEND include_flags "-I${dir}")
endforeach()
execute_process(COMMAND "${CXX}" -std=c++20 -fsyntax-only ${include_flags} "${CASE}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0)
  message(FATAL_ERROR "${CASE} compiled, but elicit<T> must refuse its T at compile time")
endif()
string(FIND "${out}${err}" "${expected}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${CASE} failed to compile, but not with \"${expected}\":\n${out}${err}")
endif()
