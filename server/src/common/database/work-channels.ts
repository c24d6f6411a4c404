/**
 * PostgreSQL notification channels that wake the worker (LISTEN/NOTIFY): triggers notify them when events or
 * deliveries are inserted; whatever else makes work due at once (a replay, an endpoint enabled again) notifies too.
 */
export const WORK_CHANNELS = { events: 'flusso_events', deliveries: 'flusso_deliveries', sdi: 'flusso_sdi', f24: 'flusso_f24' } as const;
