// cli.hpp - boids-lab's command-line parsing: `COMMAND --name=value --flag ...`.
// Kept apart from main() so tests and fuzzers can call it. No exceptions: every
// failure is a message naming the culprit, which main() prints as one line.
#pragma once
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lab {

struct arguments {
    std::string command;
    std::map<std::string, std::string> flags;  // "--name=value" -> {"name", "value"}; "--flag" -> {"flag", ""}
    std::set<std::string> bare;                // flags given without '='
};

// Parses argv; on failure returns nullopt and sets `error`.
inline std::optional<arguments> parse_arguments(const std::vector<std::string>& argv, std::string& error) {
    arguments out;
    if (argv.empty()) {
        error = "missing command (vehicle, flock, starlings, crowd, formation)";
        return std::nullopt;
    }
    out.command = argv[0];
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() < 3 || a[0] != '-' || a[1] != '-') {
            error = "unexpected argument '" + a + "' (flags look like --name=value)";
            return std::nullopt;
        }
        const auto eq = a.find('=');
        std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        if (name.empty()) {
            error = "empty flag name in '" + a + "'";
            return std::nullopt;
        }
        if (out.flags.count(name) != 0) {
            error = "flag --" + name + " given twice";
            return std::nullopt;
        }
        if (eq == std::string::npos) {
            out.bare.insert(name);
            out.flags[name] = "";
        } else {
            out.flags[name] = a.substr(eq + 1);
        }
    }
    return out;
}

// A finite number, the whole string and nothing else ("1e3", "-2.5"; not "", "1x", "nan").
inline std::optional<double> parse_number(const std::string& s) {
    if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])) != 0) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
    return v;
}

// A number for a JSON line: %.6g, or null for one that is not finite.
inline std::string json_number(double x) {
    if (!std::isfinite(x)) return "null";
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", x);
    return b;
}

// A non-negative integer that fits (digits only).
inline std::optional<unsigned long long> parse_count(const std::string& s) {
    if (s.empty() || s.size() > 18) return std::nullopt;
    unsigned long long v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + static_cast<unsigned long long>(c - '0');
    }
    return v;
}

// Comma-separated finite numbers, exactly N of them: "X,Y".
template <std::size_t N>
inline std::optional<std::array<double, N>> parse_numbers(const std::string& s) {
    std::array<double, N> out{};
    std::size_t start = 0;
    for (std::size_t i = 0; i < N; ++i) {
        const auto comma = s.find(',', start);
        const bool last = i + 1 == N;
        if (last != (comma == std::string::npos)) return std::nullopt;
        const auto v = parse_number(s.substr(start, last ? std::string::npos : comma - start));
        if (!v) return std::nullopt;
        out[i] = *v;
        start = comma + 1;
    }
    return out;
}

// Reads typed flags out of `arguments`, remembering the first error, and checks
// at the end that no flag was left unread (an unknown flag is an error).
class flag_reader {
public:
    flag_reader(const arguments& args) : args_(args) {}  // NOLINT

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    bool has(const std::string& name) {
        known_.insert(name);
        return args_.flags.count(name) != 0;
    }

    void number(const std::string& name, double& value) {
        if (!take(name)) return;
        if (auto v = parse_number(raw_)) value = *v;
        else fail("--" + name + ": '" + raw_ + "' is not a finite number");
    }
    // A number that must be > 0 (strict) or >= 0.
    void positive(const std::string& name, double& value, bool strict = true) {
        if (!has(name)) return;
        number(name, value);
        if (ok() && (strict ? !(value > 0) : !(value >= 0)))
            fail("--" + name + ": must be " + (strict ? "> 0" : ">= 0") + ", got " + raw_);
    }
    void count(const std::string& name, unsigned long long& value, unsigned long long max) {
        if (!take(name)) return;
        auto v = parse_count(raw_);
        if (!v) fail("--" + name + ": '" + raw_ + "' is not a non-negative integer");
        else if (*v > max) fail("--" + name + ": " + raw_ + " is more than " + std::to_string(max));
        else value = *v;
    }
    template <std::size_t N>
    void numbers(const std::string& name, std::array<double, N>& value) {
        if (!take(name)) return;
        if (auto v = parse_numbers<N>(raw_)) value = *v;
        else fail("--" + name + ": '" + raw_ + "' is not " + std::to_string(N) + " comma-separated finite numbers");
    }
    void text(const std::string& name, std::string& value) {
        if (!take(name)) return;
        if (raw_.empty()) fail("--" + name + ": needs a value (--" + name + "=...)");
        else value = raw_;
    }
    void choice(const std::string& name, std::string& value, const std::set<std::string>& allowed) {
        if (!take(name)) return;
        if (allowed.count(raw_) == 0) {
            std::string list;
            for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
            fail("--" + name + ": unknown value '" + raw_ + "' (expected " + list + ")");
        } else {
            value = raw_;
        }
    }
    bool flag(const std::string& name) {
        if (!has(name)) return false;
        if (!args_.flags.at(name).empty()) fail("--" + name + " takes no value");
        return true;
    }
    void fail(const std::string& message) {
        if (error_.empty()) error_ = message;
    }
    // Call after reading every flag: reports the first one nobody asked for.
    bool finish() {
        for (const auto& f : args_.flags)
            if (known_.count(f.first) == 0) fail("unknown flag --" + f.first + " for '" + args_.command + "'");
        return ok();
    }

private:
    bool take(const std::string& name) {
        if (!has(name)) return false;
        raw_ = args_.flags.at(name);
        if (raw_.empty() && args_.bare.count(name) != 0) {
            fail("--" + name + ": needs a value (--" + name + "=...)");
            return false;
        }
        return true;
    }

    const arguments& args_;
    std::set<std::string> known_;
    std::string raw_;
    std::string error_;
};

}  // namespace lab
