import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { keyChoices, MappingRulesPage, toRequest } from './MappingRulesPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('MappingRulesPage', () => {
  it('offers the named levels of the filter as keys', () => {
    expect(keyChoices('vehicles/{vin}/telemetry/{kind}/#')).toEqual(['topic', 'client-id', 'none', '{vin}', '{kind}']);
    expect(keyChoices('a/x{vin}')).toEqual(['topic', 'client-id', 'none']);
    expect(toRequest({ filter: ' a/{b} ', kafkaTopic: 't', key: '{b}', partitions: '' }))
      .toEqual({ filter: 'a/{b}', kafkaTopic: 't', key: '{b}', partitions: null });
    expect(toRequest({ filter: 'a', kafkaTopic: 't', key: '', partitions: '6' }).partitions).toBe(6);
  });

  it('creates a rule, shows the refusal of a bad one, and lists what the API has', async () => {
    const calls: { url: string; method: string; body: string | null }[] = [];
    const stored = [{ id: 1, filter: 'v/{vin}/#', kafkaTopic: 'telemetry', key: '{vin}', createdAt: '2026-11-25T00:00:00Z' }];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (url.includes('kafka-to-mqtt')) {
        // The page's other section (KafkaToMqttRules) has its own test.
        return new Response('[]', { status: 200 });
      }
      calls.push({ url, method, body: (init?.body as string) ?? null });
      if (method === 'POST') {
        const body = JSON.parse(init.body as string) as { key: string };
        if (body.key === 'none') {
          return new Response(JSON.stringify({ error: "Kafka topic 'nope' does not exist" }), { status: 400 });
        }
        return new Response(JSON.stringify({ ...stored[0], id: 2 }), { status: 201 });
      }
      return new Response(JSON.stringify(stored), { status: 200 });
    }));
    render(<MappingRulesPage />);
    await screen.findByText('v/{vin}/#');
    expect(calls[0]).toMatchObject({ url: '/api/v1/rules/mqtt-to-kafka', method: 'GET' });

    fireEvent.change(screen.getByPlaceholderText('vehicles/{vin}/telemetry/#'), { target: { value: 'v/{vin}/#' } });
    fireEvent.change(screen.getByPlaceholderText('vehicle-telemetry'), { target: { value: 'telemetry' } });
    fireEvent.change(screen.getByDisplayValue('topic'), { target: { value: '{vin}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    await screen.findByText(/Rule 2 added/);
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body!)).toEqual(
      { filter: 'v/{vin}/#', kafkaTopic: 'telemetry', key: '{vin}', partitions: null });

    fireEvent.change(screen.getByPlaceholderText('vehicles/{vin}/telemetry/#'), { target: { value: 'x' } });
    fireEvent.change(screen.getByPlaceholderText('vehicle-telemetry'), { target: { value: 'nope' } });
    fireEvent.change(screen.getByDisplayValue('topic'), { target: { value: 'none' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(screen.getByText(/does not exist/)).toBeTruthy());
  });
});
