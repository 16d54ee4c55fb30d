// Which call this page is for: `?call=ID` in its address. A bare address starts a new call with a name of its
// own, written into the address so that it can be shared (everyone landing on `/` no longer meets in one
// call named "call").

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

/** A new call's id: `call-` and eight letters and digits from the browser's random source. */
export function newCallId(random = (n) => crypto.getRandomValues(new Uint8Array(n))) {
  const letters = 'abcdefghijkmnpqrstuvwxyz23456789';
  return `call-${[...random(8)].map((b) => letters[b % letters.length]).join('')}`;
}

/**
 * The call of `location`'s address; without one (or with one no server accepts), a new call, put in the
 * address with `history.replaceState`.
 * @returns {{call: string, fresh: boolean}}
 */
export function callOfAddress(location, history) {
  const params = new URLSearchParams(location.search);
  const given = params.get('call');
  if (given && VALID.test(given)) return { call: given, fresh: false };
  const call = newCallId();
  params.set('call', call);
  history.replaceState(null, '', `${location.pathname}?${params}`);
  return { call, fresh: true };
}
