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
 * A view as the factory gives it: any element with the public members of the default one (an app's
 * replacement is not the default class, so only its shape counts).
 * @template E
 * @typedef {HTMLElement & Omit<E, keyof HTMLElement>} ViewOf
 */
/**
 * A participant's tile: the grid and the lobby set these on any element a factory gives (`setSinkId` where it
 * has one), so a replacement may take what it needs of them.
 * @typedef {HTMLElement & Partial<Omit<import('./participant-tile.js').ParticipantTileElement, keyof HTMLElement>>}
 *   TileView
 */

// A composite view (the lobby, the grid), made with `factory` for its pieces.
function composite(factory, tag) {
  const el = document.createElement(tag);
  el.factory = factory;
  return el;
}

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
  makeLobbyView() { return composite(this, 'miccheck-lobby'); }

  /**
   * The microphone meter, `<miccheck-meter>`.
   * @returns {ViewOf<import('./meter.js').MeterElement>}
   */
  makeMeterView() { return document.createElement('miccheck-meter'); }

  /**
   * "Test your microphone" and its status, `<miccheck-microphone-test>` (in the lobby, under the devices).
   * @returns {ViewOf<import('./microphone-test.js').MicrophoneTestElement>}
   */
  makeMicrophoneTestView() { return document.createElement('miccheck-microphone-test'); }

  /**
   * "You are muted.", `<miccheck-muted-notice>`.
   * @returns {ViewOf<import('./muted-notice.js').MutedNoticeElement>}
   */
  makeMutedNoticeView() { return document.createElement('miccheck-muted-notice'); }

  /**
   * "Your typing can be heard.", `<miccheck-typing-notice>` (in the call).
   * @returns {ViewOf<import('./typing-notice.js').TypingNoticeElement>}
   */
  makeTypingNoticeView() { return document.createElement('miccheck-typing-notice'); }

  /**
   * One participant's tile, `<miccheck-participant-tile>` (the participant it is first made for is given).
   * @param {import('../types.js').Participant} [participant]
   * @returns {TileView}
   */
  makeVideoParticipantView(participant) {
    return document.createElement('miccheck-participant-tile');
  }

  /**
   * Who is already in the call, `<miccheck-participants-strip>`.
   * @returns {ViewOf<import('./participants-strip.js').ParticipantsStripElement>}
   */
  makeParticipantsStripView() { return document.createElement('miccheck-participants-strip'); }

  /**
   * The permissions prompt, `<miccheck-permissions-prompt>`.
   * @returns {ViewOf<import('./permissions-prompt.js').PermissionsPromptElement>}
   */
  makePermissionsPromptView() { return document.createElement('miccheck-permissions-prompt'); }

  /**
   * The call's tiles, `<miccheck-call-grid>`; its tiles come from here.
   * @returns {ViewOf<import('./call-grid.js').CallGridElement>}
   */
  makeCallGridView() { return composite(this, 'miccheck-call-grid'); }

  /**
   * The call's toolbar, `<miccheck-call-controls>`.
   * @returns {ViewOf<import('./call-controls.js').CallControlsElement>}
   */
  makeCallControlsView() { return document.createElement('miccheck-call-controls'); }
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
