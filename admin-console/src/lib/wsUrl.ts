/**
 * The WebSocket URL the MQTT client page starts with: the quick start serves MQTT over WebSocket on the console's
 * HTTP port + 3 (8080 -> 8083, as docker-compose does), at /mqtt.
 */
export function defaultWebSocketUrl(location: { protocol: string; hostname: string; port: string }): string {
  const secure = location.protocol === 'https:';
  const httpPort = Number(location.port || (secure ? 443 : 80));
  return `${secure ? 'wss' : 'ws'}://${location.hostname}:${httpPort + 3}/mqtt`;
}
