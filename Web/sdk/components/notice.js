// What the notices share (<miccheck-muted-notice>, <miccheck-typing-notice>): always in the DOM as a polite
// live region, so that a reader speaks a notice when it shows; shown for a duration, paused while the pointer
// or the focus is on it; an action button named with its key; buttons that hide it and say so by an event.
import { deepActiveElement, emit, setText, shadow, upgradeProperties } from './base.js';

// The box both notices share: fixed at the top of the page, centred, its text and buttons in a row. Each
// notice's own sheet gives its colours after it.
const NOTICE_CSS = `
:host {
  position: fixed; top: 24px; left: 50%; transform: translateX(-50%); z-index: 1000;
  width: max-content; max-width: calc(100vw - 24px);
}
[part~="notice"] {
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; padding: 10px 12px 10px 18px;
  border-radius: 8px; font-weight: 600; box-shadow: 0 6px 24px rgba(0, 0, 0, 0.4);
}
[part~="text"] { margin: 0; }
[part~="action"] { min-height: 36px; padding: 4px 12px; }
[part~="close"] { min-height: 36px; min-width: 36px; padding: 4px; background: none; border: none; }
`;

/** A notice's element: the muted notice and the typing notice build on it. */
export class NoticeElement extends HTMLElement {
  #box; #durationMs; #held; #root; #timer;

  /**
   * @param {string} css the notice's own style sheet (its colours), after the shared box's
   * @param {number} durationMs how long `open = true` shows it
   */
  constructor(css, durationMs) {
    super();
    this.#root = shadow(this, NOTICE_CSS + css);
    this.#timer = null;
    this.#durationMs = durationMs;
    this.#held = new Set();
  }

  /**
   * Puts the notice's box in the shadow root, hidden, and follows the pointer and the focus on it.
   * @protected
   * @param {HTMLElement} box
   */
  _mount(box) {
    this.#box = box;
    this.#root.append(box);
    const hold = (why, on) => () => {
      if (on) this.#held.add(why); else this.#held.delete(why);
      this.#schedule();
    };
    box.addEventListener('pointerenter', hold('pointer', true));
    box.addEventListener('pointerleave', hold('pointer', false));
    box.addEventListener('focusin', hold('focus', true));
    box.addEventListener('focusout', hold('focus', false));
    upgradeProperties(this, ['open']);
  }

  connectedCallback() {
    if (!this.hasAttribute('role')) this.setAttribute('role', 'status');
    if (!this.hasAttribute('aria-live')) this.setAttribute('aria-live', 'polite');
  }

  disconnectedCallback() { clearTimeout(this.#timer); }

  /**
   * Whether the notice shows. Setting true shows it with the defaults; false hides it.
   * @type {boolean}
   */
  get open() { return !this.#box.hidden; }
  set open(value) { if (value) this.show(); else this.hide(); }

  /**
   * Labels `button` from `{label, key}` ("Unmute (m)"); null hides it. The key is the app's to handle.
   * @protected
   * @param {HTMLButtonElement} button
   * @param {{label: string, key?: string} | null} action
   */
  _setAction(button, action) {
    button.hidden = !action;
    if (!action) return;
    setText(button, action.key ? `${action.label} (${action.key})` : action.label);
    if (action.key) button.setAttribute('aria-keyshortcuts', action.key);
    else button.removeAttribute('aria-keyshortcuts');
  }

  /**
   * Shows the box for `durationMs` (0 or Infinity: until hidden).
   * @protected
   * @param {number} durationMs
   */
  _open(durationMs) {
    this.#box.hidden = false;
    this.toggleAttribute('open', true);
    this.#durationMs = durationMs;
    this.#schedule();
  }

  /** Hides the notice (it stays in the DOM, a silent live region). */
  hide() {
    clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#box.hidden) return;
    // No hidden button keeps the focus.
    if (this.#box.contains(deepActiveElement())) deepActiveElement().blur();
    this.#held.clear();
    this.#box.hidden = true;
    this.toggleAttribute('open', false);
  }

  #schedule() {
    clearTimeout(this.#timer);
    this.#timer = null;
    const ms = this.#durationMs;
    if (this.#box.hidden || this.#held.size > 0 || !(ms > 0) || ms === Infinity) return;
    this.#timer = setTimeout(() => this.hide(), ms);
  }

  /**
   * Hides the notice and says why (the button's event).
   * @protected
   * @param {string} type the event to say it with
   */
  _done(type) {
    this.hide();
    emit(this, type);
  }
}
