import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { HYDRATING_FLAG } from '@shared/landingBoot';
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
Object.assign(window, { [HYDRATING_FLAG]: true });
if (container.firstElementChild) hydrateRoot(container, app);
else createRoot(container).render(app);
