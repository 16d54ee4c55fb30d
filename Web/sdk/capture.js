// The microphone's audio through an AudioWorklet: to the server as 20 ms blocks of 16 kHz 16-bit PCM
// (PcmCapture, pcm-worklet.js), or into MicCheck's own analysis in the page (DeviceCapture,
// analysis-worklet.js). One AudioContext for the life of a capture; a new stream (another microphone) only
// replaces the source.

/** What both captures share: the context, the worklet's node (kept playing into a silent sink), the source. */
class WorkletCapture {
  #module;
  #processor;

  /** @param {string} module the worklet's file, beside this one; @param {string} processor its name */
  constructor(module, processor) {
    this.#module = module;
    this.#processor = processor;
    this.context = null;
    this.node = null;
    this.source = null;
    this.ready = null;
  }

  async #setUp() {
    const context = new AudioContext();
    await context.audioWorklet.addModule(new URL(this.#module, import.meta.url));
    const node = new AudioWorkletNode(context, this.#processor, this.nodeOptions());
    node.port.onmessage = (e) => this.received(e.data);
    // The worklet needs a path to the output to run; it writes nothing to it.
    const sink = context.createGain();
    sink.gain.value = 0;
    node.connect(sink).connect(context.destination);
    this.context = context;
    this.node = node;
    this.running();
  }

  /** The AudioWorkletNode's options (a subclass's processorOptions). */
  nodeOptions() { return {}; }

  /** A message from the worklet. */
  received() {}

  /** The worklet runs (a subclass sends what it kept for it). */
  running() {}

  /** The source changed or went: a subclass's worklet may start afresh. */
  sourceChanged() {}

  /** Captures `stream`'s audio from now on (the previous stream's source is let go). */
  async start(stream) {
    this.ready = this.ready || this.#setUp();
    await this.ready;
    if (this.source) {
      this.source.disconnect();
      this.sourceChanged();
    }
    this.source = this.context.createMediaStreamSource(new MediaStream(stream.getAudioTracks()));
    this.source.connect(this.node);
    this.resume();
  }

  /** Stops until the next start (the stream has no audio any more). */
  stop() {
    if (this.source) this.source.disconnect();
    this.source = null;
    if (this.node) this.sourceChanged();
  }

  /** An AudioContext made before a click may start suspended: call from a user's gesture. */
  resume() {
    if (this.context && this.context.state === 'suspended') this.context.resume().catch(() => {});
  }

  close() {
    this.stop();
    if (this.context) this.context.close().catch(() => {});
    this.context = null;
    this.ready = null;
  }
}

/** The microphone to the server: 20 ms blocks of 16 kHz 16-bit PCM, handed to `onBlock` as ArrayBuffers. */
export class PcmCapture extends WorkletCapture {
  /** @param {((block: ArrayBuffer) => void) | null} onBlock (the client sets it) */
  constructor(onBlock) {
    super('./pcm-worklet.js', 'miccheck-pcm');
    this.onBlock = onBlock;
  }

  received(block) { this.onBlock(block); }
}

/**
 * The microphone decided on the device: the analysis worklet (analysis-worklet.js) runs MicCheck's kernel
 * (miccheck.wasm) at the AudioContext's own rate. `onMessages(texts, speaking)` gets the kernel's messages (the
 * same JSON texts `miccheck serve` sends when it analyses) and whether the participant speaks; `onBlock` gets a
 * microphone test's 16 kHz PCM for its playback. Nothing is sent anywhere by this class.
 */
export class DeviceCapture extends WorkletCapture {
  /**
   * @param {WebAssembly.Module} module the compiled miccheck.wasm
   * @param {{ onMessages?: (texts: string[], speaking: boolean) => void,
   *   onBlock?: (block: ArrayBuffer) => void }} sinks
   */
  constructor(module, { onMessages = null, onBlock = null } = {}) {
    super('./analysis-worklet.js', 'miccheck-analysis');
    this.module = module;
    this.onMessages = onMessages;
    this.onBlock = onBlock;
    this.state = { audioOn: true, maySendAudio: true };
    this.pending = [];
    this.decoder = new TextDecoder();
  }

  nodeOptions() { return { processorOptions: { module: this.module, ...this.state } }; }

  received(data) {
    if (data.pcm) {
      if (this.onBlock) this.onBlock(data.pcm);
      return;
    }
    const texts = data.messages ? this.decoder.decode(data.messages).split('\n').filter((line) => line) : [];
    this.onMessages(texts, data.speaking);
  }

  running() {
    for (const m of this.pending) this.node.port.postMessage(m);
    this.pending = [];
  }

  // A new track (or none): the kernel starts afresh, so no stale speaking state remains.
  sourceChanged() { this.node.port.postMessage({ type: 'reset' }); }

  /** A command for the kernel (see analysis-worklet.js); kept until the worklet runs. */
  command(message) {
    if (message.type === 'devices') this.state.audioOn = !!message.on;
    if (this.node) this.node.port.postMessage(message);
    else this.pending.push(message);
  }
}

// The client's capture before it knows where the analysis runs: the kernel's DeviceCapture, or the server's
// PcmCapture once the kernel could not load. Each call goes to the capture chosen (a start waits for it).
export class SwitchedCapture {
  #inner = null;
  #chosen;
  #choose;

  constructor() {
    this.onBlock = null;
    this.#chosen = new Promise((resolve) => { this.#choose = resolve; });
  }

  use(capture) {
    if (this.#inner) return;
    this.#inner = capture;
    if (capture instanceof PcmCapture) capture.onBlock = (block) => this.onBlock(block);
    this.#choose(capture);
  }

  async start(stream) { return (await this.#chosen).start(stream); }
  stop() { this.#inner?.stop(); }
  resume() { this.#inner?.resume(); }
  close() { this.#inner?.close(); }
}
