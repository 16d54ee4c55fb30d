// The microphone's audio to the server: a MediaStream's audio through an AudioWorklet (pcm-worklet.js) into
// 20 ms blocks of 16 kHz 16-bit PCM, handed to `onBlock` as ArrayBuffers. One AudioContext for the life of
// the capture; a new stream (another microphone) only replaces the source.

export class PcmCapture {
  /** @param {((block: ArrayBuffer) => void) | null} onBlock (the client sets it) */
  constructor(onBlock) {
    this.onBlock = onBlock;
    this.context = null;
    this.node = null;
    this.source = null;
    this.ready = null;
  }

  async #setUp() {
    const context = new AudioContext();
    await context.audioWorklet.addModule(new URL('./pcm-worklet.js', import.meta.url));
    const node = new AudioWorkletNode(context, 'miccheck-pcm');
    node.port.onmessage = (e) => this.onBlock(e.data);
    // The worklet needs a path to the output to run; it writes nothing to it.
    const sink = context.createGain();
    sink.gain.value = 0;
    node.connect(sink).connect(context.destination);
    this.context = context;
    this.node = node;
  }

  /** Captures `stream`'s audio from now on (the previous stream's source is let go). */
  async start(stream) {
    this.ready = this.ready || this.#setUp();
    await this.ready;
    if (this.source) this.source.disconnect();
    this.source = this.context.createMediaStreamSource(new MediaStream(stream.getAudioTracks()));
    this.source.connect(this.node);
    this.resume();
  }

  /** Stops sending blocks until the next start (the stream has no audio any more). */
  stop() {
    if (this.source) this.source.disconnect();
    this.source = null;
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

/**
 * The microphone decided on the device: the analysis worklet (analysis-worklet.js) runs MicCheck's kernel
 * (miccheck.wasm) at the AudioContext's own rate. `onMessages(texts, speaking)` gets the kernel's messages (the
 * same JSON texts `miccheck serve` sends when it analyses) and whether the participant speaks; `onBlock` gets a
 * microphone test's 16 kHz PCM for its playback. Nothing is sent anywhere by this class.
 */
export class DeviceCapture {
  /**
   * @param {WebAssembly.Module} module the compiled miccheck.wasm
   * @param {{ onMessages: (texts: string[], speaking: boolean) => void, onBlock?: (block: ArrayBuffer) => void }} sinks
   */
  constructor(module, { onMessages, onBlock = null }) {
    this.module = module;
    this.onMessages = onMessages;
    this.onBlock = onBlock;
    this.context = null;
    this.node = null;
    this.source = null;
    this.ready = null;
    this.state = { audioOn: true, maySendAudio: true };
    this.decoder = new TextDecoder();
  }

  async #setUp() {
    const context = new AudioContext();
    await context.audioWorklet.addModule(new URL('./analysis-worklet.js', import.meta.url));
    const node = new AudioWorkletNode(context, 'miccheck-analysis', {
      processorOptions: { module: this.module, ...this.state } });
    node.port.onmessage = (e) => {
      if (e.data.pcm) {
        if (this.onBlock) this.onBlock(e.data.pcm);
        return;
      }
      const texts = e.data.messages
        ? this.decoder.decode(e.data.messages).split('\n').filter((line) => line) : [];
      this.onMessages(texts, e.data.speaking);
    };
    const sink = context.createGain();
    sink.gain.value = 0;
    node.connect(sink).connect(context.destination);
    this.context = context;
    this.node = node;
    for (const m of this.pending || []) node.port.postMessage(m);
    this.pending = null;
  }

  /** A command for the kernel (see analysis-worklet.js); kept until the worklet runs. */
  command(message) {
    if (message.type === 'devices') this.state.audioOn = !!message.on;
    if (this.node) this.node.port.postMessage(message);
    else (this.pending ||= []).push(message);
  }

  /** Analyses `stream`'s audio from now on; a new track starts the kernel afresh. */
  async start(stream) {
    this.ready = this.ready || this.#setUp();
    await this.ready;
    if (this.source) {
      this.source.disconnect();
      this.node.port.postMessage({ type: 'reset' });
    }
    this.source = this.context.createMediaStreamSource(new MediaStream(stream.getAudioTracks()));
    this.source.connect(this.node);
    this.resume();
  }

  /** The stream has no audio any more: nothing is analysed until the next start, and speaking ends. */
  stop() {
    if (this.source) this.source.disconnect();
    this.source = null;
    if (this.node) this.node.port.postMessage({ type: 'reset' });
  }

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
