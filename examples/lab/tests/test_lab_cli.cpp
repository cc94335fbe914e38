// End-to-end tests of boids-lab: the warm-up fixture, and bad input answered with
// one line and exit code 2 while an existing output file stays untouched.
#include "lab_test.hpp"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.hpp"
#include "csv.hpp"

namespace {
struct run_result {
    int code;
    std::string err;
};

std::string tmp_path(const std::string& name) { return std::string(BOIDS_TEST_TMP) + "/" + name; }

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Runs boids-lab with `args`; captures stderr and the exit code.
run_result run_lab(const std::string& args) {
    const std::string err_file = tmp_path("stderr-" + std::to_string(getpid()) + ".txt");
    const std::string cmd = std::string("'") + BOIDS_LAB_EXE + "' " + args + " >/dev/null 2>'" + err_file + "'";
    const int status = std::system(cmd.c_str());
    run_result r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(err_file)};
    return r;
}

std::string fmt(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.17g", v);
    return b;
}
}  // namespace

TEST_CASE("boids-lab vehicle reproduces the warm-up fixture within 1e-6 px", "[lab][vehicle]") {
    std::string error;
    const std::string header = "mode,steps,dt,x,y,vx,vy,target_x,target_y,final_x,final_y,final_vx,final_vy";
    std::ifstream in(std::string(BOIDS_FIXTURES_DIR) + "/lesson/warmup.csv");
    REQUIRE(in);
    std::string line;
    std::getline(in, line);
    REQUIRE(line == header);
    int cases = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto comma = line.find(',');
        const std::string mode = line.substr(0, comma);
        std::vector<double> f;
        std::stringstream ss(line.substr(comma + 1));
        std::string cell;
        while (std::getline(ss, cell, ',')) f.push_back(*lab::parse_number(cell));
        REQUIRE(f.size() == 12);
        const std::string out = tmp_path("warmup_" + std::to_string(cases) + ".csv");
        const std::string args = "vehicle --mode=" + mode + " --steps=" + fmt(f[0]) + " --dt=" + fmt(f[1]) +
                                 " --pos=" + fmt(f[2]) + "," + fmt(f[3]) + " --vel=" + fmt(f[4]) + "," + fmt(f[5]) +
                                 " --target=" + fmt(f[6]) + "," + fmt(f[7]) + " --out=" + out;
        CAPTURE(args);
        const auto r = run_lab(args);
        REQUIRE(r.code == 0);
        const auto rows = lab::read_csv(out, "x,y,vx,vy", error);
        REQUIRE(rows);
        REQUIRE(rows->size() == 1);
        for (std::size_t i = 0; i < 4; ++i) CHECK(std::fabs((*rows)[0][i] - f[8 + i]) <= 1e-6);
        ++cases;
    }
    CHECK(cases == 8);
}

