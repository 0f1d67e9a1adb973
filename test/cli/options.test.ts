/** The load test's command line: where it may send requests, the mix, the SLO flags. */
import { describe, expect, it } from 'vitest';
import { DEFAULTS, isLoopback, parseBaseUrl, parseMix, parseOptions } from '../../infra/cli/loadtest/options.ts';
import { UsageError } from '../../infra/cli/usage-error.ts';

describe('base URL', () => {
  it.each([
    'http://127.0.0.1:3000/v1',
    'http://localhost:3000/v1/',
    'http://[::1]:3000/v1',
    'http://127.1.2.3/v1',
    'https://api.example.com/v1',
  ])('accepts %s', (url) => {
    expect(parseBaseUrl(url, false).pathname).toBe('/v1');
  });

  it.each([
    ['http://api.example.com/v1', /plain http/],
    ['http://10.0.0.5:3000/v1', /plain http/],
    ['http://127.0.0.1.example.com/v1', /plain http/],
    ['ftp://127.0.0.1/v1', /http or https/],
    ['https://user:pw@api.example.com/v1', /credentials/],
    ['https://api.example.com/v1?x=1', /query string/],
    ['not a url', /not a URL/],
  ])('refuses %s', (url, message) => {
    expect(() => parseBaseUrl(url, false)).toThrow(message);
  });

  it('allows plain http to another host only with --allow-insecure', () => {
    expect(parseBaseUrl('http://api.example.com/v1', true).host).toBe('api.example.com');
  });

  it('knows loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '[::1]', 'a.localhost'].every(isLoopback)).toBe(true);
    expect(['127.0.0.1.nip.io', '10.0.0.1', 'example.com', '[::2]', '1270.0.0.1'].some(isLoopback)).toBe(false);
  });
});

describe('options', () => {
  const base = ['--base-url', 'http://127.0.0.1:3000/v1', '--api-key', 'psk_x'];

  it('has the documented defaults', () => {
    const options = parseOptions(base, {});
    if (typeof options === 'string') throw new Error(`unexpected ${options}`);
    expect(options.durationSeconds).toBe(DEFAULTS.durationSeconds);
    expect(options.rate).toBe(DEFAULTS.rate);
    expect(options.mix).toEqual({ browse: 30, walk: 10, read: 15, adopt: 15 });
    expect(options.slo).toEqual({ p99Ms: 1000, errorRate: 0.001, expected4xx: [] });
  });

  it('takes the SLO from flags, the error rate as a fraction or a percentage', () => {
    const options = parseOptions([...base, '--slo-p99-ms', '250', '--slo-error-rate', '1%', '--expect-4xx', '429'], {});
    if (typeof options === 'string') throw new Error(`unexpected ${options}`);
    expect(options.slo).toEqual({ p99Ms: 250, errorRate: 0.01, expected4xx: [429] });
  });

  it('takes the key from PETSTORE_API_KEY when no flag is given', () => {
    const options = parseOptions(['--base-url', 'http://127.0.0.1:3000/v1'], { PETSTORE_API_KEY: 'psk_env' });
    expect(typeof options !== 'string' && options.apiKey).toBe('psk_env');
  });

  it.each([
    [['--base-url', 'http://127.0.0.1/v1'], /api-key/],
    [[...base, '--duration', '0'], /--duration/],
    [[...base, '--max-vusers', '2.5'], /--max-vusers/],
    [[...base, '--ramp', '1:2', '--rate', '3'], /exclude/],
    [[...base, '--slo-error-rate', '2'], /--slo-error-rate/],
    [[...base, '--expect-4xx', '500'], /--expect-4xx/],
    [[...base, '--bogus'], /bogus/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseOptions(argv, {})).toThrow(UsageError);
    expect(() => parseOptions(argv, {})).toThrow(message);
  });

  it('parses a mix of flows and refuses unknown or repeated ones', () => {
    expect(parseMix('browse:70,read:30')).toEqual({ browse: 70, walk: 0, read: 30, adopt: 0 });
    expect(() => parseMix('browse:1,delete:1')).toThrow(/unknown flow/);
    expect(() => parseMix('walk:1,walk:2')).toThrow(/twice/);
    expect(() => parseMix('adopt:0')).toThrow(/above 0/);
  });
});
