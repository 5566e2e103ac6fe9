// The `mcp` subcommand's --auth-* options (runtime/cli/src/mcp_auth.cpp): each wrong combination is one
// exact line, and a server started with them (the MCP fixture, a real process on a real socket) refuses
// a request without its token, serves the metadata, and warns when it serves other machines unguarded.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include <ptc/cli.hpp>
#include <ptc/registry.hpp>

#include "test_keys.hpp"

namespace {

using nlohmann::json;

const std::string kToken = "cli-token-0123456789abcdef";

struct CliOutput {
  int exit_code = -1;
  std::string out;
  std::string err;
};

CliOutput cli(const std::vector<std::string>& args) {
  ptc::ToolRegistry registry;
  std::ostringstream out, err;
  CliOutput r;
  r.exit_code = ptc::cli::run(registry, args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

/// A directory of files for one test, removed with it.
class TempDir {
 public:
  TempDir() {
    char dir[] = "/tmp/ptc-cli-auth-XXXXXX";
    dir_ = ::mkdtemp(dir);
  }
  ~TempDir() {
    for (const auto& f : files_) std::remove(f.c_str());
    ::rmdir(dir_.c_str());
  }
  std::string write(const std::string& name, const std::string& text, mode_t mode = 0600) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    ::chmod(path.c_str(), mode);
    files_.push_back(path);
    return path;
  }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

void expect_usage_error(const std::vector<std::string>& args, const std::string& line) {
  auto r = cli(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: " + line + "\n");
  EXPECT_EQ(r.out, "");
}

TEST(McpAuthOptions, NeedHttp) {
  expect_usage_error({"mcp", "--auth-tokens-file", "/x"},
                     "the --auth-* options need --http (standard input and output need no authorization)");
}

TEST(McpAuthOptions, TakeOneSourceOfTokens) {
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-tokens-file", "/x", "--auth-jwks", "/y",
                      "--auth-audience", "a"},
                     "give one of --auth-tokens-file, --auth-tokens-env and --auth-jwks");
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-tokens-file", "/x", "--auth-tokens-env", "V"},
                     "give one of --auth-tokens-file, --auth-tokens-env and --auth-jwks");
}

TEST(McpAuthOptions, PairTheJwksWithAnAudience) {
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-jwks", "/y"},
                     "--auth-jwks needs --auth-audience, the audience its tokens must name");
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-tokens-file", "/x", "--auth-audience", "a"},
                     "--auth-audience and --auth-issuer go with --auth-jwks");
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-issuer", "https://i"},
                     "--auth-audience and --auth-issuer go with --auth-jwks");
}

TEST(McpAuthOptions, ListMetadataOnlyWithSomethingToCheck) {
  for (const std::string flag : {"--auth-server", "--auth-resource", "--auth-scope"})
    expect_usage_error({"mcp", "--http", "127.0.0.1:0", flag, "https://auth.example.com"},
                       "--auth-server, --auth-resource and --auth-scope need --auth-tokens-file, --auth-tokens-env "
                       "or --auth-jwks");
}

TEST(McpAuthOptions, NameTheFileOrVariableThatCannotBeUsed) {
  TempDir dir;
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-tokens-file", "/nonexistent/tokens"},
                     "/nonexistent/tokens: No such file or directory");
  const auto bad = dir.write("tokens", "# ops\n" + kToken + "\nshort\n");
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-tokens-file", bad},
                     bad + ":3: a token shorter than 16 characters is too easy to guess");
  ::unsetenv("PTC_TEST_NO_SUCH_TOKENS");
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-tokens-env", "PTC_TEST_NO_SUCH_TOKENS"},
                     "environment variable PTC_TEST_NO_SUCH_TOKENS is not set");
  ::setenv("PTC_TEST_EMPTY_TOKENS", " , ", 1);
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-tokens-env", "PTC_TEST_EMPTY_TOKENS"},
                     "$PTC_TEST_EMPTY_TOKENS: no token (one per line or comma-separated; blank lines and # comments "
                     "are skipped)");
  const auto jwks = dir.write("jwks.json", R"({"keys": [{"kty": "oct", "k": "AA"}]})");
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-jwks", jwks, "--auth-audience", "a"},
                     jwks +
                         ": no key to verify RS256 or ES256 signatures with (an RSA key, or an EC key on P-256, "
                         "meant for signing)");
}

TEST(McpAuthOptions, CheckTheMetadataUrls) {
  TempDir dir;
  const auto tokens = dir.write("tokens", kToken + "\n");
  expect_usage_error({"mcp", "--http", "127.0.0.1:0", "--auth-tokens-file", tokens, "--auth-resource", "mcp.example"},
                     "the resource \"mcp.example\" is not an absolute http(s) URL without query or fragment");
  expect_usage_error(
      {"mcp", "--http", "127.0.0.1:0", "--auth-tokens-file", tokens, "--auth-server", "https://a.example/?x=1"},
      "the authorization server \"https://a.example/?x=1\" is not an absolute http(s) URL without query or fragment");
}

// ---- a real server -------------------------------------------------------------------------------

