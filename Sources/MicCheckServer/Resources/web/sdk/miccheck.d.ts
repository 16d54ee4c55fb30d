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
  /**
   * `call` (presence, the muted notice, the microphone check), `vad` (speech events only), or `none`: no
   * MicCheck server at all (a static page, an app with its own media server). With `none` the page's own
   * analysis gives the meter, speaking, "You are muted.", the typing notice, "not working" and the microphone
   * test; `join` and `leave` say whether the page is in its call (the notices are the call's), and nothing
   * is sent anywhere.
   */
  endpoint?: 'call' | 'vad' | 'none';
  /**
   * An invitation's join token (`miccheck token`), sent with the connection; or a function that gives one
   * (or a promise of one), asked before each try to connect. The server closes a connection when its token
   * expires (4401, "the invitation expired; reconnect with a new one"): with a function the client asks it for a
   * new token and reconnects, as after a lost connection (`reconnecting`, then joined again with the same
   * devices); with a string that close is a refusal (`refused`, its reason said once). A function that throws
   * or gives no string is a failed try, retried with backoff; a token the server refuses as it connects is a
   * refusal either way.
   */
  token?: string | (() => string | Promise<string>);
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
  /**
   * Where the microphone is analysed. `device` (the default for a call): MicCheck's own analysis compiled to
   * WebAssembly runs in the page's AudioWorklet, and no audio leaves the page; the server hears the page's
   * statements (its devices, whether it speaks). `server`: the page sends its microphone as PCM (`/v1/vad`
   * always does). A kernel that cannot load falls back to `server`, and the `analysis` event says why.
   */
  analysis?: 'device' | 'server';
  /** Where miccheck.wasm is (default: beside this module), its bytes, a Response, or a compiled module. */
  wasm?: string | URL | Response | Promise<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module;
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
  /** While a host's mute holds, "Grace muted you." (show it with the notice); else null. */
  announcement?: string | null;
}

/** "Your typing can be heard.", from the server (typing heard while unmuted and not speaking, at most every 2 min). */
export interface TypingNotice {
  show: boolean;
  text: string;
  durationMs: number;
  /** `{label: 'Mute', key: 'm'}` (the app mutes), or null when hiding. */
  action: { label: string; key: string } | null;
}

/** MicCheck's verdict on a microphone test: `sentence` is what to show (the terminal says the same). */
export interface MicrophoneTestVerdict {
  /** The test's length asked for, in seconds. */
  seconds: number;
  verdict: 'clear' | 'too_quiet' | 'clipping' | 'noisy' | 'no_voice' | 'dead';
  /** "Your voice came through clearly: -23.7 dBFS while you spoke, 39.2 dB above the room's noise." */
  sentence: string;
  recordedSeconds: number;
  speechSeconds: number;
  /** The speech's level while spoken, dBFS; null without speech. */
  speechLevelDb: number | null;
  /** The room's level between words, dBFS; null when every frame was speech. */
  noiseLevelDb: number | null;
  /** The noise's kind, where MicCheck named it. */
  noise?: string;
  /** For `clipping`: the share of the samples cut flat, and the ceiling. */
  clippedPercent?: number;
  ceilingDb?: number;
  /** For `dead`: why. */
  reason?: string;
  /** Whether the recording was played back to the end (false: the speaker was off, or it was stopped). */
  playedBack: boolean;
}

/**
 * A step of "Test your microphone": `recording` (at the start and at each whole second of audio sent, with
 * `secondsLeft`), `playing` (the verdict is known; the recording plays back), `done` (the verdict),
 * `cancelled` or `failed` (with `message`, the sentence to show).
 */
export type MicrophoneTestEvent =
  | { state: 'recording'; seconds: number; secondsLeft: number }
  | ({ state: 'playing' } & Omit<MicrophoneTestVerdict, 'playedBack'>)
  | ({ state: 'done' } & MicrophoneTestVerdict)
  | { state: 'cancelled' | 'failed'; seconds: number; message: string };

export interface MicrophoneTestOptions {
  /** 1 to 10 seconds (5). */
  seconds?: number;
  /** The output to play back through (a device id from `enumerateDevices`); '' or 'default': the default one. */
  sinkId?: string;
  /** False: no playback (the speaker is off); the verdict comes at once. */
  playBack?: boolean;
}

