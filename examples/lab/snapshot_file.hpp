// snapshot_file.hpp - boids-lab's --save and --load: a run's state in a file, in the
// library's snapshot format (boids/snapshot.hpp), written whole or not at all.
#pragma once
#include <string>
#include <vector>
#include <boids/snapshot.hpp>
#include "csv.hpp"

namespace lab {

// The lab's own snapshot kinds.
inline constexpr auto vehicle_snapshot =
    static_cast<boids::snapshot_kind>(static_cast<std::uint32_t>(boids::snapshot_kind::user) + 1);

inline bool write_snapshot(const std::string& path, const std::vector<unsigned char>& bytes, std::string& error) {
    return write_file_atomically(path, std::string(bytes.begin(), bytes.end()), error);
}

inline bool read_snapshot(const std::string& path, std::vector<unsigned char>& bytes, std::string& error) {
    std::string s;
    if (!read_whole_file(path, s, error)) {
        error = "--load: " + error;
        return false;
    }
    bytes.assign(s.begin(), s.end());
    return true;
}

// "--load: FILE: field: reason" for a refused snapshot.
inline std::string snapshot_error(const std::string& path, const boids::validation& v) {
    return "--load: " + path + ": " + v.field + ": " + v.reason;
}

}  // namespace lab
