#pragma once
// Values and resources the session, resources, events and tool-context tests share: plain state
// slices, a snapshot-capable resource, and an interface with a snapshot-capable and a plain
// implementation.

#include <any>
#include <string>
#include <utility>
#include <vector>

#include <ptc/deadline.hpp>
#include <ptc/resources.hpp>

namespace ptc_test {

struct Counter {
  int value = 0;
};
struct Names {
  std::vector<std::string> items;
  std::string label = "default";
};
struct Note {
  std::string text;
};
struct Other {
  int n = 0;
};

/// A snapshot-capable resource whose tokens are its value; counts the calls it gets.
class Dial final : public ptc::Snapshotable {
 public:
  int value = 0;
  mutable int snapshots = 0;
  int restores = 0;
  std::any snapshot() const override {
    ++snapshots;
    return value;
  }
  void restore(const std::any& token) override {
    ++restores;
    value = std::any_cast<int>(token);
  }
};

/// An interface that knows nothing of snapshots, and an implementation that is snapshot-capable.
class Store {
 public:
  virtual ~Store() = default;
  virtual std::string get() const = 0;
  virtual void set(std::string v) = 0;
};
class SnapshotStore final : public Store, public ptc::Snapshotable {
 public:
  std::string get() const override { return value_; }
  void set(std::string v) override { value_ = std::move(v); }
  std::any snapshot() const override { return value_; }
  void restore(const std::any& token) override { value_ = std::any_cast<std::string>(token); }

 private:
  std::string value_;
};
class PlainStore final : public Store {
 public:
  std::string get() const override { return value_; }
  void set(std::string v) override { value_ = std::move(v); }

 private:
  std::string value_;
};

/// A fixed start for manual clocks.
inline const ptc::TimePoint kStart = ptc::TimePoint{} + std::chrono::seconds(1000);

}  // namespace ptc_test
