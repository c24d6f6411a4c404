/**
 * True in the server build, false in the browser's (Vite replaces it at build time), so an `ON_SERVER ? … : …` at a
 * call site leaves the server-only branch, and the modules only it imports, out of the browser's JavaScript. (Jest,
 * which has no import.meta.env, renders as the server does: test/support/onServer.ts.)
 */
export const ON_SERVER: boolean = import.meta.env.SSR;
