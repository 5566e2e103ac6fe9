# ptc_generate(TARGET <target> HEADERS <header>... [OUT_DIR <dir>] [CHECK_DIR <dir>] [MAX_DEPTH <n>]
#              [SERVER_NAME <name>] [SERVER_VERSION <version>])
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
# With CHECK_DIR and testing enabled (enable_testing() or include(CTest) before ptc_generate), the check
# is also the CTest test `ptc_check.<target>`.
# The generated register_tools() offers the registry a server name and version, which ptc::cli::run's
# `mcp` and ptc::mcp::Server use when the program sets none: SERVER_NAME and SERVER_VERSION, by default
# the PROJECT_NAME and PROJECT_VERSION where ptc_generate is called. They are compile definitions of the
# generated sources only, so the generated files stay the same whatever the project's version.

function(ptc_generate)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;OUT_DIR;CHECK_DIR;MAX_DEPTH;SERVER_NAME;SERVER_VERSION"
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
    COMMAND ptc::ptc-gen ${writes}
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
                    COMMAND ptc::ptc-gen --watch ${writes}
                    COMMAND_EXPAND_LISTS USES_TERMINAL VERBATIM)
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
    set(check ptc::ptc-gen --check "${check_dir}" "--update-command=${update}" ${inputs})
    add_custom_target(${tgt}_ptc_check COMMAND ${check} COMMENT "ptc-gen --check ${tgt}" COMMAND_EXPAND_LISTS VERBATIM)
    add_custom_target(${tgt}_ptc_update
                      COMMAND ptc::ptc-gen --out-dir "${check_dir}" ${inputs}
                      COMMENT "ptc-gen ${tgt} into ${check_dir}" COMMAND_EXPAND_LISTS VERBATIM)
    # add_test does nothing where testing is not enabled; the targets above work either way.
    add_test(NAME ptc_check.${tgt} COMMAND ${check} COMMAND_EXPAND_LISTS)
  endif()
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
