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

/**
 * A kind of device the lobby offers a menu of.
 * @typedef {'audioinput' | 'videoinput' | 'audiooutput'} DeviceKind
 */
/**
 * What the lobby shows; setting a part of it keeps the rest.
 * @typedef {object} LobbyState
 * @property {string} name
 * @property {boolean} nameLocked an invitation's name, which the field shows and cannot change
 * @property {string} call
 * @property {{audio: boolean, video: boolean, speaker: boolean}} settings
 * @property {{audio: boolean, video: boolean}} allowed what the invitation lets one send
 * @property {Record<DeviceKind, {deviceId: string, label: string}[]>} devices
 * @property {Record<DeviceKind, string>} chosen
 * @property {import('../types.js').Participant[]} others the participants already in the call
 * @property {MediaStream | null} selfStream
 * @property {string} deviceNote
 * @property {string} status a connection's sentence: a refusal, "Reconnecting in N s…"
 * @property {boolean} joinDisabled
 * @property {string} [privacy] the note on capture while muted (default `CAPTURE_NOTE`; `CAPTURE_NOTE_SERVER`
 *   where the server analyses)
 */

/**
 * `<miccheck-lobby>`: "Before Joining": the preview (a tile from its factory), the meter, the toggles, the name
 * (at most 64 characters, shortened with a note), who is there, Join Call, the devices with "Test your
 * microphone" under them, and the note on capture while muted. Events: `miccheck-toggle` {kind},
 * `miccheck-choose-device` {kind, deviceId}, `miccheck-name` {name}, `miccheck-join` {name}, and the microphone
 * test's `miccheck-test-microphone`. Parts: screen, header, title, subtitle, layout, preview-panel, toggles,
 * setup-panel, name-label, name, name-note, join-panel, about, call, join, status, devices, device-label,
 * device-select, device-note, privacy.
 */
export class LobbyElement extends HTMLElement {
  #about; #built; #call; #deviceNote; #devices; #factory; #join; #microphone; #microphoneTest; #name; #nameNote;
  #pieces; #privacy; #state; #status; #toggles;

