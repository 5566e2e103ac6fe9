// Fuzzes the permission decision on shell command lines. Oracles:
// - a rule set without allows never allows;
// - a denied command after a newline is never allowed, whatever precedes it (unless what precedes it
//   opened a here-document, whose body the newline then starts: the command is data there);
// - a line that is denied stays not allowed in every shape that runs it: after `&&`, in `{ }`, `( )`, an
//   if body, a substitution, a `sh -c` script, behind `time`, `!`, `sudo` or an assignment (a group
//   only when the line holds no closer that could end it early).
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

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

/// Whether the line may end a group the shape opened around it: a `)` or `}` of its own can close the
/// shape's `( `, `$( ` or `{ ` early (`<<E*) rm x` inside `echo $( ... )` makes `rm` an argument of
/// echo), so that shape no longer runs the line.
bool may_close(const std::string& line, char closer) { return line.find(closer) != std::string::npos; }

void check_shapes(const std::string& line) {
  const bool paren = may_close(line, ')');
  const bool brace = may_close(line, '}');
  const std::pair<std::string, bool> shaped[] = {{"cd x && " + line + "\n", true},
                                                 {"{ " + line + "\n}", !brace},
                                                 {"( " + line + "\n)", !paren},
                                                 {"if true; then " + line + "\nfi", true},
                                                 {"echo $( " + line + "\n)", !paren},
                                                 {"bash -c " + single_quoted(line), true},
                                                 {"time " + line, true},
                                                 {"! " + line, true},
                                                 {"sudo " + line, true},
                                                 {"A=1 " + line, true}};
  for (const auto& [shape, runs_the_line] : shaped)
    if (runs_the_line && decide(shape) == ptc::PermissionEffect::Allow)
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
