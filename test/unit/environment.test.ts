/**
 * The configuration is one object read from the environment (readConfig); the services are built
 * from it once per instance (as Lambda fixes the environment), and again only by reconfigure(),
 * through which local mode and the tests change it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ENV, readConfig } from '#lib/config.ts';
import { corsHeaders } from '#lib/http/cors.ts';
import { isLogged } from '#lib/log.ts';
import { config, reconfigure, services } from '#lib/services.ts';

const NAMES = [ENV.petsTable, ENV.apiKeysTable, ENV.dynamodbEndpoint, ENV.logLevel, ENV.allowedOrigins] as const;
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
afterEach(() => reconfigure(saved));

describe('the configuration', () => {
  it('reads the tables, store, log level and allowed origins from the environment', () => {
    const config = readConfig({
      [ENV.petsTable]: 'Pets',
      [ENV.apiKeysTable]: 'Keys',
      [ENV.dynamodbEndpoint]: 'http://127.0.0.1:1',
      [ENV.logLevel]: 'WARN',
      [ENV.allowedOrigins]: ' https://a.example, ,https://b.example',
    });
    expect(config).toMatchObject({ petsTable: 'Pets', apiKeysTable: 'Keys', dynamodbEndpoint: 'http://127.0.0.1:1', logLevel: 'warn' });
    expect([...config.allowedOrigins]).toEqual(['https://a.example', 'https://b.example']);
    expect(corsHeaders('https://b.example', config.allowedOrigins)['Access-Control-Allow-Origin']).toBe('https://b.example');
    expect(corsHeaders('https://c.example', config.allowedOrigins)).toEqual({ Vary: 'Origin' });
  });

  it('defaults to log level info and no CORS, and leaves a missing table to the stores', () => {
    const config = readConfig({ [ENV.petsTable]: 'Pets', [ENV.apiKeysTable]: 'Keys', [ENV.logLevel]: 'loud' });
    expect(config.logLevel).toBe('info');
    expect(config.allowedOrigins.size).toBe(0);
    expect(corsHeaders('https://a.example', config.allowedOrigins)).toEqual({});
    expect(readConfig({ [ENV.apiKeysTable]: 'Keys' }).petsTable).toBeUndefined();
  });
});

describe('the services', () => {
  it('are kept until reconfigure(), then built anew from the environment', () => {
    reconfigure({
      [ENV.petsTable]: 'PetsA',
      [ENV.apiKeysTable]: 'KeysA',
      [ENV.dynamodbEndpoint]: 'http://127.0.0.1:1',
      [ENV.logLevel]: 'warn',
      [ENV.allowedOrigins]: 'https://a.example',
    });
    const first = services();
    expect(first.config.petsTable).toBe('PetsA');
    expect(first.config.allowedOrigins.has('https://a.example')).toBe(true);
    expect(isLogged('info')).toBe(false);

    // Changed behind the code's back: nothing is read again, as on Lambda where this never happens.
    process.env[ENV.petsTable] = 'PetsB';
    process.env[ENV.logLevel] = 'info';
    process.env[ENV.allowedOrigins] = 'https://b.example';
    expect(services()).toBe(first);
    expect(isLogged('info')).toBe(false);

    reconfigure();
    const second = services();
    expect(second).not.toBe(first);
    expect(second.config.petsTable).toBe('PetsB');
    expect(isLogged('info')).toBe(true);
    expect([...second.config.allowedOrigins]).toEqual(['https://b.example']);
  });

  it('are tried again on the next call when the tables are not named yet, instead of keeping a failure', () => {
    reconfigure({ [ENV.petsTable]: undefined });
    expect(() => services()).toThrow(`Missing environment variable ${ENV.petsTable}`);
    expect(() => services()).toThrow(`Missing environment variable ${ENV.petsTable}`);
    // The configuration without tables still serves CORS and the log level of the 500 it causes.
    expect(config().petsTable).toBeUndefined();
    reconfigure({ [ENV.petsTable]: 'PetsC', [ENV.apiKeysTable]: 'KeysC' });
    expect(services().config.petsTable).toBe('PetsC');
  });
});
