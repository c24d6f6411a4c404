import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { freePort } from "../support/portal-server";

const portalDir = fileURLToPath(new URL("../..", import.meta.url));

/** Runs the built portal with `env` added and resolves with its exit code and what it wrote to stderr. */
function runPortal(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return freePort().then(
    (port) =>
      new Promise((resolve) => {
        const cli = createRequire(import.meta.url).resolve("@remix-run/serve/dist/cli.js");
        const child = spawn(process.execPath, [cli, `${portalDir}build/server/index.js`], {
          cwd: portalDir,
          env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (chunk) => (stderr += chunk));
        // A server that started did not check its environment: stop it and fail below.
        const timer = setTimeout(() => child.kill("SIGTERM"), 15_000);
        child.on("exit", (code) => {
          clearTimeout(timer);
          resolve({ code, stderr });
        });
      }),
  );
}

describe("the portal's environment", () => {
  it("stops the server at start on a wrong value, saying which variable and why", async () => {
    const { code, stderr } = await runPortal({ FLUSSO_HOST_DEVELOPMENT: "api.sandbox.example" });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(stderr).toContain(
      'FLUSSO_HOST_DEVELOPMENT must be an http:// or https:// URL such as https://api.sandbox.flusso.example, got "api.sandbox.example"',
    );
  }, 30_000);
});
