#pragma once
// The one place generated C++ gets its indentation and line breaks (as C++ Insights does it): emitters say
// what a line holds and where a block opens and closes, never how many spaces go first.

#include <string>
#include <string_view>

namespace ptcgen::emit {

class CodeWriter {
 public:
  /// `level`: the block depth the text starts at (two spaces each), for text spliced into a template.
  explicit CodeWriter(int level = 0) : level_(level) {}

  /// One line at the current depth.
  CodeWriter& line(std::string_view text);
  /// An empty line (no trailing spaces).
  CodeWriter& blank();
  /// `head {` on one line, then one level deeper.
  CodeWriter& open(std::string_view head);
  /// One level shallower, then `tail` (`}`, `};`, `} // namespace x`).
  CodeWriter& close(std::string_view tail = "}");
  /// A line one level shallower than the block around it (`case 0:` labels, `public:`).
  CodeWriter& outdented(std::string_view text);

  bool empty() const { return out_.empty(); }
  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void indent(int level);
  std::string out_;
  int level_;
};

}  // namespace ptcgen::emit