TEST_CASE("boids-lab refuses bad input with one line and exit code 2", "[lab][errors]") {
    const std::string out = tmp_path("keep-" + std::to_string(getpid()) + ".csv");
    {
        std::ofstream o(out);
        o << "precious\n";
    }
    const char* bad[] = {
        "",                      // no command
        "fly",                   // unknown command
        "vehicle --mode=orbit",  // unknown mode
        "vehicle --bogus=1",     // unknown flag
        "vehicle --dt=0",        // dt <= 0
        "vehicle --dt=-0.1",
        "vehicle --dt=abc",  // malformed number
        "vehicle --pos=1",   // malformed vector
        "vehicle --pos=1,2,3",
        "vehicle --pos=1,nan",
        "vehicle --steps=-3",
        "vehicle --slow-radius=-5",  // negative radius
        "vehicle --panic-radius=-1",
        "vehicle --dt",  // missing value
        "vehicle --world=0,10",
        "vehicle --mode=seek --mode=flee",
        "vehicle --mode=follow-path",               // needs --path
        "vehicle --mode=avoid --obstacles=1,2,-3",  // negative radius
        "vehicle --mode=avoid --obstacles=1,2",     // malformed list
        "vehicle --mode=follow-path '--path=1,2;3'",
        "vehicle --mode=contain --bounds=5,5,1,1",
        "vehicle --no-wrap=1",                                    // a bare flag with a value
        "flock --init=/nonexistent/file.csv",                     // missing file
        "flock --init=" BOIDS_FIXTURES_DIR "/lesson/warmup.csv",  // wrong header
        "flock --min-speed=500",                                  // minimum above the maximum
        "flock --neighbors=kd-tree",
        "flock --rules=separation,flying",
        "flock --weights=1,2,3",
        "flock --view-radius=0",
        "flock --hawk=1,inf",
        "flock --threads=0",
        "flock --seed=3 --init=x.csv",
        "starlings --birds=abc",
        "starlings --seconds=-1",
        "starlings --threads=0",
        "starlings --perception-every=0",
        "starlings --k=0",
        "starlings --k=25",
        "starlings --speed=0",
        "starlings --separation-radius=nan",
        "starlings --json=1",
        "starlings --bogus=1",
        "starlings --scene=sky",
        "starlings --model=birds",
        "starlings --turn-at=-1",
        "starlings --seconds=10 --turn-at=12",
        "starlings --separation-ahead=0.5",
        "starlings --border-cohesion=-1",
        "starlings --scene=free --roost-gain=2",
        "starlings --speed-time=0",
        "starlings --rear-blind-angle=7",
        "starlings --lift-time=-1",
        "starlings --social-fade=18",
        "starlings --altitude-pull=-0.1",
        "starlings --measure-from=-1",
    };
    for (const char* args : bad) {
        CAPTURE(args);
        const auto r = run_lab(std::string(args) + " --out=" + out);
        CHECK(r.code == 2);
        CHECK(r.err.rfind("boids-lab: ", 0) == 0);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(slurp(out) == "precious\n");
    }
    SECTION("a trace has a row per step") {
        const std::string trace = tmp_path("trace-" + std::to_string(getpid()) + ".csv");
        const auto r = run_lab("vehicle --mode=pursue --target-vel=-3,2 --no-wrap --steps=25 --trace=" + trace);
        CHECK(r.code == 0);
        std::string error;
        const auto rows = lab::read_csv(trace, "step,x,y,vx,vy,target_x,target_y", error);
        REQUIRE(rows);
        REQUIRE(rows->size() == 25);
        CHECK((*rows)[0][0] == 1);
        CHECK((*rows)[24][0] == 25);
    }
    SECTION("negative numbers work as values") {
        const auto r = run_lab("vehicle --pos=-10,-20 --vel=-1.5,2 --steps=3");
        CHECK(r.code == 0);
    }
}

TEST_CASE("boids-lab refuses bad state files and keeps the old output", "[lab][errors]") {
    const std::string out = tmp_path("keep-files-" + std::to_string(getpid()) + ".csv");
    {
        std::ofstream o(out);
        o << "precious\n";
    }
    std::string random_bytes;
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 300; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        random_bytes += static_cast<char>(x & 0xFF);
    }
    const std::pair<const char*, std::string> files[] = {
        {"nan", "x,y,vx,vy\n1,2,3,4\n1,nan,3,4\n"},
        {"inf", "x,y,vx,vy\n1,2,inf,4\n"},
        {"huge", "x,y,vx,vy\n1,2,1e999,4\n"},
        {"header", "x,y,z,vx,vy,vz\n1,2,3,4,5,6\n"},
        {"short", "x,y,vx,vy\n1,2,3\n"},
        {"long", "x,y,vx,vy\n1,2,3,4,5\n"},
        {"text", "x,y,vx,vy\none,two,three,four\n"},
        {"empty", ""},
        {"random", random_bytes},
    };
    for (const auto& f : files) {
        CAPTURE(f.first);
        const std::string path = tmp_path(std::string("bad-") + f.first + "-" + std::to_string(getpid()) + ".csv");
        {
            std::ofstream o(path, std::ios::binary);
            o << f.second;
        }
        const auto r = run_lab("flock --init=" + path + " --steps=2 --out=" + out);
        CHECK(r.code == 2);
        CHECK(r.err.rfind("boids-lab: ", 0) == 0);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(slurp(out) == "precious\n");
    }
    SECTION("a good run replaces the file whole") {
        const auto r = run_lab("flock --seed=1 --boids=5 --steps=2 --out=" + out);
        CHECK(r.code == 0);
        std::string error;
        const auto rows = lab::read_csv(out, "x,y,vx,vy", error);
        REQUIRE(rows);
        CHECK(rows->size() == 5);
    }
}

