#include <ptc/command_policy.hpp>

#include <algorithm>
#include <string_view>

#include <ptc/tool.hpp>

namespace ptc {

namespace {

bool declares(const Tool& tool, std::string_view key) {
  const auto& params = tool.signature().params();
  return std::any_of(params.begin(), params.end(), [&](const MapEntry& p) { return p.name == key; });
}

}  // namespace

std::string describe_tool_use(const Tool& tool, const nlohmann::json& params) {
  if (params.is_object())
    for (const char* key : {"command", "file_path", "path", "url", "pattern"}) {
      // Only a parameter the tool declares: an extra argument must not choose what the rules see.
      if (!declares(tool, key)) continue;
      auto it = params.find(key);
      if (it != params.end() && it->is_string()) return tool.name() + "(" + it->get<std::string>() + ")";
    }
  return tool.name();
}

PolicyDecision CommandPermissionPolicy::check(const Tool& tool, const nlohmann::json& params, ToolContext&) const {
  std::string use = options_.describe ? options_.describe(tool, params) : describe_tool_use(tool, params);
  auto decision = decide_permission(permissions_, use);
  switch (decision.effect) {
    case PermissionEffect::Allow: return PolicyDecision::allow();
    case PermissionEffect::Deny:
      return PolicyDecision::deny("Tool use '" + use + "' is denied by permission rule '" + decision.rule + "'.");
    case PermissionEffect::Ask: break;
  }
  if (options_.ask) {
    if (options_.ask(use, decision)) return PolicyDecision::allow();
    return PolicyDecision::deny("Tool use '" + use + "' was not approved.");
  }
  if (!decision.reason.empty())
    return PolicyDecision::deny("Tool use '" + use + "' needs approval: " + decision.reason + ".");
  if (decision.rule.empty())
    return PolicyDecision::deny("Tool use '" + use + "' matches no permission rule and needs approval.");
  return PolicyDecision::deny("Tool use '" + use + "' needs approval (permission rule '" + decision.rule + "').");
}

}  // namespace ptc
