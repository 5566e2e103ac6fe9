#include <ptc/token_report.hpp>

#include <algorithm>
#include <cstdlib>

#include <ptc/json_schema.hpp>

namespace ptc {

namespace {

RenderingCost cost_of(const Tool& tool, Rendering rendering, std::span<const Encoding> encodings) {
  RenderingCost cost;
  cost.rendering = rendering;
  auto text = rendering_text(tool, rendering);
  if (!text) {
    cost.error = text.error().to_string();
    return cost;
  }
  cost.text = std::move(*text);
  for (const auto& encoding : encodings) cost.tokens.push_back(encoding.count(cost.text));
  return cost;
}

OrderedJson counts_json(const TokenReport& report, std::span<const std::size_t> tokens, Rendering rendering) {
  OrderedJson out = OrderedJson::object();
  for (std::size_t e = 0; e < report.encodings.size() && e < tokens.size(); ++e) out[report.encodings[e]] = tokens[e];
  if (rendering_is_estimate(rendering)) out["estimate"] = true;
  return out;
}

OrderedJson tool_json(const TokenReport& report, const ToolCost& tool) {
  OrderedJson renderings = OrderedJson::object();
  for (const auto& r : tool.renderings) {
    OrderedJson entry = OrderedJson::object();
    if (!r.error.empty()) {
      entry["error"] = r.error;
    } else {
      entry["text"] = r.text;
      entry.update(counts_json(report, r.tokens, r.rendering));
    }
    renderings[std::string(rendering_name(r.rendering))] = std::move(entry);
  }
  return OrderedJson{{"name", tool.name}, {"renderings", std::move(renderings)}};
}

/// A rendering's total under each encoding of the report.
std::vector<std::size_t> totals(const TokenReport& report, Rendering rendering) {
  std::vector<std::size_t> out;
  for (std::size_t e = 0; e < report.encodings.size(); ++e) out.push_back(report.total(rendering, e));
  return out;
}

std::string cell(std::span<const std::size_t> tokens) {
  std::string out;
  for (std::size_t count : tokens) {
    if (!out.empty()) out += '/';
    out += std::to_string(count);
  }
  return out;
}

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

}  // namespace

const RenderingCost* ToolCost::largest(std::size_t encoding) const {
  const RenderingCost* best = nullptr;
  for (const auto& r : renderings) {
    if (!r.error.empty() || encoding >= r.tokens.size()) continue;
    if (!best || r.tokens[encoding] > best->tokens[encoding]) best = &r;
  }
  return best;
}

std::size_t TokenReport::total(Rendering rendering, std::size_t encoding) const {
  std::size_t sum = 0;
  for (const auto& tool : tools)
    for (const auto& r : tool.renderings)
      if (r.rendering == rendering && r.error.empty() && encoding < r.tokens.size()) sum += r.tokens[encoding];
  return sum;
}

TokenReport token_report(std::span<const Tool> tools, std::span<const Encoding> encodings) {
  TokenReport report;
  for (const auto& encoding : encodings) report.encodings.push_back(encoding.name());
  for (const auto& tool : tools) {
    ToolCost cost{tool.name(), {}};
    for (Rendering rendering : all_renderings()) cost.renderings.push_back(cost_of(tool, rendering, encodings));
    report.tools.push_back(std::move(cost));
  }
  return report;
}

std::string token_report_json(const TokenReport& report) {
  OrderedJson tools = OrderedJson::array();
  for (const auto& tool : report.tools) tools.push_back(tool_json(report, tool));
  OrderedJson total = OrderedJson::object();
  for (Rendering rendering : all_renderings()) {
    total[std::string(rendering_name(rendering))] = counts_json(report, totals(report, rendering), rendering);
  }
  const OrderedJson document{{"encodings", report.encodings}, {"tools", std::move(tools)}, {"total", std::move(total)}};
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string token_report_table(const TokenReport& report) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header{"tool"};
  bool estimates = false;
  for (Rendering rendering : all_renderings()) {
    estimates = estimates || rendering_is_estimate(rendering);
    header.push_back(std::string(rendering_name(rendering)) + (rendering_is_estimate(rendering) ? "*" : ""));
  }
  rows.push_back(std::move(header));
  std::vector<std::string> failures;
  for (const auto& tool : report.tools) {
    std::vector<std::string> row{tool.name};
    for (const auto& r : tool.renderings) {
      row.push_back(r.error.empty() ? cell(r.tokens) : "-");
      if (!r.error.empty())
        failures.push_back("- " + tool.name + ", " + std::string(rendering_name(r.rendering)) + ": " + r.error);
    }
    rows.push_back(std::move(row));
  }
  std::vector<std::string> total{"total"};
  for (Rendering rendering : all_renderings()) {
    total.push_back(cell(totals(report, rendering)));
  }
  rows.push_back(std::move(total));

  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  std::string encodings;
  for (const auto& name : report.encodings) {
    if (!encodings.empty()) encodings += " / ";
    encodings += name;
  }
  std::string out = "Tokens per tool and rendering (" + encodings + ")\n";
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i)
      line += (i ? "  " : "") + padded(row[i], i + 1 < row.size() ? widths[i] : 0);
    out += line + "\n";
  }
  if (estimates)
    out += "* an estimate: Anthropic and Gemini count with tokenizers of their own, which cannot be run offline\n";
  if (!failures.empty()) out += "Not rendered:\n";
  for (const auto& f : failures) out += f + "\n";
  return out;
}

Result<std::vector<Encoding>> load_report_encodings(const std::filesystem::path& dir) {
  std::vector<Encoding> out;
  for (std::string_view name : kReportEncodings) {
    auto encoding = Encoding::load(name, dir);
    if (!encoding) return encoding.error();
    out.push_back(std::move(*encoding));
  }
  return out;
}

std::optional<std::filesystem::path> tokenizer_data(std::string_view given) {
  if (!given.empty()) return std::filesystem::path(given);
  const char* dir = std::getenv("PTC_TOKENIZER_DATA");
  if (!dir || !*dir) return std::nullopt;
  return std::filesystem::path(dir);
}

}  // namespace ptc
