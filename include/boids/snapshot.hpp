// boids/snapshot.hpp - state saved into bytes and read back exactly.
//
// A snapshot is a small header and a payload:
//
//   magic "BOIDSNAP" | format version u32 (2) | kind u32 | layout u32 | scalar bytes
//   u32 (4: float, 8: double) | dimension u32 | count u64 | payload bytes u64 | checksum u64
//
// (the checksum: FNV-1a 64 of every byte before it and of the payload). The layout
// numbers the kind's payload: a type bumps it whenever its fields change, so that a
// reader can refuse (or convert) a payload of another layout, naming the reason,
// instead of misreading it. Version 1 headers (no layout field: layout 0) still load.
//
// then the payload: fixed-width integers and IEEE-754 bit patterns, little-endian
// whatever the machine, in an order that the type being saved defines once for both
// directions (see starling::flock::save and load). A reader checks every header
// field and every read against the bytes left, and refuses a wrong, truncated or
// corrupt buffer with a validation naming what is wrong: never undefined behaviour,
// never a partly loaded object.
//
// snapshot_writer and snapshot_reader are public so that a game can save its own
// arrays (positions, velocities, per-agent wander states) in the same format.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>
#include "config.hpp"
#include "random.hpp"
#include "span.hpp"
#include "vector.hpp"

