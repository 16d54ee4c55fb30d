// Opening the microphone, and the errors of a stream MicCheck cannot use.

/** An error of MicCheck's client, with a `code` a program can test and a sentence to show. */
export class MicCheckError extends Error {
  /**
   * @param {import('./types.js').MicCheckErrorCode} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = 'MicCheckError';
    /** @readonly @type {import('./types.js').MicCheckErrorCode} */
    this.code = code;
  }
}

/**
 * The stream's first audio track, or a clear error.
 * @param {MediaStream | null | undefined} stream
 * @returns {MediaStreamTrack}
 */
export function requireAudio(stream) {
  const track = stream && typeof stream.getAudioTracks === 'function' ? stream.getAudioTracks()[0] : null;
  if (!track) {
    throw new MicCheckError('no-audio-track',
      'MicCheck needs a MediaStream with an audio track, and this one has none (was audio left out of getUserMedia?)');
  }
  return track;
}

/** getUserMedia's audio constraints: the browser's processing on unless turned off. */
export const audioConstraints = ({ processing = true } = {}) =>
  ({ echoCancellation: processing, noiseSuppression: processing, autoGainControl: processing });

/**
 * Opens one kind of device ('audio' or 'video') with `constraints`: the chosen `deviceId`, or the default when
 * the chosen one is gone (`fellBack`); a refusal is `denied`, no such device at all `missing`, and a device
 * that cannot be opened (another program holds it, the hardware failed) `unavailable` with the browser's
 * `error`. Never throws.
 * @param {'audio' | 'video'} kind
 * @param {MediaTrackConstraints} constraints
 * @param {string} [deviceId]
 * @param {MediaDevices} [media] for tests: the browser's by default
 * @returns {Promise<import('./types.js').OpenedDevice>}
 */
export async function openDevice(kind, constraints, deviceId = '', media = globalThis.navigator?.mediaDevices) {
  const none = { stream: null, fellBack: false, denied: false, missing: false, unavailable: false, error: '' };
  if (!media) return { ...none, missing: true };
  try {
    const wanted = deviceId ? { ...constraints, deviceId: { exact: deviceId } } : constraints;
    return { ...none, stream: await media.getUserMedia({ [kind]: wanted }) };
  } catch (error) {
    if ((error.name === 'NotFoundError' || error.name === 'OverconstrainedError') && deviceId) {
      return { ...(await openDevice(kind, constraints, '', media)), fellBack: true };
    }
    if (error.name === 'NotAllowedError' || error.name === 'SecurityError') return { ...none, denied: true };
    if (error.name === 'NotFoundError') return { ...none, missing: true };
    return { ...none, unavailable: true, error: `${error.name}: ${error.message}` };
  }
}

/**
 * Stops every track of a stream (null: nothing).
 * @param {MediaStream | null | undefined} stream
 */
export function stopTracks(stream) {
  for (const t of stream?.getTracks() ?? []) t.stop();
}

/**
 * Opens devices one choice at a time: an open that a later one overtakes (the user picked again before the
 * browser answered), or that `cancel()` ends, stops what it opened and resolves to null; the latest wins.
 */
export class DeviceOpener {
  #ticket = 0;

  /**
   * `openDevice`'s answer, or null when overtaken or cancelled.
   * @param {'audio' | 'video'} kind
   * @param {MediaTrackConstraints} constraints
   * @param {string} [deviceId]
   * @returns {Promise<import('./types.js').OpenedDevice | null>}
   */
  async open(kind, constraints, deviceId = '') {
    const ticket = ++this.#ticket;
    const opened = await openDevice(kind, constraints, deviceId);
    if (ticket === this.#ticket) return opened;
    stopTracks(opened.stream);
    return null;
  }

  /** Whatever is opening now is let go when it opens. */
  cancel() { this.#ticket += 1; }
}

/**
 * Opens a microphone (`deviceId`, or the default), with the browser's processing unless `processing` is false.
 * @type {(options?: {deviceId?: string, processing?: boolean}, media?: MediaDevices)
 *   => Promise<import('./types.js').OpenedDevice>}
 */
export const openMicrophone = ({ deviceId = '', processing = true } = {}, media = undefined) =>
  openDevice('audio', audioConstraints({ processing }), deviceId, media);

// The notes on capture while muted are the components' sentences (components/texts.js); said here too, where
// apps have always imported them.
export { CAPTURE_NOTE, CAPTURE_NOTE_SERVER } from './components/texts.js';
