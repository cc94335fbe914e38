// boids-lab crowd's scenes (examples/lab/crowd.hpp): RVO2's circle and Blocks, the
// doorway, run whole through the lab.
#include "lab_test.hpp"
#include <cmath>
#include <cstring>
#include <vector>
#include "crowd.hpp"

namespace {
using V = lab::vec2;
using S = double;
}  // namespace

TEST_CASE("RVO2's circle of 250: no overlap, every agent home, sooner than RVO2's 3,845 steps", "[crowd][scene]") {
    lab::crowd_options o;
    o.agents = 250;
    const lab::crowd_result r = lab::run_crowd(o);
    CHECK(r.arrived == 250);
    CHECK(r.overlaps == 0);
    CHECK(r.closest >= 3 * (1 - 0.5e-4));
    CHECK(r.steps < 3845);
}

TEST_CASE("RVO2's Blocks: every agent home, no overlap, none inside a block, the same bits on two threads",
          "[crowd][obstacles][scene]") {
    std::vector<std::vector<V>> ends;
    for (std::size_t threads : {1u, 2u}) {
        lab::crowd_options o;
        o.scenario = "blocks";
        o.agents = 100;
        o.threads = threads;
        std::vector<lab::row> trace;
        const lab::crowd_result r = lab::run_crowd(o, &trace);
        CHECK(r.arrived == 100);
        CHECK(r.overlaps == 0);
        std::size_t inside = 0;
        for (const lab::row& t : trace) {
            const S x = std::fabs(t[2]), y = std::fabs(t[3]);
            if (x > 10 && x < 40 && y > 10 && y < 40) ++inside;
        }
        CHECK(inside == 0);
        std::vector<V> last;
        for (std::size_t i = trace.size() - 100; i < trace.size(); ++i) last.push_back({trace[i][2], trace[i][3]});
        ends.push_back(last);
    }
    CHECK(std::memcmp(ends[0].data(), ends[1].data(), sizeof(V) * ends[0].size()) == 0);
}

TEST_CASE("the doorway: two groups swap sides through a gap two agents wide, no deadlock, no overlap",
          "[crowd][obstacles][scene]") {
    for (unsigned long long n : {10ull, 20ull, 40ull}) {
        lab::crowd_options o;
        o.scenario = "doorway";
        o.agents = n;
        o.max_steps = 40000;
        std::vector<lab::row> trace;
        const lab::crowd_result r = lab::run_crowd(o, &trace);
        CHECK(r.arrived == n);
        CHECK(r.overlaps == 0);
        // Nobody went through the wall: at x = 0 a centre is within the gap.
        std::size_t through_wall = 0;
        for (const lab::row& t : trace)
            if (std::fabs(t[2]) < 0.5 && std::fabs(t[3]) > 3.0) ++through_wall;
        CHECK(through_wall == 0);
    }
}
