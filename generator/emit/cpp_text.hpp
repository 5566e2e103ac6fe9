#pragma once
// Text as generated C++ spells it: string literals, raw strings and identifiers.

#include <set>
#include <string>
#include <string_view>

namespace ptcgen::emit {

/// `"..."` with every byte that is not printable ASCII (and `"`, `\`, `?`) escaped, so the literal means
/// the same bytes whatever the compiler's source character set, and `??=` is no trigraph to warn about.
std::string string_literal(std::string_view text);

/// `R"ptc(...)ptc"`, with another delimiter (`ptc0`, `ptc1`, ...; never over C++'s 16 characters) when
/// the text itself contains `)ptc"`.
std::string raw_string(std::string_view text);

/// Identifiers made from names (tool names may hold `-`), unique among those this namer gave out:
/// `search-issues` -> `search_issues`, the second `search_issues` -> `search_issues_2`. No `__`, no
/// leading digit or underscore (reserved or awkward in C++).
class IdentifierNamer {
 public:
  std::string make(std::string_view name);

 private:
  std::set<std::string, std::less<>> used_;
};

}  // namespace ptcgen::emit
