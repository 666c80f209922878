/**
 * Roles inside a customer account and what each may do. One table, read by the server's
 * `requireRole` middleware (the check that counts) and by the web app (which hides what a role
 * cannot use). The platform's own roles (`user`, `admin`) are a different axis and unchanged.
 */

export const TEAM_ROLES = ['owner', 'manager', 'agent', 'analyst'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** Roles an invite or a role change may give: ownership moves only by an explicit transfer. */
export const MEMBER_ROLES = ['manager', 'agent', 'analyst'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  agent: 'Agent',
  analyst: 'Analyst',
};

/** Areas of the user side of the product; every user route belongs to exactly one. */
export type TeamArea =
  | 'member'
  | 'team'
  | 'billing'
  | 'numbers'
  | 'walletHistory'
  | 'templates'
  | 'sends'
  | 'campaignsRead'
  | 'reports'
  | 'contacts'
  | 'replies'
  | 'integrations';

export const AREA_ROLES: Record<TeamArea, readonly TeamRole[]> = {
  /** Things every member has: notifications, onboarding hints, the price list they send at. */
  member: ['owner', 'manager', 'agent', 'analyst'],
  /** Members, invites, ownership, deleting the account. */
  team: ['owner'],
  /** Wallet top-ups, payments, log clean-up: what costs or destroys the account's money or data. */
  billing: ['owner'],
  /** Connecting and removing the account's WhatsApp numbers (Embedded Signup): who the business is at Meta. */
  numbers: ['owner'],
  walletHistory: ['owner', 'analyst'],
  templates: ['owner', 'manager'],
  sends: ['owner', 'manager'],
  campaignsRead: ['owner', 'manager', 'analyst'],
  reports: ['owner', 'manager', 'analyst'],
  contacts: ['owner', 'manager', 'agent'],
  replies: ['owner', 'manager', 'agent'],
  /** API keys and webhook endpoints. */
  integrations: ['owner', 'manager'],
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const READS: readonly Method[] = ['GET'];
const ANY: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface AreaRule {
  /** Matches the request path (no query string). */
  path: RegExp;
  methods: readonly Method[];
  area: TeamArea;
}

/**
 * Ordered: the first rule whose path and method match decides. Paths that are not listed at all
 * and not exempt (below) are held to the owner, so a new route is safe before it is classified;
 * the authorization matrix test fails until it is.
 */
const RULES: readonly AreaRule[] = [
  { path: /^\/api\/team(\/|$)/, methods: ANY, area: 'team' },
  /** Deleting the account the session acts in. */
  { path: /^\/api\/account$/, methods: ['DELETE'], area: 'team' },
  { path: /^\/api\/(notifications|onboarding)(\/|$)/, methods: ANY, area: 'member' },
  { path: /^\/api\/send\/my-pricing$/, methods: READS, area: 'member' },
  { path: /^\/api\/payments\/razorpay\/(order|verify)$/, methods: ['POST'], area: 'billing' },
  { path: /^\/api\/logs(\/|$)/, methods: ANY, area: 'billing' },
  { path: /^\/api\/(wallet|credits)\//, methods: READS, area: 'walletHistory' },
  { path: /^\/api\/templates(\/|$)/, methods: ANY, area: 'templates' },
  { path: /^\/api\/whatsapp\/(languages|templates|template-details)$/, methods: ANY, area: 'templates' },
  { path: /^\/api\/whatsapp\/reports(\/|$)/, methods: READS, area: 'reports' },
  { path: /^\/api\/reports(\/|$)/, methods: READS, area: 'reports' },
  { path: /^\/api\/campaigns\/[^/]+\/replies$/, methods: READS, area: 'campaignsRead' },
  { path: /^\/api\/(campaigns|messages|dashboard)(\/|$)/, methods: READS, area: 'campaignsRead' },
  { path: /^\/api\/campaigns\//, methods: ANY, area: 'sends' },
  { path: /^\/api\/whatsapp\/(connections|connect-setup)(\/|$)/, methods: ANY, area: 'numbers' },
  { path: /^\/api\/whatsapp\//, methods: ANY, area: 'sends' },
  { path: /^\/api\/send\/cost-preview$/, methods: ANY, area: 'sends' },
  { path: /^\/api\/uploads(\/|$)/, methods: ANY, area: 'sends' },
  { path: /^\/api\/(contacts|segments|suppressions)(\/|$)/, methods: ANY, area: 'contacts' },
  { path: /^\/api\/conversations(\/|$)/, methods: ANY, area: 'replies' },
  { path: /^\/api\/(keys|webhook-endpoints)(\/|$)/, methods: ANY, area: 'integrations' },
];

/**
 * Paths outside the account's area: the person's own sign-in and profile, the platform admin's
 * screens (checked by the platform role), public and integrator endpoints, and joining or
 * switching accounts (which a person does before having a role in the account concerned).
 */
const EXEMPT: readonly RegExp[] = [
  /^\/api\/auth\//,
  /^\/api\/admin(\/|$)/,
  /^\/api\/accounts(\/|$)/,
  /^\/api\/team\/invites\/[^/]+\/accept$/,
  /^\/api\/(health|public-config|openapi\.json)$/,
  /^\/api\/send(\/batch)?$/,
  /^\/api\/send\/template-info\//,
  /^\/api\/payments\/(config|razorpay\/webhook)$/,
  /^\/api\/webhooks\//,
];

/** Null: not a user-area path (no role applies). Undefined area: a user path no rule classifies. */
export function areaOf(method: string, path: string): { area: TeamArea | undefined } | null {
  if (!path.startsWith('/api/')) return null;
  if (EXEMPT.some((pattern) => pattern.test(path))) return null;
  const upper = method.toUpperCase();
  const effective = upper === 'HEAD' ? 'GET' : upper;
  const rule = RULES.find((candidate) => candidate.path.test(path) && (candidate.methods as readonly string[]).includes(effective));
  return { area: rule?.area };
}

/** The roles that may call a path; the owner alone where the path is unclassified. */
export function rolesFor(method: string, path: string): readonly TeamRole[] | null {
  const found = areaOf(method, path);
  if (!found) return null;
  return found.area ? AREA_ROLES[found.area] : ['owner'];
}

export function roleCan(role: TeamRole, area: TeamArea): boolean {
  return AREA_ROLES[area].includes(role);
}
