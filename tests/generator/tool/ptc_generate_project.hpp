#pragma once
// The CMakeLists.txt of a small project that calls ptc_generate with the ptc-gen under test, for the
// tests of the build integration (the failing step, the watch target, SARIF from the build). Needs
// PTC_GEN and PTC_GENERATE_CMAKE, which tests/generator/tool/CMakeLists.txt defines.

#include <string>

namespace ptcgen::test {

/// An OBJECT library `app` in a project that imports ptc::ptc-gen from PTC_GEN and includes
/// PtcGenerate.cmake, followed by `body` (the ptc_generate call and whatever it needs).
inline std::string ptc_generate_project(const std::string& body) {
  return std::string(R"(cmake_minimum_required(VERSION 3.25)
project(p LANGUAGES CXX)
add_executable(ptc::ptc-gen IMPORTED)
set_target_properties(ptc::ptc-gen PROPERTIES IMPORTED_LOCATION ")") +
         PTC_GEN + R"(")
add_library(ptc::runtime INTERFACE IMPORTED)
include(")" +
         PTC_GENERATE_CMAKE + R"(")
add_library(app OBJECT)
)" + body;
}

}  // namespace ptcgen::test
