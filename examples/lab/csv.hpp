// csv.hpp - boids-lab's state files: a header line, then one boid a row of finite
// numbers. Reading refuses anything else and names the line; writing goes to a
// temporary file renamed into place, so a failed run never leaves half a file.
#pragma once
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>
#include "cli.hpp"

namespace lab {

using row = std::vector<double>;

// Parses CSV text whose first line must equal `header`. Empty trailing lines are allowed.
inline std::optional<std::vector<row>> parse_csv(const std::string& text, const std::string& header,
                                                 std::string& error) {
    std::vector<row> rows;
    std::size_t columns = 1;
    for (char c : header) columns += c == ',' ? 1u : 0u;
    std::size_t line_no = 0, pos = 0;
    bool saw_header = false;
    while (pos <= text.size()) {
        auto nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        std::string line = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!saw_header) {
            if (line != header) {
                error = "line 1: expected the header '" + header + "'";
                return std::nullopt;
            }
            saw_header = true;
            continue;
        }
        if (line.empty()) {
            if (pos >= text.size()) break;
            error = "line " + std::to_string(line_no) + ": empty line";
            return std::nullopt;
        }
        row r;
        std::size_t start = 0;
        while (true) {
            const auto comma = line.find(',', start);
            const std::string field =
                line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            const auto v = parse_number(field);
            if (!v) {
                error = "line " + std::to_string(line_no) + ": '" + field + "' is not a finite number";
                return std::nullopt;
            }
            r.push_back(*v);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        if (r.size() != columns) {
            error = "line " + std::to_string(line_no) + ": expected " + std::to_string(columns) + " fields, found " +
                    std::to_string(r.size());
            return std::nullopt;
        }
        rows.push_back(std::move(r));
    }
    if (!saw_header) {
        error = "empty file (expected the header '" + header + "')";
        return std::nullopt;
    }
    return rows;
}

// The whole file, as bytes; false (error set) when it cannot be opened.
inline bool read_whole_file(const std::string& path, std::string& contents, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open '" + path + "'";
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    contents = ss.str();
    return true;
}

inline std::optional<std::vector<row>> read_csv(const std::string& path, const std::string& header,
                                                std::string& error) {
    std::string text;
    if (!read_whole_file(path, text, error)) return std::nullopt;
    std::string inner;
    auto rows = parse_csv(text, header, inner);
    if (!rows) error = path + ": " + inner;
    return rows;
}

// Formats rows with 17 significant digits, so doubles read back bit for bit.
inline std::string format_csv(const std::string& header, const std::vector<row>& rows) {
    std::string out = header + "\n";
    char buf[40];
    for (const auto& r : rows) {
        for (std::size_t i = 0; i < r.size(); ++i) {
            std::snprintf(buf, sizeof buf, "%.17g", r[i]);
            if (i != 0) out += ',';
            out += buf;
        }
        out += '\n';
    }
    return out;
}

// Writes the whole file or nothing: a temporary beside it, then rename().
inline bool write_file_atomically(const std::string& path, const std::string& contents, std::string& error) {
    const std::string tmp = path + ".tmp-boids-lab";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            error = "cannot write '" + path + "'";
            return false;
        }
        out << contents;
        out.flush();
        if (!out) {
            out.close();
            std::remove(tmp.c_str());
            error = "failed while writing '" + path + "'";
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        error = "cannot replace '" + path + "'";
        return false;
    }
    return true;
}

}  // namespace lab
