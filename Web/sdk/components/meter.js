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
  height: 100%; background: var(--_speaking);
  transform: scaleX(var(--_level, 0)); transform-origin: left; transition: transform 80ms linear;
}
:host(:dir(rtl)) [part~="level"] { transform-origin: right; }
:host([data-on="false"]) [part~="level"] { transform: scaleX(0); }
[part~="warning"] { margin: 8px 0 0; color: var(--_warning); font-weight: 600; }
[part~="warnings"] { margin: 4px 0 0; padding-left: 18px; color: var(--_warning); }
[part~="warnings"]:empty { display: none; }
`;

const OFF = Object.freeze({ on: false, levelDb: -160, display: 0, notWorking: null, warnings: [] });

/**
 * `<miccheck-meter>`: the level (role=meter, with a value text) and the not-working sentence. Parts: bar, level,
 * alerts, warning, warnings, warning-item.
 */
export class MeterElement extends HTMLElement {
  #bar; #built; #state; #warning; #warnings; #warningsKey;

  constructor() {
    super();
    const root = shadow(this, CSS);
    this.#bar = h('div', {
      part: 'bar', role: 'meter', 'aria-label': TEXT.meter, 'aria-valuemin': '0', 'aria-valuemax': '1',
      'aria-valuenow': '0', 'aria-valuetext': TEXT.meterOff,
    }, h('div', { part: 'level' }));
    this.#warning = h('p', { part: 'warning', hidden: true });
    this.#warnings = h('ul', { part: 'warnings' });
    // The region exists before it has anything to say, so that a reader speaks the warning when it comes.
    const region = h('div', { part: 'alerts', 'aria-live': 'polite' }, this.#warning, this.#warnings);
    root.append(this.#bar, region);
    this.#state = OFF;
    this.#warningsKey = '';
    upgradeProperties(this, ['state']);
    this.#render();
    // From now on (after the constructor) a render may set the host's attributes: an element must not gain
    // any in its constructor. The first render that does is the first property set or the connection.
    this.#built = true;
  }

  connectedCallback() { this.#render(); }

  /**
   * `{on, levelDb, display (0…1), notWorking (a sentence or null), warnings (sentences)}`.
   * @type {import('../types.js').MicrophoneState}
   */
  get state() { return this.#state; }
  set state(value) {
    const s = value || OFF;
    this.#state = {
      on: !!s.on,
      levelDb: Number(s.levelDb ?? s.level_db ?? -160),
      display: Math.min(1, Math.max(0, Number(s.display) || 0)),
      notWorking: s.notWorking ?? s.not_working ?? null,
      warnings: Array.isArray(s.warnings) ? s.warnings.map(String) : [],
    };
    this.#render();
  }

  #render() {
    const s = this.#state;
    const shown = s.on ? s.display : 0;
    this.#bar.setAttribute('aria-valuenow', String(shown));
    this.#bar.setAttribute('aria-valuetext', meterValueText({ on: s.on, display: shown, levelDb: s.levelDb }));
    this.#bar.style.setProperty('--_level', String(shown));
    setText(this.#warning, s.notWorking || '');
    this.#warning.hidden = !s.notWorking;
    const key = JSON.stringify(s.warnings);
    if (key !== this.#warningsKey) {
      this.#warningsKey = key;
      this.#warnings.replaceChildren(...s.warnings.map((w) => h('li', { part: 'warning-item', text: w })));
    }
    if (!this.#built) return;
    this.dataset.on = String(s.on);
    this.dataset.levelDb = String(s.levelDb);
    this.toggleAttribute('data-not-working', !!s.notWorking);
  }
}
