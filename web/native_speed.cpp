// native_speed.cpp - the page's flock speed test, natively: the same scene code
// (web/boids_web.cpp) and the same measure (the median step of 20 after 10 warm-up
// steps), for docs/web.md's side-by-side. Build it with and without
// -DBOIDS_NO_VECTOR_EXTENSIONS (the scalar packs) as tests/web_check.py does.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include "boids_web.cpp"

int main() {
    for (const int n : {1000, 10000, 100000}) {
        flock_reset(n, 7);
        std::vector<double> times;
        for (int i = 0; i < 30; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            flock_step(1.f / 60.f);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (i >= 10) times.push_back(ms);
        }
        std::sort(times.begin(), times.end());
        std::printf("speed %d %.4f\n", n, times[times.size() / 2]);
    }
}
