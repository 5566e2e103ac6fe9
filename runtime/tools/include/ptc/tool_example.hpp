#pragma once
// ptc::ToolExample — a worked call shown to the model under a tool's entry in the prompt.

#include <string>

#include <nlohmann/json.hpp>

namespace ptc {

/// Checked against the tool's signature (strictly: no coercion, no extra fields) when the tool is built.
struct ToolExample {
  std::string description;  ///< at most 200 ASCII characters
  nlohmann::json input;     ///< tool arguments: an object keyed by parameter name
  nlohmann::json output;    ///< the result value
};

}  // namespace ptc
