// <miccheck-lobby>: the pre-join screen. "Before Joining", a preview of oneself with the microphone meter and
// the toggles, the name, "You are about to join a call." with who is there and "Join Call", the device menus
// with "Test your microphone" under them (below Join Call on a phone, which stays in view), and the note on
// the microphone staying in use while muted. A view: the app sets `state`, `microphone` and `microphoneTest`
// and acts on its events. The preview tile, the meter, the microphone test and the participants strip come
// from the factory and are the lobby's light-DOM children (slots "preview", "meter", "microphone-test",
// "participants"), so that a page's own styles reach a piece it made itself.
import { emit, h, setText, shadow, upgradeProperties } from './base.js';
import { makeDeviceSelects } from './device-selects.js';
import { ViewFactory } from './factory.js';
import { LOBBY_CSS } from './lobby-css.js';
import { checkedName, limitedName } from './names.js';
import { TEXT, callLine } from './texts.js';
import { makeToggleButtons } from './toggle-buttons.js';

const DEFAULTS = Object.freeze({
  name: '', nameLocked: false, call: '',
  settings: { audio: true, video: true, speaker: true }, allowed: { audio: true, video: true },
  devices: { audioinput: [], videoinput: [], audiooutput: [] },
  chosen: { audioinput: '', videoinput: '', audiooutput: '' },
  others: [], selfStream: null, deviceNote: '', status: '', joinDisabled: false,
});

export class LobbyElement extends HTMLElement {
  constructor() {
    super();
    const root = shadow(this, LOBBY_CSS);
    this._toggles = makeToggleButtons();
    this._devices = makeDeviceSelects();
    this._name = h('input', {
      part: 'name', autocomplete: 'name', spellcheck: 'false', 'aria-describedby': 'name-note',
      on: { input: () => this._typed(), keydown: (e) => this._key(e) },
    });
    this._nameNote = h('p', { part: 'name-note', id: 'name-note', 'aria-live': 'polite' });
    this._about = h('p', { part: 'about', text: TEXT.aboutToJoin });
    this._call = h('p', { part: 'call', hidden: true });
    this._join = h('button', {
      part: 'join', class: 'primary', type: 'button', text: TEXT.join, on: { click: () => this._joinClicked() },
    });
    this._status = h('p', { part: 'status', role: 'status' });
    this._deviceNote = h('p', { part: 'device-note', 'aria-live': 'polite' });
    this._privacy = h('p', { part: 'privacy', text: TEXT.privacy });
    root.append(h('div', { part: 'screen' },
      h('header', { part: 'header' },
        h('h1', { part: 'title', text: TEXT.title }), h('p', { part: 'subtitle', text: TEXT.subtitle })),
      h('div', { part: 'layout' },
        h('section', { part: 'preview-panel', 'aria-label': 'Preview' },
          h('slot', { name: 'preview' }), h('slot', { name: 'meter' }),
          h('div', { part: 'toggles', role: 'group', 'aria-label': 'Audio and video' }, ...this._toggles.list)),
        h('section', { part: 'setup-panel', 'aria-label': TEXT.join },
          h('label', { part: 'name-label' }, h('span', { text: TEXT.yourName }), this._name),
          this._nameNote,
          h('div', { part: 'join-panel' },
            this._about, this._call, h('slot', { name: 'participants' }), this._join, this._status),
          h('fieldset', { part: 'devices' }, h('legend', { text: TEXT.devices }), ...this._devices.labels,
            this._deviceNote),
          h('slot', { name: 'microphone-test' }),
          this._privacy))));
    this._state = DEFAULTS;
    this._factory = null;
    this._pieces = null;
    this._microphone = null;
    this._microphoneTest = null;
    upgradeProperties(this, ['factory', 'state', 'microphone', 'microphoneTest']);
    // From here on the lobby may add its pieces (an element must not gain children in its constructor).
    this._built = true;
  }

  connectedCallback() { this._render(); }

  /** The factory that makes the preview tile, the meter and the strip (else the defaults). */
  get factory() { return this._factory || (this._factory = new ViewFactory()); }
  set factory(value) {
    this._factory = value || null;
    if (this._pieces) {
      for (const piece of Object.values(this._pieces)) piece.remove();
      this._pieces = null;
      this._render();
    }
  }

