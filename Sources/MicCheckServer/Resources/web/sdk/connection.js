// One WebSocket to the server that keeps itself up: keep-alives, reconnection with backoff (1 s doubling to
// 10 s), and refusals said once and never retried (the server closes with 4000 + the HTTP status and the
// reason as the WebSocket opens; Guides/Security.md).
import { Backoff } from './backoff.js';
import { closeMeaning } from './protocol.js';

const KEEP_ALIVE_MS = 4000;
const OPEN = 1;

export class ServerConnection {
  /**
   * @param {() => string} url the endpoint's ws:// or wss:// address, asked at each try
   * @param {{onOpen: () => void, onText: (text: string) => void, onLost: () => void,
   *   onState: (state: string, message: string, extra: object) => void, askWhy?: () => Promise<string | null>}} on
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
  }

  get isOpen() { return !!this.ws && this.ws.readyState === OPEN; }

  /** How much is waiting to go out, in bytes. */
  get buffered() { return this.ws ? this.ws.bufferedAmount : 0; }

  /** Connects, unless connected or waiting to retry. */
  open() {
    if (this.ws || this.retry || this.closed) return;
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
    const ws = new this.WebSocket(this.url());
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    let opened = false;
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
      if (typeof e.data === 'string') this.on.onText(e.data);
    };
    ws.onclose = (e) => this.#lost(ws, e, opened);
  }

  async #lost(ws, event, opened) {
    clearInterval(this.keepAlive);
    if (this.ws !== ws) return;
    this.ws = null;
    this.on.onLost();
    if (this.closed) {
      this.on.onState('closed', '', {});
      return;
    }
    let meaning = closeMeaning(event.code, event.reason);
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
    const delay = this.backoff.next();
    this.retry = setTimeout(() => this.#connect(), delay);
    this.on.onState('reconnecting', `${meaning.message} Reconnecting in ${Math.round(delay / 1000)} s…`,
      { code: event.code, retryInMs: delay, attempt: this.backoff.attempt });
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
