# ptc_generate(TARGET <target> HEADERS <header>... [OUT_DIR <dir>] [CHECK_DIR <dir>] [MAX_DEPTH <n>]
#              [SERVER_NAME <name>] [SERVER_VERSION <version>] [TOKEN_BUDGET <n>] [TOKEN_BUDGET_ERROR]
#              [SARIF_FILE <file>])
#
# Runs ptc-gen on the headers at build time and adds the generated sources to <target>:
#   <OUT_DIR>/<stem>.ptc.hpp   ptc_gen::<stem>::register_tools(...)   (#include "<stem>.ptc.hpp")
#   <OUT_DIR>/<stem>.ptc.cpp   decoders, encoders, registration      (compiled into <target>)
#   <OUT_DIR>/<stem>.tools.json, <stem>.tools.md                     (the schemas and prompt text)
# OUT_DIR defaults to ${CMAKE_CURRENT_BINARY_DIR}/ptc_gen/<target>, and is on <target>'s include path
# (so compile_commands.json carries it). ptc-gen sees <target>'s include directories and compile
# definitions (its own and those of what it links, as the compiler does), a depfile makes editing any
# header it read run it again, and outputs are rewritten only when their bytes change. The step is
# named `ptc-gen <target>` in the build's output and, with Ninja, runs in the terminal pool, so
# ptc-gen's diagnostics come first when it fails (one at a time).
# Targets:
#   <target>_ptc_gen      generates without compiling anything: what an IDE needs before the first build
#   <target>_ptc_watch    runs ptc-gen --watch on the same headers and outputs, until interrupted
#   <target>_ptc_check    (CHECK_DIR) fails, printing a unified diff, when the files committed in <dir>
#                         differ from what ptc-gen generates now: a drift check for CI
#   <target>_ptc_update   (CHECK_DIR) writes those files into <dir>: how they are created and refreshed
#   <target>_ptc_tokens   prints what each tool costs in tokens, per rendering (ptc-gen --token-report),
#                         and writes the JSON form to ${CMAKE_CURRENT_BINARY_DIR}/ptc_gen/<target>.tokens.json
# Tokens are counted with OpenAI's rank files, read from the directory PTC_TOKENIZER_DATA names (a cache
# variable, by default the environment variable of that name; docs/tokens.md). TOKEN_BUDGET, or the
# variable PTC_TOKEN_BUDGET for every ptc_generate that does not give one, makes the build step and the
# check warn (ptc/token-budget) about each tool whose largest rendering costs more o200k_base tokens;
# TOKEN_BUDGET_ERROR, or PTC_TOKEN_BUDGET_ERROR, makes that an error.
# SARIF_FILE, or the variable PTC_SARIF_DIR (then <dir>/<target>.sarif), makes the build step, the watch
# and the check write their diagnostics there as SARIF 2.1.0 for code scanning (docs/ptc-gen.md,
# "Diagnostics for CI"), categorised by <target>, with URIs relative to PTC_SARIF_SOURCE_ROOT (by default
# CMAKE_SOURCE_DIR, the checkout's root when ptc_generate is called from a subproject). Every run rewrites
# it, the check's last, so it holds the drift too.
# With CHECK_DIR and testing enabled (enable_testing() or include(CTest) before ptc_generate), the check
# is also the CTest test `ptc_check.<target>`.
# The generated register_tools() offers the registry a server name and version, which ptc::cli::run's
# `mcp` and ptc::mcp::Server use when the program sets none: SERVER_NAME and SERVER_VERSION, by default
# the PROJECT_NAME and PROJECT_VERSION where ptc_generate is called. They are compile definitions of the
# generated sources only, so the generated files stay the same whatever the project's version.

set(PTC_TOKENIZER_DATA "$ENV{PTC_TOKENIZER_DATA}"
    CACHE PATH "The directory of OpenAI's o200k_base.tiktoken and cl100k_base.tiktoken, for ptc-gen's token counts")

