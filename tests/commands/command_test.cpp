// Markdown command files: the frontmatter contract (required and optional keys, allowed-tools, the
// `jido` map, hooks, schema fields) and the ptc::Schema a command's params get.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/limits.hpp>
#include <sys/stat.h>

#include <ptc/command.hpp>
#include <ptc/validate.hpp>

#include "command_test_support.hpp"

namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Parses frontmatter (without the fences) with a fixed body; messages start with "cmd.md: ".
ptc::Result<ptc::CommandDefinition> parse(const std::string& frontmatter, const std::string& body = "Body.\n") {
  return ptc::parse_command(ptc::test::command_text(frontmatter, body), "cmd.md");
}

std::string error_of(const std::string& frontmatter) {
  auto r = parse(frontmatter);
  return r ? "" : r.error().message;
}

const std::string kHead = "name: review\ndescription: Review a change\n";

TEST(CommandFile, ReadsAFullCommand) {
  auto c = parse(kHead +
                     "model: sonnet\n"
                     "allowed-tools: Bash(git diff:*), Read\n"
                     "jido:\n"
                     "  command_module: MyApp.Commands.Review\n"
                     "  hooks: {pre: true, after: false}\n"
                     "  schema:\n"
                     "    pr: {type: integer, required: true, doc: Pull request}\n",
                 "Review #{{pr}}.\n");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->name, "review");
  EXPECT_EQ(c->description, "Review a change");
  EXPECT_EQ(c->model, "sonnet");
  EXPECT_THAT(c->allowed_tools, ElementsAre("Bash(git diff:*)", "Read"));
  EXPECT_EQ(c->command_module, "MyApp.Commands.Review");
  EXPECT_EQ(c->hooks, (ptc::CommandHooks{true, false}));
  EXPECT_EQ(c->body, "Review #{{pr}}.\n");
  EXPECT_EQ(c->path, "cmd.md");
  ASSERT_EQ(c->params.entries().size(), 1u);
  EXPECT_EQ(c->params.entries()[0].doc, "Pull request");
}

TEST(CommandFile, NameAndDescriptionAreRequiredNonEmptyStrings) {
  EXPECT_EQ(error_of("description: d\n"), "cmd.md: name: is required");
  EXPECT_EQ(error_of("name: n\n"), "cmd.md: description: is required");
  EXPECT_EQ(error_of("name: '  '\ndescription: d\n"), "cmd.md: name: must be a non-empty string");
  EXPECT_EQ(error_of("name: 12\ndescription: d\n"), "cmd.md: name: must be a non-empty string");
  EXPECT_EQ(error_of("name: n\ndescription: [d]\n"), "cmd.md: description: must be a non-empty string");
  EXPECT_EQ(error_of("name: n\ndescription:\n"), "cmd.md: description: must be a non-empty string");
  auto c = parse("name: '  spaced  '\ndescription: ' d '\n");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->name, "spaced");
  EXPECT_EQ(c->description, "d");
}

TEST(CommandFile, ModelIsAnOptionalNonEmptyString) {
  EXPECT_EQ(error_of(kHead + "model: ''\n"), "cmd.md: model: must be a non-empty string");
  EXPECT_EQ(error_of(kHead + "model: 4\n"), "cmd.md: model: must be a non-empty string");
  EXPECT_EQ(error_of(kHead + "model:\n"), "cmd.md: model: must be a non-empty string");
  EXPECT_EQ(parse(kHead)->model, std::nullopt);
}

TEST(CommandFile, UnknownTopLevelKeysAreRejectedIncludingNonStringKeys) {
  const std::string expected =
      ": unknown key; expected name, description, model, allowed-tools (or allowed_tools) or jido";
  EXPECT_EQ(error_of(kHead + "argument-hint: '[pr]'\n"), "cmd.md: argument-hint" + expected);
  EXPECT_EQ(error_of(kHead + "1: one\n"), "cmd.md: 1" + expected);
  EXPECT_EQ(error_of(kHead + "true: yes\n"), "cmd.md: true" + expected);
  EXPECT_EQ(error_of(kHead + "? [a, b]\n: list key\n"), "cmd.md: [a, b]" + expected);
  EXPECT_EQ(error_of(kHead + "~: nothing\n"), "cmd.md: null" + expected);
}