export interface MicCheckClientEventMap {
  /** The connection's state; `message` is the sentence to show (a refusal once, a reconnection's wait). */
  connection: CustomEvent<{ state: ConnectionState; message: string; code?: number; retryInMs?: number; attempt?: number }>;
  welcome: CustomEvent<{ id: string; call: string; capabilities: string[]; name: string | null }>;
  microphone: CustomEvent<MicrophoneState>;
  speaking: CustomEvent<{ speaking: boolean }>;
  /** Where the microphone is analysed, once decided at `start()`; `reason` says why not on the device. */
  analysis: CustomEvent<{ mode: 'device' | 'server'; reason: string | null }>;
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
  /** "Test your microphone": each step (`testMicrophone`). */
  microphonetest: CustomEvent<MicrophoneTestEvent>;
  /** A host muted this participant: the microphone is off already (cause `host`); `text` is "Grace muted you.". */
  mutedbyhost: CustomEvent<{ by: { id: string; name: string }; text: string }>;
  typingnotice: CustomEvent<TypingNotice>;
  /** `/v1/vad`'s events as they come (`level`, `speech_started`, `microphone_silent`, …). */
  vad: CustomEvent<Record<string, unknown>>;
  /** A server's refusal that leaves the connection open (a mute by a non-host, of someone gone), or a bad message. */
  error: CustomEvent<{ message: string }>;
}

