import { base64ToBytes, formatAgo, formatCount, formatMillis, formatRate, formatSeconds, formatTime, hexDump, protocolName } from './format';

describe('format', () => {
  it('counts with separators and a dash for nothing', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(null)).toBe('–');
    expect(formatCount(undefined)).toBe('–');
  });

  it('rates keep one decimal below 100 per second', () => {
    expect(formatRate(0.25)).toBe('0.3/s');
    expect(formatRate(99.94)).toBe('99.9/s');
    expect(formatRate(1234.5)).toBe('1,235/s');
    expect(formatRate(null)).toBe('–');
  });

  it('milliseconds keep more decimals the smaller they are', () => {
    expect(formatMillis(0.4567)).toBe('0.46 ms');
    expect(formatMillis(62.53)).toBe('62.5 ms');
    expect(formatMillis(1234.4)).toBe('1,234 ms');
    expect(formatMillis(null)).toBe('–');
  });

  it('seconds read as the two largest units, and MQTT never as never', () => {
    expect(formatSeconds(7)).toBe('7s');
    expect(formatSeconds(306)).toBe('5m 6s');
    expect(formatSeconds(3 * 3600 + 240)).toBe('3h 4m');
    expect(formatSeconds(86400 + 7200)).toBe('1d 2h');
    expect(formatSeconds(4294967295)).toBe('never');
  });

  it('ages are relative to the given now', () => {
    expect(formatAgo('2030-01-01T12:00:00Z', Date.parse('2030-01-01T12:01:05Z'))).toBe('1m 5s ago');
    expect(formatAgo(null, 0)).toBe('–');
  });

  it('times are shown in UTC without fractions', () => {
    expect(formatTime('2030-01-01T12:00:00.123456Z')).toBe('2030-01-01 12:00:00 UTC');
  });

  it('names protocol levels', () => {
    expect(protocolName(4)).toBe('MQTT 3.1.1');
    expect(protocolName(5)).toBe('MQTT 5.0');
    expect(protocolName(9)).toBe('unknown (9)');
  });

  it('dumps payload bytes as offset, hex and printable ASCII', () => {
    const bytes = base64ToBytes(btoa('on\u0000\u00ffABCDEFGHIJKLMNOP'));
    expect(bytes.length).toBe(20);
    const lines = hexDump(bytes).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('00000000  6f 6e 00 ff 41 42 43 44 45 46 47 48 49 4a 4b 4c  on..ABCDEFGHIJKL');
    expect(lines[1].startsWith('00000010  4d 4e 4f 50')).toBe(true);
    expect(lines[1].endsWith('MNOP')).toBe(true);
  });
});
