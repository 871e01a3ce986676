import { query } from './api';
import { pageOf, pagesFor } from './route';
import { noCriteria, sessionPath, sessionSearchPath } from './sessionSearch';
import { defaultWebSocketUrl } from './wsUrl';

describe('search paths', () => {
  it('leave out empty criteria', () => {
    expect(sessionSearchPath(noCriteria, null)).toBe('/search/sessions?limit=25');
  });

  it('carry trimmed criteria and the page start, encoded', () => {
    expect(sessionSearchPath({ clientIdPrefix: ' meter/1 ', username: 'u&1', nodeId: 'node-1', connected: 'true' }, 'meter/1#9', 10))
      .toBe('/search/sessions?clientIdPrefix=meter%2F1&username=u%261&nodeId=node-1&connected=true&after=meter%2F1%239&limit=10');
  });

  it('encode a client id as one path segment', () => {
    expect(sessionPath('a/b?#')).toBe('/sessions/a%2Fb%3F%23');
  });

  it('keep false and zero', () => {
    expect(query({ page: 0, connected: false, x: null, y: undefined, z: '' })).toBe('?page=0&connected=false');
  });
});

describe('routes', () => {
  it('pick the page from the fragment, the overview by default', () => {
    expect(pageOf('#/sessions')).toBe('sessions');
    expect(pageOf('#/sessions?x=1')).toBe('sessions');
    expect(pageOf('')).toBe('overview');
    expect(pageOf('#/nope')).toBe('overview');
  });

  it('give an admin scoped to a tenant its credentials and usage only, credentials by default', () => {
    expect(pagesFor('acme').map((p) => p.path)).toEqual(['credentials', 'tenants']);
    expect(pagesFor(null)).toHaveLength(9);
    expect(pageOf('#/tenants', 'acme')).toBe('tenants');
    expect(pageOf('#/sessions', 'acme')).toBe('credentials');
    expect(pageOf('', 'acme')).toBe('credentials');
    expect(pageOf('#/sessions', null)).toBe('sessions');
  });
});

describe('defaultWebSocketUrl', () => {
  it('is the console port + 3, at /mqtt', () => {
    expect(defaultWebSocketUrl({ protocol: 'http:', hostname: 'h', port: '8080' })).toBe('ws://h:8083/mqtt');
    expect(defaultWebSocketUrl({ protocol: 'https:', hostname: 'h', port: '' })).toBe('wss://h:446/mqtt');
  });
});
