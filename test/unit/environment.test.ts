/**
 * The configuration is read from the environment once per instance (as Lambda fixes it), and again
 * only after setEnvironment(), through which local mode and the tests change it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ENV, setEnvironment } from '#lib/config.ts';
import { corsHeaders } from '#lib/http/cors.ts';
import { isLogged } from '#lib/http/log.ts';
import { services } from '#lib/services.ts';

const NAMES = [ENV.petsTable, ENV.apiKeysTable, ENV.dynamodbEndpoint, ENV.logLevel, ENV.allowedOrigins] as const;
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
afterEach(() => setEnvironment(saved));

describe('what is read from the environment', () => {
  it('keeps the services, CORS origins and log level until setEnvironment(), then reads them anew', () => {
    setEnvironment({
      [ENV.petsTable]: 'PetsA',
      [ENV.apiKeysTable]: 'KeysA',
      [ENV.dynamodbEndpoint]: 'http://127.0.0.1:1',
      [ENV.logLevel]: 'warn',
      [ENV.allowedOrigins]: 'https://a.example',
    });
    const first = services();
    expect(first.config.petsTable).toBe('PetsA');
    expect(isLogged('info')).toBe(false);
    expect(corsHeaders('https://a.example')['Access-Control-Allow-Origin']).toBe('https://a.example');

    // Changed behind the code's back: nothing is read again, as on Lambda where this never happens.
    process.env[ENV.petsTable] = 'PetsB';
    process.env[ENV.logLevel] = 'info';
    process.env[ENV.allowedOrigins] = 'https://b.example';
    expect(services()).toBe(first);
    expect(isLogged('info')).toBe(false);
    expect(corsHeaders('https://b.example')).toEqual({ Vary: 'Origin' });

    setEnvironment({});
    const second = services();
    expect(second).not.toBe(first);
    expect(second.config.petsTable).toBe('PetsB');
    expect(isLogged('info')).toBe(true);
    expect(corsHeaders('https://b.example')['Access-Control-Allow-Origin']).toBe('https://b.example');
    expect(corsHeaders('https://a.example')).toEqual({ Vary: 'Origin' });
  });

  it('tries again on the next call when the tables are not named yet, instead of keeping a failure', () => {
    setEnvironment({ [ENV.petsTable]: undefined });
    expect(() => services()).toThrow(`Missing environment variable ${ENV.petsTable}`);
    process.env[ENV.petsTable] = 'PetsC';
    process.env[ENV.apiKeysTable] = 'KeysC';
    expect(services().config.petsTable).toBe('PetsC');
  });
});
