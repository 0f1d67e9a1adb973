// Sections between `<!-- generated: NAME -->` and `<!-- end generated -->`, written from code by `npm run docs`; NAME picks the generator (sections.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type SectionGenerators = Readonly<Record<string, () => string>>;

const SECTION = /(<!-- generated: ([\w-]+) -->\n)[\s\S]*?(<!-- end generated -->)/g;

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

export function markdownFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return [path.join(root, 'README.md'), ...docs.sort()];
}

export function staleFiles(root: string, generators: SectionGenerators): { file: string; committed: string; generated: string }[] {
  return markdownFiles(root).flatMap((file) => {
    const committed = readFileSync(file, 'utf8');
    const generated = rewriteSections(committed, generators, path.relative(root, file));
    return generated === committed ? [] : [{ file, committed, generated }];
  });
}
