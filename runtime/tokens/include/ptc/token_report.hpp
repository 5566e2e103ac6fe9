#pragma once
// What each tool costs a model's context: the tokens of every text ptc sends for it (tool_renderings.hpp),
// counted with OpenAI's encodings. ptc-gen --token-report writes it at build time, a tool program's
// `tokens` subcommand at run time; both count the same texts, so they agree (docs/tokens.md).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/error.hpp>
#include <ptc/encoding.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_renderings.hpp>

namespace ptc {

/// The encodings a report counts with, in its order; ptc-gen's token budget is in the first one's tokens.
inline constexpr std::string_view kReportEncodings[] = {"o200k_base", "cl100k_base"};

struct RenderingCost {
  Rendering rendering = Rendering::Prompt;
  std::string text;                 ///< exactly what is sent; empty when the tool cannot be rendered so
  std::vector<std::size_t> tokens;  ///< one count per encoding of the report, in its order
  std::string error;                ///< why the tool cannot be rendered so (a profile cannot express it)
};

struct ToolCost {
  std::string name;
  std::vector<RenderingCost> renderings;  ///< in all_renderings() order
  /// The rendering that costs most under encoding `encoding` (an index into the report's), among those
  /// that rendered; null when none did.
  const RenderingCost* largest(std::size_t encoding = 0) const;
};

struct TokenReport {
  std::vector<std::string> encodings;
  std::vector<ToolCost> tools;
  /// The tools' counts of one rendering added up: what listing all of them costs, give or take the few
  /// tokens of the list around them.
  std::size_t total(Rendering rendering, std::size_t encoding = 0) const;
};

/// Renders every tool every way and counts each text with each encoding.
TokenReport token_report(std::span<const Tool> tools, std::span<const Encoding> encodings);

/// The report as JSON (docs/tokens.md): `{"encodings":[...],"tools":[{"name","renderings":{"prompt":
/// {"text","o200k_base","cl100k_base"},...}}],"total":{...}}`; a rendering OpenAI's encodings only
/// estimate carries `"estimate":true`, one that failed `"error"` instead of text and counts.
std::string token_report_json(const TokenReport& report);
/// The report as a table, a row per tool and a total, each cell "o200k/cl100k".
std::string token_report_table(const TokenReport& report);

/// The encodings of kReportEncodings, read from `<dir>/<name>.tiktoken` (Encoding::load).
Result<std::vector<Encoding>> load_report_encodings(const std::filesystem::path& dir);
/// The directory rank files are read from: `given` (an option's value) unless it is empty, else
/// $PTC_TOKENIZER_DATA when set and not empty; nullopt when neither names one.
std::optional<std::filesystem::path> tokenizer_data(std::string_view given);

}  // namespace ptc
