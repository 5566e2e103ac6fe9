#pragma once
// What is written on a parameter or field besides its type: PTC_DOC / PTC_RANGE / PTC_PATTERN /
// PTC_FIREWALL / PTC_NAME (fields only), and a parameter's default argument. Internal to extract/.

#include <optional>
#include <string>

#include <clang/AST/Decl.h>

#include "extract/clang_support.hpp"
#include "model/model.hpp"

namespace ptcgen::extract::detail {

struct ValueAnnotations {
  std::optional<std::string> doc;   ///< PTC_DOC, whitespace collapsed
  std::optional<std::string> name;  ///< PTC_NAME on a field: its JSON name
  model::Constraints constraints;
  bool firewall = false;
  bool ok = true;  ///< false when a problem was reported
};

/// Reads the PTC_* annotations of a parameter or field of (mapped) type `type`, checking that each
/// fits it. `where` names it in messages: "parameter 'limit' of tool 'search'".
ValueAnnotations value_annotations(const clang::DeclaratorDecl* decl, const model::Type& type, const std::string& where,
                                   bool is_field, Reporter& reporter);

struct DefaultArgument {
  std::optional<model::Default> value;  ///< none when the parameter has no default
  bool ok = true;                       ///< false when a problem was reported
};

/// The parameter's default argument as a literal usable from any scope, or a reported error when it is
/// not one.
DefaultArgument default_argument(const clang::ParmVarDecl* param, const model::Type& type, const std::string& where,
                                 Reporter& reporter);

}  // namespace ptcgen::extract::detail
