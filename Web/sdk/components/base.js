// What every component shares: its style sheets (constructed, since the page's Content-Security-Policy has
// `style-src 'self'`: no <style> elements, no style attributes), the theme's custom properties with their
// dark defaults, a focus ring, a tiny element builder, and how events leave a shadow root.

/**
 * The theme: an app sets these on any ancestor (or on the element) to restyle every component.
 * --miccheck-accent (primary buttons, avatars), --miccheck-speaking (speaking ring, meter),
 * --miccheck-warning, --miccheck-danger (Leave, a toggle that is off), --miccheck-panel, --miccheck-text,
 * --miccheck-muted-text, --miccheck-control (buttons), --miccheck-field (inputs and menus),
 * --miccheck-surface (tiles without video), --miccheck-border, --miccheck-radius (panels and tiles; buttons
 * and fields take two thirds and half of it), --miccheck-focus (the focus ring). A light theme sets the
 * backgrounds light and --miccheck-text dark; the labels over a tile's video stay white on their dark chip.
 */
export const THEME_CSS = `
:host {
  --_accent: var(--miccheck-accent, #1f5fcc);
  --_speaking: var(--miccheck-speaking, #35d07f);
  --_warning: var(--miccheck-warning, #f5b942);
  --_danger: var(--miccheck-danger, #c4262e);
  --_panel: var(--miccheck-panel, #20232b);
  --_text: var(--miccheck-text, #e8eaf0);
  --_muted-text: var(--miccheck-muted-text, #9aa0ad);
  --_radius: var(--miccheck-radius, 12px);
  --_focus: var(--miccheck-focus, #8ab4ff);
  --_surface: var(--miccheck-surface, #2d3140);
  --_control: var(--miccheck-control, #2a2e39);
  --_field: var(--miccheck-field, #181a20);
  --_border: var(--miccheck-border, #3a3f4d);
  color: var(--_text);
  font: 16px/1.4 system-ui, sans-serif;
  box-sizing: border-box;
}
*, *::before, *::after { box-sizing: border-box; }
[hidden], :host([hidden]) { display: none !important; }
:focus-visible { outline: 3px solid var(--_focus); outline-offset: 2px; }
button, input, select { font: inherit; color: inherit; }
button {
  display: inline-flex; align-items: center; justify-content: center; gap: 6px;
  min-height: 44px; padding: 8px 14px; border-radius: calc(var(--_radius) * 2 / 3); border: 1px solid var(--_border);
  background: var(--_control); cursor: pointer;
}
button:disabled { opacity: 0.45; cursor: not-allowed; }
button.primary { background: var(--_accent); border-color: var(--_accent); color: #fff; font-weight: 600; }
button.danger { background: var(--_danger); border-color: var(--_danger); color: #fff; font-weight: 600; }
button.link {
  min-height: 0; padding: 2px 4px; border: none; background: none; color: inherit; text-decoration: underline;
}
.icon { display: inline-flex; flex: none; }
.icon svg { width: 20px; height: 20px; }
`;

const sheets = new Map();

/** A constructed style sheet for the CSS text, made once per text. */
export function sheet(css) {
  let s = sheets.get(css);
  if (!s) {
    s = new CSSStyleSheet();
    s.replaceSync(css);
    sheets.set(css, s);
  }
  return s;
}

/** Gives the element an open shadow root styled by the theme and the component's own CSS. */
export function shadow(host, css, options = {}) {
  const root = host.attachShadow({ mode: 'open', ...options });
  root.adoptedStyleSheets = [sheet(THEME_CSS), sheet(css)];
  return root;
}

/**
 * An element: `h('button', {part: 'join', class: 'primary', text: 'Join Call'}, child...)`. Keys are
 * attributes except `text` (its text) and `on` (an object of event listeners); false and null skip one.
 */
export function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === 'text') el.textContent = value;
    else if (key === 'on') for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  el.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** Dispatches a CustomEvent that bubbles out of shadow roots (composed), from `target`. */
export function emit(target, type, detail = {}) {
  return target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

/** Sets a text only when it changed (a live region would speak an unchanged one again in some readers). */
export function setText(el, text) {
  const value = text ?? '';
  if (el.textContent !== value) el.textContent = value;
}

/**
 * Properties set on the element before its class was defined (an element made before the components were)
 * hide the class's setters: take them off and set them again through the setters.
 */
export function upgradeProperties(el, names) {
  for (const name of names) {
    if (Object.prototype.hasOwnProperty.call(el, name)) {
      const value = el[name];
      delete el[name];
      el[name] = value;
    }
  }
}

/** The focused element, looking into shadow roots. */
export function deepActiveElement() {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el;
}
