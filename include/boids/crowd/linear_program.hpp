// boids/crowd/linear_program.hpp - the same as <boids/crowd/detail/linear_program2d.hpp>, where it lives.
#pragma once
#include "detail/linear_program2d.hpp"
