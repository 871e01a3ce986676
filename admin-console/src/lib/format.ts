// Formatting of figures, times and payloads for display.

/** 1234567 -> "1,234,567"; null -> "–". */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) {
    return '–';
  }
  return Math.round(value).toLocaleString('en-US');
}

/** A rate per second with at most one decimal below 100: 0.25 -> "0.3/s", 1234.5 -> "1,235/s". */
export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || Number.isNaN(perSecond)) {
    return '–';
  }
  if (perSecond < 100) {
    return `${perSecond.toFixed(1)}/s`;
  }
  return `${formatCount(perSecond)}/s`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Seconds as "1d 2h", "3h 4m", "5m 6s", "7s"; MQTT's 4294967295 session expiry is "never". */
export function formatSeconds(seconds: number): string {
  if (seconds >= 4294967295) {
    return 'never';
  }
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

/** How long ago an ISO time was, relative to now (ms since epoch). */
export function formatAgo(iso: string | null, now: number): string {
  if (!iso) {
    return '–';
  }
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  return `${formatSeconds(seconds)} ago`;
}

/** An ISO time as "2030-01-01 12:00:00" UTC. */
export function formatTime(iso: string | null): string {
  if (!iso) {
    return '–';
  }
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z').replace('Z', ' UTC');
}

export function protocolName(version: number): string {
  switch (version) {
    case 3:
      return 'MQTT 3.1';
    case 4:
      return 'MQTT 3.1.1';
    case 5:
      return 'MQTT 5.0';
    default:
      return `unknown (${version})`;
  }
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

/** A hex dump: 16 bytes a line, offset, hex and the printable ASCII. */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const chunk = Array.from(bytes.slice(offset, offset + 16));
    const hex = chunk.map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = chunk.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}

/** Milliseconds: two decimals below 10 ms, one below 1,000, none above; null -> "–". */
export function formatMillis(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) {
    return '–';
  }
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  return `${formatCount(ms)} ms`;
}
