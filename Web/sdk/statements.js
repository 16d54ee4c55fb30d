// Speaking across somebody else's media server (an SFU's data channel, a signalling socket): each page says
// whether it speaks, decided on its own device, and the others show it. No audio is involved: a statement is
// a few bytes of JSON the app sends through its own channel. A statement holds for `holdMs` after it came, and
// never past `maxAgeMs` after it was said, so a page that stops sending (frozen, its network gone) stops showing
// as speaking on the others' pages without anybody having to say so; a speaking page says it again every
// `restateMs`.
//
// "After it was said": a statement carries the time on its sender's clock (`at`, ms), and the receiver learns
// each sender's clock from the fastest of its last LAGS statements (the least arrival − at; about 13 s of them,
// restated every 0.4 s). A statement that comes later than that (queued behind a busy page, a congested channel
// or a stalled media server) has aged on the way: the statements a page said just before it froze, delivered
// in a burst, keep it speaking no longer than `maxAgeMs` after the freeze. Up to `maxAgeMs − holdMs` of age
// costs nothing: a receiver whose own page runs late (its event loop behind, which makes every statement look
// older) keeps a steady speaker's ring on. A lasting change (a longer route, the sender's clock set) is learnt
// once the window has moved past it.

/**
 * A statement's type, so that it can share a channel with the app's own messages.
 * @type {'miccheck.speaking'}
 */
export const SPEAKING_STATEMENT = 'miccheck.speaking';
const LONGEST_ID = 64;
// One key for an id wherever it is used (a long id is cut the same way in heard, speaking and forget).
const keyOf = (id) => String(id).slice(0, LONGEST_ID);
// How many of a sender's last statements its clock is learnt from (32 at 0.4 s: about 13 s; more than a stalled
// server's backlog, little enough that a new route or a clock that was set is learnt within seconds).
const LAGS = 32;
const pageClock = () => performance.timeOrigin + performance.now();

/**
 * Says this page's speaking through `send(text)`: on each change of the client's speaking or mute, and again
 * every `restateMs` (also while silent, so a receiver can tell a quiet page from a frozen one). Muted, a page
 * says it does not speak: the others do not hear it either. Returns a function that stops it.
 * @param {EventTarget & {speaking: boolean, muted: boolean}} client a MicCheckClient
 * @param {(text: string) => void} send the app's channel (its errors are the app's: one that throws is ignored)
 * @param {{restateMs?: number, now?: () => number, setInterval?: typeof setInterval,
 *   clearInterval?: typeof clearInterval}} [options] `now`: this page's clock in ms (the statements' `at`)
 */
export function stateSpeaking(client, send, options = {}) {
  const restateMs = options.restateMs ?? 400;
  const now = options.now || pageClock;
  const every = options.setInterval || setInterval;
  const stopEvery = options.clearInterval || clearInterval;
  const say = () => {
    const speaking = !!client.speaking && !client.muted;
    const text = JSON.stringify({ type: SPEAKING_STATEMENT, speaking, at: Math.round(now()) });
    try { send(text); } catch { /* the channel is not open yet, or closed: the next statement tries again */ }
  };
  client.addEventListener('speaking', say);
  client.addEventListener('mutechange', say);
  const timer = every(say, restateMs);
  say();
  return () => {
    stopEvery(timer);
    client.removeEventListener('speaking', say);
    client.removeEventListener('mutechange', say);
  };
}

/**
 * The others' statements, by the app's own id for each (a feed, a participant): who speaks now. `onChange(id,
 * speaking)` is called when somebody starts or stops: by a statement, by `forget`, or when a speaking one's last
 * statement no longer holds.
 */
export class RemoteSpeaking {
  #people = new Map();
  #timer = null;

