/**
 * Why the server refuses this call's invitation, from its presence snapshot (`GET /v1/calls/ID`): the 401's
 * reason, or null when it does not refuse it or cannot be reached.
 */
export function refusalOf(server: any, call: any, token: any): Promise<any>;
export class ServerConnection {
    /**
     * @param {() => string | Promise<string>} url the endpoint's ws:// or wss:// address, asked at each try (a
     *   promise while a new token is fetched)
     * @param {{onOpen: () => void, onText: (text: string) => void, onLost: () => void,
     *   onState: (state: string, message: string, extra: object) => void, askWhy?: () => Promise<string | null>,
     *   canRenew?: () => boolean}} on
     */
    constructor(url: () => string | Promise<string>, on: {
        onOpen: () => void;
        onText: (text: string) => void;
        onLost: () => void;
        onState: (state: string, message: string, extra: object) => void;
        askWhy?: (() => Promise<string | null>) | undefined;
        canRenew?: (() => boolean) | undefined;
    }, { WebSocket, backoff }?: {
        WebSocket?: {
            new (url: string | URL, protocols?: string | string[] | undefined): WebSocket;
            prototype: WebSocket;
            readonly CLOSED: number;
            readonly CLOSING: number;
            readonly CONNECTING: number;
            readonly OPEN: number;
        } | undefined;
        backoff?: {} | undefined;
    });
    url: () => string | Promise<string>;
    on: {
        onOpen: () => void;
        onText: (text: string) => void;
        onLost: () => void;
        onState: (state: string, message: string, extra: object) => void;
        askWhy?: (() => Promise<string | null>) | undefined;
        canRenew?: (() => boolean) | undefined;
    };
    WebSocket: {
        new (url: string | URL, protocols?: string | string[] | undefined): WebSocket;
        prototype: WebSocket;
        readonly CLOSED: number;
        readonly CLOSING: number;
        readonly CONNECTING: number;
        readonly OPEN: number;
    };
    backoff: Backoff;
    ws: WebSocket | null;
    retry: number | null;
    keepAlive: number | null;
    closed: boolean;
    pending: boolean;
    get isOpen(): boolean;
    /** How much is waiting to go out, in bytes. */
    get buffered(): number;
    /** Connects, unless connected or waiting to retry. */
    open(): void;
    send(data: any): void;
    close(): void;
    #private;
}
import { Backoff } from "./backoff.js";
