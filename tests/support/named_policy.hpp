#pragma once
// A policy that allows everything and only has a name: for tests that check which policies govern a
// tool, not what they decide.

#include <string>
#include <string_view>

#include <ptc/policy.hpp>

namespace ptc::test {

class NamedPolicy final : public ToolPolicy {
 public:
  explicit NamedPolicy(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  PolicyDecision check(const Tool&, const nlohmann::json&, ToolContext&) const override {
    return PolicyDecision::allow();
  }

 private:
  std::string name_;
};

}  // namespace ptc::test
