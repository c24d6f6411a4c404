// Three kinds of tests, one run: unit (node), component (jsdom) and browser (node, driving
// Chromium against the built portal, which globalSetup starts on a free port).
const swc = [
  "@swc/jest",
  {
    jsc: {
      parser: { syntax: "typescript", tsx: true },
      transform: { react: { runtime: "automatic" } },
      target: "es2022",
    },
    module: { type: "es6" },
  },
];

const shared = {
  rootDir: ".",
  transform: { "^.+\\.(t|j)sx?$": swc },
  extensionsToTreatAsEsm: [".ts", ".tsx"],
  moduleNameMapper: {
    "(^|/)onServer$": "<rootDir>/test/support/onServer.ts",
    "^~/(.*)$": "<rootDir>/app/$1",
    "\\.css(\\?url)?$": "<rootDir>/test/support/styleStub.js",
  },
};

export default {
  projects: [
    {
      ...shared,
      displayName: "unit",
      testEnvironment: "node",
      // Files that need another environment say so in a @jest-environment docblock.
      testMatch: ["<rootDir>/test/reference/**/*.test.ts?(x)", "<rootDir>/test/unit/**/*.test.ts"],
    },
    {
      ...shared,
      displayName: "components",
      testEnvironment: "jsdom",
      // Remix's server runtime (pulled in by @remix-run/react) has packages whose "browser" build is ESM-only.
      testEnvironmentOptions: { customExportConditions: ["node", "require", "default"] },
      testMatch: ["<rootDir>/test/components/**/*.test.ts?(x)"],
      setupFilesAfterEnv: ["<rootDir>/test/components/setup.ts"],
    },
    {
      ...shared,
      displayName: "browser",
      testEnvironment: "node",
      testMatch: ["<rootDir>/test/browser/**/*.test.ts"],
      globalSetup: "<rootDir>/test/browser/globalSetup.ts",
      globalTeardown: "<rootDir>/test/browser/globalTeardown.ts",
    },
  ],
};
