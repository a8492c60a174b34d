// tone.js: the alert tone of a watch started with /beep, generated with
// Web Audio (no sound file). Chrome plays it in the offscreen document
// (pdf/offscreen.js), Firefox in its background page (jsglue/host.js).

// Each tone is a few sine notes: frequency in Hz, length in seconds.
const TONES = {
  default: [
    { hz: 880, s: 0.22 },
    { hz: 660, s: 0.3 },
  ],
  short: [{ hz: 880, s: 0.15 }],
  long: [
    { hz: 880, s: 0.35 },
    { hz: 660, s: 0.35 },
    { hz: 880, s: 0.35 },
    { hz: 660, s: 0.6 },
  ],
};

const GAP = 0.08; // seconds of silence between notes
const RESUME_WAIT_MS = 2000; // a context the browser keeps suspended stays so

// playTone plays tone ("default", "short" or "long") and resolves once its
// last note ended, to {tone, notes, seconds, state}; it rejects when the
// browser keeps the audio context suspended (no sound could be heard).
export async function playTone(tone) {
  const name = Object.hasOwn(TONES, tone) ? tone : "default";
  const notes = TONES[name];
  const ctx = new AudioContext();
  try {
    // Firefox creates a context suspended and runs it once sources are
    // scheduled; Chrome may need resume(). Either way it must run soon, or
    // the browser keeps the sound off and nothing is heard.
    let at = ctx.currentTime + 0.05;
    const start = at;
    let last = null;
    for (const n of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = n.hz;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.3, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + n.s);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + n.s);
      at += n.s + GAP;
      last = osc;
    }
    const ended = new Promise((resolve) => {
      last.onended = resolve;
    });
    if (ctx.state !== "running") {
      ctx.resume().catch(() => {});
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, RESUME_WAIT_MS);
        ctx.onstatechange = () => {
          if (ctx.state === "running") {
            clearTimeout(timer);
            resolve();
          }
        };
      });
    }
    if (ctx.state !== "running") throw new Error(`the browser kept the sound off (audio ${ctx.state})`);
    const seconds = at - GAP - start;
    // onended is the rule; the timer only bounds the wait.
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, (seconds + 1) * 1000))]);
    return { tone: name, notes: notes.length, seconds: Math.round(seconds * 100) / 100, state: ctx.state };
  } finally {
    ctx.close().catch(() => {});
  }
}
