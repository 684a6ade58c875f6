// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Minimal option parsing for the tool commands: `--name value`,
// `--name=value` and bare flags; anything unknown is an error.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tessera::bench {

class Options {
 public:
  // `valued`: options that take a value; `flags`: options that do not.
  Options(std::set<std::string> valued, std::set<std::string> flags)
      : valued_(std::move(valued)), flags_(std::move(flags)) {}

  // False (with `error` set) on an unknown option or a missing value.
  bool parse(int argc, char** argv) {
    for (int i = 0; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg.rfind("--", 0) != 0) return fail("unexpected argument '" + arg + "'");
      arg = arg.substr(2);
      std::string value;
      bool has_value = false;
      if (auto eq = arg.find('='); eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        has_value = true;
      }
      if (flags_.count(arg)) {
        if (has_value) return fail("--" + arg + " takes no value");
        values_[arg] = "1";
      } else if (valued_.count(arg)) {
        if (!has_value) {
          if (i + 1 >= argc) return fail("--" + arg + " needs a value");
          value = argv[++i];
        }
        values_[arg] = value;
      } else {
        return fail("unknown option --" + arg);
      }
    }
    return true;
  }

  [[nodiscard]] bool has(const std::string& name) const { return values_.count(name) != 0; }
  [[nodiscard]] std::string get(const std::string& name, const std::string& fallback = {}) const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
  }
  // Integer option; false on a malformed number.
  bool get_int(const std::string& name, std::int64_t* out) const {
    if (!has(name)) return true;
    std::string const& v = values_.at(name);
    char* end = nullptr;
    long long const x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0') return false;
    *out = x;
    return true;
  }
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  bool fail(std::string e) {
    error_ = std::move(e);
    return false;
  }
  std::set<std::string> valued_, flags_;
  std::map<std::string, std::string> values_;
  std::string error_;
};

// Comma-separated list.
inline std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

}  // namespace tessera::bench
