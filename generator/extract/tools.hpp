#pragma once
// PTC_TOOL declarations of one header -> model::Tool. Internal to extract/.

#include <set>
#include <string>

#include <clang/AST/ASTContext.h>

#include "extract/clang_support.hpp"
#include "model/model.hpp"

namespace ptcgen::extract::detail {

/// Finds the PTC_TOOL functions and PTC_ANSWER types spelled in the main file of `ast` and fills
/// `header.tools`, `answers`, `structs`, `enums` and `classes`. Every problem is reported through
/// `reporter`. A PTC_TOOL or PTC_ANSWER in an included (non-system) header that is not among `listed`
/// (real paths of the headers of this run) is a warning: it would otherwise be silently not generated.
void collect_tools(clang::ASTContext& ast, Reporter& reporter, unsigned max_depth, model::HeaderModel& header,
                   const std::set<std::string>& listed);

}  // namespace ptcgen::extract::detail
