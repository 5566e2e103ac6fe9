#pragma once
// PTC_SIGNATURE against the signature the C++ declaration gives (internal to model/).

#include <string>
#include <vector>

#include <ptc/signature.hpp>

#include "model/model.hpp"

namespace ptcgen::model {

struct Reconciled {
  std::vector<std::string> errors;
  /// Without errors: parameter names and refinements from PTC_SIGNATURE; optionality, docs and
  /// defaults from the declaration.
  ptc::Signature signature;
};

/// Precondition: tool.explicit_signature is set; `derived` is derived_signature(tool).
Reconciled reconcile_explicit_signature(const Tool& tool, const ptc::Signature& derived);

}  // namespace ptcgen::model
