#pragma once
// Markers that ptc-gen reads (generator/README.md). Header-only and dependency-free: outside ptc-gen's
// parse (which defines PTC_GENERATOR) every macro expands to nothing, so other compilers see plain
// declarations and warn about nothing.
//
//   /// Finds issues by text.
//   PTC_TOOL() std::vector<Issue> search(std::string query, PTC_RANGE(1, 50) int limit = 10);
//
//   struct Issue {
//     PTC_DOC("Tracker-wide id") std::int64_t id;
//     PTC_PATTERN("^[A-Z]+-[0-9]+$") std::string key;
//     PTC_FIREWALL std::string reporter_email;  // reaches C++, shown to the LLM as "<Firewalled>"
//   };
//
//   struct PTC_ANSWER Triage {  // what an agent answers with: agent.run<Triage>(task)
//     std::vector<Issue> duplicates;
//   };

#if defined(PTC_GENERATOR)
#define PTC_DETAIL_ANNOTATE(...) [[clang::annotate(__VA_ARGS__)]]
#else
#define PTC_DETAIL_ANNOTATE(...)
#endif

/// Marks a free function or a non-static member function as a tool. `PTC_TOOL("name")` also names it.
#define PTC_TOOL(...) PTC_DETAIL_ANNOTATE("ptc.tool" __VA_OPT__(, ) __VA_ARGS__)
/// Marks a free or non-static member function as the reader of an MCP resource: one URI
/// (`PTC_RESOURCE("tracker://labels")`, the function takes no parameters) or an RFC 6570 template
/// whose variables are exactly the function's parameters (`PTC_RESOURCE("tracker://issues/{key}")`,
/// `{+path}` also matching `/`). What it returns is the resource's text: a string as it is, anything
/// else as JSON.
#define PTC_RESOURCE(uri) PTC_DETAIL_ANNOTATE("ptc.resource", uri)
/// The MIME type of a PTC_RESOURCE's contents (default: text/plain for a string, application/json
/// otherwise).
#define PTC_MIME_TYPE(type) PTC_DETAIL_ANNOTATE("ptc.mime_type", type)
/// Marks a free or non-static member function as the renderer of an MCP prompt, which users pick in a
/// host: its parameters are the prompt's arguments, and it returns the text (std::string) or the
/// messages (a std::vector of a struct with the fields `role` and `text`). `PTC_PROMPT("name")` also
/// names it.
#define PTC_PROMPT(...) PTC_DETAIL_ANNOTATE("ptc.prompt" __VA_OPT__(, ) __VA_ARGS__)
/// Completes an argument of a PTC_PROMPT or a variable of a PTC_RESOURCE template as the user types:
/// `PTC_COMPLETE(issue, issue_keys)` calls `std::vector<std::string> issue_keys(std::string_view typed)`
/// (or one taking `const ptc::CompletionRequest&`), a function of the same class or namespace.
#define PTC_COMPLETE(argument, function) PTC_DETAIL_ANNOTATE("ptc.complete", #argument, #function)
/// Marks a struct or an enum as a type an agent may answer with (`agent.run<Verdict>(task)`):
/// `struct PTC_ANSWER Verdict { ... };`, `enum class PTC_ANSWER Mood { ... };`. ptc-gen generates its
/// codec and its schema (ptc::codec::SchemaOf), and those of every type it holds, whether or not a tool
/// uses it, into `<stem>.ptc.hpp`, where code outside the generated source can use them. On anything
/// else (a function, a field, a parameter) it is an error.
#define PTC_ANSWER PTC_DETAIL_ANNOTATE("ptc.answer")
/// The JSON name of a tool (default: the function's name), a struct field or an enumerator (default:
/// the C++ name): `std::string user_name PTC_NAME("userName");`, `kLow PTC_NAME("low")`. Not on a
/// parameter (its JSON name is its C++ name), a struct or an enum, where ptc-gen reports an error.
#define PTC_NAME(name) PTC_DETAIL_ANNOTATE("ptc.name", name)
/// The tool's description (default: the doc comment's text).
#define PTC_DESCRIPTION(text) PTC_DETAIL_ANNOTATE("ptc.description", text)
/// A display name for people (MCP `title`, e.g. in a host's tool menu); the model reads the name and
/// description.
#define PTC_TITLE(text) PTC_DETAIL_ANNOTATE("ptc.title", text)
// What a tool does to the world, for hosts that decide whether to ask before a call (MCP tool
// annotations). A tool with none of these is taken to be able to do anything (destructive, open
// world), and ptc-gen notes it; a tool with any of them is described by them alone, so a hint it lacks
// is false.

/// The tool changes nothing.
#define PTC_READ_ONLY PTC_DETAIL_ANNOTATE("ptc.read_only")
/// The tool may delete or overwrite data (one that only adds is not destructive).
#define PTC_DESTRUCTIVE PTC_DETAIL_ANNOTATE("ptc.destructive")
/// The tool only adds (creates, appends) and deletes or overwrites nothing. It claims no other hint, so
/// alone it states a tool that is neither read-only, destructive, idempotent nor open-world.
#define PTC_ADDITIVE PTC_DETAIL_ANNOTATE("ptc.additive")
/// A second call with the same arguments changes nothing more.
#define PTC_IDEMPOTENT PTC_DETAIL_ANNOTATE("ptc.idempotent")
/// The tool reaches systems beyond its own domain (the web, other services).
#define PTC_OPEN_WORLD PTC_DETAIL_ANNOTATE("ptc.open_world")
/// An explicit shorthand signature; checked against the C++ types.
#define PTC_SIGNATURE(text) PTC_DETAIL_ANNOTATE("ptc.signature", text)
/// An example call: the arguments and the result, as JSON text. May be repeated.
#define PTC_EXAMPLE(input, output) PTC_DETAIL_ANNOTATE("ptc.example", input, output)
/// Documentation of a field or parameter (default: its doc comment or `\param`).
#define PTC_DOC(text) PTC_DETAIL_ANNOTATE("ptc.doc", text)
/// Inclusive bounds for a number.
#define PTC_RANGE(lo, hi) PTC_DETAIL_ANNOTATE("ptc.range", lo, hi)
/// An RE2 pattern a string must contain a match of (anchor it with ^...$ for a whole match).
#define PTC_PATTERN(regex) PTC_DETAIL_ANNOTATE("ptc.pattern", regex)
/// The field's value reaches C++ code but LLM-facing renderings show "<Firewalled>"; its JSON name
/// gets a leading `_`. A context-window convenience, not a security boundary.
#define PTC_FIREWALL PTC_DETAIL_ANNOTATE("ptc.firewall")