function(ptc_generate)
  cmake_parse_arguments(PARSE_ARGV 0 arg "TOKEN_BUDGET_ERROR"
                        "TARGET;OUT_DIR;CHECK_DIR;MAX_DEPTH;SERVER_NAME;SERVER_VERSION;TOKEN_BUDGET;SARIF_FILE"
                        "HEADERS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ptc_generate: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT TARGET "${arg_TARGET}")
    message(FATAL_ERROR "ptc_generate: TARGET must name an existing target (got '${arg_TARGET}')")
  endif()
  if(NOT arg_HEADERS)
    message(FATAL_ERROR "ptc_generate: HEADERS is empty")
  endif()
  if(NOT TARGET ptc::ptc-gen)
    message(FATAL_ERROR "ptc_generate: ptc-gen is not available; build ptc with -DPTC_BUILD_GENERATOR=ON "
                        "(or install a ptc that includes it)")
  endif()
  set(out_dir "${arg_OUT_DIR}")
  if(NOT out_dir)
    set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/ptc_gen/${arg_TARGET}")
  endif()
  cmake_path(ABSOLUTE_PATH out_dir BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE)
  file(MAKE_DIRECTORY "${out_dir}")

  # The target's flags, evaluated at generate time; TARGET_PROPERTY on build properties includes what
  # linked targets contribute (the ptc components' include directories among them).
  set(tgt "${arg_TARGET}")
  # /usr/include comes along from imported targets; as an -I it would go before libstdc++'s own
  # directories and break its #include_next, so it is left to the compiler's implicit search path.
  set(includes "$<FILTER:$<TARGET_PROPERTY:${tgt},INCLUDE_DIRECTORIES>,EXCLUDE,^/usr(/local)?/include/?$>")
  set(defines "$<TARGET_PROPERTY:${tgt},COMPILE_DEFINITIONS>")
  set(flags
    "-std=c++$<IF:$<BOOL:$<TARGET_PROPERTY:${tgt},CXX_STANDARD>>,$<TARGET_PROPERTY:${tgt},CXX_STANDARD>,20>"
    # $<SEMICOLON>, not ';': a literal one would split this list before the expression is evaluated.
    "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
    "$<$<BOOL:${defines}>:-D$<JOIN:${defines},$<SEMICOLON>-D>>")
  set(options)
  if(arg_MAX_DEPTH)
    list(APPEND options "--max-depth=${arg_MAX_DEPTH}")
  endif()

  _ptc_token_options(tokenizer budget)
  _ptc_sarif_options(sarif)

  set(headers)
  set(outputs)
  set(sources)
  foreach(header IN LISTS arg_HEADERS)
    cmake_path(ABSOLUTE_PATH header BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    cmake_path(GET header STEM LAST_ONLY stem)
    string(MAKE_C_IDENTIFIER "${stem}" stem)
    list(APPEND headers "${header}")
    list(APPEND outputs "${out_dir}/${stem}.ptc.hpp" "${out_dir}/${stem}.ptc.cpp"
                        "${out_dir}/${stem}.tools.json" "${out_dir}/${stem}.tools.md")
    list(APPEND sources "${out_dir}/${stem}.ptc.cpp")
  endforeach()

  set(depfile "${CMAKE_CURRENT_BINARY_DIR}/ptc_gen/${tgt}.d")
  # What every ptc-gen run of this target reads, after its own mode's options.
  set(inputs ${options} ${headers} -- ${flags})
  # Writing into the build's output directory: the build step and the watch.
  set(writes --out-dir "${out_dir}" --depfile "${depfile}" ${inputs})
  file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/ptc_gen")
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ptc::ptc-gen ${budget} ${sarif} ${writes}
    DEPENDS ${headers} ptc::ptc-gen
    DEPFILE "${depfile}"
    COMMAND_EXPAND_LISTS
    # With Ninja, a failed step prints `FAILED:` with every output (twice: CMake adds absolute aliases)
    # and the whole command line before what the step printed. In the terminal pool ptc-gen writes
    # straight to the terminal, so its first diagnostic follows this short line instead.
    COMMENT "ptc-gen ${tgt}"
    USES_TERMINAL
    VERBATIM)
  add_custom_target(${tgt}_ptc_gen DEPENDS ${outputs})
  # ptc-gen --watch with the build's own flags and outputs, in the terminal: regenerates on every save
  # until interrupted (an editor's background task; share/ptc/vscode/tasks.json runs it).
  add_custom_target(${tgt}_ptc_watch
                    COMMAND ptc::ptc-gen --watch ${sarif} ${writes}
                    COMMAND_EXPAND_LISTS USES_TERMINAL VERBATIM)
  # The table on the terminal, and the JSON form (each rendering's text with its counts) beside the depfile.
  add_custom_target(${tgt}_ptc_tokens
                    COMMAND ptc::ptc-gen --token-report "--token-report=${CMAKE_CURRENT_BINARY_DIR}/ptc_gen/${tgt}.tokens.json"
                            ${tokenizer} ${writes}
                    COMMENT "ptc-gen --token-report ${tgt}" COMMAND_EXPAND_LISTS USES_TERMINAL VERBATIM)
  target_sources(${tgt} PRIVATE ${sources})
  _ptc_server_identity(${tgt} "${sources}" "${arg_SERVER_NAME}" "${arg_SERVER_VERSION}")
  target_include_directories(${tgt} PUBLIC "$<BUILD_INTERFACE:${out_dir}>")
  # Generated code needs ptc::codec (it brings ptc::tools and ptc::core). Where the ptc::runtime umbrella
  # exists (add_subdirectory, or find_package without COMPONENTS) it is linked as it always was, so a
  # program that relied on it for ptc::cli::run or commands keeps building; find_package(ptc COMPONENTS
  # codec ...) gives only the components asked for.
  if(TARGET ptc::runtime)
    target_link_libraries(${tgt} PUBLIC ptc::runtime)
  else()
    target_link_libraries(${tgt} PUBLIC ptc::codec)
  endif()

  if(arg_CHECK_DIR)
    set(check_dir "${arg_CHECK_DIR}")
    cmake_path(ABSOLUTE_PATH check_dir BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    # What a failed check suggests: the target that writes the files, in this build tree.
    set(update "cmake --build ${CMAKE_BINARY_DIR} --target ${tgt}_ptc_update")
    set(check ptc::ptc-gen --check "${check_dir}" "--update-command=${update}" ${budget} ${sarif} ${inputs})
    add_custom_target(${tgt}_ptc_check COMMAND ${check} COMMENT "ptc-gen --check ${tgt}" COMMAND_EXPAND_LISTS VERBATIM)
    add_custom_target(${tgt}_ptc_update
                      COMMAND ptc::ptc-gen --out-dir "${check_dir}" ${inputs}
                      COMMENT "ptc-gen ${tgt} into ${check_dir}" COMMAND_EXPAND_LISTS VERBATIM)
    # add_test does nothing where testing is not enabled; the targets above work either way.
    add_test(NAME ptc_check.${tgt} COMMAND ${check} COMMAND_EXPAND_LISTS)
  endif()
endfunction()

# Sets <tokenizer_var> to ptc-gen's --tokenizer-data option (empty without PTC_TOKENIZER_DATA) and
# <budget_var> to its budget options: TOKEN_BUDGET's, else PTC_TOKEN_BUDGET's, with the tokenizer option.
# Reads the caller's arg_TOKEN_BUDGET and arg_TOKEN_BUDGET_ERROR.
function(_ptc_token_options tokenizer_var budget_var)
  set(budget "${arg_TOKEN_BUDGET}")
  if(budget STREQUAL "" AND DEFINED PTC_TOKEN_BUDGET)
    set(budget "${PTC_TOKEN_BUDGET}")
  endif()
  if(NOT budget STREQUAL "" AND NOT budget MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "ptc_generate: TOKEN_BUDGET must be a positive number of tokens (got '${budget}')")
  endif()
  set(tokenizer)
  if(PTC_TOKENIZER_DATA)
    set(tokenizer "--tokenizer-data=${PTC_TOKENIZER_DATA}")
  endif()
  set(options)
  if(NOT budget STREQUAL "")
    if(NOT PTC_TOKENIZER_DATA)
      message(FATAL_ERROR "ptc_generate: a token budget needs OpenAI's rank files; set PTC_TOKENIZER_DATA to "
                          "the directory holding o200k_base.tiktoken and cl100k_base.tiktoken (docs/tokens.md)")
    endif()
    list(APPEND options "--token-budget=${budget}" ${tokenizer})
    if(arg_TOKEN_BUDGET_ERROR OR PTC_TOKEN_BUDGET_ERROR)
      list(APPEND options --token-budget-error)
    endif()
  endif()
  set(${tokenizer_var} ${tokenizer} PARENT_SCOPE)
  set(${budget_var} ${options} PARENT_SCOPE)
endfunction()

# Sets <var> to ptc-gen's options for a SARIF file: SARIF_FILE's, else <PTC_SARIF_DIR>/<target>.sarif, else
# none. Reads the caller's arg_SARIF_FILE and tgt.
function(_ptc_sarif_options var)
  set(file "${arg_SARIF_FILE}")
  if(file STREQUAL "" AND PTC_SARIF_DIR)
    set(file "${PTC_SARIF_DIR}/${tgt}.sarif")
  endif()
  set(options)
  if(NOT file STREQUAL "")
    cmake_path(ABSOLUTE_PATH file BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE)
    cmake_path(GET file PARENT_PATH dir)
    file(MAKE_DIRECTORY "${dir}")
    set(root "${PTC_SARIF_SOURCE_ROOT}")
    if(root STREQUAL "")
      set(root "${CMAKE_SOURCE_DIR}")
    endif()
    set(options --diagnostics-format=sarif "--diagnostics-file=${file}" "--diagnostics-category=${tgt}"
                "--source-root=${root}")
  endif()
  set(${var} ${options} PARENT_SCOPE)
endfunction()

# Defines PTC_GEN_SERVER_NAME and PTC_GEN_SERVER_VERSION, as C string literals, for the generated sources
# of <tgt>: the given name and version, else the project's. In <tgt>'s directory, where it is compiled.
function(_ptc_server_identity tgt sources name version)
  if(name STREQUAL "")
    set(name "${PROJECT_NAME}")
  endif()
  if(version STREQUAL "")
    set(version "${PROJECT_VERSION}")
  endif()
  set(definitions)
  foreach(field IN ITEMS NAME VERSION)
    string(TOLOWER "${field}" var)
    set(value "${${var}}")
    string(REPLACE "\\" "\\\\" value "${value}")
    string(REPLACE "\"" "\\\"" value "${value}")
    list(APPEND definitions "PTC_GEN_SERVER_${field}=\"${value}\"")
  endforeach()
  set_property(SOURCE ${sources} TARGET_DIRECTORY ${tgt} APPEND PROPERTY COMPILE_DEFINITIONS ${definitions})
endfunction()
