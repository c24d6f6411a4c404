import type { FormatoTrasmissione } from '../fatturapa/invoice.types.js';
import type { SimplifiedFormatoTrasmissione } from '../fatturapa/simplified.types.js';
import type { SdiNotice } from './sdi-notices.js';

/**
 * The development SDI's outcomes, chosen by the buyer's CodiceDestinatario (7 characters for FPR12, 6 for FPA12), so an
 * integrator can reach each final status on purpose. Any other code is delivered. Documented on the portal
 * (guides/sending-an-e-invoice.md): change both together.
 */
export const SANDBOX_TRIGGERS: ReadonlyArray<{ format: FormatoTrasmissione; code: string; outcome: SdiNotice[]; status: string }> = [
  { format: 'FPR12', code: 'DISCARD', outcome: [{ kind: 'NS', errors: ['00311'] }], status: 'DISCARDED' },
  { format: 'FPR12', code: 'NODELIV', outcome: [{ kind: 'MC' }], status: 'NOT_DELIVERED' },
  { format: 'FPA12', code: 'DISCAR', outcome: [{ kind: 'NS', errors: ['00311'] }], status: 'DISCARDED' },
  { format: 'FPA12', code: 'NODELI', outcome: [{ kind: 'AT' }], status: 'NOT_DELIVERED' },
  { format: 'FPA12', code: 'REFUSE', outcome: [{ kind: 'RC' }, { kind: 'NE', outcome: 'EC02' }], status: 'DELIVERED, then REFUSED' },
];

/** The notices the sandbox sends for a file that passed its checks, in order: a trigger's, else delivery. */
export function sandboxOutcome(format: FormatoTrasmissione | SimplifiedFormatoTrasmissione, codiceDestinatario: string): SdiNotice[] {
  // A simplified invoice (FSM10) goes to a private party with a 7-character code: FPR12's triggers.
  const to = format === 'FSM10' ? 'FPR12' : format;
  const trigger = SANDBOX_TRIGGERS.find((t) => t.format === to && t.code === codiceDestinatario.toUpperCase());
  return trigger ? trigger.outcome : [{ kind: 'RC' }];
}
