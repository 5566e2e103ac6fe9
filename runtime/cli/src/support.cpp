#include "support.hpp"

#include <iostream>

#include <ptc/file_input.hpp>

namespace ptc::cli::detail {

Result<std::string> read_json_argument(const std::string& argument) {
  if (argument == "-") return read_stream(std::cin, "<stdin>");
  if (!argument.starts_with("@")) return argument;
  return read_regular_file(argument.substr(1));
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

std::string cannot_read(const Error& error) { return "error: cannot read " + error.message + "\n"; }

}  // namespace ptc::cli::detail
