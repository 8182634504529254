import { randomBytes } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { eraseAccount, type ErasureCounts } from '../accounts/account-erasure.js';
import { exportAccount } from '../accounts/account-export.js';
import { getAccount } from '../accounts/account-service.js';
import type { Database } from '../db/schema/index.js';
import { syncDirectory, syncFile } from '../durable-files.js';
import { required, UsageError } from './args.js';

export const ACCOUNT_DATA_USAGE = `  accounts export --account <accountId> --out <file.zip>
                                          all of the account's data as one ZIP (docs/dashboard/account.md);
                                          never overwrites a file, and a failed export leaves none
  accounts delete --account <accountId>   erases the account and everything it holds, at once and for good,
                                          and prints what it erased; its short URLs are never reused`;

export interface AccountExportResult {
  account: string;
  out: string;
  bytes: number;
  entries: Record<string, number>;
}

/**
 * `accounts export`: written under a temporary name beside the output and renamed when complete, so the named file
 * is either the whole ZIP or absent (an interrupted export leaves no half file that looks like an export).
 */
export async function exportAccountToFile(db: Database, siteUrl: string, flags: Map<string, string>): Promise<AccountExportResult> {
  const accountId = required(flags, 'account');
  const out = path.resolve(required(flags, 'out'));
  await getAccount(db, accountId);
  await refuseExisting(out);
  const partial = path.join(path.dirname(out), `.${path.basename(out)}.${randomBytes(6).toString('hex')}.partial`);
  const file = createWriteStream(partial, { flags: 'wx' });
  const written = finished(file);
  // Awaited below; this only keeps a write error (a full disk) from counting as unhandled before then.
  written.catch(() => undefined);
  const stopRemovingOnSignal = removeOnSignal(partial);
  try {
    const { entries } = await exportAccount(db, accountId, file, { siteUrl });
    await written;
    await syncFile(partial);
    await fs.rename(partial, out);
    await syncDirectory(path.dirname(out));
    return { account: accountId, out, bytes: (await fs.stat(out)).size, entries };
  } catch (error) {
    const writeError = file.errored;
    file.destroy();
    await written.catch(() => undefined);
    await fs.rm(partial, { force: true });
    // The file's own error (ENOSPC, EACCES) says more than "the output closed" that the ZIP writer saw.
    throw writeError ?? error;
  } finally {
    stopRemovingOnSignal();
  }
}

/**
 * Until the returned function is called, Ctrl-C (SIGINT) or a SIGTERM removes `file` before the process ends,
 * which it then does by the same signal (the exit status a shell shows as 130 or 143). Without this the signal
 * ended the process at once and left the hidden partial file behind.
 */
function removeOnSignal(file: string): () => void {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const stop = () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
  function onSignal(signal: NodeJS.Signals) {
    stop();
    rmSync(file, { force: true });
    process.kill(process.pid, signal);
  }
  for (const signal of signals) process.on(signal, onSignal);
  return stop;
}

/** `accounts delete`: what went, by kind. */
export async function deleteAccount(db: Database, flags: Map<string, string>): Promise<{ account: string; erased: ErasureCounts }> {
  const accountId = required(flags, 'account');
  return { account: accountId, erased: await eraseAccount(db, accountId) };
}

async function refuseExisting(file: string): Promise<void> {
  const exists = await fs.access(file).then(() => true, () => false);
  if (exists) throw new UsageError(`${file} exists; choose another --out (an export never overwrites a file)`);
  const directory = await fs.stat(path.dirname(file)).then((stats) => stats.isDirectory(), () => false);
  if (!directory) throw new UsageError(`there is no directory ${path.dirname(file)} to write the export in`);
}
