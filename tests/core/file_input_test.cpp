// ptc::read_regular_file: only regular files, never blocking, never reading past the limit.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ptc/file_input.hpp>

namespace fs = std::filesystem;

namespace {

class ReadRegularFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ptc_file_input_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return dir_ / name;
  }
  fs::path dir_;
};

TEST_F(ReadRegularFile, ReadsAWholeFileWithNulBytes) {
  const std::string content("a\0b\nc", 5);
  auto r = ptc::read_regular_file(write("f", content));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, content);
}

TEST_F(ReadRegularFile, ADirectoryIsNamedAndRefused) {
  auto r = ptc::read_regular_file(dir_);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, dir_.string() + ": not a regular file (a directory)");
}

TEST_F(ReadRegularFile, AFifoIsRefusedWithoutWaitingForAWriter) {
  const auto fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = ptc::read_regular_file(fifo);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, fifo.string() + ": not a regular file (a FIFO)");
}

TEST_F(ReadRegularFile, ASymlinkToDevZeroIsRefused) {
  const auto link = dir_ / "settings.json";
  fs::create_symlink("/dev/zero", link);
  auto r = ptc::read_regular_file(link);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, link.string() + ": not a regular file (a character device)");
}

TEST_F(ReadRegularFile, AFileOverTheLimitIsRefusedBeforeReading) {
  auto r = ptc::read_regular_file(write("big", std::string(101, 'x')), 100);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, (dir_ / "big").string() + ": more than 100 bytes (the limit)");
  auto exact = ptc::read_regular_file(write("exact", std::string(100, 'x')), 100);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->size(), 100u);
}

TEST_F(ReadRegularFile, AMissingFileNamesThePathAndTheCause) {
  auto r = ptc::read_regular_file(dir_ / "missing");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, (dir_ / "missing").string() + ": No such file or directory");
}

}  // namespace
