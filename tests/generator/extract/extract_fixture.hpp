#pragma once
// Runs the extractor in process on a header written to a fresh temporary directory.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <llvm/Support/raw_ostream.h>

#include "extract/extract.hpp"

namespace ptcgen::test {

class ExtractTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("ptcgen_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  void write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((dir_ / name).parent_path());
    std::ofstream(dir_ / name) << text;
  }

  /// Extracts `name` (written with `text`); diagnostics land in diagnostics_ with the directory
  /// stripped, so they read `t.hpp:3:5: error: ...`.
  extract::Extraction run(const std::string& text, extract::Options options = {},
                          std::vector<std::string> flags = {"-std=c++20"}, const std::string& name = "t.hpp") {
    write(name, text);
    if (options.out_dir == ".") options.out_dir = dir_.string();
    std::string raw;
    llvm::raw_string_ostream os(raw);
    auto result = extract::extract({path(name)}, flags, options, os);
    os.flush();
    diagnostics_ = strip_dir(raw);
    return result;
  }

  /// The one header's model of a run that must succeed without diagnostics.
  model::HeaderModel ok(const std::string& text, extract::Options options = {},
                        std::vector<std::string> flags = {"-std=c++20"}) {
    auto result = run(text, options, flags);
    EXPECT_FALSE(result.failed) << diagnostics_;
    EXPECT_EQ(diagnostics_, "");
    EXPECT_EQ(result.headers.size(), 1u);
    return result.headers.empty() ? model::HeaderModel{} : result.headers.front();
  }

  /// The diagnostics of a run that must fail.
  std::string errors(const std::string& text, std::vector<std::string> flags = {"-std=c++20"}) {
    auto result = run(text, {}, flags);
    EXPECT_TRUE(result.failed);
    return diagnostics_;
  }

  std::string strip_dir(std::string text) const {
    const std::string prefix = dir_.string() + "/";
    for (auto at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at))
      text.erase(at, prefix.size());
    return text;
  }

  std::filesystem::path dir_;
  std::string diagnostics_;
};

/// The common preamble of test headers.
inline const char* const kPreamble =
    "#pragma once\n"
    "#include <cstdint>\n"
    "#include <string>\n"
    "#include <vector>\n"
    "#include <ptc/annotate.hpp>\n";

}  // namespace ptcgen::test
