/// <reference path="./elements.d.ts" />
/** Defines every element that is not defined yet (safe to call again). */
export function defineComponents(): void;
export * from "./components/call-controls.js";
export * from "./components/call-grid.js";
export * from "./components/lobby.js";
export * from "./components/meter.js";
export * from "./components/microphone-test.js";
export * from "./components/muted-notice.js";
export * from "./components/participant-tile.js";
export * from "./components/participants-strip.js";
export * from "./components/permissions-prompt.js";
export * from "./components/typing-notice.js";
export { ICONS } from "./components/icons.js";
/**
 * The elements by tag name.
 * @type {Readonly<Record<string, CustomElementConstructor>>}
 */
export const TAGS: Readonly<Record<string, CustomElementConstructor>>;
export { VIEW_FACTORY_METHODS, ViewFactory, createViewFactory } from "./components/factory.js";
export { NAME_LIMIT, checkedName, initials, limitedName } from "./components/names.js";
export { TEXT, othersSentence, secondsLeft } from "./components/texts.js";
