/**
 * The stream's first audio track, or a clear error.
 * @param {MediaStream | null | undefined} stream
 * @returns {MediaStreamTrack}
 */
export function requireAudio(stream: MediaStream | null | undefined): MediaStreamTrack;
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
export function openDevice(kind: 'audio' | 'video', constraints: MediaTrackConstraints, deviceId?: string | undefined, media?: MediaDevices | undefined): Promise<import('./types.js').OpenedDevice>;
/**
 * Stops every track of a stream (null: nothing).
 * @param {MediaStream | null | undefined} stream
 */
export function stopTracks(stream: MediaStream | null | undefined): void;
/** An error of MicCheck's client, with a `code` a program can test and a sentence to show. */
export class MicCheckError extends Error {
    /**
     * @param {import('./types.js').MicCheckErrorCode} code
     * @param {string} message
     */
    constructor(code: import('./types.js').MicCheckErrorCode, message: string);
    /** @readonly @type {import('./types.js').MicCheckErrorCode} */
    readonly code: import('./types.js').MicCheckErrorCode;
}
export function audioConstraints({ processing }?: {
    processing?: boolean | undefined;
}): {
    echoCancellation: boolean;
    noiseSuppression: boolean;
    autoGainControl: boolean;
};
/**
 * Opens devices one choice at a time: an open that a later one overtakes (the user picked again before the
 * browser answered), or that `cancel()` ends, stops what it opened and resolves to null; the latest wins.
 */
export class DeviceOpener {
    /**
     * `openDevice`'s answer, or null when overtaken or cancelled.
     * @param {'audio' | 'video'} kind
     * @param {MediaTrackConstraints} constraints
     * @param {string} [deviceId]
     * @returns {Promise<import('./types.js').OpenedDevice | null>}
     */
    open(kind: 'audio' | 'video', constraints: MediaTrackConstraints, deviceId?: string | undefined): Promise<import('./types.js').OpenedDevice | null>;
    /** Whatever is opening now is let go when it opens. */
    cancel(): void;
    #private;
}
/**
 * Opens a microphone (`deviceId`, or the default), with the browser's processing unless `processing` is false.
 * @type {(options?: {deviceId?: string, processing?: boolean}, media?: MediaDevices)
 *   => Promise<import('./types.js').OpenedDevice>}
 */
export const openMicrophone: (options?: {
    deviceId?: string;
    processing?: boolean;
}, media?: MediaDevices) => Promise<import('./types.js').OpenedDevice>;
export { CAPTURE_NOTE, CAPTURE_NOTE_SERVER } from "./components/texts.js";
