/**
 * Generated sections of the markdown docs: figures that code already knows (the capacity model,
 * the stage settings) are written into the docs from the code, between markers, so the docs
 * cannot drift from it:
 *
 *   <!-- generated: stage-capacity -->
 *   …written by `npm run docs`…
 *   <!-- end generated -->
 *
 * `npm run docs` rewrites every marked section (infra/cli/docs.ts); a test fails when a committed
 * section differs from what the code generates. A section's name picks its generator (sections.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type SectionGenerators = Readonly<Record<string, () => string>>;

const SECTION = /(<!-- generated: ([\w-]+) -->\n)[\s\S]*?(<!-- end generated -->)/g;

/** `markdown` with each marked section's body replaced by its generator's output. */
export function rewriteSections(markdown: string, generators: SectionGenerators, file = 'the file'): string {
  const opened = markdown.match(/<!-- generated: [\w-]+ -->/g)?.length ?? 0;
  let rewritten = 0;
  const result = markdown.replace(SECTION, (_, start: string, name: string, end: string) => {
    const generate = generators[name];
    if (!generate) throw new Error(`${file}: no generator for section "${name}" (infra/docs/sections.ts)`);
    rewritten++;
    return `${start}${generate().trimEnd()}\n${end}`;
  });
  if (rewritten !== opened) throw new Error(`${file}: a "<!-- generated: … -->" marker has no "<!-- end generated -->" after it`);
  return result;
}

/** The markdown files that may hold sections: README.md and everything under docs/. */
export function markdownFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return [path.join(root, 'README.md'), ...docs.sort()];
}

/** Each file whose sections are not what the generators give: its path, what it holds and what it should. */
export function staleFiles(root: string, generators: SectionGenerators): { file: string; committed: string; generated: string }[] {
  return markdownFiles(root).flatMap((file) => {
    const committed = readFileSync(file, 'utf8');
    const generated = rewriteSections(committed, generators, path.relative(root, file));
    return generated === committed ? [] : [{ file, committed, generated }];
  });
}
