// boids/strided.hpp - vectors that live inside your own structs.
//
// A game that keeps its entities as an array of structs
//
//   struct Entity { int id; float hp; glm::vec2 pos, vel; };
//   std::vector<Entity> entities;
//
// hands the flock step, the finders and the gauges views of the two members:
//
//   boids::flock_step(boids::members(entities, &Entity::pos), boids::members(entities, &Entity::vel), ...);
//
// A strided_span is a pointer, a count and a stride in bytes. The step reads and
// writes only the members it is given; the other members are left untouched.
#pragma once
#include <cstddef>
#include <type_traits>
#include "config.hpp"
#include "span.hpp"

namespace boids {

template <class T>
class strided_span {
    using byte = std::conditional_t<std::is_const_v<T>, const unsigned char, unsigned char>;

public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;

    constexpr strided_span() noexcept = default;
    // `count` elements, the first at `first`, each `stride_bytes` after the last.
    strided_span(T* first, std::size_t count, std::size_t stride_bytes) noexcept
        : data_(reinterpret_cast<byte*>(first)), size_(count), stride_(stride_bytes) {}
    // A contiguous span is a strided one with stride sizeof(T).
    strided_span(span<T> s) noexcept : strided_span(s.data(), s.size(), sizeof(T)) {}  // NOLINT: implicit by design
    // strided_span<T> converts to strided_span<const T>.
    template <class U, class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
    strided_span(strided_span<U> other) noexcept  // NOLINT: implicit by design
        : strided_span(other.size() == 0 ? nullptr : &other[0], other.size(), other.stride()) {}

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] std::size_t stride() const noexcept { return stride_; }
    T& operator[](std::size_t i) const noexcept {
        BOIDS_ASSERT(i < size_, "boids::strided_span index out of range");
        return *reinterpret_cast<T*>(data_ + i * stride_);
    }

private:
    byte* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t stride_ = sizeof(T);
};

// The member `m` of every element of a contiguous container (std::vector, std::array,
// a span) of structs: members(entities, &Entity::pos).
template <class Container, class Member, class Struct>
[[nodiscard]] auto members(Container& c, Member Struct::*m) noexcept {
    using element = std::remove_pointer_t<decltype(c.data())>;
    static_assert(std::is_same_v<std::remove_cv_t<element>, Struct>,
                  "boids::members: the member is not one of the container's elements");
    using M = std::conditional_t<std::is_const_v<element>, const Member, Member>;
    if (c.size() == 0) return strided_span<M>();
    return strided_span<M>(&(c.data()->*m), c.size(), sizeof(Struct));
}

}  // namespace boids
