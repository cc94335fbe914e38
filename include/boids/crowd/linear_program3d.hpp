// boids/crowd/linear_program3d.hpp - the same as <boids/crowd/detail/linear_program3d.hpp>, where it lives.
#pragma once
#include "detail/linear_program3d.hpp"
