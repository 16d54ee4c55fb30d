// Names as people see them: initials for a tile without video, and the length limit of a name. Pure, so that
// node's tests cover it. Graphemes, not UTF-16 code units: "🦊 Fox" gives "🦊F", never half a surrogate pair.

/** The most characters (Unicode scalars) a name may have; the server refuses longer ones. */
export const NAME_LIMIT = 64;

const segmenter = typeof Intl !== 'undefined' && Intl.Segmenter
  ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/**
 * The user-perceived characters of a string.
 * @param {unknown} text
 * @returns {string[]}
 */
export function graphemes(text) {
  const s = String(text ?? '');
  if (segmenter) return Array.from(segmenter.segment(s), (g) => g.segment);
  return Array.from(s);
}

/**
 * Up to two initials: the first grapheme of the first and of the last word, uppercased; "?" for no name.
 * @param {string} name
 * @returns {string}
 */
export function initials(name) {
  const words = String(name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = graphemes(words[0])[0];
  const last = words.length > 1 ? graphemes(words[words.length - 1])[0] : '';
  return (first + last).toUpperCase();
}

/**
 * A name cut to at most NAME_LIMIT Unicode scalars at a grapheme boundary, not trimmed (for a field being
 * typed in, where a trailing space is the start of the next word).
 * @param {string} raw
 * @returns {{name: string, cut: boolean}}
 */
export function limitedName(raw) {
  const text = String(raw ?? '');
  if (Array.from(text).length <= NAME_LIMIT) return { name: text, cut: false };
  let name = '';
  let scalars = 0;
  for (const g of graphemes(text)) {
    const n = Array.from(g).length;
    if (scalars + n > NAME_LIMIT) break;
    name += g;
    scalars += n;
  }
  return { name, cut: true };
}

/**
 * A name as it is sent: trimmed, then cut to NAME_LIMIT scalars; `cut` says whether anything was cut off.
 * @param {string} raw
 * @returns {{name: string, cut: boolean}}
 */
export function checkedName(raw) {
  const { name, cut } = limitedName(String(raw ?? '').trim());
  return { name: cut ? name.trim() : name, cut };
}
