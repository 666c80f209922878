import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './App';

/**
 * The landing page's HTML, rendered at build (vite.web.config.mts) into landing.html, which the
 * server answers for `/` (the heading shows before any script has arrived). main.tsx
 * hydrates it with the same tree: a visitor, light theme, the fallback public config.
 */
export function renderLandingPage(): string {
  return renderToString(
    <StrictMode>
      <App serverLocation="/" />
    </StrictMode>,
  );
}
