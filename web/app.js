// app.js - the page: draws boids_web.cpp's scenes on a 2D canvas, binds the controls,
// keeps the gauges and their history. With ?test=1 it runs its own checks and writes
// them, one line each, into #result (read by tests/web_check.sh).
'use strict';
const canvas = document.getElementById('scene'), ctx = canvas.getContext('2d');
const history = document.getElementById('history'), hctx = history.getContext('2d');
const params = new URLSearchParams(location.search);
const BOID = '#8cd9ff';  // the boid colour the test looks for

// Each control: [name, label, min, max, step, value]. Changing one calls the scene's apply().
const scenes = {
  warmup: {
    controls: [['mode', 'mode 0 seek, 1 flee, 2 arrive', 0, 2, 1, 2], ['max_speed', 'max speed px/s', 10, 600, 1, 220],
               ['max_force', 'max force px/s^2', 10, 2000, 1, 440], ['reaction', 'reaction time s', 0.02, 2, 0.01, 0.2],
               ['slow', 'slowing radius px', 0, 400, 1, 140], ['panic', 'panic radius px', 0, 400, 1, 200]],
    presets: {},
  },
  flock: {
    controls: [['count', 'boids', 10, 100000, 10, 300], ['separation', 'separation weight', 0, 5, 0.05, 1.5],
               ['alignment', 'alignment weight', 0, 5, 0.05, 1.0], ['cohesion', 'cohesion weight', 0, 5, 0.05, 1.0],
               ['radius', 'view radius px', 5, 200, 1, 50], ['angle', 'view angle deg', 10, 360, 1, 270],
               ['max_speed', 'max speed px/s', 10, 600, 1, 150], ['max_force', 'max force px/s^2', 10, 2000, 1, 300],
               ['reaction', 'reaction time s', 0.02, 2, 0.01, 0.25], ['topological', 'topological (k nearest)', 0, 1, 1, 0],
               ['k', 'k', 1, 20, 1, 7]],
    presets: {lesson: 'lesson', insects: 'insects', fish: 'fish', Godot: 'Godot'},
  },
  starlings: {
    controls: [['count', 'birds', 10, 20000, 10, 1000], ['alignment', 'alignment J 1/s', 0, 5, 0.05, 1.5],
               ['cohesion', 'cohesion', 0, 5, 0.05, 1.0], ['separation_radius', 'separation radius m', 0.5, 6, 0.1, 2.0],
               ['noise', 'noise m/s^2', 0, 5, 0.05, 1.0], ['roost_gain', 'roost gain m/s^2', 0, 10, 0.1, 3.0],
               ['speed', 'preferred speed m/s', 4, 20, 0.1, 10], ['max_accel', 'max acceleration m/s^2', 2, 30, 0.5, 12],
               ['response', 'turn response time s', 0.02, 2, 0.01, 0.25], ['k', 'topological neighbours k', 1, 20, 1, 7]],
    // The source's parameters or those matched to the field data (docs/starlings.md).
    presets: {source: 'source', field: 'field', 'free flight': 'free'},
  },
};

let M = null, scene = params.get('scene') || 'flock', values = {}, mouse = {x: 0, y: 0, inside: false};
const spacingHistory = [], orderHistory = [], stepHistory = [];
let yaw = 0;

function value(name) { return values[scene][name]; }

function apply(reset) {
  const v = values[scene];
  if (scene === 'warmup') {
    M._warmup_set(v.mode, v.max_speed, v.max_force, v.reaction, v.slow, v.panic);
  } else if (scene === 'flock') {
    if (reset) M._flock_reset(v.count, 7);
    M._flock_weights(v.separation, v.alignment, v.cohesion, v.radius, v.angle, v.max_speed, v.max_force, v.reaction,
                     v.topological, v.k);
  } else {
    M._starlings_neighbours(v.k);
    if (reset) M._starlings_reset(v.count, 1);
    M._starlings_set(v.alignment, v.cohesion, v.separation_radius, v.noise, v.roost_gain, v.speed, v.max_accel,
                     v.response);
  }
}

function buildControls() {
  const box = document.getElementById('controls');
  box.innerHTML = '';
  const s = scenes[scene];
  for (const [name, text, min, max, step] of s.controls) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    Object.assign(input, {type: 'range', min, max, step, value: values[scene][name], id: 'c-' + name});
    label.textContent = text + ': ' + values[scene][name];
    input.addEventListener('input', () => {
      values[scene][name] = Number(input.value);
      label.firstChild.textContent = text + ': ' + input.value;
      apply(name === 'count' || (scene === 'starlings' && name === 'k'));
    });
    box.appendChild(label);
    box.appendChild(input);
  }
  for (const p of Object.keys(s.presets)) {
    const b = document.createElement('button');
    b.textContent = p;
    b.addEventListener('click', () => {
      if (scene !== 'starlings') return M.ccall('flock_preset', null, ['string'], [p]);
      const field = p !== 'source', free = p === 'free flight';
      Object.assign(values.starlings, field ? {separation_radius: 1.2, noise: 0.3} : {separation_radius: 2.0, noise: 1.0},
                    {roost_gain: free ? 0 : 3.0});
      M._starlings_model(field ? 1 : 0, free ? 1 : 0);
      buildControls();
      apply(false);
    });
    box.appendChild(b);
  }
  spacingHistory.length = orderHistory.length = 0;
}

