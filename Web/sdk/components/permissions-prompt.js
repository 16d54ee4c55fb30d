// <miccheck-permissions-prompt>: "Camera and microphone access required" (or one of the two), shown when the
// call lets the user send what the browser refuses. A modal dialog (the page behind it is inert): it takes the
// focus, keeps it, gives it back on closing; "Open Settings" shows each browser's steps; "Dismiss", Esc and ×
// close it and say so (`miccheck-dismiss`), the app deciding whether a dismissal persists.
import { deepActiveElement, emit, h, shadow } from './base.js';
import { icon } from './icons.js';
import { LINUX_NOTE, PERMISSION_TEXTS, SETTINGS_STEPS, TEXT } from './texts.js';

const CSS = `
:host { display: contents; }
[part~="dialog"] {
  width: min(560px, calc(100vw - 24px)); max-height: calc(100dvh - 24px); overflow: auto; padding: 24px;
  border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_panel); color: var(--_text);
  box-shadow: 0 10px 40px rgba(0, 0, 0, 0.6);
}
[part~="dialog"]::backdrop { background: rgba(0, 0, 0, 0.55); }
[part~="header"] { display: flex; align-items: flex-start; gap: 12px; }
[part~="title"] { flex: 1; margin: 0; font-size: 20px; }
[part~="close"] { min-width: 44px; padding: 4px; background: none; border: none; }
[part~="message"] { margin: 12px 0; }
[part~="steps"] h3 { margin: 12px 0 4px; font-size: 16px; }
[part~="steps"] ol { margin: 0; padding-left: 22px; }
[part~="steps"] code { font-family: ui-monospace, monospace; }
[part~="buttons"] { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 16px; }
`;

const KINDS = Object.keys(PERMISSION_TEXTS);

/**
 * What the permissions prompt asks for.
 * @typedef {'camera-and-microphone' | 'microphone' | 'camera'} PromptKind
 */

/**
 * `<miccheck-permissions-prompt>`: a modal dialog that takes focus, closes on Esc, and shows the browsers'
 * steps with "Open Settings". Events: `miccheck-dismiss` {kind}, `miccheck-open-settings` {kind, open}.
 * Parts: dialog, header, title, close, message, steps, linux-note, buttons, settings, dismiss.
 */
export class PermissionsPromptElement extends HTMLElement {
  #dialog; #kind; #message; #opener; #settings; #steps; #title;

  constructor() {
    super();
    const root = shadow(this, CSS);
    this.#title = h('h2', { part: 'title', id: 'title' });
    this.#message = h('p', { part: 'message', id: 'message' });
    const close = h('button', {
      part: 'close', type: 'button', 'aria-label': TEXT.close, title: TEXT.close,
      on: { click: () => this.#dismiss() },
    }, icon('close'));
    const note = h('p', { part: 'linux-note' }, LINUX_NOTE.before, h('code', { text: LINUX_NOTE.code }),
      LINUX_NOTE.after);
    this.#steps = h('div', { part: 'steps', id: 'steps', hidden: true },
      ...SETTINGS_STEPS.flatMap(({ browser, steps }) => [
        h('h3', { text: browser }), h('ol', {}, ...steps.map((step) => h('li', { text: step }))),
      ]), note);
    this.#settings = h('button', {
      part: 'settings', class: 'primary', type: 'button', text: TEXT.openSettings, 'aria-expanded': 'false',
      'aria-controls': 'steps', on: { click: () => this.#toggleSteps() },
    });
    const dismiss = h('button', {
      part: 'dismiss', type: 'button', text: TEXT.dismiss, on: { click: () => this.#dismiss() },
    });
    this.#dialog = h('dialog', {
      part: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'title', 'aria-describedby': 'message',
    }, h('div', { part: 'header' }, this.#title, close), this.#message, this.#steps,
    h('div', { part: 'buttons' }, this.#settings, dismiss));
    root.append(this.#dialog);
    this.#kind = null;
    this.#opener = null;
    // Esc (and any other close request the browser makes) is a dismissal; hide() closes without one.
    this.#dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      this.#dismiss();
    });
    this.#dialog.addEventListener('close', () => {
      if (this.#kind !== null) this.#dismiss();
    });
    this.#dialog.addEventListener('keydown', (e) => this.#trap(e));
  }

  disconnectedCallback() { if (this.#dialog.open) this.#dialog.close(); }

  /**
   * Whether the prompt shows.
   * @type {boolean}
   */
  get open() { return this.#dialog.open; }

  /**
   * What it shows, or null: 'camera-and-microphone', 'microphone' or 'camera'.
   * @type {PromptKind | null}
   */
  get kind() { return this.#kind; }

  /**
   * Shows the prompt for `kind` and moves the focus into it ("Open Settings").
   * @param {PromptKind} kind
   */
  show(kind) {
    if (!KINDS.includes(kind)) throw new TypeError(`miccheck-permissions-prompt: no kind "${kind}"`);
    const { title, message } = PERMISSION_TEXTS[kind];
    this.#kind = kind;
    this.#title.textContent = title;
    this.#message.textContent = message;
    this.dataset.kind = kind;
    this.toggleAttribute('open', true);
    if (!this.#dialog.open) {
      const active = deepActiveElement();
      this.#opener = active && active !== document.body ? active : null;
      this.#setSteps(false);
      this.#dialog.showModal();
    }
    this.#settings.focus();
  }

  /** Closes the prompt without a dismissal, and gives the focus back to where it was before. */
  hide() {
    const was = this.#kind !== null;
    this.#kind = null;
    this.toggleAttribute('open', false);
    if (this.#dialog.open) this.#dialog.close();
    if (!was) return;
    const opener = this.#opener;
    this.#opener = null;
    if (opener && opener.isConnected && typeof opener.focus === 'function') opener.focus();
  }

  #dismiss() {
    const kind = this.#kind;
    if (kind === null) return;
    this.hide();
    emit(this, 'miccheck-dismiss', { kind });
  }

  #toggleSteps() {
    const open = this.#steps.hidden;
    this.#setSteps(open);
    emit(this, 'miccheck-open-settings', { kind: this.#kind, open });
  }

  #setSteps(open) {
    this.#steps.hidden = !open;
    this.#settings.setAttribute('aria-expanded', String(open));
  }

  // Tab and Shift+Tab go round the dialog's controls instead of leaving for the browser's.
  #trap(e) {
    if (e.key !== 'Tab') return;
    const controls = [...this.#dialog.querySelectorAll('button')].filter((b) => !b.disabled && b.offsetParent);
    if (controls.length === 0) return;
    const first = controls[0];
    const last = controls[controls.length - 1];
    const active = this.shadowRoot.activeElement;
    if (e.shiftKey && (active === first || !this.#dialog.contains(active))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  }
}
