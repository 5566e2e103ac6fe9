// Generated invokers (ptc::codec::make_invoker) through ToolRegistry::dispatch: arguments as text take
// the invoker's text path, and every outcome matches what a make_tool tool over the same signature
// reports, in every mode.

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/codec/invoker.hpp>
#include <ptc/error.hpp>
#include <ptc/events.hpp>
#include <ptc/json_input.hpp>
#include <ptc/policy.hpp>
#include <ptc/registry.hpp>
#include <ptc/schema.hpp>
#include <ptc/session.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_result.hpp>
#include <ptc/validate.hpp>

namespace shop {

enum class Status { open, closed };

struct Item {
  std::int64_t id = 0;
  std::string title;
  Status status = Status::open;
};

std::vector<Item> search(const std::string& query, std::int64_t limit, const std::optional<std::string>& cursor) {
  std::vector<Item> out;
  for (std::int64_t i = 1; i <= limit && i <= 2; ++i)
    out.push_back({i, query + (cursor ? " after " + *cursor : ""), Status::open});
  return out;
}

// One argument per parameter, as ptc-gen writes them.
struct search_args {
  std::string query;
  std::int64_t limit = 0;
  std::optional<std::string> cursor;
};

struct broken_args {
  std::int64_t n = 0;
};

// A result with a firewalled field: `token` reaches C++, the model sees "<Firewalled>".
struct Account {
  std::string name;
  std::string token;
};

// A function that takes ownership of what it is handed: the arguments cannot be copied for it.
struct owning_args {
  std::unique_ptr<std::string> note;
};

}  // namespace shop

