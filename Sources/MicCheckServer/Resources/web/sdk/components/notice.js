// What the notices share (<miccheck-muted-notice>, <miccheck-typing-notice>): always in the DOM as a polite
// live region, so that a reader speaks a notice when it shows; shown for a duration, paused while the pointer
// or the focus is on it; an action button named with its key; buttons that hide it and say so by an event.
import { deepActiveElement, emit, setText, shadow, upgradeProperties } from './base.js';

export class NoticeElement extends HTMLElement {
  /** `css`: the notice's own style sheet; `durationMs`: how long `open = true` shows it. */
  constructor(css, durationMs) {
    super();
    this._root = shadow(this, css);
    this._timer = null;
    this._durationMs = durationMs;
    this._held = new Set();
  }

  /** Puts the notice's box in the shadow root, hidden, and follows the pointer and the focus on it. */
  _mount(box) {
    this._box = box;
    this._root.append(box);
    const hold = (why, on) => () => {
      if (on) this._held.add(why); else this._held.delete(why);
      this._schedule();
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

  disconnectedCallback() { clearTimeout(this._timer); }

  /** Whether the notice shows. Setting true shows it with the defaults; false hides it. */
  get open() { return !this._box.hidden; }
  set open(value) { if (value) this.show(); else this.hide(); }

  /** Labels `button` from `{label, key}` ("Unmute (m)"); null hides it. The key is the app's to handle. */
  _setAction(button, action) {
    button.hidden = !action;
    if (!action) return;
    setText(button, action.key ? `${action.label} (${action.key})` : action.label);
    if (action.key) button.setAttribute('aria-keyshortcuts', action.key);
    else button.removeAttribute('aria-keyshortcuts');
  }

  /** Shows the box for `durationMs` (0 or Infinity: until hidden). */
  _open(durationMs) {
    this._box.hidden = false;
    this.toggleAttribute('open', true);
    this._durationMs = durationMs;
    this._schedule();
  }

  /** Hides the notice (it stays in the DOM, a silent live region). */
  hide() {
    clearTimeout(this._timer);
    this._timer = null;
    if (this._box.hidden) return;
    // No hidden button keeps the focus.
    if (this._box.contains(deepActiveElement())) deepActiveElement().blur();
    this._held.clear();
    this._box.hidden = true;
    this.toggleAttribute('open', false);
  }

  _schedule() {
    clearTimeout(this._timer);
    this._timer = null;
    const ms = this._durationMs;
    if (this._box.hidden || this._held.size > 0 || !(ms > 0) || ms === Infinity) return;
    this._timer = setTimeout(() => this.hide(), ms);
  }

  _done(type) {
    this.hide();
    emit(this, type);
  }
}
