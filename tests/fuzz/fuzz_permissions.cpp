// Fuzzes the permission decision on shell command lines. Oracles: whatever precedes it, a line ending in
// a newline and a denied command is never allowed; a rule set without allows never allows.
#include <cstddef>
#include <cstdint>
#include <string>

#include <ptc/command_permissions.hpp>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string line(ptc_fuzz::as_text(data, size));
  const ptc::Permissions rules{{"Bash(ls:*)", "Bash(echo *)", "Bash(git status)"}, {"Bash(rm:*)"}, {}};
  const auto plain = ptc::decide_permission(rules, "Bash(" + line + ")");
  if (plain.effect == ptc::PermissionEffect::Allow &&
      ptc::decide_permission({{}, rules.deny, {}}, "Bash(" + line + ")").effect == ptc::PermissionEffect::Allow)
    ptc_fuzz::oracle_failure("allowed without any allow rule", "line", line);
  const std::string chained = line + "\n;rm -rf /";
  if (ptc::decide_permission(rules, "Bash(" + chained + ")").effect == ptc::PermissionEffect::Allow)
    ptc_fuzz::oracle_failure("a denied command after a newline was allowed", "line", chained);
  return 0;
}
