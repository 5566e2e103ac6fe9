// The channels a handler asks its client through: 2025's requests on the call's stream (each question
// sent, its answer awaited) and 2026-07-28's round trips (answers found, the rest asked by input_required).
#include <chrono>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/session.hpp>

#include "client_channels.hpp"
#include "protocol.hpp"

namespace {

using nlohmann::json;
using ptc::mcp::Client;
using ptc::mcp::StreamChannel;

struct Stream {
  std::shared_ptr<Client> client = std::make_shared<Client>(std::make_shared<ptc::Session>());
  std::shared_ptr<ptc::Cancellation> cancellation = std::make_shared<ptc::Cancellation>();
  std::vector<json> sent;
  StreamChannel channel{client, [this](const auto& message) { sent.push_back(json::parse(message.dump())); },
                        cancellation, std::chrono::milliseconds(200)};
};

TEST(StreamChannel, ACancelledCallAsksNothingMore) {
  Stream s;
  s.cancellation->cancel("the client went away");
  auto answers = s.channel.ask({{"name", "elicitation/create", json{{"message", "Your name?"}}}});
  ASSERT_FALSE(answers);
  EXPECT_EQ(answers.error().message, "The call was cancelled before it asked the client.");
  EXPECT_TRUE(s.sent.empty());
}

TEST(StreamChannel, EveryQuestionGoesOutBeforeAnyAnswerIsAwaited) {
  Stream s;
  auto answers = s.channel.ask({{"a", "roots/list", json::object()}, {"b", "roots/list", json::object()}});
  ASSERT_FALSE(answers);  // nobody answers within 200 ms
  EXPECT_EQ(answers.error().message, "The client did not answer in time.");
  ASSERT_EQ(s.sent.size(), 2u);
  EXPECT_EQ(s.sent[0]["method"], "roots/list");
  EXPECT_NE(s.sent[0]["id"], s.sent[1]["id"]);
}

}  // namespace
