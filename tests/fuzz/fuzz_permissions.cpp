// Fuzzes the permission decision on shell command lines. Oracles:
// - a rule set without allows never allows;
// - a denied command after a newline is never allowed, whatever precedes it (unless what precedes it
//   opened a here-document, whose body the newline then starts: the command is data there);
// - a line that is denied stays not allowed in every shape that runs it: after `&&`, in `{ }`, `( )`, an
//   if body, a substitution, a `sh -c` script, behind `time`, `!`, `sudo` or an assignment.
#include <cstddef>
#include <cstdint>
#include <string>

#include <ptc/command_permissions.hpp>

#include "fuzz_common.hpp"

namespace {

const ptc::Permissions kRules{
    {"Bash(ls:*)", "Bash(echo *)", "Bash(git status)", "Bash(cd:*)", "Bash(true)"}, {"Bash(rm:*)"}, {}};

ptc::PermissionEffect decide(const std::string& line) {
  return ptc::decide_permission(kRules, "Bash(" + line + ")").effect;
}

std::string single_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void check_shapes(const std::string& line) {
  const std::string shaped[] = {"cd x && " + line + "\n",
                                "{ " + line + "\n}",
                                "( " + line + "\n)",
                                "if true; then " + line + "\nfi",
                                "echo $( " + line + "\n)",
                                "bash -c " + single_quoted(line),
                                "time " + line,
                                "! " + line,
                                "sudo " + line,
                                "A=1 " + line};
  for (const auto& shape : shaped)
    if (decide(shape) == ptc::PermissionEffect::Allow)
      ptc_fuzz::oracle_failure("a denied line was allowed in a shape that runs it", "line", shape);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string line(ptc_fuzz::as_text(data, size));
  const auto plain = decide(line);
  if (plain == ptc::PermissionEffect::Allow &&
      ptc::decide_permission({{}, kRules.deny, {}}, "Bash(" + line + ")").effect == ptc::PermissionEffect::Allow)
    ptc_fuzz::oracle_failure("allowed without any allow rule", "line", line);
  const std::string chained = line + "\n;rm -rf /";
  if (line.find("<<") == std::string::npos && decide(chained) == ptc::PermissionEffect::Allow)
    ptc_fuzz::oracle_failure("a denied command after a newline was allowed", "line", chained);
  if (plain == ptc::PermissionEffect::Deny) check_shapes(line);
  return 0;
}
