/**
 * Chooses and installs the capture: `capture` is the client's (a SwitchedCapture, or a test's own; one with the
 * kernel's `command` is the device capture itself).
 * @param {{ analysis: 'device' | 'server', endpoint: string, wasm: string | URL | Response | Promise<Response>
 *   | ArrayBuffer | WebAssembly.Module, capture: object }} how
 * @returns {Promise<{ mode: 'device' | 'server', device: object | null,
 *   event: { mode: string, reason: string | null } | null }>} `event`: the `analysis` event, when there is one
 * @throws {MicCheckError} `no-analysis`: the kernel cannot run and there is no server (endpoint `none`)
 */
export function chooseAnalysis({ analysis, endpoint, wasm, capture }: {
    analysis: 'device' | 'server';
    endpoint: string;
    wasm: string | URL | Response | Promise<Response> | ArrayBuffer | WebAssembly.Module;
    capture: object;
}): Promise<{
    mode: 'device' | 'server';
    device: object | null;
    event: {
        mode: string;
        reason: string | null;
    } | null;
}>;
