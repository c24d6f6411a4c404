/** Flags agreed for Debian's Chromium on these machines (team notes). */
export declare const CHROMIUM_ARGS: string[];
