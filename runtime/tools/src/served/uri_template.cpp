// ptc::UriTemplate: parsing RFC 6570's simple and reserved expansions, and matching URIs against them.

#include <cctype>
#include <set>

#include <ptc/resource.hpp>

namespace ptc {
namespace {

constexpr std::size_t kMaxTemplateBytes = 2048;

bool identifier(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// `%XX` decoded; a `%` not followed by two hex digits stays as it is.
std::string percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

Error at(std::size_t index, std::string message) { return Error{std::move(message), 1, index + 1}; }

}  // namespace

Result<UriTemplate> UriTemplate::parse(std::string_view text) {
  if (text.empty()) return Error{"a resource URI must not be empty"};
  if (text.size() > kMaxTemplateBytes)
    return Error{"a resource URI must be at most " + std::to_string(kMaxTemplateBytes) + " bytes"};
  UriTemplate out;
  out.text_ = std::string(text);
  std::set<std::string, std::less<>> seen;
  std::string literal;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '}') return at(i, "'}' without a '{' before it");
    if (text[i] != '{') {
      literal += text[i];
      continue;
    }
    const std::size_t close = text.find('}', i + 1);
    if (close == std::string_view::npos) return at(i, "'{' is not closed");
    std::string_view inside = text.substr(i + 1, close - i - 1);
    const bool reserved = !inside.empty() && inside.front() == '+';
    if (reserved) inside.remove_prefix(1);
    if (!inside.empty() && !identifier(inside))
      return at(i + 1, "'" + std::string(inside) +
                           "' is not a variable this server expands (a name of letters, digits and '_', "
                           "optionally after '+')");
    if (inside.empty()) return at(i, "'{}' names no variable");
    if (!seen.insert(std::string(inside)).second)
      return at(i + 1, "variable '" + std::string(inside) + "' appears twice");
    if (!out.variables_.empty() && literal.empty())
      return at(i, "two variables with nothing between them cannot be told apart");
    out.variables_.emplace_back(inside);
    out.parts_.push_back({std::move(literal), reserved});
    literal.clear();
    i = close;
  }
  out.parts_.push_back({std::move(literal), false});
  return out;
}

std::optional<std::vector<std::pair<std::string, std::string>>> UriTemplate::match(std::string_view uri) const {
  std::vector<std::pair<std::string, std::string>> values;
  std::size_t pos = 0;
  for (std::size_t v = 0; v < variables_.size(); ++v) {
    const std::string& before = parts_[v].literal;
    if (uri.compare(pos, before.size(), before) != 0) return std::nullopt;
    pos += before.size();
    // The value runs to the next literal (its first occurrence for `{var}`, which stops at a
    // separator anyway; the last one for a final `{+var}` before a tail).
    const std::string& after = parts_[v + 1].literal;
    const bool last = v + 1 == variables_.size();
    std::size_t end = std::string_view::npos;
    if (after.empty())
      end = last ? uri.size() : std::string_view::npos;
    else if (last)
      end = uri.size() >= after.size() + pos ? uri.size() - after.size() : std::string_view::npos;
    else
      end = uri.find(after, pos + 1);
    if (end == std::string_view::npos || end <= pos) return std::nullopt;
    std::string_view value = uri.substr(pos, end - pos);
    if (!parts_[v].reserved && value.find_first_of("/?#") != std::string_view::npos) return std::nullopt;
    values.emplace_back(variables_[v], percent_decode(value));
    pos = end;
  }
  if (uri.substr(pos) != parts_.back().literal) return std::nullopt;
  return values;
}

}  // namespace ptc
