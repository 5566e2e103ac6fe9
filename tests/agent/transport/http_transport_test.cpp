// HttpTransport against the provider double on loopback: bodies, streaming, connection reuse, the retry
// rules, timeouts, cancellation, the response limit and the redaction of the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "provider_double.hpp"
#include "transport/http_transport.hpp"

namespace ptc::agent::detail {
namespace {

using ptc_test::ProviderDouble;
using ptc_test::Reply;
using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr const char* kKey = "sk-test-123";

TransportOptions options() {
  TransportOptions o;
  o.provider = "openai";
  o.connect_timeout = milliseconds(5'000);
  o.total_timeout = milliseconds(20'000);
  o.initial_backoff = milliseconds(1);
  o.max_backoff = milliseconds(50);
  o.secrets = {kKey};
  return o;
}

HttpRequest request(const ProviderDouble& provider) {
  return HttpRequest{provider.base_url() + "/v1/chat/completions",
                     {{"Authorization", std::string("Bearer ") + kKey}, {"OpenAI-Beta", "x"}},
                     R"({"model":"m"})"};
}

long long elapsed_ms(Clock::time_point since) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - since).count();
}

std::string header(const Headers& headers, const std::string& name) {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return "";
}

// A client of its own: posts without streaming, keeping the retry notices.
struct Client {
  explicit Client(TransportOptions o = options()) : transport(std::move(o)) {}
  Result<HttpReply> post(const HttpRequest& r, const Cancellation* cancellation = nullptr) {
    return transport.post(r, nullptr, cancellation, [this](const RetryNotice& n) { notices.push_back(n); });
  }
  HttpTransport transport;
  std::vector<RetryNotice> notices;
};

TEST(HttpTransport, PostsAndReadsTheBody) {
  ProviderDouble provider;
  provider.push(Reply::json(200, R"({"ok":true})").header("x-request-id", "req-1"));
  Client client;
  auto reply = client.post(request(provider));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, R"({"ok":true})");
  EXPECT_EQ(header(reply->headers, "content-type"), "application/json");
  EXPECT_EQ(header(reply->headers, "x-request-id"), "req-1");
  const auto requests = provider.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "POST");
  EXPECT_EQ(requests[0].target, "/v1/chat/completions");
  EXPECT_EQ(requests[0].body, R"({"model":"m"})");
  EXPECT_EQ(requests[0].header("content-type"), "application/json");
  EXPECT_EQ(requests[0].header("authorization"), "Bearer sk-test-123");
  EXPECT_EQ(requests[0].header("openai-beta"), "x");
  EXPECT_EQ(requests[0].header("expect"), "");
  EXPECT_TRUE(client.notices.empty());
}

TEST(HttpTransport, ReusesTheConnectionAcrossPosts) {
  ProviderDouble provider;
  provider.push(Reply::json(200, "{}"));
  provider.push(Reply::sse({"data: 1\n\n"}));
  provider.push(Reply::json(200, "{}"));
  Client client;
  ASSERT_TRUE(client.post(request(provider)));
  ASSERT_TRUE(client.transport.post(
      request(provider), [](std::string_view) { return true; }, nullptr, nullptr));
  ASSERT_TRUE(client.post(request(provider)));
  EXPECT_EQ(provider.requests().size(), 3u);
  EXPECT_EQ(provider.connections_accepted(), 1u);
}

