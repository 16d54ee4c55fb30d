export class Backoff {
    /** @param {{first?: number, max?: number, factor?: number}} [options] milliseconds */
    constructor({ first, max, factor }?: {
        first?: number | undefined;
        max?: number | undefined;
        factor?: number | undefined;
    } | undefined);
    first: number;
    max: number;
    factor: number;
    attempt: number;
    /** The wait before the next try, in milliseconds; each call counts a failed try. */
    next(): number;
    /** A connection opened: the next failure waits the first delay again. */
    reset(): void;
}
