// <miccheck-call-controls>: the call's toolbar: the microphone, camera and speaker toggles and Leave. It fits
// a phone's width: below 480 px the labels go under their icons, and the buttons share the width.
import { emit, h, shadow, upgradeProperties } from './base.js';
import { icon } from './icons.js';
import { TEXT } from './texts.js';
import { TOGGLE_CSS, makeToggleButtons } from './toggle-buttons.js';

const CSS = `
:host { display: block; container-type: inline-size; }
[part~="toolbar"] { display: flex; flex-wrap: wrap; justify-content: center; gap: 8px; padding: 8px 0; }
@container (max-width: 480px) {
  [part~="toolbar"] { flex-wrap: nowrap; gap: 6px; }
  button { flex: 1 1 0; min-width: 0; flex-direction: column; gap: 2px; padding: 6px 4px; font-size: 12px; }
  button .label { max-width: 100%; overflow: hidden; text-overflow: ellipsis; }
}
` + TOGGLE_CSS;

const DEFAULTS = Object.freeze({
  audio: true, video: true, speaker: true, allowed: Object.freeze({ audio: true, video: true }),
});

export class CallControlsElement extends HTMLElement {
  constructor() {
    super();
    const root = shadow(this, CSS);
    this._toggles = makeToggleButtons();
    const leave = h('button', {
      part: 'leave', class: 'danger', type: 'button', on: { click: () => emit(this, 'miccheck-leave') },
    }, icon('leave'), h('span', { part: 'label', class: 'label', text: TEXT.leave }));
    root.append(h('div', { part: 'toolbar', role: 'group', 'aria-label': 'Call controls' },
      ...this._toggles.list, leave));
    this._state = DEFAULTS;
    upgradeProperties(this, ['state']);
  }

  /** `{audio, video, speaker, allowed: {audio, video}}`: what is on, and what the invitation lets one send. */
  get state() { return this._state; }
  set state(value) {
    this._state = { ...DEFAULTS, ...(value || {}) };
    const { audio, video, speaker, allowed } = this._state;
    this._toggles.update({ settings: { audio, video, speaker }, allowed: allowed || {} });
  }
}
