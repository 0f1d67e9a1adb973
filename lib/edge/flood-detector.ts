/**
 * Which source addresses the edge blocks by itself (docs/scaling.md, "The edge: made-up keys"): request lines in, addresses to block
 * and release out. functions/edge-blocks.ts runs it on the access log, local mode on its own requests.
 */
import { BlockList, isIPv4 } from 'node:net';

export interface FloodRule {
  readonly windowSeconds: number;
  /** An address is judged once it has had this many 401s in one window. */
  readonly minUnauthorized: number;
  /** …and blocked when 401s are at least this share of its requests that met the key check. */
  readonly unauthorizedShare: number;
  readonly blockSeconds: number;
  /** The most addresses blocked at once (an IP set's size); past it, the block ending soonest goes. */
  readonly maxBlocked: number;
  /** `GET /v1/pets`: the routes whose answers say whether a key passed (not mocks, docs or the gateway's own). */
  readonly keyedRoutes: readonly string[];
  /** CIDR blocks never blocked (declared load-test sources). */
  readonly exempt: readonly string[];
}

/** What the detector reads of an access log line (its status as text there). */
export interface RequestLine {
  readonly sourceIp: string;
  readonly httpMethod: string;
  readonly resourcePath: string;
  readonly status: number | string;
}

export class FloodDetector {
  readonly #rule: FloodRule;
  readonly #exempt: BlockList;
  readonly #windows = new Map<string, { start: number; refused: number; passed: number }>();
  /** Blocked address → when its block ends (ms). */
  readonly #blocked = new Map<string, number>();

  constructor(rule: FloodRule) {
    this.#rule = rule;
    this.#exempt = blockListOf(rule.exempt);
  }

  get blocked(): string[] {
    return [...this.#blocked.keys()];
  }

  /** Counts one answered request at `now` (ms); true when it blocks its address. */
  observe(line: RequestLine, now: number): boolean {
    const { sourceIp } = line;
    const status = Number(line.status);
    const refused = status === 401;
    const keyed = this.#rule.keyedRoutes.includes(`${line.httpMethod} ${line.resourcePath}`);
    if (!refused && (!keyed || status < 200 || status >= 500 || status === 413 || status === 429)) return false;
    if (this.#blocked.has(sourceIp) || this.#exempt.check(sourceIp, isIPv4(sourceIp) ? 'ipv4' : 'ipv6')) return false;
    let window = this.#windows.get(sourceIp);
    if (!window || now - window.start >= this.#rule.windowSeconds * 1000) {
      window = { start: now, refused: 0, passed: 0 };
      this.#windows.set(sourceIp, window);
    }
    if (refused) window.refused += 1;
    else window.passed += 1;
    const { minUnauthorized, unauthorizedShare } = this.#rule;
    if (window.refused < minUnauthorized || window.refused < unauthorizedShare * (window.refused + window.passed)) return false;
    this.#windows.delete(sourceIp);
    this.block([sourceIp], now);
    return true;
  }

  /** Blocks `addresses` from `now` (a block already known keeps its end); a full set drops the blocks ending soonest. */
  block(addresses: readonly string[], now: number): void {
    for (const address of addresses) if (!this.#blocked.has(address)) this.#blocked.set(address, now + this.#rule.blockSeconds * 1000);
    const soonest = [...this.#blocked].sort(([, a], [, b]) => a - b);
    for (const [address] of soonest.slice(0, Math.max(0, soonest.length - this.#rule.maxBlocked))) this.#blocked.delete(address);
  }

  /** Ends the blocks due by `now`, forgets idle windows; the addresses released. */
  expire(now: number): string[] {
    for (const [address, window] of this.#windows) if (now - window.start >= this.#rule.windowSeconds * 1000) this.#windows.delete(address);
    const due = [...this.#blocked].filter(([, until]) => until <= now).map(([address]) => address);
    for (const address of due) this.#blocked.delete(address);
    return due;
  }
}

/** CIDR blocks of either address version, as one list. */
export function blockListOf(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', prefix] = cidr.split('/');
    list.addSubnet(address, Number(prefix), isIPv4(address) ? 'ipv4' : 'ipv6');
  }
  return list;
}

/** An address as an IP set holds it: one host. */
export const hostCidr = (address: string): string => `${address}/${isIPv4(address) ? 32 : 128}`;

/** The blocking function's environment: the rule as JSON, and the IP set it owns. */
export const FLOOD_ENV = { rule: 'FLOOD_RULE', ipSetName: 'FLOOD_IP_SET_NAME', ipSetId: 'FLOOD_IP_SET_ID' } as const;
