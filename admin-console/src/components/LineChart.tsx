import type { Point } from '../lib/rates';

interface Props {
  title: string;
  points: Point[];
  format: (value: number | null) => string;
  color?: string;
  width?: number;
  height?: number;
}

/** The scale's top: the largest value rounded up to 1, 2 or 5 times a power of ten (at least 1). */
export function niceMax(values: number[]): number {
  const max = Math.max(1, ...values);
  const power = Math.pow(10, Math.floor(Math.log10(max)));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= max) return step * power;
  }
  return 10 * power;
}

/** A line chart of the last points, newest on the right; gaps (null values) break the line. */
export function LineChart({ title, points, format, color = '#2563eb', width = 600, height = 120 }: Props) {
  const values = points.map((p) => p.value).filter((v): v is number => v !== null);
  const top = niceMax(values);
  const last = points.length > 0 ? points[points.length - 1].value : null;
  const first = points.length > 0 ? points[0].at : 0;
  const span = points.length > 1 ? points[points.length - 1].at - first : 1;
  const x = (at: number) => ((at - first) / (span || 1)) * (width - 2) + 1;
  const y = (v: number) => height - 1 - (v / top) * (height - 2);
  const segments: string[] = [];
  let current = '';
  for (const p of points) {
    if (p.value === null) {
      if (current) segments.push(current);
      current = '';
    } else {
      current += `${current ? 'L' : 'M'}${x(p.at).toFixed(1)},${y(p.value).toFixed(1)}`;
    }
  }
  if (current) segments.push(current);
  return (
    <figure className="chart">
      <figcaption>
        <span>{title}</span>
        <strong data-testid={`chart-${title}`}>{format(last)}</strong>
      </figcaption>
      <div className="scale">{format(top)}</div>
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" height={height} role="img" aria-label={title}>
        <line x1="0" y1={height - 1} x2={width} y2={height - 1} className="axis" />
        {segments.map((d, i) => (
          <path key={i} d={d} fill="none" stroke={color} strokeWidth="2" vectorEffect="non-scaling-stroke" />
        ))}
      </svg>
    </figure>
  );
}