namespace boids {

inline constexpr std::uint32_t snapshot_format_version = 2;
// The header this library writes (format version 2).
inline constexpr std::size_t snapshot_header_bytes = 8 + 4 * 5 + 8 * 3;

// What a snapshot holds (its header's kind): the library's kinds, and a range for
// the user's own.
enum class snapshot_kind : std::uint32_t {
    starling_flock = 1,
    starling_flock_with_birds = 2,  // the same, then the birds' positions and velocities
    user = 0x10000,                 // user kinds: user + 0, user + 1, ...
};

namespace detail {
inline constexpr unsigned char snapshot_magic[8] = {'B', 'O', 'I', 'D', 'S', 'N', 'A', 'P'};

[[nodiscard]] inline std::uint64_t fnv1a64(const unsigned char* p, std::size_t n,
                                           std::uint64_t h = 0xcbf29ce484222325ull) noexcept {
    for (std::size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
// The header of format version 1, which had no layout field.
inline constexpr std::size_t snapshot_header_bytes_v1 = snapshot_header_bytes - 4;
// The checksum of the snapshot starting at p: its header up to the checksum, then its payload.
[[nodiscard]] inline std::uint64_t snapshot_checksum(const unsigned char* p, std::size_t payload_bytes,
                                                     std::size_t header_bytes = snapshot_header_bytes) noexcept;
// Writes the payload's length, then the checksum, into the header of the snapshot at
// p (header_bytes long, the payload after it): what snapshot_writer::finish does.
inline void seal_snapshot(unsigned char* p, std::size_t payload_bytes,
                          std::size_t header_bytes = snapshot_header_bytes) noexcept;
}  // namespace detail

// Appends a snapshot to a byte vector: begin() writes the header, the put calls the
// payload, finish() fills in the payload's length and checksum.
class snapshot_writer {
public:
    explicit snapshot_writer(std::vector<unsigned char>& out) noexcept : out_(out) {}

    // `layout`: the number of the kind's payload layout (see the header above).
    void begin(snapshot_kind kind, std::uint32_t scalar_bytes, std::uint32_t dimension, std::uint64_t count,
               std::uint32_t layout = 0) {
        start_ = out_.size();
        out_.insert(out_.end(), detail::snapshot_magic, detail::snapshot_magic + 8);
        put(snapshot_format_version);
        put(static_cast<std::uint32_t>(kind));
        put(layout);
        put(scalar_bytes);
        put(dimension);
        put(count);
        put(std::uint64_t{0});  // payload bytes, filled by finish()
        put(std::uint64_t{0});  // checksum, filled by finish()
    }
    void finish() noexcept {
        detail::seal_snapshot(out_.data() + start_, out_.size() - (start_ + snapshot_header_bytes));
    }

    void put(std::uint8_t x) { out_.push_back(x); }
    void put(bool x) { out_.push_back(x ? 1 : 0); }
    void put(std::uint32_t x) { put_bits(x, 4); }
    void put(std::uint64_t x) { put_bits(x, 8); }
    void put(std::int32_t x) { put_bits(static_cast<std::uint32_t>(x), 4); }
    void put(float x) {
        std::uint32_t b;
        std::memcpy(&b, &x, 4);
        put_bits(b, 4);
    }
    void put(double x) {
        std::uint64_t b;
        std::memcpy(&b, &x, 8);
        put_bits(b, 8);
    }
    void put(const random_stream& r) { put(r.state); }
    template <class V, class = std::enable_if_t<is_vector_v<V>>>
    void put(const V& v) {
        for (std::size_t d = 0; d < dimension_v<V>; ++d) put(boids::get(v, d));
    }
    // A length, then raw bytes (another snapshot, say).
    void put_bytes(span<const unsigned char> bytes) {
        put(static_cast<std::uint64_t>(bytes.size()));
        out_.insert(out_.end(), bytes.begin(), bytes.end());
    }
    // A count, then the elements.
    template <class T>
    void put_array(span<const T> xs) {
        put(static_cast<std::uint64_t>(xs.size()));
        for (const T& x : xs) put(x);
    }

private:
    void put_bits(std::uint64_t x, std::size_t bytes) {
        for (std::size_t i = 0; i < bytes; ++i) out_.push_back(static_cast<unsigned char>(x >> (8 * i)));
    }
    std::vector<unsigned char>& out_;
    std::size_t start_ = 0;
};

// Reads a snapshot back. open() checks the header against what the caller expects;
// each get() fails (and keeps failing) once the payload runs out; done() checks
// that every byte was read. The first failure is kept in error().
class snapshot_reader {
public:
    explicit snapshot_reader(span<const unsigned char> bytes) noexcept : bytes_(bytes) {}

    // Checks the header; `count` receives its count. With more_may_follow, bytes past
    // this snapshot's end are left alone (the next snapshot of a file that holds
    // several, one after the other); used() says where this one ends. The layout is
    // the caller's to check (layout()): a type may read older layouts of its own.
    validation open(snapshot_kind kind, std::uint32_t scalar_bytes, std::uint32_t dimension, std::uint64_t& count,
                    bool more_may_follow = false) noexcept {
        if (bytes_.size() < detail::snapshot_header_bytes_v1)
            return fail("header", "shorter than a snapshot header (truncated?)");
        if (std::memcmp(bytes_.data(), detail::snapshot_magic, 8) != 0) return fail("magic", "not a boids snapshot");
        pos_ = 8;
        limit_ = 8 + 4;  // the version, which says how long the header is
        std::uint32_t version = 0, k = 0, sb = 0, dim = 0;
        std::uint64_t length = 0, sum = 0;
        get(version);
        if (version != 1 && version != snapshot_format_version)
            return fail("format version", "not a version this library reads (1 or 2)");
        const std::size_t header = version == 1 ? detail::snapshot_header_bytes_v1 : snapshot_header_bytes;
        if (bytes_.size() < header) return fail("header", "shorter than a snapshot header (truncated?)");
        limit_ = header;
        layout_ = 0;
        get(k);
        if (version != 1) get(layout_);
        get(sb);
        get(dim);
        get(count);
        get(length);
        get(sum);
        if (k != static_cast<std::uint32_t>(kind)) return fail("kind", "a snapshot of something else");
        if (sb != scalar_bytes) return fail("scalar type", "saved with another scalar type (float or double)");
        if (dim != dimension) return fail("dimension", "saved with another dimension");
        const std::size_t room = bytes_.size() - header;
        if (length > room || (!more_may_follow && length != room))
            return fail("length", "the payload is truncated or has bytes past its end");
        const std::size_t payload = static_cast<std::size_t>(length);
        if (sum != detail::snapshot_checksum(bytes_.data(), payload, header))
            return fail("checksum", "the snapshot is corrupt");
        limit_ = header + payload;
        return {};
    }
    // The header's layout number (0 for a version 1 header), after a successful open().
    [[nodiscard]] std::uint32_t layout() const noexcept { return layout_; }
    // The bytes this snapshot takes, header included (after a successful open()).
    [[nodiscard]] std::size_t used() const noexcept { return limit_; }
    [[nodiscard]] validation done() noexcept {
        if (error_.ok() && pos_ != limit_) return fail("length", "bytes left over after the last field");
        return error_;
    }
    [[nodiscard]] const validation& error() const noexcept { return error_; }
    [[nodiscard]] bool ok() const noexcept { return error_.ok(); }
    // The payload bytes not read yet.
    [[nodiscard]] std::size_t left() const noexcept { return limit_ - pos_; }

    void get(std::uint8_t& x) noexcept {
        std::uint64_t b = 0;
        if (get_bits(b, 1)) x = static_cast<std::uint8_t>(b);
    }
    void get(bool& x) noexcept {
        std::uint64_t b = 0;
        if (!get_bits(b, 1)) return;
        if (b > 1) fail("payload", "a flag that is neither 0 nor 1");
        else x = b != 0;
    }
    void get(std::uint32_t& x) noexcept {
        std::uint64_t b = 0;
        if (get_bits(b, 4)) x = static_cast<std::uint32_t>(b);
    }
    void get(std::uint64_t& x) noexcept {
        std::uint64_t b = 0;
        if (get_bits(b, 8)) x = b;
    }
    void get(std::int32_t& x) noexcept {
        std::uint64_t b = 0;
        if (get_bits(b, 4)) {
            const auto u = static_cast<std::uint32_t>(b);
            std::memcpy(&x, &u, 4);
        }
    }
    void get(float& x) noexcept {
        std::uint64_t b = 0;
        if (!get_bits(b, 4)) return;
        const auto u = static_cast<std::uint32_t>(b);
        std::memcpy(&x, &u, 4);
    }
    void get(double& x) noexcept {
        std::uint64_t b = 0;
        if (get_bits(b, 8)) std::memcpy(&x, &b, 8);
    }
    void get(random_stream& r) noexcept { get(r.state); }
    template <class V, class = std::enable_if_t<is_vector_v<V>>>
    void get(V& v) noexcept {
        scalar_t<V> c[3] = {};
        for (std::size_t d = 0; d < dimension_v<V>; ++d) get(c[d]);
        v = boids::generate<V>([&](std::size_t d) { return c[d]; });
    }
    // Bytes written by put_bytes.
    void get_bytes(std::vector<unsigned char>& bytes) {
        std::uint64_t n = 0;
        get(n);
        if (!ok()) return;
        if (n > left()) {
            fail("length", "the payload is shorter than its bytes");
            return;
        }
        const unsigned char* from = bytes_.data() + pos_;
        bytes.assign(from, from + n);
        pos_ += static_cast<std::size_t>(n);
    }
    // A count written by put_array that must equal `expected`, then the elements.
    template <class T>
    void get_array(std::vector<T>& xs, std::uint64_t expected) {
        std::uint64_t n = 0;
        get(n);
        if (!ok()) return;
        if (n != expected) {
            fail("payload", "an array whose length is not the header's count");
            return;
        }
        if (n > left()) {  // every element takes at least a byte: a bound before allocating
            fail("length", "the payload is shorter than its arrays");
            return;
        }
        xs.resize(static_cast<std::size_t>(n));
        for (T& x : xs) get(x);
    }
    // Fails with `reason` at `field` unless the condition holds (a value out of range).
    void require(bool condition, const char* field, const char* reason) noexcept {
        if (!condition) fail(field, reason);
    }

private:
    validation fail(const char* field, const char* reason) noexcept {
        if (error_.ok()) error_ = validation{field, reason};
        pos_ = limit_;
        return error_;
    }
    bool get_bits(std::uint64_t& x, std::size_t bytes) noexcept {
        if (!error_.ok()) return false;
        if (limit_ - pos_ < bytes) {
            fail("length", "the payload ends inside a field (truncated?)");
            return false;
        }
        x = 0;
        for (std::size_t i = 0; i < bytes; ++i) x |= static_cast<std::uint64_t>(bytes_.data()[pos_ + i]) << (8 * i);
        pos_ += bytes;
        return true;
    }
    span<const unsigned char> bytes_;
    std::size_t pos_ = 0, limit_ = 0;
    std::uint32_t layout_ = 0;
    validation error_{};
};

namespace detail {
inline std::uint64_t snapshot_checksum(const unsigned char* p, std::size_t payload_bytes,
                                       std::size_t header_bytes) noexcept {
    const std::uint64_t h = fnv1a64(p, header_bytes - 8);
    return fnv1a64(p + header_bytes, payload_bytes, h);
}
inline void seal_snapshot(unsigned char* p, std::size_t payload_bytes, std::size_t header_bytes) noexcept {
    auto store = [&](std::size_t at, std::uint64_t x) {
        for (std::size_t i = 0; i < 8; ++i) p[at + i] = static_cast<unsigned char>(x >> (8 * i));
    };
    store(header_bytes - 16, payload_bytes);
    store(header_bytes - 8, snapshot_checksum(p, payload_bytes, header_bytes));
}
}  // namespace detail

}  // namespace boids
