// generator/output/outputs.cpp: writing only what changed, comparing with a directory (--check), and
// the make-style depfile.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <llvm/Support/raw_ostream.h>
#include <unistd.h>

#include "output/outputs.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ptcgen::emit::OutputFile;

class Outputs : public ::testing::Test {
 protected:
  Outputs() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ =
        fs::temp_directory_path() / ("ptcgen_output_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  ~Outputs() override { fs::remove_all(dir_); }

  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string dir() const { return dir_.string(); }

  fs::path dir_;
};

TEST_F(Outputs, WriteCreatesTheDirectoryAndTheFiles) {
  std::string err;
  llvm::raw_string_ostream e(err);
  ASSERT_TRUE(ptcgen::output::write_outputs({{"a.ptc.hpp", "header\n"}, {"a.tools.md", "tools\n"}}, dir(), e));
  EXPECT_EQ(read("a.ptc.hpp"), "header\n");
  EXPECT_EQ(read("a.tools.md"), "tools\n");
  EXPECT_EQ(e.str(), "");
}

TEST_F(Outputs, AnUnchangedFileKeepsItsTimeAndAChangedOneIsReplaced) {
  std::string err;
  llvm::raw_string_ostream e(err);
  ASSERT_TRUE(ptcgen::output::write_outputs({{"same", "x"}, {"changed", "old"}}, dir(), e));
  const auto same_before = fs::last_write_time(dir_ / "same");
  // Coarse file systems keep times in whole seconds or less: let any rewrite show.
  fs::last_write_time(dir_ / "same", same_before - std::chrono::seconds(10));
  const auto same_set = fs::last_write_time(dir_ / "same");
  ASSERT_TRUE(ptcgen::output::write_outputs({{"same", "x"}, {"changed", "new"}}, dir(), e));
  EXPECT_EQ(fs::last_write_time(dir_ / "same"), same_set);
  EXPECT_EQ(read("changed"), "new");
  // No temporary file is left behind.
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
  EXPECT_EQ(names.size(), 2u);
}

TEST_F(Outputs, WriteIfChangedReportsAFileItCannotWrite) {
  std::string err;
  llvm::raw_string_ostream e(err);
  fs::create_directories(dir_ / "blocked");
  // A directory stands where the file should go: the rename onto it fails.
  fs::create_directories(dir_ / "blocked" / "file");
  EXPECT_FALSE(ptcgen::output::write_if_changed((dir_ / "blocked" / "file").string(), "text", e));
  EXPECT_THAT(e.str(), HasSubstr("ptc-gen: error: cannot"));
  // The temporary file is removed again.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_ / "blocked")) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST_F(Outputs, CheckPassesOnlyWhenEveryFileHoldsTheSameBytes) {
  std::string out_text, err_text;
  llvm::raw_string_ostream out(out_text), err(err_text);
  const std::vector<OutputFile> files{{"a.ptc.cpp", "one\ntwo\n"}};
  ASSERT_TRUE(ptcgen::output::write_outputs(files, dir(), err));
  EXPECT_TRUE(ptcgen::output::check_outputs(files, dir(), "make update", out, err));
  EXPECT_EQ(out.str(), "");

  EXPECT_FALSE(ptcgen::output::check_outputs({{"a.ptc.cpp", "one\nTWO\n"}}, dir(), "make update", out, err));
  EXPECT_THAT(out.str(), HasSubstr("-two"));
  EXPECT_THAT(out.str(), HasSubstr("+TWO"));
  EXPECT_THAT(err.str(), HasSubstr("a.ptc.cpp differs from what ptc-gen generates"));
  EXPECT_THAT(err.str(), HasSubstr("to update the files in " + dir() + ", run:\n  make update\n"));
  EXPECT_EQ(read("a.ptc.cpp"), "one\ntwo\n");  // --check writes nothing
}

TEST_F(Outputs, CheckReportsAMissingFile) {
  std::string out_text, err_text;
  llvm::raw_string_ostream out(out_text), err(err_text);
  EXPECT_FALSE(ptcgen::output::check_outputs({{"b.tools.json", "{}\n"}}, dir(), "make update", out, err));
  EXPECT_THAT(err.str(), HasSubstr("b.tools.json is missing"));
  EXPECT_THAT(out.str(), HasSubstr("+{}"));
}

TEST(Depfile, EveryTargetDependsOnEveryInputWithMakeEscapes) {
  EXPECT_EQ(ptcgen::output::depfile_text({"/out/a.ptc.hpp", "/out/a.ptc.cpp"}, {"/src/a.hpp", "/usr/include/vector"}),
            "/out/a.ptc.hpp /out/a.ptc.cpp: \\\n  /src/a.hpp \\\n  /usr/include/vector\n");
  EXPECT_EQ(ptcgen::output::depfile_text({"/out/my file#1.hpp"}, {"/src/$HOME dir/x.hpp"}),
            "/out/my\\ file\\#1.hpp: \\\n  /src/$$HOME\\ dir/x.hpp\n");
  EXPECT_EQ(ptcgen::output::depfile_text({"t"}, {}), "t:\n");
}

}  // namespace
