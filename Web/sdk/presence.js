// Who is in the call, by the one version rule every follower of presence keeps (Guides/Browser.md,
// "Presence"): a snapshot is taken whole; a change at the next version applies; one at a version already seen
// is dropped; one further ahead means changes were missed, so the follower asks for a snapshot. Pure.

export class Roster {
  constructor() {
    /** @type {number | null} the version of what this roster holds; null before the first snapshot */
    this.version = null;
    /** @type {Map<string, object>} the participants by id, in the order they joined */
    this.participants = new Map();
  }

  /**
   * Takes one presence message (`presence`, `joined`, `updated` or `left`).
   * @returns {'applied' | 'dropped' | 'resync'} what happened; on 'resync' ask the server for a snapshot.
   */
  take(message) {
    if (message.type === 'presence') {
      this.version = message.version;
      this.participants = new Map(message.participants.map((p) => [p.id, p]));
      return 'applied';
    }
    if (this.version === null || message.version > this.version + 1) return 'resync';
    if (message.version <= this.version) return 'dropped';
    this.version = message.version;
    if (message.type === 'left') this.participants.delete(message.id);
    else this.participants.set(message.participant.id, message.participant);
    return 'applied';
  }

  /** The connection was lost: keep who was there, but take nothing but a snapshot next. */
  expire() { this.version = null; }

  /** Forget everything (the connection closed): the next snapshot starts again. */
  clear() {
    this.version = null;
    this.participants = new Map();
  }

  /** The participants other than `me`. */
  others(me) { return [...this.participants.values()].filter((p) => p.id !== me); }
}
