// boids/neighbors/auto_finder.hpp - all-pairs below a flock size, the grid above.
// Below some N a scan of every boid beats building any index; the default
// crossover is what boids-bench measured on our machine (docs/performance.md):
// set your own from a run on yours.
#pragma once
#include "all_pairs.hpp"
#include "uniform_grid.hpp"

namespace boids {

template <class V>
class auto_finder {
public:
    static constexpr std::size_t dim = dimension_v<V>;
    using scalar = scalar_t<V>;
    static constexpr std::size_t default_crossover = 32;  // measured crossing: 30 to 50 boids (docs/performance.md)

    auto_finder() = default;
    auto_finder(const world_for<V>& w, scalar cell_size, std::size_t crossover = default_crossover)
        : pairs_(w), grid_(w, cell_size), crossover_(crossover) {}

    void build(span<const V> positions) { build_either(positions); }
    void build(strided_span<const V> positions) { build_either(positions); }
    [[nodiscard]] bool using_grid() const noexcept { return use_grid_; }
    // Chooses the finder for a flock of n boids and calls f(chosen) with it (an
    // all_pairs<V>& or a uniform_grid<V>&), for code with a path of its own for each:
    // flock_step does this, so above the crossover it runs the grid's fused kernel.
    // f is expected to build the chosen finder; queries here then go to it.
    template <class F>
    void with_chosen(std::size_t n, F&& f) {
        use_grid_ = n >= crossover_;
        if (use_grid_) f(grid_);
        else f(pairs_);
    }
    [[nodiscard]] std::size_t size() const noexcept { return use_grid_ ? grid_.size() : pairs_.size(); }

    template <class Sink>
    void for_each_within(std::size_t i, scalar radius, const vision_cone<scalar, dim>& cone, Sink&& sink) const {
        if (use_grid_) grid_.for_each_within(i, radius, cone, sink);
        else pairs_.for_each_within(i, radius, cone, sink);
    }
    template <class Sink>
    void for_each_within(std::size_t i, scalar radius, Sink&& sink) const {
        for_each_within(i, radius, vision_cone<scalar, dim>{}, sink);
    }
    void nearest(std::size_t i, k_nearest<scalar, dim>& out,
                 scalar max_radius = std::numeric_limits<scalar>::infinity()) const {
        if (use_grid_) grid_.nearest(i, out, max_radius);
        else pairs_.nearest(i, out, max_radius);
    }

private:
    template <class Positions>
    void build_either(const Positions& positions) {
        use_grid_ = positions.size() >= crossover_;
        if (use_grid_) grid_.build(positions);
        else pairs_.build(positions);
    }

    all_pairs<V> pairs_{};
    uniform_grid<V> grid_{};
    std::size_t crossover_ = default_crossover;
    bool use_grid_ = false;
};

}  // namespace boids
