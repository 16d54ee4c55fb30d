// MicCheck's analysis kernel in the page: the Swift analysis (Sources/MicCheckKernel) compiled with Embedded
// Swift to WebAssembly (miccheck.wasm, scripts/build-wasm.sh), so that the level, speaking and the microphone's
// health are decided on the device. Nothing here analyses: this file moves samples into the module and records
// out of it. The module imports nothing; the AudioWorklet and node's test runner use it alike.
//
//   const module = await compileKernel(fetch('/sdk/miccheck.wasm'));
//   const analysis = new KernelAnalysis(module, 48000);
//   for (const r of analysis.process(samples)) …   // frames and events, in time order
//
// A frame: { type: 'frame', t, level_db, peak_db, prob, speech, speaking }, every 10 ms. An event: the record
// `miccheck analyze --format jsonl` prints for it ({ event: 'speech_started', t, audio_start }, …) with
// type: 'event'.

/** The most samples one `process` call hands the module at a time (longer blocks are cut). */
export const KERNEL_BLOCK = 4096;
const STRIDE = 8; // Float64 values a record
// An AudioWorklet's scope has no TextDecoder: there the bytes go to the main thread undecoded.
const decoder = typeof TextDecoder === 'function' ? new TextDecoder() : null;

/**
 * Compiles miccheck.wasm from a Response (or its promise), an ArrayBuffer or typed array, or returns a Module as
 * it is. Throws a TypeError naming what went wrong (a 404, a content policy without 'wasm-unsafe-eval').
 */
export async function compileKernel(source) {
  const s = await source;
  if (s instanceof WebAssembly.Module) return s;
  if (s && typeof s.arrayBuffer === 'function') {
    if (s.ok === false) throw new TypeError(`miccheck.wasm could not be loaded: HTTP ${s.status}`);
    return WebAssembly.compile(await s.arrayBuffer());
  }
  if (s instanceof ArrayBuffer || ArrayBuffer.isView(s)) return WebAssembly.compile(s);
  throw new TypeError('compileKernel takes a Response, bytes or a WebAssembly.Module');
}

/** One stream's analysis: mono samples (−1…1) at `sampleRate` in, records out. */
export class KernelAnalysis {
  /**
   * @param {WebAssembly.Module} module the compiled miccheck.wasm
   * @param {number} sampleRate samples a second, 8000 to 96000
   */
  constructor(module, sampleRate) {
    this.instance = new WebAssembly.Instance(module, {});
    this.k = this.instance.exports;
    this.sampleRate = sampleRate;
    this.handle = this.k.miccheck_create(sampleRate, KERNEL_BLOCK);
    if (!this.handle) throw new RangeError(`the analysis does not take ${sampleRate} Hz audio`);
  }

  /** Analyses `samples` (a Float32Array); returns the records they decided, in time order. */
  process(samples) {
    const out = [];
    for (let at = 0; at < samples.length; at += KERNEL_BLOCK) {
      const part = samples.subarray(at, Math.min(samples.length, at + KERNEL_BLOCK));
      const input = this.k.miccheck_input(this.#live());
      new Float32Array(this.k.memory.buffer, input, part.length).set(part);
      this.#read(this.k.miccheck_process(this.handle, part.length), out);
    }
    return out;
  }

  /** Ends the stream (an utterance in progress ends); returns the last records. The analysis is closed after. */
  finish() {
    const out = [];
    this.#read(this.k.miccheck_finish(this.#live()), out);
    this.close();
    return out;
  }

  /** Frees the module's memory for this analysis; further calls throw. */
  close() {
    if (this.handle) this.k.miccheck_destroy(this.handle);
    this.handle = 0;
  }

  #live() {
    if (!this.handle) throw new Error('this analysis is closed');
    return this.handle;
  }

  #read(count, out) {
    if (count === 0) return;
    const memory = this.k.memory.buffer;
    const r = new Float64Array(memory, this.k.miccheck_records(this.handle), count * STRIDE);
    let text = null;
    for (let i = 0; i < count; i++) {
      const o = i * STRIDE;
      if (r[o] === 0) {
        out.push({ type: 'frame', t: r[o + 1], level_db: r[o + 2], peak_db: r[o + 3], prob: r[o + 4],
          speech: r[o + 5] === 1, speaking: r[o + 6] === 1 });
      } else {
        text ??= new Uint8Array(memory, this.k.miccheck_text(this.handle));
        const line = decoder.decode(text.subarray(r[o + 6], r[o + 6] + r[o + 7]));
        out.push({ type: 'event', ...JSON.parse(line) });
      }
    }
  }
}

const CAUSE_CODES = { self: 0, 'push-to-talk': 1, host: 2 };

