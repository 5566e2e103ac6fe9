#pragma once
// Clang AST -> model. The only part of ptc-gen that includes clang headers (in its .cpp files).

#include <string>
#include <vector>

#include "model/model.hpp"

namespace ptcgen::extract {

struct Options {
  /// How deep structs expand inside a tool's types before they become `:map` (the spec's limit: 3).
  unsigned max_depth = 3;
};

}  // namespace ptcgen::extract
