/** A constructed style sheet for the CSS text, made once per text. */
export function sheet(css: any): any;
/** Gives the element an open shadow root styled by the theme and the component's own CSS. */
export function shadow(host: any, css: any, options?: {}): any;
/**
 * An element: `h('button', {part: 'join', class: 'primary', text: 'Join Call'}, child...)`. Keys are
 * attributes except `text` (its text) and `on` (an object of event listeners); false and null skip one.
 */
export function h(tag: any, attributes?: {}, ...children: any[]): any;
/** Dispatches a CustomEvent that bubbles out of shadow roots (composed), from `target`. */
export function emit(target: any, type: any, detail?: {}): any;
/** Sets a text only when it changed (a live region would speak an unchanged one again in some readers). */
export function setText(el: any, text: any): void;
/**
 * Properties set on the element before its class was defined (an element made before the components were)
 * hide the class's setters: take them off and set them again through the setters.
 */
export function upgradeProperties(el: any, names: any): void;
/** The focused element, looking into shadow roots. */
export function deepActiveElement(): Element | null;
/**
 * The theme: an app sets these on any ancestor (or on the element) to restyle every component.
 * --miccheck-accent (primary buttons, avatars), --miccheck-speaking (speaking ring, meter),
 * --miccheck-warning, --miccheck-danger (Leave, a toggle that is off), --miccheck-panel, --miccheck-text,
 * --miccheck-muted-text, --miccheck-control (buttons), --miccheck-field (inputs and menus),
 * --miccheck-surface (tiles without video), --miccheck-border, --miccheck-radius (panels and tiles; buttons
 * and fields take two thirds and half of it), --miccheck-focus (the focus ring). A light theme sets the
 * backgrounds light and --miccheck-text dark; the labels over a tile's video stay white on their dark chip.
 */
export const THEME_CSS: "\n:host {\n  --_accent: var(--miccheck-accent, #1f5fcc);\n  --_speaking: var(--miccheck-speaking, #35d07f);\n  --_warning: var(--miccheck-warning, #f5b942);\n  --_danger: var(--miccheck-danger, #c4262e);\n  --_panel: var(--miccheck-panel, #20232b);\n  --_text: var(--miccheck-text, #e8eaf0);\n  --_muted-text: var(--miccheck-muted-text, #9aa0ad);\n  --_radius: var(--miccheck-radius, 12px);\n  --_focus: var(--miccheck-focus, #8ab4ff);\n  --_surface: var(--miccheck-surface, #2d3140);\n  --_control: var(--miccheck-control, #2a2e39);\n  --_field: var(--miccheck-field, #181a20);\n  --_border: var(--miccheck-border, #3a3f4d);\n  color: var(--_text);\n  font: 16px/1.4 system-ui, sans-serif;\n  box-sizing: border-box;\n}\n*, *::before, *::after { box-sizing: border-box; }\n[hidden], :host([hidden]) { display: none !important; }\n:focus-visible { outline: 3px solid var(--_focus); outline-offset: 2px; }\nbutton, input, select { font: inherit; color: inherit; }\nbutton {\n  display: inline-flex; align-items: center; justify-content: center; gap: 6px;\n  min-height: 44px; padding: 8px 14px; border-radius: calc(var(--_radius) * 2 / 3); border: 1px solid var(--_border);\n  background: var(--_control); cursor: pointer;\n}\nbutton:disabled { opacity: 0.45; cursor: not-allowed; }\nbutton.primary { background: var(--_accent); border-color: var(--_accent); color: #fff; font-weight: 600; }\nbutton.danger { background: var(--_danger); border-color: var(--_danger); color: #fff; font-weight: 600; }\nbutton.link {\n  min-height: 0; padding: 2px 4px; border: none; background: none; color: inherit; text-decoration: underline;\n}\n.icon { display: inline-flex; flex: none; }\n.icon svg { width: 20px; height: 20px; }\n";
