import fs from 'node:fs/promises';

/**
 * `<dataDir>/postgres.json` (mode 0600): how to reach the embedded cluster, so the admin CLI and a standalone
 * worker find the database the server runs. Clusters made before the admin role have only port, user, password.
 */
export interface EmbeddedPostgresInfo {
  port: number;
  /** The service's role (not a superuser). */
  user: string;
  password: string;
  /** The superuser, for setup only. */
  adminUser?: string;
  adminPassword?: string;
}

export type ReadInfo = { info: EmbeddedPostgresInfo } | { problem: 'missing' | 'unreadable' };

export async function readInfo(file: string): Promise<ReadInfo> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    return { problem: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' };
  }
  try {
    const parsed = JSON.parse(text) as Partial<EmbeddedPostgresInfo>;
    const optionalString = (value: unknown) => value === undefined || typeof value === 'string';
    if (typeof parsed.user === 'string' && typeof parsed.password === 'string' && typeof parsed.port === 'number' &&
      optionalString(parsed.adminUser) && optionalString(parsed.adminPassword) && (parsed.adminUser === undefined) === (parsed.adminPassword === undefined)) {
      return { info: parsed as EmbeddedPostgresInfo };
    }
  } catch {
    // not JSON: unreadable
  }
  return { problem: 'unreadable' };
}

export async function writeInfo(file: string, info: EmbeddedPostgresInfo): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, JSON.stringify(info, null, 2), { mode: 0o600 });
  await fs.rename(temporary, file);
}
