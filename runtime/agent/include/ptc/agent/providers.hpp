#pragma once
// The model providers ptc speaks, over HTTPS with libcurl: OpenAI Chat Completions (and the servers
// that copy it: Ollama, llama.cpp's server, vLLM), OpenAI Responses, Anthropic Messages and Gemini.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <ptc/agent/model.hpp>
#include <ptc/error.hpp>

namespace ptc::agent {

enum class Provider { openai, openai_responses, anthropic, gemini };
std::string_view provider_name(Provider provider);  ///< "openai", "openai-responses", "anthropic", "gemini"
std::optional<Provider> provider_from_name(std::string_view name);
/// The public endpoint root the request paths are appended to, e.g. "https://api.openai.com/v1".
std::string_view default_base_url(Provider provider);
/// Whether the URL's host is this machine: "localhost", an address in 127.0.0.0/8 or ::1, written as
/// such (a name that only starts with "127." is not).
bool is_loopback_url(std::string_view url);
/// The environment variable the command line reads the key from ("OPENAI_API_KEY", ...).
std::string_view api_key_variable(Provider provider);

struct ProviderOptions {
  Provider provider = Provider::openai;
  std::string base_url;  ///< empty: default_base_url(provider)
  /// Sent as the provider's auth header; empty: none is sent (a local server). Never written to an
  /// error, a log, an event or a transcript; text that quotes it is redacted.
  std::string api_key;
  /// A key over plain http is refused unless the host is loopback or this is set.
  bool allow_insecure_http = false;
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds total_timeout{600'000};  ///< each attempt of a request, a streamed one included
  /// Retries on 408, 409, 429, 500, 502, 503, 504, 529 and dropped connections, never on another 4xx,
  /// and never once a streamed answer has begun to arrive.
  int max_retries = 3;
  std::chrono::milliseconds initial_backoff{500};
  std::chrono::milliseconds max_backoff{30'000};
  std::size_t max_response_bytes = std::size_t{32} << 20;
};

/// A model on a provider's API. One connection is kept and reused across requests; a Model is used by
/// one run at a time. Errors: a base URL that is not http(s), a key over plain http to another host.
Result<std::unique_ptr<Model>> make_model(ProviderOptions options);

}  // namespace ptc::agent
