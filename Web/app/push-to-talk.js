// The page's push-to-talk: while it is on, holding Space talks and releasing it mutes again (with the cause
// push-to-talk, so that no "You are muted." follows). A key's repeats, Space typed in a field, and Space with
// a modifier are not a press; the window losing focus releases the key (its keyup would never come).

/** Whether a key event comes from typing in a field (through shadow roots). */
export function typing(event) {
  const fields = ['INPUT', 'SELECT', 'TEXTAREA'];
  return event.composedPath().some((el) => el.isContentEditable || fields.includes(el.tagName));
}

export class PushToTalk {
  /** @param {(state: {on: boolean, talking: boolean}) => void} onChange */
  constructor(onChange) {
    this.onChange = onChange;
    this.on = false;
    this.talking = false;
    /** Whether the page listens to keys at all (in the call). */
    this.active = () => true;
  }

  /** Turns push-to-talk on (the microphone closes until Space is held) or off. */
  setOn(on) {
    this.on = !!on;
    this.talking = false;
    this.onChange(this);
  }

  /** Listens to `target`'s keys (the document) and `win`'s blur. */
  attach(target, win = target.defaultView) {
    target.addEventListener('keydown', (e) => this.key(e, true));
    target.addEventListener('keyup', (e) => this.key(e, false));
    win?.addEventListener('blur', () => this.#set(false));
  }

  /** A keydown (`down`) or keyup; returns whether it was push-to-talk's (its default is then prevented). */
  key(event, down) {
    if (!this.on || !this.active() || event.code !== 'Space' || typing(event)) return false;
    if (down && (event.ctrlKey || event.metaKey || event.altKey)) return false;
    // Space would also press the focused button (the toggle itself) or scroll the page.
    event.preventDefault();
    if (!event.repeat) this.#set(down);
    return true;
  }

  #set(talking) {
    if (this.talking === talking || (talking && !this.on)) return;
    this.talking = talking;
    this.onChange(this);
  }
}
