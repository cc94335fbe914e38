// bits_digest.hpp - FNV-1a over the bytes of every coordinate of some vectors: one
// number that changes when any bit of a run changes. Used by the programs whose
// printed digests must match across builds (pack widths, compilers).
#pragma once
#include <boids/vector.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

namespace test {

class bits_digest {
public:
    template <class V>
    bits_digest& eat(const std::vector<V>& a) {
        for (const V& x : a)
            for (std::size_t d = 0; d < boids::dimension_v<V>; ++d) eat_bytes(boids::get(x, d));
        return *this;
    }
    [[nodiscard]] std::uint64_t value() const noexcept { return h_; }

private:
    template <class T>
    void eat_bytes(T s) {
        unsigned char bytes[sizeof s];
        std::memcpy(bytes, &s, sizeof s);
        for (unsigned char b : bytes) h_ = (h_ ^ b) * 1099511628211ull;
    }
    std::uint64_t h_ = 14695981039346656037ull;
};

}  // namespace test
