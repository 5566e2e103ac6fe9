#pragma once
// Splits a byte stream into newline-delimited messages (the stdio transport's framing) without ever
// holding more than the message limit: a line that grows past it is reported once and its remaining
// bytes are skipped up to the next newline.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace ptc::mcp {

class LineReader {
 public:
  /// `on_line` gets each complete line without its `\n` (and without a `\r` before it); blank lines
  /// are skipped. `on_oversized` is called once for each line longer than `max_bytes`.
  LineReader(std::size_t max_bytes, std::function<void(std::string_view)> on_line, std::function<void()> on_oversized)
      : max_bytes_(max_bytes), on_line_(std::move(on_line)), on_oversized_(std::move(on_oversized)) {}

  void feed(std::string_view bytes);
  /// End of input: a last line without a newline is still a message.
  void finish();

 private:
  void emit(std::string_view line);

  std::size_t max_bytes_;
  std::function<void(std::string_view)> on_line_;
  std::function<void()> on_oversized_;
  std::string pending_;
  bool skipping_ = false;  // inside a line that was too long
};

}  // namespace ptc::mcp
