#include "output/token_report.hpp"

#include <optional>

#include <llvm/Support/raw_ostream.h>

#include <ptc/error.hpp>

#include "emit/plan.hpp"
#include "output/outputs.hpp"

namespace ptcgen::output {

std::vector<OfferedTool> offered_tools(const std::vector<model::HeaderModel>& headers) {
  std::vector<OfferedTool> out;
  for (const auto& header : headers) {
    const emit::Plan plan = emit::plan_header(header);
    for (const auto& t : plan.tools) {
      if (t.tool->kind != model::ToolKind::Tool) continue;
      try {
        out.push_back({ptc::Tool(emit::tool_spec(t)), t.tool->location});
      } catch (const ptc::DefinitionError&) {
        // Registration reports it when the program starts; there is nothing to count.
      }
    }
  }
  return out;
}

std::vector<BudgetFinding> budget_findings(const std::vector<OfferedTool>& tools, const ptc::TokenReport& report,
                                           std::size_t budget) {
  std::vector<BudgetFinding> out;
  // The report has a row per tool, in the tools' order.
  for (std::size_t i = 0; i < tools.size() && i < report.tools.size(); ++i) {
    const ptc::RenderingCost* largest = report.tools[i].largest(0);
    if (!largest || largest->tokens[0] <= budget) continue;
    const std::string& name = tools[i].tool.name();
    out.push_back({name,
                   "tool '" + name + "' costs " + std::to_string(largest->tokens[0]) + " " + report.encodings[0] +
                       " tokens as its " + std::string(ptc::rendering_name(largest->rendering)) +
                       " rendering, over the token budget of " + std::to_string(budget),
                   tools[i].location});
  }
  return out;
}

bool count_tokens(const std::vector<model::HeaderModel>& headers, const TokenOptions& options, llvm::raw_ostream& out,
                  llvm::raw_ostream& err, diagnostics::Log* log) {
  if (options.reports.empty() && options.budget == 0) return true;
  const auto dir = ptc::tokenizer_data(options.tokenizer_data);
  if (!dir) {
    err << "ptc-gen: error: counting tokens needs OpenAI's rank files (o200k_base.tiktoken, cl100k_base.tiktoken): "
           "give their directory with --tokenizer-data or PTC_TOKENIZER_DATA (docs/tokens.md)\n";
    return false;
  }
  auto encodings = ptc::load_report_encodings(*dir);
  if (!encodings) {
    err << "ptc-gen: error: " << encodings.error().message << "\n";
    return false;
  }
  const auto offered = offered_tools(headers);
  std::vector<ptc::Tool> tools;
  for (const auto& t : offered) tools.push_back(t.tool);
  const ptc::TokenReport report = ptc::token_report(tools, *encodings);
  bool ok = true;
  for (const std::string& file : options.reports) {
    if (file.empty())
      out << ptc::token_report_table(report);
    else
      ok = write_if_changed(file, ptc::token_report_json(report), err) && ok;
  }
  if (options.budget == 0) return ok;
  const auto severity = options.budget_error ? diagnostics::Severity::Error : diagnostics::Severity::Warning;
  for (const auto& finding : budget_findings(offered, report, options.budget)) {
    print_diagnostic(finding.location, options.budget_error ? "error" : "warning", finding.message, err);
    if (log) log->add(diagnostics::RuleId::TokenBudget, severity, finding.message, finding.location, finding.tool);
    if (options.budget_error) ok = false;
  }
  return ok;
}

}  // namespace ptcgen::output
