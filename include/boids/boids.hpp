// boids/boids.hpp - the umbrella header: everything, plus the GLM adapter when GLM
// is on the include path (define BOIDS_NO_GLM to leave it out).
#pragma once
#include "config.hpp"
#include "span.hpp"
#include "strided.hpp"
#include "vector.hpp"
#include "steer.hpp"
#include "blend.hpp"
#include "random.hpp"
#include "behaviors/seek_flee_arrive.hpp"
#include "behaviors/frame.hpp"
#include "behaviors/pursue_evade.hpp"
#include "behaviors/wander.hpp"
#include "behaviors/path.hpp"
#include "behaviors/flow_field.hpp"
#include "behaviors/obstacles.hpp"
#include "behaviors/crowd.hpp"
#include "behaviors/context.hpp"
#include "neighbors/world.hpp"
#include "neighbors/query.hpp"
#include "neighbors/all_pairs.hpp"
#include "neighbors/uniform_grid.hpp"
#include "neighbors/hashed_grid.hpp"
#include "neighbors/auto_finder.hpp"
#include "neighbors/cell_order.hpp"
#include "flocking.hpp"
#include "executor.hpp"
#include "summary.hpp"
#include "flock_config.hpp"
#include "flock_blend.hpp"
#include "flock.hpp"
#include "gauges.hpp"
#include "crowd/orca.hpp"
#include "models/lesson.hpp"
#include "models/starling.hpp"
#include "snapshot.hpp"

#if !defined(BOIDS_NO_GLM) && defined(__has_include)
#  if __has_include(<glm/vec2.hpp>)
#    include "glm.hpp"
#  endif
#endif
