import type { SdiChannel } from '../sdi-channel.port.js';

export class SdiChannelNotConfigured extends Error {
  constructor() {
    super(
      'SDI channel not configured: this installation has no connection to the SDI (an accredited intermediary or an SDICoop/SDIFTP channel) yet, so no invoice is sent. Set SDI_CHANNEL=sandbox in development.',
    );
  }
}

/**
 * The production channel: the configuration point for the real SDI connection. Until one is built and configured it
 * refuses every file with a clear error (the transmission job fails and is retried; the document stays CREATED),
 * rather than pretending that an invoice went out.
 */
export class ProductionSdiChannel implements SdiChannel {
  transmit(): Promise<void> {
    return Promise.reject(new SdiChannelNotConfigured());
  }

  sweep(): Promise<number> {
    return Promise.resolve(0);
  }
}
