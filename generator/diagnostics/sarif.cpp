#include "diagnostics/sarif.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <tuple>

#include <nlohmann/json.hpp>

namespace ptcgen::diagnostics {

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr std::string_view kSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr std::string_view kBaseId = "SRCROOT";

std::string_view level(Severity severity) { return severity_name(severity); }

fs::path absolute_from(const std::string& path, const std::string& base) {
  fs::path p(path);
  if (p.is_relative() && !base.empty()) p = fs::path(base) / p;
  return p.lexically_normal();
}

/// `file` relative to `root` when it is inside it ("include/shop.hpp"), else nullopt.
std::optional<std::string> inside(const fs::path& file, const fs::path& root) {
  const fs::path relative = file.lexically_relative(root);
  if (relative.empty() || *relative.begin() == ".." || relative.is_absolute()) return std::nullopt;
  return relative.generic_string();
}

/// Where a file is, as SARIF names it: relative to SRCROOT when under it (a symlinked path counts when
/// its real path is), else an absolute file URI.
struct Artifact {
  std::string uri;
  bool relative = false;
};

class Locator {
 public:
  explicit Locator(const SarifOptions& options)
      : working_dir_(options.working_dir),
        root_(absolute_from(options.source_root.empty() ? "." : options.source_root, options.working_dir)) {}

  Artifact artifact(const std::string& file) const {
    const fs::path abs = absolute_from(file, working_dir_);
    if (auto rel = inside(abs, root_)) return {uri_path(*rel), true};
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(abs, ec);
    const fs::path real_root = fs::weakly_canonical(root_, ec);
    if (!ec) {
      if (auto rel = inside(real, real_root)) return {uri_path(*rel), true};
    }
    return {"file://" + uri_path(abs.generic_string()), false};
  }

  /// "file:///abs/root/", what SRCROOT stands for.
  std::string root_uri() const {
    std::string path = root_.generic_string();
    if (path.empty() || path.back() != '/') path += '/';
    return "file://" + uri_path(path);
  }

