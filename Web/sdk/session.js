// What MicCheckClient does, behind its public face (client.js): the microphone, where it is analysed, the
// server's link, the microphone test and the call's moderation; what comes back is applied by inbound.js. The
// client's public state lives here, and the client reads it out. Internal: no app sees this object.
import { SwitchedCapture } from './capture.js';
import { chooseAnalysis } from './analysis-choice.js';
import { LocalAudio } from './local-audio.js';
import { MicCheckError } from './microphone.js';
import { MicrophoneTestRunner, refuseTest, TEST_SECONDS } from './microphone-test.js';
import { devicesMessage, Moderation, muteRequest } from './moderation.js';
import { clientOptions, roleOf } from './options.js';
import { Roster } from './presence.js';
import { receive } from './inbound.js';
import { ServerLink } from './server-link.js';

const CAUSES = ['self', 'host', 'push-to-talk'];

export class ClientSession {
  // The client's public state (client.js documents it).
  state = 'idle';
  muted = false;
  muteCause = null;
  video = false;
  joined = false;
  me = null;
  capabilities = null;
  microphone = null;
  speaking = false;

  // What inbound.js works with: the client's event, the link, the roster, the microphone, the test, the
  // moderation, the name to join again under after a reconnection, and "don't show again".
  emit;
  link;
  roster = new Roster();
  audio;
  test;
  moderation = new Moderation({ setMuted: (m, c) => this.setMuted(m, c), emit: (t, d) => this.emit(t, d) });
  rejoin = null;
  noticeOff = false;
  // On-device analysis: the capture (a DeviceCapture once the kernel compiled).
  device = null;
  #closed = false;
  #given;
  // The kernel's compilation (started once), and where it is.
  #prepared = null;
  #wasm;

  /**
   * @param {object} options the client's (types.js, `MicCheckClientOptions`)
   * @param {string} origin where the SDK was loaded from (the server by default)
   * @param {(type: string, detail: unknown) => void} emit dispatches the client's event
   */
  constructor(options, origin, emit) {
    const { endpoint, server, call, token, stream, backoff, choice, analysis } = clientOptions(options, origin);
    this.endpoint = endpoint;
    this.server = server;
    this.call = call;
    this.token = token;
    // Where the microphone is analysed (options.js): on the device, no audio leaves the page.
    this.analysis = analysis;
    this.emit = emit;
    this.#given = stream;
    this.link = new ServerLink({ endpoint, server, call, token, analysis: () => this.analysis }, {
      onOpen: () => this.#opened(), onText: (text) => receive(this, text), onLost: () => this.#lost(),
      onState: (state, message, extra) => this.#stateChanged(state, message, extra),
    }, { WebSocket: options.WebSocket, backoff });
    this.#wasm = options.wasm || new URL('./miccheck.wasm', import.meta.url);
    const capture = options.capture || new SwitchedCapture();
    capture.onBlock = (block) => this.#sendAudio(block);
    this.audio = new LocalAudio(choice, capture, (type, detail) => this.#audioEvent(type, detail),
      () => this.sendDevices());
    this.test = new MicrophoneTestRunner({ send: (m) => this.#testMessage(m),
      emit: (t, detail) => this.emit(t, detail), makePlayer: options.playback });
  }

  get stream() { return this.audio.stream; }

  get participants() { return this.roster.participants; }

  others() { return this.roster.others(this.me); }

