#pragma once
// Behaviour hints (MCP tool annotations): every marker, alone and combined, PTC_ADDITIVE stating a tool
// that claims no hint, and tools that state none, which ptc-gen notes (expected/hints/ptc-gen.stderr)
// without failing.

#include <string>

#include <ptc/annotate.hpp>

namespace golden::hints {

/// Looks a word up.
PTC_TOOL() PTC_READ_ONLY std::string lookup(std::string word);

/// Files a note; filing it twice files two.
PTC_TOOL() PTC_ADDITIVE int file_note(std::string text);

/// Sets a flag to the value given.
PTC_TOOL() PTC_IDEMPOTENT PTC_OPEN_WORLD bool set_flag(bool on);

/// Erases everything.
PTC_TOOL() PTC_DESTRUCTIVE int erase_all();

/// States nothing: MCP clients take it to be destructive and open-world.
PTC_TOOL() int unmarked(int x);

class Store {
 public:
  /// A member tool that states nothing.
  PTC_TOOL() int count() const;
  /// A member tool that only adds.
  PTC_TOOL() PTC_ADDITIVE int add(std::string item);
};

}  // namespace golden::hints