TEST(HttpTransport, StreamsTheBodyInOrderAsItArrives) {
  ProviderDouble provider;
  Reply reply = Reply::sse({"data: one\n\n", "data: two\n\n", "data: three\n\n"});
  reply.delay_between_chunks = milliseconds(300);
  provider.push(reply);
  Client client;
  std::string received;
  std::optional<Clock::time_point> first;
  const auto start = Clock::now();
  auto result = client.transport.post(
      request(provider),
      [&](std::string_view bytes) {
        if (!first) first = Clock::now();
        received.append(bytes);
        return true;
      },
      nullptr, nullptr);
  const auto end = Clock::now();
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->status, 200);
  EXPECT_EQ(result->body, "");
  EXPECT_EQ(header(result->headers, "content-type"), "text/event-stream");
  EXPECT_EQ(received, "data: one\n\ndata: two\n\ndata: three\n\n");
  ASSERT_TRUE(first.has_value());
  // The first chunk came to on_data a good 600 ms before the last was even sent.
  EXPECT_GE(std::chrono::duration_cast<milliseconds>(end - *first).count(), 450);
  EXPECT_GE(std::chrono::duration_cast<milliseconds>(end - start).count(), 550);
}

TEST(HttpTransport, WaitsAsLongAsRetryAfterAsks) {
  ProviderDouble provider;
  provider.push(Reply::json(429, R"({"error":{"message":"slow down"}})").header("retry-after", "1"));
  provider.push(Reply::json(200, "{}"));
  TransportOptions o = options();
  o.max_backoff = milliseconds(5'000);
  Client client(o);
  const auto start = Clock::now();
  auto reply = client.post(request(provider));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->status, 200);
  EXPECT_GE(elapsed_ms(start), 1000);
  ASSERT_EQ(client.notices.size(), 1u);
  EXPECT_EQ(client.notices[0].attempt, 1);
  EXPECT_EQ(client.notices[0].reason, "HTTP 429");
  EXPECT_GE(client.notices[0].delay, milliseconds(1000));
  EXPECT_EQ(provider.requests().size(), 2u);
}

TEST(HttpTransport, RetryAfterInMillisecondsIsAFloorUnderTheBackoff) {
  ProviderDouble provider;
  provider.push(Reply::json(503, "{}").header("retry-after-ms", "80"));
  provider.push(Reply::json(529, "{}").header("retry-after-ms", "80"));
  provider.push(Reply::json(200, "{}"));
  TransportOptions o = options();
  o.max_backoff = milliseconds(5'000);
  Client client(o);
  const auto start = Clock::now();
  auto reply = client.post(request(provider));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->status, 200);
  EXPECT_GE(elapsed_ms(start), 160);
  ASSERT_EQ(client.notices.size(), 2u);
  EXPECT_EQ(client.notices[0].reason, "HTTP 503");
  EXPECT_EQ(client.notices[1].reason, "HTTP 529");
  EXPECT_GE(client.notices[0].delay, milliseconds(80));
  EXPECT_GE(client.notices[1].delay, milliseconds(80));
  EXPECT_EQ(provider.requests().size(), 3u);
}

TEST(HttpTransport, RetryAfterIsCappedAtMaxBackoff) {
  ProviderDouble provider;
  provider.push(Reply::json(429, "{}").header("retry-after", "20"));
  provider.push(Reply::json(200, "{}"));
  Client client;  // max_backoff 50 ms
  const auto start = Clock::now();
  auto reply = client.post(request(provider));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_LT(elapsed_ms(start), 2000);
  ASSERT_EQ(client.notices.size(), 1u);
  EXPECT_EQ(client.notices[0].delay, milliseconds(50));
}

TEST(HttpTransport, RetriesServerErrorsUpToMaxRetries) {
  ProviderDouble provider;
  for (int i = 0; i < 3; ++i) provider.push(Reply::json(500, "{}"));
  provider.push(Reply::json(200, R"({"ok":1})"));
  Client client;
  auto reply = client.post(request(provider));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, R"({"ok":1})");
  ASSERT_EQ(client.notices.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(client.notices[i].attempt, i + 1);
    EXPECT_EQ(client.notices[i].reason, "HTTP 500");
    EXPECT_LE(client.notices[i].delay, milliseconds(50));
  }
  EXPECT_EQ(provider.requests().size(), 4u);
}

