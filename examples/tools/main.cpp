// A notes workspace: hand-written tools, two policies, and what the model reads back when it calls
// them well, badly, or out of order.
//
// Without arguments it plays a short scripted conversation. With arguments it is the tool CLI every
// ptc program gets from ptc::cli::run:
//   tools_example list | prompt | schema [--profile openai] | call NAME '<json>' [--mode strict]
// Build and run: scripts/demo.sh (or the `tools_example` target).

#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include <ptc/ptc.hpp>

namespace {

using nlohmann::json;
using Result = ptc::ToolResult<json>;

// Handlers receive arguments already validated and coerced to the signature, so `args["path"]` is
// known to be a string here.

void add_file_tools(ptc::ToolRegistry& registry) {
  // One policy shared by both tools: it notes what read_file read and refuses to let write_file
  // overwrite anything else. What it remembers lives in the session.
  auto read_first = std::make_shared<ptc::ReadBeforeWritePolicy>();
  registry.add(ptc::make_tool("read_file", "Read a text file from the workspace.", "(path :string) -> :string",
                              [](const json& args, ptc::ToolContext& context) {
                                return Result::ok(context.filesystem().read(args["path"].get<std::string>()));
                              }),
               {read_first});
  registry.add(ptc::make_tool("write_file", "Create or overwrite a text file in the workspace.",
                              "(path :string, content :string) -> {bytes :int}",
                              [](const json& args, ptc::ToolContext& context) {
                                const auto& content = args["content"].get_ref<const std::string&>();
                                context.filesystem().write(args["path"].get<std::string>(), content);
                                return Result::ok({{"bytes", content.size()}});
                              }),
               {read_first});
}

void add_math_tools(ptc::ToolRegistry& registry) {
  registry.add(ptc::make_tool("add", "Add two integers.", "(a :int, b :int) -> :int",
                              [](const json& args, ptc::ToolContext&) {
                                const auto a = args["a"].get<std::int64_t>(), b = args["b"].get<std::int64_t>();
                                std::int64_t sum = 0;
                                // A failure the model can act on is a failed result, not an exception.
                                if (__builtin_add_overflow(a, b, &sum))
                                  return Result::error("The sum does not fit in a 64-bit integer.");
                                return Result::ok(sum);
                              }));
  registry.add(ptc::make_tool("divide", "Divide a by b.", "(a :float, b :float) -> :float",
                              [](const json& args, ptc::ToolContext&) {
                                const double b = args["b"].get<double>();
                                // Throwing is fine too: dispatch turns it into a failed result.
                                if (b == 0) throw std::domain_error("division by zero");
                                return Result::ok(args["a"].get<double>() / b);
                              }));
}

void add_release_tools(ptc::ToolRegistry& registry) {
  // deploy may run only after build and test have succeeded in the same session. The policy must
  // govern all three tools, because it learns of successes from the tools it governs.
  auto order = std::make_shared<ptc::SequentialDependencyPolicy>(std::map<std::string, std::set<std::string>>{
      {"deploy", {"build", "test"}}});
  for (std::string step : {"build", "test", "deploy"}) {
    registry.add(ptc::make_tool(step, "Run the " + step + " step of the release.", "() -> :string",
                                [step](const json&, ptc::ToolContext&) { return Result::ok(step + " done"); }),
                 {order});
  }
}

/// Each session (one conversation) gets its own in-memory workspace. A failed call rolls it back.
void prepare_workspace(ptc::Session& session) {
  auto files = std::make_shared<ptc::InMemoryFilesystem>();
  files->write("notes.txt", "- buy milk\n- call Bob\n");
  session.resources().add<ptc::Filesystem>(files);
}

/// Every line of `text` indented, so multi-line replies stay readable under their call.
std::string indented(std::string_view text) {
  if (text.ends_with('\n')) text.remove_suffix(1);
  std::string out = "    ";
  for (char c : text) out += c == '\n' ? std::string("\n    ") : std::string(1, c);
  return out;
}

/// One call as a provider would send it (arguments as JSON text), and what goes back to the model.
void show_call(const ptc::ToolRegistry& registry, ptc::Session& session, const std::string& tool,
               const std::string& arguments) {
  const ptc::ToolOutcome outcome = registry.dispatch(session, ptc::ToolCall{"", tool, arguments});
  std::cout << "> " << tool << " " << arguments << "   [" << ptc::status_name(outcome.status) << "]\n"
            << indented(outcome.rendered) << "\n";
  for (const auto& w : outcome.validation.warnings) std::cout << "    warning: " << w.path << ": " << w.message << "\n";
  std::cout << "\n";
}

void run_demo(const ptc::ToolRegistry& registry) {
  const auto tools = registry.tools();
  std::cout << ptc::render_tool_list(tools) << "\n";

  ptc::Session session;
  prepare_workspace(session);
  show_call(registry, session, "add", R"({"a":"2","b":3})");  // a quoted number is coerced, with a warning
  show_call(registry, session, "add", R"({"a":"two"})");      // every problem is reported, with its path
  const std::string edit = R"({"path":"notes.txt","content":"- buy milk\n"})";
  show_call(registry, session, "write_file", edit);  // denied: notes.txt was not read yet
  show_call(registry, session, "read_file", R"({"path":"notes.txt"})");
  show_call(registry, session, "write_file", edit);            // allowed now
  show_call(registry, session, "divide", R"({"a":1,"b":0})");  // the exception becomes a failed result
  show_call(registry, session, "deploy", "{}");                // denied: build and test come first
}

}  // namespace

int main(int argc, char** argv) {
  ptc::ToolRegistry registry;
  add_file_tools(registry);
  add_math_tools(registry);
  add_release_tools(registry);

  if (argc > 1) return ptc::cli::run(registry, argc, argv, {.prepare_session = prepare_workspace});
  run_demo(registry);
  return 0;
}
