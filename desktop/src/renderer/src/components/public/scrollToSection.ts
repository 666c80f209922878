/**
 * Scrolls to an element of the current page by id and moves keyboard focus there.
 *
 * In-page links use this instead of changing `location.hash`: under a hash router (the desktop
 * build may use one) a `#section` hash would be read as a route.
 */
export function scrollToSection(id: string, focusTarget?: HTMLElement | null): void {
  const element = document.getElementById(id);
  if (!element) return;
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  element.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  const target = focusTarget ?? element;
  if (!target.hasAttribute('tabindex') && !isNativelyFocusable(target)) {
    target.setAttribute('tabindex', '-1');
  }
  target.focus({ preventScroll: true });
}

function isNativelyFocusable(element: HTMLElement): boolean {
  return ['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA'].includes(element.tagName);
}
