// boids-demo: the lesson's labs in a window (SDL2 + OpenGL 2.1 + Dear ImGui).
//   boids-demo [--scene=warmup|flock|starlings|crowd|formation] [--boids=N] [--seed=S]
//              [--model=source|field] [--flight=roost|free]   (the starlings)
//              [--frames=N --screenshot=FILE.png]    (headless capture, then exit)
// Warm-up: click to move the target, SPACE switches seek/flee/arrive.
// Flock: the mouse is the hawk, 1/2/3 toggle the rules, R resets.
// Starlings: a 3D view following the flock, banked birds; drag to turn the view.
// Crowd: click to send the crowd. Formation: drag to move the squad's goal.
#include <SDL.h>
#include <SDL_opengl.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl2.h>
#include <backends/imgui_impl_sdl.h>
#include <stb/stb_image_write.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include "cli.hpp"
#include "scenes.hpp"

namespace {

constexpr int window_w = 1280, window_h = 720, panel_w = 380;
constexpr float dt = 1.f / 60.f;

struct options {
    std::string scene = "flock";
    unsigned long long boids = 0, seed = 7, frames = 0;  // boids 0: the scene's own (60 boids, 3000 starlings)
    std::string screenshot;
    bool field = false, free_flight = false;  // the starlings: --model=field, --flight=free
};

bool parse(int argc, char** argv, options& o, std::string& error) {
    std::vector<std::string> words{"demo"};
    for (int i = 1; i < argc; ++i) words.emplace_back(argv[i]);
    const auto args = lab::parse_arguments(words, error);
    if (!args) return false;
    lab::flag_reader f(*args);
    f.choice("scene", o.scene, {"warmup", "flock", "starlings", "crowd", "formation"});
    f.count("boids", o.boids, 100000);
    if (f.ok() && f.has("boids") && o.boids < 10) f.fail("--boids: at least 10");
    f.count("seed", o.seed, ~0ull >> 1);
    f.count("frames", o.frames, 1000000);
    std::string model = "source", flight = "roost";
    f.choice("model", model, {"source", "field"});
    f.choice("flight", flight, {"roost", "free"});
    o.field = model == "field";
    o.free_flight = flight == "free";
    f.text("screenshot", o.screenshot);
    if (f.ok() && !o.screenshot.empty() && o.frames == 0) f.fail("--screenshot needs --frames=N");
    if (!f.finish()) {
        error = f.error();
        return false;
    }
    return true;
}

// World -> pixels in the area left of the panel, keeping the aspect ratio.
struct view {
    float scale = 1, ox = 0, oy = 0;
    void fit(float ww, float wh) {
        const float aw = float(window_w - panel_w - 20), ah = float(window_h - 20);
        scale = std::min(aw / ww, ah / wh);
        ox = 10 + (aw - ww * scale) * 0.5f;
        oy = 10 + (ah - wh * scale) * 0.5f;
    }
    float x(float wx) const { return ox + wx * scale; }
    float y(float wy) const { return oy + wy * scale; }
    demo::vec2 to_world(float px, float py) const { return {(px - ox) / scale, (py - oy) / scale}; }
};

// Everything in one vertex array per primitive type: the flock is one draw call.
struct batch {
    std::vector<float> xy, rgb;
    void vertex(float x, float y, float r, float g, float b) {
        xy.insert(xy.end(), {x, y});
        rgb.insert(rgb.end(), {r, g, b});
    }
    void draw(GLenum mode) {
        if (xy.empty()) return;
        glEnableClientState(GL_VERTEX_ARRAY);
        glEnableClientState(GL_COLOR_ARRAY);
        glVertexPointer(2, GL_FLOAT, 0, xy.data());
        glColorPointer(3, GL_FLOAT, 0, rgb.data());
        glDrawArrays(mode, 0, static_cast<GLsizei>(xy.size() / 2));
        glDisableClientState(GL_COLOR_ARRAY);
        glDisableClientState(GL_VERTEX_ARRAY);
        xy.clear();
        rgb.clear();
    }
};

void circle(batch& lines, const view& v, demo::vec2 c, float r, float cr, float cg, float cb) {
    const int n = 64;
    for (int i = 0; i < n; ++i) {
        const float a0 = 6.2831853f * float(i) / n, a1 = 6.2831853f * float(i + 1) / n;
        lines.vertex(v.x(c.x + r * std::cos(a0)), v.y(c.y + r * std::sin(a0)), cr, cg, cb);
        lines.vertex(v.x(c.x + r * std::cos(a1)), v.y(c.y + r * std::sin(a1)), cr, cg, cb);
    }
}

void arrow(batch& tris, const view& v, demo::vec2 p, demo::vec2 vel, float size, float r, float g, float b) {
    demo::vec2 h = boids::normalized_or_zero(vel);
    if (boids::is_zero(h)) h = {1, 0};
    const demo::vec2 side{-h.y, h.x};
    const float s = size / v.scale;
    tris.vertex(v.x(p.x + h.x * s), v.y(p.y + h.y * s), r, g, b);
    tris.vertex(v.x(p.x - h.x * s * 0.6f + side.x * s * 0.5f), v.y(p.y - h.y * s * 0.6f + side.y * s * 0.5f), r, g, b);
    tris.vertex(v.x(p.x - h.x * s * 0.6f - side.x * s * 0.5f), v.y(p.y - h.y * s * 0.6f - side.y * s * 0.5f), r, g, b);
}

void world_frame(batch& lines, const view& v, float w, float h) {
    const float c = 0.3f;
    lines.vertex(v.x(0), v.y(0), c, c, c);
    lines.vertex(v.x(w), v.y(0), c, c, c);
    lines.vertex(v.x(w), v.y(0), c, c, c);
    lines.vertex(v.x(w), v.y(h), c, c, c);
    lines.vertex(v.x(w), v.y(h), c, c, c);
    lines.vertex(v.x(0), v.y(h), c, c, c);
    lines.vertex(v.x(0), v.y(h), c, c, c);
    lines.vertex(v.x(0), v.y(0), c, c, c);
}

// A crowd agent as a filled disc, world coordinates shifted by the scene's corner.
template <class Scene>
void disc(batch& tris, const view& v, const Scene& c, double x, double y, double r, float cr, float cg, float cb) {
    const int n = 12;
    const float px = float(x - c.min_x), py = float(y - c.min_y), pr = float(r);
    for (int i = 0; i < n; ++i) {
        const float a0 = 6.2831853f * float(i) / n, a1 = 6.2831853f * float(i + 1) / n;
        tris.vertex(v.x(px), v.y(py), cr, cg, cb);
        tris.vertex(v.x(px + pr * std::cos(a0)), v.y(py + pr * std::sin(a0)), cr, cg, cb);
        tris.vertex(v.x(px + pr * std::cos(a1)), v.y(py + pr * std::sin(a1)), cr, cg, cb);
    }
}

void crowd_panel(demo::crowd_scene& s) {
    const char* names[] = {"circle (RVO2)", "blocks (RVO2)", "doorway", "crossing", "pillars"};
    bool changed = ImGui::Combo("scene", &s.scenario, names, 5);
    changed |= ImGui::SliderInt("agents (0: the scene's)", &s.count, 0, 2000);
    if (changed || ImGui::Button("reset (R)")) s.reset();
    auto& c = s.scene->config;
    ImGui::SliderFloat("pass right rad", &s.pass_right, 0.f, 0.5f);
    c.pass_right = double(s.pass_right);
    ImGui::SliderFloat("time horizon s", &s.horizon, 0.5f, 20.f);
    c.time_horizon = double(s.horizon);
    const std::size_t n = s.scene->position.size();
    ImGui::Text("arrived %zu of %zu after %zu steps (%.1f s)", s.arrived, n, s.steps, double(s.steps) * c.dt);
    ImGui::Text("overlapping pairs now %zu", s.overlaps);
    ImGui::Text("closest centres %.4f (touching %.4f)", s.closest, 2 * s.scene->radius);
    ImGui::Text("last step %.3f ms", s.step_ms);
    ImGui::TextWrapped(
        "Click to send the crowd there, each agent keeping its place in it. Discs: agents (green "
        "once home); grey: obstacles; faint strokes: the first group's navigation field.");
}

void formation_panel(demo::formation_scene& s) {
    const char* names[] = {"wedge", "line", "column", "circle", "grid"};
    bool changed = ImGui::Combo("pattern", &s.pattern, names, 5);
    changed |= ImGui::SliderInt("members", &s.members, 1, 200);
    changed |= ImGui::SliderFloat("gap m (0: no wall)", &s.gap, 0.f, 12.f);
    changed |= ImGui::Checkbox("crowd avoidance (off: steering, no wall)", &s.crowd);
    if (changed || ImGui::Button("reset (R)")) s.reset();
    auto& sc = *s.scene;
    float spacing = float(sc.spacing), march = float(sc.march);
    ImGui::SliderFloat("spacing m", &spacing, 1.1f, 4.f);
    ImGui::SliderFloat("march m/s", &march, 0.2f, 2.f);
    if (double(spacing) != sc.spacing) {
        sc.spacing = double(spacing);
        boids::formation_shape<double> shape = sc.squad.shape();
        shape.spacing = sc.spacing;
        sc.squad.set_shape(shape);
    }
    if (double(march) != sc.march) {
        sc.march = double(march);
        sc.squad.set_march(sc.march_of());
    }
    ImGui::Text("slot error mean %.2f m, worst %.2f m", s.mean_error, s.worst_error);
    ImGui::Text("anchor pace %.0f%%", 100.0 * boids::formation_pace(s.worst_error, sc.spacing));
    ImGui::Text("closest centres %.4f m (touching %.2f)", s.closest, 2 * sc.radius);
    ImGui::Text("beyond the wall %zu of %zu", s.beyond, sc.position.size());
    ImGui::Text("after %zu steps (%.1f s), last step %.3f ms", s.steps, double(s.steps) * sc.dt, s.step_ms);
    ImGui::TextWrapped(
        "Drag to move the goal: the anchor (white) marches there, through the gap when the wall is "
        "between, narrowing the formation to fit. Discs: members (green within half a spacing of "
        "their slot); dots: slots.");
}

void warmup_panel(demo::warmup_scene& s) {
    const char* modes[] = {"seek", "flee", "arrive"};
    ImGui::Combo("mode (SPACE)", &s.mode, modes, 3);
    ImGui::SliderFloat("max speed px/s", &s.limits.max_speed, 10, 600);
    ImGui::SliderFloat("max force px/s^2", &s.limits.max_force, 10, 2000);
    ImGui::SliderFloat("reaction time s", &s.limits.reaction_time, 0.02f, 2.f);
    ImGui::SliderFloat("slowing radius px", &s.slow_radius, 0, 400);
    ImGui::SliderFloat("panic radius px", &s.panic_radius, 0, 400);
    ImGui::Text("speed %.1f px/s", static_cast<double>(boids::length(s.velocity)));
    ImGui::Text("distance %.1f px", static_cast<double>(boids::distance(s.position, s.target)));
    ImGui::TextWrapped("Click to move the target. Green: velocity. Red: steering force.");
}

void flock_panel(demo::flock_scene& s) {
    auto& c = s.cfg;
    ImGui::Text("Presets:");
    for (const char* p : {"lesson", "insects", "fish", "Godot"}) {
        ImGui::SameLine();
        if (ImGui::Button(p)) s.preset(p);
    }
    ImGui::Checkbox("separation (1)", &c.use_separation);
    ImGui::SameLine();
    ImGui::Checkbox("alignment (2)", &c.use_alignment);
    ImGui::SameLine();
    ImGui::Checkbox("cohesion (3)", &c.use_cohesion);
    ImGui::SliderFloat("w separation", &c.separation_weight, 0, 5);
    ImGui::SliderFloat("w alignment", &c.alignment_weight, 0, 5);
    ImGui::SliderFloat("w cohesion", &c.cohesion_weight, 0, 5);
    ImGui::SliderFloat("w flee", &c.flee_weight, 0, 10);
    ImGui::SliderFloat("view radius px", &c.view_radius, 5, 200);
    ImGui::SliderFloat("view angle deg", &c.view_angle, 0, 360);
    ImGui::SliderFloat("separation radius px", &c.separate.radius, 0, 100);
    ImGui::SliderFloat("panic radius px", &c.panic_radius, 0, 400);
    ImGui::SliderFloat("max speed px/s", &c.limits.max_speed, 10, 400);
    ImGui::SliderFloat("min speed px/s", &c.limits.min_speed, 0, c.limits.max_speed);
    ImGui::SliderFloat("max force px/s^2", &c.limits.max_force, 10, 2000);
    ImGui::SliderFloat("reaction time s", &c.limits.reaction_time, 0.02f, 2.f);
    int falloff = static_cast<int>(c.separate.falloff);
    const char* falloffs[] = {"lesson", "1/d^2", "linear"};
    if (ImGui::Combo("separation falloff", &falloff, falloffs, 3))
        c.separate.falloff = static_cast<boids::separation_falloff>(falloff);
    if (c.separate.falloff != boids::separation_falloff::lesson)
        ImGui::SliderFloat("separation strength", &c.separate.strength, 0, 50000, "%.0f", ImGuiSliderFlags_Logarithmic);
    int kind = static_cast<int>(c.neighbors);
    const char* kinds[] = {"metric", "topological"};
    if (ImGui::Combo("neighbours", &kind, kinds, 2)) c.neighbors = static_cast<boids::neighborhood_kind>(kind);
    if (c.neighbors == boids::neighborhood_kind::topological) {
        int k = static_cast<int>(c.k);
        if (ImGui::SliderInt("k nearest", &k, 1, 20)) c.k = static_cast<std::size_t>(k);
    }
    int finder = static_cast<int>(s.finder);
    const char* finders[] = {"all-pairs", "grid", "automatic"};
    if (ImGui::Combo("finder", &finder, finders, 3)) s.finder = static_cast<demo::finder_choice>(finder);
    if (ImGui::Checkbox("toroidal edges (see across)", &s.toroidal))
        c.world.kind = s.toroidal ? boids::edges::toroidal : boids::edges::wrap;
    ImGui::SliderInt("boids", &s.count, 10, 100000, "%d", ImGuiSliderFlags_Logarithmic);
    if (ImGui::Button("reset (R)")) s.reset();
    ImGui::Separator();
    ImGui::Text("spacing %.2f px   order %.3f", static_cast<double>(s.spacing), static_cast<double>(s.order));
    if (!s.spacing_history.empty()) {
        ImGui::PlotLines("spacing", s.spacing_history.data(), static_cast<int>(s.spacing_history.size()), 0, nullptr, 0,
                         FLT_MAX, ImVec2(0, 50));
        ImGui::PlotLines("order", s.order_history.data(), static_cast<int>(s.order_history.size()), 0, nullptr, 0, 1,
                         ImVec2(0, 50));
    }
    ImGui::Text("step %.3f ms for %zu boids", s.step_ms, s.positions.size());
    if (const auto v = c.validate(); !v) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s: %s", v.field, v.reason);
    ImGui::TextWrapped("The mouse is the hawk.");
}

void starling_panel(demo::starling_scene& s) {
    auto& p = s.params;
    int model = s.field ? 1 : 0, scene = s.free_flight ? 1 : 0;
    bool changed = ImGui::RadioButton("source's model", &model, 0);
    ImGui::SameLine();
    changed = ImGui::RadioButton("matched to field data", &model, 1) || changed;
    changed = ImGui::RadioButton("over the roost", &scene, 0) || changed;
    ImGui::SameLine();
    changed = ImGui::RadioButton("free flight", &scene, 1) || changed;
    if (changed) s.use(model == 1, scene == 1);
    if (ImGui::Button("one bird turns (T)")) s.start_turn();
    ImGui::SliderFloat("v0 preferred speed m/s", &p.flight.preferred_speed, 4, 20);
    ImGui::SliderFloat("J alignment 1/s", &p.alignment, 0, 5);
    ImGui::SliderFloat("C cohesion 1/s^2", &p.cohesion, 0, 5);
    ImGui::SliderFloat("r0 separation radius m", &p.separation_radius, 0.2f, 5);
    ImGui::SliderFloat("sigma noise m/s^2", &p.noise, 0, 5);
    ImGui::SliderFloat("K_R roost turn m/s^2", &p.roost_gain, 0, 10);
    ImGui::SliderFloat("tau response time s", &p.flight.response_time, 0, 2);
    int k = static_cast<int>(p.k), every = static_cast<int>(p.perception_every);
    if (ImGui::SliderInt("k nearest (reset)", &k, 1, 24)) p.k = static_cast<std::size_t>(k);
    if (ImGui::SliderInt("perception every P steps (reset)", &every, 1, 10))
        p.perception_every = static_cast<std::size_t>(every);
    ImGui::SliderInt("birds (reset)", &s.count, 10, 100000, "%d", ImGuiSliderFlags_Logarithmic);
    ImGui::SliderInt("threads", &s.threads, 1, 8);
    if (ImGui::Button("reset (R)")) s.reset();
    ImGui::Separator();
    ImGui::Text("t = %.1f s   polarization %.3f", s.model.time(), static_cast<double>(s.polarization));
    ImGui::Text("roost radius %.1f m   E %.1f m", static_cast<double>(s.model.roost_radius()),
                static_cast<double>(s.model.size_scale()));
    const auto d = s.model.disturbances();
    if (!d.empty())
        ImGui::Text("disturbances %zu: last hit %zu, reached %zu", d.size(), d[d.size() - 1].seeded,
                    d[d.size() - 1].reached);
    ImGui::Text("step %.3f ms for %zu birds", s.step_ms, s.positions.size());
    if (const auto v = p.validate(); !v) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s: %s", v.field, v.reason);
    ImGui::TextWrapped("Green ring: the roost radius R on the ground. Drag to turn the view.");
}

// A camera orbiting the flock's centre: world (m, y up) -> pixels left of the panel.
struct orbit_camera {
    lab::fvec3 target{0, 20, 0};
    float yaw = 0.6f, pitch = 0.3f, distance = 70;
    lab::fvec3 eye{}, right{}, up{}, forward{};
    float focal = 800, cx = 450, cy = 360;

