# Builds and tests a copy of the consumer project (tests/consumer) against this ptc build:
#   VIA=package       installs ptc from BUILD_DIR into a fresh prefix, then find_package(ptc)
#   VIA=components    the same, find_package(ptc COMPONENTS codec cli) on a machine where yaml-cpp and
#                     fmt cannot be found (CMAKE_DISABLE_FIND_PACKAGE_*): a program of generated tools
#                     needs neither
#   VIA=subdirectory  add_subdirectory(<ptc source>) from the consumer; with PTC_GEN, that ptc-gen is
#                     run instead of building one (PTC_GEN_EXECUTABLE)
# in the consumer's BUILD_TYPE (empty for CMake's default), whatever the build type ptc was installed
# with: a Debug program must decode as the Release library does. Then it runs the consumer's own tests
# (a prompt, a coerced call from the command line and over MCP, a rejected call, the drift check), and
# with INTEGRATION=ON checks the build integration: touching the tool header leaves the generated files
# alone, editing a header it includes regenerates them, the drift check's targets work without CTest.
# With IDE=ON (package only) it checks what clangd sees after building only <target>_ptc_gen.
cmake_minimum_required(VERSION 3.25)
foreach(var VIA SOURCE_DIR BUILD_DIR WORK_DIR CXX GENERATOR BUILD_TYPE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run.cmake: ${var} is not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "failed (${rc}): ${command}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${SOURCE_DIR}/tests/consumer/" DESTINATION "${WORK_DIR}/src" PATTERN "run.cmake" EXCLUDE)
# BUILD_TREE, when given, is where the consumer is built (default: WORK_DIR/build). ccache rewrites
# paths relative to the build directory, so a subdirectory build whose tree sits as deep as ptc's own
# build reuses the objects that build compiled with the same flags.
set(build "${WORK_DIR}/build")
if(BUILD_TREE)
  set(build "${BUILD_TREE}")
  file(REMOVE_RECURSE "${build}")
endif()
set(configure "${CMAKE_COMMAND}" -S "${WORK_DIR}/src" -B "${build}" -G "${GENERATOR}"
              -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
if(VIA STREQUAL "package")
  run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
  # The editor's task ships with ptc-gen (docs/ptc-gen.md, "In the IDE").
  if(NOT EXISTS "${WORK_DIR}/prefix/share/ptc/vscode/tasks.json")
    message(FATAL_ERROR "the install has no share/ptc/vscode/tasks.json")
  endif()
  run(${configure} -DPTC_CONSUMER_VIA=package "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
elseif(VIA STREQUAL "components")
  run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
  run(${configure} -DPTC_CONSUMER_VIA=package -DPTC_CONSUMER_COMPONENTS=codec,cli
      "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" -DCMAKE_DISABLE_FIND_PACKAGE_yaml-cpp=ON
      -DCMAKE_DISABLE_FIND_PACKAGE_fmt=ON)
else()
  # Warnings as errors as in the main build: same flags, so ccache serves the objects it built.
  set(generator_options)
  if(PTC_GEN)
    set(generator_options "-DPTC_GEN_EXECUTABLE=${PTC_GEN}")
  endif()
  run(${configure} -DPTC_CONSUMER_VIA=subdirectory "-DPTC_SOURCE_DIR=${SOURCE_DIR}" -DPTC_WARNINGS_AS_ERRORS=ON
      ${generator_options})
endif()
# What an IDE sees before the first build (IDE=ON, with CLANGD): in a fresh build tree, clangd finds
# the generated header missing; building weather_ptc_gen alone generates it, compiling nothing, and then
# clangd reports no error in the source that includes it.
if(IDE)
  if(NOT CLANGD)
    message(FATAL_ERROR "run.cmake: IDE=ON needs CLANGD (clangd-19; scripts/setup.sh installs it)")
  endif()
  set(ide "${WORK_DIR}/ide")
  list(TRANSFORM configure REPLACE "^${build}$" "${ide}")
  run(${configure} -DPTC_CONSUMER_VIA=package "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
  set(clangd_check "${CLANGD}" "--check=${WORK_DIR}/src/src/main.cpp" "--compile-commands-dir=${ide}")
  execute_process(COMMAND ${clangd_check} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "weather\\.ptc\\.hpp' file not found")
    message(FATAL_ERROR "clangd found nothing wrong before generation (${rc}), so this check could not fail:\n${err}")
  endif()
  run("${CMAKE_COMMAND}" --build "${ide}" --target weather_ptc_gen)
  if(NOT EXISTS "${ide}/ptc_gen/weather/weather.ptc.hpp")
    message(FATAL_ERROR "weather_ptc_gen did not generate weather.ptc.hpp")
  endif()
  file(GLOB_RECURSE objects "${ide}/*.o")
  if(objects)
    message(FATAL_ERROR "weather_ptc_gen compiled something: ${objects}")
  endif()
  execute_process(COMMAND ${clangd_check} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "clangd --check reports errors after weather_ptc_gen (${rc}):\n${err}")
  endif()
  list(TRANSFORM configure REPLACE "^${ide}$" "${build}")
endif()
run("${CMAKE_COMMAND}" --build "${build}" -j2)
run("${CMAKE_CTEST_COMMAND}" --test-dir "${build}" --output-on-failure)

# What each tool costs (TOKENS=ON, with NODE and TOKENS_NODE_DIR), with the rank files exported from the
# pinned gpt-tokenizer: weather_ptc_tokens prints the table and writes the JSON form, which must be the
# bytes the program's own `tokens --json` prints at run time, and every count in it gpt-tokenizer's. A
# budget every tool is over then warns at build time, fails the build with PTC_TOKEN_BUDGET_ERROR, and
# once removed leaves the build as it was.
if(TOKENS)
  set(ranks "${WORK_DIR}/ranks")
  run("${NODE}" "${TOKENS_NODE_DIR}/export_ranks.mjs" "${ranks}")
  run("${CMAKE_COMMAND}" "-DPTC_TOKENIZER_DATA=${ranks}" "${build}")
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target weather_ptc_tokens
                  RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT table MATCHES "Tokens per tool and rendering[^\n]*\ntool +prompt[^\n]*\nforecast +[0-9]+/[0-9]+ ")
    message(FATAL_ERROR "weather_ptc_tokens printed no table (${rc}):\n${table}${err}")
  endif()
  set(built "${build}/ptc_gen/weather.tokens.json")
  execute_process(COMMAND "${build}/weather" tokens --json --tokenizer-data "${ranks}"
                  OUTPUT_FILE "${WORK_DIR}/run.tokens.json" RESULT_VARIABLE rc)
  file(READ "${built}" built_report)
  file(READ "${WORK_DIR}/run.tokens.json" run_report)
  if(NOT rc EQUAL 0 OR NOT built_report STREQUAL run_report)
    message(FATAL_ERROR "the build's token report differs from `weather tokens --json` (${rc}):\n${built_report}\n"
                        "---\n${run_report}")
  endif()
  run("${NODE}" "${TOKENS_NODE_DIR}/check_report.mjs" "${built}")
  run("${CMAKE_COMMAND}" -DPTC_TOKEN_BUDGET=1 "${build}")
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT "${out}${err}" MATCHES "weather\\.hpp:[0-9]+:[0-9]+: warning: tool 'forecast' costs [0-9]+ o200k_base tokens")
    message(FATAL_ERROR "a budget of 1 token did not warn at forecast (${rc}):\n${out}${err}")
  endif()
  run("${CMAKE_COMMAND}" -DPTC_TOKEN_BUDGET_ERROR=ON "${build}")
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "error: tool 'forecast' costs")
    message(FATAL_ERROR "PTC_TOKEN_BUDGET_ERROR did not fail the build (${rc}):\n${out}${err}")
  endif()
  run("${CMAKE_COMMAND}" -UPTC_TOKEN_BUDGET -DPTC_TOKEN_BUDGET_ERROR=OFF "${build}")
  run("${CMAKE_COMMAND}" --build "${build}")