TEST_CASE("the flag parser", "[lab][cli]") {
    std::string error;
    auto a = lab::parse_arguments({"vehicle", "--pos=-1,2", "--json"}, error);
    REQUIRE(a);
    CHECK(a->command == "vehicle");
    CHECK(a->flags.at("pos") == "-1,2");
    CHECK(a->bare.count("json") == 1);
    CHECK(!lab::parse_arguments({"vehicle", "pos=1"}, error));
    CHECK(!lab::parse_number("1e999"));
    CHECK(!lab::parse_number(" 1"));
    CHECK(!lab::parse_number("inf"));
    CHECK(lab::parse_number("-2.5e-3") == -2.5e-3);
    CHECK(!lab::parse_numbers<2>("1,"));
    CHECK(!lab::parse_numbers<2>(",1"));
    CHECK(lab::parse_numbers<2>("3,-4") == std::array<double, 2>{3, -4});
}

TEST_CASE("the CSV reader names the bad line", "[lab][csv]") {
    std::string error;
    CHECK(!lab::parse_csv("x,y\n1,2\n", "x,y,vx,vy", error));
    CHECK(error.find("line 1") != std::string::npos);
    CHECK(!lab::parse_csv("x,y,vx,vy\n1,2,3,4\n1,2,3\n", "x,y,vx,vy", error));
    CHECK(error.find("line 3") != std::string::npos);
    CHECK(!lab::parse_csv("x,y,vx,vy\n1,2,3,nan\n", "x,y,vx,vy", error));
    CHECK(error.find("line 2") != std::string::npos);
    CHECK(!lab::parse_csv("x,y,vx,vy\n1,two,3,4\n", "x,y,vx,vy", error));
    CHECK(!lab::parse_csv("", "x,y,vx,vy", error));
    CHECK(!lab::parse_csv("x,y,vx,vy\n\n1,2,3,4\n", "x,y,vx,vy", error));
    const auto ok = lab::parse_csv("x,y,vx,vy\r\n1,2,3,4\r\n", "x,y,vx,vy", error);
    REQUIRE(ok);
    CHECK(ok->size() == 1);
    // Written with 17 digits, read back bit for bit.
    const double v = 0.1 + 0.2;
    const auto back = lab::parse_csv(lab::format_csv("x", {{v}}), "x", error);
    REQUIRE(back);
    CHECK((*back)[0][0] == v);
}

TEST_CASE("boids-lab starlings: the JSON line and the flock file", "[lab][starling]") {
    const std::string out = tmp_path("starlings-" + std::to_string(getpid()) + ".csv");
    const std::string log = tmp_path("starlings-" + std::to_string(getpid()) + ".txt");
    const std::string cmd = std::string("'") + BOIDS_LAB_EXE +
                            "' starlings --birds=150 --seconds=6 --seed=4 --json --out=" + out + " >'" + log + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::istringstream lines(slurp(log));
    std::string line, last;
    while (std::getline(lines, line))
        if (!line.empty()) last = line;
    // Every field the issue names, in one object on the last line.
    CHECK(last.front() == '{');
    CHECK(last.back() == '}');
    for (const char* key : {"preferred_speed", "speed_min", "speed_max", "altitude_min", "altitude_max", "roost_radius",
                            "roost_distance_mean", "polarization_mean", "nearest_min", "nearest_mean", "disturbances",
                            "wall_ms_per_step"})
        CHECK(last.find(std::string("\"") + key + "\": ") != std::string::npos);
    CHECK(last.find("{\"t\": 5, \"seeded\": ") != std::string::npos);  // the first disturbance, at 5 s
    std::string error;
    const auto rows = lab::read_csv(out, "x,y,z,vx,vy,vz", error);
    REQUIRE(rows);
    CHECK(rows->size() == 150);
    std::remove(out.c_str());
    std::remove(log.c_str());
}

