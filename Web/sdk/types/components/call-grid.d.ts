/** `<miccheck-call-grid>`: one tile per participant, made through its factory and kept by id. */
export class CallGridElement extends HTMLElement {
    set factory(arg: ViewFactory);
    /**
     * The factory that makes the tiles (a grid made by a factory has that one; else the defaults).
     * @type {ViewFactory}
     */
    get factory(): ViewFactory;
    /**
     * The tiles by participant id.
     * @type {Map<string, HTMLElement>}
     */
    get tiles(): Map<string, HTMLElement>;
    /**
     * Shows these participants, in this order: `participants` as `[{id, name, audio, video, speaking, self?}]`;
     * `me` the local participant's id (its tile is mirrored and muted), `streamOf(id)` each one's MediaStream
     * or null, `speakerOn` whether remote audio plays, `sinkId` the output device (left alone when undefined),
     * `mayMute` whether the local user may mute others (the tiles then offer "Mute").
     * @param {import('../types.js').Participant[]} participants
     * @param {{me?: string | null, streamOf?: (id: string) => MediaStream | null, speakerOn?: boolean, sinkId?: string,
     *   mayMute?: boolean}} [options]
     */
    update(participants: import('../types.js').Participant[], { me, streamOf, speakerOn, sinkId, mayMute }?: {
        me?: string | null | undefined;
        streamOf?: ((id: string) => MediaStream | null) | undefined;
        speakerOn?: boolean | undefined;
        sinkId?: string | undefined;
        mayMute?: boolean | undefined;
    } | undefined): void;
    #private;
}
import { ViewFactory } from "./factory.js";
