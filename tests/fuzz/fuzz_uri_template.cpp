// libFuzzer target: RFC 6570 URI templates as MCP resources name them (ptc::UriTemplate, `{var}` and
// `{+var}`), parsed from the first line of the input and matched against the rest.
//
// Oracles:
//   - parse never throws; a template over 2048 bytes is refused; an error is a non-empty one-line
//     message whose column (when it has one) lies within the template;
//   - a parsed template keeps its text; its variables are C identifiers, unique, one per `{`, and it
//     is static exactly when it has none;
//   - a static template matches exactly itself, with no values;
//   - match never throws, and takes little CPU time, on the input's URI and on a long one made of it
//     (64 KiB: a matcher quadratic in the URI would take seconds there);
//   - a match gives one non-empty value per variable, in the template's order;
//   - re-expansion: the values of a match, each percent-encoded (every byte but RFC 3986's unreserved
//     ALPHA DIGIT - . _ ~ as %XX, for `{var}` and `{+var}` alike), expanded back into the template,
//     give a URI that matches again with the same values, unless that expansion is ambiguous for the
//     matcher: a variable that is not the last one ends at the first occurrence of the literal after
//     it, so when that literal also occurs inside the encoded value (it may: "4" or "A" inside "%4A",
//     any unreserved text), the matcher splits the URI elsewhere, and it is right to.
//
// Two things that look like round trips but are not, so they are not asserted:
//   - expanding with the RAW matched text: a value "%41" decoded to "A" and "A" itself give the same
//     value, so the matched text cannot be recovered, and a re-encoded value may differ from it;
//   - RFC 6570's own reserved expansion for `{+var}`, which keeps reserved characters and `%XX`
//     triplets as they are: a value that decodes to the text "%41" expands to "%41" again, which
//     decodes to "A". Reserved expansion is not injective under percent-decoding, so only the fully
//     encoded expansion is a round trip. Literal text is copied as it is (and matched as it is, never
//     decoded), so it round-trips by construction.

#include <time.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ptc/resource.hpp>

#include "fuzz_common.hpp"

namespace {

using Values = std::vector<std::pair<std::string, std::string>>;

constexpr std::size_t kMaxTemplateBytes = 2048;  // UriTemplate::parse's limit
constexpr std::size_t kLongUriBytes = 64 << 10;  // the long URI the timing oracle matches
constexpr double kMaxMatchSeconds = 0.5;         // CPU time, sanitizers included, for 64 KiB

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

bool identifier(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool unreserved(unsigned char c) { return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~'; }

std::string percent_encode(std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (unreserved(c)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

/// The template's literals: the text before each variable, then the tail. The template parsed, so
/// every '{' opens a variable that its next '}' closes.
std::vector<std::string> literals(std::string_view text) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      i = text.find('}', i);
      out.emplace_back();
    } else {
      out.back() += text[i];
    }
  }
  return out;
}

std::string describe(const Values& values) {
  std::string out;
  for (const auto& [name, value] : values) out += name + "=" + value + "\n";
  return out;
}

/// Matches, failing the oracle when it takes longer than the budget.
std::optional<Values> timed_match(const ptc::UriTemplate& t, std::string_view uri) {
  const double start = thread_seconds();
  auto values = t.match(uri);
  if (thread_seconds() - start > kMaxMatchSeconds)
    ptc_fuzz::oracle_failure("a match that took too long", "template", t.text(), "uri",
                             uri.substr(0, std::min<std::size_t>(uri.size(), 256)));
  return values;
}

void check_match(const ptc::UriTemplate& t, std::string_view uri, const Values& values) {
  if (values.size() != t.variables().size())
    ptc_fuzz::oracle_failure("a match without one value per variable", "template", t.text(), "uri", uri);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i].first != t.variables()[i])
      ptc_fuzz::oracle_failure("a match whose values are not in the template's order", "template", t.text(), "uri",
                               uri);
    if (values[i].second.empty())
      ptc_fuzz::oracle_failure("a match with an empty value", "template", t.text(), "uri", uri);
  }
}

