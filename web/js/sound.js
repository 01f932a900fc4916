// An optional move sound (off unless the player turns it on; the choice is kept in this
// browser): a short soft click made with the Web Audio API, so no sound file is needed.

const KEY = 'boardlab:sound';
/** @type {AudioContext | null} */
let ctx = null;

/** Whether the move sound is on. */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

/** Turns the move sound on or off. */
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // Without storage the choice lasts while the page is open.
  }
  if (on) moveSound();
}

/** Plays the move sound, if it is on. */
export function moveSound() {
  if (!soundOn()) return;
  try {
    ctx = ctx || new AudioContext();
    const t = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'triangle';
    osc.frequency.setValueAtTime(520, t);
    osc.frequency.exponentialRampToValueAtTime(260, t + 0.08);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.25, t + 0.005);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.12);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.13);
  } catch {
    // No audio here: stay silent.
  }
}