/**
 * One participant's microphone, decided on the device: the analysis, the call's rules (the meter, speaking,
 * "You are muted.", "Your typing can be heard.", "not working", the warnings) and "Test your microphone", in
 * the kernel (Swift's MicrophoneChannel). Each call returns the messages it made, as UTF-8 bytes of JSON texts,
 * one a line (`microphone`, `muted_notice`, `typing_notice`, `microphone_test`: byte for byte what
 * `miccheck serve` says when it analyses), or null. Bytes, not strings: an AudioWorklet has no TextDecoder;
 * `KernelMicrophone.texts(bytes)` decodes them where there is one.
 */
export class KernelMicrophone {
  /**
   * @param {WebAssembly.Module} module the compiled miccheck.wasm
   * @param {number} sampleRate the capture's own rate, 8000 to 96000: levels and clipping are judged on it
   * @param {{ audioOn?: boolean, maySendAudio?: boolean, now?: number }} [state]
   */
  constructor(module, sampleRate, { audioOn = true, maySendAudio = true, now = 0 } = {}) {
    this.k = new WebAssembly.Instance(module, {}).exports;
    this.handle = this.k.miccheck_channel_create(sampleRate, KERNEL_BLOCK, audioOn ? 1 : 0, maySendAudio ? 1 : 0, now);
    if (!this.handle) throw new RangeError(`the analysis does not take ${sampleRate} Hz audio`);
  }

  /**
   * Where to write a block of up to KERNEL_BLOCK samples for `audioWritten`: a view of the kernel's own input
   * buffer, made again only when the module's memory grows (a worklet writes its block here, with no copy and no
   * allocation per block).
   */
  inputView() {
    const buffer = this.k.memory.buffer;
    if (this.view?.buffer !== buffer) {
      this.view = new Float32Array(buffer, this.k.miccheck_channel_input(this.#live()), KERNEL_BLOCK);
    }
    return this.view;
  }

  /** The first `count` samples of `inputView()` (written there), at `now` seconds. */
  audioWritten(count, now) { return this.#bytes(this.k.miccheck_channel_audio(this.#live(), count, now)); }

  /** A block of the microphone (a Float32Array, −1…1) at `now` seconds. */
  audio(samples, now) {
    let out = null;
    for (let at = 0; at < samples.length; at += KERNEL_BLOCK) {
      const part = samples.subarray(at, Math.min(samples.length, at + KERNEL_BLOCK));
      new Float32Array(this.k.memory.buffer, this.k.miccheck_channel_input(this.#live()), part.length).set(part);
      out = join(out, this.#bytes(this.k.miccheck_channel_audio(this.handle, part.length, now)));
    }
    return out;
  }

  /** The microphone's toggle; `cause` of a mute: `self`, `push-to-talk` or `host`. */
  setMicrophone(on, cause, now) {
    return this.#bytes(this.k.miccheck_channel_set_microphone(this.#live(), on ? 1 : 0, CAUSE_CODES[cause] ?? 0, now));
  }

  /** The participant joined the call (true) or is in the lobby. */
  enter(inCall) { return this.#bytes(this.k.miccheck_channel_enter(this.#live(), inCall ? 1 : 0)); }

  /** "Don't show again for this call." */
  silenceMutedNotice() { return this.#bytes(this.k.miccheck_channel_silence_muted_notice(this.#live())); }

  /** The clock moved (every 250 ms or so) without audio. */
  tick(now) { return this.#bytes(this.k.miccheck_channel_tick(this.#live(), now)); }

  /** "Test your microphone" for `seconds` (1 to 10); a refusal is a `microphone_test` message, `refused`. */
  startTest(seconds, now) { return this.#bytes(this.k.miccheck_channel_test_start(this.#live(), seconds, now)); }

  cancelTest() { return this.#bytes(this.k.miccheck_channel_test_cancel(this.#live())); }

  /** Whether the participant speaks now. */
  get speaking() { return this.k.miccheck_channel_speaking(this.#live()) === 1; }

  /** Whether a microphone test records now (it has not ended: done or cancelled). */
  get testing() { return this.k.miccheck_channel_testing(this.#live()) === 1; }

  close() {
    if (this.handle) this.k.miccheck_channel_destroy(this.handle);
    this.handle = 0;
  }

  /** The JSON texts of messages' bytes. */
  static texts(bytes) {
    return bytes ? decoder.decode(bytes).split('\n').filter((line) => line) : [];
  }

  #live() {
    if (!this.handle) throw new Error('this microphone is closed');
    return this.handle;
  }

  #bytes(length) {
    if (!length) return null;
    return new Uint8Array(this.k.memory.buffer, this.k.miccheck_channel_messages(this.handle), length).slice();
  }
}

function join(a, b) {
  if (!a) return b;
  if (!b) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
