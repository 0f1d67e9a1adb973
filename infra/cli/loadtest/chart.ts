/**
 * A run's chart as one self-contained SVG (no script, font or network): answers per second stacked
 * by outcome above, each outcome's p99 latency per second below with the SLO, the phases marked.
 */
import { OUTCOMES, type Outcome } from './layers.ts';
import type { ResultJson } from './report.ts';

const W = 960;
const LEFT = 70;
const PLOT = W - LEFT - 180;
const TOP = { y: 50, h: 220 };
const BOTTOM = { y: 330, h: 200 };

export function chartSvg(json: ResultJson): string {
  const seconds = json.seconds;
  const n = Math.max(seconds.length, 1);
  const x = (t: number) => LEFT + (t / n) * PLOT;
  const outcomes = (Object.keys(OUTCOMES) as Outcome[]).filter((o) => seconds.some((s) => s.outcomes[o]));
  const maxRate = nice(Math.max(1, ...seconds.map((s) => s.requests)));
  const maxMs =
    10 ** Math.ceil(Math.log10(Math.max(10, json.slo.p99Ms, ...seconds.flatMap((s) => Object.values(s.outcomes).map((v) => v.p99 ?? 0)))));
  const yRate = (v: number) => TOP.y + TOP.h - (v / maxRate) * TOP.h;
  // Latency on a log scale from 1 ms: a 10 ms answer and a 2 s cold start both stay readable.
  const yMs = (v: number) => BOTTOM.y + BOTTOM.h - (Math.log10(Math.min(Math.max(v, 1), maxMs)) / Math.log10(maxMs)) * BOTTOM.h;
  const bars = seconds.flatMap((s) => {
    let base = 0;
    return outcomes.flatMap((o) => {
      const v = s.outcomes[o]?.requests ?? 0;
      if (v === 0) return [];
      base += v;
      return [
        `<rect x="${f(x(s.t))}" y="${f(yRate(base))}" width="${f(PLOT / n)}" height="${f((v / maxRate) * TOP.h)}" fill="${OUTCOMES[o][1]}"><title>${s.t} s ${o}: ${v}</title></rect>`,
      ];
    });
  });
  const lines = outcomes.flatMap((o) => {
    const points = seconds.flatMap((s) => (s.outcomes[o]?.p99 == null ? [] : [`${f(x(s.t + 0.5))},${f(yMs(s.outcomes[o]?.p99 ?? 0))}`]));
    return points.length
      ? [
          `<polyline class="p99" data-outcome="${o}" points="${points.join(' ')}" fill="none" stroke="${OUTCOMES[o][1]}" stroke-width="1.5"/>`,
        ]
      : [];
  });
  const phases = json.phases.flatMap((p) => [
    p.warmup
      ? `<rect x="${f(x(p.startedAt))}" y="${TOP.y}" width="${f(x(p.startedAt + p.elapsed) - x(p.startedAt))}" height="${BOTTOM.y + BOTTOM.h - TOP.y}" fill="#000" opacity="0.06"/>`
      : '',
    `<line x1="${f(x(p.startedAt))}" x2="${f(x(p.startedAt))}" y1="${TOP.y}" y2="${BOTTOM.y + BOTTOM.h}" stroke="#999" stroke-dasharray="2 3"/>`,
    `<text x="${f(x(p.startedAt) + 3)}" y="${TOP.y - 4}" font-size="10">${esc(p.name)}${p.rate ? ` ${p.rate}/s` : ''}</text>`,
  ]);
  const label = (y: number, text: string) => `<text x="${LEFT - 6}" y="${f(y + 4)}" font-size="10" text-anchor="end">${text}</text>`;
  const rateAxis = [0, 0.5, 1].map((q) => label(yRate(maxRate * q), `${maxRate * q}/s`));
  const msAxis = Array.from({ length: Math.log10(maxMs) + 1 }, (_, i) => label(yMs(10 ** i), `${10 ** i} ms`));
  const legend = outcomes.map(
    (o, i) =>
      `<rect x="${LEFT + PLOT + 20}" y="${TOP.y + i * 18}" width="12" height="12" fill="${OUTCOMES[o][1]}"/><text x="${LEFT + PLOT + 38}" y="${TOP.y + i * 18 + 10}" font-size="11">${o}</text>`,
  );
  const ticks = Array.from({ length: 6 }, (_, i) => Math.round((i * n) / 5)).map(
    (t) => `<text x="${f(x(t))}" y="${BOTTOM.y + BOTTOM.h + 16}" font-size="10" text-anchor="middle">${t} s</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} 570" width="${W}" height="570" font-family="sans-serif">
<title>Load test ${esc(json.runId)} against ${esc(json.target)}</title>
<rect width="${W}" height="570" fill="#fff"/>
<text x="${LEFT}" y="20" font-size="14" font-weight="bold">Load test ${esc(json.runId)}: ${esc(json.target)}</text>
<text x="${LEFT}" y="${TOP.y - 18}" font-size="11">answers per second, by outcome</text>
<text x="${LEFT}" y="${BOTTOM.y - 10}" font-size="11">p99 latency per second, by outcome (log scale); dashed: the SLO (${json.slo.p99Ms} ms)</text>
${phases.join('\n')}
<g class="throughput">${bars.join('')}</g>
<g class="latency">${lines.join('\n')}</g>
<line class="slo" x1="${LEFT}" x2="${LEFT + PLOT}" y1="${f(yMs(json.slo.p99Ms))}" y2="${f(yMs(json.slo.p99Ms))}" stroke="#c62828" stroke-dasharray="6 4"/>
<g stroke="#333"><line x1="${LEFT}" x2="${LEFT}" y1="${TOP.y}" y2="${TOP.y + TOP.h}"/><line x1="${LEFT}" x2="${LEFT + PLOT}" y1="${TOP.y + TOP.h}" y2="${TOP.y + TOP.h}"/><line x1="${LEFT}" x2="${LEFT}" y1="${BOTTOM.y}" y2="${BOTTOM.y + BOTTOM.h}"/><line x1="${LEFT}" x2="${LEFT + PLOT}" y1="${BOTTOM.y + BOTTOM.h}" y2="${BOTTOM.y + BOTTOM.h}"/></g>
${rateAxis.join('')}${msAxis.join('')}
${ticks.join('')}
<g class="legend">${legend.join('')}</g>
</svg>
`;
}

/** 1, 2 or 5 times a power of ten, at least `v`: an axis's top. */
function nice(v: number): number {
  const power = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * power >= v) ?? 10) * power;
}
const f = (v: number) => v.toFixed(1);
const esc = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
