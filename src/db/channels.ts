/**
 * PostgreSQL NOTIFY channels the service listens on. The migrations that created the triggers wrote the same
 * names into SQL (frozen there, as migrations must be); these are the names the running code uses.
 */

/** A code's slug, sent when its destination, state or page changes: every instance drops it from its cache. */
export const CODE_CHANGES_CHANNEL = 'qroute_code_changes';

/** Sent when a webhook delivery becomes due: a waiting worker claims it at once instead of at its next poll. */
export const WEBHOOKS_DUE_CHANNEL = 'qroute_webhooks_due';