  constructor() {
    super();
    const root = shadow(this, LOBBY_CSS);
    this.#toggles = makeToggleButtons();
    this.#devices = makeDeviceSelects();
    this.#name = h('input', {
      part: 'name', autocomplete: 'name', spellcheck: 'false', 'aria-describedby': 'name-note',
      on: { input: () => this.#typed(), keydown: (e) => this.#key(e) },
    });
    this.#nameNote = h('p', { part: 'name-note', id: 'name-note', 'aria-live': 'polite' });
    this.#about = h('p', { part: 'about', text: TEXT.aboutToJoin });
    this.#call = h('p', { part: 'call', hidden: true });
    this.#join = h('button', {
      part: 'join', class: 'primary', type: 'button', text: TEXT.join, on: { click: () => this.#joinClicked() },
    });
    this.#status = h('p', { part: 'status', role: 'status' });
    this.#deviceNote = h('p', { part: 'device-note', 'aria-live': 'polite' });
    this.#privacy = h('p', { part: 'privacy', text: TEXT.privacy });
    root.append(h('div', { part: 'screen' },
      h('header', { part: 'header' },
        h('h1', { part: 'title', text: TEXT.title }), h('p', { part: 'subtitle', text: TEXT.subtitle })),
      h('div', { part: 'layout' },
        h('section', { part: 'preview-panel', 'aria-label': 'Preview' },
          h('slot', { name: 'preview' }), h('slot', { name: 'meter' }),
          h('div', { part: 'toggles', role: 'group', 'aria-label': 'Audio and video' }, ...this.#toggles.list)),
        h('section', { part: 'setup-panel', 'aria-label': TEXT.join },
          h('label', { part: 'name-label' }, h('span', { text: TEXT.yourName }), this.#name),
          this.#nameNote,
          h('div', { part: 'join-panel' },
            this.#about, this.#call, h('slot', { name: 'participants' }), this.#join, this.#status),
          h('fieldset', { part: 'devices' }, h('legend', { text: TEXT.devices }), ...this.#devices.labels,
            this.#deviceNote),
          h('slot', { name: 'microphone-test' }),
          this.#privacy))));
    this.#state = DEFAULTS;
    this.#factory = null;
    this.#pieces = null;
    this.#microphone = null;
    this.#microphoneTest = null;
    upgradeProperties(this, ['factory', 'state', 'microphone', 'microphoneTest']);
    // From here on the lobby may add its pieces (an element must not gain children in its constructor).
    this.#built = true;
  }

  connectedCallback() { this.#render(); }

  /**
   * The factory that makes the preview tile, the meter and the strip (else the defaults).
   * @type {ViewFactory}
   */
  get factory() { return this.#factory || (this.#factory = new ViewFactory()); }
  set factory(value) {
    this.#factory = value || null;
    if (this.#pieces) {
      for (const piece of Object.values(this.#pieces)) piece.remove();
      this.#pieces = null;
      this.#render();
    }
  }

  /**
   * The pieces made by the factory: `{preview, meter, microphoneTest, strip}` (made on the first render).
   * @type {{preview: HTMLElement, meter: HTMLElement, microphoneTest: HTMLElement, strip: HTMLElement}}
   */
  get pieces() { return this.#ensurePieces(); }

  /**
   * What the lobby shows (see DEFAULTS); setting a part of it keeps the rest.
   * @type {Partial<LobbyState>}
   */
  get state() { return this.#state; }
  set state(value) {
    this.#state = { ...this.#state, ...(value || {}) };
    this.#render();
  }

  /**
   * The client's `microphone` event, for the meter.
   * @type {import('../types.js').MicrophoneState | null}
   */
  get microphone() { return this.#microphone; }
  set microphone(value) {
    this.#microphone = value;
    if (this.#built) this.#ensurePieces().meter.state = value;
  }

  /**
   * The client's `microphonetest` event, for "Test your microphone" (null: no test yet).
   * @type {import('../types.js').MicrophoneTestEvent | {state: 'idle'} | null}
   */
  get microphoneTest() { return this.#microphoneTest; }
  set microphoneTest(value) {
    this.#microphoneTest = value;
    if (this.#built) this.#ensurePieces().microphoneTest.state = value;
  }

  /**
   * The name in the field as it would be sent: trimmed, at most 64 characters.
   * @type {string}
   */
  get name() { return checkedName(this.#name.value).name; }

  /** Moves the focus to the name field. */
  focusName() { this.#name.focus(); }

  #ensurePieces() {
    if (this.#pieces) return this.#pieces;
    const f = this.factory;
    const preview = f.makeVideoParticipantView(this.#selfParticipant());
    const meter = f.makeMeterView();
    const microphoneTest = f.makeMicrophoneTestView();
    const strip = f.makeParticipantsStripView();
    preview.slot = 'preview';
    meter.slot = 'meter';
    microphoneTest.slot = 'microphone-test';
    strip.slot = 'participants';
    this.append(preview, meter, microphoneTest, strip);
    this.#pieces = { preview, meter, microphoneTest, strip };
    if (this.#microphone) meter.state = this.#microphone;
    if (this.#microphoneTest) microphoneTest.state = this.#microphoneTest;
    return this.#pieces;
  }

  #selfParticipant() {
    const s = this.#state;
    return {
      id: 'self', name: this.name || s.name, self: true, speaking: false,
      audio: s.settings.audio !== false && s.allowed.audio !== false,
      video: s.settings.video !== false && s.allowed.video !== false,
    };
  }

  #render() {
    const s = this.#state;
    const wanted = limitedName(s.name || '');
    if (checkedName(this.#name.value).name !== checkedName(wanted.name).name) {
      this.#name.value = wanted.name;
      setText(this.#nameNote, wanted.cut ? TEXT.nameCut : '');
    }
    this.#name.readOnly = !!s.nameLocked;
    this.#toggles.update({ settings: s.settings, allowed: s.allowed });
    this.#devices.update(s.devices, s.chosen);
    this.#call.hidden = !s.call;
    setText(this.#call, s.call ? callLine(s.call) : '');
    this.#join.disabled = !!s.joinDisabled;
    setText(this.#status, s.status || '');
    setText(this.#privacy, s.privacy || TEXT.privacy);
    setText(this.#deviceNote, s.deviceNote || '');
    if (!this.#built || (!this.isConnected && !this.#pieces)) return;
    const { preview, microphoneTest, strip } = this.#ensurePieces();
    preview.participant = this.#selfParticipant();
    preview.stream = s.selfStream || null;
    preview.speakerOn = false;
    preview.showSpeaking = false;
    strip.participants = Array.isArray(s.others) ? s.others : [];
    // The microphone can be tested while it is on; a participant the invitation does not let speak has no test.
    microphoneTest.hidden = s.allowed.audio === false;
    microphoneTest.available = s.settings.audio !== false && s.allowed.audio !== false;
  }

  #typed() {
    const { name, cut } = limitedName(this.#name.value);
    if (cut) this.#name.value = name;
    setText(this.#nameNote, cut ? TEXT.nameCut : '');
    const checked = checkedName(this.#name.value).name;
    this.#state = { ...this.#state, name: checked };
    if (this.#pieces) this.#pieces.preview.participant = this.#selfParticipant();
    emit(this, 'miccheck-name', { name: checked });
  }

  #key(e) {
    if (e.key !== 'Enter' || e.isComposing) return;
    e.preventDefault();
    this.#joinClicked();
  }

  #joinClicked() {
    if (this.#state.joinDisabled) return;
    emit(this, 'miccheck-join', { name: this.name });
  }
}
