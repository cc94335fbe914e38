// fuzz_input.hpp - reads typed values off the fuzzer's bytes (zeros once they run out).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace fuzz {

class input {
public:
    input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    template <class T>
    T take() {
        T v{};
        const std::size_t n = sizeof(T) < size_ - pos_ ? sizeof(T) : size_ - pos_;
        std::memcpy(&v, data_ + pos_, n);
        pos_ += n;
        return v;
    }
    std::size_t left() const { return size_ - pos_; }
    // Any double, NaN and infinities included.
    double any_double() { return take<double>(); }
    // A finite double within [-limit, limit], or a few special values.
    double finite(double limit) {
        const double v = take<double>();
        if (!(v == v) || v > limit || v < -limit) return static_cast<double>(take<std::int16_t>());
        return v;
    }
    std::size_t small(std::size_t max) { return take<std::uint16_t>() % (max + 1); }
    std::string rest() {
        std::string s(reinterpret_cast<const char*>(data_ + pos_), size_ - pos_);
        pos_ = size_;
        return s;
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

// A check that stays on in release builds: a fuzz finding must crash.
#define FUZZ_CHECK(cond) \
  do {                   \
    if (!(cond)) {       \
      __builtin_trap();  \
    }                    \
  } while (0)

}  // namespace fuzz
