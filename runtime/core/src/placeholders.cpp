#include <ptc/placeholders.hpp>

#include "text.hpp"

namespace ptc {
namespace {

bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool name_char(char c) { return letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '-'; }

// Padding inside {{ }} is spaces and tabs only.
std::string_view trim(std::string_view s) { return text::trim(s, " \t"); }

std::string joined(const std::vector<std::string>& path, std::size_t upto) {
  std::string out;
  for (std::size_t i = 0; i <= upto && i < path.size(); ++i) out += (i ? "." : "") + path[i];
  return out;
}

}  // namespace

Result<std::vector<Placeholder>> parse_placeholders(std::string_view text) {
  std::vector<Placeholder> out;
  std::size_t pos = 0;
  while ((pos = text.find("{{", pos)) != std::string_view::npos) {
    auto close = text.find("}}", pos + 2);
    if (close == std::string_view::npos) return text::error_at(text, pos, "unclosed placeholder '{{'");
    std::string_view inner = trim(text.substr(pos + 2, close - pos - 2));
    std::string shown = "{{" + text::excerpt(text.substr(pos + 2, close - pos - 2), 40) + "}}";
    if (inner.empty()) return text::error_at(text, pos, "empty placeholder " + shown);
    Placeholder p;
    p.offset = pos;
    std::size_t start = 0;
    for (;;) {
      auto dot = inner.find('.', start);
      std::string_view seg = inner.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
      if (seg.empty()) return text::error_at(text, pos, "empty name segment in placeholder " + shown);
      if (!letter(seg.front()))
        return text::error_at(text, pos, "placeholder " + shown + ": names must start with a letter");
      for (char c : seg)
        if (!name_char(c))
          return text::error_at(text, pos,
                                "placeholder " + shown + ": names may hold only letters, digits, '_' and '-'");
      p.path.emplace_back(seg);
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    out.push_back(std::move(p));
    pos = close + 2;
  }
  return out;
}

std::vector<Error> check_placeholders(std::string_view text, const Signature& signature) {
  auto parsed = parse_placeholders(text);
  if (!parsed) return {parsed.error()};
  std::vector<Error> errors;
  for (const auto& p : *parsed) {
    Schema current = signature.input();
    for (std::size_t i = 0; i < p.path.size(); ++i) {
      while (current.kind() == Kind::Maybe) current = current.item();
      if (current.kind() == Kind::And) current = current.children().front();
      if (current.kind() == Kind::Any || current.kind() == Kind::MapOf) break;  // dynamic keys
      const std::string& seg = p.path[i];
      if (current.kind() != Kind::Map) {
        errors.push_back(
            text::error_at(text, p.offset,
                           "placeholder {{" + joined(p.path, p.path.size()) + "}}: " + joined(p.path, i - 1) + " is " +
                               std::string(kind_name(current.kind())) + ", not a map with field '" + seg + "'"));
        break;
      }
      const MapEntry* e = current.find(seg);
      if (!e) {
        errors.push_back(text::error_at(text, p.offset,
                                        i == 0 ? "placeholder {{" + joined(p.path, p.path.size()) +
                                                     "}}: no parameter named '" + seg + "'"
                                               : "placeholder {{" + joined(p.path, p.path.size()) +
                                                     "}}: " + joined(p.path, i - 1) + " has no field '" + seg + "'"));
        break;
      }
      current = e->schema;
    }
  }
  return errors;
}

}  // namespace ptc
