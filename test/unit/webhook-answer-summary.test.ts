import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { AnswerSummary } from '../../src/dashboard/api-webhooks/deliveries-table.js';
import type { Attempt } from '../../src/webhooks/delivery-service.js';

const attempt = (fields: Pick<Attempt, 'statusCode' | 'error'>): Attempt => ({
  attemptNumber: 1,
  startedAt: new Date('2026-11-26T10:00:00Z'),
  url: 'https://example.com/hooks',
  latencyMs: 12,
  responseBody: null,
  ...fields,
});
const shown = (fields: Pick<Attempt, 'statusCode' | 'error'>) => render(h(AnswerSummary, { attempt: attempt(fields) })).replace(/<[^>]+>/g, '').trim();

describe("the delivery log's answer column", () => {
  it('names a non-2xx status once (the attempt records it as its error too)', () => {
    expect(shown({ statusCode: 500, error: 'HTTP 500' })).toBe('HTTP 500');
  });

  it('keeps what the error adds to the status, and the error of an attempt without an answer', () => {
    expect(shown({ statusCode: 302, error: 'HTTP 302: redirects are not followed' })).toBe('HTTP 302 redirects are not followed');
    expect(shown({ statusCode: null, error: 'timed out after 10000 ms' })).toBe('No answer timed out after 10000 ms');
    expect(shown({ statusCode: 204, error: null })).toBe('HTTP 204');
  });
});
