// The client's link to `miccheck serve`: the connection (connection.js keeps it up), each try's address with
// the invitation's token, and what the page says over it: its messages, its audio (dropped while the network
// stalls), its devices (once a change) and, with the analysis on the device, its speaking.
import { ServerConnection, refusalOf } from './connection.js';
import { MicCheckError } from './microphone.js';
import { encode } from './protocol.js';

// Audio waiting to go out beyond this (a stalled network) is dropped rather than queued without bound.
const MAX_BUFFERED = 256 * 1024;
// How often a page that speaks says so again (device analysis; the server's stall is 1 s).
const RESTATE_MS = 500;

export class ServerLink {
  #connection;
  #config;
  // The token the last try connected with (a function's answer, or the string given).
  #tokenSent = null;
  // What the page last said of its speaking, and when; the last devices message (a new connection's server
  // knows neither).
  #statedSpeaking = null;
  #statedAt = 0;
  #devicesSent = null;

  /**
   * @param {{endpoint: string, server: URL | null, call: string | null, token: unknown,
   *   analysis: () => string}} config the client's options (`analysis` as it stands at each try)
   * @param {{onOpen: () => void, onText: (text: string) => void, onLost: () => void,
   *   onState: (state: string, message: string, extra: object) => void}} on
   * @param {{WebSocket?: unknown, backoff?: object}} options
   */
  constructor(config, on, options) {
    this.#config = config;
    this.#connection = new ServerConnection(() => this.#url(), {
      onOpen: () => {
        this.#statedSpeaking = null;
        this.#devicesSent = null;
        on.onOpen();
      },
      onText: on.onText, onLost: on.onLost, onState: on.onState,
      askWhy: () => (config.endpoint === 'call' ? refusalOf(config.server, config.call, this.#tokenSent) : null),
      canRenew: () => typeof config.token === 'function',
    }, options);
  }

  get isOpen() { return this.#connection.isOpen; }

  open() { this.#connection.open(); }

  close() { this.#connection.close(); }

  /** A message of the protocol's, as JSON. */
  send(message) { this.#connection.send(encode(message)); }

  /** A block of audio; false when it could not go (not open, or the network stalls). */
  sendAudio(block) {
    if (!this.isOpen || this.#connection.buffered > MAX_BUFFERED) return false;
    this.#connection.send(block);
    return true;
  }

  /** The page's devices, once for each change: a toggle also changes the stream or the permission. */
  sendDevices(message) {
    const text = encode(message);
    if (text === this.#devicesSent) return;
    this.#devicesSent = text;
    this.#connection.send(text);
  }

  /** A welcome starts the page's role anew: its devices go again. */
  forgetDevices() { this.#devicesSent = null; }

  // The page's own statement of its speaking (a claim the server publishes while the microphone is on). While
  // it speaks it says so again every half second: a page that stops (a closed lid, a frozen tab) stops speaking
  // on the server a second later, as a stalled stream of audio would.
  stateSpeaking(speaking) {
    if (!this.isOpen) return;
    const now = Date.now();
    if (speaking === this.#statedSpeaking && !(speaking && now - this.#statedAt >= RESTATE_MS)) return;
    this.#statedSpeaking = speaking;
    this.#statedAt = now;
    this.send({ type: 'speaking', speaking });
  }

  // The address of each try: with a token function, a promise of it, the token asked for anew each time (an
  // invitation that expired under the connection, or during a long outage, is replaced).
  #url() {
    const { token } = this.#config;
    if (typeof token !== 'function') return this.#address(token);
    return (async () => {
      const fresh = await token();
      if (typeof fresh !== 'string' || !fresh) {
        throw new MicCheckError('bad-option', 'the token function gave no token');
      }
      return this.#address(fresh);
    })();
  }

  #address(token) {
    const { endpoint, server, call } = this.#config;
    this.#tokenSent = token;
    const url = new URL(endpoint === 'call' ? '/v1/call' : '/v1/vad', server);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (call) url.searchParams.set('call', call);
    if (endpoint === 'call') url.searchParams.set('analysis', this.#config.analysis());
    if (token) url.searchParams.set('token', token);
    return url.href;
  }
}
