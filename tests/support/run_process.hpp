#pragma once
// Runs a program with arguments and captures its exit code, stdout and stderr (for CLI tests).

#include <string>
#include <vector>

namespace ptc::test {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args);

}  // namespace ptc::test
