// Plain JavaScript so that bench/portal.mjs can import it as well as the TypeScript tests of the server and the portal
// (neither imports the other: this folder belongs to both).
/** Flags agreed for Debian's Chromium on these machines (team notes). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