TEST(HttpTransport, GivesTheLastReplyBackOnceTheRetriesAreSpent) {
  ProviderDouble provider;
  for (int i = 0; i < 4; ++i) provider.push(Reply::json(500, R"({"n":)" + std::to_string(i) + "}"));
  provider.push(Reply::json(200, "{}"));
  Client client;
  auto reply = client.post(request(provider));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->status, 500);
  EXPECT_EQ(reply->body, R"({"n":3})");
  EXPECT_EQ(client.notices.size(), 3u);
  EXPECT_EQ(provider.requests().size(), 4u);
  EXPECT_EQ(provider.unused_replies(), 1u);
}

TEST(HttpTransport, DoesNotRetryOtherClientErrors) {
  for (int status : {400, 401, 403, 404, 422}) {
    ProviderDouble provider;
    provider.push(Reply::json(status, R"({"error":{"message":"no"}})"));
    provider.push(Reply::json(200, "{}"));
    Client client;
    auto reply = client.post(request(provider));
    ASSERT_TRUE(reply) << reply.error().message;
    EXPECT_EQ(reply->status, status);
    EXPECT_EQ(reply->body, R"({"error":{"message":"no"}})");
    EXPECT_TRUE(client.notices.empty()) << status;
    EXPECT_EQ(provider.requests().size(), 1u) << status;
  }
}

TEST(HttpTransport, AnErrorReplyToAStreamedRequestComesBackWhole) {
  ProviderDouble provider;
  provider.push(Reply::json(401, R"({"error":{"message":"bad key"}})"));
  Client client;
  bool called = false;
  auto reply = client.transport.post(
      request(provider),
      [&](std::string_view) {
        called = true;
        return true;
      },
      nullptr, nullptr);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->status, 401);
  EXPECT_EQ(reply->body, R"({"error":{"message":"bad key"}})");
  EXPECT_FALSE(called);
}

TEST(HttpTransport, FollowsNoRedirect) {
  ProviderDouble provider;
  provider.push(Reply::json(307, "{}").header("location", provider.base_url() + "/elsewhere"));
  Client client;
  auto reply = client.post(request(provider));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->status, 307);
  EXPECT_EQ(provider.requests().size(), 1u);
}

TEST(HttpTransport, RetriesADroppedConnection) {
  ProviderDouble provider;
  Reply dropped;
  dropped.close_without_answer = true;
  provider.push(dropped);
  provider.push(Reply::json(200, "{}"));
  Client client;
  auto reply = client.post(request(provider));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->status, 200);
  ASSERT_EQ(client.notices.size(), 1u);
  EXPECT_THAT(client.notices[0].reason, StartsWith("connection failed: "));
  EXPECT_EQ(provider.requests().size(), 2u);
  EXPECT_EQ(provider.connections_accepted(), 2u);
}

TEST(HttpTransport, RetriesAStreamDroppedBeforeItsFirstByte) {
  ProviderDouble provider;
  Reply dropped = Reply::sse({});
  dropped.drop_after_chunks = true;
  provider.push(dropped);
  provider.push(Reply::sse({"data: ok\n\n"}));
  Client client;
  std::string received;
  auto reply = client.transport.post(
      request(provider),
      [&](std::string_view bytes) {
        received.append(bytes);
        return true;
      },
      nullptr, [&](const RetryNotice& n) { client.notices.push_back(n); });
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(received, "data: ok\n\n");
  EXPECT_EQ(client.notices.size(), 1u);
}

TEST(HttpTransport, DoesNotRetryAStreamDroppedMidWay) {
  ProviderDouble provider;
  Reply dropped = Reply::sse({"data: one\n\n", "data: two\n\n"});
  dropped.drop_after_chunks = true;
  provider.push(dropped);
  provider.push(Reply::sse({"data: again\n\n"}));
  Client client;
  std::string received;
  auto reply = client.transport.post(
      request(provider),
      [&](std::string_view bytes) {
        received.append(bytes);
        return true;
      },
      nullptr, [&](const RetryNotice& n) { client.notices.push_back(n); });
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, StartsWith("openai: "));
  EXPECT_THAT(reply.error().message, HasSubstr("broke off"));
  EXPECT_EQ(received, "data: one\n\ndata: two\n\n");
  EXPECT_TRUE(client.notices.empty());
  EXPECT_EQ(provider.requests().size(), 1u);
  EXPECT_EQ(provider.unused_replies(), 1u);
}