// The frontmatter is read from the parser's events: a key that is a collection is shown in flow form,
// an alias stands for a copy of what its anchor named (keys included), and a tagged scalar key keeps its
// text.
TEST(CommandFile, CollectionKeysAliasesAndTagsReadAsWritten) {
  const std::string expected =
      ": unknown key; expected name, description, model, allowed-tools (or allowed_tools) or jido";
  EXPECT_EQ(error_of(kHead + "? {a: 1, b: [x, \"y\"], c: {}}\n: v\n"),
            "cmd.md: {a: 1, b: [x, \"y\"], c: {}}" + expected);
  EXPECT_EQ(error_of(kHead + "!!int 3: v\n"), "cmd.md: 3" + expected);
  EXPECT_EQ(error_of(kHead + "model: &k model\n*k : again\n"), "cmd.md: duplicate key model");
  auto c =
      parse(kHead + "jido:\n  schema:\n    a: &t {type: integer, doc: shared}\n    b: *t\n    c: {type: string}\n");
  ASSERT_TRUE(c) << c.error().message;
  std::vector<ptc::Kind> kinds;
  for (const auto& e : c->params.entries()) kinds.push_back(e.schema.item().kind());
  EXPECT_THAT(kinds, ElementsAre(ptc::Kind::Int, ptc::Kind::Int, ptc::Kind::String));
  EXPECT_EQ(error_of(kHead + "jido:\n  schema:\n    a: !!int x\n"),
            "cmd.md: jido.schema.a: \"x\" is not a value of tag tag:yaml.org,2002:int");
}

// Found by fuzz_command: a key holding a newline could forge a line in `ptc command list` or a log.
TEST(CommandFile, KeysInErrorsAreEscaped) {
  const std::string expected =
      ": unknown key; expected name, description, model, allowed-tools (or allowed_tools) or jido";
  EXPECT_EQ(error_of(kHead + "\"a\\nb\": 1\n"), "cmd.md: \"a\\nb\"" + expected);
  EXPECT_EQ(error_of(kHead + "\"a\\nb\": 1\n\"a\\nb\": 2\n"), "cmd.md: duplicate key \"a\\nb\"");
  EXPECT_EQ(error_of(kHead + "? [\"x\\ry\"]\n: 1\n"), "cmd.md: [\"x\\ry\"]" + expected);
}

// yaml-cpp names the offending character as it is; found by fuzz_command.
TEST(CommandFile, YamlErrorsStayOnOneLine) {
  auto r = ptc::parse_command("---\nname: \"a\\\x01\"\n---\n", "cmd.md");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "cmd.md: line 2, column 11: invalid YAML: unknown escape character: \\u0001");
}

TEST(CommandFile, ConflictingKeysAreRejectedIncludingNestedMaps) {
  EXPECT_EQ(error_of(kHead + "1: a\n\"1\": b\n"), "cmd.md: conflicting keys 1 and \"1\"");
  EXPECT_EQ(error_of(kHead + "name: again\n"), "cmd.md: duplicate key name");
  EXPECT_EQ(error_of(kHead + "jido:\n  schema:\n    pr: {type: integer}\n    pr: {type: string}\n"),
            "cmd.md: jido.schema: duplicate key pr");
  EXPECT_EQ(error_of(kHead + "jido:\n  schema:\n    pr:\n      type: map\n      default: {1: a, '1': b}\n"),
            "cmd.md: jido.schema.pr.default: conflicting keys 1 and \"1\"");
}

