export class Roster {
    /** @type {number | null} the version of what this roster holds; null before the first snapshot */
    version: number | null;
    /** @type {Map<string, object>} the participants by id, in the order they joined */
    participants: Map<string, object>;
    /**
     * Takes one presence message (`presence`, `joined`, `updated` or `left`).
     * @returns {'applied' | 'dropped' | 'resync'} what happened; on 'resync' ask the server for a snapshot.
     */
    take(message: any): 'applied' | 'dropped' | 'resync';
    /** The connection was lost: keep who was there, but take nothing but a snapshot next. */
    expire(): void;
    /** Forget everything (the connection closed): the next snapshot starts again. */
    clear(): void;
    /** The participants other than `me`. */
    others(me: any): object[];
}
