// Decoding a ~300-byte tool call and encoding a ~1 MB result, generated code against its peers
// (README.md, "Performance"). Compare the numbers of one run with each other, as ratios; see README.
//
// The generated orders.ptc.cpp is compiled into this file (not linked) so the benchmark can reach
// the tool's generated Args type and decode without the rest of dispatch.

#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <ptc/ptc.hpp>

#include "bench/calls.hpp"
#include "bench/ondemand.hpp"
#include "orders.ptc.cpp"

namespace {

using json = nlohmann::json;

// --- the same types for nlohmann::json's get<T>/to_json, the usual hand-written way ---------------
struct SearchArgs {
  std::string customer_email;
  bench::OrderStatus status;
  std::vector<std::string> tags;
  std::optional<double> min_total;
  std::int64_t limit;
  bool include_cancelled;
  bench::Address ship_to;
  std::vector<bench::LineItem> items;
};

}  // namespace

// nlohmann::json 3.11 has no std::optional support; users write this themselves.
namespace nlohmann {
template <class T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& o) {
    if (o)
      j = *o;
    else
      j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& o) {
    if (j.is_null())
      o.reset();
    else
      o = j.get<T>();
  }
};
}  // namespace nlohmann

namespace bench {
NLOHMANN_JSON_SERIALIZE_ENUM(OrderStatus, {{OrderStatus::pending, "pending"},
                                           {OrderStatus::paid, "paid"},
                                           {OrderStatus::shipped, "shipped"},
                                           {OrderStatus::cancelled, "cancelled"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Address, street, city, country)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LineItem, sku, quantity, unit_price)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Order, id, customer_email, status, items, ship_to, note, total)
}  // namespace bench

namespace {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SearchArgs, customer_email, status, tags, min_total, limit, include_cancelled,
                                   ship_to, items)

const std::string& call_text(const benchmark::State& state) {
  return state.range(0) ? bench::kPermutedCall : bench::kCall;
}

using GeneratedArgs = ptc_gen::orders::detail::search_orders_args;

void BM_Decode_Generated(benchmark::State& state) {
  const std::string& text = call_text(state);
  for (auto _ : state) {
    GeneratedArgs args;
    auto v = ptc::codec::decode_only(text, args);
    if (!v.ok) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(args);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Decode_Generated)->Arg(0)->Arg(1);

// The hand-written simdjson On-Demand decoder of the same struct (bench/ondemand.hpp): the ceiling.
void BM_Decode_OnDemand(benchmark::State& state) {
  const std::string& text = call_text(state);
  for (auto _ : state) {
    bench::ondemand::SearchArgs args;
    if (!bench::ondemand::decode(text, args)) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(args);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Decode_OnDemand)->Arg(0)->Arg(1);

void BM_Decode_NlohmannGet(benchmark::State& state) {
  const std::string& text = call_text(state);
  for (auto _ : state) {
    auto args = json::parse(text).get<SearchArgs>();
    benchmark::DoNotOptimize(args);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Decode_NlohmannGet)->Arg(0)->Arg(1);

void BM_Decode_RuntimeValidator(benchmark::State& state) {
  const std::string& text = call_text(state);
  const ptc::Tool tool = ptc_gen::orders::tools().front();
  for (auto _ : state) {
    auto v = ptc::validate_and_coerce(tool.input(), json::parse(text), {ptc::Direction::Input, ptc::Mode::Enabled});
    if (!v.ok) state.SkipWithError("validation failed");
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Decode_RuntimeValidator)->Arg(0)->Arg(1);

// The whole generated argument step of dispatch: decode plus the coerced arguments as JSON for
// policies and telemetry.
void BM_Prepare_GeneratedInvoker(benchmark::State& state) {
  const std::string& text = call_text(state);
  const ptc::Tool tool = ptc_gen::orders::tools().front();
  for (auto _ : state) {
    auto prepared = tool.invoker()->prepare(ptc::ToolArguments::text(text), ptc::Mode::Enabled);
    if (!prepared || !prepared->validation.ok) state.SkipWithError("prepare failed");
    benchmark::DoNotOptimize(prepared);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Prepare_GeneratedInvoker)->Arg(0)->Arg(1);

void BM_Parse_SimdjsonDom(benchmark::State& state) {
  const simdjson::padded_string text(call_text(state));
  simdjson::dom::parser parser;
  for (auto _ : state) {
    auto doc = parser.parse(text);
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Parse_SimdjsonDom)->Arg(0)->Arg(1);

// --- encoding a ~1 MB result ------------------------------------------------------------------
std::vector<bench::Order> orders_of_about_one_megabyte() {
  std::vector<bench::Order> orders;
  std::size_t bytes = 0;
  for (std::int64_t id = 1; bytes < (1u << 20); ++id) {
    bench::Order o;
    o.id = id;
    o.customer_email = "customer" + std::to_string(id) + "@example.com";
    o.status = static_cast<bench::OrderStatus>(id % 4);
    o.items = {{"SKU-" + std::to_string(id), id % 7 + 1, 9.99}, {"GIFT-WRAP", 1, 2.5}};
    o.ship_to = {std::to_string(id) + " Harbour Road", "Bergen", "NO"};
    if (id % 3 == 0) o.note = "Leave at the door, \"please\".";
    o.total = 9.99 * static_cast<double>(id % 7 + 1) + 2.5;
    orders.push_back(std::move(o));
    bytes += 260;
  }
  return orders;
}

void BM_Encode_Generated(benchmark::State& state) {
  const auto orders = orders_of_about_one_megabyte();
  std::size_t size = 0;
  for (auto _ : state) {
    std::string text = ptc::codec::to_text(orders);
    size = text.size();
    benchmark::DoNotOptimize(text);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
  state.counters["bytes"] = static_cast<double>(size);
}
BENCHMARK(BM_Encode_Generated)->Unit(benchmark::kMillisecond);

void BM_Encode_NlohmannDump(benchmark::State& state) {
  const auto orders = orders_of_about_one_megabyte();
  std::size_t size = 0;
  for (auto _ : state) {
    std::string text = json(orders).dump();
    size = text.size();
    benchmark::DoNotOptimize(text);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}
BENCHMARK(BM_Encode_NlohmannDump)->Unit(benchmark::kMillisecond);

// The ceiling to report encode speed against: simdjson's DOM parse of the same megabyte.
void BM_Parse_SimdjsonDom_1MB(benchmark::State& state) {
  const simdjson::padded_string text(ptc::codec::to_text(orders_of_about_one_megabyte()));
  simdjson::dom::parser parser;
  for (auto _ : state) {
    auto doc = parser.parse(text);
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Parse_SimdjsonDom_1MB)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
