// The JSON forms of the Commands calls: option objects, bus and registry references, permissions.
#include <string>

#include <gtest/gtest.h>

#include "api_options.hpp"

namespace {

using nlohmann::json;
using namespace ptc::commands;

TEST(ApiOptions, KnownOptionsAreFoundUnderEitherSpelling) {
  const json options = json::parse(R"({":bus": "b", "registry": "r", ":invocation_id": "i", "permissions": {}})");
  auto read = read_options(options, {"bus", "registry", "invocation_id", "permissions"}, "invoke");
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_NE(read->bus, nullptr);
  EXPECT_EQ(*read->bus, "b");
  ASSERT_NE(read->registry, nullptr);
  EXPECT_EQ(*read->registry, "r");
  ASSERT_NE(read->invocation_id, nullptr);
  EXPECT_EQ(*read->invocation_id, "i");
  ASSERT_NE(read->permissions, nullptr);
  EXPECT_EQ(*read->permissions, json::object());
}

TEST(ApiOptions, AbsentOptionsStayNull) {
  auto read = read_options(json::object(), {"bus", "registry"}, "invoke");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->bus, nullptr);
  EXPECT_EQ(read->registry, nullptr);
  EXPECT_EQ(read->invocation_id, nullptr);
  EXPECT_EQ(read->permissions, nullptr);
}

TEST(ApiOptions, OptionsMustBeAnObject) {
  for (const auto& [value, type] : {std::pair{json::array(), "list"}, std::pair{json(nullptr), "null"},
                                    std::pair{json("bus"), "string"}, std::pair{json(3), "integer"}}) {
    auto read = read_options(value, {"bus"}, "dispatch");
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().message, std::string("invalid dispatch options: must be an object, got ") + type);
  }
}

TEST(ApiOptions, AnUnknownKeyListsTheAllowedOnes) {
  auto one = read_options(json::parse(R"({"bus": "b"})"), {"registry"}, "list");
  ASSERT_FALSE(one);
  EXPECT_EQ(one.error().message, R"(invalid list options: unknown key "bus"; expected registry)");

  auto two = read_options(json::parse(R"({"registry": "r"})"), {"bus", "invocation_id"}, "dispatch");
  ASSERT_FALSE(two);
  EXPECT_EQ(two.error().message, R"(invalid dispatch options: unknown key "registry"; expected bus or invocation_id)");

  // An option allowed to another call is unknown to this one, and the key is shown as written.
  auto four =
      read_options(json::parse(R"({":nope": 1})"), {"bus", "registry", "invocation_id", "permissions"}, "invoke");
  ASSERT_FALSE(four);
  EXPECT_EQ(four.error().message,
            R"(invalid invoke options: unknown key ":nope"; expected bus, registry, invocation_id or permissions)");
}

TEST(ApiOptions, BothSpellingsOfOneOptionConflict) {
  auto read = read_options(json::parse(R"({"bus": "a", ":bus": "b"})"), {"bus"}, "invoke");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message, R"(invalid invoke options: conflicting keys ":bus" and "bus")");
}

TEST(ApiOptions, AReferenceNamesTheOneThereIs) {
  EXPECT_EQ(check_reference(json("main"), "main", "bus", "bus"), std::nullopt);
  EXPECT_EQ(check_reference(json("  :main\t"), "main", "bus", "bus"), std::nullopt);
  EXPECT_EQ(check_reference(json("other"), "main", "bus", "context.bus"),
            "context.bus: unknown bus 'other'; this runtime's is 'main'");
  // Only one ':' is dropped.
  EXPECT_EQ(check_reference(json("::main"), "main", "bus", "bus"),
            "bus: unknown bus ':main'; this runtime's is 'main'");
}

TEST(ApiOptions, AReferenceMustBeANonEmptyString) {
  for (const json& value : {json(""), json("   "), json(":"), json(" : "), json(nullptr), json(1),
                            json::array({"main"}), json::object({{"name", "main"}})})
    EXPECT_EQ(check_reference(value, "main", "registry", "registry"),
              "registry: must name a registry (a non-empty string)")
        << value.dump();
}

TEST(ApiOptions, PermissionsAreTrimmedDedupedListsUnderEitherSpelling) {
  auto read = permissions_from_json(
      json::parse(R"j({"allow": [" Bash(ls:*) ", "Bash(ls:*)", "", "Read"], ":deny": ["Bash(rm:*)"], "ask": []})j"),
      "permissions");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->allow, (std::vector<std::string>{"Bash(ls:*)", "Read"}));
  EXPECT_EQ(read->deny, (std::vector<std::string>{"Bash(rm:*)"}));
  EXPECT_TRUE(read->ask.empty());

  auto empty = permissions_from_json(json::object(), "permissions");
  ASSERT_TRUE(empty);
  EXPECT_EQ(*empty, ptc::Permissions{});
}

TEST(ApiOptions, PermissionsRefuseWhatIsNotAListOfStrings) {
  const auto error = [](const char* text) {
    auto read = permissions_from_json(json::parse(text), "context.permissions");
    return read ? std::string("accepted") : read.error().message;
  };
  EXPECT_EQ(error(R"([])"), "context.permissions: must be an object with allow, deny and ask lists");
  EXPECT_EQ(error(R"(null)"), "context.permissions: must be an object with allow, deny and ask lists");
  EXPECT_EQ(error(R"({"allow": null})"), "context.permissions.allow: must be a list of strings, got null");
  EXPECT_EQ(error(R"({"deny": false})"), "context.permissions.deny: must be a list of strings, got boolean");
  EXPECT_EQ(error(R"({"ask": "Bash"})"), "context.permissions.ask: must be a list of strings, got string");
  EXPECT_EQ(error(R"({":allow": ["a", 1]})"), "context.permissions.allow[1]: must be a string");
  EXPECT_EQ(error(R"({"allow": [["a"]]})"), "context.permissions.allow[0]: must be a string");
  EXPECT_EQ(error(R"({"everything": []})"), "context.permissions.everything: unknown key; expected allow, deny or ask");
  EXPECT_EQ(error(R"({":x y": []})"), R"(context.permissions[":x y"]: unknown key; expected allow, deny or ask)");
  EXPECT_EQ(error(R"({"allow": [], ":allow": []})"), R"(context.permissions: conflicting keys ":allow" and "allow")");
}

}  // namespace
