// demo_check: looks at a boids-demo screenshot and says whether it shows the scene
// and the panel. Usage: demo_check FILE.png warmup|flock|starlings|crowd|formation
// Counts pixels by colour: the panel's (ImGui's dark window, light text), and the
// scene's (flock, starlings and crowd: the birds' and agents' light blue; warm-up: the white vehicle
// and the yellow target; starlings also: the green roost ring; formation: members light blue, or
// green once in their slots).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <stb/stb_image.h>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: demo_check FILE.png warmup|flock|starlings|crowd|formation\n");
        return 2;
    }
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(argv[1], &w, &h, &n, 3);
    if (!px) {
        std::fprintf(stderr, "demo_check: cannot read %s\n", argv[1]);
        return 1;
    }
    const std::string scene = argv[2];
    const int panel_x = w - 380;
    long text = 0, boid = 0, white = 0, yellow = 0, green = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = px + (std::size_t(y) * w + x) * 3;
            const int r = p[0], g = p[1], b = p[2];
            if (x >= panel_x) {
                if (r > 200 && g > 200 && b > 200) ++text;
            } else {
                if (std::abs(r - 140) < 30 && std::abs(g - 217) < 30 && b > 220) ++boid;
                if (r > 230 && g > 230 && b > 230) ++white;
                if (r > 230 && g > 230 && b < 120) ++yellow;
                if (std::abs(r - 77) < 30 && std::abs(g - 204) < 30 && std::abs(b - 102) < 30) ++green;
            }
        }
    stbi_image_free(px);
    std::printf("demo_check: %dx%d, panel text %ld px, boids %ld px, white %ld px, yellow %ld px, green %ld px\n", w, h,
                text, boid, white, yellow, green);
    bool ok = w == 1280 && h == 720 && text > 500;
    if (scene == "flock" || scene == "crowd") ok = ok && boid > 300;
    else if (scene == "starlings") ok = ok && boid > 300 && green > 50;
    else if (scene == "formation") ok = ok && boid + green > 300;
    else ok = ok && white > 20 && yellow > 20;
    std::printf("%s\n", ok ? "1 passed, 0 failed" : "0 passed, 1 failed");
    return ok ? 0 : 1;
}
