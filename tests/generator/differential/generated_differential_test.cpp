// The decoders ptc-gen generates for shapes.hpp against the runtime validator on each generated tool's
// own input() schema, with the harness of tests/support/codec_differential.hpp: through decode_text
// into the tool's Args struct, and through the tool's invoker (prepare on the text, then the call itself).
//
// shapes.ptc.cpp is compiled into this file (not linked) to reach ptc_gen::shapes::detail::<tool>_args.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/ptc.hpp>

#include "codec_differential.hpp"
#include "shapes.ptc.cpp"

namespace shapes {

Flat flat(std::int32_t count, std::uint8_t level, double ratio, bool flag, std::string name, Priority priority,
          std::optional<std::string> note, std::int64_t big) {
  return {count, level, ratio, flag, std::move(name), priority, std::move(note), big};
}

Order nested(std::string customer, std::vector<Item> items, std::optional<Item> backup, Shipment shipment) {
  return {std::move(customer), std::move(items), std::move(backup), std::move(shipment)};
}

Collections collections(std::map<std::string, std::int64_t> counts, std::set<std::string> labels,
                        std::unordered_map<std::string, std::vector<double>> series, std::set<std::int64_t> ids) {
  return {std::move(counts), std::move(labels), std::move(series), std::move(ids)};
}

Unions unions(std::variant<std::int64_t, std::string> key, std::variant<std::monostate, double, Item> mixed,
              std::tuple<std::string, std::int64_t, bool> triple, std::pair<double, std::string> pair,
              std::variant<std::vector<std::int64_t>, Item, bool> shape) {
  return {std::move(key), std::move(mixed), std::move(triple), std::move(pair), std::move(shape)};
}

Search search(std::string query, double threshold, std::int64_t limit, std::optional<std::string> cursor,
              std::string sort, Priority priority) {
  return {std::move(query), threshold, limit, std::move(cursor), std::move(sort), priority};
}

Ranged ranged(std::uint8_t level, std::uint8_t spread, std::uint64_t pages, int offset,
              std::optional<std::uint16_t> minutes, Limits limits) {
  return {level, spread, pages, offset, minutes, std::move(limits)};
}

}  // namespace shapes

namespace {

using ptc::Schema;
using ptc::Validation;
using ptc::test::HeldRange;
using ptc::test::NarrowRange;

constexpr std::size_t kDocuments = 10000;
constexpr std::size_t kInvokerDocuments = 3000;

const ptc::Tool& tool(std::string_view name) {
  static const std::vector<ptc::Tool> tools = ptc_gen::shapes::tools();
  for (const auto& t : tools)
    if (t.name() == name) return t;
  throw std::runtime_error("shapes.hpp has no tool " + std::string(name));
}

// The tool's schema with the narrow integers of `narrow` (by parameter) bounded by their C++ types
// after what the schema says of them, as the codecs check them: [:and T [:>= min] [:<= max]].
Schema narrowed(const Schema& params, const std::map<std::string, NarrowRange>& narrow) {
  std::vector<ptc::MapEntry> entries;
  for (ptc::MapEntry e : params.entries()) {
    if (auto it = narrow.find(e.name); it != narrow.end()) {
      const NarrowRange& r = it->second;
      const bool optional = e.schema.kind() == ptc::Kind::Maybe;
      Schema bounded =
          Schema::all_of({optional ? e.schema.item() : e.schema, Schema::refinement(ptc::Refine::Ge, r.min),
                          Schema::refinement(ptc::Refine::Le, r.max)});
      e.schema = optional ? Schema::maybe(std::move(bounded)) : std::move(bounded);
    }
    entries.push_back(std::move(e));
  }
  return Schema::map(std::move(entries));
}

// The text path of the tool's invoker. A prepared call must run exactly when it validated, and the
// tool, which returns its arguments, must return the decoded ones; a call that does otherwise gets an
// extra error, so that the harness shows it with the document.
ptc::test::Decode prepare_of_text(const ptc::Tool& t, ptc::Session& session) {
  return [&t, &session](const std::string& text, ptc::Mode mode) -> std::optional<Validation> {
    auto prepared = t.invoker()->prepare(ptc::ToolArguments::text(text), mode);
    if (!prepared) return std::nullopt;
    Validation& v = prepared->validation;
    v.value = prepared->arguments.json();  // the decoded arguments, compared with the validator's value
    auto problem = [&](std::string what) { v.errors.push_back({"(call)", std::move(what)}); };
    if (!v.ok) {
      if (prepared->run) problem("runs although it did not validate");
    } else if (!prepared->run) {
      problem("does not run although it validated");
    } else {
      const ptc::CallEnvironment environment;
      ptc::ToolContext context(t, session, environment);
      auto result = prepared->run(context);
      if (!result.success || result.value != v.value)
        problem("returned " + (result.value ? result.value->dump() : "nothing") + ": " + result.message);
    }
    return std::move(v);
  };
}

// `held`: the integers other than int64 whose range the generated schema states (or a PTC_RANGE
// narrows), which their codecs hold to in warn_only and disabled too.
void check_tool(const char* name, std::uint64_t seed, const std::map<std::string, NarrowRange>& narrow,
                const ptc::test::Decode& decode_text, const std::vector<HeldRange>& held = {}) {
  const ptc::Tool& t = tool(name);
  const Schema reference = narrowed(t.input(), narrow);
  std::vector<NarrowRange> ranges;
  for (const auto& [param, range] : narrow) ranges.push_back(range);
  ptc::test::report(name, ptc::test::compare_with_validator(reference, seed, kDocuments, ranges, decode_text, held));
  ptc::Session session("differential");
  ptc::test::report((std::string(name) + " via prepare (text)").c_str(),
                    ptc::test::compare_with_validator(reference, seed + 1000, kInvokerDocuments, ranges,
                                                      prepare_of_text(t, session), held));
}

namespace gen = ptc_gen::shapes::detail;
using ptc::test::decode_text_into;

// Types narrower than 32 bits carry their range in the generated schema already.
constexpr NarrowRange kInt32{-2147483648LL, 2147483647LL, false};

TEST(GeneratedDifferential, FlatScalars) {
  check_tool("flat", 1, {{"count", kInt32}}, decode_text_into<gen::flat_args>(), {{"level", 0, 255}});
}

TEST(GeneratedDifferential, NestedStructsAndVectors) {
  check_tool("nested", 2, {}, decode_text_into<gen::nested_args>());
}

TEST(GeneratedDifferential, MapsAndSets) {
  check_tool("collections", 3, {}, decode_text_into<gen::collections_args>());
}

TEST(GeneratedDifferential, VariantsAndTuples) { check_tool("unions", 4, {}, decode_text_into<gen::unions_args>()); }

TEST(GeneratedDifferential, DefaultsAndConstraints) {
  check_tool("search", 5, {}, decode_text_into<gen::search_args>());
}

// spread's range reaches beyond its type, which the generated schema keeps it within.
TEST(GeneratedDifferential, RangesOnIntegersOtherThanInt64) {
  check_tool("ranged", 6, {}, decode_text_into<gen::ranged_args>(),
             {{"level|spread|limits\\.level", 0, 255},
              {"pages", 0, 18446744073709551615ULL},
              {"offset", -2147483648LL, 2147483647},
              {"minutes|limits\\.boxed", 0, 65535},
              {"limits\\.retries", 0, 4294967295ULL},
              {"limits\\.shared", -32768, 32767}});
}

}  // namespace
