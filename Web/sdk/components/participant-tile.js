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

/**
 * `<miccheck-participant-tile>`: video, or initials when there is none; a speaking ring; an accessible name
 * ("Ada Lovelace (you), speaking, microphone off"). Host attributes: data-id, data-speaking, data-video,
 * data-self, speaking. With `mayMute`, another's unmuted tile offers "Mute" (accessible name "Mute NAME"),
 * event `miccheck-mute-participant` {id, name}. Parts: tile, video, fallback, initials, label, mute.
 */
export class ParticipantTileElement extends HTMLElement {
  #built; #fallback; #initials; #label; #mayMute; #mute; #participant; #showSpeaking; #sinkId; #speakerOn; #stream;
  #tile; #video; #watch;

  constructor() {
    super();
    const root = shadow(this, CSS);
    this.#video = h('video', { part: 'video', hidden: true });
    this.#video.autoplay = true;
    this.#video.playsInline = true;
    this.#initials = h('span', { part: 'initials', 'aria-hidden': 'true' });
    this.#fallback = h('div', { part: 'fallback' }, this.#initials);
    this.#label = h('div', { part: 'label', 'aria-hidden': 'true' });
    this.#mute = h('button', { part: 'mute', type: 'button', text: TEXT.mute, hidden: true, on: {
      click: () => emit(this, 'miccheck-mute-participant', { id: this.#participant.id, name: this.#participant.name }),
    } });
    this.#tile = h('div', { part: 'tile' }, this.#video, this.#fallback, this.#label, this.#mute);
    root.append(this.#tile);
    this.#participant = NOBODY;
    this.#stream = null;
    this.#speakerOn = true;
    this.#showSpeaking = false;
    this.#mayMute = false;
    this.#sinkId = '';
    this.#watch = null;
    upgradeProperties(this, ['participant', 'stream', 'speakerOn', 'showSpeaking', 'mayMute']);
    this.#render();
    // From now on (after the constructor) a render may set the host's attributes: an element must not gain
    // any in its constructor. The first render that does is the first property set or the connection.
    this.#built = true;
  }

  connectedCallback() {
    this.setAttribute('role', 'group');
    this.#render();
  }

  disconnectedCallback() {
    this.#watch?.abort();
    this.#watch = null;
  }

  /**
   * `{id, name, audio, video, speaking, self}`.
   * @type {import('../types.js').Participant}
   */
  get participant() { return this.#participant; }
  set participant(value) {
    this.#participant = { ...NOBODY, ...(value || {}) };
    this.#render();
  }

  /**
   * The participant's MediaStream (their video and, for others, their audio), or null.
   * @type {MediaStream | null}
   */
  get stream() { return this.#stream; }
  set stream(value) {
    if (value === this.#stream) return;
    this.#stream = value || null;
    this.#watch?.abort();
    this.#watch = null;
    this.#render();
  }

  /**
   * Whether the tile plays the participant's audio (one's own is never played).
   * @type {boolean}
   */
  get speakerOn() { return this.#speakerOn; }
  set speakerOn(value) {
    this.#speakerOn = value !== false;
    this.#render();
  }

  /**
   * Whether a speaking ring may show (the grid sets it when there is more than one participant).
   * @type {boolean}
   */
  get showSpeaking() { return this.#showSpeaking; }
  set showSpeaking(value) {
    this.#showSpeaking = !!value;
    this.#render();
  }

  /**
   * Whether the local user may mute others (a host): the tile then offers "Mute" while this one is unmuted.
   * @type {boolean}
   */
  get mayMute() { return this.#mayMute; }
  set mayMute(value) {
    this.#mayMute = !!value;
    this.#render();
  }

  /**
   * Plays the audio on the output device `id` where the browser can choose one; resolves either way.
   * @param {string} id
   * @returns {Promise<void>}
   */
  async setSinkId(id) {
    this.#sinkId = id || '';
    if (typeof this.#video.setSinkId === 'function') await this.#video.setSinkId(this.#sinkId).catch(() => {});
  }

  #videoTrack() {
    const track = this.#stream ? this.#stream.getVideoTracks()[0] : null;
    return track || null;
  }

  // Renders again whenever a track comes, goes, ends, or is paused or resumed by the network.
  #watchStream() {
    if (this.#watch || !this.#stream || !this.isConnected) return;
    const watch = new AbortController();
    this.#watch = watch;
    const again = () => {
      watch.abort();
      if (this.#watch === watch) this.#watch = null;
      this.#render();
    };
    const { signal } = watch;
    this.#stream.addEventListener('addtrack', again, { signal });
    this.#stream.addEventListener('removetrack', again, { signal });
    for (const track of this.#stream.getVideoTracks()) {
      for (const type of ['mute', 'unmute', 'ended']) track.addEventListener(type, again, { signal });
    }
  }

  #render() {
    const p = this.#participant;
    const self = !!p.self;
    const name = String(p.name || '').trim() || (self ? TEXT.you : TEXT.guest);
    const track = this.#videoTrack();
    const showVideo = !!p.video && !!track && track.readyState === 'live' && !track.muted && track.enabled;
    const ring = !!p.speaking && this.#showSpeaking;
    const video = this.#video;
    if (video.srcObject !== this.#stream) {
      video.srcObject = this.#stream;
      if (this.#stream) video.play?.()?.catch?.(() => {});
    }
    video.muted = self || !this.#speakerOn;
    video.hidden = !showVideo;
    this.#fallback.hidden = showVideo;
    setText(this.#initials, initials(p.name));
    const shownName = self && name !== TEXT.you ? `${name} (you)` : name;
    setText(this.#label, shownName + (p.audio ? '' : ' · muted'));
    this.#mute.hidden = !(this.#mayMute && p.audio && !self && p.id);
    this.#mute.setAttribute('aria-label', muteLabel(name));
    this.#tile.setAttribute('part', ring ? 'tile speaking' : 'tile');
    this.#watchStream();
    if (!this.#built) return;
    this.setAttribute('aria-label', tileLabel({ ...p, name, self: self && name !== TEXT.you }));
    this.dataset.id = String(p.id);
    this.dataset.speaking = String(!!p.speaking);
    this.dataset.video = String(showVideo);
    this.toggleAttribute('data-self', self);
    this.toggleAttribute('speaking', ring);
  }
}
