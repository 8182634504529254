/**
 * A code's scans in pages now live in src/db/scan-pages.ts, below every domain folder, so the account export
 * (src/accounts, which codes import) can page scans the way the CSV export does. Kept so imports stay as they are.
 */
export * from '../db/scan-pages.js';
