// prebuilt_mixed_headers.cpp - the translation unit of boids-prebuilt-mixed built
// without BOIDS_PREBUILT: its steps are compiled here.
#if defined(BOIDS_PREBUILT)
#  error "built without BOIDS_PREBUILT (tests/CMakeLists.txt)"
#endif
#include "mixed_build_run.hpp"

std::uint64_t digest_from_headers(bool own_blend) { return mixed_build_digest(own_blend); }
