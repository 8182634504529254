import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { listDestinationChanges } from '../../src/codes/destination-history.js';
import { updateQrCode } from '../../src/codes/qr-code-service.js';
import { newId } from '../../src/ids.js';
import { createClient } from '../../sdk/src/index.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestAccount;
let keyLabel: string;

useTestApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createTestAccount(database.db, app);
  keyLabel = `${owner.apiKey.slice(0, 8)}…${owner.apiKey.slice(-4)}`;
});

function history(codeId: string, accountId = owner.accountId) {
  return listDestinationChanges(database.db, { accountId, codeId, limit: 50 });
}

describe('destination history', () => {
  it('records the first destination and every change of it through the API, newest first, by the API key', async () => {
    const code = await owner.client.createQrCode({ name: 'Poster', url: 'https://example.com/one' });
    await owner.client.updateQrCode(code.id, { url: 'https://example.com/two' });
    await owner.client.updateQrCode(code.id, { url: 'https://example.com/three' });
    const changes = await history(code.id);
    expect(changes.map((c) => [c.previousUrl, c.newUrl])).toEqual([
      ['https://example.com/two', 'https://example.com/three'],
      ['https://example.com/one', 'https://example.com/two'],
      [null, 'https://example.com/one'],
    ]);
    for (const change of changes) {
      expect(change.actor).toEqual({ kind: 'api_key', apiKeyId: owner.keyId, label: keyLabel, name: null });
      expect(change.changedAt).toBeInstanceOf(Date);
    }
    expect(changes[0]!.changedAt.getTime()).toBeGreaterThanOrEqual(changes[2]!.changedAt.getTime());
  });

  it('records nothing for a change of name or state, or for a destination that stays the same once normalized', async () => {
    const code = await owner.client.createQrCode({ name: 'Poster', url: 'https://example.com/same' });
    await owner.client.updateQrCode(code.id, { name: 'Renamed' });
    await owner.client.updateQrCode(code.id, { active: false });
    await owner.client.updateQrCode(code.id, { url: 'HTTPS://EXAMPLE.com/same', name: 'Renamed again' });
    expect(await history(code.id)).toHaveLength(1);
  });

  it('records a create once when the request is replayed with the same Idempotency-Key', async () => {
    const body = { name: 'Once', url: 'https://example.com/once' };
    const first = await owner.client.createQrCode(body, { idempotencyKey: 'order-1' });
    const replayed = await owner.client.createQrCode(body, { idempotencyKey: 'order-1' });
    expect(replayed.id).toBe(first.id);
    expect(await history(first.id)).toHaveLength(1);
  });

  it('names the key that made each change, with the name its maker gave it', async () => {
    const named = await createApiKey(database.db, owner.accountId, { name: '  CI deploys ' });
    const code = await owner.client.createQrCode({ name: 'Poster', url: 'https://example.com/a' });
    await createClient({ baseUrl: app.apiUrl, apiKey: named.key }).updateQrCode(code.id, { url: 'https://example.com/b' });
    const [latest, first] = await history(code.id);
    expect(latest!.actor).toEqual({ kind: 'api_key', apiKeyId: named.id, label: `${named.prefix}…${named.lastFour}`, name: 'CI deploys' });
    expect(first!.actor).toMatchObject({ kind: 'api_key', apiKeyId: owner.keyId });
  });

  it('names the person who changed the destination in the dashboard', async () => {
    const userId = newId('usr');
    await database.db
      .insertInto('users')
      .values({ id: userId, account_id: owner.accountId, email: 'ana@example.com', role: 'member', password_hash: 'unused' })
      .execute();
    const code = await owner.client.createQrCode({ name: 'Poster', url: 'https://example.com/a' });
    await updateQrCode(database.db, {
      accountId: owner.accountId,
      id: code.id,
      changes: { destinationUrl: 'https://example.com/b' },
      actor: { kind: 'user', userId },
    });
    expect((await history(code.id))[0]!.actor).toEqual({ kind: 'user', userId, email: 'ana@example.com' });
  });

  it('keeps a consistent chain when two changes race', async () => {
    const code = await owner.client.createQrCode({ name: 'Poster', url: 'https://example.com/start' });
    const urls = Array.from({ length: 6 }, (_, i) => `https://example.com/race-${i}`);
    await Promise.all(urls.map((url) => owner.client.updateQrCode(code.id, { url })));
    const changes = (await history(code.id)).reverse();
    expect(changes).toHaveLength(7);
    // Each change replaced what the one before it set: none read a destination that another change overwrote.
    for (let i = 1; i < changes.length; i++) expect(changes[i]!.previousUrl).toBe(changes[i - 1]!.newUrl);
    expect((await owner.client.getQrCode(code.id)).destinationUrl).toBe(changes.at(-1)!.newUrl);
  });

  it('answers not_found for another account’s code, a deleted code and an id of no code', async () => {
    const other = await createTestAccount(database.db, app);
    const theirs = await other.client.createQrCode({ name: 'Theirs', url: 'https://example.com/theirs' });
    await expect(history(theirs.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const deleted = await owner.client.createQrCode({ name: 'Gone', url: 'https://example.com/gone' });
    await owner.client.deleteQrCode(deleted.id);
    await expect(history(deleted.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(history('qr_nonsense\u0000')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});
