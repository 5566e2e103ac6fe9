#pragma once
// ptc::Section — a titled block of prompt text that owns the tools and policies it documents.

#include <memory>
#include <string>
#include <vector>

#include <ptc/policy.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool.hpp>

namespace ptc {

struct SectionSpec;

class Section {
 public:
  /// Throws DefinitionError (section path {key}) for a bad key or title, params that do not
  /// parse, a placeholder the params do not have, or duplicate tool names within the section.
  explicit Section(SectionSpec spec);

  const std::string& title() const;
  const std::string& key() const;
  const std::string& template_text() const;
  const Signature& params() const { return params_; }
  const std::vector<Tool>& tools() const;
  const std::vector<std::shared_ptr<const ToolPolicy>>& policies() const;
  const std::vector<Section>& children() const;
  bool enabled() const;

 private:
  std::shared_ptr<const SectionSpec> spec_;
  Signature params_;
};

// Defined after Section, which must be complete for `children` to have a default initializer.
struct SectionSpec {
  std::string title{};          ///< non-empty, one line
  std::string key{};            ///< ^[a-z0-9][a-z0-9._-]{0,63}$, unique among siblings
  std::string template_text{};  ///< markdown with `{{param}}` / `{{param.field}}` placeholders
  /// Shorthand parameter list the placeholders are checked against, e.g. "(user {name :string})".
  std::string params = "()";
  std::vector<Tool> tools{};
  /// Govern this section's tools and those of its child sections.
  std::vector<std::shared_ptr<const ToolPolicy>> policies{};
  std::vector<Section> children{};
  /// A disabled section renders nothing, and neither its tools nor its children's are offered.
  bool enabled = true;
};

inline const std::string& Section::title() const { return spec_->title; }
inline const std::string& Section::key() const { return spec_->key; }
inline const std::string& Section::template_text() const { return spec_->template_text; }
inline const std::vector<Tool>& Section::tools() const { return spec_->tools; }
inline const std::vector<std::shared_ptr<const ToolPolicy>>& Section::policies() const { return spec_->policies; }
inline const std::vector<Section>& Section::children() const { return spec_->children; }
inline bool Section::enabled() const { return spec_->enabled; }

}  // namespace ptc
