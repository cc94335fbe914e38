// boids/flock/detail/block_fill.hpp - how a task of the fused step fills a candidate
// block for one cell's boids: which image of the torus its candidates take (image_rule),
// and the fill itself, into storage grown where a block outgrows it (block_filler).
// The near block, the whole radius's block and the rings' wider boxes all fill here.
#pragma once
#include <cstddef>
#include "../workspace.hpp"
#include "kernel.hpp"

namespace boids {
namespace detail {

// How a block's candidates take the minimum image over a torus: not at all (`images`
// false), one image for the whole block where it reaches each cell through one, else
// lane by lane; across a seam (cells that follow the flock over the torus's edge), one
// image a candidate where the boid's cell has one (`image`), else lane by lane.
template <class S>
struct image_rule {
    bool images;
    bool seams;
    const S* image;

    template <class Runs>
    [[nodiscard]] bool one_image(const Runs& runs, const run_plan& plan) const {
        return images && runs.have_one_image(plan);
    }
    [[nodiscard]] bool per_lane(bool one) const noexcept { return seams ? image == nullptr : images && !one; }
};

// What a task fills its candidate blocks from: the grid as the kernel reads it, the
// positions and velocities in cell order (`n` apart per axis), and the task's storage.
template <class Runs, class S, std::size_t D>
struct block_filler {
    const Runs& runs;
    const S* axes;
    const S* vels;
    std::size_t n;
    task_scratch<S, D>& scratch;

    // fill_block into `blk`, grown first (in the task's `storage`) where it must be,
    // its candidates taking the minimum image as `rule` says (blk.per_lane).
    void fill(const run_plan& plan, std::size_t slot, const image_rule<S>& rule, block_storage<S, D>& storage,
              candidate_block<S, D>& blk) const {
        const bool one = rule.one_image(runs, plan);
        while (!fill_block(runs, plan, one, slot, axes, vels, n, blk, rule.image))
            blk = scratch.block_for(storage, block_size_of(runs, plan, slot));  // the distances keep up
        blk.per_lane = rule.per_lane(one);
    }
};

}  // namespace detail
}  // namespace boids
