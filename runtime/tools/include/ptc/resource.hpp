#pragma once
// ptc::Resource — data a server offers for reading by URI (MCP resources), beside its tools. A resource
// is read by a tool-like reader that runs through the same dispatch as a tool call:
//   - a static resource has one URI, and its reader takes no parameters;
//   - a template (`tracker://issues/{key}`, RFC 6570 simple `{var}` and reserved `{+var}` expansion)
//     names many resources; its variables are the reader's parameters, decoded from the URI with the
//     lenient codec of tool arguments (`{id}` = "12" becomes an int), with path-based errors.
// What the reader returns becomes the contents: a string is text (text/plain), any other value its JSON
// text (application/json), unless ResourceOptions::mime_type says otherwise; a reader that attaches
// resource blocks (`Content::resource_blob`) gives those instead, which is how bytes are served.
//
//   registry.add_resource(ptc::make_resource("tracker://labels", "labels", "The labels in use.",
//                                            "() -> [:string]", handler));

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ptc/completion.hpp>
#include <ptc/error.hpp>
#include <ptc/tool.hpp>

namespace ptc {

/// A URI template of RFC 6570's simple (`{var}`) and reserved (`{+var}`) expansions: enough to name
/// resources by their parts. A `{var}` matches one or more characters other than `/`, `?` and `#`; a
/// `{+var}` matches one or more characters of any kind. Matched values are percent-decoded.
class UriTemplate {
 public:
  /// Errors name the column: an unclosed or empty `{`, an operator other than `+`, a variable that is
  /// not a C identifier or appears twice, two variables with no literal between them.
  static Result<UriTemplate> parse(std::string_view text);

  const std::string& text() const { return text_; }
  const std::vector<std::string>& variables() const { return variables_; }
  bool is_static() const { return variables_.empty(); }
  /// The variables' values, in template order, when `uri` matches the whole template.
  std::optional<std::vector<std::pair<std::string, std::string>>> match(std::string_view uri) const;

 private:
  struct Part {
    std::string literal;  ///< text before the variable (or the tail, for the last part)
    bool reserved = false;
  };
  std::string text_;
  std::vector<std::string> variables_;
  std::vector<Part> parts_;  ///< one per variable, plus the tail
};

struct ResourceOptions {
  std::string name{};         ///< what clients show; default: the reader's name
  std::string title{};        ///< default: the reader's title
  std::string description{};  ///< default: the reader's description
  /// Default: text/plain for a string value, application/json for any other.
  std::string mime_type{};
  /// Completers for a template's variables (completion.hpp).
  Completers completers{};
};

class Resource {
 public:
  /// Throws DefinitionError (field "uri") when `uri` is not a template UriTemplate::parse takes, or its
  /// variables are not exactly the reader's parameters.
  Resource(std::string_view uri, Tool reader, ResourceOptions options = {});

  const UriTemplate& uri() const { return data_->uri; }
  bool is_template() const { return !data_->uri.is_static(); }
  const std::string& name() const { return data_->options.name; }
  const std::string& title() const { return data_->options.title; }
  const std::string& description() const { return data_->options.description; }
  /// The declared MIME type, or empty.
  const std::string& mime_type() const { return data_->options.mime_type; }
  const Tool& reader() const { return data_->reader; }
  /// The completer of a template variable, or nullptr.
  const Completer* completer(std::string_view variable) const;

 private:
  struct Data {
    UriTemplate uri;
    Tool reader;
    ResourceOptions options;
  };
  std::shared_ptr<const Data> data_;
};

/// A resource whose reader is a tool made from a shorthand signature (as make_tool makes one); `name`
/// names the reader too, so it follows tool names' rules. Throws DefinitionError as make_tool and
/// Resource do.
Resource make_resource(std::string_view uri, std::string name, std::string description, std::string_view signature,
                       JsonHandler handler, ResourceOptions options = {});

}  // namespace ptc
