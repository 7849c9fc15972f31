// read_file: sized from fstat for regular files, read to the end for files that report no
// size (/proc), and the error naming the file it cannot open.
#include "common/file_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "common/error.h"

using namespace ibburn;

namespace {

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/file_io_test_" + std::to_string(getpid()) + "_" + name;
}

TEST(ReadFile, ReadsALargeFileExactly) {
  // Above the size that asks for huge pages, and not a multiple of any page size.
  std::string text;
  for (int i = 0; text.size() < (std::size_t{5} << 20); ++i) text += "line " + std::to_string(i) + "\n";
  text += "no newline at the end";
  const std::string path = temp_path("large");
  std::ofstream(path, std::ios::binary) << text;
  EXPECT_EQ(read_file(path), text);
  std::remove(path.c_str());
}

TEST(ReadFile, ReadsEmptyAndSmallFiles) {
  const std::string empty = temp_path("empty"), small = temp_path("small");
  std::ofstream(empty, std::ios::binary) << "";
  std::ofstream(small, std::ios::binary) << "abc";
  EXPECT_EQ(read_file(empty), "");
  EXPECT_EQ(read_file(small), "abc");
  std::remove(empty.c_str());
  std::remove(small.c_str());
}

TEST(ReadFile, ReadsToTheEndOfAFileThatReportsNoSize) {
  // /proc files stat as 0 bytes; their text is still there.
  const std::string status = read_file("/proc/self/status");
  EXPECT_NE(status.find("Name:"), std::string::npos);
  EXPECT_NE(status.find("VmRSS:"), std::string::npos);
}

TEST(ReadFile, AMissingFileIsAnInputErrorNamingIt) {
  const std::string path = temp_path("absent");
  try {
    read_file(path);
    FAIL() << "a missing file was read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}

}  // namespace
