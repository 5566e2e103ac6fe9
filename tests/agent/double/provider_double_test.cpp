// The provider double on its own terms, driven by the agent's transport: what the other agent tests
// rely on it for.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "provider_double.hpp"
#include "transport/http_transport.hpp"

namespace {

using ptc::agent::detail::HttpReply;
using ptc::agent::detail::HttpRequest;
using ptc::agent::detail::HttpTransport;
using ptc::agent::detail::TransportOptions;
using ptc_test::ProviderDouble;
using ptc_test::RecordedRequest;
using ptc_test::Reply;
using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;
using ::testing::HasSubstr;

TransportOptions no_retries() {
  TransportOptions o;
  o.provider = "test";
  o.max_retries = 0;
  o.total_timeout = milliseconds(10'000);
  return o;
}

ptc::Result<HttpReply> post(HttpTransport& transport, const std::string& base_url, const std::string& path,
                            std::string body = "{}") {
  return transport.post(HttpRequest{base_url + path, {{"X-Test", "1"}}, std::move(body)}, nullptr, nullptr, nullptr);
}

ptc::Result<HttpReply> post(HttpTransport& transport, const ProviderDouble& provider, const std::string& path,
                            std::string body = "{}") {
  return post(transport, provider.base_url(), path, std::move(body));
}

TEST(ProviderDouble, AnswersInOrderAndRecordsTheRequests) {
  ProviderDouble provider;
  EXPECT_THAT(provider.base_url(), ::testing::StartsWith("http://127.0.0.1:"));
  provider.push(Reply::json(200, R"({"n":1})"));
  provider.push(Reply::json(201, R"({"n":2})").header("x-extra", "yes"));
  EXPECT_EQ(provider.unused_replies(), 2u);
  HttpTransport transport(no_retries());
  auto first = post(transport, provider, "/a?x=1", R"({"q":1})");
  auto second = post(transport, provider, "/b");
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(first->body, R"({"n":1})");
  EXPECT_EQ(second->status, 201);
  EXPECT_EQ(provider.unused_replies(), 0u);
  const auto requests = provider.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].target, "/a?x=1");
  EXPECT_EQ(requests[0].body, R"({"q":1})");
  EXPECT_EQ(requests[0].header("x-test"), "1");
  EXPECT_EQ(requests[0].connection, 1u);
  EXPECT_EQ(requests[1].target, "/b");
  EXPECT_EQ(requests[1].connection, 1u);
  EXPECT_EQ(provider.connections_accepted(), 1u);
}

TEST(ProviderDouble, SaysSoWhenTheScriptRunsOut) {
  ProviderDouble provider;
  HttpTransport transport(no_retries());
  auto reply = post(transport, provider, "/x");
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 500);
  EXPECT_THAT(reply->body, HasSubstr("no scripted reply left for request 1"));
}

TEST(ProviderDouble, AHandlerAnswersWhatTheScriptDoesNot) {
  ProviderDouble provider;
  provider.push(Reply::json(200, "scripted"));
  provider.set_handler([](const RecordedRequest& r) { return Reply::json(200, "echo " + r.body); });
  HttpTransport transport(no_retries());
  EXPECT_EQ(post(transport, provider, "/x", "one")->body, "scripted");
  EXPECT_EQ(post(transport, provider, "/x", "two")->body, "echo two");
}

TEST(ProviderDouble, SendsChunksAsTheyAreScripted) {
  ProviderDouble provider;
  provider.push(Reply::sse({"data: a\n\n", "", "data: b\n\n"}));
  Reply whole;
  whole.body = "in one chunk";
  whole.chunked = true;
  provider.push(whole);
  HttpTransport transport(no_retries());
  std::string received;
  auto reply = transport.post(
      HttpRequest{provider.base_url() + "/s", {}, "{}"},
      [&](std::string_view bytes) {
        received.append(bytes);
        return true;
      },
      nullptr, nullptr);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(received, "data: a\n\ndata: b\n\n");
  auto second = post(transport, provider, "/w");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->body, "in one chunk");
  EXPECT_EQ(provider.connections_accepted(), 1u);
}

TEST(ProviderDouble, WaitsTheScriptedDelay) {
  ProviderDouble provider;
  Reply slow = Reply::json(200, "{}");
  slow.delay = milliseconds(200);
  provider.push(slow);
  HttpTransport transport(no_retries());
  const auto start = Clock::now();
  ASSERT_TRUE(post(transport, provider, "/x"));
  EXPECT_GE(Clock::now() - start, milliseconds(200));
}

TEST(ProviderDouble, StopsPromptlyWithSilentConnectionsOpen) {
  auto provider = std::make_unique<ProviderDouble>();
  Reply silent;
  silent.never_answer = true;
  provider->push(silent);
  Reply slow = Reply::sse({"data: a\n\n", "data: b\n\n"});
  slow.delay_between_chunks = milliseconds(60'000);
  provider->push(slow);
  const std::string url = provider->base_url();
  std::optional<ptc::Result<HttpReply>> first, second;
  std::thread a([&] {
    HttpTransport transport(no_retries());
    first = post(transport, url, "/silent");
  });
  ASSERT_TRUE(provider->wait_for_requests(1, milliseconds(5'000)));
  std::thread b([&] {
    HttpTransport transport(no_retries());
    second = post(transport, url, "/slow");
  });
  ASSERT_TRUE(provider->wait_for_requests(2, milliseconds(5'000)));
  const auto start = Clock::now();
  provider.reset();
  EXPECT_LT(Clock::now() - start, milliseconds(1'000));
  a.join();
  b.join();
  // The clients see their connections dropped.
  ASSERT_TRUE(first.has_value() && second.has_value());
  EXPECT_FALSE(*first);
  EXPECT_FALSE(*second);
}

TEST(ProviderDouble, WaitForRequestsTimesOut) {
  ProviderDouble provider;
  const auto start = Clock::now();
  EXPECT_FALSE(provider.wait_for_requests(1, milliseconds(50)));
  EXPECT_GE(Clock::now() - start, milliseconds(50));
}

}  // namespace
