import { randomBytes } from 'node:crypto';

// Each test file gets Redis keys, channels and queues of its own, so test files (and checkouts tested side by side on
// one Redis) never take each other's jobs or rate-limit counts.
process.env.REDIS_PREFIX = `flusso-test-${randomBytes(4).toString('hex')}`;
// Workers started by tests that read no F24 do not load the PDF reader and the OCR data at start (f24.spec turns it on).
process.env.F24_WARM_UP ??= 'false';
