/**
 * A run's report as one self-contained HTML page (no script, font or network): the chart as inline SVG (answers per second stacked by
 * outcome, with planned, sent and admitted rates and each method's modelled rate r; p50, p95 and p99 per second against the SLO; the
 * phases marked), then the text report's tables.
 */
import { OUTCOMES, type Outcome, REFUSED } from './layers.ts';
import { formatReport, type ResultJson } from './report.ts';

const [W, H, LEFT, PLOT] = [960, 570, 70, 710];
const TOP = { y: 50, h: 220 };
const LOW = { y: 330, h: 200 };
const QUANTILES = [
  ['p50', '#90caf9'],
  ['p95', '#1e88e5'],
  ['p99', '#0d47a1'],
] as const;

/** An element; numbers to one decimal. */
const tag = (name: string, attrs: Record<string, string | number>, body = '') =>
  `<${name}${Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? v.toFixed(1) : v}"`)
    .join('')}${body ? `>${body}</${name}>` : '/>'}`;
const esc = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A path through the points, broken wherever a second has no value (no line across empty seconds). */
const broken = (points: readonly ([number, number] | undefined)[]) =>
  points.reduce((d, p, i) => (p ? `${d}${i > 0 && points[i - 1] ? 'L' : 'M'}${p[0].toFixed(1)} ${p[1].toFixed(1)}` : d), '');

export function chartSvg(json: ResultJson): string {
  const seconds = json.seconds;
  const n = Math.max(seconds.length, 1);
  const x = (t: number) => LEFT + (t / n) * PLOT;
  const outcomes = (Object.keys(OUTCOMES) as Outcome[]).filter((o) => seconds.some((s) => s.outcomes[o]));
  const limits = json.model ? [...new Set(Object.values(json.model.methods).map((m) => m.rateLimit))] : [];
  const top = Math.max(1, ...seconds.map((s) => Math.max(s.requests, s.planned)), ...limits.filter((r) => r < 10_000));
  const maxRate = [1, 2, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(top))).find((v) => v >= top) ?? top;
  const slowest = Math.max(10, json.slo.p99Ms, ...seconds.map((s) => s.p99 ?? 0));
  const maxMs = 10 ** Math.ceil(Math.log10(slowest));
  const yRate = (v: number) => TOP.y + TOP.h - (Math.min(v, maxRate) / maxRate) * TOP.h;
  // Latency on a log scale from 1 ms: a 10 ms answer and a 2 s cold start both stay readable.
  const yMs = (v: number) => LOW.y + LOW.h - (Math.log10(Math.min(Math.max(v, 1), maxMs)) / Math.log10(maxMs)) * LOW.h;
  const text = (x: number, y: number, body: string, attrs = {}) => tag('text', { x, y, 'font-size': 10, ...attrs }, body);
  const bars = seconds.flatMap((s) => {
    let base = 0;
    return outcomes.flatMap((o) => {
      const v = s.outcomes[o]?.requests ?? 0;
      base += v;
      const bar = { x: x(s.t), y: yRate(base), width: PLOT / n, height: (v / maxRate) * TOP.h, fill: OUTCOMES[o][1] };
      return v === 0 ? [] : [tag('rect', bar, `<title>${s.t} s ${o}: ${v}</title>`)];
    });
  });
  type Second = (typeof seconds)[number];
  /** A line through each second's value, broken where a second has none. */
  const curve = (name: string, stroke: string, value: (s: Second) => number | null | undefined, y: (v: number) => number, more = {}) => {
    const d = broken(seconds.map((s) => (value(s) == null ? undefined : [x(s.t + 0.5), y(value(s) as number)])));
    return tag('path', { class: name, d, fill: 'none', stroke, 'stroke-width': 1.5, ...more });
  };
  const sent = (s: Second) => (s.requests || s.planned ? s.phase !== 'after' : false);
  const admitted = (s: Second) => s.requests - REFUSED.reduce((a, o) => a + (s.outcomes[o]?.requests ?? 0), 0);
  const rates = [
    ['planned', '#000', (s: Second) => (s.phase === 'after' ? undefined : json.phases.find((p) => p.name === s.phase)?.rate)],
    ['sent', '#1565c0', (s: Second) => (sent(s) ? s.requests : undefined)],
    ['admitted', '#ef6c00', (s: Second) => (sent(s) ? admitted(s) : undefined)],
  ] as const;
  const dashed = { 'stroke-dasharray': '4 2' };
  const rateLines = rates.map(([name, colour, value]) => curve(`rate ${name}`, colour, value, yRate, name === 'planned' ? dashed : {}));
  const modelLines = limits.map((r) => {
    const ops = Object.entries(json.model?.methods ?? {}).flatMap(([op, m]) => (m.rateLimit === r ? [op] : []));
    const y = yRate(r);
    return (
      tag('line', { class: 'limit', x1: LEFT, x2: LEFT + PLOT, y1: y, y2: y, stroke: '#6d4c41', 'stroke-dasharray': '1 3' }) +
      text(LEFT + PLOT - 4, y - 3, `r ${r}/s: ${ops.join(', ')}`, { 'text-anchor': 'end' })
    );
  });
  const latency = QUANTILES.map(([q, colour]) => curve(`latency ${q}`, colour, (s) => s[q], yMs));
  const phases = json.phases.flatMap((p) => [
    p.warmup
      ? tag('rect', { x: x(p.startedAt), y: TOP.y, width: x(p.seconds) - LEFT, height: LOW.y + LOW.h - TOP.y, fill: '#000', opacity: 0.06 })
      : '',
    tag('line', { x1: x(p.startedAt), x2: x(p.startedAt), y1: TOP.y, y2: LOW.y + LOW.h, stroke: '#999', 'stroke-dasharray': '2 3' }),
    text(x(p.startedAt) + 3, TOP.y - 4, `${esc(p.name)} ${p.rate}/s`),
  ]);
  const tick = (t: number) => text(x(t), LOW.y + LOW.h + 16, `${t} s`, { 'text-anchor': 'middle' });
  const axes = [
    ...[0, 0.5, 1].map((q) => text(LEFT - 6, yRate(maxRate * q) + 4, `${maxRate * q}/s`, { 'text-anchor': 'end' })),
    ...Array.from({ length: Math.log10(maxMs) + 1 }, (_, i) => text(LEFT - 6, yMs(10 ** i) + 4, `${10 ** i} ms`, { 'text-anchor': 'end' })),
    ...[0, 1, 2, 3, 4, 5].map((i) => tick(Math.round((i * n) / 5))),
    ...[TOP, LOW].map(({ y, h }) => tag('path', { d: `M${LEFT} ${y}V${y + h}H${LEFT + PLOT}`, fill: 'none', stroke: '#333' })),
  ];
  const keys = [
    ...outcomes.map((o) => [o, OUTCOMES[o][1]] as const),
    ...rates.map(([name, colour]) => [name === 'planned' ? 'planned (dashed)' : name, colour] as const),
    ...QUANTILES,
  ];
  const legend = keys.map(
    ([name, colour], i) =>
      tag('rect', { x: LEFT + PLOT + 20, y: TOP.y + i * 18, width: 12, height: 12, fill: colour }) +
      text(LEFT + PLOT + 38, TOP.y + i * 18 + 10, name, { 'font-size': 11 }),
  );
  const ySlo = yMs(json.slo.p99Ms);
  const slo = { class: 'slo', x1: LEFT, x2: LEFT + PLOT, y1: ySlo, y2: ySlo, stroke: '#c62828', 'stroke-dasharray': '6 4' };
  const title = `Load test ${esc(json.runId)}: ${esc(json.target)}`;
  return tag(
    'svg',
    { xmlns: 'http://www.w3.org/2000/svg', viewBox: `0 0 ${W} ${H}`, width: `${W}`, height: `${H}`, 'font-family': 'sans-serif' },
    `
