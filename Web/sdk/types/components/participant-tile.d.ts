/**
 * `<miccheck-participant-tile>`: video, or initials when there is none; a speaking ring; an accessible name
 * ("Ada Lovelace (you), speaking, microphone off"). Host attributes: data-id, data-speaking, data-video,
 * data-self, speaking. With `mayMute`, another's unmuted tile offers "Mute" (accessible name "Mute NAME"),
 * event `miccheck-mute-participant` {id, name}. Parts: tile, video, fallback, initials, label, mute.
 */
export class ParticipantTileElement extends HTMLElement {
    connectedCallback(): void;
    disconnectedCallback(): void;
    set participant(arg: import("../types.js").Participant);
    /**
     * `{id, name, audio, video, speaking, self}`.
     * @type {import('../types.js').Participant}
     */
    get participant(): import("../types.js").Participant;
    set stream(arg: MediaStream | null);
    /**
     * The participant's MediaStream (their video and, for others, their audio), or null.
     * @type {MediaStream | null}
     */
    get stream(): MediaStream | null;
    set speakerOn(arg: boolean);
    /**
     * Whether the tile plays the participant's audio (one's own is never played).
     * @type {boolean}
     */
    get speakerOn(): boolean;
    set showSpeaking(arg: boolean);
    /**
     * Whether a speaking ring may show (the grid sets it when there is more than one participant).
     * @type {boolean}
     */
    get showSpeaking(): boolean;
    set mayMute(arg: boolean);
    /**
     * Whether the local user may mute others (a host): the tile then offers "Mute" while this one is unmuted.
     * @type {boolean}
     */
    get mayMute(): boolean;
    /**
     * Plays the audio on the output device `id` where the browser can choose one; resolves either way.
     * @param {string} id
     * @returns {Promise<void>}
     */
    setSinkId(id: string): Promise<void>;
    #private;
}