TEST(CommandFile, AllowedToolsFromACommaStringOrAList) {
  EXPECT_THAT(parse(kHead + "allowed-tools: Read, Grep ,Bash(git status)\n")->allowed_tools,
              ElementsAre("Read", "Grep", "Bash(git status)"));
  EXPECT_THAT(parse(kHead + "allowed_tools: [Read, ' Grep ']\n")->allowed_tools, ElementsAre("Read", "Grep"));
  EXPECT_TRUE(parse(kHead)->allowed_tools.empty());
}

TEST(CommandFile, AllowedToolsEntriesAreTrimmedEmptiesIgnoredAndRepeatsDropped) {
  EXPECT_THAT(parse(kHead + "allowed-tools: 'Read,, Grep , Read,'\n")->allowed_tools, ElementsAre("Read", "Grep"));
  EXPECT_THAT(parse(kHead + "allowed-tools: [Grep, '', ' ', Read, Grep]\n")->allowed_tools,
              ElementsAre("Grep", "Read"));
}

TEST(CommandFile, AllowedToolsAliasesCannotBothBePresent) {
  EXPECT_EQ(error_of(kHead + "allowed-tools: Read\nallowed_tools: Grep\n"),
            "cmd.md: allowed-tools and allowed_tools are the same key; give only one");
}

TEST(CommandFile, AllowedToolsRejectsNullBlankEmptyAndNothingLeft) {
  EXPECT_EQ(error_of(kHead + "allowed-tools:\n"), "cmd.md: allowed-tools: must not be null");
  EXPECT_EQ(error_of(kHead + "allowed_tools: ~\n"), "cmd.md: allowed_tools: must not be null");
  EXPECT_EQ(error_of(kHead + "allowed-tools: '   '\n"), "cmd.md: allowed-tools: must not be blank");
  EXPECT_EQ(error_of(kHead + "allowed-tools: []\n"), "cmd.md: allowed-tools: must not be an empty list");
  EXPECT_EQ(error_of(kHead + "allowed-tools: ' , ,'\n"), "cmd.md: allowed-tools: must name at least one tool");
  EXPECT_EQ(error_of(kHead + "allowed-tools: ['', ' ']\n"), "cmd.md: allowed-tools: must name at least one tool");
  EXPECT_EQ(error_of(kHead + "allowed-tools: [Read, 3]\n"), "cmd.md: allowed-tools[1]: must be a string");
  EXPECT_EQ(error_of(kHead + "allowed-tools: {Read: true}\n"),
            "cmd.md: allowed-tools: must be a comma-separated string or a list of strings");
}

TEST(CommandFile, JidoMustBeAMapWithKnownKeys) {
  EXPECT_EQ(error_of(kHead + "jido: [hooks]\n"), "cmd.md: jido: must be a map");
  EXPECT_EQ(error_of(kHead + "jido:\n"), "cmd.md: jido: must be a map");
  EXPECT_EQ(error_of(kHead + "jido: {timeout: 5}\n"),
            "cmd.md: jido.timeout: unknown key; expected command_module, hooks or schema");
  EXPECT_TRUE(parse(kHead + "jido: {}\n"));
}

TEST(CommandFile, CommandModuleIsAModuleName) {
  EXPECT_EQ(parse(kHead + "jido: {command_module: Run}\n")->command_module, "Run");
  for (const char* bad : {"'myApp.Run'", "'MyApp..Run'", "'MyApp.run'", "'My-App'", "''", "3", "'MyApp.'"})
    EXPECT_EQ(error_of(kHead + "jido: {command_module: " + bad + "}\n"),
              "cmd.md: jido.command_module: must be a module name such as MyApp.Commands.Run")
        << bad;
}

