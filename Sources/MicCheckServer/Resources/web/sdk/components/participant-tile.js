// <miccheck-participant-tile>: one participant. Their video when they send it and its track is live and
// not paused (muted), else a fallback with their initials; their name; a speaking ring when they speak and
// the grid has more than one tile. The tile plays the stream's audio unless it is one's own or the speaker
// is off. A host (`mayMute`) sees "Mute" on another's tile while that one's microphone is on.
import { emit, h, setText, shadow, upgradeProperties } from './base.js';
import { initials } from './names.js';
import { muteLabel, TEXT, tileLabel } from './texts.js';

const CSS = `
:host { display: block; position: relative; aspect-ratio: 16 / 9; min-width: 0; }
[part~="tile"] {
  position: absolute; inset: 0; overflow: hidden; container-type: size;
  border-radius: var(--_radius); background: var(--_surface); border: 3px solid transparent;
}
:host([speaking]) [part~="tile"] { border-color: var(--_speaking); }
[part~="video"], [part~="fallback"] { position: absolute; inset: 0; width: 100%; height: 100%; }
[part~="video"] { object-fit: cover; background: #000; }
:host([data-self]) [part~="video"] { transform: scaleX(-1); }
[part~="fallback"] { display: flex; align-items: center; justify-content: center; }
[part~="initials"] {
  display: flex; align-items: center; justify-content: center; width: min(96px, 45cqh); aspect-ratio: 1;
  border-radius: 50%; background: var(--_accent); color: #fff; font-size: min(36px, 17cqh); font-weight: 600;
}
[part~="label"] {
  position: absolute; left: 8px; bottom: 8px; max-width: calc(100% - 16px); padding: 2px 8px;
  border-radius: 4px; background: rgba(0, 0, 0, 0.65); color: #fff; font-size: 14px;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
}
[part~="mute"] {
  position: absolute; right: 8px; bottom: 8px; min-height: 36px; padding: 4px 12px;
  background: rgba(0, 0, 0, 0.65); border-color: rgba(255, 255, 255, 0.35); color: #fff;
}
[part~="tile"]:has([part~="mute"]:not([hidden])) [part~="label"] { max-width: calc(100% - 104px); }
`;

const NOBODY = Object.freeze({ id: '', name: '', audio: false, video: false, speaking: false, self: false });

export class ParticipantTileElement extends HTMLElement {
  constructor() {
    super();
    const root = shadow(this, CSS);
    this._video = h('video', { part: 'video', hidden: true });
    this._video.autoplay = true;
    this._video.playsInline = true;
    this._initials = h('span', { part: 'initials', 'aria-hidden': 'true' });
    this._fallback = h('div', { part: 'fallback' }, this._initials);
    this._label = h('div', { part: 'label', 'aria-hidden': 'true' });
    this._mute = h('button', { part: 'mute', type: 'button', text: TEXT.mute, hidden: true, on: {
      click: () => emit(this, 'miccheck-mute-participant', { id: this._participant.id, name: this._participant.name }),
    } });
    this._tile = h('div', { part: 'tile' }, this._video, this._fallback, this._label, this._mute);
    root.append(this._tile);
    this._participant = NOBODY;
    this._stream = null;
    this._speakerOn = true;
    this._showSpeaking = false;
    this._mayMute = false;
    this._sinkId = '';
    this._watch = null;
    upgradeProperties(this, ['participant', 'stream', 'speakerOn', 'showSpeaking', 'mayMute']);
    this._render();
    // From now on (after the constructor) a render may set the host's attributes: an element must not gain
    // any in its constructor. The first render that does is the first property set or the connection.
    this._built = true;
  }

  connectedCallback() {
    this.setAttribute('role', 'group');
    this._render();
  }

  disconnectedCallback() {
    this._watch?.abort();
    this._watch = null;
  }

  /** `{id, name, audio, video, speaking, self}`. */
  get participant() { return this._participant; }
  set participant(value) {
    this._participant = { ...NOBODY, ...(value || {}) };
    this._render();
  }

  /** The participant's MediaStream (their video and, for others, their audio), or null. */
  get stream() { return this._stream; }
  set stream(value) {
    if (value === this._stream) return;
    this._stream = value || null;
    this._watch?.abort();
    this._watch = null;
    this._render();
  }

  /** Whether the tile plays the participant's audio (one's own is never played). */
  get speakerOn() { return this._speakerOn; }
  set speakerOn(value) {
    this._speakerOn = value !== false;
    this._render();
  }

  /** Whether a speaking ring may show (the grid sets it when there is more than one participant). */
  get showSpeaking() { return this._showSpeaking; }
  set showSpeaking(value) {
    this._showSpeaking = !!value;
    this._render();
  }

  /** Whether the local user may mute others (a host): the tile then offers "Mute" while this one is unmuted. */
  get mayMute() { return this._mayMute; }
  set mayMute(value) {
    this._mayMute = !!value;
    this._render();
  }

  /** Plays the audio on the output device `id` where the browser can choose one; resolves either way. */
  async setSinkId(id) {
    this._sinkId = id || '';
    if (typeof this._video.setSinkId === 'function') await this._video.setSinkId(this._sinkId).catch(() => {});
  }

  _videoTrack() {
    const track = this._stream ? this._stream.getVideoTracks()[0] : null;
    return track || null;
  }

  // Renders again whenever a track comes, goes, ends, or is paused or resumed by the network.
  _watchStream() {
    if (this._watch || !this._stream || !this.isConnected) return;
    const watch = new AbortController();
    this._watch = watch;
    const again = () => {
      watch.abort();
      if (this._watch === watch) this._watch = null;
      this._render();
    };
    const { signal } = watch;
    this._stream.addEventListener('addtrack', again, { signal });
    this._stream.addEventListener('removetrack', again, { signal });
    for (const track of this._stream.getVideoTracks()) {
      for (const type of ['mute', 'unmute', 'ended']) track.addEventListener(type, again, { signal });
    }
  }

  _render() {
    const p = this._participant;
    const self = !!p.self;
    const name = String(p.name || '').trim() || (self ? TEXT.you : TEXT.guest);
    const track = this._videoTrack();
    const showVideo = !!p.video && !!track && track.readyState === 'live' && !track.muted && track.enabled;
    const ring = !!p.speaking && this._showSpeaking;
    const video = this._video;
    if (video.srcObject !== this._stream) {
      video.srcObject = this._stream;
      if (this._stream) video.play?.()?.catch?.(() => {});
    }
    video.muted = self || !this._speakerOn;
    video.hidden = !showVideo;
    this._fallback.hidden = showVideo;
    setText(this._initials, initials(p.name));
    const shownName = self && name !== TEXT.you ? `${name} (you)` : name;
    setText(this._label, shownName + (p.audio ? '' : ' · muted'));
    this._mute.hidden = !(this._mayMute && p.audio && !self && p.id);
    this._mute.setAttribute('aria-label', muteLabel(name));
    this._tile.setAttribute('part', ring ? 'tile speaking' : 'tile');
    this._watchStream();
    if (!this._built) return;
    this.setAttribute('aria-label', tileLabel({ ...p, name, self: self && name !== TEXT.you }));
    this.dataset.id = String(p.id);
    this.dataset.speaking = String(!!p.speaking);
    this.dataset.video = String(showVideo);
    this.toggleAttribute('data-self', self);
    this.toggleAttribute('speaking', ring);
  }
}
