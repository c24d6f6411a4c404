/**
 * What went wrong, in a sentence. A module of its own: the crash screen (every page's) needs it, and importing it from
 * LoadOnDemand would put that docs-page module in the JavaScript of every page.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  return "Errore sconosciuto";
}
