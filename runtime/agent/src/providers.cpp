// make_model: a provider's wire format (src/wire) over the libcurl transport (src/transport).
#include <ptc/agent/providers.hpp>

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>

#include <memory>
#include <string>
#include <utility>

#include "text.hpp"
#include "transport/http_transport.hpp"
#include "wire/wire.hpp"
#include "wire/wire_common.hpp"

namespace ptc::agent {

std::string_view provider_name(Provider provider) {
  switch (provider) {
    case Provider::openai: return "openai";
    case Provider::openai_responses: return "openai-responses";
    case Provider::anthropic: return "anthropic";
    case Provider::gemini: return "gemini";
  }
  return "openai";
}

std::optional<Provider> provider_from_name(std::string_view name) {
  for (Provider p : {Provider::openai, Provider::openai_responses, Provider::anthropic, Provider::gemini})
    if (provider_name(p) == name) return p;
  return std::nullopt;
}

std::string_view default_base_url(Provider provider) {
  switch (provider) {
    case Provider::openai:
    case Provider::openai_responses: return "https://api.openai.com/v1";
    case Provider::anthropic: return "https://api.anthropic.com/v1";
    case Provider::gemini: return "https://generativelanguage.googleapis.com/v1beta";
  }
  return "";
}

std::string_view api_key_variable(Provider provider) {
  switch (provider) {
    case Provider::openai:
    case Provider::openai_responses: return "OPENAI_API_KEY";
    case Provider::anthropic: return "ANTHROPIC_API_KEY";
    case Provider::gemini: return "GEMINI_API_KEY";
  }
  return "";
}

namespace {

struct ParsedUrl {
  std::string scheme;
  std::string host;
};

// The URL read by libcurl's own parser, so that the host checked is the host the transport connects
// to, however the URL spells it (user info, brackets, percent-encoding).
std::optional<ParsedUrl> parse_url(std::string_view url) {
  const std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle(curl_url(), curl_url_cleanup);
  if (!handle ||
      curl_url_set(handle.get(), CURLUPART_URL, std::string(url).c_str(), CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
    return std::nullopt;
  auto part = [&](CURLUPart which) -> std::optional<std::string> {
    char* value = nullptr;
    if (curl_url_get(handle.get(), which, &value, 0) != CURLUE_OK || value == nullptr) return std::nullopt;
    std::string out = text::ascii_lower(value);
    curl_free(value);
    return out;
  };
  auto scheme = part(CURLUPART_SCHEME);
  auto host = part(CURLUPART_HOST);
  if (!scheme || !host || host->empty()) return std::nullopt;
  if (host->size() > 2 && host->front() == '[' && host->back() == ']') *host = host->substr(1, host->size() - 2);
  return ParsedUrl{std::move(*scheme), std::move(*host)};
}

// Only names that cannot leave the machine: "localhost", an IPv4 literal in 127.0.0.0/8, the IPv6
// literal ::1. A name that merely starts with "127." may resolve anywhere.
bool loopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

class ProviderModel final : public Model {
 public:
  ProviderModel(ProviderOptions options, std::string base_url)
      : options_(std::move(options)),
        base_url_(std::move(base_url)),
        wire_(detail::make_wire(options_.provider)),
        transport_(transport_options(options_)) {}

  std::string provider() const override { return std::string(provider_name(options_.provider)); }
  void on_retry(std::function<void(const RetryNotice&)> hook) override { on_retry_ = std::move(hook); }

  // Every error leaves through here, with the key taken out of it: a provider's message may quote it,
  // and so may the JSON parser's excerpt of a malformed answer.
  Result<ModelResponse> complete(const ModelRequest& request) override {
    auto response = exchange(request);
    if (!response) return Error{detail::redact(std::move(response).error().message, {options_.api_key})};
    return response;
  }

 private:
  Result<ModelResponse> exchange(const ModelRequest& request) {
    const bool stream = static_cast<bool>(request.on_event);
    auto body = wire_->request_body(request, stream);
    if (!body) return Error{provider() + ": " + body.error().message};
    detail::HttpRequest http{wire_->url(base_url_, *request.settings, stream), wire_->headers(options_.api_key),
                             std::move(body).value()};
    if (!stream) {
      auto reply = transport_.post(http, nullptr, request.cancellation.get(), on_retry_);
      if (!reply) return reply.error();
      if (auto failure = status_error(*reply)) return *failure;
      auto parsed = detail::wire::read_json(reply->body);
      if (!parsed) return Error{provider() + ": the response is not valid JSON: " + parsed.error().to_string()};
      auto response = wire_->parse_response(*parsed);
      if (!response) return Error{provider() + ": " + response.error().message};
      return response;
    }
    auto assembler = wire_->stream();
    detail::SseReader reader;
    std::optional<Error> failure;
    auto deliver = [&](const detail::SseReader::Event& event) {
      failure = assembler->on_event(event, request.on_event);
      return !failure;
    };
    auto feed = [&](std::string_view bytes) {
      if (reader.feed(bytes, deliver)) return true;
      if (!failure)
        failure = Error{"an event of the stream is larger than the limit of " + std::to_string(reader.max_event_bytes) +
                        " bytes"};
      return false;
    };
    auto reply = transport_.post(http, feed, request.cancellation.get(), on_retry_);
    if (failure) return Error{provider() + ": " + failure->message};
    if (!reply) return reply.error();
    if (auto error = status_error(*reply)) return *error;
    if (auto last = reader.finish(); last && !deliver(*last)) return Error{provider() + ": " + failure->message};
    auto response = assembler->finish();
    if (!response) return Error{provider() + ": " + response.error().message};
    return response;
  }

  static detail::TransportOptions transport_options(const ProviderOptions& o) {
    detail::TransportOptions t;
    t.connect_timeout = o.connect_timeout;
    t.total_timeout = o.total_timeout;
    t.max_retries = o.max_retries;
    t.initial_backoff = o.initial_backoff;
    t.max_backoff = o.max_backoff;
    t.max_response_bytes = o.max_response_bytes;
    if (!o.api_key.empty()) t.secrets.push_back(o.api_key);
    t.provider = std::string(provider_name(o.provider));
    return t;
  }

  // A reply that is not 2xx: "anthropic: HTTP 401: invalid x-api-key" with the provider's own message.
  std::optional<Error> status_error(const detail::HttpReply& reply) const {
    if (reply.status >= 200 && reply.status < 300) return std::nullopt;
    return Error{provider() + ": HTTP " + std::to_string(reply.status) + ": " + wire_->error_message(reply.body)};
  }

  ProviderOptions options_;
  std::string base_url_;
  std::unique_ptr<detail::Wire> wire_;
  detail::HttpTransport transport_;
  std::function<void(const RetryNotice&)> on_retry_;
};

}  // namespace

bool is_loopback_url(std::string_view url) {
  const auto parsed = parse_url(url);
  return parsed && loopback(parsed->host);
}

Result<std::unique_ptr<Model>> make_model(ProviderOptions options) {
  std::string base = options.base_url.empty() ? std::string(default_base_url(options.provider)) : options.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  const auto url = parse_url(base);
  if (!url || (url->scheme != "http" && url->scheme != "https"))
    return Error{"the base URL must be an http or https URL: " + detail::redact(base, {options.api_key})};
  if (url->scheme == "http" && !options.api_key.empty() && !loopback(url->host) && !options.allow_insecure_http)
    return Error{"refusing to send an API key over plain http to " + url->host +
                 ": use https, or allow insecure http explicitly"};
  return std::unique_ptr<Model>(std::make_unique<ProviderModel>(std::move(options), std::move(base)));
}

}  // namespace ptc::agent
