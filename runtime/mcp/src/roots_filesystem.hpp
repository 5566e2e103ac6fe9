#pragma once
// ServerOptions::roots_filesystem: the filesystem a session's tools get is the client's roots, asked of
// the client (roots/list) before each call, or kept from the last call until the client says its roots
// changed (2025 sessions).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/client_requests.hpp>
#include <ptc/filesystem.hpp>

namespace ptc::mcp {

/// The local path of a `file:` URI ("file:///home/me/a%20b" -> "/home/me/a b"; a `localhost` host is
/// allowed), or nullopt for another scheme, another host, a relative path or a NUL byte.
std::optional<std::string> file_uri_path(std::string_view uri);

/// The filesystem of `roots`: the one usable root's directory itself, or a MountedFilesystem with one
/// directory per usable root, named by the root's name (else its directory's), made unique with "-2",
/// "-3"... A root is usable when it is a file: URI of an existing directory inside `within` (the
/// operator's bound: the client names its roots, the operator how far they may reach), as resolved
/// when opened; the others are left out, so no usable root gives a filesystem that refuses every path.
std::shared_ptr<Filesystem> roots_filesystem(const std::vector<Root>& roots, const std::filesystem::path& within);

}  // namespace ptc::mcp
