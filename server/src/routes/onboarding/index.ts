import Router from '@koa/router';
import type { TOnboardingResponse } from '@shared/types';
import type { Services } from '../../container';
import { requireAuth } from '../../middleware/auth';
import type { OnboardingState } from '../../onboarding/service';
import type { AppState } from '../../types';

function present(state: OnboardingState): TOnboardingResponse {
  const completed = state.steps.filter((step) => step.done).length;
  const total = state.steps.length;
  return { success: true, onboarding: { steps: state.steps, completed, total, dismissed: state.dismissed, visible: !state.dismissed && completed < total } };
}

/** The dashboard's getting-started checklist: each step computed from the account's data. */
export function onboardingRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/onboarding' });

  router.get('/', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = present(await services.onboarding.state(user.id));
  });

  router.post('/dismiss', async (ctx) => {
    const { user } = requireAuth(ctx);
    await services.onboarding.dismiss(user.id);
    ctx.body = present(await services.onboarding.state(user.id));
  });

  return router;
}
