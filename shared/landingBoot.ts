// With its extension: the web build's Vite config imports this file, and Vite warns of any
// extensionless import in the config's own graph.
import { STORAGE_KEYS } from './constants.ts';

/**
 * Set on `window` by main.tsx just before React takes the page over: from then on React's own
 * click handlers (and its replay of clicks made while it hydrates) answer the theme toggle.
 */
export const HYDRATING_FLAG = '__sandeshHydrating';

/**
 * The one inline script of the prerendered landing page ("interactive in under 1 s on
 * Fast 3G"): on that profile the app's script arrives two round trips after the HTML, about a
 * second and a half later. This applies the remembered theme before the first paint and answers
 * the theme toggle (`data-theme-toggle`) until React hydrates. The server allows exactly this text
 * in its Content-Security-Policy by its SHA-256 (server/src/app.ts); links are plain anchors and
 * work without any script. Kept in sync with themeStore.ts: same key, same class, same values.
 */
export const LANDING_BOOT_SCRIPT = `(function(){var d=document.documentElement,k=${JSON.stringify(STORAGE_KEYS.theme)};function set(dark){d.classList.toggle('dark',dark);d.style.colorScheme=dark?'dark':'light';}var t=null;try{t=localStorage.getItem(k);}catch(e){}set(t==='dark'||(t!=='light'&&!!window.matchMedia&&window.matchMedia('(prefers-color-scheme: dark)').matches));document.addEventListener('click',function(e){if(window[${JSON.stringify(HYDRATING_FLAG)}])return;var b=e.target&&e.target.closest?e.target.closest('[data-theme-toggle]'):null;if(!b)return;e.preventDefault();e.stopPropagation();var dark=!d.classList.contains('dark');set(dark);try{localStorage.setItem(k,dark?'dark':'light');}catch(e){}},true);})();`;
