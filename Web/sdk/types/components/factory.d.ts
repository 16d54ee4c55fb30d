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
     * @returns {import('./lobby.js').LobbyElement}
     */
    makeLobbyView(): import('./lobby.js').LobbyElement;
    /**
     * The microphone meter, `<miccheck-meter>`.
     * @returns {import('./meter.js').MeterElement}
     */
    makeMeterView(): import('./meter.js').MeterElement;
    /**
     * "Test your microphone" and its status, `<miccheck-microphone-test>` (in the lobby, under the devices).
     * @returns {import('./microphone-test.js').MicrophoneTestElement}
     */
    makeMicrophoneTestView(): import('./microphone-test.js').MicrophoneTestElement;
    /**
     * "You are muted.", `<miccheck-muted-notice>`.
     * @returns {import('./muted-notice.js').MutedNoticeElement}
     */
    makeMutedNoticeView(): import('./muted-notice.js').MutedNoticeElement;
    /**
     * "Your typing can be heard.", `<miccheck-typing-notice>` (in the call).
     * @returns {import('./typing-notice.js').TypingNoticeElement}
     */
    makeTypingNoticeView(): import('./typing-notice.js').TypingNoticeElement;
    /**
     * One participant's tile, `<miccheck-participant-tile>` (the participant it is first made for is given).
     * @param {import('../types.js').Participant} [participant]
     * @returns {import('./participant-tile.js').ParticipantTileElement}
     */
    makeVideoParticipantView(participant?: import("../types.js").Participant | undefined): import('./participant-tile.js').ParticipantTileElement;
    /**
     * Who is already in the call, `<miccheck-participants-strip>`.
     * @returns {import('./participants-strip.js').ParticipantsStripElement}
     */
    makeParticipantsStripView(): import('./participants-strip.js').ParticipantsStripElement;
    /**
     * The permissions prompt, `<miccheck-permissions-prompt>`.
     * @returns {import('./permissions-prompt.js').PermissionsPromptElement}
     */
    makePermissionsPromptView(): import('./permissions-prompt.js').PermissionsPromptElement;
    /**
     * The call's tiles, `<miccheck-call-grid>`; its tiles come from here.
     * @returns {import('./call-grid.js').CallGridElement}
     */
    makeCallGridView(): import('./call-grid.js').CallGridElement;
    /**
     * The call's toolbar, `<miccheck-call-controls>`.
     * @returns {import('./call-controls.js').CallControlsElement}
     */
    makeCallControlsView(): import('./call-controls.js').CallControlsElement;
    #private;
}
/**
 * The names of the factory's methods, in their order.
 * @type {readonly (keyof ViewFactory)[]}
 */
export const VIEW_FACTORY_METHODS: readonly (keyof ViewFactory)[];
