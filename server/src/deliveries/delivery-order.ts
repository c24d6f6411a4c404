/**
 * The order rule of deliveries that share an ordering key (a webhook's document) and an endpoint: one is not first
 * attempted before the earlier ones have been, nor while an earlier event of the same subject has not been fanned out
 * yet. Retries may overtake (the receiver compares versions).
 *
 * A delivery behind an earlier one is stored `waiting`; the engine only claims deliveries that are not. This is the
 * one statement of the rule: SQL that is true when the delivery (or the delivery about to be made) named `row`, with
 * columns `endpoint_id`, `ordering_key` and `ordering_at`, has to wait.
 */
export function mustWait(row: string): string {
  return `(${row}.ordering_key IS NOT NULL AND (
    EXISTS (SELECT 1 FROM deliveries p
             WHERE p.endpoint_id = ${row}.endpoint_id AND p.ordering_key = ${row}.ordering_key
               AND p.status = 'pending' AND p.attempts = 0 AND p.ordering_at < ${row}.ordering_at)
    OR EXISTS (SELECT 1 FROM events pe
                WHERE pe.dispatched_at IS NULL AND (pe.payload->>'id') = ${row}.ordering_key AND pe.created_at < ${row}.ordering_at)))`;
}
