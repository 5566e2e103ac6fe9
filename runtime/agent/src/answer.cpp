#include "answer.hpp"

#include <algorithm>

#include <ptc/json_input.hpp>
#include <ptc/limits.hpp>
#include <ptc/signature.hpp>

#include "text.hpp"

namespace ptc::agent::detail {

namespace {

// The body of the first markdown code fence (```json ... ``` or ``` ... ```), or nullopt.
std::optional<std::string_view> fenced(std::string_view text) {
  const auto open = text.find("```");
  if (open == std::string_view::npos) return std::nullopt;
  const auto line_end = text.find('\n', open + 3);
  if (line_end == std::string_view::npos) return std::nullopt;
  const auto close = text.find("```", line_end + 1);
  if (close == std::string_view::npos) return std::nullopt;
  return text.substr(line_end + 1, close - line_end - 1);
}

// From the first `{` or `[` to the last matching closer: JSON with prose around it.
std::optional<std::string_view> embedded(std::string_view text) {
  const auto first = text.find_first_of("{[");
  if (first == std::string_view::npos) return std::nullopt;
  const char closer = text[first] == '{' ? '}' : ']';
  const auto last = text.rfind(closer);
  if (last == std::string_view::npos || last < first) return std::nullopt;
  return text.substr(first, last - first + 1);
}

bool wants_string(const Schema& schema) { return schema.kind() == Kind::String; }

}  // namespace

Result<ReadAnswer> read_answer(std::string_view text, const Schema& schema) {
  ReadAnswer out;
  const std::string_view whole = text::trim(text, text::kJsonWhitespace);
  auto unwrap = [&](nlohmann::json value) {
    // A JSON string that holds the JSON of a value the type wants (some models quote their answer).
    if (value.is_string() && !wants_string(schema)) {
      if (auto inner = parse_json(value.get_ref<const std::string&>()); inner && !inner->is_string()) {
        out.warnings.push_back("the answer was a JSON string holding the value");
        return std::move(*inner);
      }
    }
    return value;
  };
  if (auto parsed = parse_json(whole)) {
    out.value = unwrap(std::move(*parsed));
    return out;
  }
  if (auto body = fenced(whole)) {
    if (auto parsed = parse_json(text::trim(*body, text::kJsonWhitespace))) {
      out.warnings.push_back("the value was read from a markdown code block");
      out.value = unwrap(std::move(*parsed));
      return out;
    }
  }
  if (auto span = embedded(whole)) {
    if (auto parsed = parse_json(*span)) {
      out.warnings.push_back("text around the JSON value was ignored");
      out.value = std::move(*parsed);
      return out;
    }
  }
  if (wants_string(schema)) {
    out.value = std::string(whole);
    return out;
  }
  return Error{"the answer holds no JSON value"};
}

CheckedAnswer check_answer(std::string_view text, const Schema& schema) {
  CheckedAnswer out;
  auto read = read_answer(text, schema);
  if (!read) {
    out.errors.push_back("(root): " + read.error().message);
    return out;
  }
  out.warnings = std::move(read->warnings);
  Validation v = validate_and_coerce(schema, std::move(read->value), {.direction = Direction::Input});
  for (const auto& w : v.warnings) out.warnings.push_back(w.path + ": " + w.message);
  const std::size_t shown = std::min(v.errors.size(), limits::kReportedErrors);
  for (std::size_t i = 0; i < shown; ++i) out.errors.push_back(v.errors[i].path + ": " + v.errors[i].message);
  out.more_errors = v.error_count() - shown;
  out.ok = v.ok;
  out.value = std::move(v.value);
  return out;
}

std::string answer_feedback(const CheckedAnswer& checked, const Schema& schema, int retry, int retries) {
  std::string out = "Your answer does not match the expected type (retry " + std::to_string(retry) + " of " +
                    std::to_string(retries) + ").\nExpected: " + render(schema) + "\nErrors:\n";
  for (const auto& e : checked.errors) out.append("- ").append(e).append("\n");
  if (checked.more_errors) out.append("- ... and ").append(std::to_string(checked.more_errors)).append(" more\n");
  out += "Answer again with only the corrected JSON value. No tools are available in this turn.";
  return out;
}

std::string answer_instruction(const Schema& schema) {
  return "When you have the answer, reply with only a JSON value of this type (signature syntax): " + render(schema);
}

}  // namespace ptc::agent::detail