TEST(HttpTransport, TimesOutWhenTheServerNeverAnswers) {
  ProviderDouble provider;
  Reply silent;
  silent.never_answer = true;
  provider.push(silent);
  provider.push(Reply::json(200, "{}"));
  TransportOptions o = options();
  o.total_timeout = milliseconds(300);
  Client client(o);
  const auto start = Clock::now();
  auto reply = client.post(request(provider));
  ASSERT_FALSE(reply);
  EXPECT_LT(elapsed_ms(start), 1500);
  EXPECT_THAT(reply.error().message, StartsWith("openai: request timed out"));
  EXPECT_TRUE(client.notices.empty());
  EXPECT_EQ(provider.requests().size(), 1u);
}

TEST(HttpTransport, ACancelledRequestReturnsPromptly) {
  ProviderDouble provider;
  Reply silent;
  silent.never_answer = true;
  provider.push(silent);
  Client client;
  Cancellation cancellation;
  std::thread canceller([&] {
    provider.wait_for_requests(1, milliseconds(5'000));
    cancellation.cancel("user pressed stop");
  });
  const auto start = Clock::now();
  auto reply = client.post(request(provider), &cancellation);
  const auto took = elapsed_ms(start);
  canceller.join();
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message, "openai: request cancelled (user pressed stop)");
  EXPECT_LT(took, 1000);
  EXPECT_TRUE(client.notices.empty());
}

TEST(HttpTransport, ACancelledStreamStopsBetweenChunks) {
  ProviderDouble provider;
  Reply slow = Reply::sse({"data: one\n\n", "data: two\n\n"});
  slow.delay_between_chunks = milliseconds(10'000);
  provider.push(slow);
  Client client;
  Cancellation cancellation;
  const auto start = Clock::now();
  auto reply = client.transport.post(
      request(provider),
      [&](std::string_view) {
        cancellation.cancel();
        return true;
      },
      &cancellation, nullptr);
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message, "openai: request cancelled (cancelled)");
  EXPECT_LT(elapsed_ms(start), 2000);
}

TEST(HttpTransport, ACancellationDuringTheBackoffEndsTheWait) {
  ProviderDouble provider;
  provider.push(Reply::json(503, "{}").header("retry-after", "20"));
  provider.push(Reply::json(200, "{}"));
  TransportOptions o = options();
  o.max_backoff = milliseconds(30'000);
  Client client(o);
  Cancellation cancellation;
  std::thread canceller([&] {
    provider.wait_for_requests(1, milliseconds(5'000));
    std::this_thread::sleep_for(milliseconds(200));
    cancellation.cancel();
  });
  const auto start = Clock::now();
  auto reply = client.post(request(provider), &cancellation);
  const auto took = elapsed_ms(start);
  canceller.join();
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, HasSubstr("cancelled"));
  EXPECT_LT(took, 2000);
  ASSERT_EQ(client.notices.size(), 1u);
  EXPECT_EQ(client.notices[0].delay, milliseconds(20'000));
  EXPECT_EQ(provider.requests().size(), 1u);
}

TEST(HttpTransport, ACancellationRaisedBeforehandSendsNothing) {
  ProviderDouble provider;
  Client client;
  Cancellation cancellation;
  cancellation.cancel("shutting down");
  auto reply = client.post(request(provider), &cancellation);
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message, "openai: request cancelled (shutting down)");
  EXPECT_EQ(provider.connections_accepted(), 0u);
}

long max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST(HttpTransport, RefusesAStreamedBodyOverTheLimitEarly) {
  ProviderDouble provider;
  Reply huge;
  huge.repeat_body_bytes = std::size_t{1} << 30;
  huge.chunked = true;
  provider.push(huge);
  TransportOptions o = options();
  o.max_response_bytes = std::size_t{1} << 20;
  Client client(o);
  std::size_t given = 0;
  const auto start = Clock::now();
  auto reply = client.transport.post(
      request(provider),
      [&](std::string_view bytes) {
        given += bytes.size();
        return true;
      },
      nullptr, nullptr);
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message, "openai: response larger than the limit of 1048576 bytes");
  EXPECT_LE(given, std::size_t{1} << 20);
  EXPECT_LT(elapsed_ms(start), 5000);
}

TEST(HttpTransport, RefusesAWholeBodyOverTheLimitWithoutHoldingIt) {
  for (bool chunked : {false, true}) {
    ProviderDouble provider;
    Reply huge;
    huge.repeat_body_bytes = std::size_t{1} << 30;
    huge.chunked = chunked;
    provider.push(huge);
    TransportOptions o = options();
    o.max_response_bytes = std::size_t{1} << 20;
    Client client(o);
    const long rss_before = max_rss_kib();
    const auto start = Clock::now();
    auto reply = client.post(request(provider));
    ASSERT_FALSE(reply) << "chunked " << chunked;
    EXPECT_EQ(reply.error().message, "openai: response larger than the limit of 1048576 bytes");
    EXPECT_LT(elapsed_ms(start), 5000);
    EXPECT_LT(max_rss_kib() - rss_before, 64 * 1024) << "the body was held in memory";
    EXPECT_TRUE(client.notices.empty());
  }
}

TEST(HttpTransport, AnErrorBodyIsBoundedToo) {
  ProviderDouble provider;
  Reply huge;
  huge.status = 500;
  huge.repeat_body_bytes = std::size_t{8} << 20;
  huge.chunked = true;
  provider.push(huge);
  TransportOptions o = options();
  o.max_response_bytes = std::size_t{1} << 20;
  Client client(o);
  auto reply = client.transport.post(
      request(provider), [](std::string_view) { return true; }, nullptr, nullptr);
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, HasSubstr("limit of 1048576 bytes"));
}

TEST(HttpTransport, RefusesHeadersOverTheLimit) {
  ProviderDouble provider;
  Reply reply = Reply::json(200, "{}");
  for (int i = 0; i < 10; ++i) reply.header("x-padding-" + std::to_string(i), std::string(10'000, 'p'));
  provider.push(reply);
  provider.push(Reply::json(200, "{}"));
  Client client;
  auto result = client.post(request(provider));
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "openai: response headers larger than the limit of 65536 bytes");
  EXPECT_EQ(provider.requests().size(), 1u);
}

TEST(HttpTransport, AReaderThatReturnsFalseStopsTheTransfer) {
  ProviderDouble provider;
  provider.push(Reply::sse({"data: one\n\n", "data: two\n\n"}));
  provider.push(Reply::sse({"data: again\n\n"}));
  Client client;
  int calls = 0;
  auto reply = client.transport.post(
      request(provider),
      [&](std::string_view) {
        ++calls;
        return false;
      },
      nullptr, nullptr);
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message, "openai: response abandoned by its reader");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(provider.requests().size(), 1u);
}

TEST(HttpTransport, AnExceptionFromTheReaderPropagatesAndTheTransportStaysUsable) {
  ProviderDouble provider;
  provider.push(Reply::sse({"data: one\n\n"}));
  provider.push(Reply::json(200, "{}"));
  Client client;
  EXPECT_THROW(client.transport.post(
                   request(provider), [](std::string_view) -> bool { throw std::runtime_error("bad event"); }, nullptr,
                   nullptr),
               std::runtime_error);
  auto reply = client.post(request(provider));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->status, 200);
}

std::string closed_port_url() {
  ProviderDouble gone;
  return gone.base_url();
}

TEST(HttpTransport, ConnectionFailuresAreRetriedThenNamed) {
  const std::string url = closed_port_url();
  Client client;
  const auto reply = client.post(HttpRequest{url + "/v1/chat/completions", {}, "{}"});
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, StartsWith("openai: connection failed: "));
  EXPECT_THAT(reply.error().message, HasSubstr("(after 4 attempts)"));
  ASSERT_EQ(client.notices.size(), 3u);
  EXPECT_THAT(client.notices[2].reason, StartsWith("connection failed: "));
}

