// "Test your microphone" in the page: the server judges the next seconds of the audio the page already sends
// (`microphone_test`, Guides/Browser.md) and keeps none of it; the page keeps its own copy of the very blocks
// it sends, plays them back through the chosen output once the verdict has come, and lets the copy go.
//
// Steps, as `microphonetest` events: `recording` (at the server's answer, then at each whole second of audio
// sent, with `secondsLeft`), `playing` (with the verdict), `done` (the verdict, `playedBack`), or
// `cancelled` / `failed` (with a `message`). A cancel while recording ends in `cancelled`; while playing back
// it stops the sound and ends in `done` (the verdict stands).
import { MicCheckError } from './microphone.js';
import { PcmPlayer } from './playback.js';

const RATE = 16000;
// The server answers at the latest 3 s past the test's end when the audio stops; past this, it never will.
const ANSWER_GRACE_MS = 8000;

export const TEST_SECONDS = Object.freeze({ min: 1, max: 10, default: 5 });

/** Throws the `MicCheckError` that says why a test cannot start now, if one cannot. */
export function refuseTest({ seconds, closed, busy, joined, allowed, microphone, muted, open }) {
  const refuse = (code, message) => { throw new MicCheckError(code, message); };
  if (typeof seconds !== 'number' || !(seconds >= TEST_SECONDS.min && seconds <= TEST_SECONDS.max)) {
    refuse('bad-option', `a microphone test lasts 1 to 10 seconds, not ${JSON.stringify(seconds)}`);
  }
  if (closed) refuse('closed', 'this client was closed; make a new one');
  if (busy) refuse('test-busy', 'A microphone test is already running.');
  if (joined) refuse('in-call', 'The microphone test is for before joining: leave the call to test it.');
  if (!allowed) refuse('not-allowed', 'Your invitation does not let you send audio.');
  if (!microphone) refuse('no-microphone', 'There is no microphone to test: allow this page to use one.');
  if (muted) refuse('muted', 'Turn your microphone on to test it.');
  if (!open) refuse('not-connected', 'The microphone test needs the connection to MicCheck, which is not open now.');
}

export class MicrophoneTestRunner {
  #test = null;
  // Starts the server has not answered yet: answers before the last start's are an earlier test's.
  #unanswered = 0;

  /**
   * @param {{send: (message: object) => void, emit: (type: string, detail: object) => void,
   *   makePlayer?: (options: {sinkId: string}) => {play(samples: Int16Array, rate: number): Promise<void>,
   *   stop(): void, close(): void}}} options
   */
  constructor({ send, emit, makePlayer }) {
    this.send = send;
    this.emit = emit;
    this.makePlayer = makePlayer || ((options) => new PcmPlayer(options));
  }