    void update() {
        eye = {target.x + distance * std::cos(pitch) * std::sin(yaw), target.y + distance * std::sin(pitch),
               target.z + distance * std::cos(pitch) * std::cos(yaw)};
        forward = boids::normalized_or_zero(boids::sub(target, eye));
        right = boids::normalized_or_zero(boids::cross(forward, lab::fvec3{0, 1, 0}));
        up = boids::cross(right, forward);
        cx = float(window_w - panel_w) * 0.5f;
        cy = float(window_h) * 0.5f;
        focal = float(window_w - panel_w) * 0.9f;
    }
    // False when the point is behind the camera.
    bool project(const lab::fvec3& p, float& sx, float& sy) const {
        const lab::fvec3 d = boids::sub(p, eye);
        const float z = boids::dot(d, forward);
        if (z < 0.5f) return false;
        sx = cx + focal * boids::dot(d, right) / z;
        sy = cy - focal * boids::dot(d, up) / z;
        return true;
    }
    void line(batch& lines, const lab::fvec3& a, const lab::fvec3& b, float r, float g, float bl) const {
        float ax, ay, bx, by;
        if (!project(a, ax, ay) || !project(b, bx, by)) return;
        lines.vertex(ax, ay, r, g, bl);
        lines.vertex(bx, by, r, g, bl);
    }
};

// A bird as a small triangle, banked: its wings tilt by the flight model's bank angle.
void bird(batch& tris, const orbit_camera& cam, const lab::fvec3& p, const lab::fvec3& v, float bank, float size) {
    const lab::fvec3 f = boids::normalized_or_zero(v);
    if (boids::is_zero(f)) return;
    lab::fvec3 left = boids::normalized_or_zero(boids::cross(lab::fvec3{0, 1, 0}, f));
    if (boids::is_zero(left)) left = {0, 0, 1};
    const lab::fvec3 up = boids::cross(f, left);
    const lab::fvec3 wing = boids::add(boids::scale(left, std::cos(bank)), boids::scale(up, -std::sin(bank)));
    const lab::fvec3 nose = boids::add_scaled(p, f, 1.2f * size);
    const lab::fvec3 tail = boids::add_scaled(p, f, -0.4f * size);
    float x[3], y[3];
    if (!cam.project(nose, x[0], y[0]) || !cam.project(boids::add_scaled(tail, wing, size), x[1], y[1]) ||
        !cam.project(boids::add_scaled(tail, wing, -size), x[2], y[2]))
        return;
    for (int i = 0; i < 3; ++i) tris.vertex(x[i], y[i], 0.55f, 0.85f, 1.f);
}

bool save_png(const std::string& path, std::string& error) {
    std::vector<unsigned char> pixels(std::size_t(window_w) * window_h * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, window_w, window_h, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    std::vector<unsigned char> flipped(pixels.size());
    const std::size_t row = std::size_t(window_w) * 3;
    for (int y = 0; y < window_h; ++y)
        std::copy_n(pixels.data() + std::size_t(window_h - 1 - y) * row, row, flipped.data() + std::size_t(y) * row);
    const std::string tmp = path + ".tmp-boids-demo.png";
    if (stbi_write_png(tmp.c_str(), window_w, window_h, 3, flipped.data(), int(row)) == 0 ||
        std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        error = "cannot write '" + path + "'";
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    options o;
    std::string error;
    if (!parse(argc, argv, o, error)) {
        std::fprintf(stderr, "boids-demo: %s\n", error.c_str());
        return 2;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        std::fprintf(stderr, "boids-demo: SDL: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 2);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 1);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_Window* window = SDL_CreateWindow("boids-demo", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, window_w,
                                          window_h, SDL_WINDOW_OPENGL);
    SDL_GLContext gl = window ? SDL_GL_CreateContext(window) : nullptr;
    if (!gl) {
        std::fprintf(stderr, "boids-demo: cannot open an OpenGL window: %s\n", SDL_GetError());
        SDL_Quit();
        return 1;
    }
    SDL_GL_SetSwapInterval(o.frames > 0 ? 0 : 1);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui_ImplSDL2_InitForOpenGL(window, gl);
    ImGui_ImplOpenGL2_Init();

    demo::warmup_scene warmup;
    demo::flock_scene flock;
    flock.count = o.boids > 0 ? static_cast<int>(o.boids) : 60;
    flock.seed = o.seed;
    flock.reset();
    demo::starling_scene starlings;
    starlings.count = o.boids > 0 ? static_cast<int>(o.boids) : 3000;
    starlings.seed = o.seed;
    starlings.use(o.field, o.free_flight);
    demo::crowd_scene crowd;
    crowd.count = o.boids > 0 && o.scene == "crowd" ? static_cast<int>(o.boids) : 0;
    crowd.reset();
    demo::formation_scene formation;
    formation.members = o.boids > 0 && o.scene == "formation" ? static_cast<int>(std::min(o.boids, 200ull)) : 24;
    formation.reset();
    orbit_camera cam;
    bool dragging = false;
    int scene = o.scene == "warmup"      ? 0
                : o.scene == "flock"     ? 1
                : o.scene == "starlings" ? 2
                : o.scene == "crowd"     ? 3
                                         : 4;
    view v;
    batch tris, lines;
    bool running = true;
    unsigned long long frame = 0;
    int rc = 0;
    while (running) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            ImGui_ImplSDL2_ProcessEvent(&e);
            if (e.type == SDL_QUIT) running = false;
            const bool ui = ImGui::GetIO().WantCaptureMouse;
            if (e.type == SDL_MOUSEBUTTONDOWN && !ui && scene == 0)
                warmup.target = v.to_world(float(e.button.x), float(e.button.y));
            if (e.type == SDL_MOUSEBUTTONDOWN && !ui && scene == 2) dragging = true;
            if (e.type == SDL_MOUSEBUTTONDOWN && !ui && scene == 3) {
                const demo::vec2 at = v.to_world(float(e.button.x), float(e.button.y));
                crowd.send_to({double(at.x) + crowd.min_x, double(at.y) + crowd.min_y});
            }
            if (e.type == SDL_MOUSEBUTTONDOWN && !ui && scene == 4) {
                dragging = true;
                const demo::vec2 at = v.to_world(float(e.button.x), float(e.button.y));
                formation.send_to({double(at.x) + formation.min_x, double(at.y) + formation.min_y});
            }
            if (e.type == SDL_MOUSEMOTION && scene == 4 && dragging) {
                const demo::vec2 at = v.to_world(float(e.motion.x), float(e.motion.y));
                formation.send_to({double(at.x) + formation.min_x, double(at.y) + formation.min_y});
            }
            if (e.type == SDL_MOUSEBUTTONUP) dragging = false;
            if (e.type == SDL_MOUSEMOTION && scene == 2 && dragging) {
                cam.yaw -= 0.01f * float(e.motion.xrel);
                cam.pitch = std::clamp(cam.pitch + 0.01f * float(e.motion.yrel), -0.2f, 1.4f);
            }
            if (e.type == SDL_MOUSEMOTION && scene == 1) {
                flock.cfg.predator = v.to_world(float(e.motion.x), float(e.motion.y));
                flock.hawk_active = !ui && e.motion.x < window_w - panel_w;
            }
            if (e.type == SDL_KEYDOWN && !ImGui::GetIO().WantCaptureKeyboard) {
                switch (e.key.keysym.sym) {
                case SDLK_SPACE: warmup.mode = (warmup.mode + 1) % 3; break;
                case SDLK_1: flock.cfg.use_separation = !flock.cfg.use_separation; break;
                case SDLK_2: flock.cfg.use_alignment = !flock.cfg.use_alignment; break;
                case SDLK_3: flock.cfg.use_cohesion = !flock.cfg.use_cohesion; break;
                case SDLK_r:
                    if (scene == 2) starlings.reset();
                    else if (scene == 3) crowd.reset();
                    else if (scene == 4) formation.reset();
                    else flock.reset();
                    break;
                case SDLK_t:
                    if (scene == 2) starlings.start_turn();
                    break;
                case SDLK_ESCAPE: running = false; break;
                default: break;
                }
            }
        }
        // Simulation: one fixed step a frame.
        if (scene == 0) warmup.step(dt);
        else if (scene == 1) {
            flock.step(dt);
            if (frame % 10 == 0) flock.measure();
        } else if (scene == 2) {
            starlings.advance(dt);
        } else if (scene == 3) {
            crowd.step();
        } else {
            formation.step();
        }

        ImGui_ImplOpenGL2_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(float(window_w - panel_w), 0));
        ImGui::SetNextWindowSize(ImVec2(float(panel_w), float(window_h)));
        ImGui::Begin("boids", nullptr,
                     ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
        ImGui::PushItemWidth(200);
        ImGui::RadioButton("warm-up", &scene, 0);
        ImGui::SameLine();
        ImGui::RadioButton("flock and hawk", &scene, 1);
        ImGui::SameLine();
        ImGui::RadioButton("starlings", &scene, 2);
        ImGui::SameLine();
        ImGui::RadioButton("crowd", &scene, 3);
        ImGui::RadioButton("formation", &scene, 4);
        ImGui::Separator();
        if (scene == 0) warmup_panel(warmup);
        else if (scene == 1) flock_panel(flock);
        else if (scene == 2) starling_panel(starlings);
        else if (scene == 3) crowd_panel(crowd);
        else formation_panel(formation);
        ImGui::PopItemWidth();
        ImGui::End();
        ImGui::Render();

        glViewport(0, 0, window_w, window_h);
        glClearColor(0.06f, 0.07f, 0.10f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glMatrixMode(GL_PROJECTION);
        glLoadIdentity();
        glOrtho(0, window_w, window_h, 0, -1, 1);
        glMatrixMode(GL_MODELVIEW);
        glLoadIdentity();
        if (scene == 0) {
            v.fit(warmup.world.size[0], warmup.world.size[1]);
            world_frame(lines, v, warmup.world.size[0], warmup.world.size[1]);
            // Both radii, the one the current mode uses drawn bright.
            const float on = 1.f, off = 0.35f;
            const float slow = warmup.mode == demo::warmup_scene::arrive ? on : off;
            const float panic = warmup.mode == demo::warmup_scene::flee ? on : off;
            circle(lines, v, warmup.target, warmup.slow_radius, 0.4f * slow, 0.6f * slow, 1.f * slow);
            circle(lines, v, warmup.target, warmup.panic_radius, 1.f * panic, 0.5f * panic, 0.2f * panic);
            circle(lines, v, warmup.target, 6.f, 1.f, 1.f, 0.3f);
            const auto p = warmup.position;
            lines.vertex(v.x(p.x), v.y(p.y), 0.2f, 1.f, 0.3f);
            lines.vertex(v.x(p.x + warmup.velocity.x * 0.3f), v.y(p.y + warmup.velocity.y * 0.3f), 0.2f, 1.f, 0.3f);
            lines.vertex(v.x(p.x), v.y(p.y), 1.f, 0.25f, 0.25f);
            lines.vertex(v.x(p.x + warmup.last_force.x * 0.15f), v.y(p.y + warmup.last_force.y * 0.15f), 1.f, 0.25f,
                         0.25f);
            arrow(tris, v, p, warmup.velocity, 14.f, 0.95f, 0.95f, 0.95f);
        } else if (scene == 3) {
            v.fit(float(crowd.width), float(crowd.height));
            const auto& edges = crowd.scene->obstacles.edges();
            for (const auto& e : edges) {
                const auto& n = edges[e.next];
                lines.vertex(v.x(float(e.x - crowd.min_x)), v.y(float(e.y - crowd.min_y)), 0.6f, 0.6f, 0.6f);
                lines.vertex(v.x(float(n.x - crowd.min_x)), v.y(float(n.y - crowd.min_y)), 0.6f, 0.6f, 0.6f);
            }
            const auto& sc = *crowd.scene;
            if (const auto* nav = sc.navigation_of(); nav != nullptr && !nav->fields.empty()) {
                // The first group's field, faintly: a stroke every few cells, pointing on.
                const auto& grid = nav->grid;
                const std::size_t every = std::max<std::size_t>(1, grid.columns() / 60);
                const double stroke = 0.4 * static_cast<double>(every) * grid.cell();
                for (std::size_t r = every / 2; r < grid.rows(); r += every)
                    for (std::size_t c = every / 2; c < grid.columns(); c += every) {
                        const std::size_t cell = r * grid.columns() + c;
                        if (!grid.walkable(cell)) continue;
                        const lab::vec2 p = grid.centre(cell), d = nav->fields[0].direction(p);
                        lines.vertex(v.x(float(p.x - crowd.min_x)), v.y(float(p.y - crowd.min_y)), 0.3f, 0.3f, 0.38f);
                        lines.vertex(v.x(float(p.x + stroke * d.x - crowd.min_x)),
                                     v.y(float(p.y + stroke * d.y - crowd.min_y)), 0.3f, 0.3f, 0.38f);
                    }
            }
            for (std::size_t i = 0; i < sc.position.size(); ++i) {
                const bool home = boids::length(boids::sub(sc.goal[i], sc.position[i])) <= sc.arrive;
                disc(tris, v, crowd, sc.position[i].x, sc.position[i].y, sc.radius, home ? 0.3f : 0.55f,
                     home ? 0.9f : 0.75f, home ? 0.4f : 1.f);
            }
        } else if (scene == 4) {
            v.fit(float(formation.width), float(formation.height));
            const auto& sc = *formation.scene;
            auto wx = [&](double x) { return v.x(float(x - formation.min_x)); };
            auto wy = [&](double y) { return v.y(float(y - formation.min_y)); };
            const auto& edges = sc.obstacles.edges();
            for (const auto& e : edges) {
                const auto& n = edges[e.next];
                lines.vertex(wx(e.x), wy(e.y), 0.6f, 0.6f, 0.6f);
                lines.vertex(wx(n.x), wy(n.y), 0.6f, 0.6f, 0.6f);
            }
            for (const auto& q : sc.squad.slots()) disc(tris, v, formation, q.x, q.y, 0.12, 0.5f, 0.5f, 0.55f);
            for (std::size_t i = 0; i < sc.position.size(); ++i) {
                const bool placed = boids::distance(sc.position[i], sc.squad.target(i)) <= 0.5 * sc.spacing;
                disc(tris, v, formation, sc.position[i].x, sc.position[i].y, sc.radius, placed ? 0.3f : 0.55f,
                     placed ? 0.9f : 0.75f, placed ? 0.4f : 1.f);
            }
            // The anchor and its heading; the goal as a ring.
            const lab::vec2 a = sc.squad.anchor(), f = boids::direction_of<lab::vec2>(sc.squad.heading());
            lines.vertex(wx(a.x), wy(a.y), 1.f, 1.f, 1.f);
            lines.vertex(wx(a.x + 2 * f.x), wy(a.y + 2 * f.y), 1.f, 1.f, 1.f);
            for (int k = 0; k < 24; ++k) {
                const double a0 = 6.2831853 * k / 24, a1 = 6.2831853 * (k + 1) / 24;
                lines.vertex(wx(sc.goal.x + 0.8 * std::cos(a0)), wy(sc.goal.y + 0.8 * std::sin(a0)), 1.f, 0.8f, 0.3f);
                lines.vertex(wx(sc.goal.x + 0.8 * std::cos(a1)), wy(sc.goal.y + 0.8 * std::sin(a1)), 1.f, 0.8f, 0.3f);
            }
        } else if (scene == 2) {
            // Follow the flock: the view eases toward its centre and keeps it in frame.
            const lab::fvec3 c = starlings.centroid();
            cam.target = boids::add_scaled(cam.target, boids::sub(c, cam.target), 0.05f);
            cam.distance = 5.f * starlings.model.size_scale() + 50.f;
            if (!dragging) cam.yaw += 0.002f;
            cam.update();
            const lab::fvec3 roost = starlings.model.roost_centre();
            const float radius = starlings.model.roost_radius();
            for (int i = 0; i < 64; ++i) {  // the roost radius on the ground
                const float a0 = 6.2831853f * float(i) / 64, a1 = 6.2831853f * float(i + 1) / 64;
                cam.line(lines, {roost.x + radius * std::cos(a0), 0, roost.z + radius * std::sin(a0)},
                         {roost.x + radius * std::cos(a1), 0, roost.z + radius * std::sin(a1)}, 0.3f, 0.8f, 0.4f);
            }
            for (int g = -6; g <= 6; ++g) {  // a ground grid, 20 m apart
                const float o = 20.f * float(g);
                cam.line(lines, {roost.x + o, 0, roost.z - 120}, {roost.x + o, 0, roost.z + 120}, 0.2f, 0.22f, 0.26f);
                cam.line(lines, {roost.x - 120, 0, roost.z + o}, {roost.x + 120, 0, roost.z + o}, 0.2f, 0.22f, 0.26f);
            }
            const std::size_t n = starlings.positions.size();
            const auto flight = starlings.model.flight();
            if (n > 50000) {  // points above 50,000 birds
                for (std::size_t i = 0; i < n; ++i) {
                    float x, y;
                    if (cam.project(starlings.positions[i], x, y)) tris.vertex(x, y, 0.55f, 0.85f, 1.f);
                }
                glPointSize(2.f);
                tris.draw(GL_POINTS);
            } else {
                for (std::size_t i = 0; i < n; ++i)
                    bird(tris, cam, starlings.positions[i], starlings.velocities[i], flight[i].bank, 0.6f);
            }
        } else {
            v.fit(flock.cfg.world.size[0], flock.cfg.world.size[1]);
            world_frame(lines, v, flock.cfg.world.size[0], flock.cfg.world.size[1]);
            if (flock.hawk_active) circle(lines, v, flock.cfg.predator, flock.cfg.panic_radius, 1.f, 0.3f, 0.2f);
            const std::size_t n = flock.positions.size();
            const float size = n > 20000 ? 1.5f : (n > 2000 ? 3.f : 8.f);
            for (std::size_t i = 0; i < flock.positions.size(); ++i)
                arrow(tris, v, flock.positions[i], flock.velocities[i], size, 0.55f, 0.85f, 1.f);
        }
        tris.draw(GL_TRIANGLES);  // every boid in one draw call
        lines.draw(GL_LINES);
        ImGui_ImplOpenGL2_RenderDrawData(ImGui::GetDrawData());
        ++frame;
        if (o.frames > 0 && frame >= o.frames) {
            if (!o.screenshot.empty() && !save_png(o.screenshot, error)) {
                std::fprintf(stderr, "boids-demo: %s\n", error.c_str());
                rc = 2;
            }
            running = false;
            if (scene == 2)
                std::printf(
                    "boids-demo: %llu frames, %zu starlings, t = %.2f s, last step %.3f ms, polarization %.3f\n", frame,
                    starlings.positions.size(), starlings.model.time(), starlings.step_ms,
                    static_cast<double>(starlings.polarization));
            else if (scene == 3)
                std::printf("boids-demo: %llu frames, %zu agents, %zu home, %zu overlapping, last step %.3f ms\n",
                            frame, crowd.scene->position.size(), crowd.arrived, crowd.overlaps, crowd.step_ms);
            else if (scene == 4)
                std::printf(
                    "boids-demo: %llu frames, %zu members, slot error mean %.3f m, closest %.4f m, %zu "
                    "beyond the wall, last step %.3f ms\n",
                    frame, formation.scene->position.size(), formation.mean_error, formation.closest, formation.beyond,
                    formation.step_ms);
            else if (scene == 1)
                std::printf("boids-demo: %llu frames, %zu boids, last step %.3f ms, spacing %.2f px, order %.3f\n",
                            frame, flock.positions.size(), flock.step_ms, static_cast<double>(flock.spacing),
                            static_cast<double>(flock.order));
            else std::printf("boids-demo: %llu frames of the warm-up\n", frame);
        }
        SDL_GL_SwapWindow(window);
    }
    ImGui_ImplOpenGL2_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(gl);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return rc;
}
