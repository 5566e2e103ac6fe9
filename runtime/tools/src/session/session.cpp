#include <cstdio>

#include <ptc/session.hpp>
#include <ptc/tool_call.hpp>

namespace ptc {

Session::Session(std::string id, SessionOptions options)
    : id_(id.empty() ? make_uuid() : std::move(id)), options_(options) {
  // A session that keeps no log does not subscribe to its own calls: with nobody else listening,
  // dispatch then builds no event at all.
  if (options_.log_limit > 0) record_events<ToolInvoked>();
}

Session::~Session() {
  for (auto sub : subscriptions_) events_.unsubscribe(sub);
}

SessionSnapshot Session::snapshot() const {
  SessionSnapshot snap;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [type, slice] : slices_) snap.slices_.emplace(type, slice->clone());
  }
  snap.resources_ = resources_.snapshot();
  return snap;
}

void Session::restore(const SessionSnapshot& snap) {
  {
    std::lock_guard lock(mutex_);
    // Assign in place so references handed out by state<T>() stay valid.
    for (auto& [type, slice] : slices_) {
      auto it = snap.slices_.find(type);
      if (it == snap.slices_.end())
        slice->reset();
      else
        slice->assign_from(*it->second);
    }
  }
  resources_.restore(snap.resources_);
}

void Session::release(const SessionSnapshot& snap) { resources_.release(snap.resources_); }

}  // namespace ptc