// A listener that never accepts, its queue filled: the kernel drops further connection attempts, so a
// connect hangs until the client gives up, as with a host that does not answer.
class FullListener {
 public:
  FullListener() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(listener_, 0) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      return;
    }
    port_ = ntohs(address.sin_port);
    for (int i = 0; i < 4; ++i) {
      const int client = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
      ::connect(client, reinterpret_cast<sockaddr*>(&address), length);
      fillers_.push_back(client);
    }
    std::this_thread::sleep_for(milliseconds(50));
  }
  ~FullListener() {
    for (int fd : fillers_) ::close(fd);
    ::close(listener_);
  }
  FullListener(const FullListener&) = delete;
  FullListener& operator=(const FullListener&) = delete;
  int port() const { return port_; }

 private:
  int listener_ = -1;
  int port_ = 0;
  std::vector<int> fillers_;
};

TEST(HttpTransport, AConnectTimeoutIsRetried) {
  FullListener listener;
  ASSERT_NE(listener.port(), 0);
  TransportOptions o = options();
  o.connect_timeout = milliseconds(200);
  o.max_retries = 1;
  Client client(o);
  const auto start = Clock::now();
  const auto reply = client.post(HttpRequest{"http://127.0.0.1:" + std::to_string(listener.port()) + "/", {}, "{}"});
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, StartsWith("openai: connection failed: "));
  EXPECT_THAT(reply.error().message, HasSubstr("(after 2 attempts)"));
  EXPECT_EQ(client.notices.size(), 1u);
  EXPECT_GE(elapsed_ms(start), 400);
  EXPECT_LT(elapsed_ms(start), 3000);
}

