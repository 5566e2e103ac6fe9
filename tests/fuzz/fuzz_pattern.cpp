// libFuzzer target: RE2 patterns translated to JSON Schema (ECMA-262) patterns.
//
// Input: a pattern, then after the first newline a text to match. Oracle: a pattern RE2 accepts either
// is refused with a reason, or its translation compiles as an ECMAScript regex (std::regex) that finds
// a match in the text exactly when RE2 does. Patterns and texts are kept short, quantifiers few and
// counts small: std::regex backtracks, exponentially in nested quantifiers (`((.*)*)*` on 17
// characters took minutes).

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>
#include <string_view>

#include <ptc/json_schema.hpp>
#include <ptc/schema.hpp>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = ptc_fuzz::as_text(data, size);
  const auto newline = input.find('\n');
  const std::string pattern(input.substr(0, newline));
  const std::string text(newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1));
  if (pattern.size() > 48 || text.size() > 10 || ptc::Schema::pattern_error(pattern)) return 0;
  if (std::count_if(pattern.begin(), pattern.end(),
                    [](char c) { return std::string_view("*+?{").find(c) != std::string_view::npos; }) > 3)
    return 0;

  const ptc::Schema schema = ptc::Schema::all_of({ptc::Schema::string(), ptc::Schema::pattern(pattern)});
  auto rendered = ptc::to_json_schema(schema, ptc::Profile::Anthropic);
  if (!rendered) {
    if (rendered.error().message.find("as an ECMA-262 pattern (") == std::string::npos)
      ptc_fuzz::oracle_failure("a refusal without its reason", "pattern", pattern, "error", rendered.error().message);
    return 0;
  }
  const std::string ecma = (*rendered)["pattern"].get<std::string>();
  // std::regex reads bytes: only ASCII texts compare like for like with RE2's code points.
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80) return 0;
  for (char c : ecma)
    if (static_cast<unsigned char>(c) >= 0x80) return 0;
  // Nor beyond ASCII written as an escape: libstdc++'s char is signed, so it reads [\x00-\x8D] as a
  // range that ends below its start.
  for (std::size_t at = ecma.find('\\'); at != std::string::npos && at + 2 < ecma.size(); at = ecma.find('\\', at + 1))
    if (ecma[at + 1] == 'u' ||
        (ecma[at + 1] == 'x' && std::string_view("89ABCDEF").find(ecma[at + 2]) != std::string_view::npos))
      return 0;
  std::regex compiled;
  try {
    compiled = std::regex(ecma, std::regex::ECMAScript);
  } catch (const std::regex_error&) {
    ptc_fuzz::oracle_failure("the translation is no ECMAScript regex", "pattern", pattern, "translation", ecma);
  }
  // Counts of two digits or more are only compiled: std::regex backtracks through every count it could
  // try (`(^^{3,403}^{3,53})+$` on 3 bytes ran past 25 seconds).
  for (std::size_t i = 0; i + 1 < pattern.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(pattern[i])) &&
        std::isdigit(static_cast<unsigned char>(pattern[i + 1])))
      return 0;
  bool ecma_match = false;
  try {
    ecma_match = std::regex_search(text, compiled);
  } catch (const std::regex_error&) {
    return 0;  // std::regex's own complexity limit
  }
  if (ecma_match != schema.children()[1].matches(text))
    ptc_fuzz::oracle_failure("the translation matches differently", "pattern", pattern, "translation",
                             ecma + "  -- text: " + text);
  return 0;
}
