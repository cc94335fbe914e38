// bench/ab/ab_main.cpp - bench/ab.sh's driver: steps side A and side B in turn (the
// order alternating), each on its own flock, and reports the median of B/A step by
// step. Both sides see the same machine at the same moments, so the ratio holds
// still where wall times drift by 30% and more (docs/performance.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>
#include "ab_side.hpp"

namespace {
bool read_count(const char* text, long lo, long hi, long& out) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi) return false;
    out = v;
    return true;
}
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
    const char* usage =
        "usage: ab BOIDS STEPS DIM[:DIM_B] [VIEW_ANGLE[:VIEW_ANGLE_B] [metric|topological|crowd [THREADS_A "
        "THREADS_B]]]";
    if (argc < 4 || argc > 8 || argc == 7) {
        std::fprintf(stderr, "ab: %s\n", usage);
        return 2;
    }
    ab_scene scene;
    long boids = 0, steps = 0;
    if (!read_count(argv[1], 1, 50000000, boids)) {
        std::fprintf(stderr, "ab: BOIDS must be a whole number from 1 to 50000000, got '%s'\n", argv[1]);
        return 2;
    }
    if (!read_count(argv[2], 1, 1000000, steps)) {
        std::fprintf(stderr, "ab: STEPS must be a whole number from 1 to 1000000, got '%s'\n", argv[2]);
        return 2;
    }
    scene.boids = static_cast<std::size_t>(boids);
    ab_run run_a, run_b;
    {  // 2 or 3 for both sides, or A:B
        const std::string text = argv[3];
        const bool one = text == "2" || text == "3";
        const bool two = text.size() == 3 && text[1] == ':' && (text[0] == '2' || text[0] == '3') &&
                         (text[2] == '2' || text[2] == '3');
        if (!one && !two) {
            std::fprintf(stderr, "ab: DIM must be 2 or 3, or two such as 2:3, got '%s'\n", argv[3]);
            return 2;
        }
        run_a.dim = text[0] - '0';
        run_b.dim = two ? text[2] - '0' : run_a.dim;
    }
    if (argc > 4) {  // one angle for both sides, or A:B
        const char* text = argv[4];
        char* end = nullptr;
        run_a.view_angle = run_b.view_angle = std::strtod(text, &end);
        bool ok = end != text;
        if (ok && *end == ':') {
            const char* second = end + 1;
            run_b.view_angle = std::strtod(second, &end);
            ok = end != second;
        }
        ok = ok && *end == '\0';
        for (const double angle : {run_a.view_angle, run_b.view_angle}) ok = ok && angle > 0 && angle <= 360;
        if (!ok) {
            std::fprintf(stderr, "ab: VIEW_ANGLE must be in (0, 360] degrees, or two such as 360:270, got '%s'\n",
                         text);
            return 2;
        }
    }
    if (argc > 5) {
        if (std::strcmp(argv[5], "topological") == 0) scene.topological = true;
        else if (std::strcmp(argv[5], "crowd") == 0) scene.crowd = true;
        else if (std::strcmp(argv[5], "metric") != 0) {
            std::fprintf(stderr, "ab: the scene must be 'metric', 'topological' or 'crowd', got '%s'\n", argv[5]);
            return 2;
        }
    }
    for (int side = 0; side < 2 && argc > 6; ++side) {
        long threads = 0;
        if (!read_count(argv[6 + side], 1, 1024, threads)) {
            std::fprintf(stderr, "ab: THREADS_%c must be a whole number from 1 to 1024, got '%s'\n",
                         side == 0 ? 'A' : 'B', argv[6 + side]);
            return 2;
        }
        (side == 0 ? run_a : run_b).threads = static_cast<std::size_t>(threads);
    }
    // AB_BLOCK=K: each side steps K times in a row, after a pause long enough for the
    // other side's pool to fall asleep, and B/A is taken block by block. Stepped one
    // by one, the idle side's pool spins for a while after each of its steps, on the
    // cores the other side is using: this mode is for comparing threaded steps.
    long block = 0;
    if (const char* text = std::getenv("AB_BLOCK")) {
        if (!read_count(text, 1, 99999, block)) {
            std::fprintf(stderr, "ab: AB_BLOCK must be a whole number from 1 to 99999, got '%s'\n", text);
            return 2;
        }
    }
    // AB_SETTLE=K: each side first steps its flock K times, untimed, and restarts from
    // there: the standard scene as a running game sees it (boids-bench's
    // step/standard2d_settled settles it 1,000 steps).
    if (const char* text = std::getenv("AB_SETTLE")) {
        if (!read_count(text, 0, 1000000, scene.settle_steps)) {
            std::fprintf(stderr, "ab: AB_SETTLE must be a whole number from 0 to 1000000, got '%s'\n", text);
            return 2;
        }
    }
    std::unique_ptr<ab_side> a(make_side_a(scene, run_a)), b(make_side_b(scene, run_b));
    a->step();  // first steps: the buffers are sized
    b->step();
    std::vector<double> ta, tb, ratio;
    if (block > 0) {
        for (long s = 0, round = 0; s < steps; s += block, ++round) {
            double median_of[2] = {0, 0};
            for (int k = 0; k < 2; ++k) {
                const bool side_a = (k == 0) == (round % 2 == 0);  // which goes first alternates
                ab_side& side = side_a ? *a : *b;
                std::this_thread::sleep_for(std::chrono::milliseconds(8));
                side.step();  // wakes its pool: not timed
                std::vector<double> here;
                for (long j = 0; j < block && s + j < steps; ++j) here.push_back(side.step());
                std::vector<double>& times = side_a ? ta : tb;
                times.insert(times.end(), here.begin(), here.end());
                median_of[side_a ? 0 : 1] = median(here);
            }
            ratio.push_back(median_of[1] / median_of[0]);
        }
    } else {
        for (long s = 0; s < steps; ++s) {
            double x, y;
            if (s % 2 == 0) {
                x = a->step();
                y = b->step();
            } else {
                y = b->step();
                x = a->step();
            }
            ta.push_back(x);
            tb.push_back(y);
            ratio.push_back(y / x);
        }
    }
    const bool same = a->digest() == b->digest();
    auto describe = [](const ab_run& run) {
        char text[96];
        if (run.view_angle < 360)
            std::snprintf(text, sizeof text, "%dD, %zu thread%s, cone %g deg", run.dim, run.threads,
                          run.threads == 1 ? "" : "s", run.view_angle);
        else
            std::snprintf(text, sizeof text, "%dD, %zu thread%s, no cone", run.dim, run.threads,
                          run.threads == 1 ? "" : "s");
        return std::string(text);
    };
    std::printf(
        "%ld boids, %s; A: %s; B: %s. A %.1f us, B %.1f us a step (medians of %ld); "
        "B/A %.3f (median %s); same bits: %s\n",
        boids,
        scene.crowd         ? "crowd circle"
        : scene.topological ? "topological k=7"
                            : "metric",
        describe(run_a).c_str(), describe(run_b).c_str(), median(ta), median(tb), steps, median(ratio),
        block > 0 ? "block by block" : "step by step", same ? "yes" : "no");
    return 0;
}
