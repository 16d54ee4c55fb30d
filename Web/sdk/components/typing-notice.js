// <miccheck-typing-notice>: "Your typing can be heard." with its action (mute) and a close button, as the
// server's typing_notice says: shown while the user types unmuted and is not speaking, at most every two
// minutes. Always in the DOM, a polite live region; it hides itself after its duration (paused while the
// pointer or the focus is on it), and when the app calls hide().
import { h, setText } from './base.js';
import { icon } from './icons.js';
import { NoticeElement } from './notice.js';
import { TEXT } from './texts.js';

// On the panel, framed in the warning colour (notice.js has the box's shape).
const CSS = `
[part~="notice"] { background: var(--_panel); color: var(--_text); border: 2px solid var(--_warning); }
[part~="action"] { background: var(--_warning); color: #1b1b1b; border: none; }
`;

/**
 * `<miccheck-typing-notice>`: "Your typing can be heard." with "Mute (m)" and a close button; role=status.
 * Events: `miccheck-mute`, `miccheck-close`. Parts: notice, text, action, close.
 */
export class TypingNoticeElement extends NoticeElement {
  #action; #text;

  constructor() {
    super(CSS, 4000);
    this.#text = h('p', { part: 'text', text: TEXT.typing });
    this.#action = h('button', { part: 'action', type: 'button', on: { click: () => this._done('miccheck-mute') } });
    const close = h('button', {
      part: 'close', type: 'button', 'aria-label': TEXT.close, title: TEXT.close,
      on: { click: () => this._done('miccheck-close') },
    }, icon('close'));
    this._mount(h('div', { part: 'notice', hidden: true }, this.#text, this.#action, close));
  }

  /**
   * Shows the notice for `durationMs` (0 or Infinity: until hidden). `action` is the button that mutes,
   * labelled "Mute (m)" from `{label: 'Mute', key: 'm'}` (the key is the app's to handle); null shows none.
   * @param {{text?: string, durationMs?: number, action?: {label: string, key?: string} | null}}
   *   [notice]
   */
  show({ text = TEXT.typing, durationMs = 4000, action = { label: TEXT.mute, key: 'm' } } = {}) {
    if (!this.hasAttribute('role')) this.connectedCallback();
    setText(this.#text, text);
    this._setAction(this.#action, action);
    this._open(durationMs);
  }
}
