// lab_test.hpp - Catch2 v2 (Debian 12's <catch2/catch.hpp>) or v3, for boids-lab's tests.
#pragma once
#if BOIDS_CATCH_V3
#  include <catch2/catch_all.hpp>
using Catch::Approx;
#else
#  include <catch2/catch.hpp>
#endif