endif()

if(NOT INTEGRATION)
  return()
endif()

# Touching the tool header re-runs ptc-gen (and recompiles what includes the header, as any edit
# does), but the generated files keep their bytes and their times, and the build then settles: a
# second build has nothing to do, so ptc-gen does not run on every build.
set(generated "${build}/ptc_gen/weather/weather.ptc.cpp")
file(TIMESTAMP "${generated}" generated_before "%s")
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(TOUCH "${WORK_DIR}/src/include/weather.hpp")
run("${CMAKE_COMMAND}" --build "${build}" -j2)
file(TIMESTAMP "${generated}" generated_after "%s")
if(NOT generated_before STREQUAL generated_after)
  message(FATAL_ERROR "touching weather.hpp rewrote ${generated}")
endif()
if(GENERATOR STREQUAL "Ninja")
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" OUTPUT_VARIABLE second RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT second MATCHES "no work to do")
    message(FATAL_ERROR "the build after an unchanged regeneration was not a no-op:\n${second}")
  endif()
endif()

# The drift check without CTest (the weather_ptc_check target), the command its failure suggests, and
# the target that writes the committed files: after it the check passes again.
run("${CMAKE_COMMAND}" --build "${build}" --target weather_ptc_check)
file(APPEND "${WORK_DIR}/src/expected/weather.tools.md" "drift\n")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target weather_ptc_check RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "run:\n  cmake --build [^\n]* --target weather_ptc_update\n")
  message(FATAL_ERROR "weather_ptc_check did not fail on drift suggesting weather_ptc_update (${rc}):\n${out}${err}")
endif()
run("${CMAKE_COMMAND}" --build "${build}" --target weather_ptc_update)
run("${CMAKE_COMMAND}" --build "${build}" --target weather_ptc_check)

# Editing a header that weather.hpp includes (known to the build only through ptc-gen's depfile)
# regenerates: the new enumerator shows up in the prompt text.
file(READ "${WORK_DIR}/src/include/weather_types.hpp" types)
string(REPLACE "rain }" "rain, snow }" types "${types}")
file(WRITE "${WORK_DIR}/src/include/weather_types.hpp" "${types}")
run("${CMAKE_COMMAND}" --build "${build}" -j2)
file(READ "${build}/ptc_gen/weather/weather.tools.md" tools_md)
if(NOT tools_md MATCHES "snow")
  message(FATAL_ERROR "editing weather_types.hpp did not regenerate weather.tools.md:\n${tools_md}")
endif()
