#pragma once
// `{{name}}` / `{{user.address.city}}` placeholders in prompt templates, checked against a signature.

#include <string>
#include <string_view>
#include <vector>

#include <ptc/error.hpp>
#include <ptc/signature.hpp>

namespace ptc {

struct Placeholder {
  std::vector<std::string> path;  ///< {"user", "address", "city"}
  std::size_t offset = 0;         ///< byte offset of the opening "{{"
};

/// Every placeholder in order, or the first malformed one (`{{}}`, `{{123}}`, an unclosed `{{`).
/// Whitespace inside the braces is trimmed. Segments: a letter, then letters, digits, '_' or '-'.
Result<std::vector<Placeholder>> parse_placeholders(std::string_view text);

/// Every problem with the placeholders of `text` against the parameters of `signature`: malformed
/// placeholders, unknown parameters, and fields that the parameter types do not have. A path may run
/// through :any and :map (dynamic keys), and through optional fields. Empty when all is well.
std::vector<Error> check_placeholders(std::string_view text, const Signature& signature);

}  // namespace ptc
