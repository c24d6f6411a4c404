import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Places, type RequestEnd, WaitEnded } from '../common/concurrency/places.js';
import { ApiError } from '../common/errors/api-error.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../common/errors/error-response.js';

/**
 * The API process's lane for invoices coming in (create-invoice, the sandbox's received invoice): INVOICE_CONCURRENCY
 * of them are read, checked and written at once, the others wait in line, first come first served, XML_QUEUE_LIMIT at
 * most (one more: 503 at once, as the reader pool answers). An invoice is the heaviest call there is: a reader's time,
 * then the main thread's checks and several statements. The default, one being read per XML reader and one being
 * written, keeps both stages busy; more in progress only take the cores every other request needs (bench/ingest.mjs,
 * 8 invoices sent at once on two cores: lists' p99 2.0-2.4 times idle without a bound, 1.5-2.25 with it; issue 18's
 * note). A client gone while its request waits leaves the line; the place is given back however the work ends.
 */
@Injectable()
export class InvoiceLane {
  private readonly places: Places;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // No deadline of its own: each invoice ahead is bounded (the reader's time budget, the database's timeouts).
    this.places = new Places(config.invoices.concurrency, { waitMs: null, maxWaiting: config.invoices.xml.queueLimit });
  }

  async run<T>(end: RequestEnd, work: () => Promise<T>): Promise<T> {
    try {
      await this.places.acquire(end);
    } catch (error) {
      throw error instanceof WaitEnded ? laneRefusal(error.why) : error;
    }
    try {
      return await work();
    } finally {
      this.places.release();
    }
  }

  /** Invoices in progress and waiting: what a test or an operator looks at. */
  usage(): { held: number; waiting: number } {
    return { held: this.places.held, waiting: this.places.waiting };
  }
}

function laneRefusal(why: WaitEnded['why']): ApiError {
  if (why === 'gone') return ApiError.of('request_timeout', 'The client closed the connection while the invoice waited for its turn; nothing was changed.');
  return ApiError.of(
    'service_unavailable',
    'Every place for invoices on this server is taken and its line is full; nothing was changed, try again shortly.',
    undefined,
    {
      'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    },
  );
}
