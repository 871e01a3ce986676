import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { KafkaToMqttRules, toBridgeRequest } from './KafkaToMqttRules';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('KafkaToMqttRules', () => {
  it('leaves QoS and retain to the headers when asked', () => {
    expect(toBridgeRequest({ kafkaTopic: ' c ', mqttTopic: 'd/{key}', qos: '', retain: '' }))
      .toEqual({ kafkaTopic: 'c', mqttTopic: 'd/{key}', qos: null, retain: null });
    expect(toBridgeRequest({ kafkaTopic: 'c', mqttTopic: 'd', qos: '2', retain: 'true' }))
      .toEqual({ kafkaTopic: 'c', mqttTopic: 'd', qos: 2, retain: true });
  });

  it('creates a rule and lists the rules', async () => {
    const posted: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
      if (init?.method === 'POST') {
        posted.push(init.body as string);
        return new Response(JSON.stringify({ id: 4, kafkaTopic: 'cmds', mqttTopic: 'devices/{key}/commands', qos: 1, retain: null, createdAt: 'x' }), { status: 201 });
      }
      expect(url).toBe('/api/v1/rules/kafka-to-mqtt');
      return new Response(JSON.stringify([{ id: 3, kafkaTopic: 'old', mqttTopic: 'o/{key}', qos: null, retain: true, createdAt: 'x' }]), { status: 200 });
    }));
    render(<KafkaToMqttRules />);
    await screen.findByText('o/{key}');
    expect(screen.getByText('header')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('device-commands'), { target: { value: 'cmds' } });
    fireEvent.change(screen.getByPlaceholderText('devices/{key}/commands'), { target: { value: 'devices/{key}/commands' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Kafka to MQTT rule' }));
    await screen.findByText(/Rule 4 added/);
    expect(JSON.parse(posted[0])).toEqual({ kafkaTopic: 'cmds', mqttTopic: 'devices/{key}/commands', qos: 1, retain: null });
  });
});
