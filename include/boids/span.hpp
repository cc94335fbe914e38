// boids/span.hpp - a minimal contiguous view, because C++17 has no std::span.
// Boids are rows in arrays: every bulk function takes spans of the user's vectors.
#pragma once
#include <cstddef>
#include <type_traits>
#include "config.hpp"

namespace boids {

template <class T>
class span {
public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    using size_type = std::size_t;

    constexpr span() noexcept = default;
    constexpr span(T* data, std::size_t size) noexcept : data_(data), size_(size) {}
    // Any contiguous container with data() and size() (std::vector, std::array).
    template <class C, class = std::enable_if_t<std::is_convertible_v<decltype(std::declval<C&>().data()), T*>>>
    constexpr span(C& c) noexcept : data_(c.data()), size_(c.size()) {}  // NOLINT: implicit by design
    // span<T> converts to span<const T>.
    template <class U, class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
    constexpr span(span<U> other) noexcept : data_(other.data()), size_(other.size()) {}  // NOLINT

    [[nodiscard]] constexpr T* data() const noexcept { return data_; }
    [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }
    [[nodiscard]] constexpr bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] constexpr T* begin() const noexcept { return data_; }
    [[nodiscard]] constexpr T* end() const noexcept { return data_ + size_; }
    constexpr T& operator[](std::size_t i) const noexcept {
        BOIDS_ASSERT(i < size_, "boids::span index out of range");
        return data_[i];
    }
    [[nodiscard]] constexpr span subspan(std::size_t offset, std::size_t count) const noexcept {
        BOIDS_ASSERT(offset + count <= size_, "boids::span::subspan out of range");
        return span(data_ + offset, count);
    }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

template <class C>
span(C&) -> span<std::remove_pointer_t<decltype(std::declval<C&>().data())>>;

namespace detail {
template <class T>
struct identity {
    using type = T;
};
// A parameter that takes part in no deduction: where V comes from another argument
// (a config, an anchor), a std::vector or std::array of V converts to the span.
template <class T>
using identity_t = typename identity<T>::type;

template <class T>
struct is_span : std::false_type {};
template <class T>
struct is_span<span<T>> : std::true_type {};
// A contiguous container that is not a span (std::vector, std::array), and the
// span over it: for functions whose V comes from nothing but the span.
template <class C, class = void>
struct is_container : std::false_type {};
template <class C>
struct is_container<C, std::void_t<decltype(std::declval<C&>().data()), decltype(std::declval<C&>().size())>>
    : std::bool_constant<!is_span<std::remove_cv_t<C>>::value> {};
template <class C>
using if_container = std::enable_if_t<is_container<std::remove_reference_t<C>>::value>;
}  // namespace detail

}  // namespace boids
