// boids/neighbors/query.hpp - what a neighbour query asks and what it reports.
//
// Finders (all_pairs, uniform_grid, hashed_grid) share these types, so they are
// interchangeable: a metric query reports every neighbour to a sink; a topological
// query fills a k_nearest sink. Results go to caller-owned storage, never to a
// fresh container per query.
#pragma once
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include "../span.hpp"
#include "../vector.hpp"

namespace boids {

// One neighbour as a query reports it: who, how far (squared) and where (the
// offset from the querying boid to it, minimum image in toroidal worlds).
template <class S, std::size_t D>
struct neighbor {
    std::size_t index;
    S distance_squared;
    std::array<S, D> offset;
};

// dot >= c * sqrt(d2) (dot: offset . unit heading, d2: |offset|^2, c: cos of half the
// view angle), compared in squares: no square root, so a vectorised loop needs no
// call that may set errno.
template <class S>
[[nodiscard]] constexpr bool cone_sees(S dot, S d2, S c) noexcept {
    // dot |dot| >= c |c| d2: one comparison whatever c's sign (as the flock kernel does
    // it, lane-wide). For c >= 0 it needs dot >= 0 and dot^2 >= c^2 d2; for c < 0 it
    // fails only where dot < 0 and dot^2 > c^2 d2.
    const S rhs = c * c * d2;
    return dot * (dot < S(0) ? -dot : dot) >= (c >= S(0) ? rhs : -rhs);
}

// A vision cone: a neighbour counts when the angle between the heading and the
// offset to it is at most half the view angle. A boid with zero velocity, or a
// view angle of 360 degrees or more, sees all around.
template <class S, std::size_t D>
struct vision_cone {
    bool all_around = true;
    std::array<S, D> heading{};  // unit
    S cos_half_angle = S(-1);

    template <class V>
    [[nodiscard]] static vision_cone from(const V& velocity, S view_angle_degrees) noexcept {
        return from(velocity, view_angle_degrees, cos_half_of(view_angle_degrees));
    }
    // The same, with cos_half_of(view_angle_degrees) worked out by the caller: a loop
    // over many boids with one view angle computes the cosine once.
    template <class V>
    [[nodiscard]] static vision_cone from(const V& velocity, S view_angle_degrees, S cos_half) noexcept {
        vision_cone c;
        if (!(view_angle_degrees < S(360))) return c;  // also NaN: no cone
        const V h = boids::normalized_or_zero(velocity);
        if (boids::is_zero(h)) return c;
        c.all_around = false;
        for (std::size_t i = 0; i < D; ++i) c.heading[i] = boids::get(h, i);
        c.cos_half_angle = cos_half;
        return c;
    }
    [[nodiscard]] static S cos_half_of(S view_angle_degrees) noexcept {
        const S half = std::fmax(view_angle_degrees, S(0)) * S(0.5) * S(pi<double> / 180.0);
        return std::cos(half);
    }
    // The share of directions a cone of that angle leaves: of the circle in 2D, of the
    // sphere in 3D (a spherical cap: 0.85 of the sphere for 270 degrees, where the
    // circle's is 0.75); 1 for 360 degrees or more.
    [[nodiscard]] static S share_of(S view_angle_degrees) noexcept {
        if (!(view_angle_degrees < S(360))) return S(1);
        return D == 2 ? std::fmax(view_angle_degrees, S(0)) / S(360) : (S(1) - cos_half_of(view_angle_degrees)) / S(2);
    }

    // dot(unit offset, heading) >= cos(half angle), without normalizing the offset.
    // A coincident neighbour (zero offset) is always seen.
    [[nodiscard]] bool sees(const std::array<S, D>& off, S d2) const noexcept {
        if (all_around) return true;
        S dot = 0;
        for (std::size_t i = 0; i < D; ++i) dot += off[i] * heading[i];
        return cone_sees(dot, d2, cos_half_angle);
    }
};

// A caller-provided buffer that keeps the k nearest reported neighbours, sorted by
// (distance, index): ties go to the lower index, so results are reproducible.
template <class S, std::size_t D>
class k_nearest {
public:
    k_nearest() = default;
    // `storage` must hold at least k entries; it is not owned.
    k_nearest(span<neighbor<S, D>> storage, std::size_t k) noexcept
        : buf_(storage.data()), capacity_(k < storage.size() ? k : storage.size()) {
        BOIDS_ASSERT(k <= storage.size(), "k_nearest: storage smaller than k");
    }

    void clear() noexcept { size_ = 0; }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    // How many candidates the k-nearest queries into this sink have looked at since it
    // was made or reset_candidates() (clear() keeps the count): the boids whose
    // distances each query measured, its own boid among them, counted by the finders.
    // What a query costs, for tuning and benchmarks; no result depends on it.
    [[nodiscard]] std::size_t candidates() const noexcept { return candidates_; }
    void reset_candidates() noexcept { candidates_ = 0; }
    void add_candidates(std::size_t m) noexcept { candidates_ += m; }  // for finders
    [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
    [[nodiscard]] bool full() const noexcept { return size_ == capacity_; }
    // The squared distance a newcomer must beat (infinity until full).
    [[nodiscard]] S worst_distance_squared() const noexcept {
        return full() && size_ > 0 ? buf_[size_ - 1].distance_squared : std::numeric_limits<S>::infinity();
    }
    [[nodiscard]] span<const neighbor<S, D>> result() const noexcept { return {buf_, size_}; }
    [[nodiscard]] const neighbor<S, D>& operator[](std::size_t i) const noexcept { return buf_[i]; }

    // Offers one candidate; keeps it if it is among the k nearest so far.
    void operator()(const neighbor<S, D>& n) noexcept {
        if (capacity_ == 0) return;
        if (full() && !less(n, buf_[size_ - 1])) return;
        std::size_t pos = full() ? size_ - 1 : size_++;
        while (pos > 0 && less(n, buf_[pos - 1])) {
            buf_[pos] = buf_[pos - 1];
            --pos;
        }
        buf_[pos] = n;
    }

    // For finders that rank their candidates themselves: the entry after the last,
    // to be filled in place with a neighbour that ranks after every one held. Built
    // in place, it is not copied through a temporary (a struct written field by field,
    // then read whole, stalls the store buffer).
    [[nodiscard]] neighbor<S, D>& append_ranked() noexcept {
        BOIDS_ASSERT(size_ < capacity_, "k_nearest: append_ranked past k");
        return buf_[size_++];
    }

private:
    static bool less(const neighbor<S, D>& a, const neighbor<S, D>& b) noexcept {
        return a.distance_squared < b.distance_squared ||
               (a.distance_squared == b.distance_squared && a.index < b.index);
    }
    neighbor<S, D>* buf_ = nullptr;
    std::size_t capacity_ = 0;
    std::size_t size_ = 0;
    std::size_t candidates_ = 0;
};

// A sink that appends to a caller-provided buffer and counts what did not fit.
template <class S, std::size_t D>
struct buffer_sink {
    span<neighbor<S, D>> storage;
    std::size_t size = 0;
    std::size_t dropped = 0;

    void operator()(const neighbor<S, D>& n) noexcept {
        if (size < storage.size()) storage[size++] = n;
        else ++dropped;
    }
    [[nodiscard]] span<const neighbor<S, D>> result() const noexcept { return {storage.data(), size}; }
};

}  // namespace boids
