// MicCheck's web components and their view factory: import this module and the elements are defined (their
// tag names are typed in types/elements.d.ts).
//   import { ViewFactory, createViewFactory } from './components.js';
// Views only: no network, no getUserMedia; an app sets their state and listens to their events (bubbling,
// composed CustomEvents named miccheck-…).
import { CallControlsElement } from './components/call-controls.js';
import { CallGridElement } from './components/call-grid.js';
import { LobbyElement } from './components/lobby.js';
import { MeterElement } from './components/meter.js';
import { MicrophoneTestElement } from './components/microphone-test.js';
import { MutedNoticeElement } from './components/muted-notice.js';
import { ParticipantTileElement } from './components/participant-tile.js';
import { ParticipantsStripElement } from './components/participants-strip.js';
import { PermissionsPromptElement } from './components/permissions-prompt.js';
import { TypingNoticeElement } from './components/typing-notice.js';

// Each element's module: its class, and the types of what it takes (LobbyState, PromptKind, …).
export * from './components/call-controls.js';
export * from './components/call-grid.js';
export * from './components/lobby.js';
export * from './components/meter.js';
export * from './components/microphone-test.js';
export * from './components/muted-notice.js';
export * from './components/participant-tile.js';
export * from './components/participants-strip.js';
export * from './components/permissions-prompt.js';
export * from './components/typing-notice.js';
export { VIEW_FACTORY_METHODS, ViewFactory, createViewFactory } from './components/factory.js';
export { NAME_LIMIT, checkedName, initials, limitedName } from './components/names.js';
export { ICONS } from './components/icons.js';
export { TEXT, othersSentence, secondsLeft } from './components/texts.js';

/**
 * The elements by tag name.
 * @type {Readonly<Record<string, CustomElementConstructor>>}
 */
export const TAGS = Object.freeze({
  'miccheck-meter': MeterElement,
  'miccheck-microphone-test': MicrophoneTestElement,
  'miccheck-muted-notice': MutedNoticeElement,
  'miccheck-typing-notice': TypingNoticeElement,
  'miccheck-participant-tile': ParticipantTileElement,
  'miccheck-participants-strip': ParticipantsStripElement,
  'miccheck-permissions-prompt': PermissionsPromptElement,
  'miccheck-call-grid': CallGridElement,
  'miccheck-call-controls': CallControlsElement,
  'miccheck-lobby': LobbyElement,
});

/** Defines every element that is not defined yet (safe to call again). */
export function defineComponents() {
  for (const [tag, element] of Object.entries(TAGS)) {
    if (!customElements.get(tag)) customElements.define(tag, element);
  }
}

defineComponents();
