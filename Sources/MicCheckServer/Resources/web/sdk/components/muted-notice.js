// <miccheck-muted-notice>: "You are muted." with an action (unmute), "Don't show again for this call" and a
// close button; after a host's mute, the host's sentence ("Grace muted you.") above it and no "don't show".
// Always in the DOM, a polite live region, so that a reader speaks it when it shows; it hides
// itself after its duration (paused while the pointer or the focus is on it).
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
  border-radius: 8px; background: var(--_warning); color: #1b1b1b; font-weight: 600;
  box-shadow: 0 6px 24px rgba(0, 0, 0, 0.4);
}
[part~="text"], [part~="announcement"] { margin: 0; }
[part~="announcement"] { flex-basis: 100%; }
[part~="action"] { min-height: 36px; padding: 4px 12px; background: #1b1b1b; color: #fff; border-color: #1b1b1b; }
[part~="off"] { font-weight: 500; }
[part~="close"] { min-height: 36px; min-width: 36px; padding: 4px; background: none; border: none; }
:focus-visible { outline-color: #1b1b1b; }
`;

export class MutedNoticeElement extends HTMLElement {
  constructor() {
    super();
    const root = shadow(this, CSS);
    this._text = h('p', { part: 'text', text: TEXT.muted });
    this._announcement = h('p', { part: 'announcement', hidden: true });
    this._action = h('button', { part: 'action', type: 'button', on: { click: () => this._done('miccheck-unmute') } });
    const off = this._off = h('button', {
      part: 'off', class: 'link', type: 'button', text: TEXT.mutedNoticeOff,
      on: { click: () => this._done('miccheck-muted-notice-off') },
    });
    const close = h('button', {
      part: 'close', type: 'button', 'aria-label': TEXT.close, title: TEXT.close,
      on: { click: () => this._done('miccheck-close') },
    }, icon('close'));
    this._box = h('div', { part: 'notice', hidden: true }, this._announcement, this._text, this._action, off, close);
    root.append(this._box);
    this._timer = null;
    this._durationMs = 2000;
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

  /** Whether the notice shows. Setting true shows it with the defaults; false hides it. */
  get open() { return !this._box.hidden; }
  set open(value) { if (value) this.show(); else this.hide(); }

  /**
   * Shows the notice for `durationMs` (0 or Infinity: until hidden). `action` is the button that unmutes,
   * labelled "Unmute (m)" from `{label: 'Unmute', key: 'm'}`; null shows none. The key is the app's to
   * handle: the notice only names it. `announcement` (a host's "Grace muted you.") shows above, and
   * then no "Don't show again" (a host's mute is not silenced by it).
   */
  show({ text = TEXT.muted, durationMs = 2000, action = { label: TEXT.unmute, key: 'm' }, announcement = null } = {}) {
    if (!this.hasAttribute('role')) this.connectedCallback();
    setText(this._text, text);
    setText(this._announcement, announcement || '');
    this._announcement.hidden = !announcement;
    this._off.hidden = !!announcement;
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
