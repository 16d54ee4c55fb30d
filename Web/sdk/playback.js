// Playing a recording back through the output the app chose: an AudioContext made at once (from the user's
// click, so that it may start), routed to the chosen output by `AudioContext.setSinkId`, or through an
// <audio> element's `setSinkId` where only that exists (Firefox); the default output where neither does, or
// where the chosen one cannot be used. The recording is 16-bit PCM, played from an AudioBuffer at its own rate.

// A context that never runs (no gesture) or an `ended` that never comes ends the playback this long after
// the recording's length.
const SLACK_MS = 1500;

export class PcmPlayer {
  /** @param {{sinkId?: string}} options the output's device id ('' or 'default': the default output) */
  constructor({ sinkId = '' } = {}) {
    this.context = new AudioContext();
    this.context.resume().catch(() => {});
    this.output = this.context.destination;
    this.audio = null;
    this.source = null;
    this.ended = null;
    this.closed = false;
    this.ready = this.#route(sinkId);
  }

  async #route(sinkId) {
    if (!sinkId || sinkId === 'default') return;
    try {
      if (typeof this.context.setSinkId === 'function') {
        await this.context.setSinkId(sinkId);
      } else if (typeof globalThis.HTMLMediaElement?.prototype.setSinkId === 'function') {
        const stream = this.context.createMediaStreamDestination();
        const audio = new Audio();
        audio.srcObject = stream.stream;
        await audio.setSinkId(sinkId);
        this.audio = audio;
        this.output = stream;
      }
    } catch {
      // The chosen output is gone or not allowed: the default one plays it.
    }
  }

  /**
   * Plays `samples` (16-bit PCM, mono) at `sampleRate`; resolves when they have played or `stop()` was called.
   * @param {Int16Array} samples
   */
  async play(samples, sampleRate = 16000) {
    await this.ready;
    if (this.closed || samples.length === 0) return;
    const buffer = this.context.createBuffer(1, samples.length, sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < samples.length; i++) data[i] = samples[i] / 32768;
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.output);
    this.source = source;
    if (this.audio) await this.audio.play().catch(() => {});
    await this.context.resume().catch(() => {});
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, buffer.duration * 1000 + SLACK_MS);
      this.ended = () => {
        clearTimeout(timer);
        resolve();
      };
      source.onended = this.ended;
      source.start();
    });
    this.source = null;
    this.ended = null;
  }

  /** Stops what plays (its `play()` resolves). */
  stop() {
    const { source, ended } = this;
    if (!source) return;
    try { source.stop(); } catch { /* not started yet */ }
    if (ended) ended();
  }

  /** Stops, and lets the context and the output go. */
  close() {
    this.stop();
    this.closed = true;
    this.context.close().catch(() => {});
    if (this.audio) {
      this.audio.pause();
      this.audio.srcObject = null;
    }
  }
}
