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

/** `<miccheck-call-grid>`: one tile per participant, made through its factory and kept by id. */
export class CallGridElement extends HTMLElement {
  #factory; #sinks; #tiles;

  constructor() {
    super();
    shadow(this, CSS).append(document.createElement('slot'));
    this.#tiles = new Map();
    this.#sinks = new WeakMap();
    this.#factory = null;
    upgradeProperties(this, ['factory']);
  }

  /**
   * The factory that makes the tiles (a grid made by a factory has that one; else the defaults).
   * @type {ViewFactory}
   */
  get factory() { return this.#factory || (this.#factory = new ViewFactory()); }
  set factory(value) { this.#factory = value || null; }

  /**
   * The tiles by participant id.
   * @type {Map<string, HTMLElement>}
   */
  get tiles() { return new Map(this.#tiles); }

  /**
   * Shows these participants, in this order: `participants` as `[{id, name, audio, video, speaking, self?}]`;
   * `me` the local participant's id (its tile is mirrored and muted), `streamOf(id)` each one's MediaStream
   * or null, `speakerOn` whether remote audio plays, `sinkId` the output device (left alone when undefined),
   * `mayMute` whether the local user may mute others (the tiles then offer "Mute").
   * @param {import('../types.js').Participant[]} participants
   * @param {{me?: string | null, streamOf?: (id: string) => MediaStream | null, speakerOn?: boolean, sinkId?: string,
   *   mayMute?: boolean}} [options]
   */
  update(participants, { me = null, streamOf = () => null, speakerOn = true, sinkId, mayMute = false } = {}) {
    const list = Array.isArray(participants) ? participants : [];
    const ids = new Set(list.map((p) => p.id));
    for (const [id, tile] of this.#tiles) {
      if (!ids.has(id)) {
        tile.remove();
        this.#tiles.delete(id);
      }
    }
    const showSpeaking = list.length > 1;
    list.forEach((p, i) => {
      let tile = this.#tiles.get(p.id);
      if (!tile) {
        tile = this.factory.makeVideoParticipantView(p);
        this.#tiles.set(p.id, tile);
      }
      tile.participant = { ...p, self: p.self ?? (me !== null && p.id === me) };
      tile.stream = streamOf(p.id) || null;
      tile.speakerOn = speakerOn;
      tile.showSpeaking = showSpeaking;
      tile.mayMute = mayMute;
      if (sinkId !== undefined && typeof tile.setSinkId === 'function' && this.#sinks.get(tile) !== sinkId) {
        this.#sinks.set(tile, sinkId);
        Promise.resolve(tile.setSinkId(sinkId)).catch(() => {});
      }
      if (this.children[i] !== tile) this.insertBefore(tile, this.children[i] || null);
    });
  }
}
