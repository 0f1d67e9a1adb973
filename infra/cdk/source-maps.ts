/**
 * Trims a bundle's source map to lib/ and functions/: a whole map, mostly the SDK's, would be decoded
 * on the request that logs an instance's first error. Usage: node infra/cdk/source-maps.ts <bundle>.map
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';

export const isOwnSource = (source: string): boolean => /(^|\/)(lib|functions)\//.test(source) && !source.includes('node_modules/');

interface SourceMapV3 {
  version: 3;
  sources: string[];
  names: string[];
  mappings: string;
  sourcesContent?: (string | null)[];
  [key: string]: unknown;
}

export function trimSourceMap(file: string): void {
  const map = JSON.parse(readFileSync(file, 'utf8')) as SourceMapV3;
  const sourceIndex = new Map<number, number>();
  const sources: string[] = [];
  map.sources.forEach((source, i) => {
    if (isOwnSource(source)) sourceIndex.set(i, sources.push(source) - 1);
  });
  const nameIndex = new Map<number, number>();
  const names: string[] = [];
  const lines = decode(map.mappings).map((segments) => {
    const kept: SourceMapSegment[] = [];
    for (const segment of segments) {
      const source = segment.length > 1 ? sourceIndex.get(segment[1] as number) : undefined;
      if (segment.length > 1 && source !== undefined) {
        const [column, , line, originalColumn, name] = segment as [number, number, number, number, number?];
        if (name === undefined) {
          kept.push([column, source, line, originalColumn]);
        } else {
          if (!nameIndex.has(name)) nameIndex.set(name, names.push(map.names[name] as string) - 1);
          kept.push([column, source, line, originalColumn, nameIndex.get(name) as number]);
        }
      } else if (kept.at(-1)?.length !== 1) {
        // Not ours: an unmapped segment ends the previous mapping here (one for a run of them).
        kept.push([segment[0]]);
      }
    }
    return kept;
  });
  const { sourcesContent: _dropped, ...rest } = map;
  writeFileSync(file, JSON.stringify({ ...rest, sources, names, mappings: encode(lines) }));
}

if (import.meta.main) {
  for (const file of process.argv.slice(2)) trimSourceMap(file);
}
