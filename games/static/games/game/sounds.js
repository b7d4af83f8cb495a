/**
 * Optional sounds: short WebAudio beeps (no files to download), off by default. The
 * choice is remembered in localStorage. The AudioContext is created on the first click
 * of the toggle, since browsers only allow audio after a user gesture.
 */

const KEY = "spectacular-bid:sounds";

const TONES = {
  turn: [[660, 0.09], [880, 0.12]],
  low: [[520, 0.06]],
  error: [[220, 0.16]],
};

export class Sounds {
  /** @param {HTMLButtonElement|null} toggle */
  constructor(toggle) {
    this.toggle = toggle;
    this.ctx = null;
    let stored = null;
    try {
      stored = localStorage.getItem(KEY);
    } catch {
      stored = null;
    }
    this.on = stored === "on";
    this.render();
    toggle?.addEventListener("click", () => {
      this.on = !this.on;
      try {
        localStorage.setItem(KEY, this.on ? "on" : "off");
      } catch {
        // Private mode: the choice lasts for this page only.
      }
      this.render();
      if (this.on) this.play("turn");
    });
  }

  render() {
    if (!this.toggle) return;
    this.toggle.setAttribute("aria-pressed", String(this.on));
    this.toggle.textContent = this.on ? gettext("Sound: on") : gettext("Sound: off");
  }

  play(name) {
    if (!this.on) return;
    const AudioCtx = window.AudioContext || window.webkitAudioContext;
    if (!AudioCtx) return;
    this.ctx ||= new AudioCtx();
    let t = this.ctx.currentTime;
    for (const [freq, dur] of TONES[name] || []) {
      const osc = this.ctx.createOscillator();
      const gain = this.ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.15, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + dur);
      osc.connect(gain).connect(this.ctx.destination);
      osc.start(t);
      osc.stop(t + dur + 0.02);
      t += dur + 0.03;
    }
  }
}
