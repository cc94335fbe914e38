// fuzz_cli: boids-lab's command line. The bytes are split into words at NUL or
// newline. Properties: no crash; a refusal is one line; an accepted vehicle or flock
// command has parameters that validate.
#include <cstdint>
#include <string>
#include <vector>
#include "cli.hpp"
#include "flock.hpp"
#include "fuzz_input.hpp"
#include "vehicle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> words(1);
    for (std::size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\0' || c == '\n') words.emplace_back();
        else words.back() += c;
    }
    std::string error;
    const auto args = lab::parse_arguments(words, error);
    if (!args) {
        FUZZ_CHECK(!error.empty());
        return 0;
    }
    if (args->command == "vehicle") {
        lab::vehicle_options o;
        if (lab::parse_vehicle(*args, o, error)) {
            FUZZ_CHECK(o.dt > 0 && o.reaction_time > 0 && o.world[0] > 0 && o.world[1] > 0);
            FUZZ_CHECK(o.slow_radius >= 0 && o.panic_radius >= 0);
        } else {
            FUZZ_CHECK(!error.empty() && error.find('\n') == std::string::npos);
        }
    } else if (args->command == "flock") {
        lab::flock_options o;
        if (lab::parse_flock(*args, o, error)) FUZZ_CHECK(o.cfg.validate().ok() && o.dt > 0 && o.threads >= 1);
        else FUZZ_CHECK(!error.empty() && error.find('\n') == std::string::npos);
    }
    return 0;
}
