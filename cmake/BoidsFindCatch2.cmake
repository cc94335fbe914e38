# Finds Catch2 for a directory of tests (tests/, examples/lab/tests/): v2 from Debian 12
# (<catch2/catch.hpp>) or v3 where that is what is installed. Sets BOIDS_CATCH_MAIN (the
# target that brings main), BOIDS_CATCH_V3 (0 or 1) and BOIDS_STRICT_FLAGS (the warnings
# every test translation unit is held to: the library headers must be warning-free).
# Included by each directory that builds tests: imported targets are directory-scoped.
find_package(Catch2 3 CONFIG QUIET)
if(Catch2_FOUND)
  set(BOIDS_CATCH_MAIN Catch2::Catch2WithMain)
  set(BOIDS_CATCH_V3 1)
else()
  find_package(Catch2 2 CONFIG REQUIRED)
  set(BOIDS_CATCH_MAIN Catch2::Catch2)
  set(BOIDS_CATCH_V3 0)
endif()
include(Catch)

set(BOIDS_STRICT_FLAGS -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow
    -Wold-style-cast)