namespace ptc::codec {
template <>
struct EnumTraits<::shop::Status> {
  static constexpr std::array<EnumEntry<::shop::Status>, 2> entries{
      {{"open", ::shop::Status::open}, {"closed", ::shop::Status::closed}}};
};
template <>
struct StructTraits<::shop::Item> {
  static constexpr std::array<FieldInfo, 3> fields{
      {{"id", false, false}, {"title", false, false}, {"status", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::Item& out) {
    switch (index) {
      case 0: return Codec<std::int64_t>::decode(d, v, out.id);
      case 1: return Codec<std::string>::decode(d, v, out.title);
      case 2: return Codec<::shop::Status>::decode(d, v, out.status);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::shop::Item& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::shop::Item& value) {
    w.key("id");
    Codec<std::int64_t>::encode(w, value.id);
    w.key("title");
    Codec<std::string>::encode(w, value.title);
    w.key("status");
    Codec<::shop::Status>::encode(w, value.status);
  }
};
template <>
struct StructTraits<::shop::search_args> {
  static constexpr std::array<FieldInfo, 3> fields{
      {{"query", false, false}, {"limit", false, true}, {"cursor", true, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::search_args& out) {
    static const Schema limit = parse_malli_type("[:and :int [:>= 1] [:<= 50]]").value();
    switch (index) {
      case 0: return Codec<std::string>::decode(d, v, out.query);
      case 1: return Codec<std::int64_t>::decode(d, v, out.limit) && check(d, limit, to_json_value(out.limit));
      case 2: return Codec<std::optional<std::string>>::decode(d, v, out.cursor);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::shop::search_args& out) {
    switch (index) {
      case 1: out.limit = 10; break;
    }
  }
  template <class W>
  static void encode_fields(W& w, const ::shop::search_args& value) {
    w.key("query");
    Codec<std::string>::encode(w, value.query);
    w.key("limit");
    Codec<std::int64_t>::encode(w, value.limit);
    w.key("cursor");
    Codec<std::optional<std::string>>::encode(w, value.cursor);
  }
};
template <>
struct StructTraits<::shop::broken_args> {
  static constexpr std::array<FieldInfo, 1> fields{{{"n", false, false}}};
  static bool decode_field(Decoder&, std::size_t, Value&, ::shop::broken_args&) {
    throw std::runtime_error("decoder broke");
  }
  static void fill_default(std::size_t index, ::shop::broken_args& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::shop::broken_args& value) {
    w.key("n");
    Codec<std::int64_t>::encode(w, value.n);
  }
};
template <>
struct StructTraits<::shop::Account> {
  static constexpr std::array<FieldInfo, 2> fields{{{"_token", false, false}, {"name", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::Account& out) {
    return index == 0 ? Codec<std::string>::decode(d, v, out.token) : Codec<std::string>::decode(d, v, out.name);
  }
  static void fill_default(std::size_t, ::shop::Account&) {}
  template <class W>
  static void encode_fields(W& w, const ::shop::Account& value) {
    w.key("_token");
    Codec<std::string>::encode(w, value.token);
    w.key("name");
    Codec<std::string>::encode(w, value.name);
  }
};
template <>
struct StructTraits<::shop::owning_args> {
  static constexpr std::array<FieldInfo, 1> fields{{{"note", false, false}}};
  static bool decode_field(Decoder& d, std::size_t, Value& v, ::shop::owning_args& out) {
    return Codec<std::unique_ptr<std::string>>::decode(d, v, out.note);
  }
  static void fill_default(std::size_t, ::shop::owning_args&) {}
  template <class W>
  static void encode_fields(W& w, const ::shop::owning_args& value) {
    w.key("note");
    Codec<std::unique_ptr<std::string>>::encode(w, value.note);
  }
};
}  // namespace ptc::codec

namespace {

using json = nlohmann::json;
using ptc::CallStatus;
using ptc::Issue;
using ptc::Mode;
using testing::ElementsAre;
using testing::IsEmpty;

constexpr const char* kSignature =
    "[:=> [:catn [:query :string] [:limit {:default 10} [:and :int [:>= 1] [:<= 50]]] [:cursor [:maybe :string]]] "
    "[:vector [:map [:id :int] [:title :string] [:status [:enum \"open\" \"closed\"]]]]]";

ptc::Signature signature() { return ptc::Signature::from_malli(kSignature).value(); }

class CodecInvoker : public ::testing::Test {
 protected:
  CodecInvoker() {
    ptc::ToolSpec spec;
    spec.name = "search";
    spec.description = "Find items.";
    spec.signature = signature();
    spec.invoker = ptc::codec::make_invoker<shop::search_args>([this](shop::search_args& a, ptc::ToolContext&) {
      ++runs;
      last = a;
      return ptc::codec::to_tool_result(shop::search(a.query, a.limit, a.cursor));
    });
    registry.add(ptc::Tool(std::move(spec)));
    // The same tool over JSON, checked by the runtime validator: the reference for every outcome.
    registry.add(ptc::make_tool("search_json", "Find items.", signature(), [](const json& args, ptc::ToolContext&) {
      std::optional<std::string> cursor;
      if (args.contains("cursor") && !args.at("cursor").is_null()) cursor = args.at("cursor").get<std::string>();
      return ptc::codec::to_tool_result(shop::search(args.at("query").get<std::string>(),
                                                     args.at("limit").get<std::int64_t>(), cursor));
    }));
    session.events().subscribe<ptc::ToolInvoked>([this](const ptc::ToolInvoked& e) { invoked.push_back(e); });
  }

  ptc::ToolOutcome call(const std::string& name, json arguments, Mode mode = Mode::Enabled) {
    ptc::DispatchOptions options;
    options.mode = mode;
    return registry.dispatch(session, ptc::ToolCall{"call_1", name, std::move(arguments)}, options);
  }

  template <class Args>
  void add(const std::string& name, const std::string& shorthand, typename ptc::codec::Invoker<Args>::Call run) {
    add<Args>(name, ptc::Signature::parse(shorthand).value(), std::move(run));
  }
  template <class Args>
  void add(const std::string& name, ptc::Signature signature, typename ptc::codec::Invoker<Args>::Call run) {
    ptc::ToolSpec spec;
    spec.name = name;
    spec.description = "A tool.";
    spec.signature = std::move(signature);
    spec.invoker = ptc::codec::make_invoker<Args>(std::move(run));
    registry.add(ptc::Tool(std::move(spec)));
  }

  ptc::ToolRegistry registry;
  ptc::Session session{"s-1"};
  std::vector<ptc::ToolInvoked> invoked;
  int runs = 0;
  shop::search_args last;
};

TEST_F(CodecInvoker, TheArgumentsAreTheDecodedOnesWhateverTheFunctionDoesWithThem) {
  // A function that changes what it was handed, as one taking its parameters by value does when the
  // generated call moves them in.
  add<shop::search_args>("changing", signature(), [](shop::search_args& a, ptc::ToolContext&) {
    const std::string taken = std::move(a.query);
    a.query = "changed by the call";
    a.cursor.reset();
    return ptc::codec::to_tool_result(shop::search(taken, 1, std::nullopt));
  });
  // Coerced ("2") and with an undeclared field: the arguments are the decoded ones, not the text given.
  const json expected = json::parse(R"({"query": "shoes", "limit": 2, "cursor": "c9"})");
  auto out = call("changing", json(R"({"query": "shoes", "limit": "2", "cursor": "c9", "extra": 1})"));
  ASSERT_EQ(out.status, CallStatus::Succeeded) << out.rendered;
  EXPECT_FALSE(out.arguments.materialized());  // nobody read them as JSON
  ASSERT_NE(out.arguments.text(), nullptr);
  EXPECT_EQ(*out.arguments.text(), expected.dump());
  ASSERT_TRUE(out.result.value);
  EXPECT_FALSE(out.result.value->materialized());  // nor the result: its text is the rendering
  EXPECT_EQ(out.result.value, json::parse(R"([{"id":1,"title":"shoes","status":"open"}])"));
  ASSERT_EQ(invoked.size(), 1u);
  EXPECT_EQ(invoked[0].params.text(), out.arguments.text());  // one text, shared
  EXPECT_EQ(invoked[0].params, expected);
}

TEST_F(CodecInvoker, AFunctionMayTakeOwnershipOfItsArguments) {
  const std::string note = "a note longer than a short string's buffer";
  const json expected = {{"note", note}};
  std::string taken;
  add<shop::owning_args>("owning", "(note :string?) -> :nil", [&](shop::owning_args& a, ptc::ToolContext&) {
    const std::unique_ptr<std::string> mine = std::move(a.note);
    taken = mine ? *mine : "(none)";
    return ptc::codec::void_result();
  });
  // Nobody reads the arguments before the call: their text is written after it, when the function
  // has taken what they held.
  auto out = call("owning", json(expected.dump()));
  ASSERT_EQ(out.status, CallStatus::Succeeded) << out.rendered;
  EXPECT_EQ(taken, note);
  ASSERT_NE(out.arguments.text(), nullptr);
  EXPECT_EQ(*out.arguments.text(), expected.dump());

  // A policy reads them before the call, the outcome after it: both see the decoded ones.
  struct Reader final : ptc::ToolPolicy {
    std::string_view name() const override { return "reader"; }
    ptc::PolicyDecision check(const ptc::Tool&, const json& params, ptc::ToolContext&) const override {
      seen->push_back(params);
      return ptc::PolicyDecision::allow();
    }
    std::vector<json>* seen = nullptr;
  };
  std::vector<json> seen;
  auto reader = std::make_shared<Reader>();
  reader->seen = &seen;
  registry.add_policy(reader);
  taken.clear();
  out = call("owning", json(expected.dump()));
  ASSERT_EQ(out.status, CallStatus::Succeeded) << out.rendered;
  EXPECT_EQ(taken, note);
  EXPECT_THAT(seen, ElementsAre(expected));
  EXPECT_EQ(out.arguments, expected);
}

TEST_F(CodecInvoker, TextArgumentsAreDecodedCoercedAndRun) {
  auto out = call("search", json(R"({"query": "shoes", "limit": "2", "extra": [1, 2]})"));
  ASSERT_EQ(out.status, CallStatus::Succeeded) << out.result.message;
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(last.query, "shoes");
  EXPECT_EQ(last.limit, 2);
  EXPECT_EQ(out.result.value,
            json::parse(R"([{"id":1,"title":"shoes","status":"open"},{"id":2,"title":"shoes","status":"open"}])"));
  EXPECT_EQ(out.rendered, R"([{"id":1,"status":"open","title":"shoes"},{"id":2,"status":"open","title":"shoes"}])");
  EXPECT_THAT(out.validation.warnings,
              ElementsAre(Issue{"limit", "coerced string \"2\" to int"}, Issue{"extra", "unexpected field (ignored)"}));
  // The decoded arguments: undeclared fields dropped, the absent optional one null.
  const json args = json::parse(R"({"query": "shoes", "limit": 2, "cursor": null})");
  EXPECT_EQ(out.arguments, args);
  EXPECT_TRUE(out.validation.value.is_null());  // the coerced arguments are out.arguments
  ASSERT_EQ(invoked.size(), 1u);
  EXPECT_EQ(invoked[0].params, args);
  EXPECT_EQ(invoked[0].status, CallStatus::Succeeded);
}

TEST_F(CodecInvoker, DefaultsAreFilled) {
  auto out = call("search", json(R"({"query": "q", "cursor": "c9"})"));
  ASSERT_EQ(out.status, CallStatus::Succeeded) << out.result.message;
  EXPECT_EQ(last.limit, 10);
  EXPECT_EQ(last.cursor, "c9");
  EXPECT_EQ(out.arguments, json::parse(R"({"query": "q", "limit": 10, "cursor": "c9"})"));
}

TEST_F(CodecInvoker, ObjectArgumentsTakeTheJsonPathWithTheSameResult) {
  auto text = call("search", json(R"({"query": "a", "limit": "1"})"));
  auto object = call("search", json::parse(R"({"query": "a", "limit": "1"})"));
  EXPECT_EQ(object.status, CallStatus::Succeeded);
  EXPECT_EQ(object.arguments, text.arguments);
  EXPECT_EQ(object.validation.warnings, text.validation.warnings);
  EXPECT_EQ(object.result.value, text.result.value);
}

TEST_F(CodecInvoker, EveryOutcomeMatchesTheValidatorsInEveryMode) {
  const std::vector<std::string> calls{
      R"({"query": "a"})",
      R"({"query": "a", "limit": 2, "cursor": null})",
      R"({"query": 5, "limit": 99, "zzz": 1, "aaa": 2})",
      R"({"limit": "x", "cursor": 4})",
      R"({"query": "a", "limit": 2.0})",
      R"({"query": "a", "limit": "50", "limit": 0})",
      R"({"query": "a", "limit": null})",
      R"({})",
      R"(null)",
      R"()",
      R"(   )",
      R"([1])",
      R"("text")",
      R"({"query": "a",)",
      R"({"query": "a"} x)",
      R"({"query": "a", "x": [1 2]})",
      R"({"query": "\q"})",
      R"({"query": "a", "limit": 1e300})",
      R"({"query": "a", "limit": 2.9})",
      R"({"query": "a", "limit": -1e19})",
      R"({"query": "a", "limit": 18446744073709551615})",
      R"({"query": 5, "limit": "99999999999999999999", "cursor": 7})",
  };
  for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
    for (const auto& text : calls) {
      SCOPED_TRACE(std::string(ptc::mode_name(mode)) + " " + text);
      auto codec = call("search", json(text), mode);
      auto reference = call("search_json", json(text), mode);
      // Past validation the handlers differ (the JSON one may trip over what WarnOnly let through).
      EXPECT_EQ(codec.status == CallStatus::InvalidArguments, reference.status == CallStatus::InvalidArguments);
      EXPECT_EQ(codec.validation.errors, reference.validation.errors);
      EXPECT_EQ(codec.validation.warnings, reference.validation.warnings);
      if (codec.status == CallStatus::InvalidArguments) {
        EXPECT_EQ(codec.result.message, reference.result.message);
        EXPECT_EQ(codec.arguments, reference.arguments) << "the arguments as given";
        EXPECT_EQ(invoked[invoked.size() - 2].params, invoked.back().params);
      }
    }
  }
}

TEST_F(CodecInvoker, ValidationFailureReportsExactly) {
  auto out = call("search", json(R"({"zeta": 1, "limit": "0", "query": 5})"), Mode::Strict);
  EXPECT_EQ(out.status, CallStatus::InvalidArguments);
  EXPECT_EQ(out.result.message,
            "Tool validation errors:\n"
            "- query: expected string, got int 5\n"
            "- limit: expected int, got string \"0\"\n"
            "- zeta: unexpected field");
  EXPECT_EQ(out.arguments, json::parse(R"({"zeta": 1, "limit": "0", "query": 5})"));
  EXPECT_EQ(invoked.back().params, out.arguments);
  EXPECT_EQ(runs, 0);
}

TEST_F(CodecInvoker, WarnOnlyAndDisabledRunOnWhatDecoded) {
  auto warn = call("search", json(R"({"query": "q", "limit": "many"})"), Mode::WarnOnly);
  EXPECT_EQ(warn.status, CallStatus::Succeeded);
  EXPECT_THAT(warn.validation.warnings, ElementsAre(Issue{"limit", "expected int, got string \"many\""}));
  EXPECT_EQ(last.limit, 0) << "a field that did not decode keeps its C++ default";
  auto disabled = call("search", json(R"({"query": "q", "limit": "1", "cursor": 3})"), Mode::Disabled);
  EXPECT_EQ(disabled.status, CallStatus::Succeeded);
  EXPECT_THAT(disabled.validation.warnings, IsEmpty());
  EXPECT_EQ(last.limit, 1);
  EXPECT_EQ(last.cursor, std::nullopt);
}

// In every mode, warn_only and disabled included, a number the parameter's type cannot hold fails the
// call with its path, and the function does not run: through the text path, through parsed arguments,
// and for the same tool over JSON, whose handler would read it with get<std::int64_t>().
TEST_F(CodecInvoker, ANumberTheArgumentsCannotHoldFailsTheCallInEveryMode) {
  int json_runs = 0;
  registry.add(ptc::make_tool("count_json", "Find items.", signature(), [&](const json& args, ptc::ToolContext&) {
    ++json_runs;
    return ptc::codec::to_tool_result(shop::search("", args.at("limit").get<std::int64_t>(), std::nullopt));
  }));
  const std::string range = "expected int in range -9223372036854775808..9223372036854775807, got ";
  const std::vector<std::pair<std::string, std::string>> calls{
      {R"({"query": "a", "limit": 1e300})", range + "float 1e+300"},
      {R"({"query": "a", "limit": -1e19})", range + "float -1e+19"},
      {R"({"query": "a", "limit": 18446744073709551615})", range + "int 18446744073709551615"},
      {R"({"query": "a", "limit": "99999999999999999999"})", range + "string \"99999999999999999999\""},
      {R"({"query": "a", "limit": 2.9})", "expected int, got float 2.9"},
      {R"({"query": "a", "limit": -0.5})", "expected int, got float -0.5"},
  };
  for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
    for (const auto& [text, message] : calls) {
      SCOPED_TRACE(std::string(ptc::mode_name(mode)) + " " + text);
      const std::string report = "Tool validation errors:\n- limit: " + message;
      for (const char* name : {"search", "count_json"}) {
        for (const json& arguments : {json(text), json::parse(text)}) {
          auto out = call(name, arguments, mode);
          EXPECT_EQ(out.status, CallStatus::InvalidArguments) << name;
          const bool quoted = text.find("\"9") != std::string::npos;  // strict reads no string as a number
          if (mode != Mode::Strict || !quoted) {
            EXPECT_EQ(out.result.message, report) << name;
          }
        }
      }
    }
  }
  EXPECT_EQ(runs, 0);
  EXPECT_EQ(json_runs, 0);
  // What the parameter holds still runs in every mode: a fraction elsewhere is no concern of it.
  for (Mode mode : {Mode::WarnOnly, Mode::Disabled}) {
    auto out = call("search", json(R"({"query": "a", "limit": 7, "extra": 2.9})"), mode);
    EXPECT_EQ(out.status, CallStatus::Succeeded);
    EXPECT_EQ(last.limit, 7);
  }
}

// Parsed arguments can hold what no JSON text holds: NaN and the infinities, refused with their path in
// every mode rather than written as null.
TEST_F(CodecInvoker, ANonFiniteNumberInParsedArgumentsFailsTheCallInEveryMode) {
  for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
    for (double bad : {std::nan(""), HUGE_VAL, -HUGE_VAL}) {
      SCOPED_TRACE(std::string(ptc::mode_name(mode)) + " " + std::to_string(bad));
      auto out = call("search", json{{"query", "a"}, {"limit", bad}}, mode);
      EXPECT_EQ(out.status, CallStatus::InvalidArguments);
      EXPECT_EQ(out.result.message,
                "Tool validation errors:\n- limit: " + ptc::coercion::expected("finite number", json(bad)));
      auto deep = call("search", json{{"query", "a"}, {"extra", {{"x", json::array({1, bad})}}}}, mode);
      EXPECT_EQ(deep.status, CallStatus::InvalidArguments);
      EXPECT_EQ(deep.result.message,
                "Tool validation errors:\n- extra.x[1]: " + ptc::coercion::expected("finite number", json(bad)));
      auto reference = call("search_json", json{{"query", "a"}, {"limit", bad}}, mode);
      EXPECT_EQ(reference.status, CallStatus::InvalidArguments);
    }
  }
  EXPECT_EQ(runs, 0);
}

TEST_F(CodecInvoker, MalformedTextIsReportedAsDispatchReportsIt) {
  auto out = call("search", json(R"({"query": "a",)"));
  EXPECT_EQ(out.status, CallStatus::InvalidArguments);
  EXPECT_EQ(out.result.message,
            "Tool arguments are not valid JSON: " + ptc::parse_json(R"({"query": "a",)").error().to_string());
  EXPECT_EQ(call("search", json("[1]")).result.message, "Tool arguments must be a JSON object, got list.");
  auto empty = call("search", json(""));
  EXPECT_EQ(empty.result.message, "Tool validation errors:\n- query: missing required field");
  EXPECT_EQ(runs, 0);
}

TEST_F(CodecInvoker, ToolResultsKeepTheirMessageAndOutcome) {
  add<shop::search_args>("soft_fail", "(query :string) -> [:int]", [](shop::search_args& a, ptc::ToolContext&) {
    return ptc::codec::to_tool_result(ptc::ToolResult<std::vector<std::int64_t>>::error("nothing for " + a.query,
                                                                                        {1, 2}));
  });
  auto out = call("soft_fail", json(R"({"query": "x"})"));
  EXPECT_EQ(out.status, CallStatus::Failed);
  EXPECT_EQ(out.result.message, "nothing for x");
  EXPECT_EQ(out.result.value, json::parse("[1, 2]"));

  add<shop::search_args>("nothing", "(query :string) -> :nil",
                         [](shop::search_args&, ptc::ToolContext&) { return ptc::codec::void_result(); });
  auto none = call("nothing", json(R"({"query": "x"})"));
  EXPECT_EQ(none.status, CallStatus::Succeeded);
  EXPECT_EQ(none.result.value, json(nullptr));
}

TEST_F(CodecInvoker, ResultsAreCheckedStrictly) {
  add<shop::search_args>("odd", "(query :string) -> :enum[open closed]", [](shop::search_args&, ptc::ToolContext&) {
    return ptc::codec::to_tool_result(static_cast<shop::Status>(9));
  });
  auto out = call("odd", json(R"({"query": "x"})"));
  EXPECT_EQ(out.status, CallStatus::InvalidResult);
  EXPECT_EQ(out.result.message,
            "Tool 'odd' returned a value that does not match its result type:\n"
            "Tool validation errors:\n- (root): expected one of [\"open\", \"closed\"], got 9");
}

TEST_F(CodecInvoker, ExceptionsAreHandlerFailures) {
  add<shop::search_args>("throws", "(query :string) -> :int",
                         [](shop::search_args&, ptc::ToolContext&) -> ptc::ToolResult<json> {
                           throw std::runtime_error("boom");
                         });
  EXPECT_EQ(call("throws", json(R"({"query": "x"})")).result.message, "Tool 'throws' execution failed: boom");
  add<shop::broken_args>("broken", "(n :int) -> :int",
                         [](shop::broken_args& a, ptc::ToolContext&) { return ptc::codec::to_tool_result(a.n); });
  auto text = call("broken", json(R"({"n": 1})"));
  EXPECT_EQ(text.status, CallStatus::HandlerException);
  EXPECT_EQ(text.result.message, "Tool 'broken' execution failed: decoder broke");
  EXPECT_EQ(text.arguments, json::parse(R"({"n": 1})"));
  EXPECT_EQ(call("broken", json::parse(R"({"n": 1})")).result.message, text.result.message);
}

TEST_F(CodecInvoker, FirewalledResultFieldsAreHiddenInTheTextWithoutBuildingJson) {
  const auto accounts = [](const std::string& query) {
    return std::vector<shop::Account>{{query, "s3cret"}, {"b\"}", "t"}};
  };
  add<shop::search_args>("accounts", "(query :string) -> [{name :string, _token :string}]",
                         [&](shop::search_args& a, ptc::ToolContext&) {
                           return ptc::codec::to_tool_result(accounts(a.query));
                         });
  registry.add(ptc::make_tool("accounts_json", "A tool.", "(query :string) -> [{name :string, _token :string}]",
                              [&](const json& args, ptc::ToolContext&) {
                                json out = json::array();
                                for (const auto& a : accounts(args.at("query").get<std::string>()))
                                  out.push_back({{"name", a.name}, {"_token", a.token}});
                                return ptc::ToolResult<json>::ok(out);
                              }));
  const auto out = call("accounts", json(R"({"query": "ada"})"));
  ASSERT_EQ(out.status, CallStatus::Succeeded) << out.result.message;
  EXPECT_EQ(out.rendered, R"([{"_token":"<Firewalled>","name":"ada"},{"_token":"<Firewalled>","name":"b\"}"}])");
  EXPECT_EQ(out.visible_value, json::parse(out.rendered));
  // C++ keeps the real values; neither the result nor what the model sees became a JSON tree.
  ASSERT_NE(out.result.value->text(), nullptr);
  EXPECT_EQ(*out.result.value->text(), R"([{"_token":"s3cret","name":"ada"},{"_token":"t","name":"b\"}"}])");
  EXPECT_FALSE(out.result.value->materialized());
  ASSERT_TRUE(out.visible_value.has_value());
  EXPECT_NE(out.visible_value->text(), nullptr);
  // The JSON path over the same values shows the model the same.
  const auto reference = call("accounts_json", json(R"({"query": "ada"})"));
  EXPECT_EQ(reference.rendered, out.rendered);
  EXPECT_EQ(reference.visible_value, out.visible_value);
}

TEST_F(CodecInvoker, TypedResultsAreStillCheckedWhereTheSchemaRefinesThem) {
  add<shop::search_args>("positive", "(query :string) -> :int[>0]", [](shop::search_args&, ptc::ToolContext&) {
    return ptc::codec::to_tool_result(std::int64_t{-1});
  });
  const auto out = call("positive", json(R"({"query": "x"})"));
  EXPECT_EQ(out.status, CallStatus::InvalidResult);
  EXPECT_EQ(out.result.message.rfind("Tool 'positive' returned a value that does not match its result type:", 0), 0u)
      << out.result.message;
}

}  // namespace
