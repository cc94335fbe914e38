// boids/flock/detail/rings.hpp - a capped metric step's boid whose nearest the cells
// around its own could not prove: the box of cells around it widened ring by ring,
// so that it reads about what its nearest span, not the whole view radius (which, in
// cells sized for a packed flock, is a box of dozens of cells across).
#pragma once
#include <cstddef>
#include <cstdint>
#include "block_fill.hpp"

namespace boids {
namespace detail {

// What a crowded boid's search looks for, the same for every boid of a step: its `heed`
// nearest, of the `share` of directions its cone leaves, within `full_r2` (the view
// radius's square), in the cells within `most_reach` of its own.
template <class S>
struct nearest_search {
    std::size_t heed;
    S share;
    S full_r2;
    std::int32_t most_reach;
};

// Whether the squared radius `cut` of a boid's heeded nearest in the box of cells
// within `reach` of its own proves them its nearest of all: they lie within the view
// radius and nearer than any boid outside that box.
template <class Runs, class S>
bool proves_nearest(const Runs& runs, std::size_t slot, std::int32_t reach, S cut, S full_r2) {
    if (!(cut < full_r2)) return false;
    const S outside = runs.outside_distance(slot, reach);
    return cut < outside * outside;
}

// Where a boid's near block (the cells within `from` of its own) did not prove its
// `look.heed` nearest: the boxes within a wider reach, each filled by `filler` in the
// task's `sub` storage, until one proves them (its heeded nearest lie nearer than any
// boid outside it). The next reach is the least whose box holds the ball of the
// nearest the last block saw (`bound`, their squared radius, where it saw more than
// it heeds), else twice the last. Stops short of `whole_reach`, the whole radius's
// box, which the caller reads. heeded(blk): the squared radius of its nearest in blk,
// or `look.full_r2` where it sees fewer; sum(blk, r2) runs the kernel within r2.
// Lanes take the minimum image as `rule` says for each box. Which boxes a boid reads
// depends on its position alone: the same bits on any threads.
template <class Runs, class S, std::size_t D, class Heeded, class Sum>
bool sum_in_wider_rings(const block_filler<Runs, S, D>& filler, const image_rule<S>& rule, std::size_t slot,
                        std::int32_t from, std::int32_t whole_reach, S bound, const nearest_search<S>& look,
                        Heeded&& heeded, Sum&& sum) {
    const Runs& runs = filler.runs;
    candidate_block<S, D> block = filler.scratch.block_for(filler.scratch.sub, 0);
    for (std::int32_t reach = from;;) {
        std::int32_t next = 2 * reach;
        if (bound < look.full_r2) {
            next = reach + 1;
            for (; next < whole_reach; ++next) {
                const S outside = runs.outside_distance(slot, next);
                if (bound < outside * outside) break;
            }
        }
        if (next >= whole_reach) return false;
        reach = next;
        filler.fill(run_plan{reach, false}, slot, rule, filler.scratch.sub, block);
        if (block.size <= look.heed + 1) continue;  // (the boid itself among them)
        const S cut = heeded(block);
        if (proves_nearest(runs, slot, reach, cut, look.full_r2)) {
            sum(block, cut);
            return true;
        }
        bound = cut;
    }
}

}  // namespace detail
}  // namespace boids
