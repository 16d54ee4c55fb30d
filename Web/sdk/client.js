// MicCheckClient: a microphone's audio to `miccheck serve`, and what MicCheck decides about it back, as
// events. No framework, no dependency. This file is the client's public face, and its JSDoc (with types.js's)
// the public surface: scripts/sdk-types.sh writes the declarations (types/) from it. What the client does is
// in session.js (the microphone, the analysis, the test), server-link.js (the server) and inbound.js (what
// comes back).
import { ClientSession } from './session.js';

// The client's types come with it (`@miccheck/web/client` alone has them too).
export * from './types.js';

/** @typedef {import('./types.js').MuteCause} MuteCause */
/** @typedef {import('./types.js').Participant} Participant */
/** @typedef {import('./types.js').MicrophoneState} MicrophoneState */

// EventTarget itself, typed for the client's events (types.js, `MicCheckClientEventMap`).
const ClientEvents = /** @type {import('./types.js').TypedEventTarget<import('./types.js').MicCheckClientEventMap>} */
  (EventTarget);

/**
 * A microphone's level, speaking, the muted notice, "not working", the microphone test and the call's presence,
 * as events (`MicCheckClientEventMap`); Guides/Browser.md, "Use it in your own app", shows it at work.
 */
export class MicCheckClient extends ClientEvents {
  #session;

