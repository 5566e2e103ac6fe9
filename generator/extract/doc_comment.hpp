#pragma once
// Doc comment text -> a tool's description and its `\param` docs. No clang here: it reads the text
// clang's RawComment::getFormattedText gives (comment markers already stripped).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptcgen::extract::detail {

struct DocComment {
  /// The text without `\param`, `\tparam` and `\return` (`\returns`, `\result`, `\retval`) paragraphs;
  /// other commands (`\brief`, `\note`, ...) keep their text. Whitespace collapsed.
  std::string description;
  /// `\param name text` (also `@param`, `\param[in]`), in order, whitespace collapsed.
  std::vector<std::pair<std::string, std::string>> params;
};

DocComment parse_doc_comment(std::string_view text);

/// Runs of whitespace (newlines included) become one space; leading and trailing whitespace goes.
std::string collapse_whitespace(std::string_view text);

}  // namespace ptcgen::extract::detail
