// Sounds made in the browser (WebAudio, no audio files) and the player's switches
// for sound and motion, remembered in localStorage.
//
// - "turn": two rising notes when the action comes to you;
// - "tick": a short click each second of your last five;
// - "card": a soft snap when cards are dealt or delivered;
// - "chips": a few bright clicks when chips go in or a pot is pushed;
// - "alert": a low double beep (the draw clock ran out on you).
//
// Motion: card and chip animations; off by default when the system asks for
// reduced motion. The page carries ``data-motion="on|off"`` and the stylesheet
// turns every animation off with it.

const KEY_SOUND = "dp.sound";
const KEY_MOTION = "dp.motion";

export const prefs = {
  sound: localStorage.getItem(KEY_SOUND) !== "off",
  motion: (() => {
    const saved = localStorage.getItem(KEY_MOTION);
    if (saved) return saved === "on";
    return !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  })(),
};

/** The sounds started, newest last (for the browser tests and the curious). */
export const played = [];

let context = null;
const listeners = new Set();

export function onPrefs(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed() {
  document.documentElement.dataset.motion = prefs.motion ? "on" : "off";
  document.documentElement.dataset.sound = prefs.sound ? "on" : "off";
  for (const fn of listeners) fn(prefs);
}

export function setSound(on) {
  prefs.sound = Boolean(on);
  localStorage.setItem(KEY_SOUND, prefs.sound ? "on" : "off");
  if (prefs.sound) unlock();
  changed();
}

export function setMotion(on) {
  prefs.motion = Boolean(on);
  localStorage.setItem(KEY_MOTION, prefs.motion ? "on" : "off");
  changed();
}

/** Browsers start audio only after a gesture: the first tap or key unlocks it. */
function unlock() {
  try {
    context ??= new (window.AudioContext || window.webkitAudioContext)();
    if (context.state === "suspended") context.resume().catch(() => undefined);
  } catch {
    context = null;
  }
}

export function initSound() {
  changed();
  const first = () => {
    if (prefs.sound) unlock();
    window.removeEventListener("pointerdown", first);
    window.removeEventListener("keydown", first);
  };
  window.addEventListener("pointerdown", first);
  window.addEventListener("keydown", first);
}

function tone(ctx, { at, freq, to = freq, length, type = "sine", gain = 0.15 }) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function noise(ctx, { at, length, freq, gain = 0.2 }) {
  const frames = Math.max(1, Math.floor(ctx.sampleRate * length));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start(at);
}

const SOUNDS = {
  turn: (ctx, now) => {
    tone(ctx, { at: now, freq: 660, length: 0.14 });
    tone(ctx, { at: now + 0.15, freq: 880, length: 0.22 });
  },
  tick: (ctx, now) => tone(ctx, { at: now, freq: 1200, length: 0.05, type: "square", gain: 0.05 }),
  card: (ctx, now) => noise(ctx, { at: now, length: 0.06, freq: 2500, gain: 0.25 }),
  chips: (ctx, now) => {
    for (let i = 0; i < 3; i += 1) noise(ctx, { at: now + i * 0.045, length: 0.035, freq: 5200, gain: 0.2 });
  },
  alert: (ctx, now) => {
    tone(ctx, { at: now, freq: 330, length: 0.18, type: "triangle", gain: 0.2 });
    tone(ctx, { at: now + 0.22, freq: 262, length: 0.25, type: "triangle", gain: 0.2 });
  },
};

const last = new Map(); // sound -> when it last played (ms): no machine-gun bursts

/** Play ``name`` unless muted (a burst of the same sound within 90 ms plays once). */
export function play(name) {
  if (!prefs.sound || !SOUNDS[name]) return false;
  const now = performance.now();
  if (now - (last.get(name) ?? -1e9) < 90) return false;
  last.set(name, now);
  played.push(name);
  if (played.length > 200) played.splice(0, played.length - 200);
  try {
    context ??= new (window.AudioContext || window.webkitAudioContext)();
    if (context.state !== "closed") SOUNDS[name](context, context.currentTime + 0.01);
  } catch {
    // no audio device: the game goes on in silence
  }
  return true;
}