  /**
   * @param {(id: string, speaking: boolean) => void} onChange
   * @param {{holdMs?: number, maxAgeMs?: number, now?: () => number, setInterval?: typeof setInterval,
   *   clearInterval?: typeof clearInterval}} [options] `holdMs`: how long a statement holds after it came (1200);
   *   `maxAgeMs`: never longer than this after it was said (`holdMs` + 800)
   */
  constructor(onChange, options = {}) {
    /** @private */
    this.onChange = onChange;
    /**
     * How long a statement holds after it came, in ms.
     * @readonly
     */
    this.holdMs = options.holdMs ?? 1200;
    /**
     * A statement never holds longer than this after it was said (at least `holdMs`), in ms.
     * @readonly
     */
    this.maxAgeMs = Math.max(this.holdMs, options.maxAgeMs ?? this.holdMs + 800);
    /** @private */
    this.now = options.now || (() => performance.now());
    // Called as plain functions: a browser's timers refuse another `this`.
    /** @private */
    this.every = options.setInterval || ((f, ms) => setInterval(f, ms));
    /** @private */
    this.stopEvery = options.clearInterval || ((id) => clearInterval(id));
  }

  /**
   * A message from `id`'s channel. Returns true when it was a speaking statement (and taken), false for any
   * other text (the app's own messages, or something malformed, which is ignored).
   * @param {string | number} id
   * @param {unknown} text
   * @returns {boolean}
   */
  heard(id, text) {
    const key = keyOf(id);
    if (typeof text !== 'string' || text.length > 256) return false;
    let statement;
    try { statement = JSON.parse(text); } catch { return false; }
    if (!statement || statement.type !== SPEAKING_STATEMENT || typeof statement.speaking !== 'boolean') return false;
    // The channel is the app's, and ordered (an SFU's data channel is by default): the last statement holds.
    const known = this.#people.get(key);
    const arrived = this.now();
    const { said, clock } = this.#saidAt(known, statement.at, arrived);
    // A statement that aged past `maxAgeMs` on its way says nothing about now: the sender may have frozen since.
    const until = Math.min(arrived + this.holdMs, said + this.maxAgeMs);
    const speaking = statement.speaking && until > arrived;
    this.#people.set(key, { speaking, until, clock });
    if ((known?.speaking ?? false) !== speaking) this.onChange(key, speaking);
    this.#watch();
    return true;
  }

  // When a statement was said, on our clock: its arrival less how much later it came than the sender's fastest
  // of its last LAGS. `clock` is what is learnt of the sender's clock: those lags (arrival − at).
  #saidAt(known, at, arrived) {
    if (typeof at !== 'number' || !Number.isFinite(at)) return { said: arrived, clock: known?.clock ?? null };
    const lag = arrived - at;
    const lags = [...(known?.clock ?? []).slice(1 - LAGS), lag];
    return { said: arrived - (lag - Math.min(...lags)), clock: lags };
  }

  /**
   * Whether `id` speaks now.
   * @param {string | number} id
   * @returns {boolean}
   */
  speaking(id) { return this.#people.get(keyOf(id))?.speaking ?? false; }

  /**
   * `id` left (its tile went): it no longer speaks.
   * @param {string | number} id
   */
  forget(id) {
    const key = keyOf(id);
    const known = this.#people.get(key);
    this.#people.delete(key);
    if (known?.speaking) this.onChange(key, false);
    if (!this.#anySpeaking()) this.#stop();
  }

  /** Ends the speaking of those whose last statement no longer holds (the timer calls it). */
  expire() {
    const now = this.now();
    for (const [id, known] of this.#people) {
      if (known.speaking && now > known.until) {
        known.speaking = false;
        this.onChange(id, false);
      }
    }
    if (!this.#anySpeaking()) this.#stop();
  }

  /** Stops the timer, and forgets everybody (each speaking one ends). */
  close() {
    for (const id of [...this.#people.keys()]) this.forget(id);
    this.#stop();
  }

  #watch() {
    if (this.#timer === null && this.#anySpeaking()) {
      this.#timer = this.every(() => this.expire(), Math.max(50, Math.min(250, this.holdMs / 5)));
    }
  }

  #anySpeaking() { return [...this.#people.values()].some((p) => p.speaking); }

  #stop() {
    if (this.#timer !== null) this.stopEvery(this.#timer);
    this.#timer = null;
  }
}
