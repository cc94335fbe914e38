#if BOIDS_CATCH_V3
// Catch2 v3 links its own main (Catch2::Catch2WithMain).
#else
#  define CATCH_CONFIG_MAIN
#  include <catch2/catch.hpp>
#endif
