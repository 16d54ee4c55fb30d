// The view factory: every piece of the lobby and the call has a default; an app replaces the pieces it wants
// and keeps the rest, because the composite views (the lobby, the call grid) build their pieces through the
// same factory (a custom participant tile shows in the lobby's preview and in the grid), as the terminal's
// CallViewFactory does.
//
//   class MyFactory extends ViewFactory { makeVideoParticipantView(p) { return myTile(p); } }
//   const factory = createViewFactory({ makeVideoParticipantView(p) { return myTile(p); } });
//
// A replacement tile is any HTMLElement; the grid and the lobby set `participant`, `stream`, `speakerOn` and
// `showSpeaking` on it as plain properties, and call its `setSinkId(id)` when it has one.

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
  makeLobbyView() { return this.#composite('miccheck-lobby'); }

  /**
   * The microphone meter, `<miccheck-meter>`.
   * @returns {import('./meter.js').MeterElement}
   */
  makeMeterView() { return document.createElement('miccheck-meter'); }

  /**
   * "Test your microphone" and its status, `<miccheck-microphone-test>` (in the lobby, under the devices).
   * @returns {import('./microphone-test.js').MicrophoneTestElement}
   */
  makeMicrophoneTestView() { return document.createElement('miccheck-microphone-test'); }

  /**
   * "You are muted.", `<miccheck-muted-notice>`.
   * @returns {import('./muted-notice.js').MutedNoticeElement}
   */
  makeMutedNoticeView() { return document.createElement('miccheck-muted-notice'); }

  /**
   * "Your typing can be heard.", `<miccheck-typing-notice>` (in the call).
   * @returns {import('./typing-notice.js').TypingNoticeElement}
   */
  makeTypingNoticeView() { return document.createElement('miccheck-typing-notice'); }

  /**
   * One participant's tile, `<miccheck-participant-tile>` (the participant it is first made for is given).
   * @param {import('../types.js').Participant} [participant]
   * @returns {import('./participant-tile.js').ParticipantTileElement}
   */
  makeVideoParticipantView(participant) {
    return document.createElement('miccheck-participant-tile');
  }

  /**
   * Who is already in the call, `<miccheck-participants-strip>`.
   * @returns {import('./participants-strip.js').ParticipantsStripElement}
   */
  makeParticipantsStripView() { return document.createElement('miccheck-participants-strip'); }

  /**
   * The permissions prompt, `<miccheck-permissions-prompt>`.
   * @returns {import('./permissions-prompt.js').PermissionsPromptElement}
   */
  makePermissionsPromptView() { return document.createElement('miccheck-permissions-prompt'); }

  /**
   * The call's tiles, `<miccheck-call-grid>`; its tiles come from here.
   * @returns {import('./call-grid.js').CallGridElement}
   */
  makeCallGridView() { return this.#composite('miccheck-call-grid'); }

  /**
   * The call's toolbar, `<miccheck-call-controls>`.
   * @returns {import('./call-controls.js').CallControlsElement}
   */
  makeCallControlsView() { return document.createElement('miccheck-call-controls'); }

  /**
   * A composite view (the lobby, the grid), made with this factory for its pieces.
   * @param {string} tag
   * @returns {any}
   */
  #composite(tag) {
    const el = document.createElement(tag);
    el.factory = this;
    return el;
  }
}

const METHODS = Object.getOwnPropertyNames(ViewFactory.prototype).filter((n) => n.startsWith('make'));

/**
 * The names of the factory's methods, in their order.
 * @type {readonly (keyof ViewFactory)[]}
 */
export const VIEW_FACTORY_METHODS = Object.freeze(METHODS);

/**
 * A factory with the given methods in place of the defaults: `createViewFactory({makeMeterView() {…}})`.
 * Each override is called with the factory as `this`. A name that is not a factory method is refused.
 * @param {Partial<Record<keyof ViewFactory, (this: ViewFactory, ...args: any[]) => HTMLElement>>} [overrides]
 * @returns {ViewFactory}
 */
export function createViewFactory(overrides = {}) {
  const factory = new ViewFactory();
  for (const [name, fn] of Object.entries(overrides)) {
    if (!METHODS.includes(name)) throw new TypeError(`createViewFactory: no factory method "${name}"`);
    if (typeof fn !== 'function') throw new TypeError(`createViewFactory: "${name}" is not a function`);
    factory[name] = fn;
  }
  return factory;
}
