// Sounds are short tones made with the Web Audio API: no sound files.
// Each is a list of [frequency in Hz, seconds] played one after another.

/** Sound names a sound the page plays. */
export type Sound = 'move' | 'capture' | 'check' | 'low' | 'end';

const SOUNDS: Record<Sound, [number, number][]> = {
  move: [[520, 0.06]],
  capture: [[330, 0.05], [220, 0.09]],
  check: [[880, 0.07], [660, 0.11]],
  low: [[1040, 0.05], [1040, 0.05]],
  end: [[523, 0.1], [659, 0.1], [784, 0.18]],
};
const MUTE_KEY = 'anychess.mute';
let audio: AudioContext | null = null;

/** isMuted reports whether the player turned the sounds off. */
export function isMuted(): boolean { return localStorage.getItem(MUTE_KEY) === '1'; }

/** toggleMute turns the sounds off or on, remembered in localStorage. */
export function toggleMute(): void { localStorage.setItem(MUTE_KEY, isMuted() ? '0' : '1'); }

/**
 * playSound plays one of the sounds unless the page is muted; the body's
 * data-sound and data-sounds say which was played last and how many.
 */
export function playSound(kind: Sound): void {
  if (isMuted() || !SOUNDS[kind]) return;
  document.body.dataset.sound = kind;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  try {
    const Ctx = window.AudioContext || (window as unknown as { webkitAudioContext: typeof AudioContext }).webkitAudioContext;
    audio = audio || new Ctx();
    if (audio.state === 'suspended') audio.resume();
    let t = audio.currentTime + 0.01;
    for (const [freq, dur] of SOUNDS[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + dur);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + dur + 0.02);
      t += dur + 0.02;
    }
  } catch { /* no audio: the page plays on silently */ }
}
