/** A project of the demo, with the work in it. */
export interface DemoProject {
  key: string
  name: string
  description: string
  status: 'planned' | 'active' | 'paused' | 'completed' | 'archived'
  visibility: 'workspace' | 'private'
  owner: string
  /** Team keys and person keys (guests join projects by name). */
  teams: string[]
  people: string[]
  tasks: string[]
  /** Subtasks of the first tasks, by task title index. */
  subtasks: Record<number, string[]>
  canvases: { title: string; summary: string; private?: boolean }[]
}

/** The projects of the demo workspace. */
export const DEMO_PROJECTS: DemoProject[] = [
  {
    key: 'checkout',
    name: 'Checkout redesign',
    description:
      'Rebuild the checkout flow as a single page with saved payment methods. Goal: lift paid conversion from trial by two points before the holiday season.',
    status: 'active',
    visibility: 'workspace',
    owner: 'elena',
    teams: ['web', 'design'],
    people: ['farid'],
    tasks: [
      'Map the current checkout funnel and drop-off points',
      'Design the single-page checkout layout',
      'Build the payment method selector',
      'Support saved cards through the payment provider vault',
      'Add Apple Pay and Google Pay buttons',
      'Show tax and total before the final step',
      'Handle declined cards with a clear retry message',
      'Localise prices for EUR, GBP and JPY',
      'Instrument checkout events for the funnel dashboard',
      'A/B test the new flow against the old one',
      'Write the rollback plan for launch day',
      'Load test the payment endpoints at 3x peak',
      'Accessibility pass on the checkout form',
      'Update the help centre article on billing',
      'Remove the legacy checkout code path',
    ],
    subtasks: {
      1: [
        'Wireframes for desktop',
        'Wireframes for mobile web',
        'Review with support about common questions',
      ],
      3: ['Tokenise cards on the client', 'Migrate existing customers to the vault'],
      8: ['Define the event schema', 'Backfill last 90 days for comparison'],
    },
    canvases: [
      {
        title: 'Checkout redesign: plan',
        summary:
          'Scope, milestones and owners for the single-page checkout. Launch target is the first week of December, behind a feature flag.',
      },
      {
        title: 'Payment provider comparison',
        summary:
          'Fees, vault support and wallet coverage of the three providers we looked at, with a recommendation to stay with the current one.',
      },
    ],
  },
  {
    key: 'mobile4',
    name: 'Mobile app 4.0',
    description:
      'Offline-first rewrite of the iOS and Android apps with a shared sync engine, a new calendar view and push reminders.',
    status: 'active',
    visibility: 'workspace',
    owner: 'nikhil',
    teams: ['mobile', 'design'],
    people: ['quinn'],
    tasks: [
      'Choose the local database for offline mode',
      'Design the sync conflict rules',
      'Build the shared sync engine',
      'New calendar week view',
      'Drag to reschedule in the calendar',
      'Push reminders for upcoming shifts',
      'Dark mode for every screen',
      'Crash-free sessions above 99.8%',
      'Beta program with 200 customers',
      'App Store screenshots and release notes',
      'Migrate analytics to the new SDK',
      'Reduce cold start time below 1.5 seconds',
      'Tablet layout for the schedule screen',
      'Accessibility: dynamic type everywhere',
    ],
    subtasks: {
      2: ['Delta sync protocol', 'Retry queue with backoff', 'Conflict resolution UI'],
      5: ['Reminder settings screen', 'Server-side reminder scheduler'],
      8: ['Recruit beta customers', 'Feedback form in the app', 'Weekly beta summary'],
    },
    canvases: [
      {
        title: 'Mobile 4.0 release plan',
        summary:
          'Beta in December, staged rollout in January. Sync engine is the critical path; calendar work can slip a week without moving the date.',
      },
      {
        title: 'Offline sync design',
        summary:
          'Last-writer-wins per field with a server clock, tombstones for deletes, and a conflict screen only when two people edit the same shift.',
      },
      {
        title: 'Beta feedback board',
        summary:
          'Themes from the first beta cohort: reminders too early, calendar colours hard to read, sync feels instant.',
      },
    ],
  },
  {
    key: 'onboarding',
    name: 'Onboarding revamp',
    description:
      'Get new teams to their first published schedule in under ten minutes: templates, an import wizard and a guided first week.',
    status: 'active',
    visibility: 'workspace',
    owner: 'farid',
    teams: ['growth', 'design'],
    people: ['kemi', 'vera'],
    tasks: [
      'Interview ten teams that churned in week one',
      'Schedule templates for retail, clinics and restaurants',
      'CSV import wizard for staff lists',
      'Guided checklist for the first week',
      'Welcome email sequence rewrite',
      'Measure time to first published schedule',
      'Empty states for every main screen',
      'In-app tour of the schedule editor',
      'Sample data toggle for new workspaces',
      'Invite teammates from the checklist',
      'Remove the mandatory phone number field',
    ],
    subtasks: {
      2: ['Column mapping step', 'Validation and error preview'],
      4: ['Day 1 email', 'Day 3 email', 'Day 7 email'],
    },
    canvases: [
      {
        title: 'Onboarding research notes',
        summary:
          'Teams drop off when they have to type staff in by hand and when the first schedule looks empty. Templates and import are the two biggest levers.',
      },
      {
        title: 'Activation metric definition',
        summary:
          'A team is activated when it publishes a schedule with at least three people within seven days of sign-up.',
      },
    ],
  },
  {
    key: 'search',
    name: 'Search relevance',
    description:
      'Make search across shifts, people and locations return what managers mean: typo tolerance, recent items first, and filters.',
    status: 'planned',
    visibility: 'workspace',
    owner: 'amir',
    teams: ['platform'],
    people: ['jonas', 'elena'],
    tasks: [
      'Collect the top 200 search queries from logs',
      'Label relevance for a test set',
      'Typo tolerance for names',
      'Boost recent items on ties',
      'Search filters for location and role',
      'Keyboard shortcut to open search',
      'Measure search success rate',
    ],
    subtasks: {},
    canvases: [
      {
        title: 'Search quality plan',
        summary:
          'Build a labelled test set first, then change ranking one signal at a time and measure against it.',
      },
    ],
  },
  {
    key: 'dataplat',
    name: 'Data platform migration',
    description:
      'Move the warehouse and event pipeline to the new managed platform and retire the nightly batch jobs.',
    status: 'active',
    visibility: 'workspace',
    owner: 'ben',
    teams: ['platform'],
    people: ['tara'],
    tasks: [
      'Inventory every nightly batch job',
      'Stand up the new warehouse in staging',
      'Dual-write events for two weeks',
      'Compare row counts daily',
      'Migrate the finance dashboards',
      'Migrate the product analytics dashboards',
      'Retire the old cron host',
      'Document the new pipeline for on-call',
      'Cost review after the first month',
      'Data retention policy for raw events',
    ],
    subtasks: {
      2: ['Producer changes in the API', 'Consumer for the new pipeline'],
      4: ['Revenue dashboard', 'Churn dashboard'],
    },
    canvases: [
      {
        title: 'Migration runbook',
        summary:
          'Order of cut-over, checks to run after each step, and how to roll back within an hour if counts diverge.',
      },
    ],
  },
  {
    key: 'pricing',
    name: 'Pricing change 2027',
    description:
      'New plans and per-location pricing from March. Confidential until the announcement.',
    status: 'planned',
    visibility: 'private',
    owner: 'ada',
    teams: ['leadership'],
    people: ['farid', 'tara'],
    tasks: [
      'Model revenue impact of per-location pricing',
      'Interview twelve customers about willingness to pay',
      'Decide on grandfathering for existing customers',
      'Draft the announcement email',
      'Prepare support macros for pricing questions',
      'Update the pricing page',
      'Billing system changes for per-location plans',
    ],
    subtasks: { 0: ['Scenario: 10% churn of small accounts', 'Scenario: no churn'] },
    canvases: [
      {
        title: 'Pricing options memo',
        summary:
          'Three options compared: per seat, per location, and a hybrid. Recommendation is per location with a seat cap on the starter plan.',
      },
      {
        title: 'Board pricing deck outline',
        summary:
          'Narrative for the board meeting: why now, the numbers, risks and the communication plan.',
        private: true,
      },
    ],
  },
  {
    key: 'soc2',
    name: 'SOC 2 Type II',
    description:
      'Evidence collection and controls for the SOC 2 Type II audit window that ends in February.',
    status: 'active',
    visibility: 'private',
    owner: 'dara',
    teams: ['security'],
    people: ['priya', 'ben'],
    tasks: [
      'Access review for production systems',
      'Quarterly vendor risk review',
      'Background check evidence for new hires',
      'Incident response tabletop exercise',
      'Encrypt backups with customer-managed keys',
      'Document the change management process',
      'Collect evidence for laptop encryption',
      'Security awareness training for everyone',
      'Penetration test remediation',
      'Policy review and sign-off',
    ],
    subtasks: {
      0: ['Export user lists', 'Managers confirm access', 'Remove stale accounts'],
      8: ['Fix the open redirect finding', 'Rotate the exposed test key'],
    },
    canvases: [
      {
        title: 'Audit evidence tracker',
        summary:
          'Every control, the evidence we hold for it, who owns it, and what the auditor still needs.',
      },
    ],
  },
  {
    key: 'brand',
    name: 'Brand refresh',
    description:
      'New visual identity with Brightline: logo, colours, type and the marketing site. Paused until after the holiday campaign.',
    status: 'paused',
    visibility: 'workspace',
    owner: 'grace',
    teams: ['design'],
    people: ['noor', 'otto', 'cole'],
    tasks: [
      'Brand workshop with leadership',
      'Three logo directions',
      'Colour palette with accessible contrast',
      'Type scale for product and marketing',
      'Marketing site homepage design',
      'Illustration style guide',
      'Update the app icon',
    ],
    subtasks: { 1: ['Direction A: orbit mark', 'Direction B: wordmark', 'Direction C: monogram'] },
    canvases: [
      {
        title: 'Brand refresh brief',
        summary:
          'Who we are for, what should change and what must not, and the constraints from the product UI.',
      },
      {
        title: 'Agency feedback notes',
        summary:
          'Consolidated feedback on the three logo directions for Brightline, with the decision to continue with direction A.',
      },
    ],
  },
  {
    key: 'a11y',
    name: 'Accessibility audit',
    description: 'WCAG 2.2 AA audit of the web app and fixes for every critical finding.',
    status: 'completed',
    visibility: 'workspace',
    owner: 'kemi',
    teams: ['web'],
    people: ['rafael', 'gita'],
    tasks: [
      'Automated scan of every page',
      'Screen reader pass on the schedule editor',
      'Fix focus order in dialogs',
      'Colour contrast fixes',
      'Keyboard support for drag and drop',
      'Accessibility statement page',
    ],
    subtasks: {},
    canvases: [
      {
        title: 'Audit findings',
        summary:
          'Forty-one findings, nine critical. All critical and serious findings are fixed; the rest are scheduled.',
      },
    ],
  },
  {
    key: 'hiring',
    name: 'Hiring: senior engineers',
    description: 'Hire two senior engineers for the platform team by the end of Q1.',
    status: 'active',
    visibility: 'private',
    owner: 'ben',
    teams: [],
    people: ['ben', 'quinn', 'rosa', 'ada'],
    tasks: [
      'Write the job description',
      'Update the take-home exercise',
      'Train two new interviewers',
      'Source twenty candidates',
      'Calibrate the scorecard',
    ],
    subtasks: {},
    canvases: [
      {
        title: 'Interview loop',
        summary:
          'Four stages: intro call, take-home review, system design, team conversation. Decisions within two days.',
      },
    ],
  },
  {
    key: 'outage',
    name: 'Incident review: November outage',
    description:
      'Follow-ups from the 47-minute scheduling outage on 3 November caused by a database failover.',
    status: 'completed',
    visibility: 'workspace',
    owner: 'sami',
    teams: ['platform'],
    people: ['vera', 'dina'],
    tasks: [
      'Write the incident timeline',
      'Customer-facing post-mortem',
      'Alert on replication lag above 30 seconds',
      'Practise failover monthly',
      'Status page automation',
    ],
    subtasks: {},
    canvases: [
      {
        title: 'Post-mortem: 3 November',
        summary:
          'What happened, why failover took 40 minutes, and the five follow-ups that stop it from happening again.',
      },
    ],
  },
  {
    key: 'cab',
    name: 'Customer advisory board',
    description: 'Quarterly sessions with twelve customers to review the roadmap.',
    status: 'archived',
    visibility: 'workspace',
    owner: 'chen',
    teams: ['product'],
    people: ['xavier'],
    tasks: [
      'Invite the board members',
      'Prepare the roadmap review',
      'Send the summary to attendees',
    ],
    subtasks: {},
    canvases: [
      {
        title: 'Advisory board summary',
        summary:
          'Top asks: per-location reporting, shift swaps, and payroll export. All three are on the roadmap.',
      },
    ],
  },
]
