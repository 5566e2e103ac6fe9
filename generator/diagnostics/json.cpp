#include "diagnostics/json.hpp"

#include <nlohmann/json.hpp>

namespace ptcgen::diagnostics {

namespace {

using Json = nlohmann::ordered_json;

Json text_or_null(const std::string& text) { return text.empty() ? Json(nullptr) : Json(text); }

/// file, line and column as the text form has them; null where it has none.
void put_location(Json& out, const model::Location& at) {
  out["file"] = text_or_null(at.file);
  out["line"] = at.file.empty() || at.line == 0 ? Json(nullptr) : Json(at.line);
  out["column"] = at.file.empty() || at.column == 0 ? Json(nullptr) : Json(at.column);
}

}  // namespace

std::string to_json(const Log& log) {
  Json list = Json::array();
  for (const auto& d : log.diagnostics()) {
    Json entry;
    entry["rule"] = d.rule;
    entry["severity"] = severity_name(d.severity);
    entry["message"] = d.message;
    put_location(entry, d.location);
    entry["tool"] = text_or_null(d.tool);
    entry["flag"] = text_or_null(d.flag);
    Json notes = Json::array();
    for (const auto& n : d.notes) {
      Json note;
      note["message"] = n.message;
      put_location(note, n.location);
      notes.push_back(std::move(note));
    }
    entry["notes"] = std::move(notes);
    list.push_back(std::move(entry));
  }
  Json out;
  out["version"] = 1;
  out["diagnostics"] = std::move(list);
  return out.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace ptcgen::diagnostics
