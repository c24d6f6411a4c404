import type { Environment } from '../config/config.js';
import type { MailMessage } from '../deliveries/delivery.entity.js';

const REASONS: Record<string, string> = {
  gone: 'it answered 410 Gone, which asks Flusso to stop sending',
  failing: 'every attempt to deliver to it has failed for days',
};

/** The e-mail that tells an integrator Flusso disabled one of its endpoints, and how to enable it again. */
export function disabledEndpointNotice(endpoint: {
  id: string;
  url: string;
  name: string;
  to: string;
  disabled_reason: string;
  failing_since: Date | null;
  lastError: string;
  environment: Environment;
}): MailMessage {
  const since = endpoint.failing_since ? ` Failing since ${endpoint.failing_since.toISOString()}.` : '';
  const text = [
    `Hello ${endpoint.name},`,
    '',
    `Flusso has disabled your webhook endpoint ${endpoint.url} (id ${endpoint.id}, ${endpoint.environment}) because ${REASONS[endpoint.disabled_reason] ?? endpoint.disabled_reason}.${since}`,
    `The last attempt got: ${endpoint.lastError}.`,
    '',
    'No new events are queued for it while it is disabled; the deliveries already pending are kept and resume when you enable it again.',
    'Once the endpoint answers 2xx again, enable it with:',
    '',
    `  PATCH /api/v1/webhook-endpoints/${endpoint.id}`,
    '  {"enabled": true}',
    '',
    `(or ask Flusso support to run "webhook:enable ${endpoint.id}"). List its deliveries with GET /api/v1/webhook-endpoints/${endpoint.id}/deliveries`,
    'and send missed events again with POST /api/v1/webhook-endpoints/{id}/replay.',
    '',
    'Flusso',
  ].join('\n');
  return { to: [endpoint.to], subject: `Flusso: webhook endpoint disabled (${endpoint.url})`, text };
}
