#include "extract/doc_comment.hpp"

#include <cctype>

#include "text.hpp"

namespace ptcgen::extract::detail {

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

std::string_view trim(std::string_view s) { return ptc::text::trim(s); }

/// Splits a leading word off `s` (after whitespace).
std::string_view take_word(std::string_view& s) {
  s = trim(s);
  std::size_t n = 0;
  while (n < s.size() && is_word(s[n])) ++n;
  std::string_view word = s.substr(0, n);
  s.remove_prefix(n);
  return word;
}

enum class Block { Description, Param, Dropped };

}  // namespace

std::string collapse_whitespace(std::string_view text) {
  std::string out;
  bool pending_space = false;
  for (char c : text) {
    if (is_space(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

DocComment parse_doc_comment(std::string_view text) {
  DocComment doc;
  std::string description;
  Block block = Block::Description;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view line = trim(text.substr(0, eol));
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (line.empty()) {
      block = Block::Description;  // a blank line ends a command's paragraph
      description += '\n';
      continue;
    }
    if ((line.front() == '\\' || line.front() == '@') && line.size() > 1 && is_word(line[1])) {
      std::string_view rest = line.substr(1);
      const std::string_view command = take_word(rest);
      if (command == "param") {
        rest = trim(rest);
        if (!rest.empty() && rest.front() == '[') rest.remove_prefix(std::min(rest.find(']') + 1, rest.size()));
        const std::string_view name = take_word(rest);
        doc.params.emplace_back(std::string(name), std::string(trim(rest)));
        block = Block::Param;
        continue;
      }
      if (command == "tparam" || command == "return" || command == "returns" || command == "result" ||
          command == "retval") {
        block = Block::Dropped;
        continue;
      }
      block = Block::Description;
      line = trim(rest);
    }
    switch (block) {
      case Block::Description: description += std::string(line) + '\n'; break;
      case Block::Param: doc.params.back().second += " " + std::string(line); break;
      case Block::Dropped: break;
    }
  }
  doc.description = collapse_whitespace(description);
  for (auto& [name, param_text] : doc.params) param_text = collapse_whitespace(param_text);
  return doc;
}

}  // namespace ptcgen::extract::detail
