#pragma once
// ptc-gen's token report and budget: the tools of the headers built as their generated registration
// builds them, then counted by the runtime's report (<ptc/token_report.hpp>), so that a program's
// `tokens` subcommand prints the same numbers. No clang here.

#include <cstddef>
#include <string>
#include <vector>

#include <ptc/token_report.hpp>
#include <ptc/tool.hpp>

#include "diagnostics/diagnostic.hpp"
#include "model/model.hpp"

namespace llvm {
class raw_ostream;
}

namespace ptcgen::output {

/// A tool a model is offered, and where it is declared.
struct OfferedTool {
  ptc::Tool tool;
  model::Location location;
};

/// The tools of every header in order, without resources and prompts (a model does not call those), as
/// emit::tool_spec builds them. A tool the runtime would refuse (a name it rejects) is left out: its
/// registration fails at run time with the reason.
std::vector<OfferedTool> offered_tools(const std::vector<model::HeaderModel>& headers);

/// What to count and report (ptc-gen's --token-report, --tokenizer-data, --token-budget and
/// --token-budget-error).
struct TokenOptions {
  std::vector<std::string> reports;  ///< each "" prints the table, each file name gets the JSON form
  std::string tokenizer_data;        ///< empty: $PTC_TOKENIZER_DATA
  std::size_t budget = 0;            ///< 0: none
  bool budget_error = false;
};

/// Counts what each offered tool's renderings cost when a report or a budget is asked for: prints the
/// table to `out`, writes JSON reports (only when they change), and reports each tool over the budget
/// at its declaration on `err`, as a warning or an error, recorded in `log` too (rule ptc/token-budget).
/// False when counting was impossible (no rank files), a report could not be written, or an overrun is
/// an error.
bool count_tokens(const std::vector<model::HeaderModel>& headers, const TokenOptions& options, llvm::raw_ostream& out,
                  llvm::raw_ostream& err, diagnostics::Log* log = nullptr);

/// A tool over the budget: `tool 'x' costs N o200k_base tokens as its R rendering, over the token budget
/// of B`, at its declaration.
struct BudgetFinding {
  std::string tool;
  std::string message;
  model::Location location;
};
std::vector<BudgetFinding> budget_findings(const std::vector<OfferedTool>& tools, const ptc::TokenReport& report,
                                           std::size_t budget);

}  // namespace ptcgen::output
