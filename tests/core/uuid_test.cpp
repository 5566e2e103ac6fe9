// ptc::make_uuid.
#include <regex>
#include <set>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include <ptc/uuid.hpp>

namespace {

const std::regex kUuidV4("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

TEST(MakeUuid, IsAVersion4UuidAndUniqueOverAThousandCalls) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = ptc::make_uuid();
    ASSERT_EQ(id.size(), 36u);
    ASSERT_TRUE(std::regex_match(id, kUuidV4)) << id;
    seen.insert(std::move(id));
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(MakeUuid, DiffersAcrossThreads) {
  std::string other;
  std::thread t([&] { other = ptc::make_uuid(); });
  t.join();
  EXPECT_TRUE(std::regex_match(other, kUuidV4)) << other;
  EXPECT_NE(other, ptc::make_uuid());
}

}  // namespace
