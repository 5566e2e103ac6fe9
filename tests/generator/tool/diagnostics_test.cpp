// ptc-gen --diagnostics-format / --diagnostics-file: SARIF 2.1.0 checked against the OASIS schema (python's
// jsonschema, as the JSON Schema conformance tests run it) and by Microsoft's SARIF validator
// (@microsoft/sarif-multitool-linux 5.7.0, pinned in tests/generator/sarif/node, which runs offline: it is
// a self-contained .NET executable); the JSON form; fingerprints that survive lines added above; --check's
// drift as one result per drifted tool.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_process.hpp"
#include "ptc_generate_project.hpp"
#include "scratch_dir.hpp"

namespace ptcgen::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* const kTools = R"(#pragma once
#include <string>
#include <ptc/annotate.hpp>
namespace shop {
/// Finds items by text.
PTC_TOOL() PTC_READ_ONLY std::string search(std::string query, int limit = 10);
/// Counts items.
PTC_TOOL() PTC_READ_ONLY int count();
/// Drops an item.
PTC_TOOL() PTC_DESTRUCTIVE int drop(int id);
}
)";

// Errors and warnings of several rules, in one header ptc-gen's front end reads to the end.
const char* const kProblems = R"(#pragma once
#include <cstdint>
#include <string>
#include <ptc/annotate.hpp>
int make();
/// Finds.
PTC_TOOL() int find(char c);
/// Rates.
/// \param nope gone
PTC_TOOL() PTC_READ_ONLY int rate(PTC_RANGE(0, 1000) std::int8_t x);
PTC_TOOL() int undocumented();
/// Makes.
PTC_TOOL() int made(int y = make());
)";

class PtcGenDiagnostics : public ScratchDirTest {
 protected:
  ptc::test::ProcessResult gen(std::vector<std::string> args) const { return ptc::test::run_process(PTC_GEN, args); }

  /// Runs ptc-gen on `headers` writing `format` into `file`, SRCROOT the scratch directory.
  ptc::test::ProcessResult gen_into(const std::string& format, const std::string& file,
                                    const std::vector<std::string>& headers, std::vector<std::string> more = {}) const {
    std::vector<std::string> args{"--diagnostics-format=" + format,
                                  "--diagnostics-file=" + path(file),
                                  "--diagnostics-category=app",
                                  "--source-root=" + dir_.string(),
                                  "--out-dir",
                                  path("out")};
    args.insert(args.end(), more.begin(), more.end());
    for (const auto& h : headers) args.push_back(path(h));
    args.insert(args.end(), {"--", "-std=c++20"});
    return gen(args);
  }

  json sarif(const std::string& file) const { return json::parse(read(file)); }

  /// python's jsonschema against the schema the multitool package ships; "" when valid.
  std::string schema_errors(const std::string& file) const {
    auto r = ptc::test::run_process(PTC_PYTHON, {PTC_SARIF_DIR "/validate_sarif.py", schema(), path(file)});
    return r.exit_code == 0 ? "" : "exit " + std::to_string(r.exit_code) + ": " + r.err + r.out;
  }
  static std::string package() { return PTC_SARIF_DIR "/node/node_modules/@microsoft/sarif-multitool-linux"; }
  static std::string schema() { return package() + "/sarif-2.1.0.json"; }

