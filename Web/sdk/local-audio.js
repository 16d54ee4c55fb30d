// The stream MicCheckClient listens to, and who owns it: an app's own stream (never stopped by MicCheck; when
// it ends, the app gives another), or a microphone the client opened (the chosen one, the default when it is
// gone or unplugged, and said so). Its audio goes to the capture (capture.js).
import { audioConstraints, DeviceOpener, requireAudio, stopTracks } from './microphone.js';

export class LocalAudio {
  #owns = false;
  #opener = new DeviceOpener();
  #closed = false;

  /**
   * @param {{deviceId: string, processing: boolean}} choice the microphone to open
   * @param {{start(stream: MediaStream): Promise<void>, stop(): void, close(): void}} capture
   * @param {(type: string, detail: object) => void} emit the client's events
   * @param {() => void} changed the stream changed (the client tells the server its devices)
   */
  constructor(choice, capture, emit, changed) {
    this.choice = choice;
    this.capture = capture;
    this.emit = emit;
    this.changed = changed;
    /** @type {MediaStream | null} */
    this.stream = null;
  }

  /** Uses the app's own stream (its first audio track). Throws `no-audio-track` without one. */
  async use(stream) {
    requireAudio(stream);
    this.#release();
    this.#owns = false;
    await this.#listen(stream);
  }

  /** Opens a microphone of the client's own: `deviceId`, or the default (and says so when it falls back). */
  async open(choice = {}) {
    const options = { ...this.choice, ...choice };
    if (this.#closed) return;
    const opened = await this.#opener.open('audio', audioConstraints(options), options.deviceId);
    if (!opened) return;
    this.choice = { ...options, deviceId: opened.fellBack ? '' : options.deviceId };
    if (!opened.stream) {
      this.#release();
      this.capture.stop();
      this.stream = null;
      const state = opened.denied ? 'denied' : opened.missing ? 'missing' : 'unavailable';
      this.emit('permission', { microphone: state, message: opened.error });
      this.changed();
      return;
    }
    if (opened.fellBack) {
      this.emit('devicefallback', { kind: 'audioinput',
        message: 'The microphone you chose before is not connected: using the default one.' });
    }
    this.#release();
    this.#owns = true;
    await this.#listen(opened.stream);
  }

  /**
   * Stops listening for good on this connection's role (one that may not send audio): a microphone the client
   * opened is closed (the browser stops showing it in use); an app's stream is left to the app.
   */
  drop() {
    this.#opener.cancel();
    this.capture.stop();
    this.#release();
    const had = this.stream !== null;
    this.stream = null;
    if (had) this.changed();
  }

  /** Stops a microphone the client opened itself, and the capture. */
  close() {
    this.#closed = true;
    this.#opener.cancel();
    this.capture.close();
    this.#release();
  }

  async #listen(stream) {
    const track = requireAudio(stream);
    this.stream = stream;
    const ended = () => this.#ended(track).catch((e) => this.emit('error', { message: String(e) }));
    track.addEventListener('ended', ended, { once: true });
    await this.capture.start(stream);
    this.emit('streamchange', { stream });
    this.changed();
  }

  // The microphone in use went away (unplugged): the client's own falls back to the default; an app's stream
  // is the app's to replace (`microphoneended`, then setStream).
  async #ended(track) {
    if (!this.stream || this.stream.getAudioTracks()[0] !== track || this.#closed) return;
    const label = track.label || 'in use';
    this.emit('microphoneended', { label });
    if (!this.#owns) {
      this.stream = null;
      this.capture.stop();
      this.changed();
      return;
    }
    await this.open({ deviceId: '' });
    if (this.stream) {
      this.emit('devicefallback', { kind: 'audioinput',
        message: `The microphone ${label} was disconnected: using the default one.` });
    }
  }

  #release() {
    if (this.#owns) stopTracks(this.stream);
  }
}