  /** Whether a test records or plays back. */
  get busy() { return this.#test !== null; }

  /** `recording`, `playing`, or null. */
  get phase() { return this.#test ? this.#test.phase : null; }

  /**
   * Starts a test (the caller checked that one may start). Resolves with the verdict once played back.
   * @returns {Promise<object>}
   */
  start({ seconds, sinkId, playBack }) {
    return new Promise((resolve, reject) => {
      // Made now, from the user's click: an AudioContext made later, without one, may never start. A browser
      // that cannot make one still gets the verdict, without playback.
      let player = null;
      try {
        if (playBack) player = this.makePlayer({ sinkId });
      } catch {
        player = null;
      }
      const test = { seconds, phase: 'recording', answered: false, samples: new Int16Array(Math.round(seconds * RATE)),
        length: 0, shownLeft: null, player, result: null, resolve, reject, timer: null };
      this.#test = test;
      this.#unanswered += 1;
      this.send({ type: 'microphone_test', action: 'start', seconds });
      test.timer = setTimeout(() => {
        this.send({ type: 'microphone_test', action: 'cancel' });
        this.#fail(test, 'MicCheck did not answer the microphone test in time.');
      }, seconds * 1000 + ANSWER_GRACE_MS);
    });
  }

  /** A block of 16 kHz 16-bit PCM the client has just sent: kept while recording, up to the test's length. */
  keep(block) {
    const t = this.#test;
    if (!t || t.phase !== 'recording' || t.length >= t.samples.length) return;
    const n = Math.min(block.byteLength >> 1, t.samples.length - t.length);
    t.samples.set(new Int16Array(block, 0, n), t.length);
    t.length += n;
    if (t.answered) this.#showLeft(t);
  }

  /** A decoded `microphone_test` message from the server. */
  receive(m) {
    const t = this.#test;
    if (m.state === 'recording') {
      this.#unanswered = Math.max(0, this.#unanswered - 1);
      if (!t || t.answered || this.#unanswered > 0) return;
      t.answered = true;
      this.#showLeft(t);
      return;
    }
    // An answer before this test's `recording` is an earlier, cancelled test's.
    if (!t || !t.answered || t.phase !== 'recording') return;
    if (m.state === 'done') {
      // The verdict is on the test's whole length: so is the copy (judged on the device, the copy's last 20 ms
      // block may still be on its way from the worklet; it would end in a moment of silence).
      t.length = t.samples.length;
      this.#showLeft(t);
      const { type, state, ...verdict } = m;
      this.#playBack(t, verdict).catch((error) => this.emit('error', { message: String(error) }));
    } else if (m.state === 'cancelled') {
      this.#finish(t, 'cancelled', { message: 'MicCheck cancelled the microphone test.' },
        new MicCheckError('test-cancelled', 'MicCheck cancelled the microphone test.'));
    }
  }

  /** Stops a test: `message` says why. Returns whether one was running. */
  cancel(message = 'The microphone test was cancelled.') {
    const t = this.#test;
    if (!t) return false;
    if (t.phase === 'playing') {
      this.#finish(t, 'done', { ...t.result, playedBack: false });
      return true;
    }
    this.send({ type: 'microphone_test', action: 'cancel' });
    this.#finish(t, 'cancelled', { message }, new MicCheckError('test-cancelled', message));
    return true;
  }

  /** The connection is gone: a test still recording cannot be judged (one playing back goes on). */
  connectionLost() {
    this.#unanswered = 0;
    const t = this.#test;
    if (t && t.phase === 'recording') this.#fail(t, 'The connection to MicCheck was lost during the microphone test.');
  }

  #showLeft(t) {
    const left = Math.max(0, Math.ceil((t.samples.length - t.length) / RATE - 1e-9));
    if (left === t.shownLeft) return;
    t.shownLeft = left;
    this.emit('microphonetest', { state: 'recording', seconds: t.seconds, secondsLeft: left });
  }

  async #playBack(t, verdict) {
    clearTimeout(t.timer);
    const recording = t.samples.subarray(0, t.length);
    t.samples = null;
    t.result = { seconds: t.seconds, ...verdict };
    if (!t.player || recording.length === 0) {
      this.#finish(t, 'done', { ...t.result, playedBack: false });
      return;
    }
    t.phase = 'playing';
    this.emit('microphonetest', { state: 'playing', ...t.result });
    let played = true;
    try {
      await t.player.play(recording, RATE);
    } catch {
      played = false;
    }
    if (this.#test === t) this.#finish(t, 'done', { ...t.result, playedBack: played });
  }

  #fail(t, message) {
    if (this.#test !== t) return;
    this.#finish(t, 'failed', { message }, new MicCheckError('test-failed', message));
  }

  #finish(t, state, detail, error = null) {
    clearTimeout(t.timer);
    if (t.player) t.player.close();
    t.samples = null;
    this.#test = null;
    const result = { seconds: t.seconds, ...detail };
    this.emit('microphonetest', { state, ...result });
    if (error) t.reject(error);
    else t.resolve(result);
  }
}
