import { loadPortalEnv, PortalEnvError } from "~/config/env.server";

describe("the portal's environment, checked once at start", () => {
  it("gives every variable its default when it is unset or empty", () => {
    const defaults = {
      site: {
        hosts: { development: "https://api.sandbox.flusso.example", production: "https://api.flusso.example" },
        supportEmail: "developers@flusso.example",
        demoCompanyId: null,
      },
      testHooks: false,
    };
    expect(loadPortalEnv({})).toEqual(defaults);
    expect(
      loadPortalEnv({ FLUSSO_HOST_DEVELOPMENT: "", FLUSSO_SUPPORT_EMAIL: "", FLUSSO_DEMO_COMPANY_ID: "", FLUSSO_TEST_HOOKS: "", PORT: "" }),
    ).toEqual(defaults);
  });

  it("reads hosts without their trailing slash, the demo company in lower case, and the test hooks switch", () => {
    const env = loadPortalEnv({
      FLUSSO_HOST_DEVELOPMENT: "http://localhost:3000/",
      FLUSSO_HOST_PRODUCTION: "https://api.example.test",
      FLUSSO_SUPPORT_EMAIL: "help@example.test",
      FLUSSO_DEMO_COMPANY_ID: "3F2B8C1E-6A4D-4E0F-9B7A-2C5D8E1F0A93",
      FLUSSO_TEST_HOOKS: "1",
      PORT: "41500",
      PORTAL_PORT: "41500",
    });
    expect(env).toEqual({
      site: {
        hosts: { development: "http://localhost:3000", production: "https://api.example.test" },
        supportEmail: "help@example.test",
        demoCompanyId: "3f2b8c1e-6a4d-4e0f-9b7a-2c5d8e1f0a93",
      },
      testHooks: true,
    });
    expect(loadPortalEnv({ FLUSSO_TEST_HOOKS: "0" }).testHooks).toBe(false);
  });

  it.each([
    [
      { FLUSSO_HOST_DEVELOPMENT: "api.sandbox.example" },
      'FLUSSO_HOST_DEVELOPMENT must be an http:// or https:// URL such as https://api.sandbox.flusso.example, got "api.sandbox.example"',
    ],
    [
      { FLUSSO_HOST_PRODUCTION: "ftp://api.example" },
      'FLUSSO_HOST_PRODUCTION must be an http:// or https:// URL such as https://api.flusso.example, got "ftp://api.example"',
    ],
    [
      { FLUSSO_SUPPORT_EMAIL: "support" },
      'FLUSSO_SUPPORT_EMAIL must be an e-mail address such as developers@flusso.example, got "support"',
    ],
    [
      { FLUSSO_DEMO_COMPANY_ID: "demo" },
      'FLUSSO_DEMO_COMPANY_ID must be a company id (a UUID such as 3f2b8c1e-6a4d-4e0f-9b7a-2c5d8e1f0a93), got "demo"',
    ],
    [{ FLUSSO_TEST_HOOKS: "true" }, 'FLUSSO_TEST_HOOKS must be 1 (on) or 0 (off), got "true"'],
    [{ PORT: "portal" }, 'PORT must be a port number from 0 to 65535, got "portal"'],
    [{ PORT: "70000" }, 'PORT must be a port number from 0 to 65535, got "70000"'],
    [{ PORTAL_PORT: "NaN", PORT: "NaN" }, 'PORTAL_PORT must be a port number from 0 to 65535, got "NaN"'],
  ])("refuses %j, naming the variable", (variables, message) => {
    expect(() => loadPortalEnv(variables)).toThrow(new PortalEnvError(message));
  });
});
