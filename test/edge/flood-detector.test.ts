/**
 * The flood detector's rule: windows, thresholds, the share that valid requests mixed in cannot
 * dodge, what is never counted, exemptions, expiry and the IP set's size.
 */
import { describe, expect, it } from 'vitest';
import { FloodDetector, type FloodRule, hostCidr } from '#lib/edge/flood-detector.ts';
import { floodRule } from '../../infra/cdk/constructs/edge-blocks.ts';

const rule: FloodRule = { ...floodRule(['10.9.0.0/16']), maxBlocked: 3 };
const MINUTE = rule.windowSeconds * 1000;
const GET = { httpMethod: 'GET', resourcePath: '/v1/pets' };
const line = (sourceIp: string, status: number, route = GET) => ({ sourceIp, status, ...route });

/** Sends `passed` 200s, then `refused` 401s, from `address` from `at`; whether a line blocked it. */
function send(detector: FloodDetector, address: string, refused: number, passed: number, at = 0): boolean {
  const statuses = [...Array<number>(passed).fill(200), ...Array<number>(refused).fill(401)];
  return statuses.map((status, i) => detector.observe(line(address, status), at + i)).some(Boolean);
}

describe('the flood rule', () => {
  it('is the per-address window, WAF-sized thresholds, every operation keyed', () => {
    expect(rule).toMatchObject({ windowSeconds: 60, minUnauthorized: 10, unauthorizedShare: 0.5, blockSeconds: 3600 });
    expect(floodRule([]).maxBlocked).toBe(10_000);
    expect(rule.keyedRoutes).toContain('GET /v1/pets');
  });

  it('blocks an address at its 10th 401 in a window, not at its 9th', () => {
    const detector = new FloodDetector(rule);
    expect(send(detector, '192.0.2.1', 9, 0)).toBe(false);
    expect(detector.observe(line('192.0.2.1', 401), 100)).toBe(true);
    expect(detector.blocked).toEqual(['192.0.2.1']);
  });

  it('counts per window: 9 401s a minute for ever never block', () => {
    const detector = new FloodDetector(rule);
    for (let minute = 0; minute < 30; minute++) expect(send(detector, '192.0.2.2', 9, 0, minute * MINUTE)).toBe(false);
    expect(detector.blocked).toEqual([]);
  });

  it('is not shielded by a few valid requests: a share of 401s, not "no 2xx"', () => {
    const detector = new FloodDetector(rule);
    expect(send(detector, '192.0.2.3', 20, 5)).toBe(true);
    // As many valid requests as made-up ones, even all sent first, still block; more do not.
    expect(send(detector, '192.0.2.4', 20, 20)).toBe(true);
    expect(send(detector, '192.0.2.5', 20, 21)).toBe(false);
  });

  it('counts only what says whether a key passed: mocks, docs, throttles and 5xx dilute nothing', () => {
    const detector = new FloodDetector(rule);
    for (let i = 0; i < 50; i++) {
      detector.observe(line('192.0.2.6', 404, { httpMethod: 'DELETE', resourcePath: '/v1/pets' }), i);
      detector.observe(line('192.0.2.6', 200, { httpMethod: 'GET', resourcePath: '/v1/docs' }), i);
      detector.observe(line('192.0.2.6', 429), i);
      detector.observe(line('192.0.2.6', 503), i);
    }
    expect(send(detector, '192.0.2.6', 10, 0, 60)).toBe(true);
  });

  it('never blocks a declared load-test source', () => {
    const detector = new FloodDetector(rule);
    expect(send(detector, '10.9.3.4', 100, 0)).toBe(false);
    expect(detector.blocked).toEqual([]);
  });

  it('releases a block after its time, and only then', () => {
    const detector = new FloodDetector(rule);
    send(detector, '192.0.2.7', 10, 0);
    expect(detector.expire(rule.blockSeconds * 1000 - 1)).toEqual([]);
    expect(detector.expire(rule.blockSeconds * 1000 + 10)).toEqual(['192.0.2.7']);
    expect(detector.blocked).toEqual([]);
  });

  it('adopts addresses found blocked (a new instance) for one block time from now, keeping known ends', () => {
    const detector = new FloodDetector(rule);
    send(detector, '192.0.2.8', 10, 0);
    detector.block(['192.0.2.8', '192.0.2.9'], 5 * MINUTE);
    expect(detector.expire(rule.blockSeconds * 1000 + 10)).toEqual(['192.0.2.8']);
    expect(detector.expire(5 * MINUTE + rule.blockSeconds * 1000)).toEqual(['192.0.2.9']);
  });

  it('keeps at most maxBlocked addresses, dropping the blocks that end soonest', () => {
    const detector = new FloodDetector(rule);
    for (const [i, address] of ['192.0.2.10', '192.0.2.11', '192.0.2.12', '192.0.2.13'].entries()) send(detector, address, 10, 0, i * 1000);
    expect(detector.blocked.sort()).toEqual(['192.0.2.11', '192.0.2.12', '192.0.2.13']);
  });

  it('writes each address as one host', () => {
    expect([hostCidr('192.0.2.1'), hostCidr('2001:db8::1')]).toEqual(['192.0.2.1/32', '2001:db8::1/128']);
  });
});