TEST_CASE("boids-lab --load refuses bad snapshots with one line, keeping the old output", "[lab][errors][snapshot]") {
    const std::string id = std::to_string(getpid());
    const std::string out = tmp_path("keep-snap-" + id + ".csv");
    const std::string good_birds = tmp_path("birds-" + id + ".snap"), good_wander = tmp_path("wander-" + id + ".snap");
    REQUIRE(run_lab("starlings --birds=40 --seconds=1 --save-at=0.5 --save=" + good_birds).code == 0);
    REQUIRE(run_lab("vehicle --mode=wander --steps=20 --save-at=10 --save=" + good_wander).code == 0);
    {
        std::ofstream o(out);
        o << "precious\n";
    }
    const std::string birds = slurp(good_birds), wander = slurp(good_wander);
    REQUIRE(birds.size() > 100);
    std::string flipped = birds;
    flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x40);
    const std::pair<std::string, std::string> cases[] = {
        {"starlings", ""},
        {"starlings", "not a snapshot at all"},
        {"starlings", birds.substr(0, birds.size() - 1)},
        {"starlings", birds.substr(0, 60)},
        {"starlings", flipped},
        {"starlings", birds + "x"},
        {"starlings", wander},  // another kind
        {"vehicle --mode=wander --steps=30", birds},
        {"vehicle --mode=seek --steps=30", wander},   // another mode
        {"vehicle --mode=wander --steps=5", wander},  // past --steps
        {"vehicle --mode=wander --steps=30 --dt=0.02", wander},
    };
    int i = 0;
    for (const auto& c : cases) {
        CAPTURE(i, c.first);
        const std::string path = tmp_path("bad-" + std::to_string(i++) + "-" + id + ".snap");
        {
            std::ofstream o(path, std::ios::binary);
            o << c.second;
        }
        const auto r = run_lab(c.first + " --load=" + path + " --out=" + out);
        CHECK(r.code == 2);
        CHECK(r.err.rfind("boids-lab: --load: ", 0) == 0);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(slurp(out) == "precious\n");
    }
    const auto missing = run_lab("starlings --load=" + tmp_path("no-such-" + id + ".snap"));
    CHECK(missing.code == 2);
    CHECK(missing.err.find("cannot open") != std::string::npos);
    const auto fixed = run_lab("starlings --load=" + good_birds + " --k=5");
    CHECK(fixed.code == 2);
    CHECK(fixed.err.find("--k: the birds and the model come from --load's snapshot") != std::string::npos);
    CHECK(run_lab("starlings --save=" + out).err.find("--save-at and --save go together") != std::string::npos);
    CHECK(run_lab("vehicle --steps=10 --save-at=11 --save=" + out).err.find("--save-at: past --steps") !=
          std::string::npos);
    CHECK(slurp(out) == "precious\n");
    CHECK(run_lab("starlings --seconds=1 --load=" + good_birds + " --out=" + out).code == 0);
    CHECK(slurp(out) != "precious\n");
}

TEST_CASE("boids-lab starlings: the field measures of a free flock with a turn", "[lab][starling][field]") {
    const std::string measure = tmp_path("measure-" + std::to_string(getpid()) + ".json");
    const auto r = run_lab(
        "starlings --scene=free --model=field --birds=300 --seconds=13 --turn-at=10.5 --seed=2 "
        "--measure=" +
        measure);
    REQUIRE(r.code == 0);
    const std::string json = slurp(measure);
    CHECK(json.front() == '{');
    for (const char* key : {"\"scene\": \"free\"", "\"model\": \"field\"", "\"snapshots\": 4", "\"gamma\": [",
                            "\"xi_speed_mean\": ", "\"xi_direction_mean\": ", "\"size_mean\": ", "\"nearest_mean\": ",
                            "\"correlation\": {\"r_over_size\": [", "\"turn\": {\"at\": 10.5", "\"arrival\": ["})
        CHECK(json.find(key) != std::string::npos);
    CHECK(json.find("nan") == std::string::npos);
    // --measure=- puts the same object on the last line of the output.
    const std::string log = tmp_path("measure-" + std::to_string(getpid()) + ".txt");
    const std::string cmd = std::string("'") + BOIDS_LAB_EXE +
                            "' starlings --scene=free --model=field --birds=300 --seconds=13 --turn-at=10.5 --seed=2 "
                            "--measure=- >'" +
                            log + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    const std::string printed = slurp(log);
    CHECK(printed.size() > json.size());
    CHECK(printed.compare(printed.size() - json.size(), json.size(), json) == 0);  // the last line
    std::remove(measure.c_str());
    std::remove(log.c_str());
}

TEST_CASE("boids-lab starlings: --measure-from sets the first snapshot", "[lab][starling][field]") {
    const std::string measure = tmp_path("measure-from-" + std::to_string(getpid()) + ".json");
    // Snapshots every second from 4 s to 9 s: six of them (from 10 s, none).
    for (const auto& [from, snapshots] : {std::pair<const char*, const char*>{"4", "\"snapshots\": 6,"},
                                          std::pair<const char*, const char*>{"9", "\"snapshots\": 1,"},
                                          std::pair<const char*, const char*>{"10", "\"snapshots\": 0,"}}) {
        CAPTURE(from);
        const auto r = run_lab(std::string("starlings --scene=free --model=field --birds=200 --seconds=9 --seed=1 ") +
                               "--measure-from=" + from + " --measure=" + measure);
        REQUIRE(r.code == 0);
        CHECK(slurp(measure).find(snapshots) != std::string::npos);
    }
    std::remove(measure.c_str());
}
