// One WebSocket to the server that keeps itself up: keep-alives, reconnection with backoff (1 s doubling to
// 10 s), and refusals said once and never retried (the server closes with 4000 + the HTTP status and the
// reason as the WebSocket opens; Guides/Security.md). An invitation that expires under a connection the server
// took (4401 after the server had said something: a refused upgrade opens too, but says nothing before its
// close) is a refusal as well, unless the client can ask for a new token (`canRenew`): then it is a lost
// connection, and the next try asks for its address, so for a new token, again.
import { Backoff } from './backoff.js';
import { closeMeaning } from './protocol.js';

const KEEP_ALIVE_MS = 4000;
const OPEN = 1;

export class ServerConnection {
  /**
   * @param {() => string | Promise<string>} url the endpoint's ws:// or wss:// address, asked at each try (a
   *   promise while a new token is fetched)
   * @param {{onOpen: () => void, onText: (text: string) => void, onLost: () => void,
   *   onState: (state: string, message: string, extra: object) => void, askWhy?: () => Promise<string | null>,
   *   canRenew?: () => boolean}} on
   */
  constructor(url, on, { WebSocket = globalThis.WebSocket, backoff = {} } = {}) {
    this.url = url;
    this.on = on;
    this.WebSocket = WebSocket;
    this.backoff = new Backoff(backoff);
    this.ws = null;
    this.retry = null;
    this.keepAlive = null;
    this.closed = false;
    // Waiting for the address (a token being fetched).
    this.pending = false;
  }

  get isOpen() { return !!this.ws && this.ws.readyState === OPEN; }

  /** How much is waiting to go out, in bytes. */
  get buffered() { return this.ws ? this.ws.bufferedAmount : 0; }

  /** Connects, unless connected or waiting to retry. */
  open() {
    if (this.ws || this.retry || this.pending || this.closed) return;
    this.#connect();
  }

  send(data) {
    if (this.isOpen) this.ws.send(data);
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    this.retry = null;
    if (this.ws) this.ws.close(1000);
    else this.on.onState('closed', '', {});
  }

  #connect() {
    this.retry = null;
    this.on.onState(this.backoff.attempt ? 'reconnecting' : 'connecting', '', {});
    let url;
    try {
      url = this.url();
    } catch (error) {
      this.#noAddress(error);
      return;
    }
    if (typeof url === 'string') {
      this.#dial(url);
      return;
    }
    this.pending = true;
    Promise.resolve(url).then((address) => {
      this.pending = false;
      if (!this.closed) this.#dial(address);
    }, (error) => {
      this.pending = false;
      if (!this.closed) this.#noAddress(error);
    });
  }

  // No token to connect with (the app's function threw or gave none): tried again like a lost connection.
  #noAddress(error) {
    this.#retryLater(`No invitation to connect with: ${error?.message || error}.`, {});
  }

  #retryLater(message, extra) {
    const delay = this.backoff.next();
    this.retry = setTimeout(() => this.#connect(), delay);
    this.on.onState('reconnecting', `${message} Reconnecting in ${Math.round(delay / 1000)} s…`,
      { ...extra, retryInMs: delay, attempt: this.backoff.attempt });
  }

  #dial(url) {
    const ws = new this.WebSocket(url);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    let opened = false;
    let answered = false;
    ws.onopen = () => {
      opened = true;
      this.on.onState('open', '', {});
      this.on.onOpen();
      // A page that sends no audio (its microphone denied or muted) would be taken for gone after 10 s.
      this.keepAlive = setInterval(() => this.send('{"type":"keep_alive"}'), KEEP_ALIVE_MS);
    };
    ws.onmessage = (e) => {
      // A server that answers, not only one that accepts the socket and closes it, ends the backoff.
      this.backoff.reset();
      answered = true;
      if (typeof e.data === 'string') this.on.onText(e.data);
    };
    ws.onclose = (e) => this.#lost(ws, e, opened, answered);
  }

  async #lost(ws, event, opened, answered) {
    clearInterval(this.keepAlive);
    if (this.ws !== ws) return;
    this.ws = null;
    this.on.onLost();
    if (this.closed) {
      this.on.onState('closed', '', {});
      return;
    }
    // An invitation that expired under a connection the server took, when a new token can be had, is a lost
    // connection.
    const renewable = answered && event.code === 4401 && !!this.on.canRenew?.();
    let meaning = closeMeaning(event.code, event.reason, { renewable });
    if (!opened && !meaning.refused && this.on.askWhy && this.backoff.attempt === 0) {
      // A refusal a proxy or an older server gave before the WebSocket opened shows no reason (1006): ask
      // once, not at every try while the server is down.
      const why = await this.on.askWhy();
      if (this.closed || this.ws || this.retry) return;
      if (why) meaning = closeMeaning(4401, why);
    }
    if (meaning.refused) {
      this.on.onState('refused', meaning.message, { code: event.code });
      return;
    }
    this.#retryLater(meaning.message, { code: event.code });
  }
}

/**
 * Why the server refuses this call's invitation, from its presence snapshot (`GET /v1/calls/ID`): the 401's
 * reason, or null when it does not refuse it or cannot be reached.
 */
export async function refusalOf(server, call, token) {
  if (typeof fetch !== 'function') return null;
  try {
    const url = new URL(`/v1/calls/${encodeURIComponent(call)}`, server);
    if (token) url.searchParams.set('token', token);
    const r = await fetch(url);
    if (r.status !== 401) return null;
    const text = await r.text();
    try { return JSON.parse(text).error.message; } catch { return text.trim() || 'refused'; }
  } catch {
    return null;
  }
}
