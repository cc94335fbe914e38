// boids/flock/prebuilt.hpp - the flock step compiled once, in a library, not in every
// translation unit that calls it (as {fmt} and spdlog offer a compiled mode).
//
// Link boids::prebuilt (CMake option BOIDS_BUILD_PREBUILT) and nothing else changes:
// the target defines BOIDS_PREBUILT, flock/step.hpp then includes this header, and
// these calls are taken from the library instead of being compiled where they are made:
//   - flock_step(positions, velocities, cfg, grid, ws, dt): the ready-made blend over a
//     uniform_grid, sequential, for glm::vec2, glm::vec3, glm::dvec2 and glm::dvec3;
//   - flock_step(..., dt, blend) with a blend of your own over the same grid, for the
//     same types: the step is compiled once, for a blend_ref (flock/blend.hpp), and
//     calls your blend through it (an indirect call per boid; your blend is compiled
//     where you call the step);
//   - the fused kernel's block sums, for every vector type whose scalar is float or
//     double in 2D or 3D, so a step over a vector type of your own compiles the step
//     around the kernel, not the kernel.
// The library is built with the headers' default configuration: a translation unit
// that defines BOIDS_NO_VECTOR_EXTENSIONS or BOIDS_NO_RUNTIME_DISPATCH builds its own.
// The results are the same bits either way (tests/pack_width_digest.cpp). Translation
// units with and without BOIDS_PREBUILT may share a program: each flock_step carries
// the way it was built in its last template argument (flock/step.hpp), so the two ways
// are two functions, not one function defined twice.
#pragma once
#include <cstddef>
#include "../glm.hpp"
#include "../neighbors/uniform_grid.hpp"
#include "step.hpp"

#if defined(BOIDS_NO_VECTOR_EXTENSIONS) || defined(BOIDS_NO_RUNTIME_DISPATCH)
#  error "boids::prebuilt is the default build: not with BOIDS_NO_VECTOR_EXTENSIONS or BOIDS_NO_RUNTIME_DISPATCH"
#endif

// One list, read twice: as `extern template` here, as `template` in src/prebuilt.cpp.
#define BOIDS_DETAIL_PREBUILT_BLOCK_SUMS(HOW, W, CONE, LINEAR, NEAREST, S, D)        \
  HOW void detail::block_sums<detail::wrap_mode::W, CONE, LINEAR, NEAREST, S, D>(    \
      bool, const detail::kernel_query<S, D>&, const detail::candidate_block<S, D>&, \
      detail::neighborhood_sums<S, D>&) noexcept;
#define BOIDS_DETAIL_PREBUILT_HEEDED(HOW, W, CONE, S, D)                                                            \
  HOW S detail::heeded_radius_squared<detail::wrap_mode::W, CONE, S, D>(bool, const detail::candidate_block<S, D>&, \
                                                                        const detail::kernel_query<S, D>&,          \
                                                                        std::size_t, std::size_t, S*) noexcept;
#define BOIDS_DETAIL_PREBUILT_SUMS(HOW, W, S, D)                      \
  BOIDS_DETAIL_PREBUILT_BLOCK_SUMS(HOW, W, false, false, false, S, D) \
  BOIDS_DETAIL_PREBUILT_BLOCK_SUMS(HOW, W, false, true, false, S, D)  \
  BOIDS_DETAIL_PREBUILT_BLOCK_SUMS(HOW, W, true, false, false, S, D)  \
  BOIDS_DETAIL_PREBUILT_BLOCK_SUMS(HOW, W, true, true, false, S, D)   \
  BOIDS_DETAIL_PREBUILT_BLOCK_SUMS(HOW, W, false, false, true, S, D)  \
  BOIDS_DETAIL_PREBUILT_BLOCK_SUMS(HOW, W, false, true, true, S, D)   \
  BOIDS_DETAIL_PREBUILT_BLOCK_SUMS(HOW, W, true, false, true, S, D)   \
  BOIDS_DETAIL_PREBUILT_BLOCK_SUMS(HOW, W, true, true, true, S, D)    \
  BOIDS_DETAIL_PREBUILT_HEEDED(HOW, W, false, S, D)                   \
  BOIDS_DETAIL_PREBUILT_HEEDED(HOW, W, true, S, D)

#define BOIDS_DETAIL_PREBUILT_KERNEL(HOW, S, D)    \
  BOIDS_DETAIL_PREBUILT_SUMS(HOW, none, S, D)      \
  BOIDS_DETAIL_PREBUILT_SUMS(HOW, per_shift, S, D) \
  BOIDS_DETAIL_PREBUILT_SUMS(HOW, per_lane, S, D)

#define BOIDS_DETAIL_PREBUILT_STEP(HOW, V)                                                                         \
  HOW void flock_step<V, uniform_grid<V>, sequential, detail::step_from_prebuilt>(                                 \
      span<V>, span<V>, const flock_config<V>&, uniform_grid<V>&, flock_workspace<V>&, scalar_t<V>, sequential&&); \
  HOW void flock_step<V, uniform_grid<V>, detail::blend_ref<V>, sequential, detail::step_from_prebuilt>(           \
      span<V>, span<V>, const flock_config<V>&, uniform_grid<V>&, flock_workspace<V>&, scalar_t<V>,                \
      const detail::blend_ref<V>&, sequential&&);

#define BOIDS_DETAIL_PREBUILT(HOW)             \
  BOIDS_DETAIL_PREBUILT_KERNEL(HOW, float, 2)  \
  BOIDS_DETAIL_PREBUILT_KERNEL(HOW, float, 3)  \
  BOIDS_DETAIL_PREBUILT_KERNEL(HOW, double, 2) \
  BOIDS_DETAIL_PREBUILT_KERNEL(HOW, double, 3) \
  BOIDS_DETAIL_PREBUILT_STEP(HOW, glm::vec2)   \
  BOIDS_DETAIL_PREBUILT_STEP(HOW, glm::vec3)   \
  BOIDS_DETAIL_PREBUILT_STEP(HOW, glm::dvec2)  \
  BOIDS_DETAIL_PREBUILT_STEP(HOW, glm::dvec3)

namespace boids {
namespace detail {
template <>
struct prebuilt_vector<glm::vec2> : std::true_type {};
template <>
struct prebuilt_vector<glm::vec3> : std::true_type {};
template <>
struct prebuilt_vector<glm::dvec2> : std::true_type {};
template <>
struct prebuilt_vector<glm::dvec3> : std::true_type {};
}  // namespace detail
BOIDS_DETAIL_PREBUILT(extern template)
}  // namespace boids
