// How long to wait before the next try to reach the server: 1 s, doubling, at most 10 s; back to the start once
// a connection has opened. Pure, for node's test runner.

export class Backoff {
  /** @param {{first?: number, max?: number, factor?: number}} [options] milliseconds */
  constructor({ first = 1000, max = 10000, factor = 2 } = {}) {
    if (!(first > 0) || !(max >= first) || !(factor >= 1)) {
      throw new RangeError("backoff: 0 < first <= max, factor >= 1");
    }
    this.first = first;
    this.max = max;
    this.factor = factor;
    this.attempt = 0;
  }

  /** The wait before the next try, in milliseconds; each call counts a failed try. */
  next() {
    const delay = Math.min(this.max, this.first * this.factor ** this.attempt);
    this.attempt += 1;
    return delay;
  }

  /** A connection opened: the next failure waits the first delay again. */
  reset() { this.attempt = 0; }
}
