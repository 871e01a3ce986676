// Messages in/out per second from the cumulative counters of the overview. Each transport node publishes its
// counters every $SYS interval, with the time of that publication (statsAt): a node's rate is the difference of
// two publications over the time between them, and stays until the node publishes again.
import type { Overview } from './types';

interface NodeSample {
  received: number;
  sent: number;
  at: number;
  receivedRate: number | null;
  sentRate: number | null;
}

export type RateState = Record<string, NodeSample>;

export interface Rates {
  state: RateState;
  received: number | null;
  sent: number | null;
}

function rate(now: number, before: number, seconds: number): number | null {
  // A counter that went down belongs to a restarted node: no rate until its next publication.
  return now >= before ? (now - before) / seconds : null;
}

export function nextRates(previous: RateState, overview: Overview): Rates {
  const state: RateState = {};
  let received: number | null = null;
  let sent: number | null = null;
  for (const node of overview.transportNodes) {
    if (!node.alive || node.messagesReceived === null || node.messagesSent === null || !node.statsAt) {
      continue;
    }
    const at = Date.parse(node.statsAt);
    const before = previous[node.nodeId];
    let sample: NodeSample;
    if (before && at > before.at) {
      const seconds = (at - before.at) / 1000;
      sample = {
        received: node.messagesReceived,
        sent: node.messagesSent,
        at,
        receivedRate: rate(node.messagesReceived, before.received, seconds),
        sentRate: rate(node.messagesSent, before.sent, seconds),
      };
    } else if (before && at === before.at) {
      sample = before;
    } else {
      sample = { received: node.messagesReceived, sent: node.messagesSent, at, receivedRate: null, sentRate: null };
    }
    state[node.nodeId] = sample;
    if (sample.receivedRate !== null) received = (received ?? 0) + sample.receivedRate;
    if (sample.sentRate !== null) sent = (sent ?? 0) + sample.sentRate;
  }
  return { state, received, sent };
}

export interface Point {
  at: number;
  value: number | null;
}

/** Appends a point and keeps the newest {@code max}. */
export function append(series: Point[], point: Point, max: number): Point[] {
  const next = [...series, point];
  return next.length > max ? next.slice(next.length - max) : next;
}
