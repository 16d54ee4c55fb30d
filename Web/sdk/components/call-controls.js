// <miccheck-call-controls>: the call's toolbar: the microphone, camera and speaker toggles, Push-to-talk and
// Leave, and while push-to-talk is on a line that says so ("Push-to-talk: hold Space to talk", "Talking"). It
// fits a phone's width: below 480 px the labels go under their icons, and the buttons share the width.
import { emit, h, setText, shadow, upgradeProperties } from './base.js';
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
  /* Push-to-talk takes a row of its own under the four. */
  [part~="toolbar"] { flex-wrap: wrap; }
  [part~="push-to-talk"] { order: 1; flex: 1 0 100%; flex-direction: row; }
}
[part~="push-to-talk"][aria-pressed="true"] { background: var(--_accent); border-color: var(--_accent); color: #fff; }
[part~="push-to-talk-status"] { margin: 0; text-align: center; color: var(--_muted-text); }
[part~="push-to-talk-status"][data-talking] { color: var(--_speaking); font-weight: 600; }
` + TOGGLE_CSS;

const DEFAULTS = Object.freeze({
  audio: true, video: true, speaker: true, allowed: Object.freeze({ audio: true, video: true }),
  pushToTalk: false, talking: false,
});

/**
 * A toggle of the lobby and the call: the microphone, the camera, the speaker.
 * @typedef {'audio' | 'video' | 'speaker'} ToggleKind
 */
/**
 * What the call's toolbar shows.
 * @typedef {object} CallControlsState
 * @property {boolean} audio
 * @property {boolean} video
 * @property {boolean} speaker
 * @property {{audio: boolean, video: boolean}} allowed what the invitation lets one send
 * @property {boolean} [pushToTalk]
 * @property {boolean} [talking] push-to-talk's key is held
 */

/**
 * `<miccheck-call-controls>`: microphone, camera and speaker toggles (aria-pressed; disabled when the
 * invitation forbids), Push-to-talk and Leave, and while push-to-talk is on "Push-to-talk: hold Space to talk"
 * or "Talking". Events: `miccheck-toggle` {kind}, `miccheck-push-to-talk` {on}, `miccheck-leave`. Parts:
 * toolbar, toggle, toggle-audio, toggle-video, toggle-speaker, icon, label, push-to-talk, push-to-talk-status,
 * leave.
 */
export class CallControlsElement extends HTMLElement {
  #ptt; #pttStatus; #state; #toggles;

  constructor() {
    super();
    const root = shadow(this, CSS);
    this.#toggles = makeToggleButtons();
    const leave = h('button', {
      part: 'leave', class: 'danger', type: 'button', on: { click: () => emit(this, 'miccheck-leave') },
    }, icon('leave'), h('span', { part: 'label', class: 'label', text: TEXT.leave }));
    this.#ptt = h('button', {
      part: 'push-to-talk', type: 'button', 'aria-pressed': 'false', 'aria-keyshortcuts': 'Space',
      on: { click: () => emit(this, 'miccheck-push-to-talk', { on: !this.#state.pushToTalk }) },
    }, h('span', { part: 'label', class: 'label', text: TEXT.pushToTalk }));
    this.#pttStatus = h('p', { part: 'push-to-talk-status', role: 'status' });
    root.append(h('div', { part: 'toolbar', role: 'group', 'aria-label': 'Call controls' },
      ...this.#toggles.list, this.#ptt, leave), this.#pttStatus);
    this.#state = DEFAULTS;
    upgradeProperties(this, ['state']);
  }

  /**
   * `{audio, video, speaker, allowed: {audio, video}, pushToTalk, talking}`: what is on, what the invitation
   * lets one send, and whether push-to-talk is on and its key held.
   * @type {CallControlsState}
   */
  get state() { return this.#state; }
  set state(value) {
    this.#state = { ...DEFAULTS, ...(value || {}) };
    const { audio, video, speaker, allowed } = this.#state;
    this.#toggles.update({ settings: { audio, video, speaker }, allowed: allowed || {} });
    const { pushToTalk, talking } = this.#state;
    this.#ptt.setAttribute('aria-pressed', String(!!pushToTalk));
    this.#ptt.disabled = allowed?.audio === false;
    setText(this.#pttStatus, pushToTalk ? (talking ? TEXT.talking : TEXT.pushToTalkHint) : '');
    this.#pttStatus.toggleAttribute('data-talking', !!(pushToTalk && talking));
  }
}
