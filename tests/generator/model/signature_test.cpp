// signature_of: parameters (optional, defaults, docs, constraints), results per return style, and
// PTC_SIGNATURE accepted or rejected.

#include <gtest/gtest.h>

#include <ptc/signature.hpp>

#include "model/schema.hpp"
#include "model_fixture.hpp"

namespace ptcgen::test {
namespace {

ptc::Signature signature(const model::Tool& t, const model::HeaderModel& h = shop_model()) {
  auto s = model::signature_of(t, h);
  EXPECT_TRUE(s) << s.error().message;
  return s ? *s : ptc::Signature{};
}

TEST(SignatureOf, ParamsKeepDocsDefaultsAndConstraints) {
  const auto h = shop_model();
  const auto s = signature(h.tools[0], h);
  EXPECT_EQ(s.render(),
            "(query :string, limit :int[1..50]?) -> [{id :int, title [:and :string [:re \"^[A-Z]\"]], assignee "
            ":string?, _email :string}]");
  ASSERT_EQ(s.params().size(), 2u);
  EXPECT_EQ(s.params()[0].doc, "Words to look for");
  EXPECT_FALSE(s.params()[0].optional);
  EXPECT_TRUE(s.params()[1].optional);
  ASSERT_TRUE(s.params()[1].has_default());
  EXPECT_EQ(*s.params()[1].default_value, 10);
  EXPECT_EQ(s.params()[1].doc, "How many at most");
}

TEST(SignatureOf, TheContextIsNotAParameter) {
  const auto h = shop_model();
  EXPECT_EQ(signature(h.tools[1], h).render(),
            "(issue {id :int, title [:and :string [:re \"^[A-Z]\"]], assignee :string?, _email :string}, "
            "priority :enum[\"low\" \"high\"]) -> {id :int, title [:and :string [:re \"^[A-Z]\"]], assignee :string?, "
            "_email :string}");
}

TEST(SignatureOf, ReturnStyles) {
  const auto h = shop_model();
  EXPECT_EQ(signature(h.tools[2], h).render(), "() -> :int[>=0]");
  EXPECT_EQ(signature(h.tools[3], h).render(), "() -> :nil");

  auto wrapped = tool("wrapped", "ToolResult<T>.", "::f", {}, string_type());
  wrapped.return_style = model::ReturnStyle::ToolResult;
  EXPECT_EQ(signature(wrapped).render(), "() -> :string");

  auto expected = tool("expected", "std::expected<T, E>.", "::f", {},
                       type(TypeKind::Expected, "std::expected<int, std::string>", {int_type(), string_type()}));
  expected.return_style = model::ReturnStyle::Expected;
  EXPECT_EQ(signature(expected).render(), "() -> {result :int, error :string?}");
  expected.result = int_type();
  EXPECT_EQ(model::signature_of(expected, shop_model()).error().message,
            "tool 'expected': result: the result type int is not a std::expected");
}

TEST(SignatureOf, OptionalTypesAndNullDefaults) {
  auto p = param("since", optional_of(string_type()));
  p.default_value = model::Default{nullptr, "std::nullopt"};
  const auto s = signature(tool("t", "d", "::f", {p, param("n", optional_of(int_type()))}, void_type()));
  EXPECT_EQ(s.render(), "(since :string?, n :int?) -> :nil");
  EXPECT_FALSE(s.params()[0].has_default());
  EXPECT_TRUE(s.params()[1].optional);
}

TEST(SignatureOf, DefaultsMustMatchTheType) {
  auto p = param("n", int_type());
  p.default_value = model::Default{"ten", "\"ten\""};
  auto s = model::signature_of(tool("t", "d", "::f", {p}, void_type()), shop_model());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message,
            "tool 't': parameter 'n': the default \"ten\" does not match :int: expected int, got string \"ten\"");
}

TEST(SignatureOf, ConstraintErrorsNameToolAndParameter) {
  auto p = param("q", string_type());
  p.constraints.min = 0;
  auto s = model::signature_of(tool("t", "d", "::f", {p}, void_type()), shop_model());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "tool 't': parameter 'q': PTC_RANGE refines numbers, not :string");
}

model::Tool search_with(std::string explicit_signature) {
  auto t = shop_model().tools[0];
  t.explicit_signature = std::move(explicit_signature);
  return t;
}

TEST(ExplicitSignature, AcceptedRenamesParamsAndAddsRefinements) {
  const auto h = shop_model();
  const auto t = search_with(
      R"((text [:and :string [:re "\\S"]], max :int[<=20]?) -> [{id :int[>0], title :string, assignee :string?, _email :string}])");
  EXPECT_TRUE(model::check_explicit_signature(t, h).empty());
  const auto s = signature(t, h);
  ASSERT_EQ(s.params().size(), 2u);
  EXPECT_EQ(s.params()[0].name, "text");
  EXPECT_EQ(s.params()[1].name, "max");
  // Docs and defaults come from the declaration; refinements from both, the tighter bound winning.
  EXPECT_EQ(s.params()[0].doc, "Words to look for");
  EXPECT_EQ(*s.params()[1].default_value, 10);
  EXPECT_EQ(ptc::to_malli(s.params()[0].schema), R"([:and :string [:re "\\S"]])");
  EXPECT_EQ(ptc::to_malli(s.params()[1].schema), "[:maybe [:and :int [:>= 1] [:<= 20]]]");
  EXPECT_EQ(
      ptc::to_malli(s.output()),
      R"([:vector [:map [:id {:doc "Tracker-wide id"} [:and :int [:> 0]]] [:title [:and :string [:re "^[A-Z]"]]] )"
      R"([:assignee {:optional true} [:maybe :string]] [:_email :string]]])");
}

