// boids/behaviors/crowd.hpp - the same as <boids/behaviors/group.hpp>, where it lives.
#pragma once
#include "group.hpp"
