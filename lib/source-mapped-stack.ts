// Not `--enable-source-maps`, which parses maps on every cold start (docs/performance.md, "Cold start"): read on first stack.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** `at fn (/var/task/index.js:1:2345)` or `at file:///var/task/index.mjs:1:2345`: file, line, column. */
const FRAME = /(?<file>(?:file:\/\/)?\/[^\s()]+?\.m?js):(?<line>\d+):(?<column>\d+)(?=\)?$)/;

const maps = new Map<string, SourceMap | null>();

function sourceMapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      const path = file.startsWith('file://') ? fileURLToPath(file) : file;
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      // No map beside it (source mode, Node's own files) or an unreadable one: frames stay as they are.
      map = null;
    }
    maps.set(file, map);
  }
  return map;
}

/** The map's sources are relative to the bundle's build folder: `../config.ts` → `lib/config.ts`. */
const sourceName = (source: string): string => source.replace(/^(?:webpack:\/\/|file:\/\/)?(?:\.{0,2}\/)*/, '');

/** `stack` with each frame in a bundle that has a source map replaced by the original file, line and column. */
export function sourceMappedStack(stack: string): string {
  return stack
    .split('\n')
    .map((line) => {
      const match = FRAME.exec(line);
      const { file, line: row, column } = match?.groups ?? {};
      if (!match || !file || !row || !column) return line;
      const entry = sourceMapOf(file)?.findEntry(Number(row) - 1, Number(column) - 1);
      if (!entry || !('originalSource' in entry) || !entry.originalSource) return line;
      const original = `${sourceName(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
      return line.slice(0, match.index) + original + line.slice(match.index + match[0].length);
    })
    .join('\n');
}
