import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('METRICS_TOKEN and WORKER_METRICS_PORT', () => {
  it('leaves /metrics off when METRICS_TOKEN is unset or blank', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '   ' }).metricsToken).toBeUndefined();
    expect(loadConfig({}).workerMetricsPort).toBeUndefined();
  });

  it('takes a token of 16 characters or more, trimmed', () => {
    expect(loadConfig({ METRICS_TOKEN: ' 0123456789abcdef ' }).metricsToken).toBe('0123456789abcdef');
  });

  it('refuses a short token rather than guard the metrics with a guessable one', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'secret' })).toThrow(ConfigError);
  });

  it('reads the worker metrics port as a port number', () => {
    expect(loadConfig({ WORKER_METRICS_PORT: '9464' }).workerMetricsPort).toBe(9464);
    expect(() => loadConfig({ WORKER_METRICS_PORT: '70000' })).toThrow(ConfigError);
  });
});