TEST(ExplicitSignature, TypeMismatchNamesToolParameterAndBothTypes) {
  auto t = shop_model().tools[0];
  t.params[1].default_value.reset();
  t.params[1].constraints = {};
  t.explicit_signature = "(query :string, limit :string) -> [:any]";
  const auto errors = model::check_explicit_signature(t, shop_model());
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0],
            "PTC_SIGNATURE of tool 'search': parameter 'limit' is :string there but the C++ type int maps to :int");
  EXPECT_EQ(
      errors[1],
      "PTC_SIGNATURE of tool 'search': the result is [:any] there but the C++ type std::vector<::shop::Issue> maps to "
      "[{id :int, title [:and :string [:re \"^[A-Z]\"]], assignee :string?, _email :string}]");
  EXPECT_EQ(model::signature_of(t, shop_model()).error().message, errors[0]);
}

TEST(ExplicitSignature, Rejections) {
  const auto h = shop_model();
  auto first = [&](std::string sig) {
    const auto errors = model::check_explicit_signature(search_with(std::move(sig)), h);
    return errors.empty() ? std::string("(accepted)") : errors.front();
  };
  EXPECT_EQ(first("(query :string) -> :nil"),
            "PTC_SIGNATURE of tool 'search' has 1 parameter but the C++ function has 2 (query, limit)");
  EXPECT_EQ(first("(query :string, limit :int) -> [{id :int, title :string, assignee :string?, _email :string}]"),
            "PTC_SIGNATURE of tool 'search': parameter 'limit' is required there but optional in C++ (it has a default "
            "value)");
  EXPECT_EQ(first("(query :string?, n :int?) -> :nil"),
            "PTC_SIGNATURE of tool 'search': parameter 'query' is optional there but required in C++");
  EXPECT_EQ(first("(query :int, n :int?) -> :nil"),
            "PTC_SIGNATURE of tool 'search': parameter 'query' is :int there but the C++ type std::string_view maps to "
            ":string");
  EXPECT_EQ(first("(query :string, n :float?) -> :nil"),
            "PTC_SIGNATURE of tool 'search': parameter 'limit' (named 'n' there) is :float? there but the C++ type int "
            "maps to :int[1..50]?");
  EXPECT_EQ(first("(query :string, limit :int?"),
            "PTC_SIGNATURE of tool 'search' does not parse: " +
                ptc::Signature::parse("(query :string, limit :int?").error().to_string());
}

TEST(ExplicitSignature, RefinementsInsideAParameterTypeAreRejected) {
  auto t = tool("sum", "Adds numbers.", "::sum", {param("xs", vector_of(int_type()))}, int_type());
  t.explicit_signature = "(xs [:int[>0]]) -> :int";
  const auto errors = model::check_explicit_signature(t, shop_model());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "PTC_SIGNATURE of tool 'sum': parameter 'xs' refines a type inside [:int[>0]]; only the parameter's own "
            "type can be refined there (PTC_RANGE and PTC_PATTERN refine struct fields)");
  t.explicit_signature = "(xs [:int]) -> :int[>=0]";
  EXPECT_TRUE(model::check_explicit_signature(t, shop_model()).empty());
  // Refinements the C++ struct fields already have may be repeated inside.
  t = shop_model().tools[1];
  t.explicit_signature = R"((issue {id :int, title [:and :string [:re "^[A-Z]"]], assignee :string?, _email :string}, )"
                         R"(priority :enum[low high]) -> :any)";
  EXPECT_EQ(
      model::check_explicit_signature(t, shop_model()).front().rfind("PTC_SIGNATURE of tool 'create': the result", 0),
      0u);
  t.explicit_signature =
      R"((issue {id :int[>0], title :string, assignee :string?, _email :string}, priority :enum[low high]) -> :any)";
  EXPECT_EQ(model::check_explicit_signature(t, shop_model())
                .front()
                .rfind("PTC_SIGNATURE of tool 'create': parameter 'issue' refines a type inside", 0),
            0u);
  t = tool("sum", "Adds numbers.", "::sum", {param("xs", vector_of(int_type()))}, int_type());
  t.explicit_signature = "(xs [:int]) -> :int[>=0]";
  EXPECT_TRUE(model::check_explicit_signature(t, shop_model()).empty());
  EXPECT_EQ(signature(t).render(), "(xs [:int]) -> :int[>=0]");
}

TEST(ExplicitSignature, CountsLeaveOutTheContext) {
  const auto h = shop_model();
  auto t = h.tools[1];
  t.explicit_signature = "(issue :any) -> :any";
  EXPECT_EQ(model::check_explicit_signature(t, h).front(),
            "PTC_SIGNATURE of tool 'create' has 1 parameter but the C++ function has 2 (issue, priority), not counting "
            "its ptc::ToolContext&");
}

TEST(ExplicitSignature, NoneIsNothingToCheck) {
  EXPECT_TRUE(model::check_explicit_signature(shop_model().tools[0], shop_model()).empty());
}

}  // namespace
}  // namespace ptcgen::test
