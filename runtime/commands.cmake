# Markdown commands, settings, permissions and the signal bus (docs/commands.md). Included by
# runtime/CMakeLists.txt right after ptc_runtime is declared. yaml-cpp reads command frontmatter; it
# stays private, so installed consumers only need it found (cmake/ptcConfig.cmake.in).
find_package(yaml-cpp REQUIRED)
if(TARGET yaml-cpp::yaml-cpp)
  set(PTC_YAML_CPP yaml-cpp::yaml-cpp)
else()
  set(PTC_YAML_CPP yaml-cpp)  # yaml-cpp 0.7 (Debian 12) exports the target without a namespace
endif()

target_sources(ptc_runtime PRIVATE
  src/commands/json_keys.cpp
  src/commands/yaml_json.cpp
  src/commands/signal.cpp
  src/commands/signal_bus.cpp
  src/commands/command_settings.cpp
  src/commands/command_schema.cpp
  src/commands/command_file.cpp
  src/commands/command_permissions.cpp
  src/commands/command_policy.cpp
  src/commands/command_executor.cpp
  src/commands/command_run.cpp
  src/commands/command_registry.cpp
  src/commands/command_dispatcher.cpp
  src/commands/api_options.cpp
  src/commands/commands.cpp
)
target_link_libraries(ptc_runtime PRIVATE ${PTC_YAML_CPP})
