// Components render in tests as on the server, whole: app/reference/onServer.ts reads Vite's import.meta.env.SSR.
export const ON_SERVER = true;