  async start() {
    this.#refuseClosed();
    try {
      await this.#prepareAnalysis();
      if (this.#given) await this.setStream(this.#given);
      else await this.openMicrophone();
    } finally {
      if (this.endpoint !== 'none') this.link.open();
    }
  }

  may(kind) {
    const c = kind === 'audio' || kind === 'video' ? `send-${kind}` : kind;
    if (this.capabilities) return this.capabilities.includes(c);
    return c.startsWith('send-') && roleOf(this.token) !== 'listener';
  }

  async setStream(stream) {
    this.#refuseClosed();
    await this.audio.use(stream);
  }

  async openMicrophone(choice = {}) {
    this.#refuseClosed();
    // A listener's page never opens a microphone it could not use.
    if (this.may('audio')) await this.audio.open(choice);
  }

  #refuseClosed() {
    if (this.#closed) throw new MicCheckError('closed', 'this client was closed; make a new one');
  }

  setMuted(muted, cause = 'self') {
    if (muted && !CAUSES.includes(cause)) {
      throw new MicCheckError('bad-option', `a mute's cause is one of ${CAUSES.join(', ')}, not ${cause}`);
    }
    this.muted = !!muted;
    this.muteCause = this.muted ? cause : null;
    this.moderation.muteChanged(this.muted, this.muteCause);
    if (this.muted) this.test.cancel('The microphone test stopped: your microphone was turned off.');
    this.device?.command({ type: 'devices', on: !this.muted, cause: this.muteCause || 'self' });
    this.sendDevices();
    this.emit('mutechange', { muted: this.muted, cause: this.muteCause });
  }

  muteParticipant(id) { this.link.send(muteRequest(id, this)); }

  setVideo(on) {
    this.video = !!on;
    this.sendDevices();
  }

  join(name) {
    this.test.cancel('The microphone test stopped: you joined the call.');
    this.joined = true;
    this.rejoin = name;
    this.device?.command({ type: 'enter', inCall: true });
    // Before the server's welcome the join waits for it (the welcome handler sends it), never twice.
    if (this.me) this.link.send({ type: 'join', name });
  }

  leave() {
    this.test.cancel('The microphone test stopped: you left the call.');
    if (this.joined) this.link.send({ type: 'leave' });
    this.device?.command({ type: 'enter', inCall: false });
    this.joined = false;
    this.rejoin = null;
  }

  signal(to, data) { this.link.send({ type: 'signal', to, data }); }

  mutedNoticeOff() {
    this.noticeOff = true;
    this.device?.command({ type: 'silence' });
    this.link.send({ type: 'muted_notice_off' });
  }

  resume() { this.audio.capture.resume(); }

  async testMicrophone({ seconds = TEST_SECONDS.default, sinkId = '', playBack = true } = {}) {
    refuseTest({ seconds, closed: this.#closed, busy: this.test.busy, joined: this.joined,
      allowed: this.may('audio'), microphone: !!this.stream, muted: this.muted,
      open: this.device !== null || this.link.isOpen });
    return this.test.start({ seconds, sinkId: String(sinkId || ''), playBack: playBack !== false });
  }

  cancelMicrophoneTest() { return this.test.cancel(); }

  close() {
    this.test.cancel('The microphone test stopped: the page closed its connection.');
    this.#closed = true;
    if (this.endpoint !== 'none') this.link.close();
    this.audio.close();
  }

  // ---- Audio ---------------------------------------------------------------------------------------------

  // Where the analysis runs, decided once before the first connection (its address says where): the kernel on
  // the device, wired to the client, or the server (analysis-choice.js), which the `analysis` event says.
  #prepareAnalysis() {
    this.#prepared ||= (async () => {
      let chosen;
      try {
        chosen = await chooseAnalysis({ analysis: this.analysis, endpoint: this.endpoint, wasm: this.#wasm,
          capture: this.audio.capture });
      } catch (error) {
        // Nothing could judge the microphone: the client is closed, so that a later call fails at once.
        this.close();
        throw error;
      }
      this.analysis = chosen.mode;
      if (chosen.device) {
        this.device = chosen.device;
        this.device.onMessages = (texts, speaking) => this.#onDevice(texts, speaking);
        this.device.onBlock = (block) => this.test.keep(block);
        // What the page said before the kernel had compiled (a mute, a join, "don't show again") holds.
        if (this.muted) this.device.command({ type: 'devices', on: false, cause: this.muteCause || 'self' });
        if (this.joined) this.device.command({ type: 'enter', inCall: true });
        if (this.noticeOff) this.device.command({ type: 'silence' });
      }
      if (chosen.event) this.emit('analysis', chosen.event);
    })();
    return this.#prepared;
  }

  // The kernel's messages are the server's, made on the device: the same handling. The page states its
  // speaking to the server (a claim it publishes while the microphone is on).
  #onDevice(texts, speaking) {
    for (const text of texts) receive(this, text);
    if (this.me !== null) this.link.stateSpeaking(speaking);
  }

  // "Test your microphone": judged by the kernel on the device, or by the server.
  #testMessage(m) {
    if (this.device && m.type === 'microphone_test') {
      this.device.command({ type: 'test', action: m.action, seconds: m.seconds });
    } else {
      this.link.send(m);
    }
  }

  #sendAudio(block) {
    if (!this.stream) return;
    // Muted in the call (or on /v1/vad), the audio still goes to MicCheck for "You are muted.", never to others.
    if (this.muted && !this.joined && this.endpoint === 'call') return;
    if (this.link.sendAudio(block)) this.test.keep(block);
  }

  sendDevices() {
    if (this.endpoint === 'vad') {
      this.link.send({ type: 'session.update', session: { muted: this.muted } });
      return;
    }
    // Before the welcome the page's role is unknown: its devices go with the welcome's answer.
    if (this.me === null) return;
    this.link.sendDevices(devicesMessage(this, this.moderation.hostMuted));
  }

  // The microphone changed or ended under a test: what it recorded is no longer one microphone's.
  #audioEvent(type, detail) {
    if (type === 'streamchange' || type === 'microphoneended' || type === 'permission') {
      this.test.cancel('The microphone test stopped: the microphone changed.');
    }
    this.emit(type, detail);
  }

  // ---- The connection -------------------------------------------------------------------------------------

  #opened() {
    this.sendDevices();
    if (this.noticeOff) this.link.send({ type: 'muted_notice_off' });
  }

  // The connection is gone: the roster stays as it was (the call's media goes browser to browser and may go
  // on) until the next snapshot replaces it; a refusal or close() empties it.
  #lost() {
    this.test.connectionLost();
    this.roster.expire();
    this.me = null;
    this.speaking = false;
    this.emit('mutednotice', { show: false, text: '', durationMs: 0, cause: this.muteCause, action: null });
  }

  #stateChanged(state, message, extra) {
    this.state = state;
    if (state === 'refused' || state === 'closed') {
      this.roster.clear();
      this.emit('presence', { participants: [], me: null, change: null });
    }
    this.emit('connection', { state, message, ...extra });
  }

  level(state) {
    this.microphone = state;
    this.emit('microphone', state);
    if (state.speaking !== this.speaking) {
      this.speaking = state.speaking;
      this.emit('speaking', { speaking: state.speaking });
    }
  }
}