function worldFit(w, h) {
  const s = Math.min(canvas.width / w, canvas.height / h);
  return {s, ox: (canvas.width - w * s) / 2, oy: (canvas.height - h * s) / 2};
}

function drawArrow(x, y, vx, vy, size) {
  const l = Math.hypot(vx, vy) || 1, fx = vx / l, fy = vy / l;
  ctx.moveTo(x + fx * size, y + fy * size);
  ctx.lineTo(x - fx * size * 0.6 - fy * size * 0.5, y - fy * size * 0.6 + fx * size * 0.5);
  ctx.lineTo(x - fx * size * 0.6 + fy * size * 0.5, y - fy * size * 0.6 - fx * size * 0.5);
}

let last = {step: NaN, spacing: NaN, order: NaN};
function frame() {
  ctx.fillStyle = '#0f1219';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = BOID;
  const dt = 1 / 60;
  if (scene === 'warmup') {
    const f = worldFit(800, 450);
    const p = M._warmup_step(dt) >> 2, d = M.HEAPF32;
    ctx.strokeStyle = '#444';
    ctx.strokeRect(f.ox, f.oy, 800 * f.s, 450 * f.s);
    ctx.beginPath();
    ctx.arc(f.ox + d[p + 4] * f.s, f.oy + d[p + 5] * f.s, 6, 0, 7);
    ctx.fillStyle = '#ffe14d';
    ctx.fill();
    ctx.beginPath();
    drawArrow(f.ox + d[p] * f.s, f.oy + d[p + 1] * f.s, d[p + 2], d[p + 3], 14);
    ctx.fillStyle = BOID;
    ctx.fill();
    last = {step: 0, spacing: Math.hypot(d[p] - d[p + 4], d[p + 1] - d[p + 5]), order: Math.hypot(d[p + 2], d[p + 3])};
  } else if (scene === 'flock') {
    const w = M._flock_world_width(), h = M._flock_world_height(), f = worldFit(w, h);
    M._flock_hawk(mouse.inside ? 1 : 0, (mouse.x - f.ox) / f.s, (mouse.y - f.oy) / f.s);
    const p = M._flock_step(dt) >> 2, n = M._flock_count(), d = M.HEAPF32;
    const size = n > 20000 ? 1.5 : n > 2000 ? 3 : 7;
    ctx.beginPath();
    for (let i = 0; i < n; ++i) drawArrow(f.ox + d[p + 4 * i] * f.s, f.oy + d[p + 4 * i + 1] * f.s, d[p + 4 * i + 2], d[p + 4 * i + 3], size);
    ctx.fill();
    last = {step: M._flock_step_ms(), spacing: M._flock_spacing(), order: M._flock_order()};
  } else {
    const p = M._starlings_step(dt) >> 2, n = M._starlings_count(), d = M.HEAPF32;
    yaw += 0.002;
    let cx = 0, cy = 0, cz = 0;
    for (let i = 0; i < n; ++i) { cx += d[p + 6 * i]; cy += d[p + 6 * i + 1]; cz += d[p + 6 * i + 2]; }
    cx /= n; cy /= n; cz /= n;
    const c = Math.cos(yaw), s = Math.sin(yaw), scale = canvas.height / 160;
    ctx.beginPath();
    for (let i = 0; i < n; ++i) {
      const x = d[p + 6 * i] - cx, y = d[p + 6 * i + 1] - cy, z = d[p + 6 * i + 2] - cz;
      ctx.rect(canvas.width / 2 + (c * x - s * z) * scale, canvas.height / 2 - y * scale, 2, 2);
    }
    ctx.fill();
    last = {step: M._starlings_step_ms(), spacing: NaN, order: M._starlings_polarization()};
  }
  stepHistory.push(last.step);
  if (stepHistory.length > 120) stepHistory.shift();
  const median = [...stepHistory].sort((a, b) => a - b)[stepHistory.length >> 1];
  document.getElementById('g-step').textContent = 'step: ' + median.toFixed(3) + ' ms (median of the last 120)';
  document.getElementById('g-spacing').textContent =
      (scene === 'warmup' ? 'distance to target: ' : 'spacing: ') + (isNaN(last.spacing) ? '-' : last.spacing.toFixed(2));
  document.getElementById('g-order').textContent =
      (scene === 'warmup' ? 'speed: ' : scene === 'starlings' ? 'polarization: ' : 'order: ') + last.order.toFixed(3);
  spacingHistory.push(last.spacing);
  orderHistory.push(last.order);
  if (spacingHistory.length > 300) { spacingHistory.shift(); orderHistory.shift(); }
  plotHistory();
}

