// <miccheck-participants-strip>: who is already in the call, for the lobby: "There are N more people in the
// call." and a row of initials, each named (title and accessible name), a ring on whoever speaks.
import { h, setText, shadow, upgradeProperties } from './base.js';
import { initials } from './names.js';
import { TEXT, othersSentence } from './texts.js';

const CSS = `
:host { display: block; }
[part~="count"] { margin: 0; }
[part~="list"] { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0 0; padding: 0; list-style: none; }
[part~="list"]:empty { display: none; }
[part~="avatar"] {
  display: flex; align-items: center; justify-content: center; width: 36px; height: 36px; border-radius: 50%;
  background: var(--_accent); color: #fff; font-size: 14px; font-weight: 600; border: 2px solid transparent;
}
[part~="avatar"][part~="speaking"] { border-color: var(--_speaking); }
`;

/**
 * `<miccheck-participants-strip>`: who is already in the call, and the count sentence. Parts: count, list,
 * person, avatar.
 */
export class ParticipantsStripElement extends HTMLElement {
  #count; #key; #list; #participants;

  constructor() {
    super();
    const root = shadow(this, CSS);
    this.#count = h('p', { part: 'count', 'aria-live': 'polite' });
    this.#list = h('ul', { part: 'list' });
    root.append(this.#count, this.#list);
    this.#participants = [];
    this.#key = null;
    upgradeProperties(this, ['participants']);
    this.#render();
  }

  /**
   * The others in the call: `[{id, name, speaking, …}]`.
   * @type {import('../types.js').Participant[]}
   */
  get participants() { return this.#participants; }
  set participants(value) {
    this.#participants = Array.isArray(value) ? value : [];
    this.#render();
  }

  #render() {
    const people = this.#participants;
    setText(this.#count, othersSentence(people.length));
    const key = JSON.stringify(people.map((p) => [p.id, p.name, !!p.speaking]));
    if (key === this.#key) return;
    this.#key = key;
    this.#list.replaceChildren(...people.map((p) => {
      const name = String(p.name || '').trim() || TEXT.guest;
      const label = p.speaking ? `${name}, speaking` : name;
      const avatar = h('span', {
        part: p.speaking ? 'avatar speaking' : 'avatar', role: 'img', 'aria-label': label, title: name,
        text: initials(p.name),
      });
      return h('li', { part: 'person', 'data-id': p.id }, avatar);
    }));
  }
}