  /// Microsoft's validator's findings of level error or warning, as "RULE: message" lines. npm installs
  /// the executable without its execute bit (setup.sh runs npm ci --ignore-scripts, which skips the
  /// package's chmod), so the test runs a copy of it.
  std::vector<std::string> multitool_findings(const std::string& file) const {
    const fs::path exe = fs::path(PTC_SARIF_SCRATCH) / "Sarif.Multitool";
    const fs::path shipped = fs::path(package()) / "Sarif.Multitool";
    if (!fs::exists(exe) || fs::file_size(exe) != fs::file_size(shipped)) {
      fs::create_directories(exe.parent_path());
      fs::copy_file(shipped, exe, fs::copy_options::overwrite_existing);
      fs::permissions(exe, fs::perms::owner_exec, fs::perm_options::add);
    }
    auto r = ptc::test::run_process(exe.string(),
                                    {"validate", path(file), "-o", path("validation.sarif"), "--log", "ForceOverwrite",
                                     "--level", "Error", "Warning", "--rule-kind", "Sarif", "Gh"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    std::vector<std::string> out;
    const json validation = sarif("validation.sarif");
    for (const auto& result : validation["runs"][0].value("results", json::array())) {
      const std::string level = result.value("level", "warning");
      if (level == "error" || level == "warning") out.push_back(result["ruleId"].get<std::string>() + ": " + level);
    }
    return out;
  }
};

std::set<std::string> rule_ids(const json& log) {
  std::set<std::string> out;
  for (const auto& r : log["runs"][0]["results"]) out.insert(r["ruleId"].get<std::string>());
  return out;
}

TEST_F(PtcGenDiagnostics, SarifOfSeveralRulesIsValidSarif) {
  write("include/problems.hpp", kProblems);
  write("include/broken.hpp", "#pragma once\nFoo g();\n");
  auto r = gen_into("sarif", "out.sarif", {"include/problems.hpp", "include/broken.hpp"});
  EXPECT_EQ(r.exit_code, 1);
  const json log = sarif("out.sarif");
  EXPECT_EQ(rule_ids(log),
            (std::set<std::string>{"ptc/unsupported-type", "ptc/unknown-param-doc", "ptc/range-exceeds-type",
                                   "ptc/invalid-default", "ptc/missing-description", "clang/semantic-issue"}));
  const json& run = log["runs"][0];
  EXPECT_EQ(run["automationDetails"]["id"], "ptc-gen/app/");
  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file://" + dir_.string() + "/");
  const json& first = run["results"][0];
  EXPECT_EQ(first["ruleId"], "ptc/unsupported-type");
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["artifactLocation"],
            json::parse(R"({"uri":"include/problems.hpp","uriBaseId":"SRCROOT"})"));
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["region"], json::parse(R"({"startLine":7,"startColumn":26})"));
  EXPECT_EQ(run["tool"]["driver"]["rules"][first["ruleIndex"].get<std::size_t>()]["id"], "ptc/unsupported-type");
  EXPECT_EQ(schema_errors("out.sarif"), "");
  EXPECT_EQ(multitool_findings("out.sarif"),
            std::vector<std::string>{"SARIF2005: warning"})  // the driver names no informationUri: ptc has none
      << read("validation.sarif");
}

// The checks fail when they should: a log without a rule's descriptions, or with a result whose region is
// malformed, is refused by both.
TEST_F(PtcGenDiagnostics, TheValidatorsRefuseABrokenLog) {
  write("p.hpp", kProblems);
  gen_into("sarif", "good.sarif", {"p.hpp"});
  json bad = sarif("good.sarif");
  bad["runs"][0]["tool"]["driver"]["rules"][0]["shortDescription"].erase("text");
  bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0;
  write("bad.sarif", bad.dump(2));
  EXPECT_NE(schema_errors("bad.sarif"), "");
  bool error = false;
  for (const auto& f : multitool_findings("bad.sarif")) error = error || f.ends_with(": error");
  EXPECT_TRUE(error);
}

TEST_F(PtcGenDiagnostics, FingerprintsSurviveLinesAddedAbove) {
  write("p.hpp", kProblems);
  gen_into("sarif", "before.sarif", {"p.hpp"});
  write("p.hpp", std::string("// A comment\n// added above\n\n") + kProblems);
  gen_into("sarif", "after.sarif", {"p.hpp"});
  const json before = sarif("before.sarif")["runs"][0]["results"];
  const json after = sarif("after.sarif")["runs"][0]["results"];
  ASSERT_EQ(before.size(), after.size());
  ASSERT_GE(before.size(), 4u);
  std::set<std::string> distinct;
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i]["partialFingerprints"], after[i]["partialFingerprints"]);
    const auto line = [](const json& r) {
      return r["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>();
    };
    EXPECT_EQ(line(after[i]), line(before[i]) + 3);
    distinct.insert(before[i]["partialFingerprints"]["ptcFingerprint/v1"].get<std::string>());
  }
  EXPECT_EQ(distinct.size(), before.size());
}