function plotHistory() {
  hctx.fillStyle = '#0f1219';
  hctx.fillRect(0, 0, history.width, history.height);
  for (const [series, colour] of [[spacingHistory, '#f28e2b'], [orderHistory, '#59a14f']]) {
    const finite = series.filter(Number.isFinite);
    if (!finite.length) continue;
    const lo = Math.min(...finite), hi = Math.max(...finite), span = hi - lo || 1;
    hctx.strokeStyle = colour;
    hctx.beginPath();
    series.forEach((v, i) => { if (Number.isFinite(v)) hctx.lineTo(i, history.height - 4 - (v - lo) / span * (history.height - 8)); });
    hctx.stroke();
  }
}

function loop() { frame(); requestAnimationFrame(loop); }

function switchScene(name) {
  scene = name;
  document.querySelector('input[value=' + name + ']').checked = true;
  buildControls();
  apply(true);
}

// The checks of ?test=1: each scene for `frames` frames, drawn pixels, finite gauges, a
// slider that changes the flock, the lesson fixture against the native run, step times.
async function selfTest() {
  const out = [];
  const say = line => { out.push(line); document.getElementById('result').textContent = out.join('\n'); };
  const frames = Number(params.get('frames') || 180);  // 3 s of each scene
  for (const name of ['warmup', 'flock', 'starlings']) {
    switchScene(name);
    for (let i = 0; i < frames; ++i) frame();
    const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let boid = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] === 0x8c && px[i + 1] === 0xd9 && px[i + 2] === 0xff) ++boid;
    say(`scene ${name} boid_pixels ${boid} step_ms ${last.step} order ${last.order} finite ${[last.step, last.order].every(Number.isFinite)}`);
  }
  // A slider, moved as a user moves it (its input event): alignment 0 against 5, each
  // from the same start (the count slider restarts the flock); the order must differ.
  switchScene('flock');
  const move = (name, v) => {
    const input = document.getElementById('c-' + name);
    input.value = v;
    input.dispatchEvent(new Event('input'));
  };
  const orderAfter = alignment => {
    move('alignment', alignment);
    move('count', values.flock.count);
    for (let i = 0; i < 240; ++i) frame();
    return last.order;
  };
  const loose = orderAfter(0), aligned = orderAfter(5);
  say(`slider alignment 0 order ${loose} alignment 5 order ${aligned} changed ${Math.abs(aligned - loose) > 0.05}`);
  move('alignment', 1);
  // The lesson fixture, 120 steps, as boids-lab runs it natively.
  const csv = await (await fetch('seed7_all_60_initial.csv')).text();
  const run = M.ccall('lesson_run', 'string', ['string', 'number'], [csv, 120]);
  say('lesson120 ' + btoa(run));
  // Step times at 1,000, 10,000 and 100,000 boids (median of 20 steps after 10).
  // Each step timed by performance.now() around the call (the browser's clock is
  // coarse, 0.1 ms or so, hence whole steps, copy included, rather than the step alone).
  for (const n of [1000, 10000, 100000]) {
    M._flock_reset(n, 7);
    const times = [];
    for (let i = 0; i < 30; ++i) {
      const t0 = performance.now();
      M._flock_step(1 / 60);
      if (i >= 10) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    say(`speed ${n} ${times[times.length >> 1]}`);
  }
  switchScene(params.get('scene') || 'flock');
  for (let i = 0; i < 120; ++i) frame();
  say('done');
}

createBoids().then(module => {
  M = module;
  for (const [name, s] of Object.entries(scenes)) {
    values[name] = {};
    for (const [key, , , , , v] of s.controls) values[name][key] = v;
  }
  document.querySelectorAll('input[name=scene]').forEach(r => r.addEventListener('change', () => switchScene(r.value)));
  canvas.addEventListener('mousemove', e => { mouse = {x: e.offsetX, y: e.offsetY, inside: true}; });
  canvas.addEventListener('mouseleave', () => { mouse.inside = false; });
  canvas.addEventListener('click', e => {
    if (scene !== 'warmup') return;
    const f = worldFit(800, 450);
    M._warmup_target((e.offsetX - f.ox) / f.s, (e.offsetY - f.oy) / f.s);
  });
  switchScene(scene);
  if (params.get('test')) selfTest();
  else loop();
});