<title>${title}</title>
${tag('rect', { width: `${W}`, height: `${H}`, fill: '#fff' })}
${text(LEFT, 20, title, { 'font-size': 14, 'font-weight': 'bold' })}
${text(LEFT, TOP.y - 18, 'requests per second by the second they were sent, stacked by outcome; planned, sent, admitted; each method’s r', { 'font-size': 11 })}
${text(LEFT, LOW.y - 10, `p50, p95, p99 latency per second (log scale); dashed: the SLO's p99 (${json.slo.p99Ms} ms)`, { 'font-size': 11 })}
${phases.join('\n')}
<g class="throughput">${bars.join('')}</g>
${rateLines.join('\n')}
${modelLines.join('\n')}
${latency.join('\n')}
${tag('line', slo)}
${axes.join('')}
<g class="legend">${legend.join('')}</g>
`,
  );
}

/** The report page: the chart, then the report's tables as the terminal shows them. */
export function reportHtml(json: ResultJson): string {
  const title = `Load test ${esc(json.runId)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:sans-serif;margin:1em}pre{font-size:12px}</style></head>
<body><h1>${title}: ${json.verdict.met ? 'checks met' : 'checks MISSED'}</h1>
${chartSvg(json)}
<pre class="report">${esc(formatReport(json))}</pre>
</body></html>
`;
}
