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

export class MicrophoneTestElement extends HTMLElement {
  constructor() {
    super();
    const root = shadow(this, CSS);
    this._button = h('button', { part: 'start', type: 'button', text: TEXT.testMicrophone,
      on: { click: () => this._clicked() } });
    this._message = h('p', { part: 'message' });
    this._verdict = h('p', { part: 'verdict' });
    this._left = h('p', { part: 'seconds-left', hidden: true });
    // The region exists before it has anything to say, so that a reader speaks each step when it comes.
    this._status = h('div', { part: 'status', role: 'status', 'aria-live': 'polite' }, this._message, this._verdict);
    root.append(h('div', { part: 'test' }, this._button, this._status, this._left));
    this._state = IDLE;
    this._available = true;
    this._note = false;
    upgradeProperties(this, ['state', 'available']);
    this._render();
    // From now on (after the constructor) a render may set the host's attributes.
    this._built = true;
  }

  connectedCallback() { this._render(); }

  /** The client's `microphonetest` event (`{state, secondsLeft, sentence, verdict, message, …}`), or idle. */
  get state() { return this._state; }
  set state(value) {
    const s = value && STATES.includes(value.state) ? value : IDLE;
    this._state = s;
    this._note = false;
    this._render();
  }

  /** False while the microphone is off: the button says why instead of starting a test. */
  get available() { return this._available; }
  set available(value) {
    this._available = value !== false;
    if (this._available) this._note = false;
    this._render();
  }

  /** Whether a test records or plays back. */
  get busy() { return this._state.state === 'recording' || this._state.state === 'playing'; }

  _clicked() {
    if (this.busy) return;
    if (!this._available) {
      this._note = true;
      this._render();
      return;
    }
    emit(this, 'miccheck-test-microphone');
  }

  _render() {
    const s = this._state;
    const tested = s.state === 'done' || s.state === 'failed';
    setText(this._button, tested ? TEXT.testAgain : TEXT.testMicrophone);
    const disabled = this.busy || !this._available;
    if (disabled) this._button.setAttribute('aria-disabled', 'true');
    else this._button.removeAttribute('aria-disabled');
    let message = '';
    if (s.state === 'recording') message = TEXT.testRecording;
    else if (s.state === 'playing') message = TEXT.testPlaying;
    else if (s.state === 'failed') message = s.message || '';
    if (this._note && !this._available) message = TEXT.testMicrophoneOff;
    setText(this._message, message);
    this._message.toggleAttribute('data-note', this._note && !this._available);
    const verdict = s.state === 'playing' || s.state === 'done' ? s.sentence || '' : '';
    setText(this._verdict, verdict);
    const recording = s.state === 'recording';
    this._left.hidden = !recording;
    setText(this._left, recording ? secondsLeft(Number.isFinite(s.secondsLeft) ? s.secondsLeft : s.seconds ?? 5) : '');
    if (!this._built) return;
    this.dataset.state = s.state;
    if (verdict && typeof s.verdict === 'string') this.dataset.verdict = s.verdict;
    else delete this.dataset.verdict;
  }
}
