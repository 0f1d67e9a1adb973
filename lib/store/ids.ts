// Milliseconds since 2026-01-01 (41 bits, until 2095) + 12 random bits: no hot counter (docs/data-model.md#pet-ids).
import { randomInt } from 'node:crypto';

export const ID_EPOCH_MS = Date.UTC(2026, 0, 1);
/** The id's low bits, drawn at random: the byStatus index's sort key starts with them (tables.ts). */
export const ID_RANDOM_BITS = 12;
const RANDOM_RANGE = 2 ** ID_RANDOM_BITS;
const MAX_TIME = 2 ** (53 - ID_RANDOM_BITS) - 1;

export function generatePetId(nowMs: number = Date.now()): number {
  const time = nowMs - ID_EPOCH_MS;
  if (time < 0 || time > MAX_TIME) throw new Error(`Clock outside the id range: ${new Date(nowMs).toISOString()}`);
  // Multiplication, not bit shifts: JavaScript's bitwise operators work on 32 bits.
  const id = time * RANDOM_RANGE + randomInt(RANDOM_RANGE);
  return id === 0 ? 1 : id;
}
