#include <ptc/tool_call.hpp>

namespace ptc {

std::string_view status_name(CallStatus s) {
  switch (s) {
    case CallStatus::Succeeded: return "succeeded";
    case CallStatus::Failed: return "failed";
    case CallStatus::UnknownTool: return "unknown_tool";
    case CallStatus::NoHandler: return "no_handler";
    case CallStatus::InvalidArguments: return "invalid_arguments";
    case CallStatus::Denied: return "denied";
    case CallStatus::HandlerException: return "handler_exception";
    case CallStatus::InvalidResult: return "invalid_result";
  }
  return "unknown";
}

}  // namespace ptc
