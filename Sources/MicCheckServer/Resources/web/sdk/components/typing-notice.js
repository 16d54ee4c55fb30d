// <miccheck-typing-notice>: "Your typing can be heard." with its action (mute) and a close button, as the
// server's typing_notice says: shown while the user types unmuted and is not speaking, at most every two
// minutes. Always in the DOM, a polite live region; it hides itself after its duration (paused while the
// pointer or the focus is on it), and when the app calls hide().
import { deepActiveElement, emit, h, setText, shadow, upgradeProperties } from './base.js';
import { icon } from './icons.js';
import { TEXT } from './texts.js';

const CSS = `
:host {
  position: fixed; top: 24px; left: 50%; transform: translateX(-50%); z-index: 1000;
  width: max-content; max-width: calc(100vw - 24px);
}
[part~="notice"] {
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; padding: 10px 12px 10px 18px;
  border-radius: 8px; background: var(--_panel); color: var(--_text); font-weight: 600;
  border: 2px solid var(--_warning); box-shadow: 0 6px 24px rgba(0, 0, 0, 0.4);
}
[part~="text"] { margin: 0; }
[part~="action"] { min-height: 36px; padding: 4px 12px; background: var(--_warning); color: #1b1b1b; border: none; }
[part~="close"] { min-height: 36px; min-width: 36px; padding: 4px; background: none; border: none; }
`;

export class TypingNoticeElement extends HTMLElement {
  constructor() {
    super();
    const root = shadow(this, CSS);
    this._text = h('p', { part: 'text', text: TEXT.typing });
    this._action = h('button', { part: 'action', type: 'button', on: { click: () => this._done('miccheck-mute') } });
    const close = h('button', {
      part: 'close', type: 'button', 'aria-label': TEXT.close, title: TEXT.close,
      on: { click: () => this._done('miccheck-close') },
    }, icon('close'));
    this._box = h('div', { part: 'notice', hidden: true }, this._text, this._action, close);
    root.append(this._box);
    this._timer = null;
    this._durationMs = 4000;
    this._held = new Set();
    const hold = (why, on) => () => {
      if (on) this._held.add(why); else this._held.delete(why);
      this._schedule();
    };
    this._box.addEventListener('pointerenter', hold('pointer', true));
    this._box.addEventListener('pointerleave', hold('pointer', false));
    this._box.addEventListener('focusin', hold('focus', true));
    this._box.addEventListener('focusout', hold('focus', false));
    upgradeProperties(this, ['open']);
  }

  connectedCallback() {
    if (!this.hasAttribute('role')) this.setAttribute('role', 'status');
    if (!this.hasAttribute('aria-live')) this.setAttribute('aria-live', 'polite');
  }

  disconnectedCallback() { clearTimeout(this._timer); }

  /** Whether the notice shows. */
  get open() { return !this._box.hidden; }
  set open(value) { if (value) this.show(); else this.hide(); }

  /**
   * Shows the notice for `durationMs` (0 or Infinity: until hidden). `action` is the button that mutes,
   * labelled "Mute (m)" from `{label: 'Mute', key: 'm'}` (the key is the app's to handle); null shows none.
   */
  show({ text = TEXT.typing, durationMs = 4000, action = { label: TEXT.mute, key: 'm' } } = {}) {
    if (!this.hasAttribute('role')) this.connectedCallback();
    setText(this._text, text);
    this._action.hidden = !action;
    if (action) {
      setText(this._action, action.key ? `${action.label} (${action.key})` : action.label);
      if (action.key) this._action.setAttribute('aria-keyshortcuts', action.key);
      else this._action.removeAttribute('aria-keyshortcuts');
    }
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