TEST(HttpTransport, TheErrorsItWritesNeverHoldASecret) {
  const std::string url = closed_port_url();
  TransportOptions o = options();
  o.max_retries = 1;
  // The address stands in for a key that found its way into a URL: libcurl's message names it.
  o.secrets = {"", kKey, "127.0.0.1"};
  Client client(o);
  const auto reply = client.post(HttpRequest{url + "/" + kKey, {{"Authorization", kKey}}, "{}"});
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, HasSubstr("[redacted]"));
  EXPECT_THAT(reply.error().message, Not(HasSubstr("127.0.0.1")));
  EXPECT_THAT(reply.error().message, Not(HasSubstr(kKey)));
  ASSERT_EQ(client.notices.size(), 1u);
  EXPECT_THAT(client.notices[0].reason, HasSubstr("[redacted]"));
  EXPECT_THAT(client.notices[0].reason, Not(HasSubstr("127.0.0.1")));
}

TEST(HttpTransport, RefusesAHeaderThatWouldStartAnother) {
  ProviderDouble provider;
  Client client;
  HttpRequest r = request(provider);
  r.headers = {{"Authorization", std::string("Bearer ") + kKey + "\r\nX-Injected: 1"}};
  const auto reply = client.post(r);
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message, "openai: the value of header Authorization contains a line break or a NUL");
  EXPECT_EQ(provider.connections_accepted(), 0u);
}

TEST(HttpTransport, RefusesOtherProtocols) {
  Client client;
  const auto reply = client.post(HttpRequest{"file:///etc/passwd", {}, "{}"});
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, StartsWith("openai: request failed: "));
  EXPECT_TRUE(client.notices.empty());
}

