// libFuzzer target: command files (YAML frontmatter and body), which a cloned repository can carry.
//
// Oracles: reading is deterministic; an error is one line naming the file, so a hostile key or value
// cannot forge further lines in `ptc command list` or a log; a command that is accepted has a name
// without control characters.

#include <cstddef>
#include <cstdint>
#include <string>

#include <ptc/command.hpp>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ptc_fuzz::as_text(data, size);
  const auto first = ptc::parse_command(text, "cmd.md");
  const auto second = ptc::parse_command(text, "cmd.md");
  if (first.ok() != second.ok() || (!first && first.error().message != second.error().message))
    ptc_fuzz::oracle_failure("two reads of one text differ", "text", text);
  if (!first) {
    const std::string& message = first.error().message;
    if (message.rfind("cmd.md: ", 0) != 0)
      ptc_fuzz::oracle_failure("an error that does not name the file", "error", message);
    for (char c : message)
      if (c == '\n' || c == '\r')
        ptc_fuzz::oracle_failure("an error of more than one line", "error", message, "text", text);
    return 0;
  }
  for (char c : first->name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
      ptc_fuzz::oracle_failure("a command name with a control character", "name", first->name);
  return 0;
}