/// The fixture serving HTTP with `args`; stopped with SIGTERM.
class Served {
 public:
  Served(std::vector<std::string> args, const std::string& env = {}) {
    std::vector<std::string> words{PTC_MCP_FIXTURE, "mcp"};
    words.insert(words.end(), args.begin(), args.end());
    int err[2];
    if (::pipe(err) != 0) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(err[1], 2);
      ::close(err[0]);
      ::close(err[1]);
      if (!env.empty()) ::putenv(const_cast<char*>(env.c_str()));
      std::vector<char*> argv;
      for (auto& w : words) argv.push_back(w.data());
      argv.push_back(nullptr);
      ::execv(PTC_MCP_FIXTURE, argv.data());
      ::_exit(127);
    }
    ::close(err[1]);
    err_ = err[0];
    const auto text = stderr_until("/mcp\n");
    const auto at = text.find("serving http://");
    if (at != std::string::npos) port_ = std::stoi(text.substr(text.find(':', at + 15) + 1));
  }
  ~Served() {
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
    ::close(err_);
  }
  int port() const { return port_; }
  const std::string& stderr_text() const { return err_text_; }

  /// One request on its own connection; the whole response.
  std::string request(const std::string& method, const std::string& path, const std::string& extra_headers,
                      const std::string& body = {}) const {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port_));
    ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) return "(no connection)";
    const std::string text = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) +
                             "\r\nConnection: close\r\nContent-Type: application/json\r\n" + extra_headers +
                             "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    ::send(fd, text.data(), text.size(), MSG_NOSIGNAL);
    std::string answer;
    char chunk[4096];
    pollfd p{fd, POLLIN, 0};
    while (::poll(&p, 1, 10000) > 0) {
      const auto n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) break;
      answer.append(chunk, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return answer;
  }

 private:
  std::string stderr_until(const std::string& marker) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (err_text_.find(marker) == std::string::npos && std::chrono::steady_clock::now() < until) {
      pollfd p{err_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char chunk[4096];
      const auto n = ::read(err_, chunk, sizeof chunk);
      if (n <= 0) break;
      err_text_.append(chunk, static_cast<std::size_t>(n));
    }
    return err_text_;
  }

  pid_t pid_ = -1;
  int err_ = -1;
  int port_ = 0;
  std::string err_text_;
};

const std::string kPing = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";

TEST(McpAuthServed, TokensFromTheEnvironmentGuardTheEndpoint) {
  Served server({"--http", "127.0.0.1:0", "--auth-tokens-env", "PTC_TEST_TOKENS"},
                "PTC_TEST_TOKENS=other-token-abcdefghijkl," + kToken);
  ASSERT_GT(server.port(), 0) << server.stderr_text();
  const auto refused = server.request("POST", "/mcp", "", kPing);
  EXPECT_EQ(refused.rfind("HTTP/1.1 401", 0), 0u) << refused;
  EXPECT_NE(refused.find("WWW-Authenticate: Bearer resource_metadata=\"http://127.0.0.1:" +
                         std::to_string(server.port()) + "/.well-known/oauth-protected-resource/mcp\"\r\n"),
            std::string::npos)
      << refused;
  const auto answered = server.request("POST", "/mcp", "Authorization: Bearer " + kToken + "\r\n", kPing);
  EXPECT_EQ(answered.rfind("HTTP/1.1 200", 0), 0u) << answered;
  EXPECT_EQ(server.stderr_text().find("WARNING"), std::string::npos);
  EXPECT_EQ(server.stderr_text().find(kToken), std::string::npos);
}

TEST(McpAuthServed, AJwksServerListsItsAuthorizationServers) {
  TempDir dir;
  const auto key = ptc::test::TestKey::rsa("k");
  const auto jwks = dir.write("jwks.json", ptc::test::jwks_text({&key}), 0644);
  Served server({"--http", "127.0.0.1:0", "--auth-jwks", jwks, "--auth-audience", "api://tools", "--auth-server",
                 "https://auth.example.com", "--auth-scope", "tools"});
  ASSERT_GT(server.port(), 0) << server.stderr_text();
  const auto response = server.request("GET", "/.well-known/oauth-protected-resource/mcp", "");
  ASSERT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;
  EXPECT_EQ(json::parse(response.substr(response.find("\r\n\r\n") + 4)),
            (json{{"resource", "http://127.0.0.1:" + std::to_string(server.port()) + "/mcp"},
                  {"authorization_servers", {"https://auth.example.com"}},
                  {"scopes_supported", {"tools"}},
                  {"bearer_methods_supported", {"header"}}}));
  const json claims{{"aud", "api://tools"}, {"exp", ptc::test::now_seconds() + 60}};
  const auto answered =
      server.request("POST", "/mcp", "Authorization: Bearer " + signed_jwt(key, claims, "k") + "\r\n", kPing);
  EXPECT_EQ(answered.rfind("HTTP/1.1 200", 0), 0u) << answered;
}

TEST(McpAuthServed, ATokensFileOthersMayReadIsWarnedAbout) {
  TempDir dir;
  const auto tokens = dir.write("tokens", kToken + "\n", 0644);
  Served server({"--http", "127.0.0.1:0", "--auth-tokens-file", tokens});
  ASSERT_GT(server.port(), 0) << server.stderr_text();
  EXPECT_EQ(server.stderr_text().rfind("warning: " + tokens +
                                           ": users other than its owner may read it (mode 0644); "
                                           "chmod 600 " +
                                           tokens + "\n",
                                       0),
            0u)
      << server.stderr_text();
}

TEST(McpAuthServed, ServingAllInterfacesWithoutAuthorizationPrintsTheBanner) {
  Served open({"--http", "0.0.0.0:0"});
  ASSERT_GT(open.port(), 0) << open.stderr_text();
  EXPECT_EQ(open.stderr_text().rfind("WARNING: this MCP server listens on 0.0.0.0, which other machines may reach, "
                                     "and it has no authorization:\n",
                                     0),
            0u)
      << open.stderr_text();
  TempDir dir;
  Served guarded({"--http", "0.0.0.0:0", "--auth-tokens-file", dir.write("tokens", kToken + "\n")});
  ASSERT_GT(guarded.port(), 0) << guarded.stderr_text();
  EXPECT_EQ(guarded.stderr_text().find("WARNING"), std::string::npos) << guarded.stderr_text();
}

}  // namespace