 private:
  std::string working_dir_;
  fs::path root_;
};

Json physical(const Locator& locator, const model::Location& at) {
  const Artifact artifact = locator.artifact(at.file);
  Json where;
  where["uri"] = artifact.uri;
  if (artifact.relative) where["uriBaseId"] = kBaseId;
  Json out;
  out["artifactLocation"] = std::move(where);
  if (at.line > 0) {
    Json region;
    region["startLine"] = at.line;
    if (at.column > 0) region["startColumn"] = at.column;
    out["region"] = std::move(region);
  }
  return out;
}

Json text(std::string_view s) {
  Json out;
  out["text"] = s;
  return out;
}

/// Markdown to plain text: backticks dropped.
std::string plain(std::string_view markdown) {
  std::string out;
  for (char c : markdown)
    if (c != '`') out += c;
  return out;
}

Json rule_descriptor(const Rule& r) {
  Json out;
  out["id"] = r.id;
  out["name"] = r.name;
  out["shortDescription"] = text(r.short_description);
  out["fullDescription"] = text(r.full_description);
  Json help;
  help["text"] = plain(r.help);
  help["markdown"] = r.help;
  out["help"] = std::move(help);
  Json configuration;
  configuration["level"] = level(r.default_severity);
  out["defaultConfiguration"] = std::move(configuration);
  Json properties;
  properties["tags"] = Json::array({r.id.starts_with("clang/") ? "clang" : "ptc"});
  out["properties"] = std::move(properties);
  return out;
}

Json driver(const SarifOptions& options) {
  Json out;
  out["name"] = "ptc-gen";
  out["version"] = options.tool_version;
  Json list = Json::array();
  for (const auto& r : rules()) list.push_back(rule_descriptor(r));
  out["rules"] = std::move(list);
  return out;
}

/// The message with the location-less notes (recommendations) after it, one per line, as the text form
/// prints them.
std::string message_text(const Diagnostic& d) {
  std::string out = d.message;
  for (const auto& n : d.notes)
    if (n.location.file.empty()) out += "\nnote: " + n.message;
  return out;
}

Json related(const Locator& locator, const Diagnostic& d) {
  Json out = Json::array();
  int id = 0;
  for (const auto& n : d.notes) {
    if (n.location.file.empty()) continue;
    Json entry;
    entry["id"] = ++id;
    entry["physicalLocation"] = physical(locator, n.location);
    entry["message"] = text(n.message);
    out.push_back(std::move(entry));
  }
  return out;
}

using FingerprintKey = std::tuple<std::string, std::string, std::string, std::string>;

Json result(const Locator& locator, const Diagnostic& d, std::map<FingerprintKey, unsigned>& seen) {
  const Rule* r = find_rule(d.rule);
  Json out;
  out["ruleId"] = d.rule;
  out["ruleIndex"] = r ? rule_index(r->rule) : 0;
  out["level"] = level(d.severity);
  out["message"] = text(message_text(d));
  std::string uri;
  if (!d.location.file.empty()) {
    Json location;
    location["physicalLocation"] = physical(locator, d.location);
    uri = location["physicalLocation"]["artifactLocation"]["uri"].get<std::string>();
    out["locations"] = Json::array({std::move(location)});
  }
  if (Json rel = related(locator, d); !rel.empty()) out["relatedLocations"] = std::move(rel);
  const unsigned repetition = seen[{d.rule, uri, d.tool, d.message}]++;
  Json fingerprints;
  fingerprints["ptcFingerprint/v1"] = fingerprint(d, uri, repetition);
  out["partialFingerprints"] = std::move(fingerprints);
  Json properties = Json::object();
  if (!d.tool.empty()) properties["tool"] = d.tool;
  if (!d.flag.empty()) properties["warningFlag"] = d.flag;
  if (!properties.empty()) out["properties"] = std::move(properties);
  return out;
}

}  // namespace

std::string uri_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : path) {
    const auto u = static_cast<unsigned char>(c);
    const bool unreserved = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~' || c == '/';
    if (unreserved) {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

std::string fingerprint(const Diagnostic& d, std::string_view uri, unsigned repetition) {
  // FNV-1a, 64 bits: stable across platforms and releases, which std::hash is not. Fields are separated by
  // a NUL, which none of them holds, so ("ab", "c") and ("a", "bc") differ.
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto add = [&](std::string_view field) {
    for (char c : field) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 0x100000001b3ULL;
    }
    hash *= 0x100000001b3ULL;  // the NUL after the field
  };
  add(d.rule);
  add(uri);
  add(d.tool);
  add(d.message);
  add(std::to_string(repetition));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) out[static_cast<std::size_t>(i)] = kHex[hash & 15];
  return out;
}

std::string to_sarif(const Log& log, const SarifOptions& options) {
  const Locator locator(options);
  Json tool;
  tool["driver"] = driver(options);
  Json run;
  run["tool"] = std::move(tool);
  Json automation;
  automation["id"] = "ptc-gen/" + options.category + "/";
  run["automationDetails"] = std::move(automation);
  Json root;
  root["uri"] = locator.root_uri();
  run["originalUriBaseIds"][std::string(kBaseId)] = std::move(root);
  // Clang counts columns in bytes; on the ASCII lines C++ declarations are mostly made of, that is the
  // code point too.
  run["columnKind"] = "unicodeCodePoints";
  Json results = Json::array();
  std::map<FingerprintKey, unsigned> seen;
  for (const auto& d : log.diagnostics()) results.push_back(result(locator, d, seen));
  run["results"] = std::move(results);
  Json out;
  out["$schema"] = kSchema;
  out["version"] = "2.1.0";
  out["runs"] = Json::array({std::move(run)});
  return out.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace ptcgen::diagnostics
