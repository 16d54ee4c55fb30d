// MicCheckClient: a microphone's audio to `miccheck serve`, and what MicCheck decides about it back, as
// events. No framework, no dependency. Its JSDoc (and types.js's) is the public surface: scripts/sdk-types.sh
// writes the declarations (types/) from it.
import { SwitchedCapture } from './capture.js';
import { chooseAnalysis } from './analysis-choice.js';
import { ServerConnection, refusalOf } from './connection.js';
import { LocalAudio } from './local-audio.js';
import { MicCheckError } from './microphone.js';
import { MicrophoneTestRunner, refuseTest, TEST_SECONDS } from './microphone-test.js';
import { devicesMessage, Moderation, muteRequest } from './moderation.js';
import { clientOptions, roleOf } from './options.js';
import { Roster } from './presence.js';
import { decode, encode } from './protocol.js';

// How often a page that speaks says so again (device analysis; the server's stall is 1 s).
const RESTATE_MS = 500;
const CAUSES = ['self', 'host', 'push-to-talk'];

// Audio waiting to go out beyond this (a stalled network) is dropped rather than queued without bound.
const MAX_BUFFERED = 256 * 1024;
// The meter's 0…1 as the phone SDK maps −50…0 dBFS (the call endpoint sends it; /v1/vad sends dB only).
// The muted notice's action (the page binds the key).
const UNMUTE = Object.freeze({ label: 'Unmute', key: 'm' });
const display = (db) => Math.max(0, Math.min(1, (db + 50) / 50));

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
  #connection;
  #roster = new Roster();
  #audio;
  #closed = false;
  #given;
  // The token the last try connected with (a function's answer, or the string given).
  #tokenSent = null;
  #rejoin = null;
  #noticeOff = false;
  #test;
  // On-device analysis: the capture (a DeviceCapture once the kernel compiled), what the page last told the
  // server of its speaking, and the kernel's compilation (started once).
  #device = null;
  #statedSpeaking = null;
  #statedAt = 0;
  // The last devices message sent on this connection (a new connection's server knows none).
  #devicesSent = null;
  #prepared = null;
  #wasm;
  #moderation = new Moderation({ setMuted: (m, c) => this.setMuted(m, c), emit: (t, d) => this.#emit(t, d) });

  /** @param {import('./types.js').MicCheckClientOptions} [options] */
  constructor(options = {}) {
    super();
    const { endpoint, server, call, token, stream, backoff, choice, analysis } =
      clientOptions(options, new URL(import.meta.url).origin);
    /** @readonly @type {'call' | 'vad' | 'none'} */
    this.endpoint = endpoint;
    /**
     * The server's address; null with no server (endpoint `none`).
     * @readonly @type {URL | null}
     */
    this.server = server;
    /** @readonly @type {string | null} */
    this.call = call;
    /** @readonly @type {import('./types.js').MicCheckClientOptions['token'] | null} */
    this.token = token;
    this.#given = stream;
    this.#connection = new ServerConnection(() => this.#url(), {
      onOpen: () => this.#opened(), onText: (text) => this.#receive(text), onLost: () => this.#lost(),
      askWhy: () => (this.endpoint === 'call' ? refusalOf(this.server, this.call, this.#tokenSent) : null),
      canRenew: () => typeof this.token === 'function',
      onState: (state, message, extra) => this.#stateChanged(state, message, extra),
    }, { WebSocket: options.WebSocket, backoff });
    /**
     * Where the microphone is analysed (`device` until a kernel that could not load says otherwise).
     * @readonly @type {import('./types.js').AnalysisMode}
     */
    this.analysis = analysis;
    this.#wasm = options.wasm || new URL('./miccheck.wasm', import.meta.url);
    const capture = options.capture || new SwitchedCapture();
    capture.onBlock = (block) => this.#sendAudio(block);
    this.#audio = new LocalAudio(choice, capture, (type, detail) => this.#audioEvent(type, detail),
      () => this.#sendDevices());
    this.#test = new MicrophoneTestRunner({ send: (m) => this.#testMessage(m),
      emit: (t, detail) => this.#emit(t, detail), makePlayer: options.playback });
    /** @readonly @type {import('./types.js').ConnectionState} */
    this.state = 'idle';
    /** @readonly */
    this.muted = false;
    /** @readonly @type {MuteCause | null} */
    this.muteCause = null;
    /**
     * Whether the page sends video (`setVideo`).
     * @readonly
     */
    this.video = false;
    /** @readonly */
    this.joined = false;
    /**
     * This page's participant id (after `welcome`).
     * @readonly @type {string | null}
     */
    this.me = null;
    /**
     * What this participant may do (`send-audio`, `send-video`, a host's `mute-users`); null before `welcome`.
     * @readonly @type {string[] | null}
     */
    this.capabilities = null;
    /**
     * The last microphone check.
     * @readonly @type {MicrophoneState | null}
     */
    this.microphone = null;
    /** @readonly */
    this.speaking = false;
  }

  /**
   * The stream MicCheck listens to, or null (no microphone).
   * @type {MediaStream | null}
   */
  get stream() { return this.#audio.stream; }

  /**
   * The participants of the call by id (the version rule keeps it in step with the server).
   * @type {Map<string, Participant>}
   */
  get participants() { return this.#roster.participants; }

  /**
   * The participants other than this page's.
   * @returns {Participant[]}
   */
  others() { return this.#roster.others(this.me); }

  /**
   * Opens the microphone (unless a stream was given) and connects; it connects even when the microphone
   * cannot be opened (`permission` says why), so that presence and the call still work. With no server
   * (endpoint `none`) it connects to nothing, and rejects with `no-analysis` when the kernel cannot run. Rejects
   * with `MicCheckError` on bad input.
   * @returns {Promise<void>}
   */
  async start() {
    this.#refuseClosed();
    try {
      await this.#prepareAnalysis();
      if (this.#given) await this.setStream(this.#given);
      else await this.openMicrophone();
    } finally {
      if (this.endpoint !== 'none') this.#connection.open();
    }
  }

  /**
   * Whether this participant may send `audio` or `video`, or `mute-users` (a host): the welcome's capabilities;
   * before it, sending unless the invitation (a token given as a string) names a listener (a listener's client
   * opens no microphone). A welcome that does not let this participant send audio stops the client listening:
   * `stream` is null by the time the `welcome` event fires, and a microphone the client opened is closed.
   * @param {'audio' | 'video' | 'mute-users'} kind
   * @returns {boolean}
   */
  may(kind) {
    const c = kind === 'audio' || kind === 'video' ? `send-${kind}` : kind;
    if (this.capabilities) return this.capabilities.includes(c);
    return c.startsWith('send-') && roleOf(this.token) !== 'listener';
  }

  /**
   * Uses the app's own stream from now on (its first audio track). Rejects with `no-audio-track` without one.
   * @param {MediaStream} stream
   * @returns {Promise<void>}
   */
  async setStream(stream) {
    this.#refuseClosed();
    await this.#audio.use(stream);
  }

  /**
   * Opens a microphone of the client's own: `deviceId`, or the default (and says so when it falls back). Not for
   * a participant who may not send audio (a listener): nothing is opened.
   * @param {{deviceId?: string, processing?: boolean}} [choice]
   * @returns {Promise<void>}
   */
  async openMicrophone(choice = {}) {
    this.#refuseClosed();
    // A listener's page never opens a microphone it could not use.
    if (this.may('audio')) await this.#audio.open(choice);
  }

  #refuseClosed() {
    if (this.#closed) throw new MicCheckError('closed', 'this client was closed; make a new one');
  }

  /**
   * Muted or not, and why: `self`, `host` or `push-to-talk` (no muted notice while a push-to-talk key is up; the
   * server is told the cause, and sends none either). While muted in the call MicCheck still listens (in the
   * page; with `analysis: 'server'` the audio goes to the server, never to the others), so that it can say "You
   * are muted."; the browser shows the microphone in use (`CAPTURE_NOTE`).
   * @param {boolean} muted
   * @param {MuteCause} [cause]
   */
  setMuted(muted, cause = 'self') {
    if (muted && !CAUSES.includes(cause)) {
      throw new MicCheckError('bad-option', `a mute's cause is one of ${CAUSES.join(', ')}, not ${cause}`);
    }
    this.muted = !!muted;
    this.muteCause = this.muted ? cause : null;
    this.#moderation.muteChanged(this.muted, this.muteCause);
    if (this.muted) this.#test.cancel('The microphone test stopped: your microphone was turned off.');
    this.#device?.command({ type: 'devices', on: !this.muted, cause: this.muteCause || 'self' });
    this.#sendDevices();
    this.#emit('mutechange', { muted: this.muted, cause: this.muteCause });
  }

  /** The muted notice's action. */
  unmute() { this.setMuted(false); }

  /**
   * A host mutes another participant: their microphone goes off and their page hears who did it. Throws
   * `MicCheckError` `not-allowed` without `may('mute-users')`, `not-joined` outside the call, `bad-option`
   * for oneself or someone not in the call; a refusal of the server's comes as an `error` event.
   * @param {string} id
   */
  muteParticipant(id) { this.#send(muteRequest(id, this)); }

  /**
   * Whether the page sends video (the others see it in presence).
   * @param {boolean} on
   */
  setVideo(on) {
    this.video = !!on;
    this.#sendDevices();
  }

  /**
   * Joins the call under `name` (an invitation's name wins); rejoins by itself after a reconnection.
   * @param {string} name
   */
  join(name) {
    this.#test.cancel('The microphone test stopped: you joined the call.');
    this.joined = true;
    this.#rejoin = name;
    this.#device?.command({ type: 'enter', inCall: true });
    // Before the server's welcome the join waits for it (the welcome handler sends it), never twice.
    if (this.me) this.#send({ type: 'join', name });
  }

  /** Leaves the call (the connection stays: presence and the lobby go on). */
  leave() {
    this.#test.cancel('The microphone test stopped: you left the call.');
    if (this.joined) this.#send({ type: 'leave' });
    this.#device?.command({ type: 'enter', inCall: false });
    this.joined = false;
    this.#rejoin = null;
  }

  /**
   * WebRTC signalling to another participant (relayed by the server, checked on the way).
   * @param {string} to
   * @param {object} data
   */
  signal(to, data) { this.#send({ type: 'signal', to, data }); }

  /** "Don't show again for this call." */
  mutedNoticeOff() {
    this.#noticeOff = true;
    this.#device?.command({ type: 'silence' });
    this.#send({ type: 'muted_notice_off' });
  }

  /** Call from a click: an AudioContext made before any gesture may start suspended. */
  resume() { this.#audio.capture.resume(); }

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
  async testMicrophone({ seconds = TEST_SECONDS.default, sinkId = '', playBack = true } = {}) {
    refuseTest({ seconds, closed: this.#closed, busy: this.#test.busy, joined: this.joined,
      allowed: this.may('audio'), microphone: !!this.stream, muted: this.muted,
      open: this.#device !== null || this.#connection.isOpen });
    return this.#test.start({ seconds, sinkId: String(sinkId || ''), playBack: playBack !== false });
  }

  /**
   * Stops a microphone test: recording, it ends `cancelled`; playing back, the sound stops and it ends `done`.
   * @returns {boolean} whether there was a test to stop
   */
  cancelMicrophoneTest() { return this.#test.cancel(); }

  /** Disconnects for good, and stops a microphone the client opened itself. */
  close() {
    this.#test.cancel('The microphone test stopped: the page closed its connection.');
    this.#closed = true;
    if (this.endpoint !== 'none') this.#connection.close();
    this.#audio.close();
  }

  // ---- Audio ---------------------------------------------------------------------------------------------

  // Where the analysis runs, decided once before the first connection (its address says where): the kernel on
  // the device, wired to the client, or the server (analysis-choice.js), which the `analysis` event says.
  #prepareAnalysis() {
    this.#prepared ||= (async () => {
      let chosen;
      try {
        chosen = await chooseAnalysis({ analysis: this.analysis, endpoint: this.endpoint, wasm: this.#wasm,
          capture: this.#audio.capture });
      } catch (error) {
        // Nothing could judge the microphone: the client is closed, so that a later call fails at once.
        this.close();
        throw error;
      }
      this.analysis = chosen.mode;
      if (chosen.device) {
        this.#device = chosen.device;
        this.#device.onMessages = (texts, speaking) => this.#onDevice(texts, speaking);
        this.#device.onBlock = (block) => this.#test.keep(block);
        // What the page said before the kernel had compiled (a mute, a join, "don't show again") holds.
        if (this.muted) this.#device.command({ type: 'devices', on: false, cause: this.muteCause || 'self' });
        if (this.joined) this.#device.command({ type: 'enter', inCall: true });
        if (this.#noticeOff) this.#device.command({ type: 'silence' });
      }
      if (chosen.event) this.#emit('analysis', chosen.event);
    })();
    return this.#prepared;
  }

  // The kernel's messages are the server's, made on the device: the same handling.
  #onDevice(texts, speaking) {
    for (const text of texts) this.#receive(text);
    this.#stateSpeaking(speaking);
  }

  // The page's own statement of its speaking (a claim the server publishes while the microphone is on). While
  // it speaks it says so again every half second: a page that stops (a closed lid, a frozen tab) stops speaking
  // on the server a second later, as a stalled stream of audio would.
  #stateSpeaking(speaking) {
    if (!this.#connection.isOpen || this.me === null) return;
    const now = Date.now();
    if (speaking === this.#statedSpeaking && !(speaking && now - this.#statedAt >= RESTATE_MS)) return;
    this.#statedSpeaking = speaking;
    this.#statedAt = now;
    this.#send({ type: 'speaking', speaking });
  }

  // "Test your microphone": judged by the kernel on the device, or by the server.
  #testMessage(m) {
    if (this.#device && m.type === 'microphone_test') {
      this.#device.command({ type: 'test', action: m.action, seconds: m.seconds });
    } else {
      this.#send(m);
    }
  }

  #sendAudio(block) {
    if (!this.#connection.isOpen || !this.stream || this.#connection.buffered > MAX_BUFFERED) return;
    // Muted in the call (or on /v1/vad), the audio still goes to MicCheck for "You are muted.", never to others.
    if (this.muted && !this.joined && this.endpoint === 'call') return;
    this.#connection.send(block);
    this.#test.keep(block);
  }

  #sendDevices() {
    if (this.endpoint === 'vad') {
      this.#send({ type: 'session.update', session: { muted: this.muted } });
      return;
    }
    // Before the welcome the page's role is unknown: its devices go with the welcome's answer.
    if (this.me === null) return;
    // Once for each change: a toggle also changes the stream or the permission, which report again.
    const text = encode(devicesMessage(this, this.#moderation.hostMuted));
    if (text === this.#devicesSent) return;
    this.#devicesSent = text;
    this.#connection.send(text);
  }

  // ---- The connection -------------------------------------------------------------------------------------

  // The address of each try: with a token function, a promise of it, the token asked for anew each time (an
  // invitation that expired under the connection, or during a long outage, is replaced).
  #url() {
    if (typeof this.token !== 'function') return this.#address(this.token);
    const ask = this.token;
    return (async () => {
      const token = await ask();
      if (typeof token !== 'string' || !token) {
        throw new MicCheckError('bad-option', 'the token function gave no token');
      }
      return this.#address(token);
    })();
  }

  #address(token) {
    this.#tokenSent = token;
    const url = new URL(this.endpoint === 'call' ? '/v1/call' : '/v1/vad', this.server);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (this.call) url.searchParams.set('call', this.call);
    if (this.endpoint === 'call') url.searchParams.set('analysis', this.analysis);
    if (token) url.searchParams.set('token', token);
    return url.href;
  }

  #opened() {
    this.#statedSpeaking = null;
    this.#devicesSent = null;
    this.#sendDevices();
    if (this.#noticeOff) this.#send({ type: 'muted_notice_off' });
  }

  // The connection is gone: the roster stays as it was (the call's media goes browser to browser and may go
  // on) until the next snapshot replaces it; a refusal or close() empties it.
  #lost() {
    this.#test.connectionLost();
    this.#roster.expire();
    this.me = null;
    this.speaking = false;
    this.#emit('mutednotice', { show: false, text: '', durationMs: 0, cause: this.muteCause, action: null });
  }

  #stateChanged(state, message, extra) {
    this.state = state;
    if (state === 'refused' || state === 'closed') {
      this.#roster.clear();
      this.#emit('presence', { participants: [], me: null, change: null });
    }
    this.#emit('connection', { state, message, ...extra });
  }

  // The microphone changed or ended under a test: what it recorded is no longer one microphone's.
  #audioEvent(type, detail) {
    if (type === 'streamchange' || type === 'microphoneended' || type === 'permission') {
      this.#test.cancel('The microphone test stopped: the microphone changed.');
    }
    this.#emit(type, detail);
  }

  #send(message) { this.#connection.send(encode(message)); }

  #emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  #receive(text) {
    let m;
    try {
      m = decode(text);
    } catch (error) {
      this.#emit('error', { message: error.message });
      return;
    }
    switch (m.type) {
      case 'welcome':
        this.me = m.id;
        this.#devicesSent = null;
        this.capabilities = m.capabilities;
        // A role that may not send audio is not listened to (an invitation given as a function is read here),
        // before the page hears of the welcome: its listeners see the stream gone.
        if (!this.may('audio')) this.#audio.drop();
        this.#moderation.connected();
        this.#emit('welcome', m);
        this.#sendDevices();
        this.#device?.command({ type: 'grant', maySendAudio: this.may('audio') });
        if (this.#device) this.#stateSpeaking(this.speaking);
        if (this.#rejoin !== null) this.join(this.#rejoin);
        break;
      case 'microphone': this.#level(m); break;
      case 'muted_notice': this.#moderation.mutedNotice(m, this.muteCause, this.#noticeOff); break;
      case 'presence': case 'joined': case 'updated': case 'left': {
        const result = this.#roster.take(m);
        if (result === 'resync') this.#send({ type: 'resync' });
        if (result !== 'applied') return;
        this.#emit('presence', { participants: [...this.participants.values()], me: this.me,
          change: m.type === 'presence' ? null : m });
        break;
      }
      case 'signal': this.#emit('signal', { from: m.from, data: m.data }); break;
      case 'microphone_test': this.#test.receive(m); break;
      case 'muted_by_host': case 'typing_notice': this.#moderation.receive(m); break;
      case 'error': this.#emit('error', { message: m.message }); break;
      case 'level':
        this.#level({ on: !this.muted, levelDb: m.level_db, display: display(m.level_db), speaking: !!m.speaking,
          notWorking: null, warnings: [] });
        this.#emit('vad', m);
        break;
      case 'muted_speech_started':
        if (m.notice) this.#emit('mutednotice', { show: true, text: 'You are muted.', durationMs: 2000,
          cause: this.muteCause, action: UNMUTE });
        this.#emit('vad', m);
        break;
      default: this.#emit('vad', m);
    }
  }

  #level(state) {
    this.microphone = state;
    this.#emit('microphone', state);
    if (state.speaking !== this.speaking) {
      this.speaking = state.speaking;
      this.#emit('speaking', { speaking: state.speaking });
    }
  }
}