export class MicCheckClient extends EventTarget {
  constructor(options?: MicCheckClientOptions);
  /** The server's address; null with no server (endpoint `none`). */
  readonly server: URL | null;
  readonly call: string | null;
  readonly endpoint: 'call' | 'vad' | 'none';
  readonly state: ConnectionState;
  /** The stream MicCheck listens to, or null (no microphone). */
  readonly stream: MediaStream | null;
  readonly muted: boolean;
  readonly muteCause: MuteCause | null;
  readonly joined: boolean;
  /** This page's participant id (after `welcome`). */
  readonly me: string | null;
  /** What this participant may do (`send-audio`, `send-video`, a host's `mute-users`); null before `welcome`. */
  readonly capabilities: string[] | null;
  readonly microphone: MicrophoneState | null;
  readonly speaking: boolean;
  /** Where the microphone is analysed (`device` until a kernel that could not load says otherwise). */
  readonly analysis: 'device' | 'server';
  readonly participants: Map<string, Participant>;
  others(): Participant[];
  /**
   * `audio`, `video` (until the welcome says otherwise: yes, unless the invitation, a token given as a string,
   * names a listener; a listener's client opens no microphone), or `mute-users` (a host's; no until the welcome).
   * A welcome that does not let this participant send audio stops the client listening: `stream` is null by the
   * time the `welcome` event fires, and a microphone the client opened is closed.
   */
  may(kind: 'audio' | 'video' | 'mute-users'): boolean;
  /**
   * Opens the microphone (unless a stream was given) and connects. Rejects with `MicCheckError` on bad input;
   * with no server (endpoint `none`), with `no-analysis` when MicCheck's kernel cannot run in the page.
   */
  start(): Promise<void>;
  /** Listens to another stream; rejects with code `no-audio-track` when it has no audio track. */
  setStream(stream: MediaStream): Promise<void>;
  openMicrophone(choice?: { deviceId?: string; processing?: boolean }): Promise<void>;
  /**
   * Muted or not. While muted in the call MicCheck still listens (in the page; with `analysis: 'server'` the
   * audio goes to the server, never to the others), so that it can say "You are muted."; the browser shows the
   * microphone in use (`CAPTURE_NOTE`). No notice for
   * `push-to-talk` (the server is told the cause, and sends none either).
   */
  setMuted(muted: boolean, cause?: MuteCause): void;
  unmute(): void;
  /**
   * A host mutes another participant: their microphone goes off and their page hears who did it. Throws
   * `MicCheckError` `not-allowed` without `may('mute-users')`, `not-joined` outside the call, `bad-option`
   * for oneself or someone not in the call; a refusal of the server's comes as an `error` event.
   */
  muteParticipant(id: string): void;
  setVideo(on: boolean): void;
  join(name: string): void;
  leave(): void;
  signal(to: string, data: object): void;
  /** "Don't show again for this call." */
  mutedNoticeOff(): void;
  /** Call from a user's gesture: an AudioContext made before one may start suspended. */
  resume(): void;
  /**
   * "Test your microphone", from a click: MicCheck judges the next `seconds` of the audio this client sends
   * (the server keeps none of it); the client keeps its own copy, plays it back through `sinkId` once the
   * verdict has come, and lets it go. Steps as `microphonetest` events. Resolves with the verdict once played
   * back. Rejects with `MicCheckError`: before it starts with `bad-option`, `closed`, `test-busy`, `in-call`,
   * `not-allowed`, `no-microphone`, `muted` ("Turn your microphone on to test it.") or `not-connected`; later
   * with `test-cancelled` (cancelled, joined or left, muted, another microphone, the client closed while it
   * records) or `test-failed` (the connection lost, no answer).
   */
  testMicrophone(options?: MicrophoneTestOptions): Promise<MicrophoneTestVerdict>;
  /** Stops the test: recording, it ends `cancelled`; playing back, the sound stops and it ends `done`. */
  cancelMicrophoneTest(): boolean;
  close(): void;
  addEventListener<K extends keyof MicCheckClientEventMap>(
    type: K, listener: (event: MicCheckClientEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions): void;
}

export class MicCheckError extends Error {
  readonly code: 'no-audio-track' | 'bad-call' | 'bad-option' | 'closed' | 'test-busy' | 'in-call' | 'not-allowed'
    | 'no-microphone' | 'muted' | 'not-connected' | 'test-cancelled' | 'test-failed' | 'not-joined' | 'no-analysis';
}
export class ProtocolError extends Error {}

/** The sentence a page shows about capture while muted. */
export const CAPTURE_NOTE: string;
/** `CAPTURE_NOTE` where the server analyses the microphone (`analysis: 'server'`, or a kernel that could not load). */
export const CAPTURE_NOTE_SERVER: string;

/**
 * Speaking across the app's own media server (an SFU's data channel, its signalling): each page says whether it
 * speaks, decided on its own device, as a short JSON text of this type; the others show it.
 */
export const SPEAKING_STATEMENT: 'miccheck.speaking';
/**
 * Says `client`'s speaking through `send(text)` on each change of its speaking or mute, and every `restateMs`
 * (400 by default). Muted, it says it does not speak. A `send` that throws (a channel not open yet) is ignored.
 * Each statement carries the time on this page's clock (`now`, ms; `performance.timeOrigin + performance.now()`
 * by default). Returns a function that stops it.
 */
export function stateSpeaking(client: MicCheckClient, send: (text: string) => void,
  options?: { restateMs?: number; now?: () => number }): () => void;
/**
 * The others' speaking statements, by the app's id for each. A statement holds `holdMs` (1200 by default) after
 * it came and never past `maxAgeMs` (`holdMs` + 800, and at least `holdMs`) after it was said (on the sender's clock, learnt from the
 * fastest of its last 32): a page that stops sending (frozen, gone) stops speaking then, even when its last
 * statements come late. `onChange` is called when somebody starts or stops.
 */
export class RemoteSpeaking {
  constructor(onChange: (id: string, speaking: boolean) => void,
    options?: { holdMs?: number; maxAgeMs?: number; now?: () => number });
  readonly holdMs: number;
  readonly maxAgeMs: number;
  /** A message from `id`'s channel: true when it was a speaking statement, false for anything else (left alone). */
  heard(id: string | number, text: unknown): boolean;
  speaking(id: string | number): boolean;
  /** `id` left: it no longer speaks. */
  forget(id: string | number): void;
  /** Ends the speaking of those whose last statement no longer holds (a timer calls it). */
  expire(): void;
  /** Forgets everybody and stops the timer. */
  close(): void;
}

export interface OpenedDevice { stream: MediaStream | null; fellBack: boolean; denied: boolean; missing: boolean }
export function openDevice(kind: 'audio' | 'video', constraints: MediaTrackConstraints, deviceId?: string): Promise<OpenedDevice>;
export function openMicrophone(options?: { deviceId?: string; processing?: boolean }): Promise<OpenedDevice>;

// ---- The components and the view factory ----------------------------------------------------------------
// Views only: no network, no getUserMedia. Their events bubble and are composed (they leave shadow roots).
// Theme (custom properties on any ancestor): --miccheck-accent, --miccheck-speaking, --miccheck-warning,
// --miccheck-danger, --miccheck-panel, --miccheck-text, --miccheck-muted-text, --miccheck-radius,
// --miccheck-focus. Each inner piece has a `part` (restyle with `::part(name)`).

export type ToggleKind = 'audio' | 'video' | 'speaker';
export type DeviceKind = 'audioinput' | 'videoinput' | 'audiooutput';
export type PromptKind = 'camera-and-microphone' | 'microphone' | 'camera';

/** `<miccheck-meter>`: the level (role=meter) and the not-working sentence. Parts: bar, level, alerts, warning, warnings, warning-item. */
export class MeterElement extends HTMLElement {
  state: MicrophoneState;
}

/**
 * `<miccheck-microphone-test>`: "Test your microphone" and its status, as the terminal says it: "Recording: say
 * a sentence or two as you would in the call." with the seconds left, "Playing back your recording…", the
 * verdict's sentence (green when clear, amber otherwise) and "Test again". The status is a polite live region.
 * Event: `miccheck-test-microphone` (the app calls `client.testMicrophone()`). Host attributes: data-state,
 * data-verdict. Parts: test, start (the button), status, message, verdict, seconds-left.
 */
export class MicrophoneTestElement extends HTMLElement {
  /** The client's `microphonetest` event, or `{state: 'idle'}`. */
  state: MicrophoneTestEvent | { state: 'idle' };
  /** False while the microphone is off: a click says "Turn your microphone on to test it." instead. */
  available: boolean;
  readonly busy: boolean;
}

/**
 * `<miccheck-muted-notice>`: "You are muted." with its action, "Don't show again for this call" and a close
 * button; role=status, aria-live=polite. Events: `miccheck-unmute`, `miccheck-muted-notice-off`,
 * `miccheck-close`. Parts: notice, announcement, text, action, off, close.
 */
export class MutedNoticeElement extends HTMLElement {
  /** `durationMs` 0 or Infinity: stays until hidden. An `announcement` (a host's) hides "Don't show again". */
  show(notice?: { text?: string; durationMs?: number; action?: { label: string; key?: string } | null;
    announcement?: string | null }): void;
  hide(): void;
  open: boolean;
}

/**
 * `<miccheck-typing-notice>`: "Your typing can be heard." with "Mute (m)" and a close button; role=status.
 * Events: `miccheck-mute`, `miccheck-close`. Parts: notice, text, action, close.
 */
export class TypingNoticeElement extends HTMLElement {
  show(notice?: { text?: string; durationMs?: number; action?: { label: string; key?: string } | null }): void;
  hide(): void;
  open: boolean;
}

/**
 * `<miccheck-participant-tile>`: video, or initials when there is none; a speaking ring; an accessible name
 * ("Ada Lovelace (you), speaking, microphone off"). Host attributes: data-id, data-speaking, data-video,
 * data-self, speaking. With `mayMute`, another's unmuted tile offers "Mute" (accessible name "Mute NAME"),
 * event `miccheck-mute-participant` {id, name}. Parts: tile, video, fallback, initials, label, mute.
 */
export class ParticipantTileElement extends HTMLElement {
  participant: Participant;
  stream: MediaStream | null;
  /** False mutes a remote participant's audio. */
  speakerOn: boolean;
  /** The ring shows only with more than one participant (the grid sets it). */
  showSpeaking: boolean;
  /** The local user may mute others (a host): the grid sets it from `update`'s `mayMute`. */
  mayMute: boolean;
  setSinkId(id: string): Promise<void>;
}

/** `<miccheck-participants-strip>`: who is already in the call, and the count sentence. Parts: count, list, person, avatar. */
export class ParticipantsStripElement extends HTMLElement {
  participants: Participant[];
}

/**
 * `<miccheck-permissions-prompt>`: a modal dialog that takes focus, closes on Esc, and shows the browsers'
 * steps with "Open Settings". Events: `miccheck-dismiss` {kind}, `miccheck-open-settings` {kind, open}.
 * Parts: dialog, header, title, close, message, steps, linux-note, buttons, settings, dismiss.
 */
export class PermissionsPromptElement extends HTMLElement {
  show(kind: PromptKind): void;
  hide(): void;
  readonly open: boolean;
  readonly kind: PromptKind | null;
}

/** `<miccheck-call-grid>`: one tile per participant, made through its factory and kept by id. */
export class CallGridElement extends HTMLElement {
  factory: ViewFactory;
  readonly tiles: Map<string, HTMLElement>;
  update(participants: Participant[], options: {
    me?: string | null; streamOf?: (id: string) => MediaStream | null; speakerOn?: boolean; sinkId?: string;
    mayMute?: boolean;
  }): void;
}

/**
 * `<miccheck-call-controls>`: microphone, camera and speaker toggles (aria-pressed; disabled when the
 * invitation forbids), Push-to-talk and Leave, and while push-to-talk is on "Push-to-talk: hold Space to talk"
 * or "Talking". Events: `miccheck-toggle` {kind}, `miccheck-push-to-talk` {on}, `miccheck-leave`. Parts:
 * toolbar, toggle, toggle-audio, toggle-video, toggle-speaker, icon, label, push-to-talk, push-to-talk-status,
 * leave.
 */
export class CallControlsElement extends HTMLElement {
  state: { audio: boolean; video: boolean; speaker: boolean; allowed: { audio: boolean; video: boolean };
    pushToTalk?: boolean; talking?: boolean };
}

export interface LobbyState {
  name: string;
  nameLocked: boolean;
  call: string;
  settings: { audio: boolean; video: boolean; speaker: boolean };
  allowed: { audio: boolean; video: boolean };
  devices: Record<DeviceKind, { deviceId: string; label: string }[]>;
  chosen: Record<DeviceKind, string>;
  /** The participants already in the call. */
  others: Participant[];
  selfStream: MediaStream | null;
  deviceNote: string;
  /** A connection's sentence: a refusal, "Reconnecting in N s…". */
  status: string;
  joinDisabled: boolean;
  /** The note on capture while muted (default `CAPTURE_NOTE`; `CAPTURE_NOTE_SERVER` where the server analyses). */
  privacy?: string;
}

/**
 * `<miccheck-lobby>`: "Before Joining": the preview (a tile from its factory), the meter, the toggles, the
 * name (at most 64 characters, shortened with a note), who is there, Join Call, the devices with "Test your
 * microphone" under them, and the note on capture while muted. Events: `miccheck-toggle` {kind}, `miccheck-choose-device` {kind,
 * deviceId}, `miccheck-name` {name}, `miccheck-join` {name}, and the microphone test's
 * `miccheck-test-microphone`. Parts: screen, header, title, subtitle, layout,
 * preview-panel, toggles, setup-panel, name-label, name, name-note, join-panel, about, call, join, status,
 * devices, device-label, device-select, device-note, privacy.
 */
export class LobbyElement extends HTMLElement {
  factory: ViewFactory;
  /** A partial state merges into the last one. */
  state: Partial<LobbyState>;
  /** Forwarded to the meter. */
  microphone: MicrophoneState;
  /** Forwarded to the microphone test (the client's `microphonetest` event). */
  microphoneTest: MicrophoneTestEvent | { state: 'idle' } | null;
  readonly name: string;
  readonly pieces: { preview: HTMLElement; meter: HTMLElement; microphoneTest: HTMLElement; strip: HTMLElement };
  focusName(): void;
}

/**
 * Makes every view; the composite ones (the lobby, the grid) make their pieces through the same factory, so
 * one replaced method shows everywhere. A replacement is any HTMLElement; tiles get the properties of
 * `ParticipantTileElement` set on them.
 */
export class ViewFactory {
  makeLobbyView(): HTMLElement;
  makeMeterView(): HTMLElement;
  makeMicrophoneTestView(): HTMLElement;
  makeMutedNoticeView(): HTMLElement;
  makeTypingNoticeView(): HTMLElement;
  makeVideoParticipantView(participant?: Participant): HTMLElement;
  makeParticipantsStripView(): HTMLElement;
  makePermissionsPromptView(): HTMLElement;
  makeCallGridView(): HTMLElement;
  makeCallControlsView(): HTMLElement;
}

/** A factory with the given methods in place of the defaults (a TypeError for a name that is not one). */
export function createViewFactory(overrides: Partial<Record<keyof ViewFactory, (...args: any[]) => HTMLElement>>): ViewFactory;
export const VIEW_FACTORY_METHODS: readonly (keyof ViewFactory)[];
/** Defines every element not yet defined (importing the module does it too). */
export function defineComponents(): void;
export const TAGS: Readonly<Record<string, CustomElementConstructor>>;
export const NAME_LIMIT: 64;
/** Trimmed and cut to 64 characters; `cut` says whether it was. */
export function checkedName(raw: string): { name: string; cut: boolean };
export function limitedName(raw: string): { name: string; cut: boolean };
/** The first grapheme of the first and last words, uppercased ("🦊 Fox" → "🦊F"); "?" for none. */
export function initials(name: string): string;
export function othersSentence(count: number): string;
/** "4 s left." */
export function secondsLeft(seconds: number): string;
export const TEXT: Readonly<Record<string, string>>;
export const ICONS: Readonly<Record<string, string>>;
