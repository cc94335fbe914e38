// boids-lab: the lesson's labs on the command line.
//   boids-lab vehicle --mode=seek|flee|arrive ...   (the warm-up)
//   boids-lab flock ...                             (Flock and Hawk)
//   boids-lab starlings ...                         (the starling model)
//   boids-lab crowd --scenario=circle ...           (reciprocal collision avoidance)
//   boids-lab formation --pattern=wedge ...         (a squad through a gap)
// Every error is one line on stderr and exit code 2.
#include <cstdio>
#include <string>
#include <vector>
#include "cli.hpp"
#include "crowd.hpp"
#include "flock.hpp"
#include "formation.hpp"
#include "starlings.hpp"
#include "vehicle.hpp"

int main(int argc, char** argv) {
    std::vector<std::string> words(argv + 1, argv + argc);
    std::string error;
    int rc = 2;
    if (auto args = lab::parse_arguments(words, error)) {
        if (args->command == "vehicle") rc = lab::vehicle_main(*args, error);
        else if (args->command == "flock") rc = lab::flock_main(*args, error);
        else if (args->command == "starlings") rc = lab::starlings_main(*args, error);
        else if (args->command == "crowd") rc = lab::crowd_main(*args, error);
        else if (args->command == "formation") rc = lab::formation_main(*args, error);
        else error = "unknown command '" + args->command + "' (expected vehicle, flock, starlings, crowd or formation)";
    }
    if (!error.empty()) {
        std::fprintf(stderr, "boids-lab: %s\n", error.c_str());
        return 2;
    }
    return rc;
}