/// The re-expansion property (see the top of the file).
void check_reexpansion(const ptc::UriTemplate& t, std::string_view uri, const Values& values) {
  const auto parts = literals(t.text());
  if (parts.size() != values.size() + 1)
    ptc_fuzz::oracle_failure("a template whose literals do not surround its variables", "template", t.text());
  std::string expanded = parts[0];
  bool ambiguous = false;
  for (std::size_t v = 0; v < values.size(); ++v) {
    const std::size_t start = expanded.size();
    expanded += percent_encode(values[v].second);
    const std::size_t end = expanded.size();
    expanded += parts[v + 1];
    // The matcher ends a variable that is not the last at the first occurrence of the next literal
    // at least one character into the value.
    if (v + 1 < values.size() && expanded.find(parts[v + 1], start + 1) != end) ambiguous = true;
  }
  auto again = t.match(expanded);
  if (ambiguous) return;
  if (!again)
    ptc_fuzz::oracle_failure("an expansion of a match's encoded values that does not match", "uri", uri, "expanded",
                             expanded);
  if (*again != values)
    ptc_fuzz::oracle_failure("an expansion of a match's encoded values that matches with other values", "first",
                             describe(values), "again", describe(*again));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = ptc_fuzz::as_text(data, size);
  const std::size_t newline = input.find('\n');
  const std::string_view text = input.substr(0, newline);
  const std::string_view uri = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

  auto parsed = ptc::UriTemplate::parse(text);
  if (!parsed) {
    const auto& e = parsed.error();
    if (e.message.empty() || e.message.find('\n') != std::string::npos)
      ptc_fuzz::oracle_failure("a parse error that is not one line", "message", e.message, "template", text);
    if (e.column > text.size() + 1)
      ptc_fuzz::oracle_failure("a parse error's column past the template", "message", e.to_string(), "template", text);
    return 0;
  }
  if (text.size() > kMaxTemplateBytes)
    ptc_fuzz::oracle_failure("a template longer than the limit was accepted", "template", text);
  const ptc::UriTemplate& t = *parsed;
  if (t.text() != text) ptc_fuzz::oracle_failure("a template that lost its text", "text", t.text(), "input", text);

  // Variables: C identifiers, unique, one per '{'.
  std::set<std::string, std::less<>> seen;
  for (const auto& name : t.variables()) {
    if (!identifier(name)) ptc_fuzz::oracle_failure("a variable that is not an identifier", "variable", name);
    if (!seen.insert(name).second)
      ptc_fuzz::oracle_failure("a variable that appears twice", "variable", name, "template", text);
  }
  const auto opened = static_cast<std::size_t>(std::count(text.begin(), text.end(), '{'));
  if (opened != t.variables().size())
    ptc_fuzz::oracle_failure("a template with another number of variables than of '{'", "template", text);
  if (t.is_static() != t.variables().empty())
    ptc_fuzz::oracle_failure("is_static() that disagrees with the variables", "template", text);

  if (t.is_static()) {
    auto self = t.match(text);
    if (!self || !self->empty())
      ptc_fuzz::oracle_failure("a static template that does not match itself", "template", text);
  }

  auto values = timed_match(t, uri);
  if (t.is_static() && values.has_value() != (uri == text))
    ptc_fuzz::oracle_failure("a static template that matches another URI, or not itself", "template", text, "uri", uri);
  if (values) {
    check_match(t, uri, *values);
    check_reexpansion(t, uri, *values);
  }

  // A long URI made of this one, for the timing oracle: the template's literals (at most 2 KiB) are
  // searched for across it.
  if (!uri.empty()) {
    std::string long_uri;
    long_uri.reserve(kLongUriBytes);
    while (long_uri.size() + uri.size() <= kLongUriBytes) long_uri += uri;
    if (auto long_values = timed_match(t, long_uri)) check_match(t, long_uri, *long_values);
  }
  return 0;
}
