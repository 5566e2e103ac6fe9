// --diagnostics-format=json: the documented shape, byte for byte.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "diagnostics/json.hpp"

namespace ptcgen::diagnostics {
namespace {

TEST(Json, TheDocumentedShape) {
  Log log;
  log.add(RuleId::UnsupportedType, Severity::Error, "has type 'char'", {"include/a.hpp", 6, 26}, "find");
  log.note({"use std::string", {}});
  log.note({"declared here", {"include/b.hpp", 2, 5}});
  Diagnostic clang;
  clang.rule = "clang/deprecations";
  clang.severity = Severity::Warning;
  clang.message = "'f' is deprecated";
  clang.flag = "-Wdeprecated-declarations";
  log.add(clang);
  EXPECT_EQ(to_json(log), R"({
  "version": 1,
  "diagnostics": [
    {
      "rule": "ptc/unsupported-type",
      "severity": "error",
      "message": "has type 'char'",
      "file": "include/a.hpp",
      "line": 6,
      "column": 26,
      "tool": "find",
      "flag": null,
      "notes": [
        {
          "message": "use std::string",
          "file": null,
          "line": null,
          "column": null
        },
        {
          "message": "declared here",
          "file": "include/b.hpp",
          "line": 2,
          "column": 5
        }
      ]
    },
    {
      "rule": "clang/deprecations",
      "severity": "warning",
      "message": "'f' is deprecated",
      "file": null,
      "line": null,
      "column": null,
      "tool": null,
      "flag": "-Wdeprecated-declarations",
      "notes": []
    }
  ]
}
)");
}

TEST(Json, AnEmptyLogIsAnEmptyList) {
  EXPECT_EQ(nlohmann::json::parse(to_json(Log())), nlohmann::json::parse(R"({"version":1,"diagnostics":[]})"));
}

}  // namespace
}  // namespace ptcgen::diagnostics
