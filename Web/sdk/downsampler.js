// The arithmetic of the capture: any input rate (a fixed 16 kHz AudioContext fails in Firefox) to 20 ms
// blocks of 16 kHz mono 16-bit PCM. A windowed-sinc low-pass below 8 kHz (63 taps, Blackman), then
// resampling by linear interpolation between the filtered samples. Pure: the AudioWorklet runs it, and
// node's test runner checks it.

export const OUT_RATE = 16000;
export const BLOCK = 320; // 20 ms at 16 kHz

/** The low-pass filter's taps for input at `rate`, normalised to a gain of 1 at DC. */
export function lowPass(rate, taps = 63, cutoffHz = 7600) {
  const cutoff = cutoffHz / rate, mid = (taps - 1) / 2, h = new Float32Array(taps);
  let sum = 0;
  for (let i = 0; i < taps; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const w = 0.42 - 0.5 * Math.cos(2 * Math.PI * i / (taps - 1)) + 0.08 * Math.cos(4 * Math.PI * i / (taps - 1));
    h[i] = sinc * w;
    sum += h[i];
  }
  for (let i = 0; i < taps; i++) h[i] /= sum;
  return h;
}

/** A float sample (−1…1) as a 16-bit one, clamped. */
export const toInt16 = (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767)));

export class Downsampler {
  /** @param {number} rate the input's samples per second; `onBlock` gets each full Int16Array of BLOCK samples */
  constructor(rate, onBlock) {
    if (!(rate >= 8000)) throw new RangeError(`the input rate must be at least 8000 Hz, not ${rate}`);
    this.step = rate / OUT_RATE;
    this.filter = this.step > 1 ? lowPass(rate) : new Float32Array([1]);
    this.history = new Float32Array(this.filter.length);
    this.at = 0; // write position in the history ring
    this.pos = 0; // input position of the next output sample, relative to the last input sample
    this.prev = 0; // the previous filtered sample
    this.out = new Int16Array(BLOCK);
    this.count = 0;
    this.onBlock = onBlock;
  }

  filtered(x) {
    const n = this.history.length;
    this.history[this.at] = x;
    this.at = (this.at + 1) % n;
    let y = 0;
    for (let i = 0; i < n; i++) y += this.filter[i] * this.history[(this.at + i) % n];
    return y;
  }

  /** Takes one render quantum: an array of channels (Float32Array each, the same length), mixed to mono. */
  push(channels) {
    if (!channels || channels.length === 0) return;
    const n = channels.length, frames = channels[0].length;
    for (let i = 0; i < frames; i++) {
      let x = 0;
      for (let c = 0; c < n; c++) x += channels[c][i];
      const y = this.filtered(x / n);
      // Output the samples that fall between the previous filtered sample and this one.
      while (this.pos <= 1) {
        this.out[this.count++] = toInt16(this.prev + (y - this.prev) * this.pos);
        if (this.count === BLOCK) {
          this.onBlock(this.out);
          this.out = new Int16Array(BLOCK);
          this.count = 0;
        }
        this.pos += this.step;
      }
      this.pos -= 1;
      this.prev = y;
    }
  }
}
