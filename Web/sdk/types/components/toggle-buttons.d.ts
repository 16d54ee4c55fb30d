/** The three toggles: `{buttons: {audio, video, speaker}, update({settings, allowed})}`. */
export function makeToggleButtons(): {
    buttons: {};
    list: any[];
    update: ({ settings, allowed }?: {
        settings?: {} | undefined;
        allowed?: {} | undefined;
    }) => void;
};
/** The CSS for the toggles, for the shadow roots that hold them. */
export const TOGGLE_CSS: "\n[part~=\"toggle\"] .label { white-space: nowrap; }\n[part~=\"toggle\"][aria-pressed=\"false\"] {\n  background: color-mix(in srgb, var(--_danger) 30%, var(--_control)); border-color: var(--_danger);\n}\n[part~=\"toggle\"][aria-pressed=\"false\"] .label { text-decoration: line-through; }\n";
