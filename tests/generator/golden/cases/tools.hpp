#pragma once
// Tool declarations: names, descriptions, overloads, explicit signatures, defaults, context injection,
// ToolResult, void, member tools and examples.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptc/annotate.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_result.hpp>

namespace golden::tools {

enum class Unit { celsius, fahrenheit };

/// Converts a temperature.
PTC_TOOL() PTC_TITLE("Convert temperature") PTC_READ_ONLY PTC_IDEMPOTENT PTC_EXAMPLE(R"({"value": 100, "to": "fahrenheit"})", "212.0")
double convert(double value, Unit to = Unit::celsius);

/// Searches by text.
PTC_TOOL() std::vector<std::string> search(std::string query);
/// Searches by text, at most `limit` results.
PTC_TOOL() std::vector<std::string> search(std::string query, int limit);

PTC_TOOL("shout") PTC_DESCRIPTION("Upper-cases text.") std::string to_upper(std::string text);

/// Greets someone; the signature names the parameter differently and narrows it.
PTC_TOOL() PTC_SIGNATURE("(who :string) -> :string") std::string greet(std::string name);

/// Does nothing, slowly.
PTC_TOOL() void idle(ptc::ToolContext& context, PTC_RANGE(0, 60) int seconds = 1);

/// Divides, reporting division by zero as a failed result.
PTC_TOOL() ptc::ToolResult<double> divide(double a, double b);

/// Labels with defaults of every literal kind.
PTC_TOOL() PTC_DESTRUCTIVE PTC_OPEN_WORLD std::string label(std::string text = "none", bool loud = false, std::int64_t times = -2,
                             double scale = 1.5, std::optional<std::string> suffix = std::nullopt);

inline constexpr int kPageSize = 20;
inline constexpr const char* kOrder = "newest";

/// Pages through results, with defaults given by constants.
PTC_TOOL() PTC_READ_ONLY std::string page(int size = kPageSize * 2, std::string order = kOrder);

/// A counter object whose methods are tools.
class Counter {
 public:
  /// Adds to the counter and returns the new value.
  PTC_TOOL() std::int64_t add(std::int64_t amount = 1);
  /// Reads the counter.
  PTC_TOOL() PTC_READ_ONLY std::int64_t value() const;

 private:
  std::int64_t value_ = 0;
};

}  // namespace golden::tools
