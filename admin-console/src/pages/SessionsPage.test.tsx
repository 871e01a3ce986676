import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SessionsPage } from './SessionsPage';
import type { Session } from '../lib/types';

function session(clientId: string): Session {
  return { clientId, nodeId: 'node-1', epoch: 7, connected: true, cleanStart: true, sessionExpirySeconds: 0, protocolVersion: 5,
    keepAliveSeconds: 60, remoteAddress: '10.0.0.1:5000', username: null, connectedAt: null, disconnectedAt: null, expiresAt: null };
}

/** Answers the search endpoint with two pages and records what was asked. */
function stubApi() {
  const asked: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    asked.push(url);
    const after = new URL(url, 'http://x').searchParams.get('after');
    const body = after === null
      ? { items: [session('m-1'), session('m-2')], next: 'm-2' }
      : { items: [session('m-3')], next: null };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }));
  return asked;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SessionsPage', () => {
  it('searches with the submitted criteria and pages by the returned key', async () => {
    const asked = stubApi();
    render(<SessionsPage />);
    await screen.findByText('m-1');
    expect(asked[0]).toBe('/api/v1/search/sessions?limit=25');

    fireEvent.change(screen.getByPlaceholderText('client id prefix'), { target: { value: 'm-' } });
    fireEvent.change(screen.getByDisplayValue('connected or not'), { target: { value: 'true' } });
    // typing alone does not search
    expect(asked).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]).toBe('/api/v1/search/sessions?clientIdPrefix=m-&connected=true&limit=25');

    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    await screen.findByText('m-3');
    expect(asked[2]).toBe('/api/v1/search/sessions?clientIdPrefix=m-&connected=true&after=m-2&limit=25');
    expect(screen.getByText('Page 2')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Next/ }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: /Previous/ }));
    await screen.findByText('m-1');
    expect(asked[3]).toBe(asked[1]);
  });
});