TEST_F(PtcGenDiagnostics, DriftIsOneResultPerDriftedToolAtItsDeclaration) {
  write("shop.hpp", kTools);
  ASSERT_EQ(gen({"--out-dir", path("out"), path("shop.hpp"), "--", "-std=c++20"}).exit_code, 0);
  std::string changed = kTools;
  changed.replace(changed.find("Finds items by text."), 20, "Finds items by words.");
  changed.erase(changed.find("/// Drops an item."),
                std::string("/// Drops an item.\nPTC_TOOL() PTC_DESTRUCTIVE int drop(int id);\n").size());
  write("shop.hpp", changed);
  auto r = gen_into("sarif", "check.sarif", {"shop.hpp"}, {"--check", path("out"), "--update-command=make update"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("shop.tools.json differs from what ptc-gen generates"), std::string::npos) << "the text stays";
  EXPECT_NE(r.out.find("Finds items by words."), std::string::npos) << "the diff stays";
  const json results = sarif("check.sarif")["runs"][0]["results"];
  ASSERT_EQ(results.size(), 2u) << results.dump(2);
  EXPECT_EQ(results[0]["ruleId"], "ptc/drift");
  EXPECT_EQ(results[0]["properties"]["tool"], "search");
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"], 6);
  EXPECT_EQ(results[1]["properties"]["tool"], "drop");
  EXPECT_EQ(results[1]["locations"][0]["physicalLocation"]["region"], json::parse(R"({"startLine":1})"));
  EXPECT_NE(results[1]["message"]["text"].get<std::string>().find("no longer declared"), std::string::npos);
  EXPECT_NE(results[1]["message"]["text"].get<std::string>().find("run: make update"), std::string::npos);
  EXPECT_EQ(schema_errors("check.sarif"), "");
}

TEST_F(PtcGenDiagnostics, AMissingFileIsDriftOfTheHeader) {
  write("shop.hpp", kTools);
  ASSERT_EQ(gen({"--out-dir", path("out"), path("shop.hpp"), "--", "-std=c++20"}).exit_code, 0);
  fs::remove(dir_ / "out" / "shop.tools.md");
  auto r = gen_into("json", "check.json", {"shop.hpp"}, {"--check", path("out")});
  EXPECT_EQ(r.exit_code, 1);
  const json d = json::parse(read("check.json"))["diagnostics"];
  ASSERT_EQ(d.size(), 1u) << d.dump(2);
  EXPECT_EQ(d[0]["rule"], "ptc/drift");
  EXPECT_EQ(d[0]["file"], path("shop.hpp"));
  EXPECT_EQ(d[0]["line"], 1);
  EXPECT_EQ(d[0]["message"], "shop.tools.md is missing from the committed generated files");
}

TEST_F(PtcGenDiagnostics, JsonNamesFilesAsTheTextDoes) {
  write("p.hpp", kProblems);
  auto text = gen({"--out-dir", path("out"), path("p.hpp"), "--", "-std=c++20"});
  auto r = gen_into("json", "out.json", {"p.hpp"});
  EXPECT_EQ(r.err, text.err) << "with a file, stderr keeps the text";
  const json d = json::parse(read("out.json"))["diagnostics"];
  ASSERT_GE(d.size(), 4u);
  const std::string at = d[0]["file"].get<std::string>() + ":" + std::to_string(d[0]["line"].get<int>()) + ":" +
                         std::to_string(d[0]["column"].get<int>()) + ": error: " + d[0]["message"].get<std::string>();
  EXPECT_EQ(text.err.substr(0, at.size()), at);
  EXPECT_EQ(d[0]["rule"], "ptc/unsupported-type");
  EXPECT_EQ(d[0]["tool"], "find");
}

TEST_F(PtcGenDiagnostics, WithoutAFileTheDocumentReplacesTheText) {
  write("p.hpp", kProblems);
  auto r = gen({"--diagnostics-format=json", "--out-dir", path("out"), path("p.hpp"), "--", "-std=c++20"});
  EXPECT_EQ(r.exit_code, 1);
  const json d = json::parse(r.err);  // all of stderr, no "N errors generated." line
  EXPECT_GE(d["diagnostics"].size(), 4u);
  r = gen({"--diagnostics-format=sarif", path("missing.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(rule_ids(json::parse(r.err)), std::set<std::string>{"ptc/unreadable-header"});
}

TEST_F(PtcGenDiagnostics, TheFileIsWrittenWithoutDiagnosticsToo) {
  std::string unhinted = kTools;
  unhinted.erase(unhinted.find("PTC_DESTRUCTIVE "), 16);
  write("shop.hpp", unhinted);
  auto r = gen_into("sarif", "out.sarif", {"shop.hpp"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(rule_ids(sarif("out.sarif")), std::set<std::string>{"ptc/unstated-hints"});
  EXPECT_EQ(sarif("out.sarif")["runs"][0]["results"][0]["level"], "note");
  write("shop.hpp", kTools);
  r = gen_into("sarif", "out.sarif", {"shop.hpp"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(sarif("out.sarif")["runs"][0]["results"], json::array()) << "code scanning then closes old alerts";
}

// The emitter's rules and the command line's, which the front end's tests cannot reach.
TEST_F(PtcGenDiagnostics, RulesOfTheEmitterAndTheCommandLine) {
  write("a/p.hpp", R"(#include <string>
#include <ptc/annotate.hpp>
/// Finds.
PTC_TOOL() PTC_READ_ONLY int find(PTC_PATTERN("(?i)abc") std::string code);
/// Reads an item.
PTC_RESOURCE("shop://items/{id}") PTC_SIGNATURE("(sku :string) -> :string") std::string item(std::string sku);
)");
  auto emitted = gen_into("json", "emit.json", {"a/p.hpp"});
  EXPECT_EQ(emitted.exit_code, 1) << emitted.err;
  std::set<std::string> rules;
  const json emit_log = json::parse(read("emit.json"));
  for (const auto& d : emit_log["diagnostics"]) rules.insert(d["rule"].get<std::string>());
  EXPECT_EQ(rules, (std::set<std::string>{"ptc/provider-profile", "ptc/runtime-refusal"}));
  write("b/p.hpp", kTools);
  auto r = gen_into("sarif", "stems.sarif", {"a/p.hpp", "b/p.hpp"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(rule_ids(sarif("stems.sarif")).count("ptc/name-collision"), 1u);
}

// ptc_generate with PTC_SARIF_DIR: the build step and the check write <dir>/<target>.sarif, categorised
// by the target, with URIs relative to the project's source directory.
TEST_F(PtcGenDiagnostics, PtcGenerateWritesSarifForTheTarget) {
  write("project/CMakeLists.txt",
        ptc_generate_project(R"(ptc_generate(TARGET app HEADERS include/first.hpp CHECK_DIR generated)
)"));
  write("project/include/first.hpp", "#include <ptc/annotate.hpp>\n/// Reads.\nPTC_TOOL() int read(char c);\n");
  const std::string build = path("project/build");
  const auto sh = [](const std::string& command) {
    return ptc::test::run_process("/bin/sh", {"-c", command + " 2>&1"});
  };
  auto configured =
      sh(std::string("'") + PTC_TEST_CMAKE + "' -S '" + path("project") + "' -B '" + build +
         "' -G Ninja -DCMAKE_MAKE_PROGRAM='" + PTC_TEST_NINJA + "' -DPTC_SARIF_DIR='" + build + "/sarif'");
  ASSERT_EQ(configured.exit_code, 0) << configured.out;
  const std::string ninja = std::string("'") + PTC_TEST_NINJA + "' -C '" + build + "' ";
  auto built = sh(ninja + "app_ptc_gen");
  EXPECT_NE(built.exit_code, 0);
  EXPECT_NE(built.out.find("first.hpp:3:26: error: parameter 'c'"), std::string::npos) << "the text stays" << built.out;
  json log = sarif("project/build/sarif/app.sarif");
  EXPECT_EQ(log["runs"][0]["automationDetails"]["id"], "ptc-gen/app/");
  EXPECT_EQ(log["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"], "file://" + path("project") + "/");
  EXPECT_EQ(log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"],
            json::parse(R"({"uri":"include/first.hpp","uriBaseId":"SRCROOT"})"));
  write("project/include/first.hpp", "#include <ptc/annotate.hpp>\n/// Reads.\nPTC_TOOL() PTC_READ_ONLY int read();\n");
  built = sh(ninja + "app_ptc_gen");
  EXPECT_EQ(built.exit_code, 0) << built.out;
  EXPECT_EQ(sarif("project/build/sarif/app.sarif")["runs"][0]["results"], json::array());
  auto checked = sh(ninja + "app_ptc_check");
  EXPECT_NE(checked.exit_code, 0);
  log = sarif("project/build/sarif/app.sarif");
  EXPECT_EQ(rule_ids(log), std::set<std::string>{"ptc/drift"}) << "the committed files were never written";
  EXPECT_EQ(log["runs"][0]["results"].size(), 4u);
  EXPECT_EQ(schema_errors("project/build/sarif/app.sarif"), "");
}

TEST_F(PtcGenDiagnostics, UsageErrors) {
  write("shop.hpp", kTools);
  auto r = gen({"--diagnostics-file=x.sarif", path("shop.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "ptc-gen: --diagnostics-file needs --diagnostics-format=json or sarif (text goes to stderr)\n");
  r = gen({"--diagnostics-format=xml", path("shop.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "ptc-gen: --diagnostics-format must be text, json or sarif\n");
}

}  // namespace
}  // namespace ptcgen::test
