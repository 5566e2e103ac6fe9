#pragma once
// ProviderDouble: a real HTTP/1.1 server on 127.0.0.1 (an ephemeral port) that plays a model provider
// for the agent tests. Each request gets the next scripted Reply, in order; the requests are recorded.
// Connections are kept alive, so a client that reuses its connection shows one connection accepted.
//
//   ptc_test::ProviderDouble provider;
//   provider.push(ptc_test::Reply::json(429, R"({"error":{"message":"slow down"}})").header("retry-after-ms", "10"));
//   provider.push(ptc_test::Reply::sse({"data: {\"x\":1}\n\n", "data: [DONE]\n\n"}));
//   ... point the client at provider.base_url() ...
//   EXPECT_EQ(provider.requests().size(), 2u);
//
// One thread per connection, synchronous; the destructor returns promptly even while connections are
// held silent (never_answer) or a reply is waiting between chunks.
//
// Note for scripts with a dropped connection: libcurl takes a reused connection that closes without a
// byte of answer for a stale keep-alive connection and sends the request again on a new one by itself
// (before any retry of ptc's). close_without_answer on the first request of a transport shows the
// transport's own retry; on a later request it consumes the next reply as well.

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ptc_test {

struct RecordedRequest {
  std::string method;                          ///< "POST"
  std::string target;                          ///< the path and query, e.g. "/v1/chat/completions"
  std::map<std::string, std::string> headers;  ///< names lower-cased; repeated headers joined with ", "
  std::string body;
  std::size_t connection = 0;  ///< which accepted connection it came on, from 1

  /// The header's value, or "" when it was not sent.
  std::string header(const std::string& lower_case_name) const;
};

/// One scripted answer.
struct Reply {
  int status = 200;
  /// Sent as they are, e.g. {"content-type", "application/json"}, {"retry-after", "1"}.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  ///< sent whole, with Content-Length (unless `chunked`)
  /// Non-empty: sent with chunked encoding, one piece per chunk, instead of `body` (SSE).
  std::vector<std::string> chunks;
  std::chrono::milliseconds delay_between_chunks{0};
  /// Waited before the status line is sent.
  std::chrono::milliseconds delay{0};
  /// Close the socket after the chunks, without the terminating chunk (a stream dropped mid-way; with
  /// no chunks, right after the headers).
  bool drop_after_chunks = false;
  /// Read the request, then hold the connection silent until the double stops.
  bool never_answer = false;
  /// Read the request, then close the socket (a dropped connection; see the note at the top).
  bool close_without_answer = false;
  /// Set: the body is this many bytes of 'x', generated as it is sent (never held in memory).
  std::size_t repeat_body_bytes = 0;
  /// `body` or the repeated bytes with chunked encoding, without a Content-Length: the client learns
  /// the size only as the bytes arrive.
  bool chunked = false;

  /// `status` with a JSON body and content-type application/json.
  static Reply json(int status, std::string body);
  /// 200, content-type text/event-stream, one chunk per event (each a full "data: ...\n\n" block).
  static Reply sse(std::vector<std::string> events);
  /// Adds a header (chainable).
  Reply& header(std::string name, std::string value) &;
  Reply&& header(std::string name, std::string value) &&;
};

class ProviderDouble {
 public:
  /// Listens on 127.0.0.1 at an ephemeral port and starts accepting.
  ProviderDouble();
  /// Stops: closes every connection (silent ones included) and joins every thread.
  ~ProviderDouble();
  ProviderDouble(const ProviderDouble&) = delete;
  ProviderDouble& operator=(const ProviderDouble&) = delete;

  /// "http://127.0.0.1:PORT", no trailing slash.
  std::string base_url() const;
  unsigned short port() const;

  /// Scripts the answer to the next request not yet answered; replies are used in order, one per
  /// request. A request with none left gets the handler's reply, or a 500 saying the script ran out.
  void push(Reply reply);
  /// Answers the requests that find no scripted reply left (e.g. to answer by what was asked).
  void set_handler(std::function<Reply(const RecordedRequest&)> handler);

  /// Every request read so far, in arrival order (recorded before it is answered).
  std::vector<RecordedRequest> requests() const;
  /// Off: requests are counted but no longer kept, so a double serving for a long time (a benchmark's
  /// provider) holds no more memory after a million requests than after one.
  void keep_requests(bool keep);
  /// Blocks until `count` requests have arrived or `timeout` has passed; true when they have.
  bool wait_for_requests(std::size_t count, std::chrono::milliseconds timeout) const;
  std::size_t connections_accepted() const;
  std::size_t unused_replies() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ptc_test
