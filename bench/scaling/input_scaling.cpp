// How the work on one hostile input grows with its size, for each path the hardening issue found
// super-linear: an enum with many values, an object with many keys to validate, a struct with many
// fields to render as JSON Schema, frontmatter with many keys, and a long shell line for the permission
// matcher. Google Benchmark fits each to a complexity class (BigO, RMS); docs/limits.md states the
// claim (O(n log n) or better) and README.md's performance section reports the fits of one run.
#include <string>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <ptc/command.hpp>
#include <ptc/command_permissions.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/signature.hpp>
#include <ptc/validate.hpp>

namespace {

std::string enum_signature(int n) {
  std::string s = "(x :enum[";
  for (int i = 0; i < n; ++i) s += (i ? " v" : "v") + std::to_string(i);
  return s + "]) -> :nil";
}

void EnumWithManyValues(benchmark::State& state) {
  const std::string text = enum_signature(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(ptc::Signature::parse(text));
  state.SetComplexityN(state.range(0));
}
BENCHMARK(EnumWithManyValues)->RangeMultiplier(4)->Range(64, 16384)->Complexity();

ptc::Signature struct_signature(int n) {
  std::string s = "(x {";
  for (int i = 0; i < n; ++i) s += (i ? ", f" : "f") + std::to_string(i) + " :int";
  return ptc::Signature::parse(s + "}) -> :nil").value();
}

void ValidateObjectWithManyKeys(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto signature = struct_signature(n);
  nlohmann::json value = nlohmann::json::object();
  for (int i = 0; i < n; ++i) value["f" + std::to_string(i)] = i;
  for (int i = 0; i < n; ++i) value["unknown" + std::to_string(i)] = i;  // as many undeclared keys
  const nlohmann::json args = {{"x", value}};
  for (auto _ : state) benchmark::DoNotOptimize(ptc::validate_and_coerce(signature.input(), args));
  state.SetComplexityN(n);
}
BENCHMARK(ValidateObjectWithManyKeys)->RangeMultiplier(4)->Range(64, 16384)->Complexity();

void JsonSchemaOfAStructWithManyFields(benchmark::State& state) {
  const auto signature = struct_signature(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(ptc::to_json_schemas(signature, ptc::Profile::OpenAI));
  state.SetComplexityN(state.range(0));
}
BENCHMARK(JsonSchemaOfAStructWithManyFields)->RangeMultiplier(4)->Range(64, 16384)->Complexity();

void FrontmatterWithManyKeys(benchmark::State& state) {
  std::string text = "---\nname: review\ndescription: Review\njido:\n  schema:\n";
  for (int i = 0; i < state.range(0); ++i) text += "    k" + std::to_string(i) + ":\n      type: string\n";
  text += "---\nbody\n";
  for (auto _ : state) benchmark::DoNotOptimize(ptc::parse_command(text, "cmd.md"));
  state.SetComplexityN(state.range(0));
}
BENCHMARK(FrontmatterWithManyKeys)->RangeMultiplier(4)->Range(16, 4096)->Complexity();

void ShellLineWithManyCommands(benchmark::State& state) {
  std::string line;
  for (int i = 0; i < state.range(0); ++i) line += (i ? " && ls -la 'dir " : "ls -la 'dir ") + std::to_string(i) + "'";
  const ptc::Permissions rules{{"Bash(ls:*)"}, {"Bash(rm:*)"}, {}};
  const std::string use = "Bash(" + line + ")";
  for (auto _ : state) benchmark::DoNotOptimize(ptc::decide_permission(rules, use));
  state.SetComplexityN(state.range(0));
}
// Up to 2048 commands: a longer line is over the reader's 64 KiB limit and refused whole.
BENCHMARK(ShellLineWithManyCommands)->RangeMultiplier(2)->Range(64, 2048)->Complexity();

}  // namespace
