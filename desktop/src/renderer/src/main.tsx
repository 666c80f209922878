import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount the app in');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The landing page arrives prerendered (landing.html, see prerender.tsx): it is hydrated, not
// drawn again. Every other page starts from an empty root.
if (container.firstElementChild) hydrateRoot(container, app);
else createRoot(container).render(app);
