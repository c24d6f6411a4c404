// The flags live in test-support/ at the repository's root, shared with the server's browser tests and bench/.
export { CHROMIUM_ARGS } from "../../../test-support/chromium-args.mjs";
