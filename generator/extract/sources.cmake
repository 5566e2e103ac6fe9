# ptcgen_extract: the clang front end (AST -> model). Included from generator/CMakeLists.txt, so
# CMAKE_CURRENT_{SOURCE,BINARY}_DIR are generator/'s.

# find_package(Clang 19 CONFIG) rejects 19.1.7 (ClangConfigVersion.cmake wants an exact match), so look
# in LLVM 19's own directory. Clang_DIR, when set, still wins.
find_package(Clang REQUIRED CONFIG PATHS /usr/lib/llvm-19/lib/cmake/clang NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "ptc-gen is written against LLVM/Clang 19; found ${LLVM_PACKAGE_VERSION} in ${Clang_DIR}")
endif()

# The builtin headers (<stddef.h>, intrinsics) ptc-gen's clang needs: libclang-cpp does not find them
# next to ptc-gen, so the resource dir is baked in at configure time. --resource-dir overrides it per run.
if(NOT PTC_CLANG_RESOURCE_DIR)
  find_program(PTC_CLANG_EXECUTABLE NAMES clang-${LLVM_VERSION_MAJOR} clang
               HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
  set(resource_dir "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}")
  if(PTC_CLANG_EXECUTABLE)
    execute_process(COMMAND ${PTC_CLANG_EXECUTABLE} -print-resource-dir
                    OUTPUT_VARIABLE printed OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND printed)
      set(resource_dir "${printed}")
    endif()
  endif()
  set(PTC_CLANG_RESOURCE_DIR "${resource_dir}" CACHE PATH
      "Clang resource dir ptc-gen parses with (its builtin headers); ptc-gen --resource-dir overrides it")
endif()
if(NOT EXISTS "${PTC_CLANG_RESOURCE_DIR}/include/stddef.h")
  message(FATAL_ERROR "PTC_CLANG_RESOURCE_DIR=${PTC_CLANG_RESOURCE_DIR} has no include/stddef.h")
endif()

# LLVM's own compile flags for code that includes its headers: its definitions, and its RTTI and
# exception settings (a mismatched -frtti leaves LLVM's typeinfo symbols undefined).
separate_arguments(PTC_LLVM_DEFINITIONS UNIX_COMMAND "${LLVM_DEFINITIONS}")
set(PTC_LLVM_FLAGS)
# g++ 12 at -O2 reports -Wnonnull inside LLVM's own inline code (ExternalASTSource.h's LazyOffsetPtr),
# attributed to our files that inline it; it is a false positive in LLVM's headers, not in our code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  list(APPEND PTC_LLVM_FLAGS -Wno-nonnull)
endif()
if(NOT LLVM_ENABLE_RTTI)
  list(APPEND PTC_LLVM_FLAGS -fno-rtti)
endif()
if(NOT LLVM_ENABLE_EH)
  list(APPEND PTC_LLVM_FLAGS -fno-exceptions)
endif()

# Files that include clang headers get LLVM's flags; checks.cpp calls into ptc::runtime, which reports
# errors by exception, so it keeps the project's flags (it includes no clang header).
set(PTCGEN_EXTRACT_CLANG_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/extract/extract.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/extract/support.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/extract/tools.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/extract/types.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/extract/values.cpp
)
set(PTCGEN_EXTRACT_SOURCES
  ${PTCGEN_EXTRACT_CLANG_SOURCES}
  ${CMAKE_CURRENT_SOURCE_DIR}/extract/checks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/extract/doc_comment.cpp
)
set_source_files_properties(${PTCGEN_EXTRACT_CLANG_SOURCES} PROPERTIES COMPILE_OPTIONS "${PTC_LLVM_FLAGS}")