  /** The pieces made by the factory: `{preview, meter, microphoneTest, strip}` (made on the first render). */
  get pieces() { return this._ensurePieces(); }

  /** What the lobby shows (see DEFAULTS); setting a part of it keeps the rest. */
  get state() { return this._state; }
  set state(value) {
    this._state = { ...this._state, ...(value || {}) };
    this._render();
  }

  /** The client's `microphone` event, for the meter. */
  get microphone() { return this._microphone; }
  set microphone(value) {
    this._microphone = value;
    if (this._built) this._ensurePieces().meter.state = value;
  }

  /** The client's `microphonetest` event, for "Test your microphone" (null: no test yet). */
  get microphoneTest() { return this._microphoneTest; }
  set microphoneTest(value) {
    this._microphoneTest = value;
    if (this._built) this._ensurePieces().microphoneTest.state = value;
  }

  /** The name in the field as it would be sent: trimmed, at most 64 characters. */
  get name() { return checkedName(this._name.value).name; }

  focusName() { this._name.focus(); }

  _ensurePieces() {
    if (this._pieces) return this._pieces;
    const f = this.factory;
    const preview = f.makeVideoParticipantView(this._selfParticipant());
    const meter = f.makeMeterView();
    const microphoneTest = f.makeMicrophoneTestView();
    const strip = f.makeParticipantsStripView();
    preview.slot = 'preview';
    meter.slot = 'meter';
    microphoneTest.slot = 'microphone-test';
    strip.slot = 'participants';
    this.append(preview, meter, microphoneTest, strip);
    this._pieces = { preview, meter, microphoneTest, strip };
    if (this._microphone) meter.state = this._microphone;
    if (this._microphoneTest) microphoneTest.state = this._microphoneTest;
    return this._pieces;
  }

  _selfParticipant() {
    const s = this._state;
    return {
      id: 'self', name: this.name || s.name, self: true, speaking: false,
      audio: s.settings.audio !== false && s.allowed.audio !== false,
      video: s.settings.video !== false && s.allowed.video !== false,
    };
  }

  _render() {
    const s = this._state;
    const wanted = limitedName(s.name || '');
    if (checkedName(this._name.value).name !== checkedName(wanted.name).name) {
      this._name.value = wanted.name;
      setText(this._nameNote, wanted.cut ? TEXT.nameCut : '');
    }
    this._name.readOnly = !!s.nameLocked;
    this._toggles.update({ settings: s.settings, allowed: s.allowed });
    this._devices.update(s.devices, s.chosen);
    this._call.hidden = !s.call;
    setText(this._call, s.call ? callLine(s.call) : '');
    this._join.disabled = !!s.joinDisabled;
    setText(this._status, s.status || '');
    setText(this._privacy, s.privacy || TEXT.privacy);
    setText(this._deviceNote, s.deviceNote || '');
    if (!this._built || (!this.isConnected && !this._pieces)) return;
    const { preview, microphoneTest, strip } = this._ensurePieces();
    preview.participant = this._selfParticipant();
    preview.stream = s.selfStream || null;
    preview.speakerOn = false;
    preview.showSpeaking = false;
    strip.participants = Array.isArray(s.others) ? s.others : [];
    // The microphone can be tested while it is on; a participant the invitation does not let speak has no test.
    microphoneTest.hidden = s.allowed.audio === false;
    microphoneTest.available = s.settings.audio !== false && s.allowed.audio !== false;
  }

  _typed() {
    const { name, cut } = limitedName(this._name.value);
    if (cut) this._name.value = name;
    setText(this._nameNote, cut ? TEXT.nameCut : '');
    const checked = checkedName(this._name.value).name;
    this._state = { ...this._state, name: checked };
    if (this._pieces) this._pieces.preview.participant = this._selfParticipant();
    emit(this, 'miccheck-name', { name: checked });
  }

  _key(e) {
    if (e.key !== 'Enter' || e.isComposing) return;
    e.preventDefault();
    this._joinClicked();
  }

  _joinClicked() {
    if (this._state.joinDisabled) return;
    emit(this, 'miccheck-join', { name: this.name });
  }
}
