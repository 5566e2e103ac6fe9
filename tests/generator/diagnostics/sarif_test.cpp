// --diagnostics-format=sarif from hand-built logs: URIs against SRCROOT, fingerprints without lines,
// the rule table in the driver. tests/generator/tool/diagnostics_test.cpp validates real runs against
// the SARIF 2.1.0 schema.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "diagnostics/sarif.hpp"

namespace ptcgen::diagnostics {
namespace {

using nlohmann::json;

SarifOptions options() { return {"1.2.3", "app", "/repo", "/repo/build"}; }

json run_of(const Log& log, const SarifOptions& o = options()) { return json::parse(to_sarif(log, o))["runs"][0]; }

TEST(Sarif, TheRunAndItsDriver) {
  const json doc = json::parse(to_sarif(Log(), options()));
  EXPECT_EQ(doc["version"], "2.1.0");
  EXPECT_EQ(doc["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(doc["runs"].size(), 1u);
  const json& run = doc["runs"][0];
  EXPECT_EQ(run["automationDetails"]["id"], "ptc-gen/app/");
  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file:///repo/");
  EXPECT_EQ(run["results"], json::array());
  EXPECT_EQ(run["tool"]["driver"]["name"], "ptc-gen");
  EXPECT_EQ(run["tool"]["driver"]["version"], "1.2.3");
  const json& descriptors = run["tool"]["driver"]["rules"];
  ASSERT_EQ(descriptors.size(), rules().size());
  for (std::size_t i = 0; i < descriptors.size(); ++i) {
    const json& d = descriptors[i];
    EXPECT_EQ(d["id"], rules()[i].id);
    EXPECT_EQ(d["shortDescription"]["text"], rules()[i].short_description);
    EXPECT_EQ(d["fullDescription"]["text"], rules()[i].full_description);
    EXPECT_EQ(d["help"]["markdown"], rules()[i].help);
    EXPECT_FALSE(d["help"]["text"].get<std::string>().empty());
    EXPECT_EQ(d["defaultConfiguration"]["level"], severity_name(rules()[i].default_severity));
  }
}

TEST(Sarif, ResultsAreRelativeToSrcrootWithRuleIndexAndNotes) {
  Log log;
  log.add(RuleId::NameCollision, Severity::Error, "tool name 'f' is already taken", {"../include/a b.hpp", 7, 3}, "f");
  log.note({"name one of them differently", {}});
  log.note({"the other tool 'f' is declared here", {"../include/a b.hpp", 4, 3}});
  const json result = run_of(log)["results"][0];
  EXPECT_EQ(result["ruleId"], "ptc/name-collision");
  EXPECT_EQ(result["ruleIndex"], rule_index(RuleId::NameCollision));
  EXPECT_EQ(result["level"], "error");
  EXPECT_EQ(result["message"]["text"], "tool name 'f' is already taken\nnote: name one of them differently");
  const json& at = result["locations"][0]["physicalLocation"];
  EXPECT_EQ(at["artifactLocation"], json::parse(R"({"uri":"include/a%20b.hpp","uriBaseId":"SRCROOT"})"));
  EXPECT_EQ(at["region"], json::parse(R"({"startLine":7,"startColumn":3})"));
  ASSERT_EQ(result["relatedLocations"].size(), 1u);
  EXPECT_EQ(result["relatedLocations"][0]["message"]["text"], "the other tool 'f' is declared here");
  EXPECT_EQ(result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 4);
  EXPECT_EQ(result["properties"]["tool"], "f");
}

TEST(Sarif, FilesOutsideTheRootAreAbsoluteAndFileLevelResultsHaveNoRegion) {
  Log log;
  log.add(RuleId::UnreadableHeader, Severity::Error, "cannot read", {"/usr/include/x.hpp", 0, 0});
  log.add(RuleId::Drift, Severity::Error, "differs", {"/repo/include/a.hpp", 1, 0});
  const json results = run_of(log)["results"];
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"],
            json::parse(R"({"artifactLocation":{"uri":"file:///usr/include/x.hpp"}})"));
  EXPECT_EQ(
      results[1]["locations"][0]["physicalLocation"],
      json::parse(R"({"artifactLocation":{"uri":"include/a.hpp","uriBaseId":"SRCROOT"},"region":{"startLine":1}})"));
}

TEST(Sarif, FingerprintsIgnoreLinesAndColumnsOnly) {
  const auto print = [](const std::string& rule, const std::string& file, unsigned line, const std::string& message) {
    Diagnostic d;
    d.rule = rule;
    d.message = message;
    d.location = {file, line, 4};
    d.tool = "f";
    Log log;
    log.add(d);
    return run_of(log)["results"][0]["partialFingerprints"]["ptcFingerprint/v1"].get<std::string>();
  };
  const std::string base = print("ptc/unsupported-type", "a.hpp", 10, "m");
  EXPECT_EQ(base.size(), 16u);
  EXPECT_EQ(print("ptc/unsupported-type", "a.hpp", 99, "m"), base);
  EXPECT_NE(print("ptc/invalid-default", "a.hpp", 10, "m"), base);
  EXPECT_NE(print("ptc/unsupported-type", "b.hpp", 10, "m"), base);
  EXPECT_NE(print("ptc/unsupported-type", "a.hpp", 10, "n"), base);
}

TEST(Sarif, RepeatedResultsGetDistinctFingerprints) {
  Log log;
  log.add(RuleId::UnstatedHints, Severity::Note, "same", {"a.hpp", 1, 1});
  log.add(RuleId::UnstatedHints, Severity::Note, "same", {"a.hpp", 5, 1});
  const json results = run_of(log)["results"];
  EXPECT_NE(results[0]["partialFingerprints"], results[1]["partialFingerprints"]);
}

TEST(Sarif, TheSameLogGivesTheSameBytes) {
  Log log;
  log.add(RuleId::DepthLimit, Severity::Warning, "cut", {"a.hpp", 3, 1}, "f");
  EXPECT_EQ(to_sarif(log, options()), to_sarif(log, options()));
}

TEST(Sarif, UriPaths) {
  EXPECT_EQ(uri_path("a/b-c_d.e~f"), "a/b-c_d.e~f");
  EXPECT_EQ(uri_path("a b#c%"), "a%20b%23c%25");
  EXPECT_EQ(uri_path("\xc3\xa9"), "%C3%A9");
}

}  // namespace
}  // namespace ptcgen::diagnostics
