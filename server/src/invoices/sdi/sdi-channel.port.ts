/** The queue of the SDI's work in the worker: transmissions, and the sandbox's notifications. */
export const SDI_QUEUE = 'sdi';

export interface SdiFile {
  documentId: string;
  companyId: string;
  /** The SDI file name (`IT01234567890_0001K.xml`, or `.xml.p7m` for a signed file). */
  fileName: string;
  /** The file as the SDI takes it: the XML, or the signed envelope carrying it. */
  xml: Buffer;
}

/**
 * The SDI (Sistema di Interscambio) is an outside system: Flusso reaches it through this port. `transmit` hands one
 * file over and resolves once the SDI has taken it (the document is then SENT); the SDI's notifications come back
 * later, and whoever receives them (a driver's callback, the sandbox's jobs) applies them with SdiNotifications.
 * Drivers: `drivers/sandbox.driver.ts` (development), `drivers/production.driver.ts`.
 */
export interface SdiChannel {
  transmit(file: SdiFile): Promise<void>;

  /**
   * Queues again the work the channel still owes whose job was lost (Redis restarted empty); returns how many. The
   * dispatcher's sweeper calls it; a channel that keeps no work of its own returns 0.
   */
  sweep(): Promise<number>;
}

/** The DI token of the worker's SDI channel (sdi-channel.factory.ts chooses the driver). */
export const SDI_CHANNEL = Symbol('SDI_CHANNEL');