TEST(CommandFile, HooksArePreAndAfterBooleans) {
  EXPECT_EQ(parse(kHead)->hooks, (ptc::CommandHooks{false, false}));
  EXPECT_EQ(parse(kHead + "jido: {hooks: {}}\n")->hooks, (ptc::CommandHooks{false, false}));
  EXPECT_EQ(parse(kHead + "jido: {hooks: {after: true}}\n")->hooks, (ptc::CommandHooks{false, true}));
  EXPECT_EQ(parse(kHead + "jido: {hooks: {pre: true, after: false}}\n")->hooks, (ptc::CommandHooks{true, false}));
  EXPECT_EQ(error_of(kHead + "jido: {hooks: {pre: 'yes'}}\n"), "cmd.md: jido.hooks.pre: must be true or false");
  EXPECT_EQ(error_of(kHead + "jido: {hooks: {after: yes}}\n"), "cmd.md: jido.hooks.after: must be true or false");
  EXPECT_EQ(error_of(kHead + "jido: {hooks: {after: ~}}\n"), "cmd.md: jido.hooks.after: must be true or false");
  EXPECT_EQ(error_of(kHead + "jido: {hooks: {post: true}}\n"),
            "cmd.md: jido.hooks.post: unknown key; expected pre or after");
  EXPECT_EQ(error_of(kHead + "jido: {hooks: [pre]}\n"), "cmd.md: jido.hooks: must be a map");
}

std::string schema_error(const std::string& fields) { return error_of(kHead + "jido:\n  schema:\n" + fields); }

// As in JSON (ptc::parse_json): read as a double, the digits would change silently.
TEST(CommandFile, AnIntegerBeyond64BitsIsRefusedWithItsPlace) {
  EXPECT_EQ(schema_error("    x: {type: integer, default: 99999999999999999999}\n"),
            "cmd.md: jido.schema.x.default: int 99999999999999999999 is beyond 64 bits");
  EXPECT_EQ(schema_error("    x: {type: integer, default: -9223372036854775809}\n"),
            "cmd.md: jido.schema.x.default: int -9223372036854775809 is beyond 64 bits");
  EXPECT_EQ(schema_error("    x: {type: list, default: [1, 0x10000000000000000]}\n"),
            "cmd.md: jido.schema.x.default[1]: int 0x10000000000000000 is beyond 64 bits");
  EXPECT_TRUE(parse(kHead + "jido:\n  schema:\n    x: {type: integer, default: -9223372036854775808}\n"));
}

TEST(CommandFile, AFieldNamedTwiceOnceTrimmedIsRefused) {
  EXPECT_EQ(schema_error("    pr: {type: string}\n    x: {}\n    ' pr': {type: integer}\n"),
            "cmd.md: jido.schema[\" pr\"]: field pr is declared twice");
}

TEST(CommandFile, SchemaFieldNamesMatchTheRule) {
  EXPECT_TRUE(parse(kHead + "jido:\n  schema:\n    prNumber_2: {type: integer}\n"));
  // Paths are written as everywhere in ptc: a key that is not an identifier is quoted in brackets.
  const std::pair<const char*, const char*> cases[] = {{"PR", ".PR"},
                                                       {"2pr", "[\"2pr\"]"},
                                                       {"_pr", "._pr"},
                                                       {"pr-number", ".pr-number"},
                                                       {"'pr number'", "[\"pr number\"]"}};
  for (const auto& [bad, path] : cases)
    EXPECT_EQ(schema_error(std::string("    ") + bad + ": {type: string}\n"),
              "cmd.md: jido.schema" + std::string(path) + ": field names must match ^[a-z][a-zA-Z0-9_]*$")
        << bad;
}

