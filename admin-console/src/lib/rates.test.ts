import { append, nextRates, type Point } from './rates';
import type { Overview, TransportNode } from './types';

function node(nodeId: string, received: number, sent: number, statsAt: string, alive = true): TransportNode {
  return { nodeId, incarnation: 'i', alive, firstSeen: statsAt, lastSeen: statsAt, connections: 1, messagesReceived: received, messagesSent: sent, statsAt };
}

function overview(...nodes: TransportNode[]): Overview {
  return { at: '2030-01-01T00:00:00Z', sessions: 0, connections: 0, messagesReceived: 0, messagesSent: 0, transportNodes: nodes, routing: null, sessionService: null, latency: [], problems: [] };
}

describe('nextRates', () => {
  it('has no rate from a single publication', () => {
    const r = nextRates({}, overview(node('a', 100, 50, '2030-01-01T00:00:00Z')));
    expect(r.received).toBeNull();
    expect(r.sent).toBeNull();
  });

  it('divides the difference of two publications by the time between them, summed over nodes', () => {
    let r = nextRates({}, overview(node('a', 100, 50, '2030-01-01T00:00:00Z'), node('b', 0, 0, '2030-01-01T00:00:05Z')));
    r = nextRates(r.state, overview(node('a', 200, 70, '2030-01-01T00:00:10Z'), node('b', 50, 5, '2030-01-01T00:00:15Z')));
    expect(r.received).toBeCloseTo(10 + 5);
    expect(r.sent).toBeCloseTo(2 + 0.5);
  });

  it('keeps the last rate while a node has not published again', () => {
    let r = nextRates({}, overview(node('a', 0, 0, '2030-01-01T00:00:00Z')));
    r = nextRates(r.state, overview(node('a', 30, 0, '2030-01-01T00:00:10Z')));
    r = nextRates(r.state, overview(node('a', 30, 0, '2030-01-01T00:00:10Z')));
    expect(r.received).toBeCloseTo(3);
  });

  it('gives no rate for a counter that went down (restarted node) and ignores dead nodes', () => {
    let r = nextRates({}, overview(node('a', 500, 0, '2030-01-01T00:00:00Z'), node('d', 0, 0, '2030-01-01T00:00:00Z')));
    r = nextRates(r.state, overview(node('a', 10, 0, '2030-01-01T00:00:10Z'), node('d', 1000, 0, '2030-01-01T00:00:10Z', false)));
    expect(r.received).toBeNull();
    expect(r.state.d).toBeUndefined();
  });
});

describe('append', () => {
  it('keeps the newest points', () => {
    let series: Point[] = [{ at: 1, value: 1 }];
    series = append(series, { at: 2, value: 2 }, 2);
    series = append(series, { at: 3, value: null }, 2);
    expect(series).toEqual([{ at: 2, value: 2 }, { at: 3, value: null }]);
  });
});
