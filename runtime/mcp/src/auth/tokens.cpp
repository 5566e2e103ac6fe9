#include "tokens.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <ptc/file_input.hpp>

namespace ptc::mcp {
namespace {

constexpr std::size_t kMaxTokenFileBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxTokens = 10000;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

/// Why `token` cannot be a static token, without quoting it; empty when it can.
std::string token_problem(std::string_view token) {
  if (token.size() < auth::kMinStaticTokenBytes)
    return "a token shorter than " + std::to_string(auth::kMinStaticTokenBytes) + " characters is too easy to guess";
  if (token.size() > auth::kMaxStaticTokenBytes)
    return "a token longer than " + std::to_string(auth::kMaxStaticTokenBytes) + " characters";
  if (!auth::is_b64token(token)) return "not a bearer token (letters, digits and -._~+/, with = only at the end)";
  return {};
}

/// Adds the tokens of one line; an error names the place.
std::optional<Error> add_line(std::string_view line, const std::string& place, std::vector<TokenDigest>& digests) {
  while (!line.empty()) {
    const auto comma = line.find(',');
    const auto token = trim(line.substr(0, comma));
    line = comma == std::string_view::npos ? std::string_view() : line.substr(comma + 1);
    if (token.empty()) continue;
    if (auto problem = token_problem(token); !problem.empty()) return Error{place + ": " + problem};
    if (digests.size() == kMaxTokens) return Error{place + ": more than " + std::to_string(kMaxTokens) + " tokens"};
    digests.push_back(token_digest(token));
  }
  return std::nullopt;
}

}  // namespace

TokenDigest token_digest(std::string_view token) {
  TokenDigest digest{};
  unsigned int size = 0;
  EVP_Digest(token.data(), token.size(), digest.data(), &size, EVP_sha256(), nullptr);
  return digest;
}

Result<TokenSet> parse_tokens(std::string_view text, std::string_view source) {
  TokenSet set;
  std::size_t number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const auto line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++number;
    if (line.empty() || line.front() == '#') continue;
    if (auto error = add_line(line, std::string(source) + ":" + std::to_string(number), set.digests)) return *error;
  }
  if (set.digests.empty())
    return Error{std::string(source) +
                 ": no token (one per line or comma-separated; blank lines and # comments "
                 "are skipped)"};
  std::sort(set.digests.begin(), set.digests.end());
  set.digests.erase(std::unique(set.digests.begin(), set.digests.end()), set.digests.end());
  return set;
}

Result<TokenSet> load_tokens_file(const std::string& path) {
  auto text = read_regular_file(path, kMaxTokenFileBytes);
  if (!text) return text.error();
  auto set = parse_tokens(*text, path);
  if (!set) return set;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    set->warnings.push_back(path + ": users other than its owner may read it (mode " + mode + "); chmod 600 " + path);
  }
  return set;
}

namespace auth {

bool is_b64token(std::string_view token) {
  std::size_t at = 0;
  const auto body = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~' || c == '+' || c == '/';
  };
  while (at < token.size() && body(token[at])) ++at;
  if (at == 0) return false;
  while (at < token.size() && token[at] == '=') ++at;
  return at == token.size();
}

bool token_matches(std::string_view token, const std::vector<TokenDigest>& digests) {
  const TokenDigest presented = token_digest(token);
  int found = 0;
  for (const auto& digest : digests) found |= CRYPTO_memcmp(presented.data(), digest.data(), digest.size()) == 0;
  return found != 0;
}

}  // namespace auth
}  // namespace ptc::mcp
