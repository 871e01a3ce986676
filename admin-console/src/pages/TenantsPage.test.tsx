import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { TenantsPage, usageTenantOf } from './TenantsPage';
import { lastHours } from './TenantUsageView';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.location.hash = '';
});

const tenants = {
  items: [
    { id: 'acme', description: 'Acme', createdAt: '2026-11-25T00:00:00Z', credentials: 2, maxConnections: null, connections: 1, maxRetained: 5, retained: 5, maxQueuedMessages: 250, maxPublishBytesRate: null, maxDeliveryBytesRate: 2048 },
    { id: 'open', description: null, createdAt: '2026-11-25T00:00:00Z', credentials: 0, maxConnections: 3, connections: 0, maxRetained: null, retained: 7, maxQueuedMessages: null, maxPublishBytesRate: 1000, maxDeliveryBytesRate: null },
  ],
  page: 0,
  size: 50,
  total: 2,
};

const usage = {
  tenant: 'acme',
  from: '2026-11-25T14:00:00Z',
  to: '2026-11-26T14:00:00Z',
  hours: [
    { hour: '2026-11-26T12:00:00Z', messagesIn: 1200, bytesIn: 2048, messagesOut: 2400, bytesOut: 4096, connectionSeconds: 3600, storedBytes: 512 },
    { hour: '2026-11-26T13:00:00Z', messagesIn: 34, bytesIn: 1024, messagesOut: 68, bytesOut: 2048, connectionSeconds: 90, storedBytes: 512 },
  ],
  totals: { messagesIn: 1234, bytesIn: 3072, messagesOut: 2468, bytesOut: 6144, connectionSeconds: 3690, storedByteHours: 1024 },
};

describe('TenantsPage', () => {
  it('asks for whole UTC hours, the current one included', () => {
    expect(lastHours(24, Date.parse('2026-11-26T13:45:12.345Z')))
      .toEqual({ from: '2026-11-25T14:00:00Z', to: '2026-11-26T14:00:00Z' });
    expect(usageTenantOf('#/tenants?usage=acme')).toBe('acme');
    expect(usageTenantOf('#/tenants')).toBeNull();
  });

  it('lists the tenants and opens a tenant usage table per hour with totals', async () => {
    const urls: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(url.includes('/usage') ? usage : tenants), { status: 200 });
    }));
    render(<TenantsPage />);
    await screen.findByText('acme');
    expect(urls[0]).toBe('/api/v1/tenants?page=0&size=50');
    // Retained messages against the quota, marked when it is full.
    expect(screen.getByText('5 / 5').className).toBe('error');
    expect(screen.getByText('7 (no limit)').className).toBe('');
    expect(screen.getByText('250')).toBeTruthy();
    expect(screen.getByText('global limit')).toBeTruthy();
    // Bytes in and out per second against their quotas.
    expect(screen.getByText('2.0 KiB/s')).toBeTruthy();
    expect(screen.getByText('1000 B/s')).toBeTruthy();
    expect(screen.getAllByText('no limit')).toHaveLength(3);

    const link = screen.getAllByRole('link', { name: 'Usage' })[0];
    expect(link.getAttribute('href')).toBe('#/tenants?usage=acme');
    window.location.hash = '#/tenants?usage=acme';
    fireEvent(window, new HashChangeEvent('hashchange'));

    await screen.findByText('1,234');
    expect(urls.some((u) => /^\/api\/v1\/tenants\/acme\/usage\?from=\d{4}-\d\d-\d\dT\d\d%3A00%3A00Z&to=/.test(u))).toBe(true);
    expect(screen.getByText('2026-11-26 13:00:00 UTC')).toBeTruthy();
    expect(screen.getByText('1,200')).toBeTruthy();
    expect(screen.getByText('2,468')).toBeTruthy();
    expect(screen.getByText('1h 1m')).toBeTruthy();
    expect(screen.getByText('1.0 KiB·h')).toBeTruthy();
  });

  it('shows the API refusal of a range', async () => {
    window.location.hash = '#/tenants?usage=acme';
    vi.stubGlobal('fetch', vi.fn(async (url: string) => url.includes('/usage')
      ? new Response(JSON.stringify({ error: 'the range is longer than 744 hours' }), { status: 400 })
      : new Response(JSON.stringify(tenants), { status: 200 })));
    render(<TenantsPage />);
    await screen.findByText(/longer than 744 hours/);
  });
});
