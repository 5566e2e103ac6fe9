#include "emit/code_writer.hpp"

namespace ptcgen::emit {

void CodeWriter::indent(int level) { out_.append(static_cast<std::size_t>(level > 0 ? level : 0) * 2, ' '); }

CodeWriter& CodeWriter::line(std::string_view text) {
  if (!text.empty()) indent(level_);
  out_ += text;
  out_ += '\n';
  return *this;
}

CodeWriter& CodeWriter::blank() { return line({}); }

CodeWriter& CodeWriter::open(std::string_view head) {
  indent(level_);
  out_ += head;
  out_ += head.empty() ? "{\n" : " {\n";
  ++level_;
  return *this;
}

CodeWriter& CodeWriter::close(std::string_view tail) {
  --level_;
  return line(tail);
}

CodeWriter& CodeWriter::outdented(std::string_view text) {
  indent(level_ - 1);
  out_ += text;
  out_ += '\n';
  return *this;
}

}  // namespace ptcgen::emit
