import { useEffect, useRef } from 'react';

/** Calls {@code tick} now and every {@code intervalMs}, one call at a time, until the component goes away. */
export function usePolling(tick: () => Promise<void>, intervalMs: number): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        await latest.current();
      } finally {
        if (!stopped) timer = setTimeout(run, intervalMs);
      }
    };
    void run();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [intervalMs]);
}
