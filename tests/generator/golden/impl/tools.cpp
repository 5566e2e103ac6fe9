// Definitions of the functions declared in cases/tools.hpp.
#include "cases/tools.hpp"

#include <algorithm>
#include <cctype>

namespace golden::tools {

double convert(double value, Unit to) {
  return to == Unit::fahrenheit ? value * 9.0 / 5.0 + 32.0 : (value - 32.0) * 5.0 / 9.0;
}

std::vector<std::string> search(std::string query) { return search(std::move(query), 3); }

std::vector<std::string> search(std::string query, int limit) {
  std::vector<std::string> out;
  for (int i = 1; i <= limit; ++i) out.push_back(query + " " + std::to_string(i));
  return out;
}

std::string to_upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}

std::string greet(std::string name) { return "Hello, " + name + "!"; }

void idle(ptc::ToolContext& context, int seconds) {
  for (int i = 0; i < seconds; ++i) context.beat();
}

ptc::ToolResult<double> divide(double a, double b) {
  if (b == 0) return ptc::ToolResult<double>::error("Division by zero.");
  return ptc::ToolResult<double>::ok(a / b);
}

std::string label(std::string text, bool loud, std::int64_t times, double scale, std::optional<std::string> suffix) {
  std::string out = text + (loud ? "!" : "") + " x" + std::to_string(times) + " *" + std::to_string(scale);
  if (suffix) out += " " + *suffix;
  return out;
}

std::string page(int size, std::string order) { return std::to_string(size) + " " + order; }

std::int64_t Counter::add(std::int64_t amount) { return value_ += amount; }
std::int64_t Counter::value() const { return value_; }

}  // namespace golden::tools