TEST(CommandFile, SchemaTypesAreTheSevenSupported) {
  auto c = parse(kHead +
                 "jido:\n  schema:\n"
                 "    s: {type: string}\n    i: {type: integer}\n    f: {type: float}\n    b: {type: boolean}\n"
                 "    m: {type: map}\n    a: {type: atom}\n    l: {type: list}\n    d: {}\n    u: {type: INTEGER}\n");
  ASSERT_TRUE(c) << c.error().message;
  std::vector<ptc::Kind> kinds;
  for (const auto& e : c->params.entries()) kinds.push_back(e.schema.item().kind());  // optional: [:maybe T]
  using K = ptc::Kind;
  EXPECT_THAT(kinds,
              ElementsAre(K::String, K::Int, K::Float, K::Bool, K::MapOf, K::Keyword, K::Vector, K::String, K::Int));
  EXPECT_EQ(schema_error("    x: {type: date}\n"),
            "cmd.md: jido.schema.x.type: must be one of string, integer, float, boolean, map, atom, list");
  EXPECT_EQ(schema_error("    x: {type: 3}\n"),
            "cmd.md: jido.schema.x.type: must be one of string, integer, float, boolean, map, atom, list");
}

TEST(CommandFile, SchemaOptionsAreTypeRequiredDocAndDefault) {
  EXPECT_EQ(schema_error("    x: {type: string, min: 1}\n"),
            "cmd.md: jido.schema.x.min: unknown option; expected type, required, doc or default");
  EXPECT_EQ(schema_error("    x: {required: 'yes'}\n"), "cmd.md: jido.schema.x.required: must be true or false");
  EXPECT_EQ(schema_error("    x: {doc: [a]}\n"), "cmd.md: jido.schema.x.doc: must be a string");
  EXPECT_EQ(schema_error("    x: string\n"),
            "cmd.md: jido.schema.x: must be a map of options (type, required, doc, default)");
  EXPECT_EQ(error_of(kHead + "jido: {schema: [x]}\n"), "cmd.md: jido.schema: must be a map of fields");
}

TEST(CommandFile, RequiredFieldsCannotHaveADefault) {
  EXPECT_EQ(schema_error("    x: {type: integer, required: true, default: 3}\n"),
            "cmd.md: jido.schema.x: a required field cannot have a default");
  EXPECT_TRUE(parse(kHead + "jido:\n  schema:\n    x: {type: integer, required: false, default: 3}\n"));
}

TEST(CommandFile, DefaultsMustMatchTheType) {
  EXPECT_EQ(schema_error("    x: {type: integer, default: '3'}\n"),
            "cmd.md: jido.schema.x.default: does not match type integer: expected int, got string \"3\"");
  EXPECT_EQ(schema_error("    x: {type: string, default: 3}\n"),
            "cmd.md: jido.schema.x.default: does not match type string: expected string, got int 3");
  EXPECT_EQ(schema_error("    x: {type: boolean, default: yes}\n"),
            "cmd.md: jido.schema.x.default: does not match type boolean: expected bool, got string \"yes\"");
  EXPECT_EQ(schema_error("    x: {type: list, default: {a: 1}}\n"),
            "cmd.md: jido.schema.x.default: does not match type list: expected list, got map");
  EXPECT_EQ(schema_error("    x: {type: map, default: [1]}\n"),
            "cmd.md: jido.schema.x.default: does not match type map: expected map, got list");
  EXPECT_EQ(schema_error("    x: {type: string, default: ~}\n"),
            "cmd.md: jido.schema.x.default: does not match type string: expected string, got nil");
  EXPECT_EQ(schema_error("    x: {type: float, default: .nan}\n").substr(0, 60),
            "cmd.md: jido.schema.x.default: does not match type float: ex");
  auto c = parse(kHead +
                 "jido:\n  schema:\n    f: {type: float, default: 2}\n    l: {type: list, default: [1, a]}\n"
                 "    m: {type: map, default: {k: v}}\n    b: {type: boolean, default: false}\n");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(*c->params.entries()[1].default_value, json::parse(R"([1,"a"])"));
}

