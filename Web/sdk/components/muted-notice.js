// <miccheck-muted-notice>: "You are muted." with an action (unmute), "Don't show again for this call" and a
// close button; after a host's mute, the host's sentence ("Grace muted you.") above it and no "don't show".
// Always in the DOM, a polite live region, so that a reader speaks it when it shows; it hides
// itself after its duration (paused while the pointer or the focus is on it).
import { h, setText } from './base.js';
import { icon } from './icons.js';
import { NoticeElement } from './notice.js';
import { TEXT } from './texts.js';

// Dark on the warning colour (notice.js has the box's shape).
const CSS = `
[part~="notice"] { background: var(--_warning); color: #1b1b1b; }
[part~="announcement"] { margin: 0; flex-basis: 100%; }
[part~="action"] { background: #1b1b1b; color: #fff; border-color: #1b1b1b; }
[part~="off"] { font-weight: 500; }
:focus-visible { outline-color: #1b1b1b; }
`;

/**
 * `<miccheck-muted-notice>`: "You are muted." with its action, "Don't show again for this call" and a close
 * button; role=status, aria-live=polite. Events: `miccheck-unmute`, `miccheck-muted-notice-off`,
 * `miccheck-close`. Parts: notice, announcement, text, action, off, close.
 */
export class MutedNoticeElement extends NoticeElement {
  #action; #announcement; #off; #text;

  constructor() {
    super(CSS, 2000);
    this.#text = h('p', { part: 'text', text: TEXT.muted });
    this.#announcement = h('p', { part: 'announcement', hidden: true });
    this.#action = h('button', { part: 'action', type: 'button', on: { click: () => this._done('miccheck-unmute') } });
    const off = this.#off = h('button', {
      part: 'off', class: 'link', type: 'button', text: TEXT.mutedNoticeOff,
      on: { click: () => this._done('miccheck-muted-notice-off') },
    });
    const close = h('button', {
      part: 'close', type: 'button', 'aria-label': TEXT.close, title: TEXT.close,
      on: { click: () => this._done('miccheck-close') },
    }, icon('close'));
    this._mount(h('div', { part: 'notice', hidden: true }, this.#announcement, this.#text, this.#action, off, close));
  }

  /**
   * Shows the notice for `durationMs` (0 or Infinity: until hidden). `action` is the button that unmutes,
   * labelled "Unmute (m)" from `{label: 'Unmute', key: 'm'}`; null shows none. The key is the app's to
   * handle: the notice only names it. `announcement` (a host's "Grace muted you.") shows above, and
   * then no "Don't show again" (a host's mute is not silenced by it).
   * @param {{text?: string, durationMs?: number, action?: {label: string, key?: string} | null,
   *   announcement?: string | null}} [notice]
   */
  show({ text = TEXT.muted, durationMs = 2000, action = { label: TEXT.unmute, key: 'm' }, announcement = null } = {}) {
    if (!this.hasAttribute('role')) this.connectedCallback();
    setText(this.#text, text);
    setText(this.#announcement, announcement || '');
    this.#announcement.hidden = !announcement;
    this.#off.hidden = !!announcement;
    this._setAction(this.#action, action);
    this._open(durationMs);
  }
}
