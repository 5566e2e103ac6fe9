#include "support.hpp"

#include <fstream>
#include <iostream>
#include <iterator>

namespace ptc::cli::detail {

std::optional<std::string> read_json_argument(const std::string& argument) {
  if (argument == "-") return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  if (!argument.starts_with("@")) return argument;
  std::ifstream in(argument.substr(1), std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string unknown_mode(std::string_view given) {
  return "error: unknown mode '" + std::string(given) + "'; expected enabled, warn_only, strict or disabled\n";
}

std::string unknown_profile(std::string_view given) {
  return "error: unknown profile '" + std::string(given) + "'; expected portable, openai, anthropic, gemini or mcp\n";
}

std::string unknown_format(std::string_view given) {
  return "error: unknown format '" + std::string(given) + "'; use openai, openai-responses, anthropic, gemini or mcp\n";
}

std::string cannot_read(std::string_view argument) {
  return "error: cannot read " + std::string(argument.substr(argument.starts_with("@") ? 1 : 0)) + "\n";
}

}  // namespace ptc::cli::detail
