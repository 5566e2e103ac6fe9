#include <ptc/command_executor.hpp>

#include <algorithm>
#include <cctype>
#include <mutex>

namespace ptc {

bool is_module_name(std::string_view s) {
  std::size_t start = 0;
  while (true) {
    auto dot = s.find('.', start);
    auto part = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (part.empty() || !(part.front() >= 'A' && part.front() <= 'Z')) return false;
    if (!std::all_of(part.begin(), part.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

Result<nlohmann::json> default_command_executor(const CommandInvocation& invocation) {
  const auto& command = invocation.command;
  return nlohmann::json{{"command", command.name},
                        {"prompt", invocation.prompt},
                        {"params", invocation.params},
                        {"allowed_tools", command.allowed_tools},
                        {"model", command.model ? nlohmann::json(*command.model) : nlohmann::json(nullptr)},
                        {"permissions", invocation.permissions.to_json()}};
}

void CommandExecutors::add(std::string name, CommandExecutor executor) {
  if (!is_module_name(name))
    throw Exception(Error{"executor name '" + name + "' is not a module name such as MyApp.Commands.Run"});
  if (!executor) throw Exception(Error{"executor '" + name + "' is empty"});
  std::unique_lock lock(mutex_);
  executors_[std::move(name)] = std::move(executor);
}

bool CommandExecutors::remove(std::string_view name) {
  std::unique_lock lock(mutex_);
  auto it = executors_.find(name);
  if (it == executors_.end()) return false;
  executors_.erase(it);
  return true;
}

std::optional<CommandExecutor> CommandExecutors::find(std::string_view name) const {
  std::shared_lock lock(mutex_);
  auto it = executors_.find(name);
  if (it == executors_.end()) return std::nullopt;
  return it->second;
}

}  // namespace ptc
