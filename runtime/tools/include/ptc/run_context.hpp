#pragma once
// Correlation ids of one evaluation, carried into tool contexts and telemetry.

#include <string>

namespace ptc {

struct RunContext {
  std::string run_id;
  std::string request_id;
  std::string session_id;
  int attempt = 1;
  std::string trace_id;
  std::string span_id;
  friend bool operator==(const RunContext&, const RunContext&) = default;
};

}  // namespace ptc
