import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A webhook endpoint records the permissions of the key that registered it (or last changed its URL): it receives
 * only the events those permissions may read, so a `webhooks:write` key cannot read documents through a webhook.
 * Which key registered an existing endpoint was not kept: it gets what its integrator's keys in its environment hold
 * together (revoked ones included, so the key that registered it is among them). An endpoint of an integrator whose
 * keys may not read documents stops receiving them; one of an integrator with no key was registered by an operator,
 * and keeps receiving everything. `api_key_id` names the key that registered the endpoint or last changed its URL, so an
 * operator who revokes a leaked key sees the endpoints it chose (unknown for the endpoints made before).
 */
export class WebhookEndpointPermissions1795454600000 implements MigrationInterface {
  name = 'WebhookEndpointPermissions1795454600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_endpoints ADD COLUMN permissions text[]`);
    await db.query(`
      WITH held AS (
        SELECT e.id, array_agg(DISTINCT p) AS ps
          FROM webhook_endpoints e
          JOIN api_keys k ON k.integrator_id = e.integrator_id AND k.environment = e.environment
          CROSS JOIN LATERAL unnest(k.permissions) AS p
         GROUP BY e.id
      )
      UPDATE webhook_endpoints e
         SET permissions = CASE WHEN '*' = ANY(h.ps) THEN ARRAY['*']
                                ELSE ARRAY(SELECT p FROM unnest(h.ps) AS p
                                            WHERE NOT (p LIKE '%:read' AND replace(p, ':read', ':write') = ANY(h.ps)) ORDER BY p) END
        FROM held h WHERE h.id = e.id`);
    await db.query(`UPDATE webhook_endpoints SET permissions = ARRAY['*'] WHERE permissions IS NULL`);
    await db.query(`ALTER TABLE webhook_endpoints ALTER COLUMN permissions SET NOT NULL`);
    await db.query(`ALTER TABLE webhook_endpoints ADD COLUMN api_key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_endpoints DROP COLUMN api_key_id`);
    await db.query(`ALTER TABLE webhook_endpoints DROP COLUMN permissions`);
  }
}
