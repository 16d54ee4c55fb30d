// Runs at the AudioContext's own rate (a fixed 16 kHz context fails in Firefox) and hands the main thread
// 20 ms blocks of 16 kHz mono 16-bit PCM: a windowed-sinc low-pass below 8 kHz, then resampling by linear
// interpolation between the filtered samples.
const OUT_RATE = 16000;
const BLOCK = 320; // 20 ms at 16 kHz

function lowPass(rate) {
  const taps = 63, cutoff = 7600 / rate, mid = (taps - 1) / 2, h = new Float32Array(taps);
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

class PCMDownsampler extends AudioWorkletProcessor {
  constructor() {
    super();
    this.step = sampleRate / OUT_RATE;
    this.filter = this.step > 1 ? lowPass(sampleRate) : new Float32Array([1]);
    this.history = new Float32Array(this.filter.length);
    this.at = 0;          // write position in the history ring
    this.pos = 0;         // input position of the next output sample, relative to the last input sample
    this.prev = 0;        // the previous filtered sample
    this.out = new Int16Array(BLOCK);
    this.count = 0;
  }

  filtered(x) {
    const n = this.history.length;
    this.history[this.at] = x;
    this.at = (this.at + 1) % n;
    let y = 0;
    for (let i = 0; i < n; i++) y += this.filter[i] * this.history[(this.at + i) % n];
    return y;
  }

  process(inputs) {
    const input = inputs[0];
    if (!input || input.length === 0) return true;
    const channels = input.length, frames = input[0].length;
    for (let i = 0; i < frames; i++) {
      let x = 0;
      for (let c = 0; c < channels; c++) x += input[c][i];
      const y = this.filtered(x / channels);
      // Output samples that fall between the previous filtered sample and this one.
      while (this.pos <= 1) {
        const v = this.prev + (y - this.prev) * this.pos;
        this.out[this.count++] = Math.max(-32768, Math.min(32767, Math.round(v * 32767)));
        if (this.count === BLOCK) {
          this.port.postMessage(this.out.buffer, [this.out.buffer]);
          this.out = new Int16Array(BLOCK);
          this.count = 0;
        }
        this.pos += this.step;
      }
      this.pos -= 1;
      this.prev = y;
    }
    return true;
  }
}

registerProcessor('pcm-downsampler', PCMDownsampler);
