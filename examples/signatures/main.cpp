// A hand-written signature, an LLM's slightly-off tool call, and what ptc makes of both.
//
// Build and run: scripts/demo.sh (or the `signatures_example` target).

#include <iostream>

#include <ptc/ptc.hpp>

int main() {
  // 1. Describe the tool once, in the signature language.
  auto sig = ptc::Signature::parse(
      "(query :string, limit :int[1..100]?, status :enum[open closed]) -> [{id :int, title :string}]");
  if (!sig) {
    std::cerr << sig.error().to_string() << "\n";
    return 1;
  }
  ptc::ToolDescription search{"search_issues", "Find issues whose title matches query.", *sig};
  std::cout << ptc::render_tool_list({&search, 1}) << "\n";

  // 2. LLMs quote numbers. Input validation coerces "10" to 10 and says so.
  auto call = nlohmann::json::parse(R"({"query": "printer", "limit": "10", "status": "open"})");
  auto good = ptc::validate_and_coerce(sig->input(), call, {ptc::Direction::Input});
  std::cout << "call:    " << call.dump() << "\n"
            << "decoded: " << good.value.dump() << "\n"
            << good.report() << "\n";

  // 3. A call that cannot be repaired: every problem is reported, with its path, in the text that
  //    goes back to the LLM so it can correct itself.
  auto bad_call = nlohmann::json::parse(R"({"limit": 500, "status": "archived"})");
  auto bad = ptc::validate_and_coerce(sig->input(), bad_call, {ptc::Direction::Input});
  std::cout << "call:    " << bad_call.dump() << "\n" << bad.report();
  return bad.ok ? 1 : 0;  // the demo expects the second call to be rejected
}
