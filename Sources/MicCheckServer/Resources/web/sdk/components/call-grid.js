// <miccheck-call-grid>: the call's tiles, one per participant, kept across updates (a tile's video element
// goes on playing) and removed when its participant leaves. The tiles come from the factory and are the
// grid's light-DOM children, so that a page's own styles reach a tile it made itself.
import { shadow, upgradeProperties } from './base.js';
import { ViewFactory } from './factory.js';

const CSS = `
:host {
  display: grid; gap: 12px; grid-template-columns: repeat(auto-fill, minmax(min(100%, 300px), 1fr));
  align-content: start;
}
`;

export class CallGridElement extends HTMLElement {
  constructor() {
    super();
    shadow(this, CSS).append(document.createElement('slot'));
    this._tiles = new Map();
    this._sinks = new WeakMap();
    this._factory = null;
    upgradeProperties(this, ['factory']);
  }

  /** The factory that makes the tiles (a grid made by a factory has that one; else the defaults). */
  get factory() { return this._factory || (this._factory = new ViewFactory()); }
  set factory(value) { this._factory = value || null; }

  /** The tiles by participant id. */
  get tiles() { return new Map(this._tiles); }

  /**
   * Shows these participants, in this order: `participants` as `[{id, name, audio, video, speaking, self?}]`;
   * `me` the local participant's id (its tile is mirrored and muted), `streamOf(id)` each one's MediaStream
   * or null, `speakerOn` whether remote audio plays, `sinkId` the output device (left alone when undefined),
   * `mayMute` whether the local user may mute others (the tiles then offer "Mute").
   */
  update(participants, { me = null, streamOf = () => null, speakerOn = true, sinkId, mayMute = false } = {}) {
    const list = Array.isArray(participants) ? participants : [];
    const ids = new Set(list.map((p) => p.id));
    for (const [id, tile] of this._tiles) {
      if (!ids.has(id)) {
        tile.remove();
        this._tiles.delete(id);
      }
    }
    const showSpeaking = list.length > 1;
    list.forEach((p, i) => {
      let tile = this._tiles.get(p.id);
      if (!tile) {
        tile = this.factory.makeVideoParticipantView(p);
        this._tiles.set(p.id, tile);
      }
      tile.participant = { ...p, self: p.self ?? (me !== null && p.id === me) };
      tile.stream = streamOf(p.id) || null;
      tile.speakerOn = speakerOn;
      tile.showSpeaking = showSpeaking;
      tile.mayMute = mayMute;
      if (sinkId !== undefined && typeof tile.setSinkId === 'function' && this._sinks.get(tile) !== sinkId) {
        this._sinks.set(tile, sinkId);
        Promise.resolve(tile.setSinkId(sinkId)).catch(() => {});
      }
      if (this.children[i] !== tile) this.insertBefore(tile, this.children[i] || null);
    });
  }
}
