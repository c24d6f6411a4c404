/**
 * Detects a client application that never started (typically its assets 404 because the
 * site is served under another base address than it was built for).
 */
export const CLIENT_STARTED_FLAG = "__flussoClientStarted";
export const DID_NOT_LOAD_BANNER_ID = "did-not-load-banner";

/** How long after the window's `load` event the client gets to mark itself started. */
export const CLIENT_START_GRACE_MS = 1500;

declare global {
  interface Window {
    [CLIENT_STARTED_FLAG]?: boolean;
  }
}

export function markClientStarted() {
  window[CLIENT_STARTED_FLAG] = true;
}

/** Inline script for the home page: reveals the server-rendered banner if the client did not start. */
export const didNotLoadScript = `(function(){function check(){if(!window[${JSON.stringify(CLIENT_STARTED_FLAG)}]){
var b=document.getElementById(${JSON.stringify(DID_NOT_LOAD_BANNER_ID)});if(b)b.hidden=false}}
window.addEventListener("load",function(){setTimeout(check,${CLIENT_START_GRACE_MS})})})();`;
