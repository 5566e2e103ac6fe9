// ptc::make_uuid, ptc::assign_uuid and ptc::make_secret_uuid.
#include <array>
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

TEST(AssignUuid, WritesANewUuidOverWhateverTheStringHeldInItsBuffer) {
  std::string id = "something longer than a uuid, which the string keeps room for";
  const auto capacity = id.capacity();
  const char* buffer = id.data();
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    ptc::assign_uuid(id);
    ASSERT_EQ(id.size(), 36u);
    ASSERT_TRUE(std::regex_match(id, kUuidV4)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(id.capacity(), capacity);  // written in place: no new buffer per id
  EXPECT_EQ(id.data(), buffer);
}

TEST(MakeSecretUuid, IsAVersion4UuidAndUniqueOverAThousandCalls) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = ptc::make_secret_uuid();
    ASSERT_TRUE(std::regex_match(id, kUuidV4)) << id;
    seen.insert(std::move(id));
  }
  EXPECT_EQ(seen.size(), 1000u);
}

// Every random bit varies: over 1000 ids each of the 122 random bits is set at least once and clear at
// least once (a bit stuck either way would be missed with probability 2^-999).
TEST(MakeSecretUuid, EveryRandomBitVaries) {
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  std::array<int, 128> set{};
  for (int i = 0; i < 1000; ++i) {
    std::string id = ptc::make_secret_uuid();
    std::erase(id, '-');
    for (std::size_t b = 0; b < 128; ++b) set[b] += (nibble(id[b / 4]) >> (3 - b % 4)) & 1;
  }
  for (std::size_t b = 0; b < 128; ++b) {
    const bool fixed = (b >= 48 && b < 52) || b == 64 || b == 65;  // version 0100, variant 10
    if (!fixed) {
      EXPECT_TRUE(set[b] > 0 && set[b] < 1000) << "bit " << b << " set " << set[b] << " times";
    }
  }
}

TEST(MakeUuid, DiffersAcrossThreads) {
  std::string other;
  std::thread t([&] { other = ptc::make_uuid(); });
  t.join();
  EXPECT_TRUE(std::regex_match(other, kUuidV4)) << other;
  EXPECT_NE(other, ptc::make_uuid());
}

}  // namespace
