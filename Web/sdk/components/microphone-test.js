// <miccheck-microphone-test>: "Test your microphone" and its status, as the terminal's lobby shows it: while
// it records, "Recording: say a sentence or two as you would in the call." with the seconds left; then
// "Playing back your recording…" beside MicCheck's verdict; then the verdict (green when the voice came
// through clearly, amber otherwise) and "Test again". A view: the app sets `state` from the client's
// `microphonetest` event and starts the test on `miccheck-test-microphone`. The status is a polite live region
// (the seconds left are outside it, so that a reader does not speak every second).
import { emit, h, setText, shadow, upgradeProperties } from './base.js';
import { secondsLeft, TEXT } from './texts.js';

const CSS = `
:host { display: block; }
[part~="test"] { display: flex; flex-direction: column; align-items: flex-start; gap: 6px; }
[part~="start"][aria-disabled="true"] { opacity: 0.45; cursor: not-allowed; }
[part~="status"] { display: flex; flex-direction: column; gap: 4px; }
p { margin: 0; }
[part~="message"] { font-weight: 600; }
:host([data-state="recording"]) [part~="message"]::before {
  content: ""; display: inline-block; width: 0.6em; height: 0.6em; margin-right: 0.4em; border-radius: 50%;
  background: var(--_danger);
}
:host([data-state="failed"]) [part~="message"], [part~="message"][data-note] { color: var(--_warning); }
[part~="verdict"] { font-weight: 600; color: var(--_warning); }
:host([data-verdict="clear"]) [part~="verdict"] { color: var(--_speaking); }
[part~="seconds-left"] { color: var(--_muted-text); font-variant-numeric: tabular-nums; }
`;

const STATES = ['idle', 'recording', 'playing', 'done', 'cancelled', 'failed'];
const IDLE = Object.freeze({ state: 'idle' });

/**
 * `<miccheck-microphone-test>`: "Test your microphone" and its status, as the terminal says it: "Recording: say
 * a sentence or two as you would in the call." with the seconds left, "Playing back your recording…", the
 * verdict's sentence (green when clear, amber otherwise) and "Test again". The status is a polite live region.
 * Event: `miccheck-test-microphone` (the app calls `client.testMicrophone()`). Host attributes: data-state,
 * data-verdict. Parts: test, start (the button), status, message, verdict, seconds-left.
 */
export class MicrophoneTestElement extends HTMLElement {
  #available; #built; #button; #left; #message; #note; #state; #status; #verdict;

  constructor() {
    super();
    const root = shadow(this, CSS);
    this.#button = h('button', { part: 'start', type: 'button', text: TEXT.testMicrophone,
      on: { click: () => this.#clicked() } });
    this.#message = h('p', { part: 'message' });
    this.#verdict = h('p', { part: 'verdict' });
    this.#left = h('p', { part: 'seconds-left', hidden: true });
    // The region exists before it has anything to say, so that a reader speaks each step when it comes.
    this.#status = h('div', { part: 'status', role: 'status', 'aria-live': 'polite' }, this.#message, this.#verdict);
    root.append(h('div', { part: 'test' }, this.#button, this.#status, this.#left));
    this.#state = IDLE;
    this.#available = true;
    this.#note = false;
    upgradeProperties(this, ['state', 'available']);
    this.#render();
    // From now on (after the constructor) a render may set the host's attributes.
    this.#built = true;
  }

  connectedCallback() { this.#render(); }

  /**
   * The client's `microphonetest` event (`{state, secondsLeft, sentence, verdict, message, …}`), or idle.
   * @type {import('../types.js').MicrophoneTestEvent | {state: 'idle'}}
   */
  get state() { return this.#state; }
  set state(value) {
    const s = value && STATES.includes(value.state) ? value : IDLE;
    this.#state = s;
    this.#note = false;
    this.#render();
  }

  /**
   * False while the microphone is off: the button says why instead of starting a test.
   * @type {boolean}
   */
  get available() { return this.#available; }
  set available(value) {
    this.#available = value !== false;
    if (this.#available) this.#note = false;
    this.#render();
  }

  /**
   * Whether a test records or plays back.
   * @type {boolean}
   */
  get busy() { return this.#state.state === 'recording' || this.#state.state === 'playing'; }

  #clicked() {
    if (this.busy) return;
    if (!this.#available) {
      this.#note = true;
      this.#render();
      return;
    }
    emit(this, 'miccheck-test-microphone');
  }

  #render() {
    const s = this.#state;
    const tested = s.state === 'done' || s.state === 'failed';
    setText(this.#button, tested ? TEXT.testAgain : TEXT.testMicrophone);
    const disabled = this.busy || !this.#available;
    if (disabled) this.#button.setAttribute('aria-disabled', 'true');
    else this.#button.removeAttribute('aria-disabled');
    let message = '';
    if (s.state === 'recording') message = TEXT.testRecording;
    else if (s.state === 'playing') message = TEXT.testPlaying;
    else if (s.state === 'failed') message = s.message || '';
    if (this.#note && !this.#available) message = TEXT.testMicrophoneOff;
    setText(this.#message, message);
    this.#message.toggleAttribute('data-note', this.#note && !this.#available);
    const verdict = s.state === 'playing' || s.state === 'done' ? s.sentence || '' : '';
    setText(this.#verdict, verdict);
    const recording = s.state === 'recording';
    this.#left.hidden = !recording;
    setText(this.#left, recording ? secondsLeft(Number.isFinite(s.secondsLeft) ? s.secondsLeft : s.seconds ?? 5) : '');
    if (!this.#built) return;
    this.dataset.state = s.state;
    if (verdict && typeof s.verdict === 'string') this.dataset.verdict = s.verdict;
    else delete this.dataset.verdict;
  }
}
