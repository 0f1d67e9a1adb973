/**
 * A run's chart as one self-contained SVG (no script, font or network): answers per second stacked
 * by outcome above, each outcome's p99 latency per second below with the SLO, the phases marked.
 */
import { OUTCOMES, type Outcome } from './layers.ts';
import type { ResultJson } from './report.ts';

const [W, H, LEFT, PLOT] = [960, 570, 70, 710];
const TOP = { y: 50, h: 220 };
const LOW = { y: 330, h: 200 };

/** An element; numbers to one decimal. */
const tag = (name: string, attrs: Record<string, string | number>, body = '') =>
  `<${name}${Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? v.toFixed(1) : v}"`)
    .join('')}${body ? `>${body}</${name}>` : '/>'}`;
const esc = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function chartSvg(json: ResultJson): string {
  const seconds = json.seconds;
  const n = Math.max(seconds.length, 1);
  const x = (t: number) => LEFT + (t / n) * PLOT;
  const outcomes = (Object.keys(OUTCOMES) as Outcome[]).filter((o) => seconds.some((s) => s.outcomes[o]));
  const top = Math.max(1, ...seconds.map((s) => s.requests));
  const maxRate = [1, 2, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(top))).find((v) => v >= top) ?? top;
  const slowest = Math.max(10, json.slo.p99Ms, ...seconds.flatMap((s) => Object.values(s.outcomes).map((v) => v.p99 ?? 0)));
  const maxMs = 10 ** Math.ceil(Math.log10(slowest));
  const yRate = (v: number) => TOP.y + TOP.h - (v / maxRate) * TOP.h;
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
  const lines = outcomes.flatMap((o) => {
    const point = (t: number, ms: number | null | undefined) => (ms == null ? [] : [`${x(t + 0.5).toFixed(1)},${yMs(ms).toFixed(1)}`]);
    const points = seconds.flatMap((s) => point(s.t, s.outcomes[o]?.p99));
    const line = { class: 'p99', 'data-outcome': o, points: points.join(' '), fill: 'none', stroke: OUTCOMES[o][1], 'stroke-width': 1.5 };
    return points.length ? [tag('polyline', line)] : [];
  });
  const phases = json.phases.flatMap((p) => [
    p.warmup
      ? tag('rect', { x: x(p.startedAt), y: TOP.y, width: x(p.elapsed) - LEFT, height: LOW.y + LOW.h - TOP.y, fill: '#000', opacity: 0.06 })
      : '',
    tag('line', { x1: x(p.startedAt), x2: x(p.startedAt), y1: TOP.y, y2: LOW.y + LOW.h, stroke: '#999', 'stroke-dasharray': '2 3' }),
    text(x(p.startedAt) + 3, TOP.y - 4, `${esc(p.name)}${p.rate ? ` ${p.rate}/s` : ''}`),
  ]);
  const tick = (t: number) => text(x(t), LOW.y + LOW.h + 16, `${t} s`, { 'text-anchor': 'middle' });
  const axes = [
    ...[0, 0.5, 1].map((q) => text(LEFT - 6, yRate(maxRate * q) + 4, `${maxRate * q}/s`, { 'text-anchor': 'end' })),
    ...Array.from({ length: Math.log10(maxMs) + 1 }, (_, i) => text(LEFT - 6, yMs(10 ** i) + 4, `${10 ** i} ms`, { 'text-anchor': 'end' })),
    ...[0, 1, 2, 3, 4, 5].map((i) => tick(Math.round((i * n) / 5))),
    ...[TOP, LOW].map(({ y, h }) => tag('path', { d: `M${LEFT} ${y}V${y + h}H${LEFT + PLOT}`, fill: 'none', stroke: '#333' })),
  ];
  const legend = outcomes.map(
    (o, i) =>
      tag('rect', { x: LEFT + PLOT + 20, y: TOP.y + i * 18, width: 12, height: 12, fill: OUTCOMES[o][1] }) +
      text(LEFT + PLOT + 38, TOP.y + i * 18 + 10, o, { 'font-size': 11 }),
  );
  const ySlo = yMs(json.slo.p99Ms);
  const slo = { class: 'slo', x1: LEFT, x2: LEFT + PLOT, y1: ySlo, y2: ySlo, stroke: '#c62828', 'stroke-dasharray': '6 4' };
  const title = `Load test ${esc(json.runId)}: ${esc(json.target)}`;
  return `${tag(
    'svg',
    { xmlns: 'http://www.w3.org/2000/svg', viewBox: `0 0 ${W} ${H}`, width: `${W}`, height: `${H}`, 'font-family': 'sans-serif' },
    `
<title>${title}</title>
${tag('rect', { width: `${W}`, height: `${H}`, fill: '#fff' })}
${text(LEFT, 20, title, { 'font-size': 14, 'font-weight': 'bold' })}
${text(LEFT, TOP.y - 18, 'answers per second, by outcome', { 'font-size': 11 })}
${text(LEFT, LOW.y - 10, `p99 latency per second, by outcome (log scale); dashed: the SLO (${json.slo.p99Ms} ms)`, { 'font-size': 11 })}
${phases.join('\n')}
<g class="throughput">${bars.join('')}</g>
<g class="latency">${lines.join('\n')}</g>
${tag('line', slo)}
${axes.join('')}
<g class="legend">${legend.join('')}</g>
`,
  )}\n`;
}
