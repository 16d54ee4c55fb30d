/** The three menus: `{element, selects: {audioinput, videoinput, audiooutput}, update(devices, chosen)}`. */
export function makeDeviceSelects(): {
    labels: any[];
    selects: {};
    update: (devices?: {}, chosen?: {}) => void;
};
