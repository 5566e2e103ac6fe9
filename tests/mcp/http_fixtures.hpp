#pragma once
// What the tests of the Streamable HTTP endpoint without sockets share (http_transport_test,
// auth/authorizer_test): requests built header by header, a response's header, and a response stream
// that collects what the endpoint writes.

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http_transport.hpp"

namespace ptc_test {

struct Req {
  Req() = default;
  explicit Req(std::string text) : body(std::move(text)) {}

  std::string method = "POST";
  std::string path = "/mcp";
  std::string body;
  std::string peer = "127.0.0.1";
  std::multimap<std::string, std::string> headers{{"host", "127.0.0.1:8000"}, {"content-type", "application/json"}};

  /// Replaces every value of a header (names are kept in lower case).
  Req& set(const std::string& name, const std::string& value) {
    headers.erase(name);
    headers.emplace(name, value);
    return *this;
  }
  Req& bearer(const std::string& token) { return set("authorization", "Bearer " + token); }

  ptc::mcp::HttpRequest build() const {
    ptc::mcp::HttpRequest r;
    r.method = method;
    r.path = path;
    r.body = body;
    r.remote_address = peer;
    r.headers = [h = headers](std::string_view name) {
      std::string lower(name);
      for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::vector<std::string> out;
      for (auto [it, end] = h.equal_range(lower); it != end; ++it) out.push_back(it->second);
      return out;
    };
    return r;
  }
};

/// The value of a response header, or "" without one.
inline std::string header_of(const ptc::mcp::HttpResponse& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return {};
}

/// A response stream that collects what is written, as the HTTP server would send it. `deferred_head`:
/// the response's, which lets close_with answer whole while nothing is written.
class CollectingStream final : public ptc::mcp::HttpStream {
 public:
  explicit CollectingStream(bool deferred_head = false) : deferred_head_(deferred_head) {}
  bool write(std::string bytes) override {
    std::lock_guard lock(mutex_);
    text_ += bytes;
    return true;
  }
  void close() override {
    std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }
  bool close_with(ptc::mcp::HttpResponse whole, std::string last) override {
    {
      std::lock_guard lock(mutex_);
      if (deferred_head_ && text_.empty()) {
        whole_ = std::move(whole);
        closed_ = true;
        changed_.notify_all();
        return true;
      }
    }
    write(std::move(last));
    close();
    return true;
  }
  /// The whole response close_with sent instead of the stream, once closed; nullopt for a stream.
  std::optional<ptc::mcp::HttpResponse> wait_whole() {
    wait_closed();
    std::lock_guard lock(mutex_);
    return whole_;
  }
  /// Everything written, once the stream is closed (or after 30 s).
  std::string wait_closed() {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(30), [this] { return closed_; });
    return text_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string text_;
  bool closed_ = false;
  const bool deferred_head_;
  std::optional<ptc::mcp::HttpResponse> whole_;
};

}  // namespace ptc_test
