#pragma once
// PTC_TOOL declarations of one header -> model::Tool. Internal to extract/.

#include <clang/AST/ASTContext.h>

#include "extract/clang_support.hpp"
#include "model/model.hpp"

namespace ptcgen::extract::detail {

/// Finds the PTC_TOOL functions spelled in the main file of `ast` and fills `header.tools`, `structs`,
/// `enums` and `classes`. Every problem is reported through `reporter`.
void collect_tools(clang::ASTContext& ast, Reporter& reporter, unsigned max_depth, model::HeaderModel& header);

}  // namespace ptcgen::extract::detail