TEST(CommandFile, AtomDefaultsWrittenAsStringsBecomeAtoms) {
  auto c = parse(kHead +
                 "jido:\n  schema:\n    a: {type: atom, default: ' draft '}\n    b: {type: atom, default: ':final'}\n");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(*c->params.entries()[0].default_value, "draft");
  EXPECT_EQ(*c->params.entries()[1].default_value, "final");
  EXPECT_EQ(schema_error("    a: {type: atom, default: 'Draft'}\n"),
            "cmd.md: jido.schema.a.default: must be an atom name matching ^[a-z][a-zA-Z0-9_]*$");
  EXPECT_EQ(schema_error("    a: {type: atom, default: 3}\n"),
            "cmd.md: jido.schema.a.default: must be an atom name matching ^[a-z][a-zA-Z0-9_]*$");
}

TEST(CommandFile, SchemaBecomesAParamsObjectTheValidatorFillsIn) {
  auto c = parse(kHead +
                 "jido:\n  schema:\n"
                 "    pr: {type: integer, required: true, doc: ' The PR '}\n"
                 "    focus: {type: string, default: security}\n"
                 "    depth: {type: integer}\n");
  ASSERT_TRUE(c) << c.error().message;
  const auto& entries = c->params.entries();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "pr");
  EXPECT_FALSE(entries[0].optional);
  EXPECT_EQ(entries[0].doc, "The PR");
  EXPECT_TRUE(entries[1].optional);
  EXPECT_TRUE(entries[2].optional);
  EXPECT_FALSE(entries[2].has_default());

  auto ok = ptc::validate_and_coerce(c->params, {{"pr", "7"}}, {ptc::Direction::Input});
  ASSERT_TRUE(ok.ok);
  EXPECT_EQ(ok.value, (json{{"pr", 7}, {"focus", "security"}}));
  auto missing = ptc::validate_and_coerce(c->params, json::object(), {ptc::Direction::Input});
  EXPECT_FALSE(missing.ok);
  EXPECT_EQ(missing.errors.front().message, "missing required field");
}

TEST(CommandFile, WithoutSchemaParamsAreAnEmptyObjectThatKeepsExtraKeys) {
  auto c = parse(kHead);
  ASSERT_TRUE(c);
  auto r = ptc::validate_and_coerce(c->params, {{"anything", 1}}, {ptc::Direction::Input});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"anything", 1}}));
}

TEST(CommandFile, FrontmatterIsRequired) {
  const std::string expected = "cmd.md: must start with YAML frontmatter between two '---' lines";
  for (const char* text : {"", "name: x\n", "# Title\n---\nname: x\n---\n", "---\nname: x\n", "--- \nname: x\n--\n"}) {
    auto r = ptc::parse_command(text, "cmd.md");
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().message, expected) << text;
  }
  auto empty = ptc::parse_command("---\n---\nbody", "cmd.md");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message, "cmd.md: the frontmatter must be a YAML map");
}

TEST(CommandFile, FencesMayHaveTrailingSpaceCrlfAndABom) {
  auto c = ptc::parse_command("\xEF\xBB\xBF---  \r\nname: n\r\ndescription: d\r\n---\r\nline 1\r\nline 2", "cmd.md");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->name, "n");
  EXPECT_EQ(c->body, "line 1\r\nline 2");
  auto no_body = ptc::parse_command("---\nname: n\ndescription: d\n---", "cmd.md");
  ASSERT_TRUE(no_body);
  EXPECT_EQ(no_body->body, "");
}

TEST(CommandFile, YamlErrorsNameTheLineInTheFile) {
  auto r = parse(kHead + "model: [unclosed\n");
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("cmd.md: line "));
  EXPECT_THAT(r.error().message, HasSubstr("invalid YAML"));
  auto bad = ptc::parse_command("---\nname: n\ndescription: d\nmodel: a: b\n---\n", "cmd.md");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "cmd.md: line 4, column 9: invalid YAML: illegal map value");
}

