import { defineConfig } from 'vitest/config';

// Served by session-service from its classpath under /console/ (META-INF/resources/console), so every asset URL
// is relative to that base. JSX is compiled by Vite's own transformer (no React plugin needed).
export default defineConfig({
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1200 },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  test: { environment: 'jsdom', globals: true, include: ['src/**/*.test.ts', 'src/**/*.test.tsx'] },
});
