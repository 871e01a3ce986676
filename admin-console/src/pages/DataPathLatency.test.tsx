import { cleanup, render, screen } from '@testing-library/react';
import { DataPathLatency } from './DataPathLatency';

afterEach(cleanup);

const hops = [
  { hop: 'publish-ack', measuredBy: 'transport', p50Millis: 1.234, p99Millis: 8.5, instances: 2, at: '2026-11-26T20:00:00Z' },
  { hop: 'publish-to-router', measuredBy: 'routing', p50Millis: 2.0, p99Millis: 12.25, instances: 1, at: '2026-11-26T20:00:00Z' },
  { hop: 'route', measuredBy: 'routing', p50Millis: null, p99Millis: null, instances: 0, at: null },
  { hop: 'downlink-to-node', measuredBy: 'transport', p50Millis: 3.0, p99Millis: 150.0, instances: 2, at: '2026-11-26T20:00:00Z' },
  { hop: 'node-to-socket', measuredBy: 'transport', p50Millis: 0.25, p99Millis: 1.5, instances: 2, at: '2026-11-26T20:00:00Z' },
];

describe('DataPathLatency', () => {
  it('shows each hop in order with its worst p50 and p99, a dash where nobody measured it, and the p50s summed', () => {
    render(<DataPathLatency hops={hops} />);
    const rows = screen.getAllByRole('row').slice(1, 6);
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual([
      'hop-publish-ack',
      'hop-publish-to-router',
      'hop-route',
      'hop-downlink-to-node',
      'hop-node-to-socket',
    ]);
    expect(screen.getByTestId('hop-publish-ack').textContent).toContain('1.23 ms');
    expect(screen.getByTestId('hop-publish-ack').textContent).toContain('8.50 ms');
    expect(screen.getByTestId('hop-downlink-to-node').textContent).toContain('150.0 ms');
    expect(screen.getByTestId('hop-route').textContent).toContain('–');
    expect(screen.getByTestId('hop-p50-sum').textContent).toBe('6.48 ms');
  });

  it('shows no sum while no hop has been measured', () => {
    render(<DataPathLatency hops={hops.map((h) => ({ ...h, p50Millis: null, p99Millis: null, instances: 0, at: null }))} />);
    expect(screen.queryByTestId('hop-p50-sum')).toBeNull();
  });
});
