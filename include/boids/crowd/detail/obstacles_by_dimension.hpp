// boids/crowd/detail/obstacles_by_dimension.hpp - crowd_obstacles<V>, one name for the
// static obstacles of 2D and 3D crowds: the dimension of V picks the class.
#pragma once
#include <type_traits>
#include "../../vector.hpp"

namespace boids {

template <class V>
class crowd_obstacles2;  // polygons and boundaries (obstacles2d.hpp)
template <class V>
class crowd_obstacles3;  // spheres and planes (obstacles3d.hpp)

template <class V>
using crowd_obstacles = std::conditional_t<dimension_v<V> == 2, crowd_obstacles2<V>, crowd_obstacles3<V>>;

}  // namespace boids
