/**
 * The user-perceived characters of a string.
 * @param {unknown} text
 * @returns {string[]}
 */
export function graphemes(text: unknown): string[];
/**
 * Up to two initials: the first grapheme of the first and of the last word, uppercased; "?" for no name.
 * @param {string} name
 * @returns {string}
 */
export function initials(name: string): string;
/**
 * A name cut to at most NAME_LIMIT Unicode scalars at a grapheme boundary, not trimmed (for a field being
 * typed in, where a trailing space is the start of the next word).
 * @param {string} raw
 * @returns {{name: string, cut: boolean}}
 */
export function limitedName(raw: string): {
    name: string;
    cut: boolean;
};
/**
 * A name as it is sent: trimmed, then cut to NAME_LIMIT scalars; `cut` says whether anything was cut off.
 * @param {string} raw
 * @returns {{name: string, cut: boolean}}
 */
export function checkedName(raw: string): {
    name: string;
    cut: boolean;
};
/** The most characters (Unicode scalars) a name may have; the server refuses longer ones. */
export const NAME_LIMIT: 64;
