import createError from 'http-errors';
import { describe, expect, it } from 'vitest';
import { frameworkClientErrorStatus } from '../../src/errors.js';

describe('frameworkClientErrorStatus', () => {
  it("keeps the status of body-parser's errors and of the router's URIError", () => {
    expect(frameworkClientErrorStatus(createError(413, 'request entity too large', { type: 'entity.too.large' }))).toBe(413);
    expect(frameworkClientErrorStatus(createError(415, 'unsupported charset', { type: 'charset.unsupported' }))).toBe(415);
    const malformedPath = Object.assign(new URIError('URI malformed'), { status: 400, statusCode: 400 });
    expect(frameworkClientErrorStatus(malformedPath)).toBe(400);
  });

  it('takes no other error with a 4xx status for the client’s fault: a library error deep in a handler is a bug (500)', () => {
    expect(frameworkClientErrorStatus(Object.assign(new Error('upstream said not found'), { status: 404 }))).toBeUndefined();
    expect(frameworkClientErrorStatus({ statusCode: 400 })).toBeUndefined();
    expect(frameworkClientErrorStatus(createError(500, 'boom'))).toBeUndefined();
    expect(frameworkClientErrorStatus(undefined)).toBeUndefined();
  });
});
