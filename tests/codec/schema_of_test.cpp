// ptc::codec::SchemaOf of the standard types: the schemas of docs/codecs.md, "Types", as ptc-gen writes
// them in signatures (tests/generator/golden/impl/answers_test.cpp holds both to each other field by
// field, through clang), built once and shared.

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/codec.hpp>
#include <ptc/signature.hpp>
#include <ptc/validate.hpp>

namespace {

using ptc::codec::schema_of;
using ptc::codec::SchemaOf;

template <class T>
std::string shorthand() {
  return ptc::render(schema_of<T>());
}
template <class T>
std::string malli() {
  return ptc::to_malli(schema_of<T>());
}

template <class T>
concept HasSchema = requires {
  SchemaOf<T>::get();
};

template <class T>
struct OtherAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = OtherAllocator<U>;
  };
};

TEST(SchemaOf, Scalars) {
  EXPECT_EQ((shorthand<std::string>()), ":string");
  EXPECT_EQ((shorthand<bool>()), ":bool");
  EXPECT_EQ((shorthand<float>()), ":float");
  EXPECT_EQ((shorthand<double>()), ":float");
  EXPECT_EQ((shorthand<long double>()), ":float");
  EXPECT_EQ((shorthand<nlohmann::json>()), ":any");
  EXPECT_EQ((shorthand<std::monostate>()), ":nil");
}

// Integers narrower than 32 bits carry their range; wider unsigned ones are >= 0 (coercion.hpp,
// kRangeInSchemaBelowBits).
TEST(SchemaOf, IntegersAsPtcGenMapsThem) {
  EXPECT_EQ((malli<int>()), ":int");
  EXPECT_EQ((malli<std::int64_t>()), ":int");
  EXPECT_EQ((malli<long long>()), ":int");
  EXPECT_EQ((malli<std::int8_t>()), "[:and :int [:>= -128] [:<= 127]]");
  EXPECT_EQ((malli<std::uint8_t>()), "[:and :int [:>= 0] [:<= 255]]");
  EXPECT_EQ((malli<std::int16_t>()), "[:and :int [:>= -32768] [:<= 32767]]");
  EXPECT_EQ((malli<std::uint16_t>()), "[:and :int [:>= 0] [:<= 65535]]");
  EXPECT_EQ((malli<std::uint32_t>()), "[:and :int [:>= 0]]");
  EXPECT_EQ((malli<std::uint64_t>()), "[:and :int [:>= 0]]");
  EXPECT_EQ((shorthand<std::uint8_t>()), ":int[0..255]");
}

TEST(SchemaOf, Containers) {
  EXPECT_EQ((shorthand<std::vector<std::optional<int>>>()), "[:int?]");
  EXPECT_EQ((shorthand<std::vector<std::string>>()), "[:string]");
  EXPECT_EQ((shorthand<std::list<bool>>()), "[:bool]");
  EXPECT_EQ((shorthand<std::deque<double>>()), "[:float]");
  EXPECT_EQ((malli<std::array<int, 3>>()), "[:vector {:min 3 :max 3} :int]");
  EXPECT_EQ((malli<std::set<std::string>>()), "[:set :string]");
  EXPECT_EQ((malli<std::unordered_set<int>>()), "[:set :int]");
  EXPECT_EQ((malli<std::map<std::string, int>>()), "[:map-of :string :int]");
  EXPECT_EQ((malli<std::unordered_map<std::string, std::vector<int>>>()), "[:map-of :string [:vector :int]]");
  EXPECT_EQ((malli<std::vector<std::vector<std::string>>>()), "[:vector [:vector :string]]");
}

TEST(SchemaOf, WrappersAndUnions) {
  EXPECT_EQ((malli<std::optional<std::string>>()), "[:maybe :string]");
  EXPECT_EQ((malli<std::unique_ptr<int>>()), "[:maybe :int]");
  EXPECT_EQ((malli<std::shared_ptr<std::vector<int>>>()), "[:maybe [:vector :int]]");
  EXPECT_EQ((malli<std::variant<std::monostate, int, std::string>>()), "[:or :nil :int :string]");
  EXPECT_EQ((malli<std::pair<int, std::string>>()), "[:tuple :int :string]");
  EXPECT_EQ((malli<std::tuple<bool, double, std::string>>()), "[:tuple :boolean :double :string]");
}

TEST(SchemaOf, TimeTypes) {
  EXPECT_EQ((malli<std::chrono::system_clock::time_point>()), "[:string {:format \"date-time\"}]");
  EXPECT_EQ((malli<std::chrono::sys_seconds>()), "[:string {:format \"date-time\"}]");
  EXPECT_EQ((malli<std::chrono::year_month_day>()), "[:string {:format \"date\"}]");
  EXPECT_EQ((shorthand<std::chrono::year_month_day>()), ":string");
  // A duration is its count.
  EXPECT_EQ((malli<std::chrono::milliseconds>()), ":int");
  EXPECT_EQ((malli<std::chrono::duration<std::uint8_t>>()), "[:and :int [:>= 0] [:<= 255]]");
}

#if defined(__cpp_lib_expected)
TEST(SchemaOf, ExpectedIsAResultWithAnOptionalError) {
  EXPECT_EQ((shorthand<std::expected<int, std::string>>()), "{result :int, error :string?}");
  EXPECT_EQ((shorthand<std::expected<void, std::string>>()), "{result :nil, error :string?}");
}
#endif

// What ptc-gen maps to nothing has no schema either: the same types fail to compile.
TEST(SchemaOf, TypesPtcDoesNotMapHaveNone) {
  static_assert(HasSchema<std::vector<std::map<std::string, std::optional<double>>>>);
  static_assert(!HasSchema<char>);
  static_assert(!HasSchema<wchar_t>);
  static_assert(!HasSchema<const char*>);
  static_assert(!HasSchema<int*>);
  static_assert(!HasSchema<std::map<int, int>>);
  static_assert(!HasSchema<std::vector<int, OtherAllocator<int>>>);
  static_assert(!HasSchema<std::chrono::duration<double>>);
  static_assert(!HasSchema<std::chrono::steady_clock::time_point>);
  enum class NotGenerated { a };
  static_assert(!HasSchema<NotGenerated>);
}

TEST(SchemaOf, BuiltOnceAndShared) {
  using T = std::map<std::string, std::vector<std::tuple<int, std::string>>>;
  const ptc::Schema* first = nullptr;
  const ptc::Schema* second = nullptr;
  std::thread a([&] { first = &schema_of<T>(); });
  std::thread b([&] { second = &schema_of<T>(); });
  a.join();
  b.join();
  EXPECT_EQ(first, second);
  EXPECT_EQ(first, &SchemaOf<T>::get());
}

// The schema checks what the codec writes.
TEST(SchemaOf, ValidatesWhatTheCodecEncodes) {
  std::map<std::string, std::vector<std::optional<std::uint8_t>>> value{{"a", {1, std::nullopt, 255}}};
  const auto encoded = ptc::codec::to_json_value(value);
  EXPECT_TRUE(ptc::validate(schema_of<decltype(value)>(), encoded).ok);
  EXPECT_FALSE(ptc::validate(schema_of<decltype(value)>(), nlohmann::json::parse(R"({"a": [256]})")).ok);
}

}  // namespace
