// MicCheck in the browser: the public surface of the client and the components (served by `miccheck serve`
// at /sdk/; plain ES modules, no dependency). Guides/Browser.md, "Use it in your own app", shows them at work.

// ---- The client -------------------------------------------------------------------------------------------

export type MuteCause = 'self' | 'host' | 'push-to-talk';
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'refused' | 'closed';

export interface MicCheckClientOptions {
  /** The server's address, `https://host:port`. Default: the origin this module was loaded from. */
  server?: string | URL;
  /** The call's id (1 to 64 letters, digits, `-`, `_`): connects to `/v1/call`. Without one, `/v1/vad`. */
  call?: string;
  /** `call` (presence, the muted notice, the microphone check) or `vad` (speech events only). */
  endpoint?: 'call' | 'vad';
  /** An invitation's join token (`miccheck token`), sent with the connection. */
  token?: string;
  /**
   * The app's own stream (its call SDK's local track, for instance). MicCheck listens to its first audio
   * track and never stops it. Without one, the client opens the microphone itself (and falls back to the
   * default one when the chosen one is gone or unplugged).
   */
  stream?: MediaStream;
  /** The microphone the client opens: a device id, and the browser's processing (on unless false). */
  microphone?: { deviceId?: string; processing?: boolean };
  /** Reconnection: the first wait, the longest and the factor, in milliseconds (1000, 10000, 2). */
  backoff?: { first?: number; max?: number; factor?: number };
}

/** A participant of the call, as presence says. */
export interface Participant {
  id: string;
  name: string;
  /** Their microphone is on (they may be heard). */
  audio: boolean;
  video: boolean;
  /** MicCheck's detector hears them speak (only while their microphone is on). */
  speaking: boolean;
  /** Set by the page for its own participant. */
  self?: boolean;
}

/** The microphone check, about every 100 ms. */
export interface MicrophoneState {
  on: boolean;
  levelDb: number;
  /** The meter, 0…1 (−50…0 dBFS); 0 while off. */
  display: number;
  speaking: boolean;
  /** "Your microphone doesn't seem to be working. …", or null. */
  notWorking: string | null;
  /** The check's other sentences: noisy, clipping, too quiet. */
  warnings: string[];
}

export interface MutedNotice {
  show: boolean;
  text: string;
  durationMs: number;
  cause: MuteCause | null;
  /** What the notice offers: `{label: 'Unmute', key: 'm'}` (call `client.unmute()`), or null when hiding. */
  action: { label: string; key: string } | null;
}

export interface MicCheckClientEventMap {
  /** The connection's state; `message` is the sentence to show (a refusal once, a reconnection's wait). */
  connection: CustomEvent<{ state: ConnectionState; message: string; code?: number; retryInMs?: number; attempt?: number }>;
  welcome: CustomEvent<{ id: string; call: string; capabilities: string[]; name: string | null }>;
  microphone: CustomEvent<MicrophoneState>;
  speaking: CustomEvent<{ speaking: boolean }>;
  mutednotice: CustomEvent<MutedNotice>;
  /** The roster after a snapshot or a change (`change` is the `joined`/`updated`/`left` message, or null). */
  presence: CustomEvent<{ participants: Participant[]; me: string | null; change: object | null }>;
  /** WebRTC signalling from another participant. */
  signal: CustomEvent<{ from: string; data: object }>;
  mutechange: CustomEvent<{ muted: boolean; cause: MuteCause | null }>;
  /** The microphone was refused (`denied`) or there is none (`missing`). */
  permission: CustomEvent<{ microphone: 'denied' | 'missing' }>;
  /** A device fell back to the default: `message` says so. */
  devicefallback: CustomEvent<{ kind: 'audioinput'; message: string }>;
  /** The microphone in use ended (unplugged). The client's own falls back by itself; an app's is the app's. */
  microphoneended: CustomEvent<{ label: string }>;
  streamchange: CustomEvent<{ stream: MediaStream }>;
  /** `/v1/vad`'s events as they come (`level`, `speech_started`, `microphone_silent`, …). */
  vad: CustomEvent<Record<string, unknown>>;
  error: CustomEvent<{ message: string }>;
}

export class MicCheckClient extends EventTarget {
  constructor(options?: MicCheckClientOptions);
  readonly server: URL;
  readonly call: string | null;
  readonly endpoint: 'call' | 'vad';
  readonly state: ConnectionState;
  /** The stream MicCheck listens to, or null (no microphone). */
  readonly stream: MediaStream | null;
  readonly muted: boolean;
  readonly muteCause: MuteCause | null;
  readonly joined: boolean;
  /** This page's participant id (after `welcome`). */
  readonly me: string | null;
  /** What this participant may send (`send-audio`, `send-video`); null before `welcome`. */
  readonly capabilities: string[] | null;
  readonly microphone: MicrophoneState | null;
  readonly speaking: boolean;
  readonly participants: Map<string, Participant>;
  others(): Participant[];
  /** Opens the microphone (unless a stream was given) and connects. Rejects with `MicCheckError` on bad input. */
  start(): Promise<void>;
  /** Listens to another stream; rejects with code `no-audio-track` when it has no audio track. */
  setStream(stream: MediaStream): Promise<void>;
  openMicrophone(choice?: { deviceId?: string; processing?: boolean }): Promise<void>;
  /**
   * Muted or not. While muted in the call the audio still goes to MicCheck (never to the others), so that it
   * can say "You are muted."; the browser shows the microphone in use (`CAPTURE_NOTE`). No notice for
   * `push-to-talk`.
   */
  setMuted(muted: boolean, cause?: MuteCause): void;
  unmute(): void;
  setVideo(on: boolean): void;
  join(name: string): void;
  leave(): void;
  signal(to: string, data: object): void;
  /** "Don't show again for this call." */
  mutedNoticeOff(): void;
  /** Call from a user's gesture: an AudioContext made before one may start suspended. */
  resume(): void;
  close(): void;
  addEventListener<K extends keyof MicCheckClientEventMap>(
    type: K, listener: (event: MicCheckClientEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions): void;
}

export class MicCheckError extends Error {
  readonly code: 'no-audio-track' | 'bad-call' | 'bad-option' | 'closed';
}
export class ProtocolError extends Error {}

/** The sentence a page shows about capture while muted. */
export const CAPTURE_NOTE: string;

export interface OpenedDevice { stream: MediaStream | null; fellBack: boolean; denied: boolean; missing: boolean }
export function openDevice(kind: 'audio' | 'video', constraints: MediaTrackConstraints, deviceId?: string): Promise<OpenedDevice>;
export function openMicrophone(options?: { deviceId?: string; processing?: boolean }): Promise<OpenedDevice>;