  /** @param {import('./types.js').MicCheckClientOptions} [options] */
  constructor(options = {}) {
    super();
    this.#session = new ClientSession(options, new URL(import.meta.url).origin,
      (type, detail) => this.dispatchEvent(new CustomEvent(type, { detail })));
  }

  /** @type {'call' | 'vad' | 'none'} */
  get endpoint() { return this.#session.endpoint; }

  /**
   * The server's address; null with no server (endpoint `none`).
   * @type {URL | null}
   */
  get server() { return this.#session.server; }

  /** @type {string | null} */
  get call() { return this.#session.call; }

  /** @type {import('./types.js').MicCheckClientOptions['token'] | null} */
  get token() { return this.#session.token; }

  /**
   * Where the microphone is analysed (`device` until a kernel that could not load says otherwise).
   * @type {import('./types.js').AnalysisMode}
   */
  get analysis() { return this.#session.analysis; }

  /** @type {import('./types.js').ConnectionState} */
  get state() { return this.#session.state; }

  /** @type {boolean} */
  get muted() { return this.#session.muted; }

  /** @type {MuteCause | null} */
  get muteCause() { return this.#session.muteCause; }

  /**
   * Whether the page sends video (`setVideo`).
   * @type {boolean}
   */
  get video() { return this.#session.video; }

  /** @type {boolean} */
  get joined() { return this.#session.joined; }

  /**
   * This page's participant id (after `welcome`).
   * @type {string | null}
   */
  get me() { return this.#session.me; }

  /**
   * What this participant may do (`send-audio`, `send-video`, a host's `mute-users`); null before `welcome`.
   * @type {string[] | null}
   */
  get capabilities() { return this.#session.capabilities; }

  /**
   * The last microphone check.
   * @type {MicrophoneState | null}
   */
  get microphone() { return this.#session.microphone; }

  /** @type {boolean} */
  get speaking() { return this.#session.speaking; }

  /**
   * The stream MicCheck listens to, or null (no microphone).
   * @type {MediaStream | null}
   */
  get stream() { return this.#session.stream; }

  /**
   * The participants of the call by id (the version rule keeps it in step with the server).
   * @type {Map<string, Participant>}
   */
  get participants() { return this.#session.participants; }

  /**
   * The participants other than this page's.
   * @returns {Participant[]}
   */
  others() { return this.#session.others(); }

  /**
   * Opens the microphone (unless a stream was given) and connects; it connects even when the microphone
   * cannot be opened (`permission` says why), so that presence and the call still work. With no server
   * (endpoint `none`) it connects to nothing, and rejects with `no-analysis` when the kernel cannot run. Rejects
   * with `MicCheckError` on bad input.
   * @returns {Promise<void>}
   */
  start() { return this.#session.start(); }

  /**
   * Whether this participant may send `audio` or `video`, or `mute-users` (a host): the welcome's capabilities;
   * before it, sending unless the invitation (a token given as a string) names a listener (a listener's client
   * opens no microphone). A welcome that does not let this participant send audio stops the client listening:
   * `stream` is null by the time the `welcome` event fires, and a microphone the client opened is closed.
   * @param {'audio' | 'video' | 'mute-users'} kind
   * @returns {boolean}
   */
  may(kind) { return this.#session.may(kind); }

  /**
   * Uses the app's own stream from now on (its first audio track). Rejects with `no-audio-track` without one.
   * @param {MediaStream} stream
   * @returns {Promise<void>}
   */
  setStream(stream) { return this.#session.setStream(stream); }

  /**
   * Opens a microphone of the client's own: `deviceId`, or the default (and says so when it falls back). Not for
   * a participant who may not send audio (a listener): nothing is opened.
   * @param {{deviceId?: string, processing?: boolean}} [choice]
   * @returns {Promise<void>}
   */
  openMicrophone(choice = {}) { return this.#session.openMicrophone(choice); }

  /**
   * Muted or not, and why: `self`, `host` or `push-to-talk` (no muted notice while a push-to-talk key is up; the
   * server is told the cause, and sends none either). While muted in the call MicCheck still listens (in the
   * page; with `analysis: 'server'` the audio goes to the server, never to the others), so that it can say "You
   * are muted."; the browser shows the microphone in use (`CAPTURE_NOTE`).
   * @param {boolean} muted
   * @param {MuteCause} [cause]
   */
  setMuted(muted, cause = 'self') { this.#session.setMuted(muted, cause); }

  /** The muted notice's action. */
  unmute() { this.setMuted(false); }

  /**
   * A host mutes another participant: their microphone goes off and their page hears who did it. Throws
   * `MicCheckError` `not-allowed` without `may('mute-users')`, `not-joined` outside the call, `bad-option`
   * for oneself or someone not in the call; a refusal of the server's comes as an `error` event.
   * @param {string} id
   */
  muteParticipant(id) { this.#session.muteParticipant(id); }

  /**
   * Whether the page sends video (the others see it in presence).
   * @param {boolean} on
   */
  setVideo(on) { this.#session.setVideo(on); }

  /**
   * Joins the call under `name` (an invitation's name wins); rejoins by itself after a reconnection.
   * @param {string} name
   */
  join(name) { this.#session.join(name); }

  /** Leaves the call (the connection stays: presence and the lobby go on). */
  leave() { this.#session.leave(); }

  /**
   * WebRTC signalling to another participant (relayed by the server, checked on the way).
   * @param {string} to
   * @param {object} data
   */
  signal(to, data) { this.#session.signal(to, data); }

  /** "Don't show again for this call." */
  mutedNoticeOff() { this.#session.mutedNoticeOff(); }

  /** Call from a click: an AudioContext made before any gesture may start suspended. */
  resume() { this.#session.resume(); }

  /**
   * "Test your microphone", from a click: the next `seconds` (1 to 10) of the microphone, judged by MicCheck (a
   * server keeps none of it), then played back through `sinkId` (an output's device id; the default output
   * without one, or where the browser cannot choose) unless `playBack` is false. Steps as `microphonetest`
   * events; resolves with the verdict once played back. Rejects with `MicCheckError`: before it starts with
   * `bad-option`, `closed`, `test-busy`, `in-call`, `not-allowed`, `no-microphone`, `muted` ("Turn your
   * microphone on to test it.") or `not-connected`; later with `test-cancelled` (cancelled, joined or left,
   * muted, another microphone, the client closed while it records) or `test-failed` (the connection lost, no
   * answer).
   * @param {import('./types.js').MicrophoneTestOptions} [options]
   * @returns {Promise<import('./types.js').MicrophoneTestVerdict>}
   */
  testMicrophone(options = {}) { return this.#session.testMicrophone(options); }

  /**
   * Stops a microphone test: recording, it ends `cancelled`; playing back, the sound stops and it ends `done`.
   * @returns {boolean} whether there was a test to stop
   */
  cancelMicrophoneTest() { return this.#session.cancelMicrophoneTest(); }

  /** Disconnects for good, and stops a microphone the client opened itself. */
  close() { this.#session.close(); }
}
