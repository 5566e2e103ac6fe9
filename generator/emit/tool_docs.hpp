#pragma once
// `<stem>.tools.json` and `<stem>.tools.md`: the runtime's own renderings of the header's tools, so the
// text seen at build time is byte for byte what the program renders at run time.

#include <string>
#include <vector>

#include "emit/emit.hpp"
#include "emit/plan.hpp"

namespace ptcgen::emit {

struct ToolDocs {
  std::string json;      ///< ptc::tools_document (portable), 2-space indent, final newline
  std::string markdown;  ///< ptc::render_tool_list
  std::vector<EmitError> errors;
  std::vector<EmitError> warnings;
};

ToolDocs tool_docs(const Plan& plan, const EmitOptions& options);

}  // namespace ptcgen::emit
