// boids/neighbors/detail/grid/cells.hpp - a grid after a build: the boids in cell order,
// their positions per axis in that order, and the runs of slots each cell holds.
#pragma once
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>
#include "crowded.hpp"
#include "layout.hpp"
#include "../../../detail/pack.hpp"

namespace boids {
namespace detail {

// The radius of a ball of `volume` in `dim` dimensions (a segment, a disc, a sphere;
// beyond, half the side of a cube of that volume): how far a query reaches to meet
// the boids a density puts in that volume.
[[nodiscard]] inline double radius_of_ball(double volume, std::size_t dim) noexcept {
    switch (dim) {
    case 1: return volume / 2;
    case 2: return std::sqrt(volume / pi<double>);
    case 3: return std::cbrt(volume * 3 / (4 * pi<double>));
    default: return std::pow(volume, 1.0 / static_cast<double>(dim)) * 0.5;
    }
}

// The index after a build: slot s holds boid order[s]; boid i sits in slot slot[i];
// cells are runs of slots (bucket b: [bucket_start[b], bucket_start[b + 1])).
template <class V, bool Hashed>
struct grid_cells {
    using layout_type = grid_layout<V, Hashed>;
    using scalar = scalar_t<V>;
    static constexpr std::size_t dim = dimension_v<V>;
    using cell_t = typename layout_type::cell_t;
    // Per-axis arrays are readable this many slots past their end (zeros), so a
    // kernel may load whole lanes and mask the tail.
    static constexpr std::size_t padding = 16;

    layout_type layout;
    std::vector<std::size_t> bucket_start, order, slot;
    std::vector<cell_t> scell;  // each slot's cell
    std::vector<scalar> spos;   // positions per axis in slot order, n apart, padded
    bool inside = true;         // every position of this build lies in [0, size) on every axis
    bool near_ready = false;    // the by-distance k-nearest query suits this build
    // Cells sized for a query of a few nearest (cell_size.hpp): the rings of cells around
    // a boid's own that should hold them; 0 where the cells were not sized so.
    std::int32_t nearest_reach = 0;
    bool avx = avx_at_run_time();        // the k-nearest selection's AVX build runs here
    std::size_t most_in_a_cell = 0;      // boids in the fullest cell of this build
    crowded_cells<scalar, dim> crowded;  // a second level of cells inside the fullest (dense grids)

    [[nodiscard]] std::size_t size() const noexcept { return order.size(); }
    [[nodiscard]] const scalar* axis(std::size_t d) const noexcept { return spos.data() + d * order.size(); }
    [[nodiscard]] std::array<scalar, dim> position_in(std::size_t s) const noexcept {
        std::array<scalar, dim> p{};
        for (std::size_t d = 0; d < dim; ++d) p[d] = spos[d * order.size() + s];
        return p;
    }
    [[nodiscard]] std::size_t cell_begin_of(std::size_t s) const noexcept {
        return bucket_start[layout.bucket_of(scell[s])];
    }
    [[nodiscard]] std::size_t cell_end_of(std::size_t s) const noexcept {
        return bucket_start[layout.bucket_of(scell[s]) + 1];
    }
    [[nodiscard]] bool too_many_cells(std::int32_t reach) const noexcept {
        return layout.too_many_cells(reach, order.size());
    }

    // Whether the by-distance k-nearest query can run on this build: dense, indices
    // that fit 32 bits, and in a toroidal world every point inside the box (its
    // branch-free minimum image assumes it).
    void prepare_nearest(bool all_inside) noexcept {
        inside = all_inside;
        near_ready = !Hashed && order.size() < (std::size_t(1) << 31) && (!layout.images() || all_inside);
    }
};

}  // namespace detail
}  // namespace boids
