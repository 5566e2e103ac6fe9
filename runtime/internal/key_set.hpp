#pragma once
// ptc::text::KeySet: the keys one JSON object has shown so far, to refuse a repeated one, in a few bytes
// a key. A std::set<std::string> costs about 80 bytes a key, ten times a short member's text
// (`"k1":0,`), and an object a reader skips can hold hundreds of thousands of them. Here the keys sit
// back to back in one string and a table of 4-byte indexes finds them by a hash seeded once per
// process, so that no text can be written to make many keys collide.

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace ptc::text {

class KeySet {
 public:
  /// False when `key` was inserted before.
  bool insert(std::string_view key) {
    if (entries_.size() < kLinear) {
      for (const Entry& e : entries_)
        if (at(e) == key) return false;
      add(key);
      if (entries_.size() == kLinear) rehash(kLinear * 4);
      return true;
    }
    const std::uint64_t h = hash(key);
    std::size_t i = h & (table_.size() - 1);
    for (; table_[i] != 0; i = (i + 1) & (table_.size() - 1))
      if (at(entries_[table_[i] - 1]) == key) return false;
    add(key);
    table_[i] = static_cast<std::uint32_t>(entries_.size());
    if (entries_.size() * 2 > table_.size()) rehash(table_.size() * 2);
    return true;
  }

  std::size_t size() const { return entries_.size(); }

 private:
  static constexpr std::size_t kLinear = 8;  // up to this many keys, a scan is cheaper than hashing

  struct Entry {
    std::uint32_t offset;
    std::uint32_t length;
  };

  std::string_view at(const Entry& e) const { return std::string_view(keys_).substr(e.offset, e.length); }

  void add(std::string_view key) {
    entries_.push_back({static_cast<std::uint32_t>(keys_.size()), static_cast<std::uint32_t>(key.size())});
    keys_.append(key);
  }

  void rehash(std::size_t size) {
    table_.assign(size, 0);
    for (std::size_t n = 0; n < entries_.size(); ++n) {
      std::size_t i = hash(at(entries_[n])) & (size - 1);
      while (table_[i] != 0) i = (i + 1) & (size - 1);
      table_[i] = static_cast<std::uint32_t>(n + 1);
    }
  }

  static std::uint64_t seed() {
    static const std::uint64_t s = [] {
      std::random_device device;
      return (std::uint64_t{device()} << 32) ^ device() ^ 0x9e3779b97f4a7c15ULL;
    }();
    return s;
  }

  // A keyed multiply-xorshift over 8-byte words (wyhash's mixing step).
  __extension__ using Wide = unsigned __int128;
  static std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    const Wide product = static_cast<Wide>(a) * b;
    return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
  }

  static std::uint64_t hash(std::string_view key) {
    const std::uint64_t s = seed();
    std::uint64_t h = s ^ key.size();
    std::size_t i = 0;
    for (; i + 8 <= key.size(); i += 8) {
      std::uint64_t word;
      std::memcpy(&word, key.data() + i, 8);
      h = mix(h ^ word, 0xa0761d6478bd642fULL ^ s);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, key.data() + i, key.size() - i);
    return mix(h ^ tail, 0xe7037ed1a0b428dbULL) ^ (h >> 29);
  }

  std::string keys_;
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> table_;  // 1 + the index of an entry, 0 for a free slot
};

}  // namespace ptc::text
