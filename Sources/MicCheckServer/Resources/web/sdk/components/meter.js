// <miccheck-meter>: the live microphone level, the "not working" sentence and the other warnings. A view:
// the app sets `state` from the client's `microphone` event.
import { h, setText, shadow, upgradeProperties } from './base.js';
import { meterValueText, TEXT } from './texts.js';

const CSS = `
:host { display: block; }
[part~="bar"] {
  height: 10px; margin-top: 12px; border-radius: 5px; background: var(--_border); overflow: hidden;
}
[part~="level"] {
  height: 100%; width: calc(var(--_level, 0) * 100%); background: var(--_speaking); transition: width 80ms linear;
}
:host([data-on="false"]) [part~="level"] { width: 0; }
[part~="warning"] { margin: 8px 0 0; color: var(--_warning); font-weight: 600; }
[part~="warnings"] { margin: 4px 0 0; padding-left: 18px; color: var(--_warning); }
[part~="warnings"]:empty { display: none; }
`;

const OFF = Object.freeze({ on: false, levelDb: -160, display: 0, notWorking: null, warnings: [] });

export class MeterElement extends HTMLElement {
  constructor() {
    super();
    const root = shadow(this, CSS);
    this._bar = h('div', {
      part: 'bar', role: 'meter', 'aria-label': TEXT.meter, 'aria-valuemin': '0', 'aria-valuemax': '1',
      'aria-valuenow': '0', 'aria-valuetext': TEXT.meterOff,
    }, h('div', { part: 'level' }));
    this._warning = h('p', { part: 'warning', hidden: true });
    this._warnings = h('ul', { part: 'warnings' });
    // The region exists before it has anything to say, so that a reader speaks the warning when it comes.
    const region = h('div', { part: 'alerts', 'aria-live': 'polite' }, this._warning, this._warnings);
    root.append(this._bar, region);
    this._state = OFF;
    this._warningsKey = '';
    upgradeProperties(this, ['state']);
    this._render();
    // From now on (after the constructor) a render may set the host's attributes: an element must not gain
    // any in its constructor. The first render that does is the first property set or the connection.
    this._built = true;
  }

  connectedCallback() { this._render(); }

  /** `{on, levelDb, display (0…1), notWorking (a sentence or null), warnings (sentences)}`. */
  get state() { return this._state; }
  set state(value) {
    const s = value || OFF;
    this._state = {
      on: !!s.on,
      levelDb: Number(s.levelDb ?? s.level_db ?? -160),
      display: Math.min(1, Math.max(0, Number(s.display) || 0)),
      notWorking: s.notWorking ?? s.not_working ?? null,
      warnings: Array.isArray(s.warnings) ? s.warnings.map(String) : [],
    };
    this._render();
  }

  _render() {
    const s = this._state;
    const shown = s.on ? s.display : 0;
    this._bar.setAttribute('aria-valuenow', String(shown));
    this._bar.setAttribute('aria-valuetext', meterValueText({ on: s.on, display: shown, levelDb: s.levelDb }));
    this._bar.style.setProperty('--_level', String(shown));
    setText(this._warning, s.notWorking || '');
    this._warning.hidden = !s.notWorking;
    const key = JSON.stringify(s.warnings);
    if (key !== this._warningsKey) {
      this._warningsKey = key;
      this._warnings.replaceChildren(...s.warnings.map((w) => h('li', { part: 'warning-item', text: w })));
    }
    if (!this._built) return;
    this.dataset.on = String(s.on);
    this.dataset.levelDb = String(s.levelDb);
    this.toggleAttribute('data-not-working', !!s.notWorking);
  }
}
