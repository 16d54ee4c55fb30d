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
