/**
 * `<miccheck-participants-strip>`: who is already in the call, and the count sentence. Parts: count, list,
 * person, avatar.
 */
export class ParticipantsStripElement extends HTMLElement {
    set participants(arg: import("../types.js").Participant[]);
    /**
     * The others in the call: `[{id, name, speaking, …}]`.
     * @type {import('../types.js').Participant[]}
     */
    get participants(): import("../types.js").Participant[];
    #private;
}