TEST(CommandFile, YamlAliasBombsAreRefused) {
  std::string fm =
      kHead + "jido:\n  schema:\n    x:\n      type: list\n      default: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  // Each level is ten copies of the last: 10^8 values once expanded.
  std::string levels;
  for (int i = 1; i <= 8; ++i) {
    levels += "    y" + std::to_string(i) + ":\n      type: list\n      default: &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) levels += (k ? ", *a" : "*a") + std::to_string(i - 1);
    levels += "]\n";
  }
  auto r = parse(fm + levels);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "cmd.md: frontmatter has more than 100000 values once YAML aliases are expanded");
}

TEST(CommandFile, ANameWithAControlCharacterIsRefused) {
  auto r = parse("name: \"review\\nfake: line\"\ndescription: x\n");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "cmd.md: name: must not contain control characters such as newlines or tabs");
  EXPECT_FALSE(parse("name: \"a\\tb\"\ndescription: x\n"));
}

TEST(CommandFile, DeepFrontmatterNamesTheDepth) {
  std::string deep = kHead + "jido:\n  x: ";
  for (int i = 0; i < 200; ++i) deep += "[";
  for (int i = 0; i < 200; ++i) deep += "]";
  auto r = parse(deep + "\n");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "cmd.md: frontmatter nests deeper than 128 levels");
}

TEST(CommandFile, FrontmatterOverTheLimitIsRefusedBeforeParsing) {
  std::string big = kHead + "description: \"" + std::string(ptc::limits::kFrontmatterBytes, 'x') + "\"\n";
  auto r = parse(big);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "cmd.md: the frontmatter is larger than the limit of " +
                                   std::to_string(ptc::limits::kFrontmatterBytes) + " bytes");
}

TEST(CommandFile, YamlScalarsFollowTheCoreSchema) {
  auto c = parse(kHead +
                 "jido:\n  schema:\n"
                 "    a: {type: string, default: 'yes'}\n"
                 "    b: {type: string, default: yes}\n"
                 "    c: {type: integer, default: 0x1F}\n"
                 "    d: {type: float, default: -1.5e3}\n"
                 "    e: {type: boolean, default: True}\n"
                 "    f: {type: string, default: !!str 12}\n"
                 "    g: {type: integer, default: -9223372036854775808}\n");
  ASSERT_TRUE(c) << c.error().message;
  const auto& e = c->params.entries();
  EXPECT_EQ(*e[0].default_value, "yes");
  EXPECT_EQ(*e[1].default_value, "yes");
  EXPECT_EQ(*e[2].default_value, 31);
  EXPECT_EQ(*e[3].default_value, -1500.0);
  EXPECT_EQ(*e[4].default_value, true);
  EXPECT_EQ(*e[5].default_value, "12");
  EXPECT_EQ(*e[6].default_value, std::numeric_limits<std::int64_t>::min());
}

TEST(CommandFile, FilesAreReadByAbsolutePath) {
  ptc::test::TempDir dir;
  auto file = dir.write("commands/review.md", ptc::test::command_text(kHead));
  auto c = ptc::parse_command_file(file);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->path, file);
  auto missing = ptc::parse_command_file(dir / "commands/none.md");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, (dir / "commands/none.md").string() + ": No such file or directory");
  ASSERT_EQ(::mkfifo((dir / "commands/fifo.md").c_str(), 0600), 0);
  auto fifo = ptc::parse_command_file(dir / "commands/fifo.md");  // would wait for a writer forever
  ASSERT_FALSE(fifo);
  EXPECT_EQ(fifo.error().message, (dir / "commands/fifo.md").string() + ": not a regular file (a FIFO)");
  std::filesystem::create_symlink("/dev/zero", dir / "commands/zero.md");
  auto zero = ptc::parse_command_file(dir / "commands/zero.md");  // would read until memory runs out
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().message, (dir / "commands/zero.md").string() + ": not a regular file (a character device)");
  dir.write("commands/bad.md", ptc::test::command_text("name: x\n"));
  auto bad = ptc::parse_command_file(dir / "commands/bad.md");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, (dir / "commands/bad.md").string() + ": description: is required");
}

}  // namespace
