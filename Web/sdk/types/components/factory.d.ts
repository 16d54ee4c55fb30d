/**
 * A factory with the given methods in place of the defaults: `createViewFactory({makeMeterView() {…}})`.
 * Each override is called with the factory as `this`. A name that is not a factory method is refused.
 * @param {Partial<Record<keyof ViewFactory, (this: ViewFactory, ...args: any[]) => HTMLElement>>} [overrides]
 * @returns {ViewFactory}
 */
export function createViewFactory(overrides?: Partial<Record<keyof ViewFactory, (this: ViewFactory, ...args: any[]) => HTMLElement>> | undefined): ViewFactory;
/**
 * Makes every view; the composite ones (the lobby, the grid) make their pieces through the same factory, so one
 * replaced method shows everywhere. A replacement returns any HTMLElement that takes the properties its default
 * takes (a tile gets those of `ParticipantTileElement` set on it).
 */
export class ViewFactory {
    /**
     * The pre-join screen, `<miccheck-lobby>`; its preview tile, meter and participants strip come from here.
     * @returns {ViewOf<import('./lobby.js').LobbyElement>}
     */
    makeLobbyView(): ViewOf<import('./lobby.js').LobbyElement>;
    /**
     * The microphone meter, `<miccheck-meter>`.
     * @returns {ViewOf<import('./meter.js').MeterElement>}
     */
    makeMeterView(): ViewOf<import('./meter.js').MeterElement>;
    /**
     * "Test your microphone" and its status, `<miccheck-microphone-test>` (in the lobby, under the devices).
     * @returns {ViewOf<import('./microphone-test.js').MicrophoneTestElement>}
     */
    makeMicrophoneTestView(): ViewOf<import('./microphone-test.js').MicrophoneTestElement>;
    /**
     * "You are muted.", `<miccheck-muted-notice>`.
     * @returns {ViewOf<import('./muted-notice.js').MutedNoticeElement>}
     */
    makeMutedNoticeView(): ViewOf<import('./muted-notice.js').MutedNoticeElement>;
    /**
     * "Your typing can be heard.", `<miccheck-typing-notice>` (in the call).
     * @returns {ViewOf<import('./typing-notice.js').TypingNoticeElement>}
     */
    makeTypingNoticeView(): ViewOf<import('./typing-notice.js').TypingNoticeElement>;
    /**
     * One participant's tile, `<miccheck-participant-tile>` (the participant it is first made for is given).
     * @param {import('../types.js').Participant} [participant]
     * @returns {TileView}
     */
    makeVideoParticipantView(participant?: import("../types.js").Participant | undefined): TileView;
    /**
     * Who is already in the call, `<miccheck-participants-strip>`.
     * @returns {ViewOf<import('./participants-strip.js').ParticipantsStripElement>}
     */
    makeParticipantsStripView(): ViewOf<import('./participants-strip.js').ParticipantsStripElement>;
    /**
     * The permissions prompt, `<miccheck-permissions-prompt>`.
     * @returns {ViewOf<import('./permissions-prompt.js').PermissionsPromptElement>}
     */
    makePermissionsPromptView(): ViewOf<import('./permissions-prompt.js').PermissionsPromptElement>;
    /**
     * The call's tiles, `<miccheck-call-grid>`; its tiles come from here.
     * @returns {ViewOf<import('./call-grid.js').CallGridElement>}
     */
    makeCallGridView(): ViewOf<import('./call-grid.js').CallGridElement>;
    /**
     * The call's toolbar, `<miccheck-call-controls>`.
     * @returns {ViewOf<import('./call-controls.js').CallControlsElement>}
     */
    makeCallControlsView(): ViewOf<import('./call-controls.js').CallControlsElement>;
}
/**
 * The names of the factory's methods, in their order.
 * @type {readonly (keyof ViewFactory)[]}
 */
export const VIEW_FACTORY_METHODS: readonly (keyof ViewFactory)[];
/**
 * A view as the factory gives it: any element with the public members of the default one (an app's
 * replacement is not the default class, so only its shape counts).
 */
export type ViewOf<E> = HTMLElement & Omit<E, keyof HTMLElement>;
/**
 * A participant's tile: the grid and the lobby set these on any element a factory gives (`setSinkId` where it
 * has one), so a replacement may take what it needs of them.
 */
export type TileView = HTMLElement & Partial<Omit<import('./participant-tile.js').ParticipantTileElement, keyof HTMLElement>>;
