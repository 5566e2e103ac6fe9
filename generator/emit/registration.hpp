#pragma once
// The generated registration code: per tool a signature (built once from Malli text) and a factory
// pairing it with an invoker that calls the C++ function, and for a resource's reader or a prompt's
// renderer a factory of the resource or prompt around it; per tool set (the free functions, each class
// with member tools) the bodies of tools(), resources() and prompts().

#include <string>
#include <vector>

#include "emit/plan.hpp"
#include "model/model.hpp"

namespace ptcgen::emit {

/// For namespace ptc_gen::<stem>::detail, after the codec traits.
std::string tool_factories(const Plan& plan);

/// The free functions' tools(), or one class's tools(instance).
struct ToolSet {
  std::string class_cpp;            ///< "::shop::Tracker"; empty for the free functions
  std::string parameter;            ///< of tools(): "" or "::shop::Tracker& instance"
  std::string register_parameters;  ///< of register_tools()
  std::string argument;             ///< what register_tools() passes to tools()
  std::string body;                 ///< tools()'s statements, indented one level
  std::string resources;            ///< resources()'s statements; empty: the set has no resources
  std::string prompts;              ///< prompts()'s statements; empty: the set has no prompts
};

/// The free functions first, then each class of HeaderModel::classes.
std::vector<ToolSet> tool_sets(const model::HeaderModel& header, const Plan& plan);

}  // namespace ptcgen::emit
