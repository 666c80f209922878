/** The sign-in area: one chunk for /login and /signup (routes.tsx loads it on demand). */
export { LoginPage } from '../pages/auth/LoginPage';
export { SignupPage } from '../pages/auth/SignupPage';
