#include "line_reader.hpp"

namespace ptc::mcp {

void LineReader::emit(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  on_line_(line);
}

void LineReader::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    const auto newline = bytes.find('\n');
    const auto chunk = bytes.substr(0, newline);
    if (skipping_) {
      if (newline != std::string_view::npos) skipping_ = false;
    } else if (pending_.size() + chunk.size() > max_bytes_) {
      pending_.clear();
      pending_.shrink_to_fit();
      on_oversized_();
      skipping_ = newline == std::string_view::npos;
    } else if (newline == std::string_view::npos) {
      pending_.append(chunk);
    } else if (pending_.empty()) {
      emit(chunk);  // the usual case: a whole line in one read, never copied
    } else {
      pending_.append(chunk);
      emit(pending_);
      pending_.clear();
    }
    if (newline == std::string_view::npos) return;
    bytes.remove_prefix(newline + 1);
  }
}

void LineReader::finish() {
  if (!skipping_ && !pending_.empty()) emit(pending_);
  pending_.clear();
  skipping_ = false;
}

}  // namespace ptc::mcp
