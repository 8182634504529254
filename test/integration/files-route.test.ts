import { Readable } from 'node:stream';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { storeFile } from '../../src/files/store-file.js';
import type { TestDatabase } from '../support/database.js';
import { createBareAccount } from '../support/factories.js';
import { type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
useTestApp((started) => ({ database, app } = started));

describe('GET /files/:id (what landing pages link to)', () => {
  it('serves a stored file to anyone with its id, typed by content and sandboxed; unknown ids are 404', async () => {
    const account = await createBareAccount(database.db, { name: 'Files' });
    const image = new PNG({ width: 2, height: 2 });
    image.data.fill(255);
    const bytes = PNG.sync.write(image);
    const stored = await storeFile(database.db, { accountId: account.id, kind: 'image', name: 'menu.png', stream: Readable.from([bytes]) }, app.config.files);

    const response = await fetch(`${app.origin}/files/${stored.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);

    for (const id of ['fil_00000000000000000000000000', 'nonsense']) {
      expect((await fetch(`${app.origin}/files/${id}`)).status).toBe(404);
    }
  });
});
