// The ptc-gen binary: outputs, --print-signatures, --depfile, --check, write-if-changed, exit codes.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.hpp"
#include "ptc_generate_project.hpp"
#include "scratch_dir.hpp"

namespace ptcgen::test {
namespace {

namespace fs = std::filesystem;

class PtcGenCli : public ScratchDirTest {
 protected:
  ptc::test::ProcessResult gen(std::vector<std::string> args) const { return ptc::test::run_process(PTC_GEN, args); }
};

const char* const kHeader = R"(#pragma once
#include <string>
#include <ptc/annotate.hpp>
namespace shop {
/// Finds items by text.
PTC_TOOL() PTC_READ_ONLY std::string search(std::string query, int limit = 10);
/// Counts items.
PTC_TOOL() PTC_READ_ONLY int count();
}
)";

// A tool without behaviour hints is noted at its declaration, in every mode that reads the tools, and
// the run still succeeds: a note is advice, never an error.
TEST_F(PtcGenCli, NotesEachToolWithoutHintsAndSucceeds) {
  write("plain.hpp", R"(#include <ptc/annotate.hpp>
/// Deletes an issue.
PTC_TOOL() int delete_issue(int id);
/// Reads an issue.
PTC_TOOL() PTC_READ_ONLY int read_issue(int id);
)");
  const std::string note = path("plain.hpp") +
                           ":3:16: note: tool 'delete_issue' states no behaviour hints; MCP clients will treat it as "
                           "destructive and open-world (add PTC_READ_ONLY, PTC_ADDITIVE, PTC_DESTRUCTIVE, "
                           "PTC_IDEMPOTENT or PTC_OPEN_WORLD)\n";
  auto r = gen({"--out-dir", path("out"), path("plain.hpp"), "--", "-std=c++20"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, note);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "plain.tools.json"));
  r = gen({"--check", path("out"), path("plain.hpp"), "--", "-std=c++20"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, note);
}

TEST_F(PtcGenCli, PrintSignaturesPrintsOneLinePerToolAndWritesNothing) {
  write("shop.hpp", kHeader);
  auto r = gen({"--print-signatures", "--out-dir", path("out"), path("shop.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "search(query :string, limit :int?) -> :string\ncount() -> :int\n");
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::is_empty(dir_ / "out"));
}

// JSON Schema patterns are ECMA-262: a PTC_PATTERN with no exact translation fails the generation at the
// parameter, and one that has it is written translated.
TEST_F(PtcGenCli, PatternsWithoutAnEcmaFormAreErrors) {
  write("p.hpp", R"(#include <string>
#include <ptc/annotate.hpp>
/// Finds.
PTC_TOOL() int find(PTC_PATTERN("(?i)abc") std::string code);
/// Reads.
PTC_TOOL() int read(PTC_PATTERN("^\\Qa.b\\E[[:digit:]]$") std::string code);
)");
  auto r = gen({"--out-dir", path("out"), path("p.hpp"), "--", "-std=c++20"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(path("p.hpp") +
                       ":4:16: error: profile portable: tool 'find': portable cannot express [:re \"(?i)abc\"] as an "
                       "ECMA-262 pattern (flags such as (?i) have no ECMA-262 form at offset 0) at code\n"),
            std::string::npos)
      << r.err;
  write("p.hpp", R"(#include <string>
#include <ptc/annotate.hpp>
/// Reads.
PTC_TOOL() int read(PTC_PATTERN("^\\Qa.b\\E[[:digit:]]$") std::string code);
)");
  r = gen({"--out-dir", path("out"), path("p.hpp"), "--", "-std=c++20"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read("out/p.tools.json").find(R"("pattern": "^a\\.b[0-9]$")"), std::string::npos)
      << read("out/p.tools.json");
}

TEST_F(PtcGenCli, WritesFourFilesPerHeader) {
  write("shop.hpp", kHeader);
  auto r = gen({"--out-dir", path("out"), path("shop.hpp"), "--", "-std=c++20"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const char* name : {"shop.ptc.hpp", "shop.ptc.cpp", "shop.tools.json", "shop.tools.md"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / name)) << name;
  // No absolute paths in what is generated: the header is included relative to the output directory.
  EXPECT_NE(read("out/shop.ptc.hpp").find("#include \"../shop.hpp\""), std::string::npos) << read("out/shop.ptc.hpp");
  EXPECT_EQ(read("out/shop.ptc.hpp").find(dir_.string()), std::string::npos);
}

TEST_F(PtcGenCli, DepfileListsEveryOutputAndEveryFileRead) {
  write("my dir/shop.hpp", kHeader);
  auto r = gen({"--out-dir", path("out"), "--depfile", path("out/shop.d"), path("my dir/shop.hpp"), "--"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string dep = read("out/shop.d");
  const std::string out = path("out");
  EXPECT_EQ(dep.substr(0, dep.find('\n')),
            out + "/shop.ptc.hpp " + out + "/shop.ptc.cpp " + out + "/shop.tools.json " + out + "/shop.tools.md: \\");
  const std::string escaped = path("my\\ dir/shop.hpp");
  EXPECT_NE(dep.find("\n  " + escaped + " \\\n"), std::string::npos) << dep;
  EXPECT_EQ(dep.back(), '\n');
  EXPECT_NE(dep[dep.size() - 2], '\\');  // the last input ends the rule
  EXPECT_NE(dep.find("/ptc/annotate.hpp"), std::string::npos);
  EXPECT_NE(dep.find("/string \\\n"), std::string::npos);  // system headers too
}

TEST_F(PtcGenCli, UnchangedOutputsAreNotRewritten) {
  write("shop.hpp", kHeader);
  const std::vector<std::string> args = {"--out-dir", path("out"), path("shop.hpp"), "--"};
  ASSERT_EQ(gen(args).exit_code, 0);
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const auto& e : fs::directory_iterator(dir_ / "out")) fs::last_write_time(e.path(), old);

  auto again = gen(args);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  for (const auto& e : fs::directory_iterator(dir_ / "out")) EXPECT_EQ(fs::last_write_time(e.path()), old) << e.path();

  // A change that reaches the outputs rewrites them, and only them.
  std::string changed = kHeader;
  changed.replace(changed.find("Counts items."), 13, "Counts stock.");
  write("shop.hpp", changed);
  ASSERT_EQ(gen(args).exit_code, 0);
  EXPECT_NE(fs::last_write_time(dir_ / "out" / "shop.tools.md"), old);
  EXPECT_NE(read("out/shop.tools.md").find("Counts stock."), std::string::npos);
  EXPECT_EQ(fs::last_write_time(dir_ / "out" / "shop.ptc.hpp"), old);
  for (const auto& e : fs::directory_iterator(dir_ / "out"))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << "left behind: " << e.path();
}

TEST_F(PtcGenCli, CheckPassesOnIdenticalFilesAndWritesNothing) {
  write("shop.hpp", kHeader);
  ASSERT_EQ(gen({"--out-dir", path("out"), path("shop.hpp"), "--"}).exit_code, 0);
  auto r = gen({"--check", path("out"), "--out-dir", path("elsewhere"), path("shop.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere"));
}

TEST_F(PtcGenCli, CheckPrintsAUnifiedDiffAndFailsOnDrift) {
  write("shop.hpp", kHeader);
  ASSERT_EQ(gen({"--out-dir", path("out"), path("shop.hpp"), "--"}).exit_code, 0);
  std::string md = read("out/shop.tools.md");
  const std::string line = "  Counts items.";
  ASSERT_NE(md.find(line), std::string::npos) << md;
  md.replace(md.find(line), line.size(), "  Counts things.");
  write("out/shop.tools.md", md);
  fs::remove(dir_ / "out" / "shop.tools.json");

  auto r = gen({"--check", path("out"), path("shop.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("--- " + path("out/shop.tools.md") + "\n+++ shop.tools.md (generated)\n@@ "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n-  Counts things.\n+  Counts items.\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--- " + path("out/shop.tools.json") + " (missing)\n+++ shop.tools.json (generated)\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.err, "ptc-gen: " + path("out/shop.tools.json") + " is missing\nptc-gen: " + path("out/shop.tools.md") +
                       " differs from what ptc-gen generates\nptc-gen: to update the files in " + path("out") +
                       ", run:\n  cd " + fs::current_path().string() + " && " + PTC_GEN + " --out-dir " + path("out") +
                       " " + path("shop.hpp") + " --\n");
  EXPECT_FALSE(fs::exists(dir_ / "out" / "shop.tools.json"));  // --check writes nothing
}

// The command a failed check suggests is this run writing the files: pasted into a shell, it writes
// files that pass the check, with every flag kept (an include directory whose name has a space here)
// and the --out-dir the check ignored left out.
TEST_F(PtcGenCli, TheCommandAFailedCheckSuggestsWritesFilesThatPass) {
  write("inc dir/dep.hpp", "#pragma once\nnamespace shop { enum class Kind { a, b }; }\n");
  write("shop.hpp", R"(#pragma once
#include <ptc/annotate.hpp>
#include "dep.hpp"
namespace shop {
/// Counts things of a kind.
PTC_TOOL() PTC_READ_ONLY int count(Kind kind);
}
)");
  fs::create_directories(dir_ / "committed");
  const std::vector<std::string> check{
      "--check=" + path("committed"), "--out-dir", path("ignored"), path("shop.hpp"), "--",
      "-I" + path("inc dir"),         "-std=c++20"};
  auto r = gen(check);
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const std::string intro = ", run:\n  ";
  const auto at = r.err.find(intro);
  ASSERT_NE(at, std::string::npos) << r.err;
  std::string command = r.err.substr(at + intro.size());
  ASSERT_FALSE(command.empty());
  command.pop_back();  // the newline
  EXPECT_NE(command.find("'-I" + path("inc dir") + "'"), std::string::npos) << command;
  EXPECT_EQ(command.find("ignored"), std::string::npos) << command;

  auto pasted = ptc::test::run_process("/bin/sh", {"-c", command});
  ASSERT_EQ(pasted.exit_code, 0) << pasted.err;
  EXPECT_TRUE(fs::exists(dir_ / "committed" / "shop.ptc.cpp"));
  EXPECT_FALSE(fs::exists(dir_ / "ignored"));
  auto again = gen(check);
  EXPECT_EQ(again.exit_code, 0) << again.err;
}

TEST_F(PtcGenCli, ABuildCanNameItsOwnUpdateCommand) {
  write("shop.hpp", kHeader);
  auto r = gen({"--check", path("out"), "--update-command", "cmake --build build --target app_ptc_update",
                path("shop.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("ptc-gen: to update the files in " + path("out") +
                       ", run:\n  cmake --build build --target app_ptc_update\n"),
            std::string::npos)
      << r.err;
}

TEST_F(PtcGenCli, ErrorsAreClangStyleAndExitOne) {
  write("bad.hpp", "#include <ptc/annotate.hpp>\n\nPTC_TOOL() int undocumented();\n");
  auto r = gen({"--out-dir", path("out"), path("bad.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, path("bad.hpp") +
                       ":3:16: error: tool 'undocumented' has no description\n"
                       "    3 | PTC_TOOL() int undocumented();\n"
                       "      |                ^\n"
                       "note: document it with a /// comment, or give it PTC_DESCRIPTION(\"...\")\n"
                       "1 error generated.\n");
  EXPECT_TRUE(fs::is_empty(dir_ / "out"));
}

TEST_F(PtcGenCli, EveryHeaderIsReportedInOneRun) {
  write("a.hpp", "#include <ptc/annotate.hpp>\nPTC_TOOL() int a();\n");
  write("b.hpp", "#include <ptc/annotate.hpp>\nPTC_TOOL() int b(int* p);\n");
  auto r = gen({"--out-dir", path("out"), path("a.hpp"), path("b.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(path("a.hpp") + ":2:16: error: tool 'a' has no description"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(path("b.hpp") + ":2:16: error: tool 'b' has no description"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(path("b.hpp") + ":2:23: error: parameter 'p' of tool 'b' has type 'int *'"), std::string::npos)
      << r.err;
}

TEST_F(PtcGenCli, SameStemTwiceIsAnError) {
  write("a/shop.hpp", kHeader);
  write("b/shop.hpp", kHeader);
  auto r = gen({"--out-dir", path("out"), path("a/shop.hpp"), path("b/shop.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "ptc-gen: error: ../a/shop.hpp and ../b/shop.hpp would both generate shop.ptc.hpp; rename one of "
            "them\n");
}

TEST_F(PtcGenCli, BuildDirectoryWithCompileCommands) {
  // The header needs the project's -I; the compilation database of a .cpp beside it has it.
  write("inc/shop/types.hpp", "#pragma once\nnamespace shop { struct Item { int id; }; }\n");
  write("inc/shop/api.hpp",
        "#pragma once\n#include <shop/types.hpp>\n#include <ptc/annotate.hpp>\n"
        "/// Gets an item.\nPTC_TOOL() shop::Item get(int id);\n");
  write("inc/shop/api.cpp", "#include <shop/api.hpp>\n");
  write("build/compile_commands.json", R"([{"directory": ")" + path("build") + R"(", "command": "c++ -std=c++20 -I)" +
                                           path("inc") + " -c " + path("inc/shop/api.cpp") + R"(", "file": ")" +
                                           path("inc/shop/api.cpp") + R"("}])");
  auto r = gen({"--print-signatures", "-p", path("build"), path("inc/shop/api.hpp")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "get(id :int) -> {id :int}\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(PtcGenCli, ABuildDirectoryWithoutCompileCommandsIsAnError) {
  write("shop.hpp", kHeader);
  fs::create_directories(dir_ / "build");
  auto r = gen({"--print-signatures", "-p", path("build"), path("shop.hpp")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "ptc-gen: error: no compile_commands.json in '" + path("build") +
                       "'; configure that build with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or give compiler flags after "
                       "--\n");
}

TEST_F(PtcGenCli, WithoutFlagsOrADatabaseHeadersAreReadQuietly) {
  write("shop.hpp", kHeader);
  auto r = gen({"--print-signatures", path("shop.hpp")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "search(query :string, limit :int?) -> :string\ncount() -> :int\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(PtcGenCli, AMissingHeaderIsOneLine) {
  auto r = gen({"--print-signatures", path("nope.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "ptc-gen: error: cannot read '" + path("nope.hpp") + "': no such file\n");
}

TEST_F(PtcGenCli, UsageErrorsExitTwo) {
  write("shop.hpp", kHeader);
  EXPECT_EQ(gen({"--no-such-option", path("shop.hpp"), "--"}).exit_code, 2);
  EXPECT_EQ(gen({"--max-depth=0", path("shop.hpp"), "--"}).exit_code, 2);
  auto deep = gen({"--max-depth=100000", path("shop.hpp"), "--"});
  EXPECT_EQ(deep.exit_code, 2);
  EXPECT_EQ(deep.err, "ptc-gen: --max-depth must be at most 128 (types nest at most 256 schema levels)\n");
  EXPECT_EQ(gen({"--check", path("out"), "--print-signatures", path("shop.hpp"), "--"}).exit_code, 2);
  auto help = gen({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* option :
       {"--out-dir", "--depfile", "--check", "--print-signatures", "--max-depth", "--resource-dir"})
    EXPECT_NE(help.out.find(option), std::string::npos) << option;
}

TEST_F(PtcGenCli, MaxDepthAndResourceDirOptions) {
  write("deep.hpp", R"(#include <ptc/annotate.hpp>
struct L2 { int v; };
struct L1 { L2 two; };
/// Deep.
PTC_TOOL() L1 deep();
)");
  auto r = gen({"--print-signatures", "--max-depth=1", path("deep.hpp"), "--"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "deep() -> {two :map}\n");
  EXPECT_NE(r.err.find("structs nested deeper than --max-depth=1 are typed :map"), std::string::npos) << r.err;

  // -v shows the compiler invocation.
  auto other = gen({"--print-signatures", "--resource-dir", path("elsewhere"), path("deep.hpp"), "--", "-v"});
  EXPECT_NE(other.err.find("\"-resource-dir\" \"" + path("elsewhere") + "\""), std::string::npos) << other.err;
}

// A failing ptc_generate step names itself in a few words and shows ptc-gen's first diagnostic right
// after, not after Ninja's `FAILED:` line (every output, twice) and the whole command line.
TEST_F(PtcGenCli, AFailingPtcGenerateStepShowsTheDiagnosticFirst) {
  write("project/CMakeLists.txt",
        ptc_generate_project(R"(ptc_generate(TARGET app HEADERS include/first.hpp include/second.hpp)
)"));
  write("project/include/first.hpp", "#include <ptc/annotate.hpp>\n/// Reads.\nPTC_TOOL() int read(char c);\n");
  write("project/include/second.hpp", "#include <ptc/annotate.hpp>\n/// Counts.\nPTC_TOOL() int count();\n");
  // Merged, as a terminal shows them.
  const std::string build = path("project/build");
  auto configured =
      ptc::test::run_process("/bin/sh",
                             {"-c", std::string("'") + PTC_TEST_CMAKE + "' -S '" + path("project") + "' -B '" + build +
                                        "' -G Ninja -DCMAKE_MAKE_PROGRAM='" + PTC_TEST_NINJA + "' 2>&1"});
  ASSERT_EQ(configured.exit_code, 0) << configured.out;
  auto built =
      ptc::test::run_process("/bin/sh", {"-c", std::string("'") + PTC_TEST_NINJA + "' -C '" + build + "' 2>&1"});
  EXPECT_NE(built.exit_code, 0);
  std::vector<std::string> lines;
  std::istringstream in(built.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_GE(lines.size(), 3u) << built.out;
  // "[0/3] ptc-gen app": Ninja's count, then the step's name.
  EXPECT_EQ(lines[1].substr(lines[1].find(']')), "] ptc-gen app") << built.out;
  EXPECT_EQ(lines[2], path("project/include/first.hpp") +
                          ":3:26: error: parameter 'c' of tool 'read' has type 'char': a character is neither text "
                          "nor a number in JSON")
      << built.out;
}

}  // namespace
}  // namespace ptcgen::test
