/**
 * The SDI (Sistema di Interscambio) is an outside system: Flusso reaches it through this port. `transmit` hands one
 * file over and resolves once the SDI has taken it (the document is then SENT); the SDI's notifications come back
 * later, and whoever receives them (an adapter's callback, the sandbox's jobs) applies them with SdiNotifications.
 */
export const SDI_QUEUE = 'sdi';

export interface SdiFile {
  documentId: string;
  companyId: string;
  /** The SDI file name (`IT01234567890_0001K.xml`, or `.xml.p7m` for a signed file). */
  fileName: string;
  /** The file as the SDI takes it: the XML, or the signed envelope carrying it. */
  xml: Buffer;
}

export abstract class SdiChannel {
  abstract transmit(file: SdiFile): Promise<void>;

  /**
   * Queues again the work the channel still owes whose job was lost (Redis restarted empty); returns how many. The
   * dispatcher's sweeper calls it. A channel that keeps no work of its own has nothing to do.
   */
  sweep(): Promise<number> {
    return Promise.resolve(0);
  }
}

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
export class ProductionSdiChannel extends SdiChannel {
  transmit(): Promise<void> {
    return Promise.reject(new SdiChannelNotConfigured());
  }
}