TEST(HttpTransport, RetryableStatuses) {
  for (long status : {408, 409, 429, 500, 502, 503, 504, 529}) EXPECT_TRUE(retryable_status(status)) << status;
  for (long status : {200, 301, 400, 401, 403, 404, 413, 422, 501, 505}) {
    EXPECT_FALSE(retryable_status(status)) << status;
  }
}

std::chrono::system_clock::time_point at(int y, unsigned m, unsigned d, int h, int min, int s) {
  using namespace std::chrono;
  return sys_days(year(y) / month(m) / day(d)) + hours(h) + minutes(min) + seconds(s);
}

TEST(RetryAfter, ReadsSecondsMillisecondsAndDates) {
  const auto now = at(2015, 10, 21, 7, 27, 58);
  EXPECT_EQ(retry_after({{"retry-after", "1"}}, now), milliseconds(1000));
  EXPECT_EQ(retry_after({{"retry-after", " 30 "}}, now), milliseconds(30'000));
  EXPECT_EQ(retry_after({{"retry-after", "0"}}, now), milliseconds(0));
  EXPECT_EQ(retry_after({{"retry-after-ms", "50"}}, now), milliseconds(50));
  EXPECT_EQ(retry_after({{"retry-after-ms", "12.5"}}, now), milliseconds(13));
  // retry-after-ms is the more precise of the two.
  EXPECT_EQ(retry_after({{"retry-after", "3"}, {"retry-after-ms", "250"}}, now), milliseconds(250));
  EXPECT_EQ(retry_after({{"Retry-After", "2"}}, now), milliseconds(2000));
  EXPECT_EQ(retry_after({{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}}, now), milliseconds(2000));
  EXPECT_EQ(retry_after({{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}}, now + milliseconds(500)),
            milliseconds(1500));
  EXPECT_EQ(retry_after({{"retry-after", "Thu, 01 Jan 1970 00:00:00 GMT"}}, now), milliseconds(0));
}

TEST(RetryAfter, CapsAbsurdValues) {
  const auto now = at(2015, 10, 21, 7, 27, 58);
  const auto day = std::chrono::duration_cast<milliseconds>(std::chrono::hours(24));
  EXPECT_EQ(retry_after({{"retry-after", "99999999999999999999999"}}, now), day);
  EXPECT_EQ(retry_after({{"retry-after-ms", "1e300"}}, now), day);
  EXPECT_EQ(retry_after({{"retry-after", "Fri, 01 Jan 9999 00:00:00 GMT"}}, now), day);
}

TEST(RetryAfter, IgnoresWhatItCannotRead) {
  const auto now = at(2015, 10, 21, 7, 27, 58);
  EXPECT_EQ(retry_after({}, now), std::nullopt);
  EXPECT_EQ(retry_after({{"x-other", "1"}}, now), std::nullopt);
  for (const char* value :
       {"", "soon", "-1", "1.5", "0x10", "Wed, 21 Oct 2015 07:28:00", "Wed, 32 Oct 2015 07:28:00 GMT",
        "Wed, 21 Foo 2015 07:28:00 GMT", "Wed, 21 Oct 2015 25:28:00 GMT", "Wed, 21 Oct 2015 07:28:00 GMT trailing"}) {
    EXPECT_EQ(retry_after({{"retry-after", value}}, now), std::nullopt) << value;
  }
  // An unreadable retry-after-ms falls back to retry-after.
  EXPECT_EQ(retry_after({{"retry-after-ms", "later"}, {"retry-after", "2"}}, now), milliseconds(2000));
  EXPECT_EQ(retry_after({{"retry-after-ms", "-5"}}, now), std::nullopt);
  EXPECT_EQ(retry_after({{"retry-after-ms", "nan"}}, now), std::nullopt);
}

}  // namespace
}  // namespace ptc::agent::detail
