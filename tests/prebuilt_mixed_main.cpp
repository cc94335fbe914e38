// prebuilt_mixed_main.cpp - a program of two translation units, this one built with
// BOIDS_PREBUILT (its steps from boids::prebuilt's library), prebuilt_mixed_headers.cpp
// without (its steps compiled there), both stepping the same flock with the same
// blend type and with the ready-made one. Each must get its own step, with the same
// bits; the test flock.prebuilt-mixed-build also reads the two objects' symbols
// (prebuilt_mixed_symbols.cmake): no flock_step defined in both.
#if !defined(BOIDS_PREBUILT)
#  error "built with BOIDS_PREBUILT (tests/CMakeLists.txt)"
#endif
#include <cinttypes>
#include <cstdio>
#include "mixed_build_run.hpp"

std::uint64_t digest_from_headers(bool own_blend);

int main() {
    int failed = 0;
    for (bool own_blend : {true, false}) {
        const std::uint64_t prebuilt = mixed_build_digest(own_blend), headers = digest_from_headers(own_blend);
        std::printf("%-10s prebuilt %016" PRIx64 " headers %016" PRIx64 "\n", own_blend ? "own blend" : "ready-made",
                    prebuilt, headers);
        failed += prebuilt != headers ? 1 : 0;
    }
    return failed;
}
